report proc-interface/fixtures/reports-handmade/safe-unsafe-held-print-fn.txt
