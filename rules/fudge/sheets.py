"""Sheets and options: a fighter's attributes, skills, weapons and armor, and the table's
choices."""

from collections.abc import Collection
from typing import Annotated, Literal

import msgspec

from fracas.rules.api import BadInputError, Bounded, did_you_mean

LADDER = {
    "unskilled": 0,
    "amateur": 1,
    "competent": 2,
    "professional": 3,
    "expert": 4,
    "master": 5,
    "legendary": 6,
}


ALIASES = {"ranged": "ranged combat", "unarmed": "unarmed combat"}


SKILLS = (  # mechanic 4: the core skills, and the combat page's Melee
    "physique", "discipline", "ranged combat", "unarmed combat", "melee", "wealth", "demolitions",
)  # fmt: skip


FLANKS = ("front", "left", "right", "rear")


Level = Annotated[int, msgspec.Meta(ge=0, le=6)]  # mechanic 3: Unskilled +0 to Legendary +6
Bonus = Annotated[int, msgspec.Meta(ge=0, le=10)]  # a Damage Bonus, armor (003-32)


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    skill: str = "ranged combat"
    damage: Bonus = 0  # the Damage Bonus
    ranged: bool = True
    burst: bool = False  # fires 3-round bursts (003-23)
    buckshot: bool = False  # a shotgun with buckshot: +1 at close range (003-23)


class Shield(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str = "shield"
    kind: Literal["shield", "buckler"] = "shield"
    arm: Literal["left", "right"] = "left"
    at: Literal["arm", "back", "ground"] = "arm"


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    skills: dict[str, Level | str] = {}
    weapons: list[Weapon] = []
    armor: Bonus = 0  # worn
    integral_armor: Bonus = 0
    shield: Shield | None = None
    traits: list[str] = []

    def level(self, skill: str) -> int:
        wanted = ALIASES.get(skill.lower(), skill.lower())
        for name, value in self.skills.items():
            if ALIASES.get(name.lower(), name.lower()) == wanted:
                return value if isinstance(value, int) else LADDER[value.lower()]
        return 0

    @property
    def pain_tolerance(self) -> bool:
        return "pain tolerance" in (t.lower() for t in self.traits)


class WoundLevel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One row of the wound table: from this many damage levels on."""

    levels: int
    name: str
    penalty: int = 0
    can_walk: bool = True
    can_act: bool = True
    dead: bool = False


DEFAULT_WOUNDS = (
    WoundLevel(0, "Unhurt"),
    WoundLevel(1, "Bruised"),
    WoundLevel(2, "Wounded", -1),
    WoundLevel(3, "Seriously Wounded", -2),
    WoundLevel(5, "Critically Wounded", -3, can_walk=False),
    WoundLevel(6, "Incapacitated", -3, can_walk=False, can_act=False),
    WoundLevel(7, "Dead", -3, can_walk=False, can_act=False, dead=True),
)


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §003 'Ambiguities', overridable per encounter."""

    wounds: tuple[WoundLevel, ...] = DEFAULT_WOUNDS
    big_modifiers: Literal["automatic", "apply"] = "automatic"  # 003-2
    draw_is_action: bool = False
    defence_floor: bool = True  # a bad defence roll never helps the attacker
    defence_counts_as_action: bool = True
    undeclared_defence: Literal["dodge", "none"] = "dodge"
    aim_max: Bounded = 3
    shield_cover: Bounded = 1
    shield_armor: Bounded = 3
    cover_cap: Bounded = 3  # shield and cover together (003-15)
    max_targets: Bounded = 3  # single shots and bursts (003-6)
    garrote_penalty: Bounded = -1
    garrote_damage: Bounded = 2
    buckler_parry: Bounded = 1
    dodge_skill: str = "physique"
    late_changes: bool = False  # 003-29: may a lower initiative change after a higher declared


OPTION_HELP = {
    "wounds": "the wound table: damage levels from which each wound level applies (003-M5)",
    "big_modifiers": "a modifier over 3: an automatic success or failure, or just applied (003-2)",
    "draw_is_action": "whether drawing a weapon counts as an action",
    "defence_floor": "whether a bad defence roll counts as 0 rather than helping the attacker",
    "defence_counts_as_action": (
        "whether a dodge or parry counts toward the multiple-action penalty"
    ),
    "undeclared_defence": "whether who declared nothing may still dodge an attack",
    "aim_max": "the most aiming adds, +1 a turn (003-8)",
    "shield_cover": "the penalty for striking around a shield (003-14)",
    "shield_armor": "the armor a shield gives when struck through (003-14)",
    "cover_cap": "the most shield and cover penalise together (003-15)",
    "max_targets": "how many targets single shots and bursts may engage (003-6)",
    "garrote_penalty": "the garrote's penalty to the grapple (003-27)",
    "garrote_damage": "the garrote's damage bonus every turn (003-27)",
    "buckler_parry": "the buckler's bonus to parry (003-21)",
    "dodge_skill": "the skill a dodge rolls",
    "late_changes": (
        "whether a lower initiative may still change its declarations after a higher one "
        "declared (003-29)"
    ),
}


def canonical(skill: str) -> str:
    return ALIASES.get(skill.lower().strip(), skill.lower().strip())


def check_skill(name: str, where: str, custom: Collection[str] = ()) -> None:
    if canonical(name) not in (*SKILLS, *custom):
        raise BadInputError(
            f"{where}: unknown skill {name!r}; {did_you_mean(name, [*SKILLS, *custom])} "
            "(list a skill of the sheet's own in custom_skills)"
        )


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Skills are the core ones or listed in custom_skills; levels are numbers or rungs."""
    for name, value in sheet.skills.items():
        check_skill(name, f"{where}: skills", custom)
        if isinstance(value, str) and value.lower() not in LADDER:
            raise BadInputError(
                f"{where}: skill {name} is {value!r}; {did_you_mean(value, LADDER)} "
                f"(levels: {', '.join(LADDER)}, or a number)"
            )
    for weapon in sheet.weapons:
        check_skill(weapon.skill, f"{where}: weapon {weapon.name}", custom)


def fists() -> Weapon:
    return Weapon("fists", "unarmed combat", 0, ranged=False)
