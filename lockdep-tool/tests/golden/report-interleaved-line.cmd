report --brief proc-interface/fixtures/reports-handmade/circular-abba-interleaved.log
