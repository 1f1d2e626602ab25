diff proc-interface/fixtures/analysis/diffcases/lock_stat.after proc-interface/fixtures/analysis/diffcases/lock_stat.before
