report proc-interface/fixtures/reports-handmade/circular-abba-irq-marks-only-foreign.log --brief
