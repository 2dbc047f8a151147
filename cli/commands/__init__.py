"""The commands of `fracas`, by concern; cli/main.py lists them by name."""
