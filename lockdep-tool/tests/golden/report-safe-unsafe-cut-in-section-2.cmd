report proc-interface/fixtures/reports-handmade/safe-unsafe-cut-in-section-2.txt
