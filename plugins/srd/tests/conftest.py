# `pytest --tier slow` or `all` (fracas's README); a test's own logs commit unflushed
pytest_plugins = ["fracas.testing.tiers", "fracas.testing.unflushed"]
