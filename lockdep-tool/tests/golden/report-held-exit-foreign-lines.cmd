report proc-interface/fixtures/reports-handmade/lock-held-at-exit-foreign-lines.log
