"""The table's words: how a sentence says each action, the headline and the numbers a wound
shows."""

from typing import Any

from fracas.rules.api import Event, Rolled, View, WoundRow

VERBS = {
    "attack": "attacks",
    "dodge": "dodges",
    "parry": "parries",
    "flee": "flees",
    "move": "moves",
    "aim": "aims",
    "draw": "draws",
    "grapple": "grapples",
    "break": "breaks free",
    "release": "lets go",
    "feint": "feints",
    "shield": "raises a shield",
    "other": "acts",
    "withdraw": "withdraws",
}


def headline(view: View) -> str:
    """Where the turn is: "declaring", "resolving"."""
    _, colon, where = view.phase.partition(": ")
    return where if colon else ""


def facts(event: Event) -> frozenset[str]:
    """Mechanic 1: +4 on a check is a critical success, -4 a critical failure (a fumble)."""
    if not isinstance(event, Rolled) or event.roll.dice != "4dF" or event.target is None:
        return frozenset()
    return {4: frozenset(("critical",)), -4: frozenset(("fumble",))}.get(
        event.roll.total, frozenset()
    )


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    return {"Penalty": wound.detail.get("penalty", 0)}
