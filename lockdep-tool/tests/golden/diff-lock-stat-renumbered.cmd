diff proc-interface/fixtures/analysis/diffcases/ls-renumbered-old proc-interface/fixtures/analysis/diffcases/ls-renumbered-new
