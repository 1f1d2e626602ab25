merge proc-interface/fixtures/analysis/crossboot/boot1 proc-interface/fixtures/analysis/crossboot/boot2
