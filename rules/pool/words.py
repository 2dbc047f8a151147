"""The table's words: how a sentence says each action, and the numbers a wound shows."""

from typing import Any

from fracas.rules.api import Event, Rolled, WoundRow

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
    return {"Injuries": len(detail.get("injuries", [])), "Dice": detail.get("penalty", 0)}
