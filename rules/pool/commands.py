"""Commands: what a fighter can do in a round, and what a player sets from a phone."""

from typing import ClassVar, Literal

from fracas.rules.api import (
    Begin,
    Bounded,
    Command,
    GivenModifier,
    Join,
    Pass,
    Playable,
    PlayerField,
)

ReactionKind = Literal["dodge", "parry", "clash"]


class Act(Command):
    actor: str
    targets: list[str] = []
    modifiers: list[GivenModifier] = []
    exert: bool = False


class Attack(Act, tag="attack"):
    weapon: str = ""  # none named: the first on the sheet, else fists (004-2)
    shares: list[int] = []
    keep: dict[str, int] = {}
    defence: dict[str, ReactionKind] = {}
    defence_weapon: dict[str, str] = {}
    defender: dict[str, str] = {}
    desperate: list[str] = []
    evade: dict[str, int] = {}
    triggers: list[str] = []


class Evade(Act, tag="evade"):
    no_targets: ClassVar[bool] = True


class Quick(Act, tag="quick"):
    no_targets: ClassVar[bool] = True
    what: str = "a quick action"


class Other(Act, tag="other"):
    what: str = "something else"
    attribute: str = "dexterity"
    ability: str = "athletics"
    difficulty: Bounded | None = None
    passive: bool = False
    committed: bool = False


class Hold(Attack, tag="hold"):
    trigger: str = ""


class Fire(Act, tag="fire"):
    trigger: str = ""


PoolCommand = Join | Begin | Pass | Attack | Evade | Quick | Other | Hold | Fire


ACTIONS = {
    "attack": (
        "attack one target, or split the pool over several, keeping dice for a reaction; "
        "the targets react, desperately if need be, and a held action may fire first "
        "(004-1, 004-2, 004-5..004-19)"
    ),
    "evade": "Dexterity + Athletics at 7: an Outcome to share out among incoming attacks (004-14)",
    "quick": "a quick action: no roll, 2 dice off this round's Action (004-3)",
    "other": "any rolled action on an attribute and an ability, passive or as the Action (004-4)",
    "hold": "hold an attack until its trigger (004-5)",
    "fire": "carry out a held action now that its trigger came (004-5)",
}


# What a player sets from a phone; the rest is the GM's (modifiers, a difficulty, a held
# action's firing) or the targets' (their reactions, answered when asked).
WEAPON = PlayerField("Weapon", "what you use, from your sheet", from_sheet=True)


EXERT = PlayerField("Exert", "push yourself: spend Willpower for the extra effort")


WHAT = PlayerField("What", "what you do, in a few words")


# 004-8: a split pool's dice at each target, and the dice kept back for a reaction.
SHARES = PlayerField(
    "Dice at each",
    "split your pool: how many dice at each target; empty: shared evenly",
    each_target=True,
)
KEEP = PlayerField(
    "Keep for a reaction",
    "dice held back from the attack for a dodge, parry or clash later this round",
    counts=("dodge", "parry", "clash"),
)


POOL = "your pool of d10s, one face a die"


PLAYERS = {
    "attack": Playable(
        {"exert": EXERT, "weapon": WEAPON, "shares": SHARES, "keep": KEEP}, dice=POOL
    ),
    "evade": Playable({"exert": EXERT}, dice=POOL),
    "quick": Playable({"exert": EXERT, "what": WHAT}),
    "other": Playable(
        {
            "exert": EXERT,
            "what": WHAT,
            "attribute": PlayerField("Attribute", "the attribute you roll, as the sheet names it"),
            "ability": PlayerField("Ability", "the ability you roll, as the sheet names it"),
        },
        dice=POOL,
    ),
    "hold": Playable(
        {
            "exert": EXERT,
            "weapon": WEAPON,
            "trigger": PlayerField("When", "what you wait for before you strike"),
        }
    ),
}
