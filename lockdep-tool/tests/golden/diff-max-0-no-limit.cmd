diff proc-interface/fixtures/analysis/diff/old proc-interface/fixtures/analysis/diff/new --max 0 --brief
