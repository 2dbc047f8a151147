"""Commands: what an agent can do on a turn, and what a player sets from a phone."""

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

Called = Literal["none", "uncovered", "partly", "mostly"]


Defence = Literal["dodge", "fight-back"]


class Act(Command):
    actor: str
    targets: list[str] = []
    modifiers: list[GivenModifier] = []


class Opposable(Act):
    defence: dict[str, Defence] = {}
    defence_weapon: dict[str, str] = {}
    unaware: list[str] = []


class Attack(Opposable, tag="attack"):
    weapon: str = ""  # none named: the weapon in hand, else unarmed (000-8)
    called: Called = "none"
    avoid_armor: bool = False
    avoid_cover: bool = False
    shots: int = 1


class Aim(Act, tag="aim"):
    no_targets: ClassVar[bool] = True


class Disarm(Opposable, tag="disarm"):
    item: str | None = None


class Pin(Opposable, tag="pin"):
    pass


class Escape(Act, tag="escape"):
    pass


class Move(Act, tag="move"):
    no_targets: ClassVar[bool] = True
    pace: Literal["jog", "run", "sprint"] = "jog"
    footing: bool = False
    cover: Bounded | None = None


class Wait(Act, tag="wait"):
    no_targets: ClassVar[bool] = True


class Stand(Act, tag="stand"):
    no_targets: ClassVar[bool] = True


class Ready(Act, tag="ready"):
    no_targets: ClassVar[bool] = True
    item: str = ""


class Other(Act, tag="other"):
    what: str = "something else"
    test: str | None = None


PercentileCommand = (
    Join | Begin | Pass | Attack | Aim | Disarm | Pin | Escape | Move | Wait | Stand | Ready | Other
)


ACTIONS = {
    "attack": (
        "attack one target, or several with automatic fire or an explosive (000-4, 000-5,"
        " 000-8, 000-9, 000-10)"
    ),
    "aim": "aim this turn for +20% on next turn's attack (000-6, 000-7)",
    "disarm": "an Unarmed Combat test to knock an item away (000-12)",
    "pin": "an Unarmed Combat test to pin a target (000-21)",
    "escape": "the pinned try to break free (000-14, 000-15, 000-16)",
    "move": "jog, run or sprint, ending behind cover if there is some (000-18..000-20)",
    "wait": "keep your action to cut in later (000-25)",
    "stand": "stand up from prone (000-19, 000-26)",
    "ready": "draw or pick up an item (000-26)",
    "other": "anything else, with a test if the Handler calls for one (000-26)",
}


# What a player sets from a phone; the rest is the Handler's (modifiers, a footing test,
# cover, a test for "other") or the target's (its defence).
WEAPON = PlayerField("Weapon", "what you use, from your sheet", from_sheet=True)


PLAYERS = {
    "attack": Playable(
        {
            "weapon": WEAPON,
            "called": PlayerField(
                "Called shot", "aim at a part of the target: how much of it is covered"
            ),
            "avoid_armor": PlayerField("Past armour", "aim past the target's armour (harder)"),
            "avoid_cover": PlayerField("Past cover", "aim past the target's cover (harder)"),
            "shots": PlayerField(
                "Shots",
                "how many shots you fire (automatic fire)",
                only_with=("weapon", "firearm"),
            ),
        },
        dice="d100 to hit, then the weapon's damage dice on a hit",
    ),
    "aim": Playable(),
    "disarm": Playable({"item": PlayerField("Item", "what you knock away (none: what it holds)")}),
    "pin": Playable(),
    "escape": Playable(needs=frozenset(("pinned",))),
    "move": Playable({"pace": PlayerField("Pace", "how fast you go: jog, run or sprint")}),
    "wait": Playable(),
    "stand": Playable(needs=frozenset(("prone",))),
    "ready": Playable({"item": PlayerField("Item", "what you draw or pick up")}),
    "other": Playable({"what": PlayerField("What", "what you do, in a few words")}),
}
