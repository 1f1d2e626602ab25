report proc-interface/fixtures/reports-handmade/circular-abba-crlf.console
