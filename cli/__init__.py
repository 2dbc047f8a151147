"""fracas.cli: the command line, thin over fracas.projections."""
