report proc-interface/fixtures/reports-handmade/irq-inversion-backwards.txt
