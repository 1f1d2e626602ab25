diff proc-interface/fixtures/analysis/diffcases/onlystats proc-interface/fixtures/analysis/diffcases/t2
