report --brief proc-interface/fixtures/reports-handmade/interleaved-line-after-colon.log
