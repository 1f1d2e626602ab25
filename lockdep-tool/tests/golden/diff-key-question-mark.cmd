diff proc-interface/fixtures/analysis/diffcases/q1 proc-interface/fixtures/analysis/diffcases/q2
