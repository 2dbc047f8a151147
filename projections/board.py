"""The status board: a view read at a glance, the same for the terminal, the shell and a page.

Built from a View and the ruleset's words (never from the ruleset's state), so it can be
read straight from the read models without folding anything.
"""

from collections import Counter
from typing import Any

import msgspec

from fracas.rules.ruleset import Ruleset
from fracas.rules.views import View


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
    hidden: bool = False  # the GM's board: the players do not see this combatant yet


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


def headline(view: View, ruleset: Ruleset, names: dict[str, str] | None = None) -> str:
    """'Round 4 · Alice Reyes to act'; 'Sequence 1 · shot 12 · Bob to act': the round in
    the ruleset's word, and what its headline adds."""
    names = names or shown_names(view)
    if view.phase == "setup":
        return f"Setting up · {len(view.wounds)} combatants"
    parts = [f"{ruleset.round_word} {view.round}"]
    if view.phase == "ended":
        return f"{parts[0]} · the encounter has ended"
    if extra := ruleset.headline_of(view):
        parts.append(extra)
    if view.acting:
        parts.append(", ".join(names.get(a, a) for a in view.acting) + " to act")
    elif view.phase == "over":
        parts.append("nobody is left able to act")
    return " · ".join(parts)


def board(
    encounter: str, ruleset: Ruleset, view: View, hidden: frozenset[str] = frozenset()
) -> Board:
    """The board of a view; `hidden`: the combatants the players do not see (the GM's)."""
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
                ruleset.numbers_of(wound) if wound else {},
                row.combatant in hidden,
            )
        )
    pins = [
        f"{names.get(p.holder, p.holder)} {p.kind} {names.get(p.target, p.target)}"
        for p in view.pins
    ]
    header = headline(view, ruleset, names)
    return Board(encounter, ruleset.name, header, rows, pins, view.notes)
