"""Commands: what a fighter can do on a shot, and what a player sets from a phone."""

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

DefenceKind = Literal["passive", "dodge", "parry"]


class Act(Command):
    actor: str
    targets: list[str] = []
    modifiers: list[GivenModifier] = []
    snapshot: Bounded = 0
    metres: Bounded = 0


class Attack(Act, tag="attack"):
    weapon: str = ""  # none named: the first on the sheet, else a punch (001-M3)
    defence: dict[str, DefenceKind] = {}
    unaware: list[str] = []


class Run(Act, tag="run"):
    no_targets: ClassVar[bool] = True


class Other(Act, tag="other"):
    what: str = "something else"
    shots: Bounded = 3


class Continuous(Act, tag="continuous"):
    no_targets: ClassVar[bool] = True
    what: str = ""


class Stop(Act, tag="stop"):
    no_targets: ClassVar[bool] = True
    what: str = ""


ShotCommand = Join | Begin | Pass | Attack | Run | Other | Continuous | Stop


ACTIONS = {
    "attack": (
        "attack a target: 3 shots, or fewer as a snapshot; the target may dodge or parry "
        "(001-6, 001-14)"
    ),
    "run": "run up to twice Move: 3 shots, no snapshot (001-7)",
    "other": "any action: 1 shot simple, 3 complex, 4 or more extra long (001-8, 001-17)",
    "continuous": "start a continuous action: +1 shot to every other (001-16)",
    "stop": "stop a continuous action (001-16)",
}


# What a player sets from a phone; the rest is the GM's (modifiers) or the target's (its
# defence, answered when asked).
WEAPON = PlayerField("Weapon", "what you use, from your sheet", from_sheet=True)


SNAPSHOT = PlayerField("Snapshot", "shots saved by shooting quicker, at a penalty")


METRES = PlayerField("Metres", "how far you move as you act")


WHAT = PlayerField("What", "what you do, in a few words")


PLAYERS = {
    "attack": Playable(
        {"weapon": WEAPON, "snapshot": SNAPSHOT, "metres": METRES},
        dice="a plus d6 and a minus d6, each rolled again on a 6",
    ),
    "run": Playable({"metres": METRES}),
    "other": Playable(
        {"what": WHAT, "shots": PlayerField("Shots", "1 simple, 3 complex, 4 or more long")}
    ),
    "continuous": Playable({"what": WHAT}),
    "stop": Playable({"what": WHAT}),
}
