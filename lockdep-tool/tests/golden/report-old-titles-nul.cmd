report --brief proc-interface/fixtures/reports-handmade/old-titles-and-nul.log
