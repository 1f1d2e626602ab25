help deps
