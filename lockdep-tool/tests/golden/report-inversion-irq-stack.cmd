report proc-interface/fixtures/reports-handmade/irq-inversion-forwards.txt
