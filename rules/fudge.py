"""4dF outcomes (The Contract, early open version, "Combat").

Rule ids (003-n) are those of RULES.md §003. Each turn opens with initiative (4dF +
Discipline); combatants declare from the lowest initiative to the highest, then the
declared actions resolve from the highest to the lowest, one `next` at a time. Read top to
bottom: sheets and options, rolls, the turn, declarations, resolution of each action,
damage, then evolve and the view.
"""

from collections.abc import Collection
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from fracas.rules.api import (
    ANY_KIND,
    BadInputError,
    Begin,
    Bounded,
    Clock,
    CombatantJoined,
    Command,
    ConditionCleared,
    ConditionSet,
    Context,
    Damaged,
    Declared,
    EncounterStarted,
    Event,
    GivenModifier,
    Healed,
    InitiativeRow,
    InitiativeSet,
    Join,
    Modifier,
    Pass,
    PinRow,
    Playable,
    PlayerField,
    Reach,
    RefusedError,
    Resolved,
    Roll,
    Rolled,
    Ruleset,
    Spent,
    TurnAdvanced,
    View,
    WoundRow,
    check_can_begin,
    declared_event,
    did_you_mean,
    event_union,
    gm,
    joined_event,
    mechanic_ids,
    no_weapon,
    roster,
    tie_roll,
    toml_reference,
)

# -- sheets and options -------------------------------------------------------------------

LADDER = {
    "unskilled": 0,
    "amateur": 1,
    "competent": 2,
    "professional": 3,
    "expert": 4,
    "master": 5,
    "legendary": 6,
}
ALIASES = {"ranged": "ranged combat", "unarmed": "unarmed combat"}
SKILLS = (  # mechanic 4: the core skills, and the combat page's Melee
    "physique", "discipline", "ranged combat", "unarmed combat", "melee", "wealth", "demolitions",
)  # fmt: skip
FLANKS = ("front", "left", "right", "rear")


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    skill: str = "ranged combat"
    damage: int = 0  # the Damage Bonus
    ranged: bool = True
    burst: bool = False  # fires 3-round bursts (003-23)
    buckshot: bool = False  # a shotgun with buckshot: +1 at close range (003-23)


class Shield(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str = "shield"
    kind: Literal["shield", "buckler"] = "shield"
    arm: Literal["left", "right"] = "left"
    at: Literal["arm", "back", "ground"] = "arm"


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    skills: dict[str, int | str] = {}
    weapons: list[Weapon] = []
    armor: int = 0  # worn
    integral_armor: int = 0
    shield: Shield | None = None
    traits: list[str] = []

    def level(self, skill: str) -> int:
        wanted = ALIASES.get(skill.lower(), skill.lower())
        for name, value in self.skills.items():
            if ALIASES.get(name.lower(), name.lower()) == wanted:
                return value if isinstance(value, int) else LADDER[value.lower()]
        return 0

    @property
    def pain_tolerance(self) -> bool:
        return "pain tolerance" in (t.lower() for t in self.traits)


class WoundLevel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One row of the wound table: from this many damage levels on."""

    levels: int
    name: str
    penalty: int = 0
    can_walk: bool = True
    can_act: bool = True
    dead: bool = False


DEFAULT_WOUNDS = (
    WoundLevel(0, "Unhurt"),
    WoundLevel(1, "Bruised"),
    WoundLevel(2, "Wounded", -1),
    WoundLevel(3, "Seriously Wounded", -2),
    WoundLevel(5, "Critically Wounded", -3, can_walk=False),
    WoundLevel(6, "Incapacitated", -3, can_walk=False, can_act=False),
    WoundLevel(7, "Dead", -3, can_walk=False, can_act=False, dead=True),
)


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §003 'Ambiguities', overridable per encounter."""

    wounds: tuple[WoundLevel, ...] = DEFAULT_WOUNDS
    big_modifiers: Literal["automatic", "apply"] = "automatic"  # 003-2
    draw_is_action: bool = False
    defence_floor: bool = True  # a bad defence roll never helps the attacker
    defence_counts_as_action: bool = True
    undeclared_defence: Literal["dodge", "none"] = "dodge"
    aim_max: Bounded = 3
    shield_cover: Bounded = 1
    shield_armor: Bounded = 3
    cover_cap: Bounded = 3  # shield and cover together (003-15)
    max_targets: Bounded = 3  # single shots and bursts (003-6)
    garrote_penalty: Bounded = -1
    garrote_damage: Bounded = 2
    buckler_parry: Bounded = 1
    dodge_skill: str = "physique"
    late_changes: bool = False  # 003-29: may a lower initiative change after a higher declared


OPTION_HELP = {
    "wounds": "the wound table: damage levels from which each wound level applies (003-M5)",
    "big_modifiers": "a modifier over 3: an automatic success or failure, or just applied (003-2)",
    "draw_is_action": "whether drawing a weapon counts as an action",
    "defence_floor": "whether a bad defence roll counts as 0 rather than helping the attacker",
    "defence_counts_as_action": (
        "whether a dodge or parry counts toward the multiple-action penalty"
    ),
    "undeclared_defence": "whether who declared nothing may still dodge an attack",
    "aim_max": "the most aiming adds, +1 a turn (003-8)",
    "shield_cover": "the penalty for striking around a shield (003-14)",
    "shield_armor": "the armor a shield gives when struck through (003-14)",
    "cover_cap": "the most shield and cover penalise together (003-15)",
    "max_targets": "how many targets single shots and bursts may engage (003-6)",
    "garrote_penalty": "the garrote's penalty to the grapple (003-27)",
    "garrote_damage": "the garrote's damage bonus every turn (003-27)",
    "buckler_parry": "the buckler's bonus to parry (003-21)",
    "dodge_skill": "the skill a dodge rolls",
    "late_changes": (
        "whether a lower initiative may still change its declarations after a higher one "
        "declared (003-29)"
    ),
}


def canonical(skill: str) -> str:
    return ALIASES.get(skill.lower().strip(), skill.lower().strip())


def check_skill(name: str, where: str, custom: Collection[str] = ()) -> None:
    if canonical(name) not in (*SKILLS, *custom):
        raise BadInputError(
            f"{where}: unknown skill {name!r}; {did_you_mean(name, [*SKILLS, *custom])} "
            "(list a skill of the sheet's own in custom_skills)"
        )


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Skills are the core ones or listed in custom_skills; levels are numbers or rungs."""
    for name, value in sheet.skills.items():
        check_skill(name, f"{where}: skills", custom)
        if isinstance(value, str) and value.lower() not in LADDER:
            raise BadInputError(
                f"{where}: skill {name} is {value!r}; {did_you_mean(value, LADDER)} "
                f"(levels: {', '.join(LADDER)}, or a number)"
            )
    for weapon in sheet.weapons:
        check_skill(weapon.skill, f"{where}: weapon {weapon.name}", custom)


def fists() -> Weapon:
    return Weapon("fists", "unarmed combat", 0, ranged=False)


# -- commands -----------------------------------------------------------------------------


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
    what: str = "moves"


class Aim(Act, tag="aim"):
    weapon: str = ""


class Draw(Act, tag="draw"):
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
            "burst": PlayerField("Burst", "fire a 3-round burst, if the weapon can"),
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
        {"skill": PlayerField("Skill", "break free with Physique or Unarmed Combat")}
    ),
    "release": Playable(),
    "feint": Playable({"skill": PlayerField("Skill", "feint with Melee or Unarmed Combat")}),
    "shield": Playable(
        {"op": PlayerField("With the shield", "unstrap, unsling, strap or drop it")}
    ),
    "other": Playable({"what": WHAT, "skill": PlayerField("Skill", "the skill you roll, if any")}),
    "withdraw": Playable(),
    "next": Playable(dice="4dF for each action you declared, as it resolves"),
}

# -- events of its own --------------------------------------------------------------------


class PhaseStarted(Event, tag="phase.started"):
    """003-29: declaring runs lowest to highest initiative; resolving highest to lowest."""

    turn: int
    phase: Literal["declaring", "resolving", "resolved"]
    order: list[str]
    rules: list[str] = []

    def describe(self) -> str:
        if self.phase == "resolved":
            return f"turn {self.turn}: every declared action is resolved"
        return f"turn {self.turn}: {self.phase} ({', '.join(self.order) or 'nobody'})"


class Withdrawn(Event, tag="declaration.withdrawn"):
    actor: str
    reason: str

    def describe(self) -> str:
        return f"{self.actor} withdraws their declarations: {self.reason}"


# -- state --------------------------------------------------------------------------------


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    initiative: int = 0
    tiebreak: int = 0
    levels: int = 0
    declared: tuple[dict[str, Any], ...] = ()
    resolved: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def shield_at(self) -> str:
        """Where the shield is: as the sheet starts it, or as a shield action left it."""
        moved = self.conditions.get("shield", {}).get("at")
        return moved or (self.sheet.shield.at if self.sheet.shield else "")

    def weapon(self, name: str) -> Weapon:
        if not name:
            return self.sheet.weapons[0] if self.sheet.weapons else fists()
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("fists", "unarmed"):
            return fists()
        if self.sheet.shield and name.lower() == self.sheet.shield.name.lower():
            return Weapon(self.sheet.shield.name, "melee", 0, ranged=False)
        raise no_weapon(self.name, name, ["fists", *(w.name for w in self.sheet.weapons)])

    def kinds(self) -> list[str]:
        return [d["action"] for d in self.declared]


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    turn: int = 0
    phase: str = "setup"
    order: tuple[str, ...] = ()
    current: str | None = None

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def by_initiative(self) -> list[Fighter]:
        """Highest first; ties by higher Discipline, then the seeded tie roll."""
        return sorted(
            self.fighters.values(),
            key=lambda f: (-f.initiative, -f.sheet.level("discipline"), -f.tiebreak, f.joined),
        )

    def wound(self, fighter: Fighter) -> WoundLevel:
        rows = [w for w in self.options.wounds if fighter.levels >= w.levels]
        return rows[-1] if rows else self.options.wounds[0]

    def able(self, fighter: Fighter) -> bool:
        return self.wound(fighter).can_act and not fighter.has(gm.REMOVED)

    def holder_of(self, fighter: Fighter) -> str | None:
        held = fighter.conditions.get("held") or fighter.conditions.get("pinned")
        return held["by"] if held else None


def initial() -> State:
    return State()


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


# -- rolls (mechanics 1 and 2) -------------------------------------------------------------


def weight(state: State, fighter: Fighter, command: dict[str, Any]) -> int:
    """003-5: an attack or an evasion counts one action per target; a free draw none; a dodge
    naming nobody evades, and counts, every attacker who declared an attack on the dodger."""
    action, options = command["action"], state.options
    if action == "draw" and not options.draw_is_action:
        return 0
    if action in ("dodge", "parry") and not options.defence_counts_as_action:
        return 0
    if action == "dodge" and not command.get("targets"):
        return max(1, len(attackers_of(state, fighter)))
    if action in ("attack", "dodge", "parry", "feint", "grapple"):
        return max(1, len(command.get("targets", [])))
    return 1


def attackers_of(state: State, fighter: Fighter) -> list[str]:
    return [
        other.id
        for other in state.fighters.values()
        if any(
            d["action"] == "attack" and fighter.id in d.get("targets", []) for d in other.declared
        )
    ]


def free_drop(fighter: Fighter, declared: dict[str, Any]) -> bool:
    """003-21: a buckler can be dropped as a free action."""
    shield = fighter.sheet.shield
    buckler = shield is not None and shield.kind == "buckler"
    return buckler and declared["action"] == "shield" and declared.get("op") == "drop"


def action_count(state: State, fighter: Fighter) -> int:
    """Everything the fighter does this turn: declarations, a hold kept up from an earlier
    turn (003-24; a hold made this turn is the grapple declared), and a defence the rules make
    cost an action (003-22)."""
    declared = sum(weight(state, fighter, d) for d in fighter.declared if not free_drop(fighter, d))
    hold = fighter.conditions.get("holding")
    kept_up = hold is not None and hold.get("turn", 0) < state.turn  # not the one made now
    holding = 1 if kept_up and "release" not in fighter.kinds() else 0
    forced = fighter.conditions.get("forced", {}).get("count", 0)
    return declared + holding + forced


def penalties(state: State, fighter: Fighter, multiple: bool = True) -> list[Modifier]:
    """Wound penalties (cancelled by Pain Tolerance) and, with more than one action, minus
    the number of actions on every roll of the turn (003-4)."""
    terms: list[Modifier] = []
    wound = state.wound(fighter)
    if wound.penalty:
        if fighter.sheet.pain_tolerance:
            terms.append(Modifier(0, f"{wound.name}: cancelled by Pain Tolerance", "003-33"))
        else:
            terms.append(Modifier(wound.penalty, wound.name, "003-33"))
    count = action_count(state, fighter)
    if multiple and count > 1:
        terms.append(Modifier(-count, f"{count} actions this turn", "003-4"))
    return terms


class Check(msgspec.Struct, frozen=True):
    roll: Roll
    terms: list[Modifier]

    @property
    def total(self) -> int:
        return self.roll.total + sum(m.value for m in self.terms)

    @property
    def critical(self) -> bool:
        return self.roll.total == 4

    @property
    def fumble(self) -> bool:
        return self.roll.total == -4


def check(
    state: State,
    ctx: Context,
    fighter: Fighter,
    skill: str,
    purpose: str,
    extra: list[Modifier],
    multiple: bool = True,
) -> Check:
    """4dF + the skill's level + modifiers (mechanics 1-3)."""
    check_skill(skill, fighter.name, [canonical(s) for s in fighter.sheet.skills])
    level = fighter.sheet.level(skill)
    rung = next((k for k, v in LADDER.items() if v == level), str(level))
    terms = [Modifier(level, f"{skill} ({rung.title()})", "003-M3")]
    terms += [*extra, *penalties(state, fighter, multiple)]
    return Check(ctx.dice.roll("4dF", purpose), terms)


def rolled(fighter: Fighter, purpose: str, done: Check, target: int | None, result: str, rules):
    return Rolled(fighter.id, purpose, done.roll, target, done.terms, result, ["003-M1", *rules])


# -- the turn (003-29) ----------------------------------------------------------------------


def start_turn(state: State, ctx: Context) -> list[Event]:
    """Initiative for everyone able, then declarations from the lowest."""
    number = state.turn + 1
    events: list[Event] = [TurnAdvanced(number, None, f"turn {number} begins", ["003-29"])]
    events += garrotes(fold(state, events))
    after = fold(state, events)
    able = [f for f in sorted(after.fighters.values(), key=lambda f: f.joined) if after.able(f)]
    totals: dict[str, int] = {}
    for fighter in able:
        done = check(after, ctx, fighter, "discipline", "initiative", [], multiple=False)
        totals[fighter.id] = done.total
        events.append(
            rolled(fighter, "initiative", done, None, f"initiative {done.total}", ["003-29"])
        )
    for who, total in totals.items():
        level = after.fighters[who].sheet.level("discipline")
        tied = [
            w
            for w, t in totals.items()
            if t == total and after.fighters[w].sheet.level("discipline") == level
        ]
        tiebreak = 0
        if len(tied) > 1:
            tie = tie_roll(ctx, who, f"initiative tie of {who}", ["003-29"])
            events.append(tie)
            tiebreak = tie.roll.total
        reason = f"{total}" + (f", tie roll {tiebreak}" if tiebreak else "")
        events.append(InitiativeSet(who, total, reason, ["003-29"], tiebreak))
    after = fold(state, events)
    order = [f.id for f in reversed(after.by_initiative()) if f.id in totals]
    events.append(PhaseStarted(number, "declaring", order, ["003-29"]))
    if order:
        events.append(TurnAdvanced(number, order[0], "declares first (lowest)", ["003-29"]))
    return events


def garrotes(state: State) -> list[Event]:
    """003-27: a garrote deals its damage again every turn it is kept on."""
    events: list[Event] = []
    for fighter in state.by_initiative():
        garrote = fighter.conditions.get("garroted")
        if garrote and not state.wound(fighter).dead:
            events += damage(
                state,
                state.fighters[garrote["by"]],
                fighter,
                garrote["margin"],
                garrote_weapon(state),
                [],
                "the garrote tightens",
            )
    return events


def garrote_weapon(state: State) -> Weapon:
    return Weapon("garrote", "unarmed combat", state.options.garrote_damage, ranged=False)


def decide_next(state: State, command: Pass, ctx: Context) -> list[Event]:
    """Close a declaration, resolve the next declared action, or open the next turn."""
    if state.phase == "setup":
        raise RefusedError("the fight has not begun: `fracas begin` first")
    if state.phase == "resolved":
        return start_turn(state, ctx)
    current = state.fighters[state.current] if state.current else None
    if command.actor not in (None, state.current):
        who = current.name if current else "nobody"
        raise RefusedError(f"it is {who} who {state.phase[:-3]}es now, not {command.actor}")
    if state.phase == "declaring":
        return next_declarer(state)
    return resolve_next(state, ctx)


def next_declarer(state: State) -> list[Event]:
    order = list(state.order)
    position = order.index(state.current) + 1 if state.current in order else len(order)
    if position < len(order):
        return [TurnAdvanced(state.turn, order[position], "declares next", ["003-29"])]
    return open_resolution(state)


def open_resolution(state: State) -> list[Event]:
    """Declarations close; actions resolve from the highest initiative (003-29)."""
    order = [f.id for f in state.by_initiative() if f.declared]
    events: list[Event] = [PhaseStarted(state.turn, "resolving", order, ["003-29"])]
    return events + point_to_next(fold(state, events))


def point_to_next(state: State) -> list[Event]:
    for who in state.order:
        fighter = state.fighters[who]
        if fighter.resolved < len(fighter.declared):
            if state.current == who:
                return []
            return [TurnAdvanced(state.turn, who, "resolves next", ["003-29"])]
    return [PhaseStarted(state.turn, "resolved", [], ["003-29"])]


def resolve_next(state: State, ctx: Context) -> list[Event]:
    actor = state.fighters[state.current] if state.current else None
    if actor is None:
        return [PhaseStarted(state.turn, "resolved", [], ["003-29"])]
    declared = actor.declared[actor.resolved]
    command = msgspec.convert(declared, FudgeCommand)
    events: list[Event] = [
        Spent(actor.id, "action", 1, f"resolves {declared['action']}", ["003-29"])
    ]
    mid = fold(state, events)
    barred = grapple_bars(
        mid, mid.fighters[actor.id], declared["action"], declared.get("targets") or []
    )
    if barred == "pinned":
        why = "does not happen: pinned, they may only try to break the hold"
        events.append(Resolved(actor.id, declared["action"], [], why, ["003-25"]))
    elif barred == "held":
        holder = mid.fighters[mid.holder_of(actor) or ""].name
        why = f"does not happen: held, they may only harm {holder} or break free"
        events.append(Resolved(actor.id, declared["action"], [], why, ["003-24"]))
    elif not mid.able(actor) or mid.wound(actor).dead:
        events.append(
            Resolved(
                actor.id,
                declared["action"],
                [],
                f"cannot act ({mid.wound(actor).name})",
                ["003-33"],
            )
        )
    else:
        events += RESOLVERS[type(command)](mid, mid.fighters[actor.id], command, ctx)
        aiming = actor.conditions.get("aiming")
        if aiming and declared["action"] not in ("aim", "attack", "draw"):
            events.append(ConditionCleared(actor.id, "aiming", "did something else", ["003-8"]))
    return events + point_to_next(fold(state, events))


# -- declarations (003-4..003-7, 003-24, 003-25, 003-30) -------------------------------------


def decide_declare(state: State, command: Act, ctx: Context) -> list[Event]:
    actor = state.fighter(command.actor)
    if state.phase != "declaring":
        raise RefusedError(
            "declarations are closed: `fracas next` resolves the next declared action"
            if state.phase == "resolving"
            else "no turn is declaring: `fracas next` opens the next turn"
            if state.phase == "resolved"
            else "the fight has not begun: `fracas begin` first"
        )
    if actor.id not in state.order:
        raise RefusedError(f"{actor.name} cannot act ({state.wound(actor).name})")
    order = list(state.order)
    if order.index(actor.id) > order.index(state.current or order[-1]):
        raise RefusedError(
            f"{state.fighters[state.current].name} declares before {actor.name} (003-29: lowest "
            "initiative first)"
        )
    check_information_order(state, actor)
    if isinstance(command, Withdraw):
        if not actor.declared:
            raise RefusedError(f"{actor.name} has declared nothing this turn")
        return [Withdrawn(actor.id, "declares again")]
    check_declaration(state, actor, command)
    return [declared_event(command, actor.id, ctx.command_id)]


def check_information_order(state: State, actor: Fighter) -> None:
    """003-29: higher initiative declares knowing the lower declarations, so once one of them
    has declared (or let their turn to declare pass) the lower ones are fixed."""
    if state.options.late_changes:
        return
    order = list(state.order)
    mine, current = order.index(actor.id), order.index(state.current or order[-1])
    later = [state.fighters[who] for who in order[mine + 1 : current + 1]]
    passed = order[mine + 1 : current]
    if passed or any(f.declared for f in later):
        higher = state.fighters[(passed or [order[current]])[0]].name
        raise RefusedError(
            f"{higher} has declared knowing {actor.name}'s declarations, which are now fixed "
            "(003-29); option late_changes=true allows it"
        )


def grapple_bars(state: State, actor: Fighter, action: str, targets: list[str]) -> str:
    """003-24, 003-25: "pinned" when only breaking the hold may go ahead, "held" when only
    breaking free or harming the holder may; "" when the action is free to go ahead.
    Checked at declaration and again at resolution, as a hold may come in between."""
    holder = state.holder_of(actor)
    if actor.has("pinned") and action != "break":
        return "pinned"
    harms_holder = action in ("attack", "grapple") and targets == [holder]
    if holder and action != "break" and not harms_holder:
        return "held"
    return ""


def check_declaration(state: State, actor: Fighter, command: Act) -> None:
    tag = command.__struct_config__.tag
    kinds = actor.kinds()
    for target in command.targets:
        if state.fighter(target).id == actor.id:
            raise RefusedError(f"{actor.name} cannot {tag} themselves")
    barred = grapple_bars(state, actor, tag, list(command.targets))
    if barred == "pinned":
        raise RefusedError(f"{actor.name} is pinned and can only try to break the hold (003-25)")
    if barred == "held" and tag not in ("attack", "grapple"):
        raise RefusedError(
            f"{actor.name} is held: they can only harm the holder or break free (003-24)"
        )
    if barred == "held":
        raise RefusedError(
            f"{actor.name} is held and can only harm {state.holder_of(actor)} (003-24)"
        )
    if (
        actor.has("holding")
        and tag in ("move", "flee", "dodge", "parry")
        and "release" not in kinds
    ):
        raise RefusedError(
            f"{actor.name} holds someone: declare release first to move or defend (003-24)"
        )
    if tag in ("move", "flee"):
        if any(k in ("move", "flee") for k in kinds):
            raise RefusedError(f"{actor.name} already moves this turn; no second move (003-7)")
        if not state.wound(actor).can_walk:
            raise RefusedError(
                f"{actor.name} is {state.wound(actor).name} and cannot walk (003-33)"
            )
    if tag == "dodge" and any(k in AGGRESSIVE for k in kinds):
        raise RefusedError(
            f"{actor.name} declared a non-defensive action and cannot dodge (003-30)"
        )
    if tag in AGGRESSIVE and "dodge" in kinds:
        raise RefusedError(f"{actor.name} declared a dodge: withdraw it to act otherwise (003-30)")
    if tag == "break" and not state.holder_of(actor):
        raise RefusedError(f"nobody holds {actor.name}")
    if tag == "release" and not actor.has("holding"):
        raise RefusedError(f"{actor.name} holds nobody")
    if isinstance(command, Attack):
        check_attack(state, actor, command)
    if tag in ("grapple", "aim", "feint") and not command.targets:
        raise BadInputError(f"{tag} needs a TARGET")
    if isinstance(command, Aim) and len(command.targets) != 1:
        raise BadInputError("aim at one TARGET")


def check_attack(state: State, actor: Fighter, command: Attack) -> None:
    if not command.targets:
        raise BadInputError("attack needs a TARGET: act A attack TARGET -w WEAPON")
    weapon = actor.weapon(command.weapon)
    if weapon.ranged and len(command.targets) > state.options.max_targets:
        raise RefusedError(
            f"single shots and bursts engage at most {state.options.max_targets} targets (003-6)"
        )
    if not 0 <= command.concealment <= 1:
        raise BadInputError("concealment against a pinpointed target is 0 or 1 (003-10)")
    if command.cover < 0:
        raise BadInputError("cover runs 1..3 (or more for a firing port, 003-9)")


# -- resolving attacks (003-1..003-3, 003-8..003-23, 003-32) ----------------------------------


def situational(state: State, actor: Fighter, target: Fighter, command: Attack, weapon: Weapon):
    """The attack's modifiers, and the armour the target gains from cover and shield."""
    terms: list[Modifier] = []
    armour: list[Modifier] = []
    shield = usable_shield(state, target, actor, command.flank)
    shield_cover = state.options.shield_cover if shield and command.shield == "around" else 0
    cover = command.cover
    if cover > state.options.cover_cap and command.special_measures:
        cover = state.options.cover_cap
    barrier = (
        min(cover + shield_cover, state.options.cover_cap)
        if cover <= state.options.cover_cap
        else cover
    )
    if barrier or command.concealment:
        if command.concealment > barrier:
            terms.append(Modifier(-command.concealment, "concealment", "003-10"))
        else:
            why = " and ".join(p for p, on in (("cover", cover), ("shield", shield_cover)) if on)
            rules = "003-15" if shield_cover and cover else ("003-14" if shield_cover else "003-9")
            terms.append(Modifier(-barrier, why, rules))
    if command.from_cover:
        terms.append(Modifier(-1, "firing from cover", "003-12"))
    if command.from_concealment:
        terms.append(Modifier(-1, "firing from concealment", "003-12"))
    if (command.burst and weapon.burst) or (command.close and weapon.buckshot):
        terms.append(Modifier(1, "3-round burst" if command.burst else "buckshot", "003-23"))
    aiming = actor.conditions.get("aiming", {})
    if aiming.get("target") == target.id:
        terms.append(Modifier(aiming["bonus"], "aimed", "003-8"))
    if shield and command.shield == "through":
        armour.append(Modifier(-state.options.shield_armor, f"through the {shield.name}", "003-14"))
    if command.cover_armor:
        armour.append(Modifier(-command.cover_armor, "cover as armour", "003-13"))
    return [*terms, *command.modifiers], armour


def usable_shield(state: State, target: Fighter, attacker: Fighter, flank: str) -> Shield | None:
    """003-16, 003-19..003-21: strapped on, facing the attacker, not given to another."""
    shield = target.sheet.shield
    if shield is None or shield.kind == "buckler" or target.shield_at != "arm":
        return None
    if flank not in ("front", shield.arm):
        return None
    engaged = engaged_with(target, shield)
    if engaged and engaged != attacker.id:
        return None
    return shield


def engaged_with(fighter: Fighter, shield: Shield) -> str | None:
    """003-20: parrying or attacking with the shield gives it to that one opponent."""
    for declared in fighter.declared:
        uses = str(declared.get("weapon", "")).lower() == shield.name.lower()
        if uses and declared["action"] in ("parry", "attack") and declared.get("targets"):
            return declared["targets"][0]
    return None


def big_modifier(state: State, terms: list[Modifier]) -> str:
    """003-2: a modifier beyond 3 makes the attempt an automatic success or failure."""
    if state.options.big_modifiers != "automatic":
        return ""
    if any(m.value > 3 for m in terms):
        return "success"
    if any(m.value < -3 for m in terms):
        return "failure"
    return ""


def defence_of(state: State, target: Fighter, attacker: Fighter) -> str:
    """003-30: who declared a non-defensive action cannot dodge; a declared dodge or parry
    defends (against its named attackers); who declared nothing may dodge by default."""
    if not state.able(target) or (target.has("holding") and "release" not in target.kinds()):
        return ""
    if state.holder_of(target):  # held or pinned: only harm the holder or break free (003-24)
        return ""
    for declared in target.declared:
        if declared["action"] in ("dodge", "parry"):
            named = declared.get("targets") or []
            if not named or attacker.id in named:
                return declared["action"]
    if any(k in AGGRESSIVE for k in target.kinds()):
        return ""
    if not target.declared and state.options.undeclared_defence == "dodge":
        return "dodge"
    return ""


def resolve_attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon)
    events: list[Event] = []
    for target_id in command.targets:
        now = fold(state, events)
        target = now.fighters[target_id]
        if now.wound(target).dead:
            events.append(
                Resolved(actor.id, "attack", [target.id], "the target is already dead", ["003-1"])
            )
            continue
        events += attack_one(now, ctx, now.fighters[actor.id], target, weapon, command)
    if actor.has("aiming"):
        events.append(ConditionCleared(actor.id, "aiming", "the aimed attack is made", ["003-8"]))
    return events


def attack_one(
    state: State, ctx: Context, actor: Fighter, target: Fighter, weapon: Weapon, command: Attack
) -> list[Event]:
    if command.cover > state.options.cover_cap and not command.special_measures:
        return [
            Resolved(
                actor.id,
                "attack",
                [target.id],
                f"cover {command.cover} prevents an effective attack",
                ["003-9"],
            )
        ]
    terms, armour = situational(state, actor, target, command, weapon)
    purpose = f"{weapon.name} attack on {target.name}"
    attack = check(state, ctx, actor, weapon.skill, purpose, terms)
    events, defence = defend(state, ctx, target, actor)
    forced = big_modifier(state, terms)
    result, why = outcome(state, attack, defence, forced)
    target_total = defence_value(state, defence) if defence else None
    verdict = f"{'hits' if result > 0 else 'misses'}: {why}"
    events.insert(0, rolled(actor, purpose, attack, target_total, verdict, ["003-1"]))
    if result <= 0:
        return [
            *events,
            Resolved(actor.id, "attack", [target.id], f"misses ({why})", ["003-1", "003-3"]),
        ]
    return events + damage(state, actor, target, result, weapon, armour, why)


def defend(
    state: State, ctx: Context, target: Fighter, attacker: Fighter
) -> tuple[list[Event], Check | None]:
    kind = defence_of(state, target, attacker)
    if not kind:
        return [], None
    if kind == "dodge":
        done = check(
            state, ctx, target, state.options.dodge_skill, f"dodge against {attacker.name}", []
        )
        return [
            rolled(
                target,
                f"dodge against {attacker.name}",
                done,
                None,
                f"defence {defence_value(state, done)}",
                ["003-1"],
            )
        ], done
    parry = next(d for d in target.declared if d["action"] == "parry")
    weapon = target.weapon(parry.get("weapon", ""))
    extra = []
    if (
        target.sheet.shield
        and weapon.name == target.sheet.shield.name
        and target.sheet.shield.kind == "buckler"
    ):
        extra.append(Modifier(state.options.buckler_parry, "buckler", "003-21"))
    done = check(state, ctx, target, weapon.skill, f"parry against {attacker.name}", extra)
    return [
        rolled(
            target,
            f"parry against {attacker.name}",
            done,
            None,
            f"defence {defence_value(state, done)}",
            ["003-1", "003-20"],
        )
    ], done


def defence_value(state: State, defence: Check) -> int:
    """A critical failure defends 0; by default a bad roll never helps the attacker."""
    if defence.fumble:
        return 0
    return max(0, defence.total) if state.options.defence_floor else defence.total


def outcome(state: State, attack: Check, defence: Check | None, forced: str) -> tuple[int, str]:
    """003-1, 003-3 and the critical interactions: the final result and why."""
    value = defence_value(state, defence) if defence else 0
    versus = f" - defence {value}" if defence else ""
    if attack.fumble:
        return 0, "critical failure: always a miss"
    if forced == "failure":
        return 0, "a modifier beyond -3: automatic failure"
    if defence and defence.critical:
        return 0, "the defender's critical success" + (
            " beats a critical" if attack.critical else ""
        )
    if attack.critical:
        result = max(1, 5 + sum(m.value for m in attack.terms) - value)
        return result, f"critical success counts 5: result {result}"
    result = attack.total - value
    if forced == "success":
        return max(1, result), f"a modifier beyond +3: automatic success, result {max(1, result)}"
    return result, f"result {attack.total}{versus} = {result}" if defence else f"result {result}"


def damage(
    state: State,
    actor: Fighter,
    target: Fighter,
    result: int,
    weapon: Weapon,
    armour: list[Modifier],
    why: str,
) -> list[Event]:
    """003-32: damage levels = result + Damage Bonus - armour; wound levels add up."""
    breakdown = [
        Modifier(result, why, "003-1"),
        Modifier(weapon.damage, f"{weapon.name} Damage Bonus", "003-32"),
        *([Modifier(-target.sheet.armor, "worn armour", "003-32")] if target.sheet.armor else []),
        *(
            [Modifier(-target.sheet.integral_armor, "integral armour", "003-32")]
            if target.sheet.integral_armor
            else []
        ),
        *armour,
    ]
    levels = sum(m.value for m in breakdown)
    if levels <= 0:
        return [
            Resolved(
                actor.id, "attack", [target.id], f"hits, but armour stops it ({levels})", ["003-32"]
            )
        ]
    after = replace(target, levels=target.levels + levels)
    wound = state.wound(after)
    return [
        Resolved(actor.id, "attack", [target.id], f"hits: {levels} levels of damage", ["003-32"]),
        Damaged(target.id, levels, weapon.name, breakdown, ["003-32"]),
        Resolved(
            target.id,
            "wound",
            [],
            f"{after.levels} levels: {wound.name} ({penalty_text(state, after)})",
            ["003-33"],
        ),
    ]


def penalty_text(state: State, fighter: Fighter) -> str:
    wound = state.wound(fighter)
    if not wound.penalty:
        return "no penalty"
    if fighter.sheet.pain_tolerance:
        return f"{wound.penalty} cancelled by Pain Tolerance"
    return f"{wound.penalty} to all rolls"


# -- resolving the other actions ----------------------------------------------------------


def resolve_defensive(state: State, actor: Fighter, command: Act, ctx: Context) -> list[Event]:
    """003-31: a defensive action nobody opposes simply succeeds; dodges and parries are
    rolled when an attack comes."""
    tag = command.__struct_config__.tag
    if tag == "flee":
        events: list[Event] = [
            Resolved(
                actor.id, "flee", [], f"{command.what}: nobody opposes it, it succeeds", ["003-31"]
            )
        ]
        return events + lose_aim_on(state, actor)
    return [Resolved(actor.id, tag, list(command.targets), "stands ready", ["003-30"])]


def lose_aim_on(state: State, mover: Fighter) -> list[Event]:
    """RULES.md default: aim is lost when the target moves."""
    return [
        ConditionCleared(f.id, "aiming", f"{mover.name} moved", ["003-8"])
        for f in state.fighters.values()
        if f.conditions.get("aiming", {}).get("target") == mover.id
    ]


def resolve_move(state: State, actor: Fighter, command: Move, ctx: Context) -> list[Event]:
    return [Resolved(actor.id, "move", [], command.what, ["003-7"]), *lose_aim_on(state, actor)]


def resolve_aim(state: State, actor: Fighter, command: Aim, ctx: Context) -> list[Event]:
    """003-8: +1 a turn at a stationary target, +3 at most."""
    target = command.targets[0]
    aiming = actor.conditions.get("aiming", {})
    before = aiming.get("bonus", 0) if aiming.get("target") == target else 0
    if any(k in ("move", "flee") for k in state.fighters[target].kinds()):
        return [Resolved(actor.id, "aim", [target], "the target is moving: no aim", ["003-8"])]
    bonus = min(state.options.aim_max, before + 1)
    detail = {"target": target, "bonus": bonus, "turn": state.turn}
    return [ConditionSet(actor.id, "aiming", f"+{bonus} at {target}", detail, ["003-8"])]


def resolve_draw(state: State, actor: Fighter, command: Draw, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon)
    free = "" if state.options.draw_is_action else " (free)"
    return [Resolved(actor.id, "draw", [], f"draws the {weapon.name}{free}", ["003-4"])]


def resolve_other(state: State, actor: Fighter, command: Other, ctx: Context) -> list[Event]:
    if not command.skill:
        return [Resolved(actor.id, "other", [], command.what, ["003-4"])]
    done = check(state, ctx, actor, command.skill, command.what, list(command.modifiers))
    succeeds = done.critical or (done.total >= command.difficulty and not done.fumble)
    verdict = "succeeds" if succeeds else "fails"
    return [rolled(actor, command.what, done, command.difficulty, verdict, ["003-M2"])]


def resolve_grapple(state: State, actor: Fighter, command: Grapple, ctx: Context) -> list[Event]:
    """003-24 hold, 003-25 pin (a held target), 003-27 garrote; opposed by the target's
    choice of Physique or Unarmed Combat; a shield-bearer's resistance costs an action."""
    events: list[Event] = []
    for target_id in command.targets:
        now = fold(state, events)
        target = now.fighters[target_id]
        pin = now.holder_of(target) == actor.id
        if not pin and now.holder_of(target):
            events.append(
                Resolved(
                    actor.id,
                    "grapple",
                    [target.id],
                    f"{target.name} is held by another",
                    ["003-24"],
                )
            )
            continue
        shielded = (
            target.sheet.shield is not None
            and target.sheet.shield.kind == "shield"
            and target.shield_at == "arm"
        )
        if shielded:
            count = target.conditions.get("forced", {}).get("count", 0) + 1
            events.append(
                ConditionSet(
                    target.id,
                    "forced",
                    "resists a grapple with a shield: an action",
                    {"count": count, "turn": now.turn},
                    ["003-22"],
                )
            )
            now = fold(state, events)
            target = now.fighters[target_id]
        extra = (
            [Modifier(now.options.garrote_penalty, "garrote", "003-27")] if command.garrote else []
        )
        attack = check(
            now,
            ctx,
            now.fighters[actor.id],
            "unarmed combat",
            f"grapple {target.name}",
            [*extra, *command.modifiers],
        )
        skill = command.resist.get(target.id) or best_of(target, ("physique", "unarmed combat"))
        resist = check(
            now, ctx, target, skill, f"resist {actor.name}'s grapple", [], multiple=shielded
        )
        margin = attack.total - resist.total
        wins = not attack.fumble and (margin > 0 or (attack.critical and not resist.critical))
        events += [
            rolled(
                actor,
                f"grapple {target.name}",
                attack,
                resist.total,
                "holds" if wins else "fails",
                ["003-24"],
            ),
            rolled(
                target,
                f"resist {actor.name}'s grapple",
                resist,
                attack.total,
                f"{skill}",
                ["003-24"],
            ),
        ]
        if not wins:
            events.append(
                Resolved(actor.id, "grapple", [target.id], f"fails ({margin})", ["003-24"])
            )
            continue
        events += grappled(now, actor, target, pin, command.garrote, max(1, margin))
    return events


def best_of(fighter: Fighter, skills: tuple[str, ...]) -> str:
    return max(skills, key=fighter.sheet.level)


def grappled(
    state: State, actor: Fighter, target: Fighter, pin: bool, garrote: bool, margin: int
) -> list[Event]:
    if pin:
        return [
            ConditionCleared(target.id, "held", "pinned instead", ["003-25"]),
            ConditionSet(
                target.id, "pinned", f"pinned by {actor.name}", {"by": actor.id}, ["003-25"]
            ),
        ]
    events: list[Event] = [
        ConditionSet(target.id, "held", f"held by {actor.name}", {"by": actor.id}, ["003-24"]),
        ConditionSet(
            actor.id,
            "holding",
            f"holds {target.name}",
            {"target": target.id, "turn": state.turn},
            ["003-24"],
        ),
    ]
    if garrote:
        events.append(
            ConditionSet(
                target.id,
                "garroted",
                f"garroted by {actor.name}",
                {"by": actor.id, "margin": margin},
                ["003-27"],
            )
        )
        events += damage(
            state, actor, target, margin, garrote_weapon(state), [], f"garrote margin {margin}"
        )
    return events


def resolve_break(state: State, actor: Fighter, command: Break, ctx: Context) -> list[Event]:
    """003-26: Physique or Unarmed Combat against the holder's Unarmed Combat; a tie frees."""
    holder_id = state.holder_of(actor)
    if holder_id is None:
        return [Resolved(actor.id, "break", [], "nobody holds them any more", ["003-26"])]
    holder = state.fighters[holder_id]
    skill = command.skill or best_of(actor, ("physique", "unarmed combat"))
    attempt = check(state, ctx, actor, skill, "break the hold", list(command.modifiers))
    hold = check(state, ctx, holder, "unarmed combat", f"keep hold of {actor.name}", [])
    frees = attempt.total >= hold.total and not attempt.fumble
    events: list[Event] = [
        rolled(
            actor,
            "break the hold",
            attempt,
            hold.total,
            "breaks free" if frees else "still held",
            ["003-26"],
        ),
        rolled(holder, f"keep hold of {actor.name}", hold, attempt.total, "", ["003-26"]),
    ]
    if frees:
        events += let_go(actor, holder, f"{actor.name} broke free", "003-26")
    return events


def let_go(target: Fighter, holder: Fighter, reason: str, rule: str) -> list[Event]:
    events: list[Event] = [ConditionCleared(holder.id, "holding", reason, [rule])]
    for condition in ("held", "pinned", "garroted"):
        if target.has(condition):
            events.append(ConditionCleared(target.id, condition, reason, [rule]))
    return events


def resolve_release(state: State, actor: Fighter, command: Release, ctx: Context) -> list[Event]:
    holding = actor.conditions.get("holding")
    if not holding:
        return [Resolved(actor.id, "release", [], "holds nobody any more", ["003-24"])]
    return let_go(state.fighters[holding["target"]], actor, f"{actor.name} lets go", "003-24")


def resolve_feint(state: State, actor: Fighter, command: Feint, ctx: Context) -> list[Event]:
    """003-28: opposed; the target's roll to see through it is no action and takes no
    multiple-action penalty."""
    events: list[Event] = []
    for target_id in command.targets:
        target = state.fighters[target_id]
        feint = check(
            state, ctx, actor, command.skill, f"feint at {target.name}", list(command.modifiers)
        )
        see = check(
            state,
            ctx,
            target,
            best_of(target, ("melee", "unarmed combat")),
            f"see through {actor.name}'s feint",
            [],
            multiple=False,
        )
        fooled = feint.total > see.total and not feint.fumble
        events += [
            rolled(
                actor,
                f"feint at {target.name}",
                feint,
                see.total,
                "fools" if fooled else "is seen through",
                ["003-28"],
            ),
            rolled(target, f"see through {actor.name}'s feint", see, feint.total, "", ["003-28"]),
        ]
        if fooled:
            events.append(
                ConditionSet(
                    target.id,
                    "feinted",
                    f"believes {actor.name} attacks them",
                    {"by": actor.id, "turn": state.turn},
                    ["003-28"],
                )
            )
    return events


def resolve_shield(
    state: State, actor: Fighter, command: ShieldAction, ctx: Context
) -> list[Event]:
    """003-16..003-18, 003-21: strapped shields take an action to unstrap; from the back,
    one action to take it off and one to strap it on; a buckler drops freely."""
    shield = actor.sheet.shield
    if shield is None:
        return [Resolved(actor.id, "shield", [], "has no shield", ["003-16"])]
    moves = {
        "unsling": ("back", "hand"),
        "strap": ("hand", "arm"),
        "unstrap": ("arm", "hand"),
        "drop": ("hand", "ground"),
    }
    start, end = moves[command.op]
    if command.op == "drop" and shield.kind == "buckler":
        start = actor.shield_at
    if actor.shield_at != start:
        return [
            Resolved(
                actor.id,
                "shield",
                [],
                f"cannot {command.op}: the {shield.name} is on the {actor.shield_at}",
                ["003-17"],
            )
        ]
    return [
        ConditionSet(
            actor.id,
            "shield",
            f"{command.op}s the {shield.name}",
            {"at": end},
            ["003-17", "003-18"],
        )
    ]


RESOLVERS = {
    Attack: resolve_attack,
    Dodge: resolve_defensive,
    Parry: resolve_defensive,
    Flee: resolve_defensive,
    Move: resolve_move,
    Aim: resolve_aim,
    Draw: resolve_draw,
    Grapple: resolve_grapple,
    Break: resolve_break,
    Release: resolve_release,
    Feint: resolve_feint,
    ShieldAction: resolve_shield,
    Other: resolve_other,
}


# -- joining and beginning ----------------------------------------------------------------


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    return [joined_event(command, sheet)]


def decide_begin(state: State, command: Begin, ctx: Context) -> list[Event]:
    check_can_begin(state.phase != "setup", state.fighters)
    return start_turn(state, ctx)


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Begin():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_next(state, command, ctx)
        case Act():
            return decide_declare(state, command, ctx)
    raise BadInputError(f"the 4dF ruleset cannot decide {type(command).__name__}")


# -- evolve: a pure, total fold -----------------------------------------------------------


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = msgspec.convert(event.sheet, Sheet)
    fighter = Fighter(
        event.combatant,
        event.name,
        event.side,
        sheet,
        len(state.fighters),
    )
    return roster.put(state, fighter)


def _turn(state: State, event: TurnAdvanced) -> State:
    if event.round != state.turn:
        return new_turn(state, event.round)
    return replace(state, current=event.actor)


TURN_CONDITIONS = ("forced", "feinted")


def new_turn(state: State, number: int) -> State:
    """A new turn clears declarations and what lasted only for the turn."""
    fighters = {
        who: replace(
            f,
            declared=(),
            resolved=0,
            initiative=0,
            tiebreak=0,
            conditions={k: v for k, v in f.conditions.items() if k not in TURN_CONDITIONS},
        )
        for who, f in state.fighters.items()
    }
    return replace(state, turn=number, fighters=fighters, phase="turn", order=(), current=None)


def _phase(state: State, event: PhaseStarted) -> State:
    return replace(state, phase=event.phase, order=tuple(event.order), current=None)


def _declared(state: State, event: Declared) -> State:
    return roster.change(
        state, event.actor, lambda f: replace(f, declared=(*f.declared, event.command))
    )


def _withdrawn(state: State, event: Withdrawn) -> State:
    return roster.change(state, event.actor, lambda f: replace(f, declared=()))


def _spent(state: State, event: Spent) -> State:
    return roster.change(state, event.combatant, lambda f: replace(f, resolved=f.resolved + 1))


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, levels=f.levels + event.amount))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, levels=max(0, f.levels - event.amount))
    )


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: roster.initiative_set,
        TurnAdvanced: _turn,
        PhaseStarted: _phase,
        Declared: _declared,
        Withdrawn: _withdrawn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
    }
)


# -- the view the table sees --------------------------------------------------------------


def declaration_text(declared: dict[str, Any]) -> str:
    targets = declared.get("targets") or []
    weapon = f" with the {declared['weapon']}" if declared.get("weapon") else ""
    return f"{declared['action']}{' ' + ', '.join(targets) if targets else ''}{weapon}"


def status_of(state: State, fighter: Fighter) -> str:
    if state.wound(fighter).dead:
        return "dead"
    done = fighter.declared[: fighter.resolved]
    pending = fighter.declared[fighter.resolved :]
    parts = []
    if state.current == fighter.id:
        parts.append(f"{state.phase} now")
    if pending:
        parts.append("declared: " + "; ".join(declaration_text(d) for d in pending))
    if done:
        parts.append("resolved: " + "; ".join(declaration_text(d) for d in done))
    count = action_count(state, fighter)
    if count > 1:
        parts.append(f"{count} actions: -{count}")
    return " | ".join(p for p in parts if p)


def conditions_of(fighter: Fighter) -> list[str]:
    shown: list[str] = []
    for name, detail in sorted(fighter.conditions.items()):
        if name in ("held", "pinned", "garroted", "feinted"):
            shown.append(f"{name} by {detail['by']}")
        elif name == "holding":
            shown.append(f"holding {detail['target']}")
        elif name == "aiming":
            shown.append(f"aiming at {detail['target']} +{detail['bonus']}")
        elif name == "shield":
            shown.append(f"shield: {detail['at']}")
        elif name != "forced":
            shown.append(name)
    return shown


def wound_row(state: State, fighter: Fighter) -> WoundRow:
    wound = state.wound(fighter)
    penalty = 0 if fighter.sheet.pain_tolerance else wound.penalty
    effects = [
        e
        for e, on in (("cannot walk", not wound.can_walk), ("no actions", not wound.can_act))
        if on
    ]
    health = f"{wound.name} ({fighter.levels})" + (f" {penalty:+d}" if penalty else "")
    conditions = effects + conditions_of(fighter)
    if wound.penalty and fighter.sheet.pain_tolerance:
        conditions.append("Pain Tolerance: no penalty")
    detail = {
        "levels": fighter.levels,
        "wound": wound.name,
        "penalty": penalty,
        "shield": fighter.shield_at,
    }
    dead_at = next((w.levels for w in state.options.wounds if w.dead), None)
    return WoundRow(
        fighter.id,
        fighter.name,
        fighter.side,
        health,
        conditions,
        detail,
        fighter.levels,
        dead_at,
        "wound levels",
        "taken",
    )


def pins(state: State) -> list[PinRow]:
    rows = []
    for fighter in state.fighters.values():
        for kind in ("held", "pinned"):
            if fighter.has(kind):
                rows.append(
                    PinRow(
                        fighter.conditions[kind]["by"],
                        fighter.id,
                        "holds" if kind == "held" else "pins",
                    )
                )
    return rows


def view(state: State) -> View:
    order = state.by_initiative()
    initiative = [
        InitiativeRow(
            f.id, f.name, i, f"init {f.initiative}", state.current == f.id, status_of(state, f)
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [wound_row(state, f) for f in sorted(state.fighters.values(), key=lambda f: f.joined)]
    phase = state.phase if state.phase == "setup" else f"turn {state.turn}: {state.phase}"
    if state.phase == "resolved":
        phase = f"turn {state.turn}: all resolved; `next` opens turn {state.turn + 1}"
    acting = [state.current] if state.current else []
    return View(state.turn, phase, acting, initiative, wounds, pins(state), [])


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """Wound levels taken back, `amount` of them."""
    fighter = state.fighter(target)
    if not fighter.levels:
        raise RefusedError(f"{fighter.name} is unhurt")
    return gm.healed(state, target, min(amount, fighter.levels), reason)


def clock(state: State) -> Clock:
    """Where durations expire: a round is a turn (003-29); a combatant's turn is the
    resolution of what they declared, not the declaration."""
    resolving = state.phase == "resolving" and state.current
    return Clock(state.turn, {state.current: str(state.turn)} if resolving else {}, "turn")


TRACKED = frozenset(
    ("aiming", "feinted", "forced", "garroted", "held", "holding", "pinned", "shield")
)

# -- the table's words ----------------------------------------------------------------------

VERBS = {
    "attack": "attacks",
    "dodge": "dodges",
    "parry": "parries",
    "flee": "flees",
    "move": "moves",
    "aim": "aims",
    "draw": "draws",
    "grapple": "grapples",
    "break": "breaks free",
    "release": "lets go",
    "feint": "feints",
    "shield": "raises a shield",
    "other": "acts",
    "withdraw": "withdraws",
}


def headline(view: View) -> str:
    """Where the turn is: "declaring", "resolving"."""
    _, colon, where = view.phase.partition(": ")
    return where if colon else ""


def facts(event: Event) -> frozenset[str]:
    """Mechanic 1: +4 on a check is a critical success, -4 a critical failure (a fumble)."""
    if not isinstance(event, Rolled) or event.roll.dice != "4dF" or event.target is None:
        return frozenset()
    return {4: frozenset(("critical",)), -4: frozenset(("fumble",))}.get(
        event.roll.total, frozenset()
    )


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    return {"Penalty": wound.detail.get("penalty", 0)}


def reach(state: State, command: Any) -> Reach | None:
    """What a `next` that resolves a declared action can change whatever the 4dF show
    (opposed, two 4dF are 6,561 outcomes): the one resolving and the targets of the action
    (wounds, holds), and the turn, as a wounded target may no longer act (003-29, 003-33).
    Other steps are left to fracas to try (None)."""
    if not isinstance(command, Pass) or state.phase != "resolving" or not state.current:
        return None
    actor = state.fighters[state.current]
    if actor.resolved >= len(actor.declared):
        return None
    declared = actor.declared[actor.resolved]
    return Reach(frozenset([actor.id, *(declared.get("targets") or [])]), shared=True)


RULESET = Ruleset(
    reach=reach,
    name="fudge",
    title="4dF outcomes, declare low, resolve high (The Contract, early)",
    reference=toml_reference("fracas.rules", "reference.toml", "003"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=FudgeCommand,
    event_type=event_union(PhaseStarted, Withdrawn),
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    schema=2,
    upcasters={(ANY_KIND, 1): mechanic_ids("003")},
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    heal_by_hand=heal_by_hand,
    clock=clock,
    reads_rolls="modified",
    round_word="Turn",
    headline=headline,
    key_numbers=key_numbers,
    verbs=VERBS,
    told=frozenset(("pinned",)),
    facts=facts,
)
