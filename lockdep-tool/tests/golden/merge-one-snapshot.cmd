merge proc-interface/fixtures/analysis/crossboot/boot1
