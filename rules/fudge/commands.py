"""Commands: what a fighter declares and does, and what a player sets from a phone."""

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


class Act(Command):
    actor: str
    targets: list[str] = []
    modifiers: list[GivenModifier] = []


class Attack(Act, tag="attack"):
    weapon: str = ""
    cover: Bounded = 0
    concealment: Bounded = 0
    from_cover: bool = False
    from_concealment: bool = False
    cover_armor: Bounded = 0
    shield: Literal["around", "through"] = "around"
    flank: Literal["front", "left", "right", "rear"] = "front"
    burst: bool = False
    close: bool = False
    special_measures: bool = False


class Dodge(Act, tag="dodge"):
    """Evade the attackers named (one action each), or anyone (one action)."""


class Parry(Act, tag="parry"):
    weapon: str = ""


class Flee(Act, tag="flee"):
    what: str = "runs"


class Move(Act, tag="move"):
    no_targets: ClassVar[bool] = True
    what: str = "moves"


class Aim(Act, tag="aim"):
    weapon: str = ""


class Draw(Act, tag="draw"):
    no_targets: ClassVar[bool] = True
    weapon: str = ""


class Grapple(Act, tag="grapple"):
    garrote: bool = False
    resist: dict[str, Literal["physique", "unarmed combat"]] = {}


class Break(Act, tag="break"):
    skill: Literal["physique", "unarmed combat", ""] = ""


class Release(Act, tag="release"):
    pass


class Feint(Act, tag="feint"):
    skill: Literal["melee", "unarmed combat"] = "melee"


class ShieldAction(Act, tag="shield"):
    op: Literal["unstrap", "unsling", "strap", "drop"] = "strap"


class Other(Act, tag="other"):
    what: str = "something else"
    skill: str = ""
    difficulty: Bounded = 0


class Withdraw(Act, tag="withdraw"):
    """Take back this turn's declarations to declare again (only while declaring)."""

    no_targets: ClassVar[bool] = True


FudgeCommand = (
    Join
    | Begin
    | Pass
    | Attack
    | Dodge
    | Parry
    | Flee
    | Move
    | Aim
    | Draw
    | Grapple
    | Break
    | Release
    | Feint
    | ShieldAction
    | Other
    | Withdraw
)


DEFENSIVE = ("dodge", "parry", "flee")


AGGRESSIVE = ("attack", "aim", "grapple", "feint", "other")


ACTIONS = {
    "attack": (
        "declare an attack on up to 3 targets, with cover, concealment, shield and burst "
        "as the situation has them (003-1..003-23, 003-32)"
    ),
    "dodge": (
        "declare a dodge of the named attackers, one action each, or of every attacker "
        "(003-5, 003-30)"
    ),
    "parry": "declare a parry with a weapon, of the named attackers (003-20, 003-21)",
    "flee": "declare a defensive move away: unopposed, it succeeds (003-31)",
    "move": "declare a move: once a turn (003-7)",
    "aim": "declare aiming at a target with a weapon: +1 a turn, +3 at most (003-8)",
    "draw": "draw a weapon: free unless option draw_is_action",
    "grapple": "hold a target, or pin one already held; a garrote too (003-24, 003-25, 003-27)",
    "break": "try to break the hold on you, with Physique or Unarmed Combat (003-26)",
    "release": "let go of who you hold",
    "feint": "feint at targets with Melee or Unarmed Combat (003-28)",
    "shield": "unstrap, unsling, strap or drop a shield (003-16..003-18, 003-21)",
    "other": "any other action, with a skill and difficulty if it is rolled",
    "withdraw": "take back your declarations this turn, to declare again (003-29)",
}


# What a player sets from a phone; the rest is the GM's (modifiers, cover and concealment,
# where the attacker stands, a difficulty) or the target's (how it resists a hold).
WEAPON = PlayerField("Weapon", "what you use, from your sheet", from_sheet=True)


WHAT = PlayerField("What", "what you do, in a few words")


PLAYERS = {
    "attack": Playable(
        {
            "weapon": WEAPON,
            "shield": PlayerField("Shield", "strike around the target's shield, or through it"),
            "burst": PlayerField(
                "Burst", "fire a 3-round burst", only_with=("weapon", "burst weapon")
            ),
            "special_measures": PlayerField(
                "Special measures", "take special measures to hit a target behind heavy cover"
            ),
        }
    ),
    "dodge": Playable(),
    "parry": Playable({"weapon": WEAPON}),
    "flee": Playable({"what": WHAT}),
    "move": Playable({"what": WHAT}),
    "aim": Playable({"weapon": WEAPON}),
    "draw": Playable({"weapon": WEAPON}),
    "grapple": Playable({"garrote": PlayerField("Garrote", "use a garrote on the target")}),
    "break": Playable(
        {"skill": PlayerField("Skill", "break free with Physique or Unarmed Combat")},
        needs=frozenset(("held", "pinned")),
    ),
    "release": Playable(needs=frozenset(("holding",))),
    "feint": Playable({"skill": PlayerField("Skill", "feint with Melee or Unarmed Combat")}),
    "shield": Playable(
        {"op": PlayerField("With the shield", "unstrap, unsling, strap or drop it")}
    ),
    "other": Playable({"what": WHAT, "skill": PlayerField("Skill", "the skill you roll, if any")}),
    "withdraw": Playable(),
    "next": Playable(dice="4dF for each action you declared, as it resolves", down=True),
}
