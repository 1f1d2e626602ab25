report proc-interface/fixtures/reports-handmade/irq-inversion-cut-in-section.txt
