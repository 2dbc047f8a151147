"""What every ruleset shows the table, in one shape the projections can store."""

from typing import Any

import msgspec

# The encounter that keeps the party, in the log beside the fights (rules/party.py): named
# here, beside what the read models hold, so that a quick read telling the fights apart
# (the latest one, `status`) loads none of the party's rules.
PARTY = "party"


class InitiativeRow(msgspec.Struct, frozen=True):
    """A combatant's place in the order: `key` is what orders them as the table reads it
    ("DEX 14", "shot 9"), `acting` whether they act now, `status` a few words more."""

    combatant: str
    name: str
    order: int
    key: str
    acting: bool
    status: str = ""


HELD = "held"  # a row's detail: {condition: who holds it}; fracas shows no duration of these


class WoundRow(msgspec.Struct, frozen=True):
    """A combatant's health: `health` as the table reads it ("HP 5/12"), and as numbers:
    `current` of `maximum` (None: no fixed maximum) in `unit`, counting what is `left`
    (HP) or what was `taken` (wound points). A condition another holds (a d20 spell's
    effect, held by its caster's concentration) is named with its holder in `detail[HELD]`:
    its duration is said once, on what holds it, not on the condition too."""

    combatant: str
    name: str
    side: str
    health: str
    conditions: list[str]
    detail: dict[str, Any] = {}
    current: int = 0
    maximum: int | None = None
    unit: str = ""
    counts: str = "left"


class PinRow(msgspec.Struct, frozen=True):
    """One combatant holding another (`kind`: a grapple, a pin, a hold)."""

    holder: str
    target: str
    kind: str


class View(msgspec.Struct, frozen=True):
    """What the table sees: the round and phase, who acts, the order, health, pins."""

    round: int
    phase: str
    acting: list[str]
    initiative: list[InitiativeRow]
    wounds: list[WoundRow]
    pins: list[PinRow]
    notes: list[str] = []
    unseen: bool = False  # players: someone they do not see is acting (the GM's hand)
    # Who acts after those acting now, in the order the rules will give them the turn
    # (the rest of the round, then the next where its order is already known): the
    # ruleset's own reading of its order, never a guess. Empty: nobody known yet.
    upcoming: list[str] = []

    def __repr__(self) -> str:
        """A view as a GM reads it in a Python session: one line per combatant."""
        health = {w.combatant: w for w in self.wounds}
        lines = [f"<View round {self.round}, {self.phase}; acting: {', '.join(self.acting) or '-'}"]
        for row in self.initiative:
            wound = health.get(row.combatant)
            shown = f"{wound.health} {', '.join(wound.conditions)}".strip() if wound else ""
            mark = ">" if row.acting else " "
            lines.append(f" {mark}{row.order:>2}. {row.name} [{row.key}] {row.status}; {shown}")
        lines += [f"  {p.holder} {p.kind} {p.target}" for p in self.pins]
        return "\n".join(lines) + ">"
