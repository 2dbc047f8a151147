"""State: the fight as the fold leaves it, fighter by fighter."""

from typing import Any

import msgspec

from fracas.rules.api import RefusedError, Waiting, check_known, gm, no_weapon, roster

from .sheets import LIMBS, Options, Sheet, Spell, Weapon, fists


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    hp: int
    equipped: tuple[str, ...] = ()
    initiative: int = 0
    tiebreak: int = 0
    ts: int = 0
    stagger: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def out(self) -> bool:
        return self.has("dead") or self.has("unconscious") or self.has(gm.REMOVED)

    def limbs(self, condition: str) -> list[str]:
        return list(self.conditions.get(condition, {}).get("limbs", []))

    def weapon(self, name: str, options: Options) -> Weapon:
        unarmed = fists(options)
        if not name:
            held = [w for w in self.sheet.weapons if w.name in self.equipped]
            return held[0] if held else unarmed
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("fists", "unarmed"):
            return unarmed
        raise no_weapon(self.name, name, ["fists", *(w.name for w in self.sheet.weapons)])

    def spell(self, name: str) -> Spell:
        for spell in self.sheet.spells:
            if spell.name.lower() == name.lower():
                return spell
        known = ", ".join(s.name for s in self.sheet.spells) or "none"
        raise RefusedError(f"{self.name} knows no spell {name!r}; spells: {known}")


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    clock: int = 0
    turn: str | None = None
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def order(self) -> list[Fighter]:
        """002-4: highest initiative first; ties by higher [Q], then the seeded tie roll."""
        return sorted(
            self.fighters.values(),
            key=lambda f: (-f.initiative, -f.sheet.q, -f.tiebreak, f.joined),
        )

    def ts_max(self, fighter: Fighter) -> int:
        return fighter.sheet.ts_max if fighter.sheet.ts_max is not None else self.options.ts_max

    def threshold(self, fighter: Fighter) -> int:
        own = fighter.sheet.stagger_threshold
        return own if own is not None else self.options.stagger_threshold

    def turn_done(self, fighter: Fighter) -> bool:
        """Whether the fighter's turn this round is over: their TS left are saved (002-8)."""
        ids = [f.id for f in self.order()]
        return self.turn is not None and ids.index(fighter.id) < ids.index(self.turn)

    def seconds_left(self, fighter: Fighter) -> int | None:
        dying = fighter.conditions.get("dying")
        return None if dying is None else dying["deadline"] - self.clock


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Equipped weapons are the sheet's; limbs and attack stats are ones it has."""
    names = [w.name for w in sheet.weapons]
    check_known("weapon", sheet.equipped, names, f"{where}: equipped")
    stats = ("q", "v", "u", *sheet.stats)
    for item in [*sheet.weapons, *sheet.spells]:
        check_known("limb", [item.limb], LIMBS, f"{where}: {item.name}")
        check_known("stat", [item.stat], stats, f"{where}: {item.name}")


def initial() -> State:
    return State()
