report proc-interface/fixtures/reports-handmade/circular-abba-warning-in-calltrace.log
