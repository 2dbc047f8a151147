"""Time slices (Archetype RPG, "Combat Basics").

Rule ids (002-n) are those of RULES.md §002. Initiative is rolled once; every round refills
each combatant's Time Slices (TS); maneuvers spend TS on the actor's turn, and TS kept when
the turn ends pay for interruptions on other turns until the round is over. Read top to
bottom: sheets and options, rolls, the round, maneuvers, attacks and damage, dying, then
evolve and the view.
"""

from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from fracas.rules.api import (
    BadInputError,
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
    Pass,
    Playable,
    PlayerField,
    RefusedError,
    Resolved,
    Roll,
    Rolled,
    Ruleset,
    Spent,
    TurnAdvanced,
    View,
    Waiting,
    WoundRow,
    check_can_begin,
    check_known,
    declared_event,
    event_union,
    gm,
    joined_event,
    no_weapon,
    offer,
    roster,
    tie_roll,
    toml_reference,
)

# -- sheets and options -------------------------------------------------------------------

STAT_DICE = "2d10z"  # 002-14: two d10 read 0-9
LIMBS = ("left arm", "right arm", "left leg", "right leg")


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Equipment page is not in the seed: every figure is data (RULES.md defaults)."""

    name: str
    damage: int = 2
    ts: int = 3  # 002-6
    ranged: bool = False
    draw_ts: int = 1  # 002-5
    reload_ts: int = 0  # 002-12; 0: never reloads
    parry: int = 0  # 002-23: the weapon bonus to a parry
    shield: int = 0  # 002-23: the shield bonus to a block
    limb: str = "right arm"  # the limb that wields it (002-18)
    stat: str = "v"  # the attack stat, [V] by default (002-15)


class Spell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """002-10: a spell costs the TS it lists; it may strike like an attack or heal."""

    name: str
    ts: int
    damage: int = 0
    heal: int = 0
    ranged: bool = True
    stat: str = "v"
    limb: str = "right arm"


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    q: int = 10  # [Q]: initiative and defence
    v: int = 10  # [V]: attack
    u: int = 10  # [U]: resisting surprise
    stats: dict[str, int] = {}
    hp: int = 10
    dr: int = 0
    ts_max: int | None = None
    stagger_threshold: int | None = None
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


# -- commands -----------------------------------------------------------------------------

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
    units: Bounded = 1


class Draw(Act, tag="draw"):
    weapon: str = ""


class Stow(Act, tag="stow"):
    weapon: str = ""


class Aim(Act, tag="aim"):
    weapon: str = ""
    points: Bounded = 1


class Reload(Act, tag="reload"):
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
# difficulty, where a spell lands) or the target's (its defence, answered when asked).
WEAPON = PlayerField("Weapon", "what you use, from your sheet", from_sheet=True)
CALLED = PlayerField("Called shot", "aim at the head, the heart or a limb (harder)")
LIMB = PlayerField("Limb", "which limb a called shot aims at")
NONLETHAL = PlayerField("Nonlethal", "strike to subdue, not to kill")
STRIKE = {"weapon": WEAPON, "called": CALLED, "limb": LIMB, "nonlethal": NONLETHAL}
STRUCK = "2d10 to hit, then 2d10 for where and how hard on a hit"
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
    "reload": Playable({"weapon": WEAPON}),
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
    "treat": Playable(),
    "heal": Playable(
        {
            "hp": PlayerField("Hit points", "how much the source heals"),
            "source": PlayerField("Source", "what heals, in a few words"),
        }
    ),
    "check": Playable(
        {
            "stat": PlayerField("Stat", "the stat you roll, as the sheet names it"),
            "what": PlayerField("What", "what you try, in a few words"),
        },
        dice="2d10",
    ),
}

# -- events of its own --------------------------------------------------------------------


class RoundStarted(Event, tag="round.started"):
    """002-2: every combatant's TS back to their maximum; game time moves on."""

    round: int
    clock: int
    ts: dict[str, int]
    reason: str = ""
    rules: list[str] = []

    def describe(self) -> str:
        refills = ", ".join(f"{who} {ts} TS" for who, ts in self.ts.items())
        return f"round {self.round} at {clock_text(self.clock)}: {refills}; {self.reason}".rstrip(
            "; "
        )


class StaggerChanged(Event, tag="stagger.changed"):
    target: str
    points: int
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target} stagger {self.points}: {self.reason} [{', '.join(self.rules)}]"


def clock_text(seconds: int) -> str:
    sign = "-" if seconds < 0 else ""
    return f"{sign}{abs(seconds) // 60}:{abs(seconds) % 60:02d}"


# -- state --------------------------------------------------------------------------------


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    hp: int
    equipped: tuple[str, ...] = ()
    initiative: int = 0
    tiebreak: int = 0
    ts: int = 0
    stagger: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def out(self) -> bool:
        return self.has("dead") or self.has("unconscious") or self.has(gm.REMOVED)

    def limbs(self, condition: str) -> list[str]:
        return list(self.conditions.get(condition, {}).get("limbs", []))

    def weapon(self, name: str, options: Options) -> Weapon:
        unarmed = fists(options)
        if not name:
            held = [w for w in self.sheet.weapons if w.name in self.equipped]
            return held[0] if held else unarmed
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("fists", "unarmed"):
            return unarmed
        raise no_weapon(self.name, name, ["fists", *(w.name for w in self.sheet.weapons)])

    def spell(self, name: str) -> Spell:
        for spell in self.sheet.spells:
            if spell.name.lower() == name.lower():
                return spell
        known = ", ".join(s.name for s in self.sheet.spells) or "none"
        raise RefusedError(f"{self.name} knows no spell {name!r}; spells: {known}")


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    clock: int = 0
    turn: str | None = None
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def order(self) -> list[Fighter]:
        """002-4: highest initiative first; ties by higher [Q], then the seeded tie roll."""
        return sorted(
            self.fighters.values(),
            key=lambda f: (-f.initiative, -f.sheet.q, -f.tiebreak, f.joined),
        )

    def ts_max(self, fighter: Fighter) -> int:
        return fighter.sheet.ts_max if fighter.sheet.ts_max is not None else self.options.ts_max

    def threshold(self, fighter: Fighter) -> int:
        own = fighter.sheet.stagger_threshold
        return own if own is not None else self.options.stagger_threshold

    def turn_done(self, fighter: Fighter) -> bool:
        """Whether the fighter's turn this round is over: their TS left are saved (002-8)."""
        ids = [f.id for f in self.order()]
        return self.turn is not None and ids.index(fighter.id) < ids.index(self.turn)

    def seconds_left(self, fighter: Fighter) -> int | None:
        dying = fighter.conditions.get("dying")
        return None if dying is None else dying["deadline"] - self.clock


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Equipped weapons are the sheet's; limbs and attack stats are ones it has."""
    names = [w.name for w in sheet.weapons]
    check_known("weapon", sheet.equipped, names, f"{where}: equipped")
    stats = ("q", "v", "u", *sheet.stats)
    for item in [*sheet.weapons, *sheet.spells]:
        check_known("limb", [item.limb], LIMBS, f"{where}: {item.name}")
        check_known("stat", [item.stat], stats, f"{where}: {item.name}")


def initial() -> State:
    return State()


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


# -- rolls (002-14) -----------------------------------------------------------------------


def stat_bonus(state: State, fighter: Fighter, stat: str) -> Modifier:
    """A stat's bonus: the stat less the baseline (10 by default)."""
    named = {"q": fighter.sheet.q, "v": fighter.sheet.v, "u": fighter.sheet.u}
    value = named.get(stat.lower(), fighter.sheet.stats.get(stat.lower()))
    if value is None:
        known = ", ".join(["q", "v", "u", *fighter.sheet.stats])
        raise BadInputError(f"{fighter.name} has no stat {stat!r}; stats: {known}")
    return Modifier(value - state.options.stat_baseline, f"[{stat.upper()}] bonus", "002-14")


def roll_penalties(state: State, fighter: Fighter) -> list[Modifier]:
    """002-18: a heart wound leaves the dying character acting at -2 to every roll."""
    dying = fighter.conditions.get("dying", {})
    if dying.get("heart") and not fighter.out:
        return [Modifier(state.options.heart_penalty, "heart wound", "002-18")]
    return []


class StatRoll(msgspec.Struct, frozen=True):
    roll: Roll
    terms: list[Modifier]

    @property
    def total(self) -> int:
        return self.roll.total + sum(m.value for m in self.terms)

    @property
    def natural_18(self) -> bool:
        return self.roll.faces == [9, 9]


def stat_roll(
    state: State, ctx: Context, fighter: Fighter, stat: str, purpose: str, extra: list[Modifier]
) -> StatRoll:
    terms = [stat_bonus(state, fighter, stat), *extra, *roll_penalties(state, fighter)]
    return StatRoll(ctx.dice.roll(STAT_DICE, purpose), terms)


def rolled(
    fighter: Fighter, purpose: str, roll: StatRoll, target: int | None, result: str, rules: list
) -> Rolled:
    return Rolled(fighter.id, purpose, roll.roll, target, roll.terms, result, ["002-14", *rules])


# -- the round ----------------------------------------------------------------------------


def can_take_turn(fighter: Fighter) -> bool:
    return not fighter.out


def advance(state: State, reason: str) -> list[Event]:
    """The next combatant in order takes their turn; after the last, a new round (002-3)."""
    order = state.order()
    ids = [f.id for f in order]
    start = ids.index(state.turn) + 1 if state.turn in ids else 0
    events: list[Event] = []
    for fighter in order[start:]:
        if not can_take_turn(fighter):
            continue
        events += turn_begins(state, fighter)
        if fold(state, events).fighters[fighter.id].ts > 0:
            return [*events, TurnAdvanced(state.round, fighter.id, reason, ["002-1"])]
        events.append(
            Resolved(fighter.id, "turn", [], "no TS to spend: the turn passes", ["002-3"])
        )
    after = fold(state, events)
    if not any(can_take_turn(f) for f in after.fighters.values()):
        return [*events, TurnAdvanced(state.round, None, "nobody is left able to act", ["002-3"])]
    return events + start_round(after, state.round + 1, set(), f"round {state.round} is over")


def turn_begins(state: State, fighter: Fighter) -> list[Event]:
    """002-24: stagger ends, and its points return to 0, when the creature's next turn starts."""
    if fighter.has("staggered") or (state.options.stagger_resets_each_turn and fighter.stagger):
        return [
            StaggerChanged(fighter.id, 0, "their turn starts", ["002-24"]),
            *(
                [ConditionCleared(fighter.id, "staggered", "their turn starts", ["002-24"])]
                if fighter.has("staggered")
                else []
            ),
        ]
    return []


def start_round(state: State, number: int, denied: set[str], reason: str) -> list[Event]:
    """002-2: TS back to the maximum (002-22: not for who failed a surprise roll); game time
    moves on, and a dying timer that runs out kills (002-21)."""
    clock = state.clock + (state.options.seconds_per_round if number > 1 else 0)
    events: list[Event] = []
    for fighter in state.order():
        dying = fighter.conditions.get("dying")
        if dying and dying["deadline"] <= clock and not fighter.has("dead"):
            events += death(fighter, "the dying timer ran out", ["002-21"])
    after = fold(state, events)
    refills = {
        f.id: 0 if f.id in denied else after.ts_max(f) for f in after.order() if can_take_turn(f)
    }
    events.append(RoundStarted(number, clock, refills, reason, ["002-2"]))
    after = fold(after, events[-1:])
    if not any(refills.values()) and not denied:
        return [*events, TurnAdvanced(number, None, "nobody has TS to spend", ["002-2"])]
    return events + advance(after, f"round {number} begins")


def check_turn(state: State, actor: Fighter) -> None:
    if state.round == 0:
        raise RefusedError("the fight has not begun: `fracas begin` first")
    check_able(actor)
    if state.turn != actor.id:
        current = state.fighters[state.turn].name if state.turn else "nobody"
        raise RefusedError(
            f"it is {current}'s turn, not {actor.name}'s (002-1); off-turn, only an interrupt "
            "may be made (002-7)"
        )


def check_able(actor: Fighter) -> None:
    if actor.has("dead"):
        raise RefusedError(f"{actor.name} is dead")
    if actor.has("unconscious"):
        raise RefusedError(f"{actor.name} is unconscious and cannot act (002-20)")


def spend(actor: Fighter, amount: int, why: str, rules: list[str]) -> Spent:
    """002-1: TS are spent the moment a maneuver is made, and there must be enough."""
    if amount > actor.ts:
        raise RefusedError(
            f"{actor.name} has {actor.ts} TS left; {why} costs {amount} ({rules[0]})"
        )
    return Spent(actor.id, "ts", amount, why, rules)


def on_turn(state: State, command: Act, ctx: Context, maneuver) -> list[Event]:
    """Frame of a maneuver on one's turn: check, declare, resolve; the turn passes at 0 TS."""
    actor = state.fighter(command.actor)
    check_turn(state, actor)
    events: list[Event] = [declared_event(command, actor.id, ctx.command_id)]
    events += maneuver(fold(state, events), actor, command, ctx)
    return events + pass_if_spent(fold(state, events))


def pass_if_spent(state: State) -> list[Event]:
    """The acting combatant with no TS left (spent, staggered, down) ends their turn."""
    current = state.fighters.get(state.turn) if state.turn else None
    if current is None or (current.ts > 0 and can_take_turn(current)):
        return []
    return advance(state, f"{current.name} has no TS left")


# -- simple maneuvers ---------------------------------------------------------------------


def equipped_weapon(state: State, actor: Fighter, name: str) -> Weapon:
    weapon = actor.weapon(name, state.options)
    if weapon.name != "fists" and weapon.name not in actor.equipped:
        raise RefusedError(f"{actor.name} has not drawn the {weapon.name}: draw it first (002-5)")
    return weapon


def do_move(state: State, actor: Fighter, command: Move, ctx: Context) -> list[Event]:
    if command.units < 1:
        raise BadInputError("move at least one unit: --opt units=N")
    cost = command.units * state.options.move_ts
    return [
        spend(actor, cost, f"moves {command.units} unit(s)", ["002-9"]),
        Resolved(actor.id, "move", [], f"moves {command.units} unit(s)", ["002-9"]),
    ]


def do_draw(state: State, actor: Fighter, command: Draw, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon, state.options)
    if not command.weapon or weapon.name == "fists":
        raise BadInputError("name the weapon to draw: -w WEAPON")
    if weapon.name in actor.equipped:
        raise RefusedError(f"{actor.name} already holds the {weapon.name}")
    return [
        spend(actor, weapon.draw_ts, f"draws the {weapon.name}", ["002-5"]),
        EquipmentChanged(actor.id, [*actor.equipped, weapon.name], "drawn", ["002-5"]),
    ]


def do_stow(state: State, actor: Fighter, command: Stow, ctx: Context) -> list[Event]:
    weapon = equipped_weapon(state, actor, command.weapon)
    if weapon.name == "fists":
        raise BadInputError("name the weapon to stow: -w WEAPON")
    events: list[Event] = [
        spend(actor, weapon.draw_ts, f"stows the {weapon.name}", ["002-5"]),
        EquipmentChanged(
            actor.id, [w for w in actor.equipped if w != weapon.name], "stowed", ["002-5"]
        ),
    ]
    if actor.conditions.get("aiming", {}).get("weapon") == weapon.name:
        events.append(ConditionCleared(actor.id, "aiming", "the weapon was stowed", ["002-11"]))
    return events


def do_aim(state: State, actor: Fighter, command: Aim, ctx: Context) -> list[Event]:
    """002-11: 2 TS per +1 to hit with an equipped weapon; it lasts until that weapon attacks."""
    weapon = equipped_weapon(state, actor, command.weapon)
    if command.points < 1:
        raise BadInputError("aim for at least +1: --opt points=N")
    aiming = actor.conditions.get("aiming", {})
    bonus = command.points + (aiming.get("bonus", 0) if aiming.get("weapon") == weapon.name else 0)
    return [
        spend(actor, command.points * state.options.aim_ts, f"aims +{command.points}", ["002-11"]),
        ConditionSet(
            actor.id,
            "aiming",
            f"+{bonus} to hit with the {weapon.name}",
            {"weapon": weapon.name, "bonus": bonus},
            ["002-11"],
        ),
    ]


def do_reload(state: State, actor: Fighter, command: Reload, ctx: Context) -> list[Event]:
    weapon = equipped_weapon(state, actor, command.weapon)
    if not weapon.reload_ts:
        raise RefusedError(f"the {weapon.name} lists no reload (002-12)")
    return [
        spend(actor, weapon.reload_ts, f"reloads the {weapon.name}", ["002-12"]),
        Resolved(actor.id, "reload", [], f"reloads the {weapon.name}", ["002-12"]),
    ]


def do_treat(state: State, actor: Fighter, command: Treat, ctx: Context) -> list[Event]:
    """002-21: 3 TS with a medical kit and the patient is no longer dying."""
    target = state.fighter(single_target(command))
    if not actor.sheet.medical_kit:
        raise RefusedError(f"{actor.name} has no medical kit (002-21)")
    if not target.has("dying") or target.has("dead"):
        raise RefusedError(f"{target.name} is not dying")
    return [
        spend(actor, state.options.medkit_ts, f"treats {target.name}", ["002-21"]),
        ConditionCleared(target.id, "dying", f"stabilised by {actor.name}", ["002-21"]),
    ]


def do_heal(state: State, actor: Fighter, command: Heal, ctx: Context) -> list[Event]:
    target = state.fighter(single_target(command))
    events: list[Event] = (
        [spend(actor, command.ts, command.source, ["002-21"])] if command.ts else []
    )
    return events + healing(state, target, command.hp, command.source)


def do_check(state: State, actor: Fighter, command: Check, ctx: Context) -> list[Event]:
    roll = stat_roll(state, ctx, actor, command.stat, command.what, list(command.modifiers))
    verdict = "succeeds" if roll.total >= command.difficulty else "fails"
    events: list[Event] = [spend(actor, command.ts, command.what, ["002-14"])] if command.ts else []
    return [*events, rolled(actor, command.what, roll, command.difficulty, verdict, [])]


def single_target(command: Act) -> str:
    if len(command.targets) != 1:
        raise BadInputError(f"{command.__struct_config__.tag} takes exactly one TARGET")
    return command.targets[0]


# -- attacks (002-6, 002-7, 002-15..002-18, 002-23) -------------------------------------------


def do_attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    weapon = equipped_weapon(state, actor, command.weapon)
    return strike(state, ctx, actor, command, weapon, "attacks", ["002-6"])


def do_cast(state: State, actor: Fighter, command: Cast, ctx: Context) -> list[Event]:
    """002-10: the spell's TS; a damaging spell is rolled and defended like an attack."""
    if not command.spell:
        raise BadInputError("name the spell: --opt spell=NAME")
    spell = actor.spell(command.spell)
    check_limb(actor, spell.limb, f"cast {spell.name}")
    if spell.damage:
        weapon = Weapon(
            spell.name, spell.damage, spell.ts, spell.ranged, limb=spell.limb, stat=spell.stat
        )
        return strike(state, ctx, actor, command, weapon, "casts", ["002-10"])
    point = f" at the centre of {command.at}" if command.at else ""
    rules = ["002-10", "002-25"] if command.at else ["002-10"]
    events: list[Event] = [
        spend(actor, spell.ts, f"casts {spell.name}", ["002-10"]),
        Resolved(actor.id, "cast", list(command.targets), f"casts {spell.name}{point}", rules),
    ]
    heal = spell.heal or command.hp
    if heal:
        events += healing(state, state.fighter(single_target(command)), heal, spell.name)
    return events


def decide_interrupt(state: State, command: Interrupt, ctx: Context) -> list[Event]:
    """002-7, 002-8: an attack on another's turn, paid from TS left (saved TS included),
    when an opponent moves or attacks within range; it resolves before that maneuver."""
    actor = state.fighter(command.actor)
    if state.turn is None:
        raise RefusedError("interrupts happen during a turn, and nobody is acting now")
    check_able(actor)
    if state.turn == actor.id:
        raise RefusedError(f"it is {actor.name}'s own turn: attack instead of interrupting")
    if not command.trigger:
        raise BadInputError(
            "an interrupt needs the GM's ruling on its trigger: --opt trigger=moves|attacks "
            "[--opt trigger_by=WHO] (002-7)"
        )
    trigger_by = state.fighter(command.trigger_by or state.turn)
    if trigger_by.side == actor.side:
        raise RefusedError("only an opponent's move or attack triggers an interrupt (002-7)")
    weapon = equipped_weapon(state, actor, command.weapon)
    ruling = f"{trigger_by.name} {command.trigger} within range of {actor.name}'s {weapon.name}"
    events: list[Event] = [
        declared_event(command, actor.id, ctx.command_id),
        Resolved(actor.id, "interrupt", [trigger_by.id], f"GM rules: {ruling}", ["002-7"]),
    ]
    events += strike(fold(state, events), ctx, actor, command, weapon, "interrupts", ["002-7"])
    return events + pass_if_spent(fold(state, events))


def check_limb(actor: Fighter, limb: str, what: str) -> None:
    """002-18: a crippled or amputated limb cannot attack or cast."""
    for condition in ("crippled", "amputated"):
        if limb in actor.limbs(condition):
            raise RefusedError(f"{actor.name}'s {limb} is {condition}: it cannot {what} (002-18)")


def attack_terms(state: State, actor: Fighter, command: Attack, weapon: Weapon) -> list:
    terms: list[Modifier] = []
    aiming = actor.conditions.get("aiming", {})
    if aiming.get("weapon") == weapon.name:
        terms.append(Modifier(aiming["bonus"], "aimed", "002-11"))
    if command.called:
        shift = getattr(state.options, f"{command.called}_shot")
        terms.append(Modifier(shift, f"called shot to the {called_name(command)}", "002-18"))
    return [*terms, *command.modifiers]


def called_name(command: Attack) -> str:
    return command.limb if command.called == "limb" else str(command.called)


def strike(
    state: State,
    ctx: Context,
    actor: Fighter,
    command: Attack,
    weapon: Weapon,
    verb: str,
    rules: list[str],
) -> list[Event]:
    """Spend the TS, roll [V] against the target's defence; a hit deals damage."""
    target = state.fighter(single_target(command))
    if target.id == actor.id:
        raise RefusedError(f"{actor.name} cannot attack themselves")
    if target.has("dead"):
        raise RefusedError(f"{target.name} is already dead")
    check_limb(actor, weapon.limb, f"attack with the {weapon.name}")
    if command.called == "limb" and command.limb not in LIMBS:
        raise BadInputError(f"a limb is one of: {', '.join(LIMBS)}; not {command.limb!r}")
    kind = command.defence.get(target.id, "dodge")
    defence_bonus = check_defence(state, target, kind)
    events: list[Event] = [spend(actor, weapon.ts, f"{verb} with the {weapon.name}", rules)]
    if actor.conditions.get("aiming", {}).get("weapon") == weapon.name:
        events.append(ConditionCleared(actor.id, "aiming", "the aimed attack is made", ["002-11"]))
    purpose = f"{weapon.name} attack on {target.name}"
    attack = stat_roll(
        state, ctx, actor, weapon.stat, purpose, attack_terms(state, actor, command, weapon)
    )
    if target.out:
        defence_total = state.options.helpless_defence
        defence_events: list[Event] = []
    else:
        defence = stat_roll(state, ctx, target, "q", f"{kind} against {actor.name}", defence_bonus)
        defence_total = defence.total
    hits = attack.total > defence_total or (attack.natural_18 and state.options.natural_18_hits)
    verdict = "hits" if hits else "misses"
    events.append(rolled(actor, purpose, attack, defence_total, verdict, ["002-15", *rules]))
    if not target.out:
        defence_events = [
            rolled(
                target,
                f"{kind} against {actor.name}",
                defence,
                attack.total,
                "holds" if not hits else "fails",
                ["002-23"],
            )
        ]
    events += defence_events
    if not hits:
        free_move = " and may move 1 unit free, uninterrupted" if kind == "dodge" else ""
        outcome = f"misses ({attack.total} against {kind} {defence_total}){free_move}"
        return [*events, Resolved(actor.id, "attack", [target.id], outcome, ["002-15", "002-23"])]
    return events + wound(fold(state, events), actor, target.id, weapon, command, attack)


def check_defence(state: State, target: Fighter, kind: str) -> list[Modifier]:
    """002-23: dodge on [Q] alone, block with a shield's bonus, parry with a weapon's -3;
    a staggered creature can only dodge (002-24)."""
    if kind == "dodge" or target.out:
        return []
    if target.has("staggered"):
        raise RefusedError(f"{target.name} is staggered and can only dodge (002-24)")
    held = [w for w in target.sheet.weapons if w.name in target.equipped]
    if kind == "block":
        shields = [w for w in held if w.shield]
        if not shields:
            raise RefusedError(f"{target.name} holds no shield to block with (002-23)")
        best = max(shields, key=lambda w: w.shield)
        return [Modifier(best.shield, f"{best.name} shield bonus", "002-23")]
    blades = [w for w in held if not w.ranged]
    if not blades:
        raise RefusedError(f"{target.name} holds no melee weapon to parry with (002-23)")
    best = max(blades, key=lambda w: w.parry)
    return [
        Modifier(best.parry, f"{best.name} parry bonus", "002-23"),
        Modifier(state.options.parry_penalty, "parry", "002-23"),
    ]


# -- damage, stagger and dying (002-16..002-21, 002-24) -----------------------------------------


def multipliers(command: Attack, attack: StatRoll) -> list[str]:
    """002-16, 002-17: each doubling adds the base damage once more."""
    found = ["natural 18"] if attack.natural_18 else []
    if command.called in ("head", "heart"):
        found.append(f"{command.called} shot")
    return found


def wound(
    state: State,
    actor: Fighter,
    target_id: str,
    weapon: Weapon,
    command: Attack,
    attack: StatRoll,
) -> list[Event]:
    """002-19: base x multipliers + additions - DR, last; then stagger, limbs and dying."""
    target = state.fighters[target_id]
    doubled = multipliers(command, attack)
    factor = 1 + len(doubled)
    breakdown = [Modifier(weapon.damage, f"{weapon.name} damage", "002-19")]
    if doubled:
        breakdown.append(
            Modifier(weapon.damage * len(doubled), f"x{factor}: {', '.join(doubled)}", "002-17")
        )
    if target.has("staggered"):
        breakdown.append(Modifier(state.options.stagger_damage, "staggered", "002-24"))
    breakdown.append(Modifier(-target.sheet.dr, "DR", "002-19"))
    amount = max(0, sum(m.value for m in breakdown))
    limb_events: list[Event] = []
    if command.called == "limb":
        amount, limb_events = limb_shot(target, weapon, command.limb, amount, breakdown)
    outcome = f"hits for {amount}" + (f" (x{factor})" if factor > 1 else "")
    events: list[Event] = [Resolved(actor.id, "attack", [target.id], outcome, ["002-15", "002-19"])]
    if amount:
        events.append(Damaged(target.id, amount, weapon.name, breakdown, ["002-19"]))
    events += limb_events
    events += stagger(state, target, factor)
    events += downed(state, target, amount, command, actor)
    return events


def limb_shot(
    target: Fighter, weapon: Weapon, limb: str, amount: int, breakdown: list[Modifier]
) -> tuple[int, list[Event]]:
    """002-18: at most floor(max HP / 3); beyond it the limb is crippled (ranged) or
    amputated (not ranged). Defaults: measured after multipliers, stagger and DR."""
    cap = target.sheet.hp // 3
    if amount <= cap:
        return amount, []
    breakdown.append(Modifier(cap - amount, f"limb shot cap {cap}", "002-18"))
    condition = "crippled" if weapon.ranged else "amputated"
    limbs = sorted({*target.limbs(condition), limb})
    event = ConditionSet(
        target.id,
        condition,
        f"{limb} {condition} by the {weapon.name}",
        {"limbs": limbs},
        ["002-18"],
    )
    return cap, [event]


def stagger(state: State, target: Fighter, factor: int) -> list[Event]:
    """002-24: a hit adds the multiplier's factor in stagger points, even if DR stops it all;
    beyond the threshold the creature is staggered and loses its current TS."""
    points = target.stagger + factor
    events: list[Event] = [StaggerChanged(target.id, points, f"hit x{factor}", ["002-24"])]
    if points <= state.threshold(target) or target.has("staggered"):
        return events
    events.append(
        ConditionSet(
            target.id,
            "staggered",
            f"{points} stagger points over a threshold of {state.threshold(target)}",
            {},
            ["002-24"],
        )
    )
    lost = target.ts if state.options.staggered_loses_saved or not state.turn_done(target) else 0
    if lost:
        events.append(Spent(target.id, "ts", lost, "staggered: loses all current TS", ["002-24"]))
    return events


def downed(
    state: State, target: Fighter, amount: int, command: Attack, attacker: Fighter
) -> list[Event]:
    """002-18 heart shots, 002-20 HP below 1, 002-21 attacks on the dying."""
    was_dying = target.has("dying")
    deadline = state.clock + state.options.dying_minutes * 60
    events: list[Event] = []
    if was_dying:
        cut = target.conditions["dying"]["deadline"] - 60
        if cut <= state.clock:
            return death(target, f"killed by {attacker.name} in the last minute", ["002-21"])
        detail = {**target.conditions["dying"], "deadline": cut}
        events.append(
            ConditionSet(target.id, "dying", "attacked while dying: -1 minute", detail, ["002-21"])
        )
    if target.hp > 0 and target.hp - amount <= 0:
        if target.side == "npc" and state.options.npc_dies_at_zero and not command.nonlethal:
            return events + death(target, "0 HP: an NPC dies", ["002-20"])
        events.append(ConditionSet(target.id, "unconscious", "0 HP", {}, ["002-20"]))
        if not was_dying:
            detail = {"deadline": deadline, "heart": command.called == "heart"}
            return [*events, ConditionSet(target.id, "dying", "0 HP", detail, ["002-20"])]
    if command.called == "heart" and not was_dying:
        detail = {"deadline": deadline, "heart": True}
        events.append(
            ConditionSet(target.id, "dying", "heart shot: conscious, at -2", detail, ["002-18"])
        )
    return events


def death(target: Fighter, reason: str, rules: list[str]) -> list[Event]:
    cleared = [ConditionCleared(target.id, "dying", reason, rules)] if target.has("dying") else []
    return [*cleared, ConditionSet(target.id, "dead", reason, {}, rules)]


def healing(state: State, target: Fighter, points: int, source: str) -> list[Event]:
    """002-21: while dying each point adds a minute to the timer; a point that would take it
    past the limit, and every point after, is 1 HP and the dying ends."""
    if points < 1:
        raise BadInputError("heal at least 1 HP: --opt hp=N")
    if target.has("dead"):
        raise RefusedError(f"{target.name} is dead")
    dying = target.conditions.get("dying")
    events: list[Event] = []
    if dying:
        left = dying["deadline"] - state.clock
        minutes = min(points, max(0, (state.options.dying_minutes * 60 - left) // 60))
        points -= minutes
        if minutes:
            detail = {**dying, "deadline": dying["deadline"] + 60 * minutes}
            events.append(
                ConditionSet(target.id, "dying", f"healed: +{minutes} min", detail, ["002-21"])
            )
        if not points:
            return events
        events.append(ConditionCleared(target.id, "dying", f"healed by {source}", ["002-21"]))
        if target.has("unconscious") and state.options.healed_wakes:
            events.append(ConditionCleared(target.id, "unconscious", "healed", ["002-21"]))
    gained = min(points, target.sheet.hp - target.hp)
    if gained > 0:
        events.append(Healed(target.id, gained, source, ["002-21"]))
    return events


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """HP lost past DR's reach; at 0 HP unconscious and dying, or dead (002-20)."""
    fighter = state.fighter(target)
    events = gm.harmed(state, target, amount, reason)
    if fighter.hp <= 0 or fighter.hp - amount > 0 or fighter.has("dead"):
        return events
    if fighter.side == "npc" and state.options.npc_dies_at_zero:
        return events + death(fighter, "0 HP: an NPC dies", ["002-20"])
    events.append(ConditionSet(target, "unconscious", "0 HP", {}, ["002-20"]))
    if not fighter.has("dying"):
        deadline = state.clock + state.options.dying_minutes * 60
        detail = {"deadline": deadline, "heart": False}
        events.append(ConditionSet(target, "dying", "0 HP", detail, ["002-20"]))
    return events


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """As the heal of 002-21: the dying timer first, then HP up to the maximum."""
    fighter = state.fighter(target)
    events = healing(state, fighter, amount, reason or "the GM's ruling")
    if not events:
        raise RefusedError(f"{fighter.name} is at full HP ({fighter.hp})")
    return events


# -- joining and beginning ----------------------------------------------------------------


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    return [joined_event(command, sheet)]


def decide_begin(state: State, command: Start, ctx: Context) -> list[Event]:
    """002-4: initiative once, 2d10 (0-9) + [Q] bonus; 002-22: the surprise round."""
    check_can_begin(state.round, state.fighters)
    for who in [*command.surprised, *command.surprising]:
        state.fighter(who)
    events: list[Event] = []
    totals: dict[str, int] = {}
    for fighter in sorted(state.fighters.values(), key=lambda f: f.joined):
        roll = stat_roll(state, ctx, fighter, "q", "initiative", [])
        totals[fighter.id] = roll.total
        events.append(
            rolled(fighter, "initiative", roll, None, f"initiative {roll.total}", ["002-4"])
        )
    for who, total in totals.items():
        tied = [
            w
            for w, t in totals.items()
            if t == total and state.fighters[w].sheet.q == state.fighters[who].sheet.q
        ]
        tiebreak = 0
        if len(tied) > 1:
            tie = tie_roll(ctx, who, f"initiative tie of {who}", ["002-4"])
            events.append(tie)
            tiebreak = tie.roll.total
        reason = f"{total}" + (f", tie roll {tiebreak}" if tiebreak else "")
        events.append(InitiativeSet(who, total, reason, ["002-4"], tiebreak))
    denied = set()
    if command.surprised:
        surprise, denied = surprise_round(state, ctx, command)
        events += surprise
    after = replace(fold(state, events), round=0)
    reason = "a surprise round" if command.surprised else "the fight begins"
    return events + start_round(after, 1, denied, reason)


def surprise_round(state: State, ctx: Context, command: Start) -> tuple[list[Event], set[str]]:
    """002-22: each surprised combatant rolls [U] against the surprising group's average [Q]
    stat, rounded down; who fails gets no TS this round."""
    surprising = command.surprising or [w for w in state.fighters if w not in command.surprised]
    if not surprising:
        raise BadInputError("a surprise needs a surprising group: --opt surprising=[...]")
    average = sum(state.fighters[w].sheet.q for w in surprising) // len(surprising)
    events: list[Event] = []
    denied: set[str] = set()
    for who in command.surprised:
        fighter = state.fighters[who]
        roll = stat_roll(state, ctx, fighter, "u", "surprise", [])
        if roll.total < average:
            denied.add(who)
        verdict = "surprised: no TS this round" if who in denied else "not surprised"
        events.append(rolled(fighter, "surprise", roll, average, verdict, ["002-22"]))
    return events, denied


def decide_pass(state: State, command: Pass, ctx: Context) -> list[Event]:
    """002-13: end the turn at any time; the TS left are saved until the round ends."""
    if state.turn is None:
        raise RefusedError(
            "the fight has not begun: `fracas begin` first"
            if not state.round
            else "nobody is left able to act in this fight"
        )
    actor = state.fighters[state.turn]
    if command.actor not in (None, actor.id):
        raise RefusedError(f"it is {actor.name}'s turn; only they can end it")
    saved = f"; {actor.ts} TS saved" if actor.ts else ""
    return advance(state, f"{actor.name} ended their turn{saved}")


MANEUVERS = {
    Attack: do_attack,
    Cast: do_cast,
    Move: do_move,
    Draw: do_draw,
    Stow: do_stow,
    Aim: do_aim,
    Reload: do_reload,
    Treat: do_treat,
    Heal: do_heal,
    Check: do_check,
}


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Start():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_pass(state, command, ctx)
        case Interrupt():
            return decide_interrupt(state, command, ctx)
    maneuver = MANEUVERS.get(type(command))
    if maneuver is None:
        raise BadInputError(f"the time-slice ruleset cannot decide {type(command).__name__}")
    return on_turn(state, command, ctx, maneuver)


# -- evolve: a pure, total fold -----------------------------------------------------------


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = msgspec.convert(event.sheet, Sheet)
    fighter = Fighter(
        event.combatant,
        event.name,
        event.side,
        sheet,
        len(state.fighters),
        sheet.hp,
        tuple(sheet.equipped),
    )
    return roster.put(state, fighter)


def _round(state: State, event: RoundStarted) -> State:
    fighters = {who: replace(f, ts=event.ts.get(who, 0)) for who, f in state.fighters.items()}
    return replace(state, round=event.round, clock=event.clock, turn=None, fighters=fighters)


def _turn(state: State, event: TurnAdvanced) -> State:
    return replace(state, round=event.round, turn=event.actor)


def _spent(state: State, event: Spent) -> State:
    return roster.change(
        state, event.combatant, lambda f: replace(f, ts=max(0, f.ts - event.amount))
    )


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, hp=max(0, f.hp - event.amount)))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, hp=min(f.sheet.hp, f.hp + event.amount))
    )


def _stagger(state: State, event: StaggerChanged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, stagger=event.points))


def _equipment(state: State, event: EquipmentChanged) -> State:
    return roster.change(
        state, event.combatant, lambda f: replace(f, equipped=tuple(event.holding))
    )


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: roster.initiative_set,
        RoundStarted: _round,
        TurnAdvanced: _turn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
        StaggerChanged: _stagger,
        EquipmentChanged: _equipment,
    }
)


# -- the view the table sees --------------------------------------------------------------


def ts_status(state: State, fighter: Fighter) -> str:
    if fighter.has("dead"):
        return "dead"
    if fighter.has("unconscious"):
        return "unconscious"
    if not state.round:
        return ""
    if state.turn == fighter.id:
        return f"acting; {fighter.ts} TS"
    if state.turn_done(fighter):
        return f"{fighter.ts} TS saved"
    return f"{fighter.ts} TS; turn to come"


def conditions_of(state: State, fighter: Fighter) -> list[str]:
    shown: list[str] = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "dying":
            heart = ", heart wound: -2" if detail.get("heart") and not fighter.out else ""
            left = clock_text(detail["deadline"] - state.clock)
            shown.append(f"dying ({left} left{heart})")
        elif name in ("crippled", "amputated"):
            shown.append(f"{name} {', '.join(detail['limbs'])}")
        elif name == "aiming":
            shown.append(f"aiming {detail['weapon']} +{detail['bonus']}")
        else:
            shown.append(name)
    return shown


def wound_row(state: State, fighter: Fighter) -> WoundRow:
    left = state.seconds_left(fighter)
    return WoundRow(
        fighter.id,
        fighter.name,
        fighter.side,
        f"HP {fighter.hp}/{fighter.sheet.hp} DR {fighter.sheet.dr} "
        f"stagger {fighter.stagger}/{state.threshold(fighter)}",
        conditions_of(state, fighter),
        {
            "hp": fighter.hp,
            "hp_max": fighter.sheet.hp,
            "dr": fighter.sheet.dr,
            "ts": fighter.ts,
            "ts_max": state.ts_max(fighter),
            "saved_ts": fighter.ts if state.turn_done(fighter) else 0,
            "stagger": fighter.stagger,
            "stagger_threshold": state.threshold(fighter),
            "staggered": fighter.has("staggered"),
            "dying_seconds_left": left,
            "crippled": fighter.limbs("crippled"),
            "amputated": fighter.limbs("amputated"),
            "equipped": list(fighter.equipped),
        },
        fighter.hp,
        fighter.sheet.hp,
        "HP",
    )


def view(state: State) -> View:
    order = state.order()
    initiative = [
        InitiativeRow(
            f.id,
            f.name,
            i,
            f"init {f.initiative}",
            state.turn == f.id,
            ts_status(state, f),
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [wound_row(state, f) for f in sorted(state.fighters.values(), key=lambda f: f.joined)]
    phase = "setup" if not state.round else ("over" if state.turn is None else "turn")
    notes = [f"game time {clock_text(state.clock)}"] if state.round else []
    acting = [state.turn] if state.turn else []
    return View(state.round, phase, acting, initiative, wounds, [], notes)


TRACKED = frozenset(
    ("aiming", "amputated", "crippled", "dead", "dying", "staggered", "unconscious")
)

# -- the table's words ----------------------------------------------------------------------

VERBS = {
    "attack": "attacks",
    "interrupt": "interrupts",
    "move": "moves",
    "draw": "draws",
    "stow": "stows",
    "aim": "aims",
    "reload": "reloads",
    "cast": "casts",
    "treat": "treats",
    "heal": "heals",
    "check": "makes a check",
}


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    detail = wound.detail
    return {
        "TS": f"{detail.get('ts', 0)}/{detail.get('ts_max', 0)}",
        "Saved TS": detail.get("saved_ts", 0),
    }


DEFENCE = Choices(
    ["dodge", "block", "parry"],
    "dodge",
    "002-23",
    "a dodge: a [Q] roll with no other bonus",
    omit="",
)


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """002-23, 002-24: the target of an attack, interruption or spell rolls a dodge, a block
    (with a shield) or a parry (with a melee weapon; not while staggered). Nobody out of the
    fight: they cannot roll a defence."""
    if not isinstance(command, Attack):
        return {}
    out = [f.id for f in state.fighters.values() if f.out]
    return offer(decide, state, command, DEFENCE, out)


def offers(sheet: Sheet, field: str) -> list[str]:
    """What Tab and a phone offer for `-o spell=`: the spells on the sheet."""
    return [spell.name for spell in sheet.spells] if field == "spell" else []


RULESET = Ruleset(
    name="timeslice",
    title="time slices (Archetype)",
    reference=toml_reference("fracas.rules", "reference.toml", "002"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=TimeSliceCommand,
    event_type=event_union(RoundStarted, StaggerChanged),
    initial=initial,
    decide=decide,
    reactions=reactions,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    offers=offers,
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    reads_rolls="modified",
    key_numbers=key_numbers,
    verbs=VERBS,
    down=frozenset(("unconscious", "dying")),
    out=frozenset(("dead",)),
    field_help={"called": "a called shot: head, heart or limb (002-18)"},
)
