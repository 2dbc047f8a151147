"""The Contract's cast (the pool ruleset): Ana (PC), Bob and the thug, their weapons, and a
fight begun with them in that initiative order."""

from pathlib import Path
from typing import Any

from fracas.projections import Fracas
from tests.support import do

SWORD = {
    "name": "sword",
    "kind": "melee",
    "attribute": "brawn",
    "ability": "melee",
    "difficulty": 6,
    "damage": 1,
}
CLUB = {
    "name": "club",
    "kind": "melee",
    "attribute": "brawn",
    "ability": "melee",
    "difficulty": 6,
    "damage": 0,
}
PISTOL = {
    "name": "pistol",
    "kind": "firearm",
    "attribute": "dexterity",
    "ability": "firearms",
    "difficulty": 7,
    "damage": 2,
}
RIFLE = {**PISTOL, "name": "sniper rifle", "damage": 4, "committed": True}
# Ana: sword pool 3 + 2 = 5, dodge 4 + 3 = 7, fists 3 + 1 = 4; Body 5 + 2 = 7.
ANA = {
    "brawn": 3,
    "dexterity": 4,
    "perception": 3,
    "abilities": {"athletics": 3, "melee": 2, "brawl": 1, "firearms": 2},
    "weapons": [SWORD, PISTOL, RIFLE],
}
# Bob: club 2 + 2 = 4, dodge 3 + 1 = 4; Body 5 + 1 = 6.
BOB = {
    "brawn": 2,
    "dexterity": 3,
    "perception": 2,
    "abilities": {"melee": 2, "athletics": 1},
    "weapons": [CLUB],
}
# The thug: pistol 2 + 2 = 4, fists 3 + 2 = 5; Body 7.
THUG = {
    "brawn": 3,
    "dexterity": 2,
    "perception": 1,
    "abilities": {"brawl": 2, "firearms": 2},
    "weapons": [PISTOL],
}
# Initiative (Dexterity + Perception at 6): Ana 3, Bob 1 (Dex 3), the thug 1 (Dex 2).
INITIATIVE = [9, 9, 9, 2, 2, 2, 2] + [7, 2, 2, 2, 2] + [8, 2, 2]
MISS4 = [2, 2, 2, 2]


def pool_fight(fracas, options: dict[str, Any] | None = None, **changed: dict):
    """Ana (PC), Bob and the thug, in that initiative order; `changed` replaces a sheet."""
    e = fracas.new("pool", title="test", options=options or {})
    fighters = {"ana": ANA, "bob": BOB, "thug": THUG, **changed}
    for i, (name, sheet) in enumerate(fighters.items()):
        side = "pc" if i == 0 else "npc"
        do(e, {"action": "join", "combatant": name, "sheet": sheet, "side": side})
    do(e, {"action": "begin"}, INITIATIVE)
    return e


def act(e, actor: str, action: str, *targets: str, dice: list[int] | None = None, **fields: Any):
    command = {"action": action, "actor": actor, "targets": list(targets), **fields}
    return do(e, command, dice).events


def injuries(e, who: str) -> tuple[int, ...]:
    return e.state.fighters[who].injuries


# Ana with sword 4 + 2 = 6 and dodge 4 + 3 = 7: six dice to split.
STRONG = {**ANA, "brawn": 4, "weapons": [SWORD]}


def split_fight(db: Path) -> None:
    with Fracas(str(db)) as log:
        fight = log.new("pool", title="Split", encounter="fight", options={"split_minimum": 1})
        for who, sheet in (("ana", STRONG), ("bob", BOB), ("thug", BOB)):
            side = "pc" if who == "ana" else "npc"
            do(fight, {"action": "join", "combatant": who, "sheet": sheet, "side": side})
        do(fight, {"action": "begin"}, [9] * 7 + [7] + [2] * 4 + [2] * 5)  # Ana first
        assert fight.view().acting == ["ana"]


def assert_split_2_3_keeping_1_for_a_dodge(db: Path) -> None:
    """The split fight's last step: Ana's pool split 2 and 3 over Bob and the thug, 1 kept."""
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        step = fight.history.head_step
        rolled = [e.roll.dice for e in fight.events_of_step(step) if hasattr(e, "roll")]
        assert rolled == ["2d10", "3d10"], rolled
        ana = next(w for w in fight.view().wounds if w.combatant == "ana")
        assert "kept dice: dodge 1" in ana.conditions, ana.conditions
