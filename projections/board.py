"""The status board: a view read at a glance, the same for the terminal, the shell and a page.

Built from a View and the ruleset's words (never from the ruleset's state), so it can be
read straight from the read models without folding anything.
"""

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

import msgspec

from fracas.rules.durations import plural
from fracas.rules.views import View, WoundRow

REMOVED = "removed"  # `fracas.rules.gm.REMOVED`, the GM took them out: not loaded for a word

if TYPE_CHECKING:  # the read models store the headline: loading them loads no ruleset
    from fracas.rules.ruleset import Ruleset


class Bar(msgspec.Struct, frozen=True):
    """A health bar: `left` of `maximum` in `unit`, whether the ruleset counts what is left
    (HP) or what was taken (wound points)."""

    left: int
    maximum: int
    unit: str

    @property
    def percent(self) -> int:
        return round(100 * self.left / self.maximum)


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
    state: str = ""  # unhurt, hurt, bloodied or down (`descriptor`): the bar's colour
    bar: Bar | None = None  # None: no fixed maximum, or a number the audience may not see
    gone: str = ""  # an NPC out of the fight for good, in the ruleset's word ("dead"): a short row
    # phrases of `health` a screen shows as chips beside the conditions, not in its health
    # line (the ruleset's `health_chips`: srd's "hellish rebuke 1/1 today")
    chips: list[str] = []

    def shown_numbers(self) -> list[tuple[str, str]]:
        """The key numbers that have a value, as the table reads them ("Reaction: yes")."""
        return shown_numbers(self.numbers)


class Board(msgspec.Struct, frozen=True):
    encounter: str
    ruleset: str
    header: str
    rows: list[BoardRow]
    pins: list[str]
    notes: list[str]
    next_up: str = ""  # who acts after those acting now, as the order stands


def shown_numbers(numbers: dict[str, Any]) -> list[tuple[str, str]]:
    """A ruleset's key numbers that have a value ("Temp HP" of 0 or "" is left off, not
    shown as a label alone); yes or no for a flag."""
    shown = []
    for label, value in numbers.items():
        if value is None or value == "" or (value == 0 and not isinstance(value, bool)):
            continue
        shown.append((label, ("yes" if value else "no") if isinstance(value, bool) else str(value)))
    return shown


def descriptor(wound: WoundRow, ruleset: "Ruleset") -> str:
    """A combatant's health in a word, as the players read an NPC's: unhurt, hurt, bloodied,
    down (as the ruleset says what down is)."""
    if ruleset.is_down(wound.conditions):
        return "down"
    if wound.counts == "left":
        if wound.maximum is None or wound.current >= wound.maximum:
            return "unhurt"
        if wound.current <= 0:
            return "down"
        return "hurt" if wound.current * 2 > wound.maximum else "bloodied"
    if wound.current <= 0:
        return "unhurt"
    if wound.maximum is not None and wound.current >= wound.maximum:
        return "down"  # every wound the track holds is taken: nothing is left
    if wound.maximum is not None and wound.current * 2 >= wound.maximum:
        return "bloodied"
    return "hurt"


def bar_of(wound: WoundRow) -> Bar | None:
    if wound.maximum is None or wound.maximum <= 0:
        return None
    left = wound.current if wound.counts == "left" else wound.maximum - wound.current
    return Bar(max(0, min(left, wound.maximum)), wound.maximum, wound.unit or "HP")


def next_up(view: View, names: dict[str, str]) -> str:
    """Who acts after those acting now, as the ruleset's order gives the turn ('' when the
    ruleset does not know yet: a new round's initiative is still to roll)."""
    if view.phase in ("setup", "ended"):
        return ""
    found = next((who for who in view.upcoming if who not in view.acting), None)
    return names.get(found, found) if found else ""


def shown_names(view: View) -> dict[str, str]:
    """Each combatant's name, with the id beside it where two share the name."""
    counts = Counter(w.name for w in view.wounds)
    return {
        w.combatant: w.name if counts[w.name] == 1 else f"{w.name} ({w.combatant})"
        for w in view.wounds
    }


def headline(view: View, ruleset: "Ruleset", names: dict[str, str] | None = None) -> str:
    """'Round 4 · Alice Reyes to act'; 'Sequence 1 · shot 12 · Bob to act': the round in
    the ruleset's word, and what its headline adds."""
    names = names or shown_names(view)
    if view.phase == "setup":
        return f"Setting up · {plural(len(view.wounds), 'combatant')}"
    parts = [f"{ruleset.round_word} {view.round}"]
    if view.phase == "ended":
        return f"{parts[0]} · the encounter has ended"
    if extra := ruleset.headline_of(view):
        parts.append(extra)
    if view.acting:
        parts.append(", ".join(names.get(a, a) for a in view.acting) + " to act")
    elif view.unseen:
        parts.append("the GM is acting")
    elif view.phase == "over":
        parts.append("nobody is left able to act")
    return " · ".join(parts)


def unsaid(conditions: list[str], status: str) -> list[str]:
    """The conditions a status does not already say ("dead", "dying (1 saved, 0 failed)",
    or a continuous action's "continuous: driving" among its parts), so that a row says
    each once."""
    parts = re.split(r"; |, ", status)
    said = {status, *parts, *(part.partition(" (")[0] for part in parts)}
    said |= {part.partition(": ")[0] for part in parts}  # "removed: flees" says removed
    return [condition for condition in conditions if condition not in said]


def in_full(conditions: list[str], status: str) -> list[str]:
    """The conditions, each the status says more of in its own words ("dying" and "dying (1
    saved, 0 failed)") said as the status says it: a character's own phone shows what the
    board shows of them."""
    parts = re.split(r"(?:; |, )(?![^(]*\))", status) if status else []  # none in brackets
    fuller = {part.partition(" (")[0]: part for part in parts if " (" in part}
    return [fuller.get(condition, condition) for condition in conditions]


def unrepeated(status: str, health: str, numbers: dict[str, Any] | None = None) -> str:
    """The status, unless the health or the numbers beside it already say it ("Dead (12)
    -3" and "dead", "Next shot 9" and "next shot 9"): a row says each thing once."""
    shown = " ".join([health, *(f"{k} {v}" for k, v in shown_numbers(numbers or {}))])
    said = re.search(rf"\b{re.escape(status)}\b", shown, re.IGNORECASE) if status else None
    return "" if said else status


def gone(wound: WoundRow, status: str, ruleset: "Ruleset") -> str:
    """Why an NPC is out of the fight for good, in the ruleset's word (its `out` conditions:
    "dead", a mook's "out"; or the GM took it out: "left the fight"); "" while it may still
    act or come back (a character, an unconscious foe). A screen gives such a row one short
    line, so that the living take the room."""
    if wound.side == "pc":
        return ""
    out = [c for c in (*wound.conditions, status) if c in ruleset.out]
    if out:
        return out[0]
    return "left the fight" if REMOVED in wound.conditions else ""


def invitable(rows: list[BoardRow], ruleset: "Ruleset") -> list[BoardRow]:
    """The combatants a GM may give a phone link: the player characters still in the fight
    (none dead by the ruleset's `out`, none the GM took out, none hidden from the players
    yet); never an NPC or the dead."""
    gone = {*ruleset.out, REMOVED}
    return [
        row
        for row in rows
        if row.side == "pc"
        and not row.hidden
        and not {c.split(" (")[0] for c in (*row.conditions, row.status)} & gone
    ]


def board(
    encounter: str, ruleset: "Ruleset", view: View, hidden: frozenset[str] = frozenset()
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
                unsaid(wound.conditions, row.status) if wound else [],
                ruleset.numbers_of(wound) if wound else {},
                row.combatant in hidden,
                descriptor(wound, ruleset) if wound else "",
                bar_of(wound) if wound else None,
                gone(wound, row.status, ruleset) if wound else "",
                ruleset.chips_of(wound) if wound else [],
            )
        )
    pins = [
        f"{names.get(p.holder, p.holder)} {p.kind} {names.get(p.target, p.target)}"
        for p in view.pins
    ]
    header = headline(view, ruleset, names)
    following = next_up(view, names)
    return Board(encounter, ruleset.name, header, rows, pins, view.notes, following)
