"""The table's words: how a sentence says each action, and which rules a roll's line cites."""

from collections.abc import Sequence
from typing import Any

from fracas.rules.api import Event, Rolled

VERBS = {
    "attack": "attacks",
    "aim": "aims",
    "disarm": "tries to disarm",
    "pin": "tries to pin",
    "escape": "tries to escape",
    "move": "moves",
    "wait": "waits",
    "stand": "stands up",
    "ready": "readies",
    "other": "acts",
}


def facts(event: Event) -> frozenset[str]:
    """Mechanic 3's criticals and fumbles, as the test's result names them."""
    if isinstance(event, Rolled) and event.result in ("critical", "fumble"):
        return frozenset((event.result,))
    return frozenset()


DEFENCES = frozenset(("dodge", "fight-back", "block"))  # a target's own roll against an attack


def target_outcomes(command: dict[str, Any], events: Sequence[Event]) -> dict[str, str]:
    """000-13, 000-17: a target who defended with a roll of their own, with what it rolled
    ("bob's dodge (failure)"); whether it beat the attack is the attack's own outcome."""
    targets = set(command.get("targets") or []) - {command.get("actor")}
    return {
        e.actor: f"'s {e.purpose} ({e.result})"
        for e in events
        if isinstance(e, Rolled) and e.actor in targets and e.purpose in DEFENCES and e.result
    }
