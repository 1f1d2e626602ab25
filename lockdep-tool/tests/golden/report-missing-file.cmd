report proc-interface/fixtures/reports-handmade/no-such.console
