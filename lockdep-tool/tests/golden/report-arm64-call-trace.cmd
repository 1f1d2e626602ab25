report proc-interface/fixtures/reports-handmade/circular-abba-arm64.log
