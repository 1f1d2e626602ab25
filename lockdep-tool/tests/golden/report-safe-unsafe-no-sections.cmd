report proc-interface/fixtures/reports-handmade/safe-unsafe-no-sections.txt
