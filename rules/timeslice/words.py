"""The table's words: how a sentence says each maneuver, and the numbers a wound shows."""

from typing import Any

from fracas.rules.api import WoundRow

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
