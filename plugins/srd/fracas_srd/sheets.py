"""Sheets and options: the six abilities, weapons, spells and a monster's actions
(srd-M1, srd-M4), and the GM's choices among the rules' ambiguities."""

import re
from typing import Annotated, Any, Literal

import msgspec
from fracas.rules.api import BadInputError, Bounded, did_you_mean, parse_dice

Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
ABILITIES: tuple[Ability, ...] = ("str", "dex", "con", "int", "wis", "cha")
DamageType = Literal[
    "acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing",
    "poison", "psychic", "radiant", "slashing", "thunder",
]  # fmt: skip
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
SIZES: tuple[Size, ...] = ("tiny", "small", "medium", "large", "huge", "gargantuan")
SKILLS: dict[str, Ability] = {
    "acrobatics": "dex", "animal handling": "wis", "arcana": "int", "athletics": "str",
    "deception": "cha", "history": "int", "insight": "wis", "intimidation": "cha",
    "investigation": "int", "medicine": "wis", "nature": "int", "perception": "wis",
    "performance": "cha", "persuasion": "cha", "religion": "int", "sleight of hand": "dex",
    "stealth": "dex", "survival": "wis",
}  # fmt: skip
Score = Annotated[int, msgspec.Meta(ge=1, le=30)]
Positive = Annotated[int, msgspec.Meta(ge=1, le=10_000)]
Cost = Annotated[int, msgspec.Meta(ge=1, le=3)]
Level = Annotated[int, msgspec.Meta(ge=0, le=30)]
SlotCount = Annotated[int, msgspec.Meta(ge=0, le=20)]


RollKind = Literal["attacks", "saves", "checks"]
_BONUS = re.compile(r"[+-]?([1-9][0-9]?)?d[1-9][0-9]{0,2}|[+-]?[0-9]{1,3}", re.ASCII)


BonusForm = Literal["dash", "disengage", "hide"]


def ordinal(level: int) -> str:
    """1st, 2nd, 3rd, 4th ... 9th, 11th, 21st: a level as the rules write it."""
    teen = 10 <= level % 100 <= 19
    return f"{level}{'th' if teen else {1: 'st', 2: 'nd', 3: 'rd'}.get(level % 10, 'th')}"


def levelled(level: int, noun: str = "spell slot") -> str:
    """'a 1st-level spell slot', 'an 8th-level spell': a level as the rules write it, with
    the article its spoken number takes (an 8th, an 11th, an 18th). One wording for every
    line that names a spell's or a slot's level."""
    article = "an" if str(level).startswith("8") or level in (11, 18) else "a"
    return f"{article} {ordinal(level)}-level {noun}"


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a spell, a feature or a condition changes while it lasts (srd-32, srd-33): AC,
    a number or dice added to its attack rolls, saves or checks ("1d4", "-1d4", "2"),
    advantage or disadvantage on them, on attacks against it, resistances, extra damage
    dice on its weapon hits."""

    ac: Bounded = 0
    attacks: str = ""
    saves: str = ""
    checks: str = ""
    advantage: list[RollKind] = []
    disadvantage: list[RollKind] = []
    attacked: Literal["", "advantage", "disadvantage"] = ""  # attacks against it
    resistances: list[DamageType] = []
    extra: str = ""
    extra_type: DamageType | Literal[""] = ""  # the extra's own type; "": the weapon's
    # Extra dice on the weapon hits, on this creature, of the caster whose spell holds it
    # (hunter's mark's quarry: 1d6, srd-83).
    hunted: str = ""
    melee: bool = False  # the extra on melee hits only
    once: bool = False  # the effect ends with the first hit (or roll of its bonus) it adds to
    # Weapons (a club, a quarterstaff) whose attacks use the spellcasting ability, their
    # damage die a d8, magical (shillelagh, srd-84).
    imbues: list[str] = []
    unhealed: bool = False  # it regains no hit points (chill touch, srd-12)
    foreseen: bool = False  # its caster's next attack roll on it has advantage (true strike)
    bonus_actions: list[BonusForm] = []  # as a bonus action (expeditious retreat: dash)
    # Creature types whose attacks on it have disadvantage (protection from evil and good:
    # aberrations, celestials, elementals, fey, fiends, undead; srd-33).
    warded_from: list[str] = []
    # Feet added to its speed, or taken off (longstrider: 10, ray of frost: -10, srd-52).
    speed: Annotated[int, msgspec.Meta(ge=-120, le=120)] = 0
    blocks: list[str] = []  # spells that deal it no damage (shield: magic missile)
    # Magical armour of this base + its Dex modifier, on a creature wearing none, where it
    # is more than its own AC (mage armor: 13, srd-44).
    armour: Annotated[int, msgspec.Meta(ge=0, le=30)] = 0
    least_ac: Annotated[int, msgspec.Meta(ge=0, le=30)] = 0  # its AC is no lower (barkskin: 16)
    outlined: bool = False  # it cannot benefit from being invisible (faerie fire, srd-48)
    # Difficult terrain costs it no more, magic neither paralyses nor restrains it, and 5
    # feet of movement frees it from a grapple (freedom of movement, srd-80).
    free_moving: bool = False
    fly: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0  # a flying speed (fly: 60, srd-66)


Rounds = Annotated[int, msgspec.Meta(ge=0, le=14_400)]  # up to a day (srd-28)
Edge = Literal["", "start", "end"]
Whose = Literal["caster", "target"]


ROUNDS = {"round": 1, "minute": 10, "hour": 600, "day": 14_400}  # srd-28: 10 rounds a minute


class Worse(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A save failed by `by` or more also gives this condition, for the same time (a
    mummy's Dreadful Glare: paralysed too)."""

    condition: str
    by: Annotated[int, msgspec.Meta(ge=1, le=40)] = 5
    # A hit's rider only: both conditions last this long instead, rolled ("1d10 minutes").
    lasts: Annotated[str, msgspec.Meta(pattern=r"^(\d+d\d+ (round|minute|hour)s)?$")] = ""


class Rider(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a hit also does: the target saves or has the condition (srd-35), for as long
    as a spell's condition lasts (srd-28)."""

    save: Ability
    dc: Annotated[int, msgspec.Meta(ge=1, le=40)]
    condition: str
    rounds: Rounds = 0
    until: Edge = ""  # of the next turn of the attacker, or of the target (`until_of`)
    until_of: Whose = "caster"
    save_ends: bool = False  # the target repeats the save at the end of each of its turns
    worse: Worse | None = None


class Feature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A feature of the sheet: an effect that always holds, or extra damage once a turn
    on a hit that meets its terms (`sneak`: a rogue's sneak attack, srd-36), or a reaction
    to being hit (`trigger = "hit"`, `halves`: uncanny dodge, srd-40)."""

    name: str
    effect: Effect | None = None
    extra: str = ""
    sneak: bool = False
    trigger: Literal["", "hit"] = ""
    halves: bool = False
    bonus_actions: list[BonusForm] = []  # these actions as a bonus action (srd-60)
    # Its bonus-action dash only toward a hostile creature it can see (an orc's Aggressive:
    # `bonus_actions = ["dash"]`, move up to its speed, srd-60).
    toward_foe: bool = False
    # A reaction to a melee hit (`trigger = "hit"`): this much AC against that one attack,
    # seeing the attacker and wielding a melee weapon (a bandit captain's Parry: 2, srd-39).
    parry: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    # Dice it heals its bearer with a bonus action, plus the character's level, once until a
    # short or long rest (a fighter's Second Wind: "1d10"; `fracas act ID second_wind`).
    heals: str = ""


class Plus(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hit's second damage, of its own type (srd-9, srd-10): a dragon's bite, "2d10+8
    piercing damage plus 2d6 fire damage"."""

    damage: str
    type: DamageType


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A weapon or a natural attack: damage dice (`1d8`, `2d6+1`) of one type."""

    name: str
    damage: str = "1d4"
    type: DamageType = "bludgeoning"
    ranged: bool = False
    finesse: bool = False  # Str or Dex, whichever is better (srd-6)
    light: bool = False  # may be used for two-weapon fighting (srd-19)
    range: list[int] = []  # normal and long range, in feet (srd-17)
    proficient: bool = True
    magic: Bounded = 0  # a +N weapon: to the attack and the damage
    hit: Bounded = 0  # to hit beyond ability and proficiency: a monster's stated bonus (srd-6)
    rider: Rider | None = None  # a save on a hit, or a condition (srd-35)
    plus: Plus | None = None  # more damage of another type on a hit
    reach: Annotated[int, msgspec.Meta(ge=5, le=60, multiple_of=5)] = 5  # feet (srd-53)
    # A hit grapples the target, escape DC this (srd-20; a roper's tendril: 15), and with
    # `restrains` it is restrained while the grapple lasts; one that only grapples has no
    # damage (damage = "").
    grapple: Annotated[int, msgspec.Meta(ge=0, le=40)] = 0
    restrains: bool = False
    ability: Ability | None = None  # its attack's and damage's, not Str or Dex (shillelagh)
    magical: bool = False  # magic with no +N: it overcomes resistance to nonmagical (srd-62)


class Spell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A spell as the table uses it in a fight: an attack, a save, healing, a condition."""

    name: str
    level: Level = 0  # 0: a cantrip
    casting: Literal["action", "bonus", "reaction"] = "action"
    attack: Literal["none", "melee", "ranged"] = "none"
    save: Ability | None = None
    damage: str = ""
    type: DamageType = "force"
    half: bool = False  # half damage on a successful save (srd-25)
    plus: Plus | None = None  # more damage of another type (flame strike: 4d6 radiant, srd-68)
    heal: str = ""
    temp_hp: str = ""
    add_modifier: bool = False  # damage or healing adds the spellcasting modifier
    condition: str = ""  # set on a target that fails the save (or is hit)
    rounds: Rounds = 0
    until: Edge = ""  # of the next turn of the caster, or of the target (`until_of`)
    until_of: Whose = "caster"
    save_ends: bool = False  # the target repeats the save at the end of each of its turns
    concentration: bool = False
    worse: Worse | None = None  # a save failed by 5 or more: this condition too
    effect: Effect | None = None  # on each target while the spell lasts (srd-32, srd-33)
    targets: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0  # at most; 0: as the table says
    upcast: str = ""  # dice more per slot level above its own, of its kind: "1d8" (srd-51)
    upcast_targets: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0  # targets more per level
    # Slot levels a step of `upcast` takes (spiritual weapon: 1d8 for every two).
    upcast_every: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1
    # It lasts as its `rounds` say, and its caster repeats its attack as a bonus action on
    # its later turns, with no slot and no spell cast (spiritual weapon, srd-72).
    lingers: bool = False
    # Its mark moves to another creature, as a bonus action on a later turn, once its
    # target drops to 0 hit points; the concentration goes on (hunter's mark, srd-83).
    moves: bool = False
    no_reactions: bool = False  # its hit takes the target's reaction to its next turn (srd-4)
    # Its target gains temporary hit points equal to the caster's spellcasting modifier at
    # the start of each of its turns (heroism, srd-11).
    heartens: bool = False
    # A failed save pushes the target this many feet from the caster (thunderwave: 10), as
    # the GM places it: srd keeps no positions (srd-25).
    pushes: Annotated[int, msgspec.Meta(ge=0, le=120)] = 0
    ability: Ability | None = None  # cast with this ability, not the sheet's (a tiefling's Cha)
    # Cast with no slot: a tiefling's Infernal Legacy, a monster's Innate Spellcasting.
    innate: bool = False
    per_day: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0  # innate's uses a day; 0: at will
    # A reaction spell: what it answers (srd-39): a hit, damage, a spell cast (counterspell).
    trigger: Literal["", "hit", "damaged", "cast"] = ""
    darts: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0  # each hits, no roll (srd-43)
    upcast_darts: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0  # darts more per level
    recharge: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0  # Recharge 5-6: 5 (srd-54)
    recharged_as: str = ""  # one recharge for several (a dragon's "breath weapons")
    multiattack: bool = False  # used as the start of its Multiattack (srd-29)
    affects: str = ""  # the only creature type it affects: hold person's "humanoid"
    no_effect_on: list[str] = []  # creature types it has no effect on: hold monster's undead
    # A spell or another magical effect, which Magic Resistance resists (srd-63); false: a
    # monster's breath, frightful presence or venom, which is not magic.
    magic: bool = True
    on_self: bool = False  # its caster is its only target (misty step, blur)
    # Moves its caster this many feet to a space it can see, by magic: no movement spent
    # (misty step: 30, srd-45).
    teleport: Annotated[int, msgspec.Meta(ge=0, le=1000, multiple_of=5)] = 0
    # Ends on a target that attacks or casts a spell (invisibility, srd-46).
    until_it_acts: bool = False
    dispels: bool = False  # ends the spells on its target (dispel magic, srd-64)
    # Who aims an attack or a harmful spell at its target saves (Wis) first, until the
    # target attacks or casts a spell on a foe (sanctuary, srd-73).
    wards: bool = False
    stabilises: bool = False  # a dying target becomes stable (spare the dying, srd-76)
    # Spells of a level below its slot's cast from outside have no effect on those within
    # (globe of invulnerability: 5th level or lower, srd-78).
    shelters: bool = False
    # No save: it takes a creature of at most this many hit points (power word stun: 150),
    # which repeats `repeat_save` at the end of each of its turns to end it (srd-77).
    hp_at_most: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 0
    repeat_save: Ability | None = None
    # The words it may command, one a casting (`-o word=halt`): its condition is "commanded
    # to WORD" (command, srd-75).
    words: list[str] = []
    # Illusory duplicates of its caster that draw attacks (mirror image: 3, srd-74).
    duplicates: Annotated[int, msgspec.Meta(ge=0, le=3)] = 0
    cures: list[str] = []  # it ends one of these conditions (lesser restoration, srd-70)
    # Its condition ends on its creature's action and Strength check against the save DC
    # (entangle, srd-69: `fracas act ID escape`).
    break_free: bool = False
    # Saved against with advantage by a creature the caster's side is fighting (charm
    # person, dominate person, srd-67).
    wary: bool = False
    until_harmed: bool = False  # it ends as the caster's side harms it (charm person, srd-67)
    # Its creature saves again each time it takes damage, a success ending it (dominate
    # person, srd-79).
    saves_when_hurt: bool = False
    # Dice of hit points it affects, the creatures with the fewest first, no save (sleep:
    # 5d8, srd-49); its condition then ends as the creature takes damage.
    hp_pool: Annotated[str, msgspec.Meta(pattern=r"^(\d+d\d+)?$")] = ""
    # A reaction to damage: these dice of its type on the first melee hit by the end of the
    # caster's next turn (absorb elements: 1d6, srd-42).
    charge: str = ""
    dc: Annotated[int, msgspec.Meta(ge=0, le=40)] = 0  # a stated save DC (a monster's); 0: srd-M5
    # A creature that saves against it, or whose condition from it ends, is immune to it
    # for 24 hours (a dragon's Frightful Presence); unsaid: as the SRD 5.1 says of its name.
    immunity_after: bool | None = None
    # Its target gains no benefit from cover for its saving throw; unsaid: as the SRD 5.1
    # says of its name (sacred flame, srd-22).
    ignores_cover: bool | None = None

    @property
    def plays(self) -> bool:
        """Whether casting it does anything the rules here play (a sheet may name a spell
        and no effect, which the spellbook does not know: srd has it do nothing)."""
        given = msgspec.structs.asdict(self)
        fields = msgspec.structs.fields(self)
        unset = {f.name: f.default_factory() if f.default is msgspec.NODEFAULT else f.default
                 for f in fields if f.name not in HOW_CAST}  # fmt: skip
        return any(given[name] != default for name, default in unset.items())

    @property
    def shaken_off(self) -> bool:
        """Whether saving against it (or outlasting it) makes a creature immune to it."""
        if self.immunity_after is not None:
            return self.immunity_after
        return self.name.strip().lower() in IMMUNITY_AFTER

    @property
    def past_cover(self) -> bool:
        """Whether its target's cover does not help its save (sacred flame's)."""
        if self.ignores_cover is not None:
            return self.ignores_cover
        return self.name.strip().lower() in IGNORES_COVER

    @property
    def affected(self) -> str:
        """The only creature type it affects: the sheet's `affects`, else the SRD 5.1's for
        a spell of that name (hold person, charm person, dominate person: humanoids), so a
        sheet, an imported one too, that leaves it out is not wrong."""
        return self.affects or ONLY_AFFECTS.get(self.name.strip().lower(), "")

    @property
    def passes_over(self) -> list[str]:
        """The creature types it has no effect on: the sheet's `no_effect_on`, else the SRD
        5.1's for a spell of that name (hold monster: undead)."""
        return self.no_effect_on or list(NO_EFFECT_ON.get(self.name.strip().lower(), ()))


# A spell's fields that say how it is cast and how it lands, not what it does: a spell with
# nothing more has no effect in play.
HOW_CAST = frozenset((
    "name", "level", "casting", "attack", "save", "type", "half", "add_modifier", "rounds",
    "until", "until_of", "save_ends", "concentration", "targets", "upcast", "upcast_targets",
    "upcast_every", "ability", "innate", "per_day", "recharge", "recharged_as", "multiattack",
    "affects", "no_effect_on", "magic", "on_self", "dc", "immunity_after", "ignores_cover",
))  # fmt: skip


def spells_out_effect(spell: dict[str, Any]) -> bool:
    """Whether a sheet's spell, as written, says what it does (more than `HOW_CAST`)."""
    return bool(set(spell) - HOW_CAST)


# The amounts of a spell an upcast's dice scale: the first it has (srd-51).
UPCAST_SCALES = ("damage", "heal", "temp_hp", "charge", "hp_pool")

# The SRD 5.1's abilities a creature that saves against, or whose effect ends, is immune
# to for 24 hours.
IMMUNITY_AFTER = frozenset(("frightful presence", "horrifying visage", "dreadful glare"))

# The SRD 5.1's spells whose target "gains no benefit from cover for this saving throw".
IGNORES_COVER = frozenset(("sacred flame",))

# The SRD 5.1's spells that affect one creature type only ("Choose a humanoid").
ONLY_AFFECTS = {
    "hold person": "humanoid",
    "charm person": "humanoid",
    "dominate person": "humanoid",
}

# The SRD 5.1's spells that have "no effect on" some creature types.
NO_EFFECT_ON = {
    "hold monster": ("undead",),
    "command": ("undead",),
    "spare the dying": ("undead", "construct"),
    **dict.fromkeys(("cure wounds", "healing word", "mass cure wounds", "mass healing word",
                     "blight"), ("undead", "construct")),
}  # fmt: skip


class LairAction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One lair action (srd-55): a spell of the sheet it unleashes (a save, damage, a
    condition), or an effect the GM narrates (no spell)."""

    name: str
    spell: str = ""


class LegendaryOption(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One legendary action: an attack with a weapon of the sheet, a spell of the sheet it
    unleashes (a dragon's wing attack: a save, damage, prone), either (a mummy lord's rotting
    fist or Dreadful Glare: `-w` names which), a drain (an aboleth's Psychic Drain: `drain`
    damage of `drain_type` to one creature it has charmed, regaining as many hit points as
    that creature takes), or an effect the GM narrates (none of them)."""

    name: str
    cost: Cost = 1
    weapon: str = ""
    spell: str = ""
    drain: str = ""  # dice: "3d6"
    drain_type: DamageType = "psychic"


Feet = Annotated[int, msgspec.Meta(ge=0, le=1000)]


ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    strength: Score = msgspec.field(default=10, name="str")
    dexterity: Score = msgspec.field(default=10, name="dex")
    constitution: Score = msgspec.field(default=10, name="con")
    intelligence: Score = msgspec.field(default=10, name="int")
    wisdom: Score = msgspec.field(default=10, name="wis")
    charisma: Score = msgspec.field(default=10, name="cha")
    ac: Annotated[int, msgspec.Meta(ge=0, le=40)] = 10
    hp: Positive = 1
    hp_now: Positive | None = None  # at the start, when wounded (an export saved so); none: hp
    temp_hp: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 0  # at the start (srd-11)
    level: Level = 0  # a character's level
    hit_die: Literal[0, 6, 8, 10, 12] = 0  # the sides of its Hit Dice, one a level (srd-58)
    cr: Annotated[float, msgspec.Meta(ge=0, le=30)] = 0  # a monster's challenge rating
    proficiency: Annotated[int, msgspec.Meta(ge=0, le=10)] | None = None  # none: by level/CR
    monster: bool = False
    size: Size = "medium"
    speed: Feet = 30
    initiative: Bounded = 0  # a bonus beyond Dex (srd-2)
    saves: list[Ability] = []  # proficient saving throws
    skills: list[str] = []  # proficient skills
    # What a skill adds beyond its ability and proficiency: a monster's stated bonus (the
    # adult red dragon's Perception +13, its proficiency doubled: {perception = 6}).
    skill_bonuses: dict[str, Annotated[int, msgspec.Meta(ge=-20, le=20)]] = {}
    resistances: list[DamageType] = []
    vulnerabilities: list[DamageType] = []
    immunities: list[DamageType] = []
    condition_immunities: list[str] = []  # conditions it cannot have (srd-61)
    nonmagical_resistances: list[DamageType] = []  # to nonmagical weapons' damage (srd-62)
    nonmagical_immunities: list[DamageType] = []
    spellcasting: Ability | None = None
    wears_armour: bool = False  # body armour: mage armor is refused (srd-44)
    # A shield in one hand: with a weapon on the sheet in the other, no hand is free to
    # grapple with (srd-20), unless the GM says one is (`-o free_hand=true`).
    holds_shield: bool = False
    attacks: Annotated[int, msgspec.Meta(ge=1, le=8)] = 1  # attacks per Attack action
    weapons: list[Weapon] = []
    spells: list[Spell] = []
    slots: Annotated[list[SlotCount], msgspec.Meta(max_length=9)] = []  # by level (srd-50)
    # Spent when it comes in (an export saved after a fight): slots by level, Hit Dice.
    slots_spent: Annotated[list[SlotCount], msgspec.Meta(max_length=9)] = []
    hit_dice_spent: Level = 0
    features: list[Feature] = []
    multiattack: list[str] = []  # weapon names, in order (srd-29)
    legendary_actions: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    legendary: list[LegendaryOption] = []
    legendary_resistance: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0  # a day (srd-56)
    lair: list[LairAction] = []  # on initiative count 20, losing ties (srd-55)
    pack_tactics: bool = False  # advantage with an ally near the target (srd-57)
    magic_resistance: bool = False  # advantage on saves against spells (srd-63)
    creature_type: str = ""  # "monstrosity", "undead"...; none named: a humanoid
    # What a monster's stat block says that no rule here reads (`monsters NAME --show`):
    hp_dice: Annotated[str, msgspec.Meta(pattern=r"^(\d+d\d+)?$")] = ""  # "19d12" (+ Con)
    speeds: dict[Literal["climb", "fly", "swim", "burrow"], Feet] = {}
    hover: bool = False
    senses: list[str] = []  # "darkvision 120 ft.", as the stat block writes them
    unplayed_spells: list[str] = []  # spells it has that no rule here plays: "sleep (1/day)"
    # Its reactions and bonus-action traits no rule here plays, "name: the stat block's
    # text", for the GM to narrate: "split: When a pudding that is Medium or larger ...".
    unplayed_reactions: list[str] = []
    unplayed_bonus_actions: list[str] = []
    passive_perception: Annotated[int, msgspec.Meta(ge=0, le=40)] | None = None  # none: by skill
    languages: str = ""
    alignment: str = ""

    def score(self, ability: Ability) -> int:
        return {
            "str": self.strength,
            "dex": self.dexterity,
            "con": self.constitution,
            "int": self.intelligence,
            "wis": self.wisdom,
            "cha": self.charisma,
        }[ability]

    def mod(self, ability: Ability) -> int:
        return modifier(self.score(ability))

    @property
    def bonus(self) -> int:
        """srd-M4: the proficiency bonus, as stated or by level or challenge rating."""
        if self.proficiency is not None:
            return self.proficiency
        return proficiency_for(max(self.level, self.cr))

    def melee_weapons(self) -> list[str]:
        """What a melee attack may be made with (an opportunity attack, srd-18): the
        weapons not ranged (a thrown handaxe too), else an unarmed strike."""
        return [w.name for w in self.weapons if not w.ranged] or [UNARMED.name]

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() == "unarmed":
            return UNARMED
        names = [w.name for w in self.weapons]
        raise BadInputError(f"no weapon {name!r} on the sheet; {did_you_mean(name, names)}")

    def wielded(self, name: str) -> Weapon:
        """The weapon an attack names, or the sheet's first, or an unarmed strike."""
        if name:
            return self.weapon(name)
        return self.weapons[0] if self.weapons else UNARMED

    def spell(self, name: str) -> Spell:
        for spell in self.spells:
            if spell.name.lower() == name.lower():
                return spell
        names = [s.name for s in self.spells]
        if not names:
            raise BadInputError(f"no spell {name!r} on the sheet; there is none to choose from")
        raise BadInputError(
            f"no spell {name!r} on the sheet ({did_you_mean(name, names)}); a spell srd does "
            "not play is written on the sheet with its level (0 for a cantrip) and "
            "concentration = true where it has it, and cast as the GM narrates it"
        )

    def casts(self, spell: Spell) -> bool:
        """Whether an entry of its `spells` is a spell it casts, not an ability of its own
        written as one (a dragon's breath, a mummy's glare): a spell of level 1 or more, an
        innate one, or a cantrip of a caster's that states no DC of its own."""
        return bool(spell.level or spell.innate or (not spell.dc and self.spellcasting))


UNARMED = Weapon("unarmed", "1", "bludgeoning")  # 1 + Str modifier


def modifier(score: int) -> int:
    """srd-M1: floor((score - 10) / 2)."""
    return (score - 10) // 2


def proficiency_for(level: float) -> int:
    """srd-M4: +2 at 0-4, +3 at 5-8, ... +6 at 17-20 (and on, every four levels)."""
    return 2 + max(0, int(level) - 1) // 4


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The defaults of RULES-d20.md's ambiguities, each overridable per encounter."""

    initiative_ties: Literal["dex", "gm", "players"] = "dex"
    group_initiative: bool = False
    monsters_at_zero: Literal["dead", "dying"] = "dead"
    temp_hp: Literal["larger", "newer"] = "larger"
    critical: Literal["double_dice", "max_plus_roll"] = "double_dice"
    death_saves: Literal["turn_start", "own_step"] = "turn_start"


OPTION_HELP = {
    "initiative_ties": "equal initiative: higher Dex then a roll-off (dex), the order they "
    "joined in (gm), or characters first (players) (srd-2)",
    "group_initiative": "identical creatures share one initiative roll (srd-2)",
    "monsters_at_zero": "a monster at 0 HP is dead, or unconscious and dying (srd-13)",
    "temp_hp": "new temporary hit points: keep the larger, or always the newer (srd-11)",
    "death_saves": "a dying creature's death save rolls as its turn starts (turn_start), or "
    "waits for its own step: its player's Death save on a phone, or the GM's next (own_step) "
    "(srd-14)",
    "critical": "critical damage: every die rolled twice, or the dice's maximum plus a roll "
    "(srd-8)",
}

_AMOUNT = re.compile(r"(\d*d\d+)([+-]\d+)?|([+-]?\d+)", re.ASCII)


def parse_amount(text: str) -> tuple[str, int]:
    """`2d6+3` as ("2d6", 3); `1d8` as ("1d8", 0); `4` as ("", 4)."""
    match = _AMOUNT.fullmatch(text.replace(" ", ""))
    if not match:
        raise BadInputError(f"{text!r} is not an amount like 1d8, 2d6+3 or 4")
    if match[3] is not None:
        return "", int(match[3])
    parse_dice(match[1])
    return match[1], int(match[2] or 0)


def parse_bonus(text: str) -> tuple[int, str, int]:
    """An effect's bonus: `1d4` as (1, "1d4", 0), `-1d4` as (-1, "1d4", 0), `2` as (1, "", 2)."""
    compact = text.replace(" ", "")
    if not _BONUS.fullmatch(compact):
        raise BadInputError(f"{text!r} is not a bonus like 2, -1, 1d4 or -1d4")
    sign = -1 if compact.startswith("-") else 1
    body = compact.lstrip("+-")
    return (sign, body, 0) if "d" in body else (1, "", int(compact))


def check_effect(effect: Effect | None, where: str) -> None:
    if effect is None:
        return
    for bonus in (effect.attacks, effect.saves, effect.checks):
        if bonus:
            parse_bonus(bonus)
    if effect.extra and not parse_amount(effect.extra)[0]:
        raise BadInputError(f"{where}: extra = {effect.extra!r}: give dice, such as 1d4")


def check_slots(sheet: Sheet, spell: Spell, where: str) -> None:
    """srd-50: a spell of level 1 or higher needs a slot of its level or higher (an innate
    one none); srd-51: its scaling is dice of the spell's own kind."""
    if spell.level and not spell.innate and len(sheet.slots) < spell.level:  # none is a level
        raise BadInputError(
            f"{where}: {spell.name} is {levelled(spell.level, 'spell')}: give the sheet its spell "
            f"slots by level, such as slots = [4, 2] (srd-50)"
        )
    if not spell.upcast:
        return
    scaled = next((a for a in (getattr(spell, f) for f in UPCAST_SCALES) if a), "")
    dice = parse_amount(scaled)[0] if scaled else ""
    more = parse_amount(spell.upcast)[0]
    if not dice or not more or dice.partition("d")[2] != more.partition("d")[2]:
        raise BadInputError(
            f"{where}: {spell.name}: upcast = {spell.upcast!r} must be dice of the kind its "
            f"{scaled or 'amount'} rolls, such as 1d{dice.partition('d')[2] or '8'} (srd-51)"
        )


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Every amount readable, every skill known, every weapon a multiattack or legendary
    action names on the sheet."""
    if any(spent > (sheet.slots[n : n + 1] or [0])[0] for n, spent in enumerate(sheet.slots_spent)):
        raise BadInputError(
            f"{where}: slots_spent = {sheet.slots_spent} is more than its slots = {sheet.slots}"
        )
    if sheet.hit_dice_spent > sheet.level:
        raise BadInputError(
            f"{where}: hit_dice_spent = {sheet.hit_dice_spent} is more than its level "
            f"{sheet.level} (a Hit Die a level, srd-58)"
        )
    if sheet.hp_now is not None and sheet.hp_now > sheet.hp:
        raise BadInputError(
            f"{where}: hp_now = {sheet.hp_now} is more than its hp = {sheet.hp}: give the hit "
            "points it has now, at most its maximum"
        )
    for weapon in sheet.weapons:
        if weapon.damage or not weapon.grapple:  # a grapple alone may deal no damage
            parse_amount(weapon.damage)
        if weapon.plus is not None:
            parse_amount(weapon.plus.damage)
    for spell in sheet.spells:
        for amount in (spell.damage, spell.heal, spell.temp_hp, spell.charge):
            if amount:
                parse_amount(amount)
        check_effect(spell.effect, f"{where}: {spell.name}")
        check_slots(sheet, spell, where)
        if spell.worse is not None and spell.worse.lasts:
            raise BadInputError(f"{where}: {spell.name}: only a hit's rider rolls its own time")
    for feature in sheet.features:
        check_effect(feature.effect, f"{where}: {feature.name}")
        if feature.extra and not parse_amount(feature.extra)[0]:
            raise BadInputError(f"{where}: {feature.name}: extra = {feature.extra!r}: give dice")
        if feature.parry and feature.trigger != "hit":
            raise BadInputError(
                f'{where}: {feature.name}: parry answers a hit: add trigger = "hit" (srd-39)'
            )
        if feature.toward_foe and "dash" not in feature.bonus_actions:
            raise BadInputError(
                f'{where}: {feature.name}: toward_foe moves with a bonus-action dash: add '
                'bonus_actions = ["dash"] (srd-60)'
            )
    for skill in [*sheet.skills, *sheet.skill_bonuses]:
        if skill.lower() not in SKILLS and skill.lower() not in custom:
            raise BadInputError(
                f"{where}: unknown skill {skill!r}; {did_you_mean(skill, list(SKILLS))}"
            )
    named = [*sheet.multiattack, *(o.weapon for o in sheet.legendary if o.weapon)]
    for name in named:
        try:
            sheet.weapon(name)
        except BadInputError as error:
            raise BadInputError(f"{where}: {error}") from None
    for option in [*sheet.lair, *sheet.legendary]:
        if option.spell:
            try:
                sheet.spell(option.spell)
            except BadInputError as error:
                raise BadInputError(f"{where}: {option.name}: {error}") from None
    if sheet.legendary and not sheet.legendary_actions:
        raise BadInputError(f"{where}: legendary options need legendary_actions = N (usually 3)")
