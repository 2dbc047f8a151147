"""Hex text as a decoded body holds it (a seed, a SHA-256 digest), checked as it is decoded.
Apart from fracas.ledger.values because msgspec compiles a pattern when it is declared: the
modules that decode seeds and exports import these, a quick read (`status`) does not."""

from typing import Annotated

import msgspec

from fracas.ledger.values import HEX_PATTERN

Hex = Annotated[str, msgspec.Meta(pattern=HEX_PATTERN)]
Sha256 = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}\Z")]
