report --brief proc-interface/fixtures/reports-handmade/circular-abba-dmesg-iso.log
