report proc-interface/fixtures/handmade/prove/lockdep
