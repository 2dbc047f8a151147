"""The status board: a view read at a glance, the same for the terminal, the shell and a page.

Built from a View alone (never from the ruleset's state), so it can be read straight from
the read models without loading a ruleset.
"""

from collections import Counter
from typing import Any

import msgspec

from fracas.rules.views import View, WoundRow

ROUND_WORD = {"shotclock": "Sequence", "fudge": "Turn"}


class BoardRow(msgspec.Struct, frozen=True):
    order: int
    combatant: str
    name: str  # told apart when two combatants share a name
    side: str
    key: str
    acting: bool
    status: str
    health: str
    conditions: list[str]
    numbers: dict[str, Any]  # the ruleset's key numbers beside health (Dice, TS, Next shot)


class Board(msgspec.Struct, frozen=True):
    encounter: str
    ruleset: str
    header: str
    rows: list[BoardRow]
    pins: list[str]
    notes: list[str]


def shown_names(view: View) -> dict[str, str]:
    """Each combatant's name, with the id beside it where two share the name."""
    counts = Counter(w.name for w in view.wounds)
    return {
        w.combatant: w.name if counts[w.name] == 1 else f"{w.name} ({w.combatant})"
        for w in view.wounds
    }


def headline(view: View, ruleset: str, names: dict[str, str] | None = None) -> str:
    """'Round 4 · Alice Reyes to act'; 'Sequence 1 · shot 12 · Bob to act'."""
    names = names or shown_names(view)
    if view.phase == "setup":
        return f"Setting up · {len(view.wounds)} combatants"
    word = ROUND_WORD.get(ruleset, "Round")
    parts = [f"{word} {view.round}"]
    if view.phase == "ended":
        return f"{parts[0]} · the encounter has ended"
    if ruleset == "shotclock" and ", shot " in view.phase:
        parts.append("shot " + view.phase.rsplit(", shot ", 1)[1])
    elif ruleset == "fudge" and ": " in view.phase:
        parts.append(view.phase.split(": ", 1)[1])
    if view.acting:
        parts.append(", ".join(names.get(a, a) for a in view.acting) + " to act")
    elif view.phase == "over":
        parts.append("nobody is left able to act")
    return " · ".join(parts)


def key_numbers(ruleset: str, wound: WoundRow) -> dict[str, Any]:
    """The numbers each system's table keeps an eye on, beside health."""
    detail = wound.detail
    if ruleset == "pool":
        return {"Injuries": len(detail.get("injuries", [])), "Dice": detail.get("penalty", 0)}
    if ruleset == "shotclock":
        return {"Next shot": detail.get("next_shot", 0), "Init": detail.get("initiative", 0)}
    if ruleset == "timeslice":
        return {
            "TS": f"{detail.get('ts', 0)}/{detail.get('ts_max', 0)}",
            "Saved TS": detail.get("saved_ts", 0),
        }
    if ruleset == "fudge":
        return {"Penalty": detail.get("penalty", 0)}
    return {}


def board(encounter: str, ruleset: str, view: View) -> Board:
    names = shown_names(view)
    wounds = {w.combatant: w for w in view.wounds}
    rows = []
    for row in view.initiative:
        wound = wounds.get(row.combatant)
        rows.append(
            BoardRow(
                row.order,
                row.combatant,
                names.get(row.combatant, row.name),
                wound.side if wound else "",
                row.key,
                row.acting,
                row.status,
                wound.health if wound else "",
                wound.conditions if wound else [],
                key_numbers(ruleset, wound) if wound else {},
            )
        )
    pins = [
        f"{names.get(p.holder, p.holder)} {p.kind} {names.get(p.target, p.target)}"
        for p in view.pins
    ]
    return Board(encounter, ruleset, headline(view, ruleset, names), rows, pins, view.notes)
