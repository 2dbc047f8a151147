"""The table's words: how a sentence says each action, and the numbers a wound shows."""

from collections.abc import Sequence
from typing import Any

from fracas.rules.api import Event, Rolled, WoundRow, defence_rolls

from .rolls import reading

VERBS = {
    "attack": "attacks",
    "evade": "evades",
    "quick": "takes a quick action",
    "other": "acts",
    "hold": "holds",
    "fire": "fires",
}


def facts(event: Event) -> frozenset[str]:
    """Mechanic 1: an Outcome below 0 is a botch."""
    if isinstance(event, Rolled) and (event.result or "").endswith(f": {reading(-1)}"):
        return frozenset(("fumble",))
    return frozenset()


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    detail = wound.detail
    lost = -detail.get("penalty", 0)  # the view keeps it as the pool's change, 0 or less
    return {"Injuries": len(detail.get("injuries", [])), "Dice lost to injuries": lost}


DEFENCES = frozenset(("dodge", "parry", "clash"))  # a target's own pool against an attack


def target_outcomes(command: dict[str, Any], events: Sequence[Event]) -> dict[str, str]:
    """004-11..004-19: a target who reacted with a pool of their own, with what it came to
    ("bob's parry (partial success)"); whether it turned the attack is the attack's own."""
    rolled = defence_rolls(command, events, DEFENCES)
    return {who: f"'s {kind} ({said.rpartition(': ')[2]})" for who, (kind, said) in rolled.items()}


def healed_words(amount: int) -> str:
    """Body given back (004-M3), as a line says it: "regains 2 Body"."""
    return f"regains {amount} Body"
