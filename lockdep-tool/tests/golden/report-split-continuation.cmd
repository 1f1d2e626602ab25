report --brief proc-interface/fixtures/reports-handmade/circular-split-continuation.log
