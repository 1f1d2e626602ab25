report proc-interface/fixtures/reports-handmade/circular-abba-irq-marks-only-foreign-eof.log --brief
