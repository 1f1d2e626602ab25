merge proc-interface/fixtures/analysis/diffcases/k1 proc-interface/fixtures/analysis/diffcases/k2 --all
