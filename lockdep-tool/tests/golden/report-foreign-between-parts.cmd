report proc-interface/fixtures/reports-handmade/inconsistent-foreign-between-parts.console
