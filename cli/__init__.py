"""fracas.cli: the command line, thin over fracas.projections."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_off() -> Iterator[None]:
    """Python's cyclic garbage collector off for a while (then as it was): for loading
    modules, whose classes, functions and constants live as long as the process. Scanning
    them as they are made frees nothing, and was a tenth of a quick command's start
    (`fracas status --json`: click, msgspec, sqlite-utils and fracas loading)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
