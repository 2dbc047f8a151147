"""Commands every ruleset understands, beside its own actions. Tagged by `action`."""

import re
from collections.abc import Collection
from typing import Any

import msgspec

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.events import CombatantJoined, Declared


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


def check_newcomer(command: Join, present: Collection[str]) -> None:
    """Every ruleset's checks on a joining combatant's id and side."""
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", command.combatant):
        raise BadInputError(
            f"combatant id {command.combatant!r} may hold only letters, digits, '.', '_' and '-'"
        )
    if command.combatant in present:
        raise RefusedError(f"{command.combatant!r} is already in this encounter")
    if command.side not in ("pc", "npc"):
        raise BadInputError(f"side must be pc or npc, not {command.side!r}")


def check_can_begin(started: bool, present: Collection[str]) -> None:
    """Every ruleset's checks before the fight begins."""
    if started:
        raise RefusedError("the fight has already begun")
    if not present:
        raise RefusedError("nobody has joined yet: `fracas add` combatants first")


def joined_event(command: Join, sheet: msgspec.Struct) -> CombatantJoined:
    """The event that records a newcomer with their checked sheet."""
    name = command.name or command.combatant
    return CombatantJoined(command.combatant, name, command.side, msgspec.to_builtins(sheet))


def declared_event(command: Command, actor: str, command_id: str) -> Declared:
    """The event that records a command as the table gave it."""
    tag = command.__struct_config__.tag
    return Declared(actor, tag, msgspec.to_builtins(command), command_id)
