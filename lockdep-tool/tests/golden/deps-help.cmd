deps --help
