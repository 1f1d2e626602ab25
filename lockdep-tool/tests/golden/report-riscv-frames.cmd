report proc-interface/fixtures/reports-handmade/circular-abba-riscv.log
