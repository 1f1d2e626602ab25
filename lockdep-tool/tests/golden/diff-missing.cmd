diff proc-interface/fixtures/analysis/diff/nonexistent proc-interface/fixtures/analysis/diff/new
