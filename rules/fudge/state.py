"""State: the fight as the fold leaves it, fighter by fighter."""

from typing import Any

import msgspec

from fracas.rules.api import gm, no_weapon, roster

from .sheets import Options, Sheet, Weapon, WoundLevel, fists


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    initiative: int = 0
    tiebreak: int = 0
    levels: int = 0
    declared: tuple[dict[str, Any], ...] = ()
    resolved: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def shield_at(self) -> str:
        """Where the shield is: as the sheet starts it, or as a shield action left it."""
        moved = self.conditions.get("shield", {}).get("at")
        return moved or (self.sheet.shield.at if self.sheet.shield else "")

    def weapon(self, name: str) -> Weapon:
        if not name:
            return self.sheet.weapons[0] if self.sheet.weapons else fists()
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("fists", "unarmed"):
            return fists()
        if self.sheet.shield and name.lower() == self.sheet.shield.name.lower():
            return Weapon(self.sheet.shield.name, "melee", 0, ranged=False)
        raise no_weapon(self.name, name, ["fists", *(w.name for w in self.sheet.weapons)])

    def kinds(self) -> list[str]:
        return [d["action"] for d in self.declared]


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    turn: int = 0
    phase: str = "setup"
    order: tuple[str, ...] = ()
    current: str | None = None

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def by_initiative(self) -> list[Fighter]:
        """Highest first; ties by higher Discipline, then the seeded tie roll."""
        return sorted(
            self.fighters.values(),
            key=lambda f: (-f.initiative, -f.sheet.level("discipline"), -f.tiebreak, f.joined),
        )

    def wound(self, fighter: Fighter) -> WoundLevel:
        rows = [w for w in self.options.wounds if fighter.levels >= w.levels]
        return rows[-1] if rows else self.options.wounds[0]

    def able(self, fighter: Fighter) -> bool:
        return self.wound(fighter).can_act and not fighter.has(gm.REMOVED)

    def holder_of(self, fighter: Fighter) -> str | None:
        held = fighter.conditions.get("held") or fighter.conditions.get("pinned")
        return held["by"] if held else None


def initial() -> State:
    return State()
