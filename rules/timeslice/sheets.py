"""Sheets and options: a fighter's attributes, skills, weapons and armor, and the table's
choices."""

from typing import Annotated

import msgspec

from fracas.rules.api import Bounded

STAT_DICE = "2d10z"  # 002-14: two d10 read 0-9


LIMBS = ("left arm", "right arm", "left leg", "right leg")


# The seed gives no scales (RULES.md 002 "Not found"); these hold its baseline 10 stat
# (2d10 read 0-9 + stat - 10), its 10 TS a round, and room either way.
Stat = Annotated[int, msgspec.Meta(ge=0, le=30)]
Health = Annotated[int, msgspec.Meta(ge=1, le=10_000)]
Amount = Annotated[int, msgspec.Meta(ge=0, le=1000)]  # damage, healing, DR
Cost = Annotated[int, msgspec.Meta(ge=1, le=100)]  # TS an attack or spell costs: never free
Slices = Annotated[int, msgspec.Meta(ge=0, le=100)]  # TS to draw or reload; stagger points
Bonus = Annotated[int, msgspec.Meta(ge=0, le=20)]  # a weapon's parry or shield bonus (002-23)


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Equipment page is not in the seed: every figure is data (RULES.md defaults)."""

    name: str
    damage: Amount = 2
    ts: Cost = 3  # 002-6
    ranged: bool = False
    draw_ts: Slices = 1  # 002-5
    reload_ts: Slices = 0  # 002-12; 0: never reloads
    parry: Bonus = 0  # 002-23: the weapon bonus to a parry
    shield: Bonus = 0  # 002-23: the shield bonus to a block
    limb: str = "right arm"  # the limb that wields it (002-18)
    stat: str = "v"  # the attack stat, [V] by default (002-15)


class Spell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """002-10: a spell costs the TS it lists; it may strike like an attack or heal."""

    name: str
    ts: Cost
    damage: Amount = 0
    heal: Amount = 0
    ranged: bool = True
    stat: str = "v"
    limb: str = "right arm"


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    q: Stat = 10  # [Q]: initiative and defence
    v: Stat = 10  # [V]: attack
    u: Stat = 10  # [U]: resisting surprise
    stats: dict[str, Stat] = {}
    hp: Health = 10
    dr: Amount = 0
    ts_max: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    stagger_threshold: Slices | None = None
    weapons: list[Weapon] = []
    spells: list[Spell] = []
    equipped: list[str] = []
    medical_kit: bool = False


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §002 'Ambiguities', overridable per encounter."""

    ts_max: Bounded = 10
    stagger_threshold: Bounded = 3
    stat_baseline: Bounded = 10
    seconds_per_round: Bounded = 6
    dying_minutes: Bounded = 5
    move_ts: Bounded = 1  # per unit (002-9)
    aim_ts: Bounded = 2  # per +1 (002-11)
    medkit_ts: Bounded = 3  # 002-21
    unarmed_damage: Bounded = 1
    head_shot: Bounded = -7
    heart_shot: Bounded = -10
    limb_shot: Bounded = -5
    heart_penalty: Bounded = -2
    parry_penalty: Bounded = -3
    stagger_damage: Bounded = 1
    helpless_defence: Bounded = 0  # the defence total of a combatant who cannot roll one
    natural_18_hits: bool = False
    npc_dies_at_zero: bool = True
    healed_wakes: bool = False  # 002-21's optional cinematic rule
    stagger_resets_each_turn: bool = False
    staggered_loses_saved: bool = True


OPTION_HELP = {
    "ts_max": "the TS every combatant starts a round with, unless the sheet says (002-2)",
    "stagger_threshold": (
        "stagger points past which a creature is staggered, unless the sheet says (002-24)"
    ),
    "stat_baseline": "the stat whose bonus is 0 (002-14)",
    "seconds_per_round": "game time a round takes, for the dying timer",
    "dying_minutes": "how long the dying last untreated (002-21)",
    "move_ts": "the TS a unit of movement costs (002-9)",
    "aim_ts": "the TS each +1 of aim costs (002-11)",
    "medkit_ts": "the TS a medical kit takes to end the dying (002-21)",
    "unarmed_damage": "the damage of a blow with no weapon",
    "head_shot": "the penalty of a called shot to the head (002-18)",
    "heart_shot": "the penalty of a called shot to the heart (002-18)",
    "limb_shot": "the penalty of a called shot to a limb (002-18)",
    "heart_penalty": "the penalty to every roll of the heart-shot dying (002-18)",
    "parry_penalty": "what a parry takes off the weapon bonus (002-23)",
    "stagger_damage": "the extra damage a staggered creature takes from each hit (002-24)",
    "helpless_defence": "the defence total of a combatant who cannot roll one",
    "natural_18_hits": "whether a natural 18 hits whatever the defence",
    "npc_dies_at_zero": (
        "whether a non-player combatant at 0 HP dies unless the attack was nonlethal (002-20)"
    ),
    "healed_wakes": "whether healing up from 0 HP wakes the combatant (002-21's option)",
    "stagger_resets_each_turn": "whether stagger points reset at every turn, staggered or not",
    "staggered_loses_saved": "whether a staggered creature loses its saved TS too",
}


def fists(options: Options) -> Weapon:
    return Weapon("fists", options.unarmed_damage, draw_ts=0)
