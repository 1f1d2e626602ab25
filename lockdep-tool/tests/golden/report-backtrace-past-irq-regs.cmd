report proc-interface/fixtures/reports/inconsistent-on-first.console
