diff proc-interface/fixtures/analysis/diffcases/lock_stat.before proc-interface/fixtures/analysis/diffcases/lock_stat.after
