"""State: the fight as the fold leaves it, fighter by fighter."""

import math
from typing import Any

import msgspec

from fracas.rules.api import Waiting, check_known, gm, no_weapon, roster

from .sheets import ABILITIES, ATTRIBUTES, FISTS, Options, Sheet, Weapon


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    injuries: tuple[int, ...] = ()
    initiative: int = 0
    tiebreak: int = 0
    spent_round: int = 0
    quick_round: int = 0
    quick_count: int = 0
    exerted_round: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def body(self) -> int:
        """Mechanic 3: 5 + ceil(Brawn / 2), unless the sheet says otherwise."""
        return (
            self.sheet.body if self.sheet.body is not None else 5 + math.ceil(self.sheet.brawn / 2)
        )

    @property
    def body_left(self) -> int:
        if not self.injuries:
            return self.body
        worst = max(self.injuries)
        return self.body - (worst + len(self.injuries) - 1)

    @property
    def incapacitated(self) -> bool:
        return self.body_left <= 0

    @property
    def dead(self) -> bool:
        return self.body_left < 0

    @property
    def out(self) -> bool:
        return self.incapacitated or self.has(gm.REMOVED)

    def weapon(self, name: str) -> Weapon:
        """A weapon of the sheet by name; none named: the first on the sheet, else fists."""
        if not name:
            return self.sheet.weapons[0] if self.sheet.weapons else FISTS
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("fists", "brawl", "unarmed"):
            return FISTS
        raise no_weapon(self.name, name, ["fists", *(w.name for w in self.sheet.weapons)])


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    turn: str | None = None
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def order(self) -> list[Fighter]:
        """Initiative default: Outcome, then higher Dexterity, then the seeded tie roll."""
        return sorted(
            self.fighters.values(),
            key=lambda f: (-f.initiative, -f.sheet.dexterity, -f.tiebreak, f.joined),
        )

    def has_action(self, fighter: Fighter) -> bool:
        return fighter.spent_round < self.round and not fighter.out


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Abilities are the game's or listed in custom_skills; weapons name both halves."""
    known = (*ABILITIES, *custom)
    check_known("ability", sheet.abilities, known, f"{where}: abilities")
    for weapon in sheet.weapons:
        check_known("attribute", [weapon.attribute], ATTRIBUTES, f"{where}: weapon {weapon.name}")
        check_known(
            "ability", [weapon.ability], (*known, *ATTRIBUTES), f"{where}: weapon {weapon.name}"
        )


def initial() -> State:
    return State()
