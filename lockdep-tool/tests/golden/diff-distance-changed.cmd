diff proc-interface/fixtures/analysis/diffcases/d1 proc-interface/fixtures/analysis/diffcases/d2
