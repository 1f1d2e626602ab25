report proc-interface/fixtures/reports-handmade/circular-abba-warning-inside.log
