"""Shared fighters and helpers for the shot-clock (Feng Shui) tests."""

from typing import Any

from fracas.projections import Fracas
from fracas.rules import Encounter, StepOutcome
from tests.support import do

BERETTA = {"name": "beretta", "damage": 10, "skill": "guns"}
# Jack: Guns 14 so Dodge 14 (mechanic 3); Toughness 7.
JACK = {"speed": 8, "toughness": 7, "skills": {"guns": 14}, "weapons": [BERETTA]}
# The boss: Martial Arts 15 so Dodge 15; Toughness 8; a punch does Strength 6.
BOSS = {
    "speed": 7,
    "toughness": 8,
    "strength": 6,
    "constitution": 6,
    "skills": {"martial arts": 15},
}
# A mook: Guns 8 so Dodge 8; out on any hit.
MOOK = {"speed": 5, "mook": True, "skills": {"guns": 8}}


def shot_fight(
    fracas: Fracas,
    *fighters: tuple[str, dict[str, Any]],
    initiative: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> Encounter:
    """Fighters join in order (the first as a PC); `initiative` are the d6 faces, in that order."""
    encounter = fracas.new("shotclock", title="test", options=options or {})
    for i, (name, sheet) in enumerate(fighters):
        side = "pc" if i == 0 else "npc"
        do(encounter, {"action": "join", "combatant": name, "sheet": sheet, "side": side})
    if initiative is not None:
        do(encounter, {"action": "begin"}, initiative)
    return encounter


def act(
    encounter: Encounter,
    actor: str,
    action: str,
    *targets: str,
    dice: list[int] | None = None,
    **fields: Any,
) -> StepOutcome:
    command = {"action": action, "actor": actor, "targets": list(targets), **fields}
    return do(encounter, command, dice)


def clock(encounter: Encounter) -> tuple[int, int]:
    return encounter.state.sequence, encounter.state.shot


def next_shots(encounter: Encounter) -> dict[str, int]:
    return {f.id: f.next_shot for f in encounter.state.fighters.values() if not f.out}


def wounds(encounter: Encounter, who: str) -> int:
    return encounter.state.fighters[who].wounds
