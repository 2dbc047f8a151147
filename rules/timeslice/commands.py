"""Commands: the maneuvers a fighter can spend Time Slices on, and what a player sets from a
phone."""

from dataclasses import replace
from typing import ClassVar, Literal

from fracas.rules.api import Bounded, Command, GivenModifier, Join, Pass, Playable, PlayerField

Defence = Literal["dodge", "block", "parry"]


Called = Literal["head", "heart", "limb"]


class Start(Command, tag="begin"):
    """Initiative once (002-4); the GM may name a surprised group (002-22)."""

    surprised: list[str] = []
    surprising: list[str] = []


class Act(Command):
    actor: str
    targets: list[str] = []
    modifiers: list[GivenModifier] = []


class Attack(Act, tag="attack"):
    weapon: str = ""
    called: Called | None = None
    limb: str = "right arm"  # the target's limb, for a called shot to a limb
    defence: dict[str, Defence] = {}
    nonlethal: bool = False


class Interrupt(Attack, tag="interrupt"):
    """002-7: the GM rules that `trigger_by` moves or attacks within the weapon's range."""

    trigger: Literal["moves", "attacks", ""] = ""
    trigger_by: str = ""


class Cast(Attack, tag="cast"):
    spell: str = ""
    hp: int = 0
    at: str = ""  # 002-25: a chosen point, the centre of the unit the GM names


class Move(Act, tag="move"):
    no_targets: ClassVar[bool] = True
    units: Bounded = 1


class Draw(Act, tag="draw"):
    no_targets: ClassVar[bool] = True
    weapon: str = ""


class Stow(Act, tag="stow"):
    no_targets: ClassVar[bool] = True
    weapon: str = ""


class Aim(Act, tag="aim"):
    weapon: str = ""
    points: Bounded = 1


class Reload(Act, tag="reload"):
    no_targets: ClassVar[bool] = True
    weapon: str = ""


class Treat(Act, tag="treat"):
    pass


class Heal(Act, tag="heal"):
    hp: Bounded = 1
    ts: Bounded = 0
    source: str = "healing"


class Check(Act, tag="check"):
    stat: str = "u"
    difficulty: Bounded = 10
    ts: Bounded = 0
    what: str = "a stat roll"


TimeSliceCommand = (
    Join
    | Start
    | Pass
    | Attack
    | Interrupt
    | Cast
    | Move
    | Draw
    | Stow
    | Aim
    | Reload
    | Treat
    | Heal
    | Check
)


ACTIONS = {
    "attack": (
        "attack a target with a weapon: 3 TS; called shots, defences and nonlethal blows "
        "(002-6, 002-15..002-20)"
    ),
    "interrupt": (
        "attack on another's turn when they move or attack in reach; the GM rules it is "
        "in range (002-7, 002-8)"
    ),
    "move": "move at 1 TS a unit (002-9)",
    "draw": "draw a weapon: 1 TS unless the weapon says otherwise (002-5)",
    "stow": "stow a weapon: 1 TS unless the weapon says otherwise (002-5)",
    "aim": "aim a weapon: 2 TS per +1 to the next attack with it (002-11)",
    "reload": "reload a weapon: the TS it lists (002-12)",
    "cast": "cast a spell: its TS; it strikes or heals (002-10)",
    "treat": "treat the dying: 3 TS with a medical kit (002-21)",
    "heal": "heal a target from any source (002-21)",
    "check": "a stat roll against a difficulty (002-14)",
}


# What a player sets from a phone; the rest is the GM's (modifiers, time costs, a
# difficulty, where a spell lands, healing from any source: `heal`) or the target's (its
# defence, answered when asked).
WEAPON = PlayerField("Weapon", "what you use, from your sheet", from_sheet=True)


RELOADABLE = "reloadable weapon"  # what `offers` names the weapons that reload


CALLED = PlayerField("Called shot", "aim at the head, the heart or a limb (harder)")


LIMB = PlayerField(
    "Limb", "which limb a called shot aims at", only_with=("called", "called at a limb")
)


NONLETHAL = PlayerField("Nonlethal", "strike to subdue, not to kill")


STRIKE = {"weapon": WEAPON, "called": CALLED, "limb": LIMB, "nonlethal": NONLETHAL}


STRUCK = "2d10 to hit (the target rolls its own defence)"


PLAYERS = {
    "attack": Playable(STRIKE, dice=STRUCK),
    "interrupt": Playable(
        {
            **STRIKE,
            "trigger": PlayerField("When", "they attack, or they move, within your reach"),
            "trigger_by": PlayerField(
                "Who", "the one whose move or attack you cut into", combatant=True
            ),
        },
        reaction=True,
        dice=STRUCK,
    ),
    "move": Playable({"units": PlayerField("Units", "how far you move, 1 TS a unit")}),
    "draw": Playable({"weapon": WEAPON}),
    "stow": Playable({"weapon": WEAPON}),
    "aim": Playable(
        {"weapon": WEAPON, "points": PlayerField("Points", "+1 to your next attack for every 2 TS")}
    ),
    "reload": Playable(
        {"weapon": replace(WEAPON, offered_as=RELOADABLE, required=True)}  # 002-12
    ),
    "cast": Playable(
        {
            "spell": PlayerField(
                "Spell", "the spell you cast, from your sheet", from_sheet=True, required=True
            ),
            "called": CALLED,
            "limb": LIMB,
        },
        dice=STRUCK,
    ),
    "treat": Playable(targets_need=frozenset(("dying",))),  # 002-21: the dying alone
    "check": Playable(
        {
            "stat": PlayerField("Stat", "the stat you roll, as the sheet names it"),
            "what": PlayerField("What", "what you try, in a few words"),
        },
        dice="2d10",
    ),
}
