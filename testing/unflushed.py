"""A pytest plugin: the logs a test opens in its own process commit without waiting for the
disk (SQLite's `synchronous=OFF`), as the test suite's PostgreSQL server runs without fsync.
A test proves what a log holds and refuses, which a flush does not change; on a busy machine
the waits for the disk took a fifth to a third of a module's time. The processes the slow
tier starts (`fracas serve`, the kill and full-disk trials) keep the product's FULL."""

from collections.abc import Iterator

import pytest

from fracas.ledger import durability


@pytest.fixture(autouse=True, scope="session")
def _logs_unflushed() -> Iterator[None]:
    product = durability.SYNCHRONOUS
    durability.SYNCHRONOUS = "OFF"
    yield
    durability.SYNCHRONOUS = product
