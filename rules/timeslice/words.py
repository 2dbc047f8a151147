"""The table's words: how a sentence says each maneuver, and the numbers a wound shows."""

from collections.abc import Sequence
from typing import Any

from fracas.rules.api import Event, WoundRow, defence_rolls

VERBS = {
    "attack": "attacks",
    "interrupt": "interrupts",
    "move": "moves",
    "draw": "draws",
    "stow": "stows",
    "aim": "aims",
    "reload": "reloads",
    "cast": "casts",
    "treat": "treats",
    "heal": "heals",
    "check": "makes a check",
}


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    detail = wound.detail
    return {
        "TS": f"{detail.get('ts', 0)}/{detail.get('ts_max', 0)}",
        "Saved TS": detail.get("saved_ts", 0),
    }


DEFENCES = frozenset(("dodge", "block", "parry"))  # a target's own [Q] roll (002-23)


def target_outcomes(command: dict[str, Any], events: Sequence[Event]) -> dict[str, str]:
    """002-23: a target's defence roll against an attack or a damaging spell, as it came to
    ("orc's dodge holds", "orc's parry fails")."""
    rolled = defence_rolls(command, events, DEFENCES)
    return {who: f"'s {kind} {result}" for who, (kind, result) in rolled.items()}
