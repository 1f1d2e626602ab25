report proc-interface/fixtures/reports-handmade/circular-abba-irq-marks-only-foreign-blank.log --brief
