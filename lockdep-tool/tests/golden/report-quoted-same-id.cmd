report --brief proc-interface/fixtures/reports-handmade/circular-cycle3-other-entry-quoted.eml
