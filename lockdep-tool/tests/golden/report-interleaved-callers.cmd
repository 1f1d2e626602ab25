report proc-interface/fixtures/reports-handmade/circular-cycle3-syzbot-interleaved.txt
