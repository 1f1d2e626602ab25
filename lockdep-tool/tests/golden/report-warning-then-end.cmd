report proc-interface/fixtures/reports-handmade/circular-abba-warning-then-end.log
