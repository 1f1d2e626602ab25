report proc-interface/fixtures/reports-handmade/circular-abba-foreign-in-stacks.log
