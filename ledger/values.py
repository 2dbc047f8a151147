"""Value types checked where a value enters (an import, an event body, a key file): a
whole number SQLite can store, hex (and in fracas.ledger.digests, hex and a SHA-256 digest
as a body holds them). A value that does not fit is refused there, in one line, before it
can reach SQLite or `bytes.fromhex`."""

import re
from typing import Annotated

import msgspec

SQL_MIN, SQL_MAX = -(2**63), 2**63 - 1
SqlInt = Annotated[int, msgspec.Meta(ge=SQL_MIN, le=SQL_MAX)]
HEX_PATTERN = r"^(?:[0-9a-f]{2})+\Z"


def is_hex(text: object) -> bool:
    """Lower-case hex of whole bytes, and nothing else (no spaces, no sign, no `0x`)."""
    return isinstance(text, str) and re.match(HEX_PATTERN, text) is not None
