"""Free text as the GM types it: a reason, a note, a title, a condition's name. The log and
the status show each on one line, so a newline or another control character is refused where
it is typed, as `rename` and `--by` refuse it."""

from typing import TYPE_CHECKING, Any

import click
from msgspec import inspect

from fracas.cli.numbers import ascii_int
from fracas.ledger.errors import said

if TYPE_CHECKING:
    from fracas.rules.events import Modifier


class OneLine(click.ParamType):
    """Text without newlines or other control characters (a tab included)."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> str:
        text = str(value)
        if not text.isprintable():
            self.fail(
                f"{said(text)} is not accepted; give it on one line, without control characters",
                param,
                ctx,
            )
        return text


LINE = OneLine()


class LogPath(OneLine):
    """Where the log is: a file name or a PostgreSQL URL, never empty."""

    name = "path"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> str:
        text = super().convert(value, param, ctx)
        if not text.strip():
            self.fail("the log's path is empty; give a file name, like --db fight.db", param, ctx)
        return text


LOG_PATH = LogPath()


class ModifierText(OneLine):
    """--mod VALUE[:REASON]: a whole number within a modifier's bounds, and why."""

    name = "modifier"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> "Modifier":
        from fracas.rules.events import Bounded, Modifier  # only for a command given --mod
        from fracas.rules.names import plain

        if isinstance(value, Modifier):
            return value
        text = super().convert(value, param, ctx)
        number, _, reason = text.partition(":")
        bounds = plain(inspect.type_info(Bounded))
        low, high = bounds.ge, bounds.le
        try:
            modifier = Modifier(ascii_int(number), reason.strip() or "GM's modifier")
        except ValueError:
            modifier = None
        if modifier is None or not low <= modifier.value <= high:
            self.fail(
                f"VALUE[:REASON] takes VALUE a whole number from {low} to {high}, "
                f"like --mod -20:smoke; got {said(text)}",
                param,
                ctx,
            )
        return modifier


MODIFIER = ModifierText()
