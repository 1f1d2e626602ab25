report --brief proc-interface/fixtures/reports-handmade/circular-abba-kmsg-caller.log
