"""Shared sheets and moves for the 4dF (The Contract, early) tests. Every check is 4dF (typed
as four faces of -1, 0 or 1) + the skill's level; an attack rolls the attacker's four faces,
then the defender's four if they defend."""

from typing import Any

from fracas.rules.events import Event, Rolled
from tests.support import do

PISTOL = {"name": "pistol", "damage": 3}
CLUB = {"name": "club", "skill": "melee", "damage": 1, "ranged": False}
RIFLE = {"name": "rifle", "damage": 2, "burst": True}
SHOTGUN = {"name": "shotgun", "damage": 2, "buckshot": True}
GARROTE = {"name": "wire", "skill": "unarmed combat", "damage": 0, "ranged": False}
# Ana: Discipline 3, Ranged 3 (Professional), Physique 2, Unarmed 2, Melee 2; armour 1.
ANA = {
    "skills": {
        "discipline": 3,
        "ranged": "professional",
        "physique": 2,
        "unarmed": 2,
        "melee": 2,
    },
    "weapons": [PISTOL, RIFLE, SHOTGUN, CLUB],
    "armor": 1,
}
# Bo: Discipline 2, Physique 2, Unarmed 3, Melee 2, Ranged 1; a strapped shield, no armour.
BO = {
    "skills": {"discipline": 2, "physique": 2, "unarmed": 3, "melee": 2, "ranged": 1},
    "weapons": [CLUB, PISTOL],
    "shield": {"name": "shield"},
}
# Cy: Discipline 0, Ranged 2, Physique 1.
CY = {"skills": {"ranged": 2, "physique": 1}, "weapons": [PISTOL]}


def f(total: int) -> list[int]:
    """Four Fudge faces adding up to `total`."""
    sign = 1 if total >= 0 else -1
    return [sign] * abs(total) + [0] * (4 - abs(total))


# Initiative: Ana 2 + 3 = 5, Bo 0 + 2 = 2, Cy 0 + 0 = 0. Declaring: Cy, Bo, Ana.
INITIATIVE = f(2) + f(0) + f(0)


def fudge_fight(fracas, options: dict[str, Any] | None = None, dice=None, **changed):
    e = fracas.new("fudge", title="test", options=options or {})
    for name, sheet in {"ana": ANA, "bo": BO, "cy": CY, **changed}.items():
        side = "pc" if name == "ana" else "npc"
        do(e, {"action": "join", "combatant": name, "sheet": sheet, "side": side})
    do(e, {"action": "begin"}, INITIATIVE + (dice or []))
    return e


def a(action: str, *targets: str, **fields: Any) -> dict[str, Any]:
    return {"action": action, "targets": list(targets), **fields}


def declare(e, actor: str, action: str, *targets: str, **fields: Any) -> list[Event]:
    return do(e, {**a(action, *targets, **fields), "actor": actor}).events


def declare_turn(e, stop_at: str | None = None, **plans: list[dict[str, Any]]) -> None:
    """From the current declarer on, each declares their plan and passes (lowest initiative
    first) until `stop_at`'s turn to declare; without it resolution opens."""
    order = list(e.state.order)
    for who in order[order.index(e.state.current) :]:
        if who == stop_at:
            return
        for command in plans.get(who, []):
            do(e, {**command, "actor": who})
        do(e, {"action": "next"})


def resolve(e, *faces: list[int]) -> list[Event]:
    """Resolve the next declared action with these dice."""
    dice = [face for group in faces for face in group]
    return do(e, {"action": "next"}, dice or None).events


def rolled(events) -> list[Rolled]:
    return [ev for ev in events if isinstance(ev, Rolled)]


def terms(roll: Rolled) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in roll.modifiers]


def levels(e, who: str) -> int:
    return e.state.fighters[who].levels
