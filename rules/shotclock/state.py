"""State: the fight as the fold leaves it, fighter by fighter."""

from typing import Any

import msgspec

from fracas.rules.api import Waiting, check_known, gm, no_weapon, roster

from .sheets import SKILLS, Options, Sheet, Weapon


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    wounds: int = 0
    initiative: int = 0
    next_shot: int = 0
    moved: int = 0
    tiebreak: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def out(self) -> bool:
        return self.has("dead") or self.has("out") or self.has(gm.REMOVED)

    @property
    def continuous(self) -> list[str]:
        return sorted(
            c.removeprefix("continuous:") for c in self.conditions if c[:11] == "continuous:"
        )

    @property
    def impairment(self) -> int:
        return self.conditions.get("impaired", {}).get("penalty", 0)

    def weapon(self, name: str) -> Weapon:
        """A weapon of the sheet by name; none named: the first on the sheet, else a punch."""
        if not name:
            name = self.sheet.weapons[0].name if self.sheet.weapons else "punch"
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("punch", "unarmed"):
            return Weapon("punch", self.sheet.strength, "martial arts")
        raise no_weapon(self.name, name, ["punch", *(w.name for w in self.sheet.weapons)])


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    sequence: int = 0
    shot: int = 0
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def same_shot_key(self, fighter: Fighter) -> tuple:
        """The default order within a shot: higher Speed, PCs first, then the tie roll."""
        return (-fighter.sheet.speed, fighter.side != "pc", -fighter.tiebreak, fighter.joined)

    def on_shot(self, shot: int) -> list[Fighter]:
        """001-3, 001-4: everyone whose next shot is this one, in the configured order."""
        if shot <= 0:
            return []
        here = [f for f in self.fighters.values() if f.next_shot == shot and not f.out]
        return sorted(here, key=self.same_shot_key)

    def may_act(self) -> list[Fighter]:
        """Who may act now (001-4): on this shot, the first in the set order, or any of
        them when the GM orders the shot."""
        here = self.on_shot(self.shot) if self.sequence else []
        return here if self.options.same_shot_order == "gm" else here[:1]


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Skills are the game's or listed in custom_skills; a weapon names one of them."""
    known = (*SKILLS, *custom)
    check_known("skill", sheet.skills, known, f"{where}: skills")
    for weapon in sheet.weapons:
        check_known("skill", [weapon.skill], known, f"{where}: weapon {weapon.name}")
    check_known("skill", [sheet.parry], known, f"{where}: parry")


def initial() -> State:
    return State()
