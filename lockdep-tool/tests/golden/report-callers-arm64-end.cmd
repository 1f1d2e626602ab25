report --brief proc-interface/fixtures/reports-handmade/circular-abba-arm64-callers.log
