"""Shared sheets and moves for the time-slice (Archetype) tests. Stat rolls are 2d10 read
0-9 plus (stat - 10); attacks roll the attacker's two faces, then the defender's two."""

from typing import Any

from fracas.rules.encounter import recorded_events
from fracas.rules.events import Event, Rolled
from tests.support import do

SWORD = {"name": "sword", "damage": 4, "parry": 2}
SHIELD = {"name": "shield", "damage": 1, "shield": 3, "limb": "left arm"}
PISTOL = {"name": "pistol", "damage": 4, "ranged": True, "reload_ts": 2}
AXE = {"name": "axe", "damage": 5}
SPEAR = {"name": "spear", "damage": 3, "parry": 1}
# Alice: [Q] +2, [V] +3, [U] +1; HP 20, DR 1; sword and shield in hand.
ALICE = {
    "q": 12,
    "v": 13,
    "u": 11,
    "hp": 20,
    "dr": 1,
    "weapons": [SWORD, SHIELD, PISTOL],
    "equipped": ["sword", "shield"],
    "medical_kit": True,
    "spells": [
        {"name": "spark", "ts": 4, "damage": 3},
        {"name": "mend", "ts": 2, "heal": 2},
        {"name": "light", "ts": 1},
    ],
}
# The orc: [Q] +0, [V] +1; HP 15, DR 0; axe in hand.
ORC = {"q": 10, "v": 11, "u": 9, "hp": 15, "weapons": [AXE], "equipped": ["axe"]}
# The goblin: [Q] +1, [V] +0; HP 8; spear in hand.
GOBLIN = {"q": 11, "v": 10, "u": 10, "hp": 8, "weapons": [SPEAR], "equipped": ["spear"]}
# Initiative: Alice 5+4+2 = 11, the orc 3+3+0 = 6, the goblin 4+0+1 = 5.
INITIATIVE = [5, 4, 3, 3, 4, 0]


def ts_fight(
    fracas,
    options: dict[str, Any] | None = None,
    begin: dict[str, Any] | None = None,
    dice: list[int] | None = None,
    pcs: tuple[str, ...] = ("alice", "bob"),
    **changed: dict[str, Any],
):
    """Alice (PC), the orc and the goblin, in that order; `changed` replaces or adds a sheet
    (added combatants roll initiative after them with `dice`)."""
    e = fracas.new("timeslice", title="test", options=options or {})
    fighters = {"alice": ALICE, "orc": ORC, "goblin": GOBLIN, **changed}
    for name, sheet in fighters.items():
        side = "pc" if name in pcs else "npc"
        do(e, {"action": "join", "combatant": name, "sheet": sheet, "side": side})
    do(e, {"action": "begin", **(begin or {})}, INITIATIVE + (dice or []))
    return e


def act(e, actor: str, action: str, *targets: str, dice: list[int] | None = None, **fields: Any):
    command = {"action": action, "actor": actor, "targets": list(targets), **fields}
    return do(e, command, dice).events


def end_turn(e, actor: str | None = None) -> list[Event]:
    return do(e, {"action": "next", **({"actor": actor} if actor else {})}).events


def rolled(events) -> list[Rolled]:
    return [ev for ev in events if isinstance(ev, Rolled)]


def fighter(e, who: str):
    return e.state.fighters[who]


def ts(e, who: str) -> int:
    return e.state.fighters[who].ts


def hp(e, who: str) -> int:
    return e.state.fighters[who].hp


def all_events(e) -> list[Event]:
    return [event for _, event in recorded_events(e.store, e.id, e.ruleset)]
