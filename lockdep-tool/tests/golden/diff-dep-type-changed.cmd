diff proc-interface/fixtures/analysis/diffcases/t1 proc-interface/fixtures/analysis/diffcases/t2
