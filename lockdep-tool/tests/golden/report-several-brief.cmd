report --brief proc-interface/fixtures/reports-handmade/several-with-noise.log
