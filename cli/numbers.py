"""Whole numbers as the GM types them: ASCII digits only. Python's int() also reads "²",
"١٢" and "１２", and "²" passes str.isdigit() but not int(); neither is a number here."""

import re
from typing import Any

import click

from fracas.ledger.errors import said

# [0-9], not \d; 18 digits always fit 64 bits. A pattern, compiled (and cached by re) when
# first read: a command that takes no number does not compile it.
WHOLE = r"[+-]?[0-9]{1,18}"


def ascii_int(text: str) -> int:
    """`text` as a whole number of ASCII digits (an optional sign), or ValueError."""
    stripped = text.strip()
    if not re.fullmatch(WHOLE, stripped):
        raise ValueError(f"{text!r} is not a whole number")
    return int(stripped)


class AsciiInt(click.IntRange):
    """click's INT and IntRange, reading ASCII digits only."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> Any:
        if isinstance(value, str):
            try:
                value = ascii_int(value)
            except ValueError:
                self.fail(f"{said(value)} is not a valid integer (digits 0-9)", param, ctx)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        """Nothing for a number with no bounds (click would show `x<=None`)."""
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()


INT = AsciiInt()
