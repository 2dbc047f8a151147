"""The actions a combatant takes (srd-5), with the flags that stand in for a map: where
the combatants are is stated, not measured (theatre of the mind)."""

import re
from typing import Annotated, ClassVar, Literal

import msgspec
from fracas.rules.api import (
    BadInputError,
    Begin,
    Command,
    GivenModifier,
    Join,
    Pass,
    did_you_mean,
)

from fracas_srd.sheets import ABILITIES, SKILLS, Ability

Cover = Literal["none", "half", "three-quarters", "total"]
Range = Literal["normal", "long", "beyond"]
Contest = Literal["athletics", "acrobatics"]
Searching = Literal["perception", "investigation"]
DICE = re.compile(r"([1-9][0-9]?)?d[1-9][0-9]{0,2}", re.ASCII)


class Act(Command):
    actor: str
    modifiers: list[GivenModifier] = []


class Targeted(Act):
    targets: list[str] = []


class Scene(Targeted):
    """An action that makes attack rolls, with what the table states about the scene."""

    within_5ft: bool | None = None  # None: a melee attack is, a ranged one is not (srd-30)
    hostile_near: bool = False  # a hostile that sees the attacker is within 5 feet (srd-17)
    range: Range = "normal"
    cover: Cover = "none"
    unseen: bool = False  # the target cannot see the attacker (srd-23)
    unseeing: bool = False  # the attacker cannot see the target (srd-23)
    advantage: bool = False  # another source the GM rules, as its own reason
    disadvantage: bool = False
    extra: str = ""  # extra damage dice the GM adds on a hit (a feature not on the sheet)
    ally_near: bool = False  # another foe of the target is within 5 feet of it (srd-38)
    defence: dict[str, str] = {}  # a target's reaction if its trigger comes (srd-39)
    # A target's answer once it saw the trigger come (`--ask`): to the hit, to the damage.
    on_hit: dict[str, str] = {}
    on_damage: dict[str, str] = {}
    resist: bool = True  # false: a legendary creature keeps its failed save (srd-56)

    def __post_init__(self) -> None:
        if self.extra and not DICE.fullmatch(self.extra):
            raise BadInputError(f"extra = {self.extra!r} is not accepted; use dice, such as 2d6")


class Aimed(Scene):
    """An attack with a weapon (a spell is no weapon: Cast takes the scene alone)."""

    weapon: str = ""


class Attack(Aimed, tag="attack"):
    pass


class Offhand(Aimed, tag="offhand"):
    pass


class Opportunity(Aimed, tag="opportunity"):
    pass


class Multiattack(Aimed, tag="multiattack"):
    pass


class Legendary(Aimed, tag="legendary"):
    option: str = ""


class Lair(Scene, tag="lair"):
    """A lair action on initiative count 20 (srd-55)."""

    option: str = ""


class React(Aimed, tag="react"):
    pass


class Cast(Scene, tag="cast"):
    spell: str = ""
    ends: str = ""  # the condition a spell that ends one of several ends (srd-70)
    word: str = ""  # the word a spell of words commands (command: halt, srd-75)
    level: Annotated[int, msgspec.Meta(ge=1, le=9)] | None = None  # the slot (srd-50, srd-51)


class Dash(Act, tag="dash"):
    bonus: bool = False  # as a bonus action, by a feature of the sheet (srd-60)


class Disengage(Act, tag="disengage"):
    bonus: bool = False


class Dodge(Act, tag="dodge"):
    pass


class Help(Targeted, tag="help"):
    against: str = ""  # the creature the helped ally attacks; none: an ability check


class Hide(Act, tag="hide"):
    bonus: bool = False


class Search(Act, tag="search"):
    using: Searching = "perception"  # what is searched: Investigation for clues (srd-5)


class Use(Act, tag="use"):
    what: str = "an object"


class Ready(Act, tag="ready"):
    trigger: str = "a foe comes near"
    then: Literal["attack", "dash", "disengage", "dodge", "other"] = "attack"


class Stabilise(Targeted, tag="stabilise"):
    pass


class Grapple(Targeted, tag="grapple"):
    defend_with: Contest | None = None  # the target's choice; none: its better one
    free_hand: bool | None = None  # the GM's word on its hands; unsaid: as its sheet says


class Shove(Targeted, tag="shove"):
    push: bool = False  # push 5 feet away instead of knocking prone
    defend_with: Contest | None = None


class Escape(Act, tag="escape"):
    using: Contest | None = None


class Stand(Act, tag="stand"):
    pass


class DeathSave(Act, tag="death_save"):
    """srd-14: the death save that starts a dying creature's turn, when it waits for its
    own step (option death_saves = own_step); still down after it, the turn ends."""

    no_targets: ClassVar[bool] = True


class SecondWind(Act, tag="second_wind"):
    """A fighter's Second Wind: a bonus action, 1d10 + its level of hit points, once until
    a short or long rest (the sheet's feature with `heals`)."""

    no_targets: ClassVar[bool] = True


class Move(Act, tag="move"):
    """Movement on its turn (srd-52): `move 20`, in feet; `-o leaves=hero,ilse`: the foes
    whose reach it leaves, who alone may answer with an opportunity attack (srd-18)."""

    positional: ClassVar[str] = "feet"
    feet: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 0  # 0: not given, refused
    difficult: bool = False  # through difficult terrain: a foot more for each
    leaves: list[str] | str = []  # ids, as a list or one text with commas

    def __post_init__(self) -> None:
        if not self.feet:
            raise BadInputError("say how far it moves, in feet: move FEET (as in move 20)")

    def left(self) -> list[str]:
        """The ids of those whose reach it leaves, each once, in the order named."""
        named = self.leaves.split(",") if isinstance(self.leaves, str) else self.leaves
        return list(dict.fromkeys(w.strip() for w in named if w.strip()))


class Save(Act, tag="save"):
    """A saving throw the GM calls for, at any time (srd-36): `save dex --dc 13`."""

    positional: ClassVar[str] = "ability"
    ability: Ability | None = None
    dc: Annotated[int, msgspec.Meta(ge=0, le=60)] | None = None
    fail: str = ""  # a condition the creature has on a failure
    resist: bool = True  # false: a legendary creature keeps its failed save (srd-56)
    spend: str = ""  # an effect it chooses to add to this save (resistance, srd-82)

    def __post_init__(self) -> None:
        if not self.ability:
            raise BadInputError(
                f"name the ability of the save: save {'|'.join(ABILITIES)} (as in save dex --dc 13)"
            )


class Check(Act, tag="check"):
    """An ability check the GM calls for, at any time (srd-37): `check athletics --dc 15`,
    or an ability alone, `check str`."""

    positional: ClassVar[str] = "skill"
    skill: str = ""
    dc: Annotated[int, msgspec.Meta(ge=0, le=60)] | None = None
    fail: str = ""
    spend: str = ""  # an effect it chooses to add to this check (guidance, srd-81)

    def __post_init__(self) -> None:
        known = [*SKILLS, *ABILITIES]
        if not self.skill:
            raise BadInputError(
                "name the skill or the ability of the check: as in check athletics --dc 15, "
                "or check str"
            )
        if self.skill.lower() not in known:
            raise BadInputError(
                f"{self.skill!r} is not a skill or an ability; {did_you_mean(self.skill, known)}"
            )


class Spend(Act, tag="spend"):
    """Guidance or resistance the creature kept, added after the roll to its latest check or
    save while that roll's outcome could still change (srd-81, srd-82): `spend guidance`."""

    positional: ClassVar[str] = "effect"
    effect: str = ""

    def __post_init__(self) -> None:
        if not self.effect.strip():
            raise BadInputError("name what is spent: spend guidance (or spend resistance)")


class Surprise(Command, tag="surprise"):
    """Before the fight, the GM names who is surprised (srd-1)."""

    actor: str = "gm"
    targets: list[str] = []


SrdCommand = (
    Join | Begin | Pass | Attack | Offhand | Opportunity | Multiattack | Legendary | Lair | React
    | Cast | Dash | Disengage | Dodge | Help | Hide | Search | Use | Ready | Stabilise
    | Grapple | Shove | Escape | Stand | Move | Surprise | Save | Check | Spend | DeathSave
    | SecondWind
)  # fmt: skip

ACTIONS = {
    "attack": "attack with a weapon on the sheet, once a turn, or more with Extra Attack "
    "(srd-6..9, srd-17, srd-22, srd-32, srd-35)",
    "offhand": "a bonus-action attack with a light weapon in the other hand (srd-19)",
    "opportunity": "a reaction: one melee attack on a foe leaving reach (srd-18)",
    "multiattack": "a monster's attacks in the sheet's order, one target each (srd-29)",
    "legendary": "a legendary action at the end of another creature's turn (srd-29)",
    "lair": "a lair action on initiative count 20, losing ties (srd-55)",
    "react": "the readied action, now, as a reaction (srd-24)",
    "cast": "cast a spell from your sheet: its attack or the targets' saves, then its damage "
    "or healing (srd-3, srd-6, srd-25, srd-26, srd-31)",
    "dash": "extra movement equal to speed (srd-5)",
    "disengage": "movement provokes no opportunity attacks this turn (srd-5)",
    "dodge": "attacks against you have disadvantage until your next turn (srd-5)",
    "help": "an ally's next attack on a creature (--opt against=ID) has advantage (srd-5)",
    "hide": "a Dexterity (Stealth) check to hide (srd-5, srd-23)",
    "search": "a Wisdom (Perception) check to find the hidden, or an Intelligence "
    "(Investigation) one: -o using=investigation (srd-5)",
    "use": "use an object (srd-5)",
    "ready": "name a trigger and an action to take as a reaction (srd-24)",
    "stabilise": "a DC 10 Wisdom (Medicine) check to stabilise the dying (srd-16)",
    "grapple": "a contest of Athletics to grapple, in place of an attack (srd-20)",
    "shove": "a contest of Athletics to knock prone or push, in place of an attack (srd-21)",
    "escape": "the grappled try to break free (srd-20)",
    "stand": "stand up from prone, for half the speed (srd-27)",
    "death_save": "roll your death save as your turn starts; still down, the turn ends (srd-14)",
    "second_wind": "a fighter's Second Wind: a bonus action, regain 1d10 + fighter level hit "
    "points, once until a short or long rest",
    "move": "move on your turn, in feet, up to your speed (more after a dash), naming whose "
    "reach you leave: they alone may take an opportunity attack (srd-52, srd-18)",
    "surprise": "before the fight: the GM names the surprised (srd-1)",
    "save": "a saving throw from the sheet, at any time: save ABILITY --dc N [-o fail=CONDITION]"
    " (srd-36)",
    "spend": "add a kept guidance or resistance to the creature's latest check or save, after "
    "its roll, while a d4 could still change it: spend guidance (srd-81, srd-82)",
    "check": "an ability check from the sheet, at any time: check SKILL --dc N [-o "
    "fail=CONDITION] (srd-37)",
}
