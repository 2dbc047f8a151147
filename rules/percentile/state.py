"""State: the fight as the fold leaves it, fighter by fighter."""

from collections.abc import Collection
from typing import Any

import msgspec

from fracas.rules.api import BadInputError, Waiting, did_you_mean, gm, no_weapon, roster

from .sheets import BASE_SKILLS, SKILLS, STATS, UNARMED, Options, Rating, Sheet, Weapon, stat_named


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    hp: int
    hp_max: int
    holding: tuple[str, ...] = ()
    conditions: dict[str, dict[str, Any]] = {}
    acted_round: int = 0
    tiebreak: int = 0

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def out(self) -> bool:
        return self.has("dead") or self.has("unconscious") or self.has(gm.REMOVED)

    def rating(self, name: str) -> "Rating":
        """A skill's percentage, or a stat×5 with the raw stat (mechanics 2 and 5)."""
        stat = stat_named(name)
        if stat is not None:
            return Rating(self.sheet.stat(stat) * 5, self.sheet.stat(stat))
        name = name.lower().strip()
        return Rating(self.sheet.skills.get(name, BASE_SKILLS.get(name, 0)), None)

    def skill(self, name: str) -> int:
        return self.rating(name).value

    def weapon(self, name: str) -> Weapon:
        """A weapon of the sheet by name; none named: the first the combatant holds, else
        unarmed (000-8)."""
        if not name:
            return next((w for w in self.sheet.weapons if w.name in self.holding), UNARMED)
        if name.lower() == "unarmed":
            return UNARMED
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        raise no_weapon(self.name, name, ["unarmed", *(w.name for w in self.sheet.weapons)])


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    turn: str | None = None
    slot_dex: int | None = None
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def order(self) -> list[Fighter]:
        """000-2: descending DEX; ties keep joining order unless a roll-off split them."""
        return sorted(self.fighters.values(), key=lambda f: (-f.sheet.dex, -f.tiebreak, f.joined))


def initial() -> State:
    return State()


def known_skill(name: str, custom: Collection[str] = ()) -> bool:
    name = name.lower().strip()
    base = name.split("(")[0].strip()
    return name in SKILLS or base in SKILLS or name in custom or stat_named(name) is not None


def check_skill(name: str, where: str, custom: Collection[str] = ()) -> None:
    if not known_skill(name, custom):
        known = [*SKILLS, *custom, *(f"{s}x5" for s in STATS)]
        raise BadInputError(
            f"{where}: unknown skill {name!r}; {did_you_mean(name, known)} "
            "(list a skill of the sheet's own in custom_skills)"
        )


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Skill names must be the Handbook's, a stat x5, or listed in custom_skills."""
    for name in sheet.skills:
        if stat_named(name) is not None:
            raise BadInputError(f"{where}: {name} is a stat; set it as {stat_named(name)} = N")
        check_skill(name, f"{where}: skills", custom)
    for weapon in sheet.weapons:
        if weapon.skill:
            check_skill(
                weapon.skill,
                f"{where}: weapon {weapon.name}",
                [*custom, *map(str.lower, sheet.skills)],
            )
