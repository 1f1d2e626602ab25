report --brief proc-interface/fixtures/reports-handmade/nested-lock-name-with-space.txt
