report --brief proc-interface/fixtures/reports-handmade/circular-cut-in-held-locks.log
