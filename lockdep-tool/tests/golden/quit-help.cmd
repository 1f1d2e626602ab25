quit --help
