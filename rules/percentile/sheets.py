"""Sheets and options: an agent's statistics, skills, weapons and armor, and the table's choices."""

from typing import Annotated, Literal, NamedTuple

import msgspec

from fracas.rules.api import Bounded, Multiplier

WeaponKind = Literal["firearm", "melee", "unarmed", "thrown", "explosive"]


SKILL_FOR_KIND = {  # 000-8
    "firearm": "firearms",
    "thrown": "athletics",
    "melee": "melee weapons",
    "unarmed": "unarmed combat",
    "explosive": "athletics",
}


BASE_SKILLS = {  # the Agent's Handbook base ratings, used when a sheet leaves one out
    "athletics": 30,
    "dodge": 30,
    "firearms": 20,
    "melee weapons": 30,
    "unarmed combat": 40,
}


HAND_TO_HAND = ("melee", "unarmed")


SKILLS = (  # the Agent's Handbook skill list; typed skills take any "(type)"
    "accounting", "alertness", "anthropology", "archeology", "art", "artillery", "athletics",
    "bureaucracy", "computer science", "craft", "criminology", "demolitions", "disguise",
    "dodge", "drive", "firearms", "first aid", "foreign language", "forensics",
    "heavy machinery", "heavy weapons", "history", "humint", "law", "medicine",
    "melee weapons", "military science", "navigate", "occult", "persuade", "pharmacy",
    "pilot", "psychotherapy", "ride", "science", "search", "sigint", "stealth", "surgery",
    "survival", "swim", "unarmed combat", "unnatural",
)  # fmt: skip


Percent = Annotated[int, msgspec.Meta(ge=0, le=100)]  # a Lethality rating (000-M8)
Skill = Annotated[int, msgspec.Meta(ge=0, le=99)]  # a skill %: a test's target is at most 99
Armor = Annotated[int, msgspec.Meta(ge=0, le=50)]  # armor points, armor piercing (000-M7)
Health = Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]  # HP: a creature's may be huge


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    kind: WeaponKind = "firearm"
    damage: str = "1d6"
    skill: str = ""
    armor_piercing: Armor = 0
    lethality: Percent = 0

    @property
    def skill_name(self) -> str:
        return (self.skill or SKILL_FOR_KIND[self.kind]).lower()


UNARMED = Weapon("unarmed", "unarmed", "1d4-1")


# mechanic 5: 3-18 for humans, more for others; the rules give others no top, 99 is a sane one
Stat = Annotated[int, msgspec.Meta(ge=0, le=99)]


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    strength: Stat = msgspec.field(default=10, name="str")
    con: Stat = 10
    dex: Stat = 10
    intelligence: Stat = msgspec.field(default=10, name="int")
    pow: Stat = 10
    cha: Stat = 10
    skills: dict[str, Skill] = {}
    weapons: list[Weapon] = []
    armor: Armor = 0
    hp: Health | None = None
    human: bool = True
    holding: list[str] = []

    def stat(self, name: str) -> int:
        return {
            "str": self.strength,
            "con": self.con,
            "dex": self.dex,
            "int": self.intelligence,
            "pow": self.pow,
            "cha": self.cha,
        }[name]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §000 'Ambiguities', overridable per encounter."""

    dex_ties: Literal["simultaneous", "rolloff"] = "simultaneous"
    defence_ties: Literal["attacker", "defender"] = "attacker"
    both_fail: Literal["nobody", "lower_roll"] = "nobody"
    defence_after_acting: Literal["refuse", "forfeit_next"] = "refuse"
    defence_covers: Literal["all_melee", "one"] = "all_melee"
    critical_multiplier: Multiplier = 2
    unconscious_at: Bounded = 2
    dead_at: Bounded = 0
    uncovered_called_shot: Bounded = -20
    modifier_cap: Bounded = 40
    aim_bonus: Bounded = 20
    pinned_bonus: Bounded = 20
    lethality_kills_nonhuman: bool = False
    lethality_max: Bounded = 100
    escape_defends: bool = True
    wait_keeps_aim: bool = True
    inhuman_penalties: Literal["count", "ignored"] = "count"
    damage_words: Literal["sum", "steps"] = "sum"


OPTION_HELP = {
    "dex_ties": "equal DEX: act at the same time, or split by a seeded roll-off (000-3)",
    "defence_ties": "an exact tie between attack and defence goes to the attacker or the defender",
    "both_fail": "when both sides of an opposed test fail: nobody wins, or the lower roll (000-M4)",
    "defence_after_acting": (
        "a dodge or fight back after acting: refused, or paid with next turn's action"
    ),
    "defence_covers": "one dodge or block roll opposes every melee attack of the turn, or just one",
    "critical_multiplier": "what a critical multiplies damage and Lethality by (000-M3)",
    "unconscious_at": "HP at or under which a combatant is unconscious (000-M9)",
    "dead_at": "HP at or under which a combatant is dead (000-M9)",
    "uncovered_called_shot": "the called-shot penalty against an uncovered body part (000-10)",
    "modifier_cap": "the most the modifiers of one test add up to, either way; 0 for no cap",
    "aim_bonus": "the bonus aiming gives the next turn's attack (000-6)",
    "pinned_bonus": "the bonus to melee and unarmed attacks on a pinned target (000-22)",
    "lethality_kills_nonhuman": (
        "whether a successful Lethality roll also kills a non-human outright"
    ),
    "lethality_max": (
        "the highest a Lethality rating reaches; 100 kills on any roll, 99 spares a 100"
    ),
    "escape_defends": (
        "whether a successful escape roll defends until the escaper's next action (000-15)"
    ),
    "wait_keeps_aim": (
        "whether waiting keeps the aim for the attack cut in during the next turn (000-7)"
    ),
    "inhuman_penalties": (
        "an inhuman stat's x5 test (000-M2): modifiers count as in any test, or are ignored "
        "and every roll but 100 succeeds (the reading of encounters begun before schema 3)"
    ),
    "damage_words": (
        "how a step says its damage: its sum as the table says it ('1d4 [3] - 1 unarmed bonus"
        " = 2'), or its steps alone (the words of encounters begun before schema 4)"
    ),
}


STATS = ("str", "con", "dex", "int", "pow", "cha")


INHUMAN = 20  # mechanic 2: a stat this high makes its x5 test inhuman


class Rating(NamedTuple):
    value: int
    stat: int | None = None  # the raw stat when the test is against stat x5

    @property
    def inhuman(self) -> bool:
        return self.stat is not None and self.stat >= INHUMAN


def stat_named(name: str) -> str | None:
    """`STR×5`, `strx5`, `str*5` or plain `str` name a stat test; anything else is a skill."""
    text = name.lower().replace("×", "x").replace("*", "x").replace(" ", "").strip()
    stat = text.removesuffix("x5")
    return stat if stat in STATS else None
