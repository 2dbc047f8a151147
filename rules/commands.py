"""Commands every ruleset understands, beside its own actions. Tagged by `action`."""

from typing import Any

import msgspec


class Command(msgspec.Struct, frozen=True, tag_field="action", forbid_unknown_fields=True):
    """Base of every command: a typed request from the table."""


class Join(Command, tag="join"):
    combatant: str
    sheet: dict[str, Any]
    name: str = ""
    side: str = "npc"


class Begin(Command, tag="begin"):
    """Start the fight: initiative, first round."""


class Pass(Command, tag="next"):
    """The acting combatant ends their turn without (further) action."""

    actor: str | None = None
