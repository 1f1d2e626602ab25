dot --report 1 --log proc-interface/fixtures/reports/transitive-safe-unsafe.console
