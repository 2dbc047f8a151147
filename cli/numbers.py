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
        if isinstance(value, int) and not self.within(value):
            raise click.UsageError(self.out_of_range(value, param, ctx), ctx)
        return super().convert(value, param, ctx)

    def within(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def out_of_range(self, value: int, param: click.Parameter | None, ctx: Any) -> str:
        """'AMOUNT 0 is out of range: give harm an AMOUNT from 1 to 10000', in place of
        click's 'Invalid value for 'AMOUNT': 0 is not in the range 1<=x<=10000.'."""
        name = param.human_readable_name if param is not None else "the number"
        if isinstance(param, click.Option):  # as typed: --count, not count
            name = max(param.opts, key=len)
        if self.min is not None and self.max is not None:
            bounds = f"from {self.min} to {self.max}"
        elif self.min is not None:
            bounds = f"of {self.min} or more"
        else:
            bounds = f"of {self.max} or less"
        article = "an" if name.lstrip("-")[:1].lower() in tuple("aeiou") else "a"
        command = getattr(ctx, "info_name", None)
        give = f"give {command} {article} {name}" if command else f"give {name}"
        return f"{name} {value} is out of range: {give} {bounds}"

    def _describe_range(self) -> str:
        """Nothing for a number with no bounds (click would show `x<=None`)."""
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()


INT = AsciiInt()
