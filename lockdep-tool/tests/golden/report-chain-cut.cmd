report proc-interface/fixtures/reports-handmade/circular-chain-cut.log
