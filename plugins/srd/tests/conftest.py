pytest_plugins = ["fracas.testing.tiers"]  # `pytest --tier slow` or `all`: fracas's README
