report proc-interface/fixtures/reports/cmp-fn-misordered.console --brief
