"""Percentile combat with a DEX countdown (Delta Green, Agent's Handbook, Combat).

Rule ids (000-n) are those of RULES.md §000. Read top to bottom: sheets and options,
the test roll, the turn, each action, damage, then evolve and the view.
"""

import math
import re
from collections.abc import Collection
from typing import Annotated, Any, Literal, NamedTuple

import msgspec
from msgspec.structs import replace

from fracas.rules.api import (
    BadInputError,
    Begin,
    Bounded,
    Choices,
    CombatantJoined,
    Command,
    ConditionCleared,
    ConditionSet,
    Context,
    Damaged,
    EncounterStarted,
    EquipmentChanged,
    Event,
    GivenModifier,
    Healed,
    InitiativeRow,
    InitiativeSet,
    Join,
    Modifier,
    Multiplier,
    Pass,
    PinRow,
    Playable,
    PlayerField,
    RefusedError,
    Resolved,
    Rolled,
    Ruleset,
    Spent,
    TurnAdvanced,
    View,
    Waiting,
    WoundRow,
    check_can_begin,
    declared_event,
    did_you_mean,
    event_union,
    gm,
    joined_event,
    no_weapon,
    parse_dice,
    roster,
    tie_roll,
    toml_reference,
)

# -- sheets and options -------------------------------------------------------------------

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


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    kind: WeaponKind = "firearm"
    damage: str = "1d6"
    skill: str = ""
    armor_piercing: int = 0
    lethality: int = 0

    @property
    def skill_name(self) -> str:
        return (self.skill or SKILL_FOR_KIND[self.kind]).lower()


UNARMED = Weapon("unarmed", "unarmed", "1d4-1")


Stat = Annotated[int, msgspec.Meta(ge=0)]  # mechanic 5: 3-18 for humans, more for others


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    strength: Stat = msgspec.field(default=10, name="str")
    con: Stat = 10
    dex: Stat = 10
    intelligence: Stat = msgspec.field(default=10, name="int")
    pow: Stat = 10
    cha: Stat = 10
    skills: dict[str, int] = {}
    weapons: list[Weapon] = []
    armor: int = 0
    hp: int | None = None
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
}


# -- commands -----------------------------------------------------------------------------

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
    pass


class Disarm(Opposable, tag="disarm"):
    item: str | None = None


class Pin(Opposable, tag="pin"):
    pass


class Escape(Act, tag="escape"):
    pass


class Move(Act, tag="move"):
    pace: Literal["jog", "run", "sprint"] = "jog"
    footing: bool = False
    cover: Bounded | None = None


class Wait(Act, tag="wait"):
    pass


class Stand(Act, tag="stand"):
    pass


class Ready(Act, tag="ready"):
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
            "shots": PlayerField("Shots", "how many shots you fire (automatic fire)"),
        },
        dice="d100 to hit, then the weapon's damage dice on a hit",
    ),
    "aim": Playable(),
    "disarm": Playable({"item": PlayerField("Item", "what you knock away (none: what it holds)")}),
    "pin": Playable(),
    "escape": Playable(),
    "move": Playable({"pace": PlayerField("Pace", "how fast you go: jog, run or sprint")}),
    "wait": Playable(),
    "stand": Playable(),
    "ready": Playable({"item": PlayerField("Item", "what you draw or pick up")}),
    "other": Playable({"what": PlayerField("What", "what you do, in a few words")}),
}

# -- state --------------------------------------------------------------------------------


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    hp: int
    hp_max: int
    holding: tuple[str, ...] = ()
    conditions: dict[str, dict[str, Any]] = {}
    acted_round: int = 0
    tiebreak: int = 0

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def out(self) -> bool:
        return self.has("dead") or self.has("unconscious") or self.has(gm.REMOVED)

    def rating(self, name: str) -> "Rating":
        """A skill's percentage, or a stat×5 with the raw stat (mechanics 2 and 5)."""
        stat = stat_named(name)
        if stat is not None:
            return Rating(self.sheet.stat(stat) * 5, self.sheet.stat(stat))
        name = name.lower().strip()
        return Rating(self.sheet.skills.get(name, BASE_SKILLS.get(name, 0)), None)

    def skill(self, name: str) -> int:
        return self.rating(name).value

    def weapon(self, name: str) -> Weapon:
        """A weapon of the sheet by name; none named: the first the combatant holds, else
        unarmed (000-8)."""
        if not name:
            return next((w for w in self.sheet.weapons if w.name in self.holding), UNARMED)
        if name.lower() == "unarmed":
            return UNARMED
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        raise no_weapon(self.name, name, ["unarmed", *(w.name for w in self.sheet.weapons)])


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    turn: str | None = None
    slot_dex: int | None = None
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def order(self) -> list[Fighter]:
        """000-2: descending DEX; ties keep joining order unless a roll-off split them."""
        return sorted(self.fighters.values(), key=lambda f: (-f.sheet.dex, -f.tiebreak, f.joined))


def initial() -> State:
    return State()


def known_skill(name: str, custom: Collection[str] = ()) -> bool:
    name = name.lower().strip()
    base = name.split("(")[0].strip()
    return name in SKILLS or base in SKILLS or name in custom or stat_named(name) is not None


def check_skill(name: str, where: str, custom: Collection[str] = ()) -> None:
    if not known_skill(name, custom):
        known = [*SKILLS, *custom, *(f"{s}x5" for s in STATS)]
        raise BadInputError(
            f"{where}: unknown skill {name!r}; {did_you_mean(name, known)} "
            "(list a skill of the sheet's own in custom_skills)"
        )


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Skill names must be the Handbook's, a stat x5, or listed in custom_skills."""
    for name in sheet.skills:
        if stat_named(name) is not None:
            raise BadInputError(f"{where}: {name} is a stat; set it as {stat_named(name)} = N")
        check_skill(name, f"{where}: skills", custom)
    for weapon in sheet.weapons:
        if weapon.skill:
            check_skill(
                weapon.skill,
                f"{where}: weapon {weapon.name}",
                [*custom, *map(str.lower, sheet.skills)],
            )


# -- the test roll (mechanics 1 to 4) -----------------------------------------------------

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


TIER = {"critical": 2, "success": 1, "failure": 0, "fumble": 0}


def judge(face: int, target: int, stat: int | None = None) -> str:
    """Mechanics 1 to 3: roll under; 01 and successful doubles are criticals, 100 and failed
    doubles are fumbles; on an inhuman stat test a roll at or under the stat is critical too."""
    success = face <= target and face != 100
    doubles = face < 100 and face % 11 == 0
    if success:
        inhuman = stat is not None and stat >= INHUMAN and face <= stat
        return "critical" if face == 1 or doubles or inhuman else "success"
    return "fumble" if face == 100 or doubles else "failure"


def clamp_target(base: int, modifier: int, cap: int, ignore_modifiers: bool = False) -> int:
    """Mechanic 2 and the stacking default: cap the modifier at ±cap (0: no cap), then clamp
    the target to 1..99. An inhuman stat's x5 is modified like any target (000-M2): at 99
    or more every roll but 100 succeeds, under 99 it is an ordinary test. `ignore_modifiers`:
    the earlier reading, an inhuman test at 99 whatever the modifiers."""
    if ignore_modifiers:
        return 99
    if cap:
        modifier = max(-cap, min(cap, modifier))
    return max(1, min(99, base + modifier))


def target_number(
    base: int, modifiers: list[Modifier], cap: int, ignore_modifiers: bool = False
) -> int:
    return clamp_target(base, sum(m.value for m in modifiers), cap, ignore_modifiers)


def target_of(rating: Rating, modifiers: list[Modifier], options: Options) -> int:
    """The target of every test (mechanic 2, 000-M2) as the encounter's options read it."""
    ignored = rating.inhuman and options.inhuman_penalties == "ignored"
    return target_number(rating.value, modifiers, options.modifier_cap, ignored)


def inhuman_note(rating: Rating, target: int, options: Options) -> Modifier:
    """000-M2 beside an inhuman stat's test: which rolls succeed, which are criticals."""
    stat = rating.stat
    if options.inhuman_penalties == "ignored":  # as the encounters begun so recorded it
        return Modifier(0, f"inhuman stat {stat}: every roll but 100 succeeds", "000-M2")
    succeeds = "every roll but 100 succeeds, " if target >= 99 else ""
    return Modifier(0, f"inhuman stat {stat}: {succeeds}{stat} or under is a critical", "000-M2")


def checked_rating(fighter: "Fighter", skill: str) -> "Rating":
    """A stat of 0 cannot be tested at all (there is nothing to roll under)."""
    check_skill(skill, fighter.name, fighter.sheet.skills)
    rating = fighter.rating(skill)
    if rating.stat == 0:
        stat = (stat_named(skill) or skill).upper()
        raise RefusedError(f"{fighter.name} has {stat} 0: a stat of 0 cannot be tested")
    return rating


class Test(msgspec.Struct, frozen=True):
    actor: str
    skill: str
    face: int
    target: int
    result: str

    @property
    def tier(self) -> int:
        return TIER[self.result]

    @property
    def success(self) -> bool:
        return self.tier > 0


def roll_test(
    ctx: Context,
    events: list[Event],
    fighter: Fighter,
    skill: str,
    purpose: str,
    modifiers: list[Modifier],
    options: Options,
    rules: list[str],
) -> Test:
    rating = checked_rating(fighter, skill)
    target = target_of(rating, modifiers, options)
    roll = ctx.dice.roll("d100", purpose)
    result = judge(roll.total, target, rating.stat)
    if rating.inhuman:
        modifiers = [*modifiers, inhuman_note(rating, target, options)]
    events.append(Rolled(fighter.id, purpose, roll, target, modifiers, result, rules))
    return Test(fighter.id, skill, roll.total, target, result)


def defender_wins(attack: Test, defence: Test, options: Options) -> bool:
    """Mechanic 4 with the defaults: the defence must overcome the attack strictly."""
    if not defence.success:
        both_failed = not attack.success
        return both_failed and options.both_fail == "lower_roll" and defence.face < attack.face
    if defence.tier != attack.tier:
        return defence.tier > attack.tier
    if defence.face != attack.face:
        return defence.face > attack.face
    return options.defence_ties == "defender"


# -- the turn -----------------------------------------------------------------------------


def waiting_is_live(state: State, fighter: Fighter) -> bool:
    """000-25: a waited action may cut in any time before the waiter's next turn."""
    waiting = fighter.conditions.get("waiting")
    if waiting is None or fighter.out or state.turn == fighter.id:
        return False
    return waiting["round"] == state.round or (
        waiting["round"] == state.round - 1 and fighter.acted_round < state.round
    )


def aim_is_live(state: State, fighter: Fighter) -> bool:
    """000-6, 000-7: the bonus is for the attack on the turn after aiming, not later; an
    action waited in that turn is still that turn's action, even when it cuts in later."""
    aiming = fighter.conditions.get("aiming")
    if aiming is None:
        return False
    if aiming["round"] == state.round - 1:
        return True
    waiting = fighter.conditions.get("waiting")
    return bool(
        waiting and waiting["round"] == aiming["round"] + 1 and waiting_is_live(state, fighter)
    )


def still_acts_this_round(state: State, fighter: Fighter) -> bool:
    """Out of the fight, unless taken out by someone of the same DEX this round (000-3)."""
    if (
        fighter.acted_round >= state.round
        or fighter.conditions.get("forfeit", {}).get("round") == state.round
    ):
        return False
    if not fighter.out:
        return True
    if state.options.dex_ties != "simultaneous":
        return False
    taken_out = fighter.conditions.get("dead") or fighter.conditions.get("unconscious") or {}
    return taken_out.get("round") == state.round and taken_out.get("slot_dex") == fighter.sheet.dex


def advance(state: State, reason: str) -> list[Event]:
    """Give the turn to the next in DEX order who can act; after the last, a new round."""
    order = state.order()
    for fighter in order:
        if still_acts_this_round(state, fighter):
            return [TurnAdvanced(state.round, fighter.id, reason, ["000-1", "000-2"])]
    next_round = replace(state, round=state.round + 1)
    for fighter in order:
        if still_acts_this_round(next_round, fighter):
            return [
                TurnAdvanced(next_round.round, fighter.id, "a new turn begins", ["000-1", "000-2"])
            ]
    return [TurnAdvanced(next_round.round, None, "nobody is left able to act", ["000-1"])]


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


def check_can_act(state: State, actor: Fighter, command: Act) -> bool:
    """Whose turn it is (000-1, 000-2), or a live waiter cutting in (000-25). True if waited."""
    if state.round == 0:
        raise RefusedError("the fight has not begun: `fracas begin` first")
    if actor.out and not still_acts_this_round(state, actor):
        raise RefusedError(f"{actor.name} is out of the fight and cannot act")
    if state.turn != actor.id:
        if waiting_is_live(state, actor):
            return True
        current = state.fighters[state.turn].name if state.turn else "nobody"
        if actor.acted_round >= state.round:
            raise RefusedError(
                f"{actor.name} has already used this turn's action (000-1); it is {current}'s turn"
            )
        raise RefusedError(
            f"it is {current}'s turn, not {actor.name}'s (000-2); act in DEX order or wait (000-25)"
        )
    if actor.has("pinned") and not isinstance(command, Escape):
        raise RefusedError(
            f"{actor.name} is pinned: a pinned combatant may only try to escape (000-24)"
        )
    if actor.has("prone") and not isinstance(command, Stand | Pass):
        raise RefusedError(
            f"{actor.name} is prone and must spend the turn standing up first (000-19): act stand"
        )
    return False


def end_of_action(state: State, actor: Fighter, waited: bool, label: str) -> list[Event]:
    """The action is spent (000-1); a waited action leaves the current turn where it was."""
    events: list[Event] = []
    if waited:
        events.append(ConditionCleared(actor.id, "waiting", "acted after waiting", ["000-25"]))
    else:
        events.append(Spent(actor.id, "action", 1, label, ["000-1"]))
        if actor.has("waiting"):
            events.append(ConditionCleared(actor.id, "waiting", "their own turn came", ["000-25"]))
    if actor.has("defending") and actor.conditions["defending"].get("kind") == "escape":
        events.append(ConditionCleared(actor.id, "defending", "next action taken", ["000-15"]))
    return events


def act(state: State, command: Act, ctx: Context, resolve) -> list[Event]:
    """Frame of every action: check, declare, resolve, spend the action, pass the turn."""
    actor = state.fighter(command.actor)
    waited = check_can_act(state, actor, command)
    events: list[Event] = [declared_event(command, actor.id, ctx.command_id)]
    keeps_aim = Attack | Aim | Wait if state.options.wait_keeps_aim else Attack | Aim
    if actor.has("aiming") and not isinstance(command, keeps_aim):
        events.append(ConditionCleared(actor.id, "aiming", "did something else", ["000-7"]))
    events += resolve(state, actor, command, ctx)
    resolved = fold(state, events)
    ending = end_of_action(resolved, actor, waited, command.__struct_config__.tag)
    events += ending
    after = fold(resolved, ending)
    holder = after.fighters.get(after.turn) if after.turn else None
    if holder is None or not still_acts_this_round(after, holder):
        events += advance(after, f"{actor.name} acted")
    return events


# -- attacks and defences -----------------------------------------------------------------


def parse_damage(expression: str) -> tuple[str, int]:
    match = re.fullmatch(r"\s*(\d*d\d+)\s*(?:([+-])\s*(\d+))?\s*", expression, re.ASCII)
    if not match:
        raise BadInputError(f"damage {expression!r} is not of the form NdS or NdS+K")
    bonus = int(match.group(3) or 0) * (-1 if match.group(2) == "-" else 1)
    parse_dice(match.group(1))
    return match.group(1), bonus


def strength_bonus(strength: int) -> int:
    """Mechanic 6: melee and unarmed damage modifier by STR."""
    if strength <= 4:
        return -2
    if strength <= 8:
        return -1
    if strength <= 12:
        return 0
    if strength <= 16:
        return 1
    return 2


def standing_defence(state: State, defender: Fighter, hand_to_hand: bool) -> dict | None:
    """A block, dodge, fight back or escape roll already made that opposes this attack."""
    defending = defender.conditions.get("defending")
    if defending is None:
        return None
    if defending["kind"] == "escape":
        return defending if state.options.escape_defends else None
    if defending["round"] != state.round or not hand_to_hand:
        return None
    if defending["kind"] != "block" and state.options.defence_covers == "one":
        return None
    return defending


def attack_modifiers(
    state: State, actor: Fighter, target: Fighter, weapon: Weapon, command: Opposable, first: bool
) -> list[Modifier]:
    options = state.options
    modifiers = list(command.modifiers)
    if isinstance(command, Attack):
        if aim_is_live(state, actor):
            modifiers.append(Modifier(options.aim_bonus, "aimed last turn", "000-6"))
        if command.called != "none" and first:
            penalty = {"uncovered": options.uncovered_called_shot, "partly": -20, "mostly": -40}
            reason = f"called shot, target {command.called} covered".replace(
                "uncovered covered", "uncovered"
            )
            modifiers.append(Modifier(penalty[command.called], reason, "000-10"))
    if weapon.kind in HAND_TO_HAND and target.has("pinned"):
        modifiers.append(Modifier(options.pinned_bonus, f"{target.name} is pinned", "000-22"))
    return modifiers


def defend(
    state: State,
    ctx: Context,
    events: list[Event],
    attack: Test,
    attacker: Fighter,
    defender: Fighter,
    command: Opposable,
    hand_to_hand: bool,
) -> tuple[bool, Fighter | None, Weapon | None]:
    """Returns (defended, fought-back defender, their weapon) for one target."""
    options = state.options
    asked = command.defence.get(defender.id)
    if defender.id in command.unaware or defender.has("pinned") or defender.out:
        if asked:
            why = (
                "unaware of the attack"
                if defender.id in command.unaware
                else ("pinned (000-16)" if defender.has("pinned") else "out of the fight")
            )
            raise RefusedError(f"{defender.name} cannot {asked}: {why}")
        return False, None, None
    standing = standing_defence(state, defender, hand_to_hand)
    if standing is not None:
        test = Test(
            defender.id, standing["skill"], standing["face"], standing["target"], standing["result"]
        )
        rule = {"block": "000-9", "escape": "000-15"}.get(standing["kind"], "000-13")
        events.append(
            Resolved(
                defender.id,
                "defence",
                [attacker.id],
                f"{standing['kind']} roll {test.face} stands against this attack",
                [rule],
            )
        )
        return defender_wins(attack, test, options), None, None
    if asked is None:
        return False, None, None
    if asked == "fight-back" and not hand_to_hand:
        raise RefusedError(
            f"{defender.name} cannot fight back against a ranged or explosive attack (000-17)"
        )
    if defender.acted_round >= state.round and not waiting_is_live(state, defender):
        if options.defence_after_acting == "refuse":
            raise RefusedError(
                f"{defender.name} has already acted this turn and a {asked} uses the turn's "
                "action; set option defence_after_acting=forfeit_next to allow it"
            )
        events.append(
            ConditionSet(
                defender.id,
                "forfeit",
                f"{asked} after acting",
                {"round": state.round + 1},
                ["000-13"],
            )
        )
    elif waiting_is_live(state, defender):
        events.append(ConditionCleared(defender.id, "waiting", f"spent on a {asked}", ["000-25"]))
    else:
        events.append(Spent(defender.id, "action", 1, asked, ["000-13", "000-17"]))
    weapon = defender.weapon(command.defence_weapon.get(defender.id, melee_in_hand(defender)))
    skill = "dodge" if asked == "dodge" else weapon.skill_name
    rules = ["000-13"] if asked == "dodge" else ["000-17"]
    test = roll_test(ctx, events, defender, skill, asked, [], options, rules)
    events.append(
        ConditionSet(
            defender.id,
            "defending",
            f"declared {asked}",
            {
                "kind": asked,
                "round": state.round,
                "skill": skill,
                "face": test.face,
                "target": test.target,
                "result": test.result,
            },
            rules,
        )
    )
    won = defender_wins(attack, test, options)
    return won, (defender if won and asked == "fight-back" else None), weapon


NO_DEFENCE = "none"


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """Who an attack, a disarm or a pin lets choose a defence now, and which: a Dodge test,
    or against hand-to-hand a fight back (000-13, 000-17); no answer, no defence. Nobody
    unaware, pinned or out of the fight (000-M10), nobody a roll already made stands for
    (000-9, 000-15), nobody who has acted when a defence after acting is refused."""
    actor = state.fighters.get(getattr(command, "actor", ""))
    if not isinstance(command, Opposable) or actor is None or not state.round:
        return {}
    try:
        hand_to_hand = not isinstance(command, Attack) or (
            actor.weapon(command.weapon).kind in HAND_TO_HAND
        )
    except RefusedError:  # an unknown weapon: deciding the attack says so
        return {}
    found = {}
    for target in command.targets:
        defender = state.fighters.get(target)
        if defender is None or target in command.defence or target == actor.id:
            continue
        if target in command.unaware or defender.has("pinned") or defender.out:
            continue
        if standing_defence(state, defender, hand_to_hand) is not None:
            continue
        acted = defender.acted_round >= state.round and not waiting_is_live(state, defender)
        if acted and state.options.defence_after_acting == "refuse":
            continue
        fight_back = ["fight-back"] if hand_to_hand else []
        found[target] = Choices(
            ["dodge", *fight_back, NO_DEFENCE],
            NO_DEFENCE,
            "000-13",
            "no defence declared: nothing opposes the attack roll",
        )
    return found


def melee_in_hand(fighter: Fighter) -> str:
    for weapon in fighter.sheet.weapons:
        if weapon.kind == "melee" and weapon.name in fighter.holding:
            return weapon.name
    return "unarmed"


def roll_damage(
    ctx: Context,
    events: list[Event],
    state: State,
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    critical: bool,
    command: Attack | None,
) -> None:
    """Mechanics 3, 6, 7, 8: dice (+STR), lethality, criticals, armor and AP."""
    options = state.options
    multiplier = options.critical_multiplier if critical else 1
    breakdown: list[Modifier] = []
    rules = ["000-8", "000-5"]
    if weapon.lethality:
        rating = min(options.lethality_max, weapon.lethality * multiplier)
        roll = ctx.dice.roll("d100", f"lethality of {weapon.name}")
        kills = roll.total <= rating and (target.sheet.human or options.lethality_kills_nonhuman)
        result = "success" if roll.total <= rating else "failure"
        mods = [Modifier(weapon.lethality, "lethality rating")]
        if critical:
            mods.append(Modifier(rating - weapon.lethality, "critical doubles lethality"))
        events.append(
            Rolled(
                attacker.id, f"lethality of {weapon.name}", roll, rating, mods, result, ["000-8"]
            )
        )
        if kills:
            breakdown.append(Modifier(target.hp, "lethality roll succeeded: killed outright"))
            events.append(Damaged(target.id, target.hp, attacker.id, breakdown, ["000-8"]))
            return
        tens, units = (roll.total % 100) // 10 or 10, roll.total % 10 or 10
        raw = (tens + units) * multiplier
        why = "lethality failed" if roll.total > rating else "not human, so no outright kill"
        breakdown.append(Modifier(tens + units, f"{why}: {tens}+{units} from the d10s"))
    else:
        dice, bonus = parse_damage(weapon.damage)
        roll = ctx.dice.roll(dice, f"{weapon.name} damage")
        raw = roll.total + bonus
        breakdown.append(Modifier(roll.total, f"{dice} rolled"))
        if bonus:
            breakdown.append(Modifier(bonus, f"{weapon.name} bonus"))
        if weapon.kind in HAND_TO_HAND:
            raw += strength_bonus(attacker.sheet.strength)
            breakdown.append(
                Modifier(
                    strength_bonus(attacker.sheet.strength),
                    f"STR {attacker.sheet.strength}",
                    "000-8",
                )
            )
        events.append(Rolled(attacker.id, f"{weapon.name} damage", roll, None, [], None, rules))
        raw = max(0, raw) * multiplier
    if critical:
        breakdown.append(Modifier(raw - raw // multiplier, "critical hit doubles damage"))
    armor = armor_against(target, weapon, command)
    breakdown += armor
    amount = max(0, raw + sum(m.value for m in armor))
    events.append(Damaged(target.id, amount, attacker.id, breakdown, rules))


def armor_against(target: Fighter, weapon: Weapon, command: Attack | None) -> list[Modifier]:
    """Mechanic 7 and 000-20: body armor and cover, less armor piercing, never below 0."""
    avoid_armor = bool(command and command.called != "none" and command.avoid_armor)
    avoid_cover = bool(command and command.called != "none" and command.avoid_cover)
    terms: list[Modifier] = []
    if target.sheet.armor and not avoid_armor:
        terms.append(Modifier(-target.sheet.armor, "body armor"))
    elif target.sheet.armor:
        terms.append(Modifier(0, "called shot avoids body armor", "000-10"))
    cover = target.conditions.get("cover")
    if cover and weapon.kind in ("firearm", "explosive") and not avoid_cover:
        terms.append(Modifier(-cover["armor"], "behind cover", "000-20"))
    total = -sum(t.value for t in terms)
    if weapon.armor_piercing and total:
        terms.append(Modifier(min(weapon.armor_piercing, total), "armor piercing"))
    return terms


def harm_consequences(state: State, events: list[Event]) -> list[Event]:
    """HP thresholds (mechanic 9), lost aim (000-7), pins released when the pinner drops."""
    options, after = state.options, fold(state, events)
    consequences: list[Event] = []
    for event in events:
        if not isinstance(event, Damaged):
            continue
        before, now = state.fighters[event.target], after.fighters[event.target]
        stamp = {"round": state.round, "slot_dex": state.slot_dex}
        if now.hp <= options.dead_at and not before.has("dead"):
            consequences.append(ConditionSet(now.id, "dead", f"HP {now.hp}", stamp, [HP_LINES]))
        elif now.hp <= options.unconscious_at and not before.out:
            consequences.append(
                ConditionSet(now.id, "unconscious", f"HP {now.hp}", stamp, [HP_LINES])
            )
        if event.amount > 0 and before.has("aiming"):
            consequences.append(ConditionCleared(now.id, "aiming", "took damage", ["000-7"]))
        if now.hp <= options.unconscious_at:
            for other in after.fighters.values():
                if other.conditions.get("pinned", {}).get("by") == now.id:
                    consequences.append(
                        ConditionCleared(
                            other.id, "pinned", f"{now.name} is out of the fight", ["000-21"]
                        )
                    )
    return consequences


def attack_one(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    command: Attack,
    first: bool,
    face: int | None,
) -> Test:
    modifiers = attack_modifiers(state, attacker, target, weapon, command, first)
    rating = checked_rating(attacker, weapon.skill_name)
    target_pct = target_of(rating, modifiers, state.options)
    rules = ["000-8", "000-4"] + (["000-10"] if command.called != "none" and first else [])
    if face is None:
        test = roll_test(
            ctx,
            events,
            attacker,
            weapon.skill_name,
            f"attack on {target.name}",
            modifiers,
            state.options,
            rules,
        )
    else:  # 000-4: one attack roll for every target, judged against each target's number
        result = judge(face, target_pct, rating.stat)
        test = Test(attacker.id, weapon.skill_name, face, target_pct, result)
        events.append(
            Resolved(
                attacker.id,
                "attack",
                [target.id],
                f"the same roll {face} against {target_pct}% is a {test.result}",
                ["000-4"],
            )
        )
    hand_to_hand = weapon.kind in HAND_TO_HAND
    defended, fighter_back, back_weapon = defend(
        state, ctx, events, test, attacker, target, command, hand_to_hand
    )
    if fighter_back is not None and back_weapon is not None:
        events.append(
            Resolved(
                target.id,
                "fight-back",
                [attacker.id],
                f"{target.name} blocks and strikes back",
                ["000-17"],
            )
        )
        roll_damage(ctx, events, state, fighter_back, attacker, back_weapon, False, None)
    elif defended:
        events.append(
            Resolved(
                attacker.id, "attack", [target.id], f"{target.name} avoids the attack", ["000-13"]
            )
        )
    elif test.success:
        outcome = "critical hit" if test.result == "critical" else "hit"
        events.append(Resolved(attacker.id, "attack", [target.id], outcome, rules))
        roll_damage(
            ctx, events, state, attacker, target, weapon, test.result == "critical", command
        )
    else:
        outcome = "fumble: a miss, the Handler may add more" if test.result == "fumble" else "miss"
        events.append(Resolved(attacker.id, "attack", [target.id], outcome, rules))
    return test


def require_targets(state: State, command: Act, count: int | None = None) -> list[Fighter]:
    if not command.targets:
        raise BadInputError(f"{command.__struct_config__.tag} needs a target")
    if count is not None and len(command.targets) != count:
        raise BadInputError(f"{command.__struct_config__.tag} takes exactly {count} target")
    targets = [state.fighter(t) for t in command.targets]
    for target in targets:
        if target.has("dead"):
            raise RefusedError(f"{target.name} is already dead")
        if target.id == command.actor:
            raise RefusedError("a combatant cannot target themselves")
    if len(set(command.targets)) != len(command.targets):
        raise BadInputError("name each target once")
    return targets


def resolve_attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon)
    if weapon is not UNARMED and weapon.name not in actor.holding:
        raise RefusedError(
            f"{actor.name} is not holding the {weapon.name}: ready it first (act "
            f"{actor.id} ready --item {weapon.name!r}, 000-26)"
        )
    targets = require_targets(state, command)
    if len(targets) > 1 and weapon.kind not in ("firearm", "explosive"):
        raise RefusedError(
            "only automatic fire or explosives hit several targets in one attack (000-4)"
        )
    events: list[Event] = []
    face = None
    for index, target in enumerate(targets):
        test = attack_one(state, ctx, events, actor, target, weapon, command, index == 0, face)
        face = test.face
        if index == 0 and weapon.kind in HAND_TO_HAND:
            rule = "000-11" if command.called != "none" else "000-9"
            events.append(block_from(state, actor, test, target.id, rule))
    if actor.has("aiming"):
        events.append(ConditionCleared(actor.id, "aiming", "attacked", ["000-7"]))
    return events + harm_consequences(state, events)


def block_from(state: State, actor: Fighter, test: Test, against: str, rule: str) -> ConditionSet:
    """000-9, 000-11, 000-12, 000-21: a hand-to-hand action is also a parry and block."""
    return ConditionSet(
        actor.id,
        "defending",
        "parrying and blocking while engaged",
        {
            "kind": "block",
            "round": state.round,
            "skill": test.skill,
            "face": test.face,
            "target": test.target,
            "result": test.result,
            "against": against,
        },
        [rule],
    )


def hands_free(actor: Fighter, rule: str) -> None:
    if actor.holding:
        raise RefusedError(
            f"{actor.name} needs both hands free ({rule}) but holds {', '.join(actor.holding)}"
        )


def unarmed_contest(
    state: State, actor: Fighter, command: Opposable, ctx: Context, rule: str, purpose: str
) -> tuple[list[Event], Fighter, bool]:
    hands_free(actor, rule)
    (target,) = require_targets(state, command, 1)
    events: list[Event] = []
    modifiers = attack_modifiers(state, actor, target, UNARMED, command, True)
    test = roll_test(
        ctx,
        events,
        actor,
        "unarmed combat",
        f"{purpose} {target.name}",
        modifiers,
        state.options,
        [rule],
    )
    events.append(block_from(state, actor, test, target.id, rule))
    defended, _, _ = defend(state, ctx, events, test, actor, target, command, True)
    return events, target, test.success and not defended


def resolve_disarm(state: State, actor: Fighter, command: Disarm, ctx: Context) -> list[Event]:
    events, target, success = unarmed_contest(state, actor, command, ctx, "000-12", "disarm")
    item = command.item or (target.holding[0] if target.holding else None)
    if success and item in target.holding:
        kept = [h for h in target.holding if h != item]
        events.append(
            Resolved(actor.id, "disarm", [target.id], f"{target.name} drops the {item}", ["000-12"])
        )
        events.append(EquipmentChanged(target.id, kept, f"disarmed of the {item}", ["000-12"]))
    else:
        outcome = "fails to disarm" if not success else f"{target.name} holds nothing to drop"
        events.append(Resolved(actor.id, "disarm", [target.id], outcome, ["000-12"]))
    return events


def resolve_pin(state: State, actor: Fighter, command: Pin, ctx: Context) -> list[Event]:
    events, target, success = unarmed_contest(state, actor, command, ctx, "000-21", "pin")
    if success:
        events.append(
            Resolved(actor.id, "pin", [target.id], f"{target.name} is pinned", ["000-21"])
        )
        events.append(
            ConditionSet(
                target.id, "pinned", f"pinned by {actor.name}", {"by": actor.id}, ["000-21"]
            )
        )
    else:
        events.append(Resolved(actor.id, "pin", [target.id], "the pin fails", ["000-21"]))
    return events


def resolve_escape(state: State, actor: Fighter, command: Escape, ctx: Context) -> list[Event]:
    """000-14, 000-15, 000-16: the better of STR×5 and Unarmed Combat, opposed by the pinner."""
    if not actor.has("pinned"):
        raise RefusedError(f"{actor.name} is not pinned, so there is nothing to escape (000-14)")
    pinner = state.fighter(actor.conditions["pinned"]["by"])
    events: list[Event] = []
    skill = max(("strx5", "unarmed combat"), key=actor.skill)
    test = roll_test(
        ctx, events, actor, skill, "escape", list(command.modifiers), state.options, ["000-14"]
    )
    attack = last_attack_roll(state, pinner, actor)
    if attack is not None:
        opposing = attack
        events.append(
            Resolved(
                pinner.id,
                "opposes escape",
                [actor.id],
                f"{pinner.name}'s attack roll {attack.face} opposes it",
                ["000-14"],
            )
        )
    else:
        pinner_skill = max(("strx5", "unarmed combat"), key=pinner.skill)
        opposing = roll_test(
            ctx, events, pinner, pinner_skill, "hold the pin", [], state.options, ["000-14"]
        )
    if defender_wins(opposing, test, state.options):
        events.append(Resolved(actor.id, "escape", [pinner.id], "breaks free", ["000-15"]))
        events.append(ConditionCleared(actor.id, "pinned", "escaped", ["000-15"]))
        if state.options.escape_defends:
            events.append(
                ConditionSet(
                    actor.id,
                    "defending",
                    "the escape roll defends",
                    {
                        "kind": "escape",
                        "round": state.round,
                        "skill": skill,
                        "face": test.face,
                        "target": test.target,
                        "result": test.result,
                    },
                    ["000-15"],
                )
            )
    else:
        events.append(
            Resolved(actor.id, "escape", [pinner.id], "stays pinned and cannot defend", ["000-16"])
        )
    return events


def last_attack_roll(state: State, pinner: Fighter, target: Fighter) -> Test | None:
    """The pinner's block roll this turn stands for their attack on the pinned (000-14)."""
    block = pinner.conditions.get("defending")
    if (
        block
        and block["kind"] == "block"
        and block["round"] == state.round
        and block.get("against") == target.id
    ):
        return Test(pinner.id, block["skill"], block["face"], block["target"], block["result"])
    return None


# -- the other actions --------------------------------------------------------------------


def resolve_aim(state: State, actor: Fighter, command: Aim, ctx: Context) -> list[Event]:
    return [
        Resolved(actor.id, "aim", [], "aims: +20% to next turn's attack", ["000-6"]),
        ConditionSet(actor.id, "aiming", "aimed", {"round": state.round}, ["000-6"]),
    ]


def resolve_move(state: State, actor: Fighter, command: Move, ctx: Context) -> list[Event]:
    metres = {"jog": 10, "run": 20, "sprint": 30}[command.pace]
    events: list[Event] = [
        Resolved(actor.id, "move", [], f"{command.pace}s up to {metres} m", ["000-18"])
    ]
    if command.footing:
        if command.pace == "jog":
            raise BadInputError("a footing test is only called when running or sprinting (000-19)")
        test = roll_test(
            ctx,
            events,
            actor,
            "dexx5",
            "footing",
            list(command.modifiers),
            state.options,
            ["000-19"],
        )
        if not test.success:
            events.append(ConditionSet(actor.id, "prone", "lost footing", {}, ["000-19"]))
            events.append(
                ConditionCleared(actor.id, "cover", "fell short of cover", ["000-20"])
                if actor.has("cover")
                else Resolved(actor.id, "move", [], "falls prone", ["000-19"])
            )
            return events
    if command.cover is not None:
        events.append(
            ConditionSet(actor.id, "cover", "behind cover", {"armor": command.cover}, ["000-20"])
        )
    elif actor.has("cover"):
        events.append(ConditionCleared(actor.id, "cover", "left cover", ["000-20"]))
    return events


def resolve_wait(state: State, actor: Fighter, command: Wait, ctx: Context) -> list[Event]:
    if state.turn != actor.id:
        raise RefusedError(f"{actor.name} can only choose to wait on their own turn (000-25)")
    return [ConditionSet(actor.id, "waiting", "waits", {"round": state.round}, ["000-25"])]


def resolve_stand(state: State, actor: Fighter, command: Stand, ctx: Context) -> list[Event]:
    if not actor.has("prone"):
        raise RefusedError(f"{actor.name} is not prone")
    return [
        Resolved(actor.id, "stand", [], "stands up", ["000-19", "000-26"]),
        ConditionCleared(actor.id, "prone", "stood up", ["000-19", "000-26"]),
    ]


def resolve_ready(state: State, actor: Fighter, command: Ready, ctx: Context) -> list[Event]:
    if not command.item:
        raise BadInputError("ready needs --item NAME")
    if command.item in actor.holding:
        raise RefusedError(f"{actor.name} already holds the {command.item}")
    return [
        Resolved(actor.id, "ready", [], f"readies the {command.item}", ["000-26"]),
        EquipmentChanged(actor.id, [*actor.holding, command.item], "readied", ["000-26"]),
    ]


def resolve_other(state: State, actor: Fighter, command: Other, ctx: Context) -> list[Event]:
    events: list[Event] = []
    if command.test:
        test = roll_test(
            ctx,
            events,
            actor,
            command.test.replace("×", "x"),
            command.what,
            list(command.modifiers),
            state.options,
            ["000-26"],
        )
        outcome = f"{command.what}: {test.result}"
    else:
        outcome = command.what
    events.append(Resolved(actor.id, "other", [], outcome, ["000-26"]))
    return events


RESOLVERS = {
    Attack: resolve_attack,
    Aim: resolve_aim,
    Disarm: resolve_disarm,
    Pin: resolve_pin,
    Escape: resolve_escape,
    Move: resolve_move,
    Wait: resolve_wait,
    Stand: resolve_stand,
    Ready: resolve_ready,
    Other: resolve_other,
}

# -- joining, beginning, passing ----------------------------------------------------------


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    for weapon in sheet.weapons:
        parse_damage(weapon.damage)
    hp = sheet.hp if sheet.hp is not None else math.ceil((sheet.strength + sheet.con) / 2)
    sheet = replace(sheet, hp=hp, skills={k.lower(): v for k, v in sheet.skills.items()})
    return [joined_event(command, sheet)]


def decide_begin(state: State, command: Begin, ctx: Context) -> list[Event]:
    check_can_begin(state.round, state.fighters)
    events: list[Event] = []
    by_dex: dict[int, list[Fighter]] = {}
    for fighter in state.order():
        by_dex.setdefault(fighter.sheet.dex, []).append(fighter)
    for dex, group in by_dex.items():
        for fighter in group:
            tiebreak = 0
            if len(group) > 1 and state.options.dex_ties == "rolloff":
                purpose = f"DEX tie roll-off for {fighter.name}"
                tie = tie_roll(ctx, fighter.id, purpose, ["000-3"])
                events.append(tie)
                tiebreak = tie.roll.total
            reason = f"DEX {dex}" + (
                " (tie: simultaneous)" if len(group) > 1 and not tiebreak else ""
            )
            events.append(InitiativeSet(fighter.id, dex, reason, ["000-2", "000-3"], tiebreak))
    return events + advance(fold(state, events), "the fight begins")


def decide_pass(state: State, command: Pass, ctx: Context) -> list[Event]:
    if state.turn is None:
        if state.round:
            raise RefusedError("nobody is left able to act in this fight")
        raise RefusedError("the fight has not begun: `fracas begin` first")
    actor = state.fighters[state.turn]
    if command.actor not in (None, actor.id):
        raise RefusedError(f"it is {actor.name}'s turn; only they can pass it")
    events: list[Event] = [Spent(actor.id, "action", 1, "passes", ["000-1"])]
    return events + advance(fold(state, events), f"{actor.name} passed")


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    if isinstance(command, Join):
        return decide_join(state, command, ctx)
    if isinstance(command, Begin):
        return decide_begin(state, command, ctx)
    if isinstance(command, Pass):
        return decide_pass(state, command, ctx)
    resolver = RESOLVERS.get(type(command))
    if resolver is None:
        raise BadInputError(f"the percentile ruleset cannot decide {type(command).__name__}")
    return act(state, command, ctx, resolver)


# -- evolve: a pure, total fold -----------------------------------------------------------


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = msgspec.convert(event.sheet, Sheet)
    hp = sheet.hp or 0
    fighter = Fighter(
        event.combatant,
        event.name,
        event.side,
        sheet,
        len(state.fighters),
        hp,
        hp,
        tuple(sheet.holding),
        {},
        state.round,
    )
    return roster.put(state, fighter)


def _initiative(state: State, event: InitiativeSet) -> State:
    return roster.change(state, event.combatant, lambda f: replace(f, tiebreak=event.tiebreak))


def _turn(state: State, event: TurnAdvanced) -> State:
    fighter = state.fighters.get(event.actor) if event.actor else None
    dex = fighter.sheet.dex if fighter else None
    return replace(state, round=event.round, turn=event.actor, slot_dex=dex)


def _spent(state: State, event: Spent) -> State:
    if event.resource != "action":
        return state
    return roster.change(state, event.combatant, lambda f: replace(f, acted_round=state.round))


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, hp=max(0, f.hp - event.amount)))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, hp=min(f.hp_max, f.hp + event.amount))
    )


def _equipment(state: State, event: EquipmentChanged) -> State:
    return roster.change(state, event.combatant, lambda f: replace(f, holding=tuple(event.holding)))


# Pure and total: an event this ruleset does not fold (a roll, a note) leaves the state.
evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: _initiative,
        TurnAdvanced: _turn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
        EquipmentChanged: _equipment,
    }
)


# -- the view the table sees --------------------------------------------------------------


def live_conditions(state: State, fighter: Fighter) -> list[str]:
    shown = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "aiming" and not (aim_is_live(state, fighter) or detail["round"] == state.round):
            continue
        if name == "waiting" and not waiting_is_live(state, fighter):
            continue
        if (
            name == "defending"
            and detail.get("kind") != "escape"
            and detail["round"] != state.round
        ):
            continue
        if name == "forfeit" and detail["round"] < state.round:
            continue
        if name == "pinned":
            name = f"pinned by {state.fighters[detail['by']].name}"
        if name == "cover":
            name = f"cover (armor {detail['armor']})"
        if name == "defending":
            name = f"defending ({detail['kind']} {detail['face']})"
        shown.append(name)
    return shown


def status_of(state: State, fighter: Fighter) -> str:
    if fighter.has("dead"):
        return "dead"
    if fighter.has("unconscious"):
        return "unconscious"
    if state.turn == fighter.id:
        return "acting"
    if waiting_is_live(state, fighter):
        return "waiting"
    if state.round and fighter.acted_round >= state.round:
        return "done"
    return "to act" if state.round else "ready"


def view(state: State) -> View:
    order = state.order()
    acting = [f.id for f in order if state.turn == f.id or waiting_is_live(state, f)]
    initiative = [
        InitiativeRow(f.id, f.name, i, f"DEX {f.sheet.dex}", f.id in acting, status_of(state, f))
        for i, f in enumerate(order, start=1)
    ]
    wounds = [
        WoundRow(
            f.id,
            f.name,
            f.side,
            f"HP {f.hp}/{f.hp_max}",
            live_conditions(state, f),
            {"hp": f.hp, "hp_max": f.hp_max, "armor": f.sheet.armor, "holding": list(f.holding)},
            f.hp,
            f.hp_max,
            "HP",
        )
        for f in sorted(state.fighters.values(), key=lambda f: f.joined)
    ]
    pins = [
        PinRow(f.conditions["pinned"]["by"], f.id, "pinned")
        for f in state.fighters.values()
        if f.has("pinned")
    ]
    phase = "setup" if not state.round else ("over" if state.turn is None else "turn")
    return View(state.round, phase, acting, initiative, wounds, pins)


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    events = gm.harmed(state, target, amount, reason)
    return events + harm_consequences(state, events)


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """HP back up to the maximum; above the unconscious line (000-M9) they wake."""
    fighter = state.fighter(target)
    if fighter.has("dead"):
        raise RefusedError(f"{fighter.name} is dead; clear the condition 'dead' first to rule")
    if fighter.hp >= fighter.hp_max:
        raise RefusedError(f"{fighter.name} is at full HP ({fighter.hp})")
    amount = min(amount, fighter.hp_max - fighter.hp)
    events = gm.healed(state, target, amount, reason)
    if fighter.has("unconscious") and fold(state, events).fighters[target].hp > (
        state.options.unconscious_at
    ):
        events.append(ConditionCleared(target, "unconscious", "healed above the line", [HP_LINES]))
    return events


TRACKED = frozenset(
    ("aiming", "cover", "dead", "defending", "forfeit", "pinned", "prone", "unconscious", "waiting")
)

HP_LINES = "000-M9"  # the unconscious and dead thresholds


def hp_lines_cited(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 cited 000-9 (the parry rule) for falling unconscious or dead, and for
    waking; the rule that says so is 000-M9."""
    if data.get("condition") in ("dead", "unconscious") and "000-9" in data.get("rules", []):
        data = {**data, "rules": [HP_LINES if r == "000-9" else r for r in data["rules"]]}
    return data


def inhuman_penalties_ignored(data: dict[str, Any]) -> dict[str, Any]:
    """Encounters begun before schema 3 read 000-M2 as "every roll but 100 succeeds whatever
    the modifiers"; they keep that reading, so each step stays decided as it was recorded."""
    options = {"inhuman_penalties": "ignored", **data.get("options", {})}
    return {**data, "options": options}


# -- the table's words ----------------------------------------------------------------------

VERBS = {
    "attack": "attacks",
    "aim": "aims",
    "disarm": "tries to disarm",
    "pin": "tries to pin",
    "escape": "tries to escape",
    "move": "moves",
    "wait": "waits",
    "stand": "stands up",
    "ready": "readies",
    "other": "acts",
}


def facts(event: Event) -> frozenset[str]:
    """Mechanic 3's criticals and fumbles, as the test's result names them."""
    if isinstance(event, Rolled) and event.result in ("critical", "fumble"):
        return frozenset((event.result,))
    return frozenset()


RULESET = Ruleset(
    name="percentile",
    title="Percentile with DEX countdown (Delta Green)",
    reference=toml_reference("fracas.rules", "reference.toml", "000"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=PercentileCommand,
    event_type=event_union(),
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    reactions=reactions,
    schema=3,  # 2: the HP thresholds cite 000-M9; 3: modifiers count on inhuman stats
    upcasters={
        ("condition.set", 1): hp_lines_cited,
        ("condition.cleared", 1): hp_lines_cited,
        ("encounter.started", 2): inhuman_penalties_ignored,
    },
    verbs=VERBS,
    told=frozenset(("pinned", "prone")),
    down=frozenset(("unconscious",)),
    out=frozenset(("dead",)),
    facts=facts,
    field_help={
        "called": "a called shot at a body part: how much of the target is covered (000-10)",
        "defence": "a target's reaction: a Dodge test, or Fight Back against hand-to-hand "
        "(000-13, 000-17)",
        "unaware": "a target who cannot react to it",
        "avoid_armor": "a called shot aimed past the target's armour",
        "avoid_cover": "a called shot aimed past the target's cover (000-20)",
    },
)
