merge proc-interface/fixtures/export-6.12.118-workload proc-interface/fixtures/analysis/diffcases/workload-proc
