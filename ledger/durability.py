"""How hard SQLite makes each commit durable: FULL (the product's), every commit flushed to the
disk before it returns. The test suite sets OFF for the logs it opens in its own process, as its
PostgreSQL server runs without fsync: a test proves what a log holds, not that a disk flushed."""

SYNCHRONOUS = "FULL"


def flushed() -> bool:
    """Does a finished write wait for the disk (an fsync)?"""
    return SYNCHRONOUS != "OFF"
