"""The table's words: how a sentence says each action, the headline and the numbers a wound
shows."""

from collections.abc import Sequence
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


DEFENCES = frozenset(("dodge", "parry"))  # a defender's own roll against an attack (003-1)


def target_outcomes(command: dict[str, Any], events: Sequence[Event]) -> dict[str, str]:
    """003-1: a defender's dodge or parry roll, with the defence it gave ("cy's dodge
    (defence 1)"), in the step that resolves the attack (the table moving on, 003-30)."""
    said = {}
    for e in events:
        kind = e.purpose.split(" against ")[0] if isinstance(e, Rolled) else ""
        if (
            isinstance(e, Rolled)
            and kind in DEFENCES
            and e.result
            and e.actor != command.get("actor")
        ):
            said[e.actor] = f"'s {kind} ({e.result})"
    return said


def healed_words(amount: int) -> str:
    """Wound levels taken away by healing: "is healed of 1 wound level"."""
    return f"is healed of {amount} wound level{'' if amount == 1 else 's'}"
