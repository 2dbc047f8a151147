"""The shot clock (Feng Shui, 1st edition, "Sequences and Shots").

Rule ids (001-n) are those of RULES.md §001. A sequence opens with initiative rolls; the
clock counts shots down from the highest; each action spends shots off the actor's next
shot; after shot 1 a new sequence opens by itself. Read top to bottom: sheets and options,
dice and checks, the clock, each action, damage, then evolve and the view.
"""

from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from fracas.rules.api import (
    ANY_KIND,
    BadInputError,
    Begin,
    Bounded,
    Choices,
    Clock,
    CombatantJoined,
    Command,
    ConditionCleared,
    ConditionSet,
    Context,
    Damaged,
    EncounterStarted,
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
    Reach,
    RefusedError,
    Resolved,
    Rolled,
    Ruleset,
    Spent,
    View,
    Waiting,
    WoundRow,
    check_can_begin,
    check_known,
    declared_event,
    event_union,
    gm,
    joined_event,
    mechanic_ids,
    no_weapon,
    offer,
    roster,
    split_faces,
    toml_reference,
)

# -- sheets and options -------------------------------------------------------------------

DODGE_SKILLS = ("arcanowave device", "creature powers", "guns", "martial arts")  # mechanic 3
SKILL_ATTRIBUTE = {"guns": "dexterity", "martial arts": "agility"}
SKILLS = (  # the first edition's skills
    "arcanowave device", "creature powers", "deceit", "driving", "fix-it", "gambling", "guns",
    "info", "intimidation", "intrusion", "leadership", "martial arts", "medicine", "police",
    "sabotage", "seduction", "sorcery", "fu", "mutant",
)  # fmt: skip


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    damage: int = 10
    skill: str = "guns"
    shots: int = 3  # 001-6: aiming and firing, a hand-to-hand attack


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    speed: int = 5
    toughness: int = 5
    constitution: int = 5
    strength: int = 5
    agility: int = 5
    dexterity: int = 5
    move: int = 5
    skills: dict[str, int] = {}
    weapons: list[Weapon] = []
    mook: bool = False
    big_bruiser: bool = False
    blast: bool = False
    parry: str = "martial arts"

    def av(self, skill: str) -> int:
        skill = skill.lower()
        if skill in self.skills:
            return self.skills[skill]
        attribute = SKILL_ATTRIBUTE.get(skill)
        return getattr(self, attribute) if attribute else 0

    @property
    def dodge(self) -> int:
        """Mechanic 3: the best of the combat skills (Sorcery with Blast) and Agility."""
        skills = [*DODGE_SKILLS, *(("sorcery",) if self.blast else ())]
        return max([self.agility, *(self.skills[s] for s in skills if s in self.skills)])


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §001 'Ambiguities', overridable per encounter."""

    same_shot_order: Literal["speed", "gm"] = "speed"
    hit_on_zero: bool = True
    active_dodge_bonus: Bounded = 3
    defence_shots: Bounded = 1
    surcharge_defences: bool = True
    carry_over_above: Bounded = 3
    snapshot_penalties: tuple[Bounded, ...] = (-2, -5)
    minimum_shots: Bounded = 1
    damage_floor: Bounded = 0
    impairment_at: tuple[Bounded, ...] = (25, 30)
    death_checks_at: Bounded = 35
    big_bruiser_bonus: Bounded = 5
    move_cap: Bounded = 3
    initiative_dice: str = "d6"
    action_dice: str = "d6!-d6!"
    closed_dice: str = "d6-d6"


OPTION_HELP = {
    "same_shot_order": "on the same shot: higher Speed first, or as the GM likes (001-4)",
    "hit_on_zero": "whether an action result equal to the Difficulty hits",
    "active_dodge_bonus": "what an active dodge adds to Dodge (001-M3)",
    "defence_shots": "what an off-turn defence takes from the next shot (001-12)",
    "surcharge_defences": (
        "whether a continuous action's extra shot applies to defences too (001-16)"
    ),
    "carry_over_above": "actions costing more than this carry over into the next sequence (001-11)",
    "snapshot_penalties": "the AV penalties for cutting 1 and 2 shots off an action (001-14)",
    "minimum_shots": "the fewest shots a snapshot can leave an action costing",
    "damage_floor": "the least damage a hit deals",
    "impairment_at": "the wound points at which impairment reaches -1 and -2 (001-M4)",
    "death_checks_at": "the wound points from which Death Checks are made (001-M4)",
    "big_bruiser_bonus": "how much Big Bruiser raises the wound thresholds",
    "move_cap": "the most a character moves in a sequence, in Move units (001-7)",
    "initiative_dice": "the initiative dice, closed (001-2)",
    "action_dice": "the dice of an action check, open (001-M1)",
    "closed_dice": "the dice of a closed check, such as a Death Check",
}


# -- commands -----------------------------------------------------------------------------

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
    pass


class Other(Act, tag="other"):
    what: str = "something else"
    shots: Bounded = 3


class Continuous(Act, tag="continuous"):
    what: str = ""


class Stop(Act, tag="stop"):
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

# -- the clock's own event ----------------------------------------------------------------


class ShotReached(Event, tag="shot.reached"):
    sequence: int
    shot: int
    acting: list[str]
    rules: list[str] = []

    def describe(self) -> str:
        if not self.acting:
            return f"sequence {self.sequence}: nobody is left able to act"
        return f"sequence {self.sequence}, shot {self.shot}: {', '.join(self.acting)} to act"


# -- state --------------------------------------------------------------------------------


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    wounds: int = 0
    initiative: int = 0
    next_shot: int = 0
    moved: int = 0
    tiebreak: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def out(self) -> bool:
        return self.has("dead") or self.has("out") or self.has(gm.REMOVED)

    @property
    def continuous(self) -> list[str]:
        return sorted(
            c.removeprefix("continuous:") for c in self.conditions if c[:11] == "continuous:"
        )

    @property
    def impairment(self) -> int:
        return self.conditions.get("impaired", {}).get("penalty", 0)

    def weapon(self, name: str) -> Weapon:
        """A weapon of the sheet by name; none named: the first on the sheet, else a punch."""
        if not name:
            name = self.sheet.weapons[0].name if self.sheet.weapons else "punch"
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("punch", "unarmed"):
            return Weapon("punch", self.sheet.strength, "martial arts")
        raise no_weapon(self.name, name, ["punch", *(w.name for w in self.sheet.weapons)])


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    sequence: int = 0
    shot: int = 0
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def same_shot_key(self, fighter: Fighter) -> tuple:
        """The default order within a shot: higher Speed, PCs first, then the tie roll."""
        return (-fighter.sheet.speed, fighter.side != "pc", -fighter.tiebreak, fighter.joined)

    def on_shot(self, shot: int) -> list[Fighter]:
        """001-3, 001-4: everyone whose next shot is this one, in the configured order."""
        if shot <= 0:
            return []
        here = [f for f in self.fighters.values() if f.next_shot == shot and not f.out]
        return sorted(here, key=self.same_shot_key)

    def may_act(self) -> list[Fighter]:
        """Who may act now (001-4): on this shot, the first in the set order, or any of
        them when the GM orders the shot."""
        here = self.on_shot(self.shot) if self.sequence else []
        return here if self.options.same_shot_order == "gm" else here[:1]


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Skills are the game's or listed in custom_skills; a weapon names one of them."""
    known = (*SKILLS, *custom)
    check_known("skill", sheet.skills, known, f"{where}: skills")
    for weapon in sheet.weapons:
        check_known("skill", [weapon.skill], known, f"{where}: weapon {weapon.name}")
    check_known("skill", [sheet.parry], known, f"{where}: parry")


def initial() -> State:
    return State()


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


# -- dice and checks (mechanics 1 and 2) ----------------------------------------------------


def check(
    ctx: Context,
    events: list[Event],
    actor: Fighter,
    purpose: str,
    spec: str,
    av: int,
    difficulty: int,
    modifiers: list[Modifier],
    rules: list[str],
    hit_on_zero: bool = True,
) -> int | None:
    """Action Result = dice + AV + modifiers; returns the Outcome, or None on a failure."""
    roll = ctx.dice.roll(spec, purpose)
    result = roll.total + av + sum(m.value for m in modifiers)
    outcome = result - difficulty
    success = outcome >= 0 if hit_on_zero else outcome > 0
    parts = split_faces(spec, roll.faces)
    boxcars = "!" in spec and len(parts) == 2 and parts[0][0] == 6 and parts[1][0] == 6
    verdict = f"AR {result}, outcome {outcome}: " + ("success" if success else "failure")
    if boxcars:
        verdict += "; BOXCARS: something unusual happens (GM's call)"
    all_modifiers = [Modifier(av, "action value", "001-M2"), *modifiers]
    events.append(
        Rolled(actor.id, purpose, roll, difficulty, all_modifiers, verdict, ["001-M1", *rules])
    )
    return outcome if success else None


# -- the clock ----------------------------------------------------------------------------


def roll_initiative(state: State, ctx: Context, ties: dict[str, int]) -> list[Event]:
    """001-2, 001-17: 1d6 + Speed, closed; a carried action completes that much later."""
    events: list[Event] = []
    for fighter in sorted(state.fighters.values(), key=lambda f: f.joined):
        if fighter.out:
            continue
        roll = ctx.dice.roll(state.options.initiative_dice, f"initiative of {fighter.name}")
        value = roll.total + fighter.sheet.speed
        modifiers = [Modifier(fighter.sheet.speed, "Speed", "001-2")]
        events.append(
            Rolled(fighter.id, "initiative", roll, None, modifiers, f"shot {value}", ["001-2"])
        )
        reason = f"{roll.total} + Speed {fighter.sheet.speed} = {value}"
        tiebreak = ties.get(fighter.id, fighter.tiebreak)
        events.append(InitiativeSet(fighter.id, value, reason, ["001-2"], tiebreak))
        events += complete_carry(fighter, value)
    return events


def complete_carry(fighter: Fighter, initiative: int) -> list[Event]:
    """001-17: the remainder comes off the first shot; if it eats the whole sequence,
    what is left carries again into the one after."""
    carrying = fighter.conditions.get("carrying")
    if carrying is None:
        return []
    remaining = carrying["remaining"]
    spent = Spent(fighter.id, "shots", min(remaining, initiative), "carried over", ["001-17"])
    if initiative - remaining > 0:
        return [
            spent,
            ConditionCleared(
                fighter.id,
                "carrying",
                f"{carrying['what']} completes on shot {initiative - remaining}",
                ["001-17"],
            ),
        ]
    detail = {**carrying, "remaining": remaining - initiative}
    reason = f"{carrying['what']} still needs {remaining - initiative} shots"
    return [spent, ConditionSet(fighter.id, "carrying", reason, detail, ["001-17"])]


def advance(state: State, ctx: Context, ties: dict[str, int] | None = None) -> list[Event]:
    """Count down to the next shot anyone acts on; after shot 1, a new sequence (001-9)."""
    if state.on_shot(state.shot):
        return []
    live = [f.next_shot for f in state.fighters.values() if not f.out and f.next_shot > 0]
    if live:
        shot = max(live)
        return [ShotReached(state.sequence, shot, [f.id for f in state.on_shot(shot)], ["001-3"])]
    if not any(not f.out for f in state.fighters.values()):
        return [ShotReached(state.sequence, 0, [], ["001-9"])]
    events: list[Event] = []
    for sequence in range(state.sequence + 1, state.sequence + 100):
        rolled = roll_initiative(state, ctx, ties or {})
        state = fold(state, rolled)
        events += rolled
        live = [f.next_shot for f in state.fighters.values() if not f.out and f.next_shot > 0]
        if live:
            shot = max(live)
            acting = [f.id for f in state.on_shot(shot)]
            return [*events, ShotReached(sequence, shot, acting, ["001-2", "001-3", "001-9"])]
        skipped = ShotReached(sequence, 0, [], ["001-9", "001-17"])
        events.append(skipped)
        state = evolve(state, skipped)
    raise RefusedError("no combatant can act within 100 sequences: shorten the carried actions")


def check_on_shot(state: State, actor: Fighter) -> None:
    if state.sequence == 0:
        raise RefusedError("the fight has not begun: `fracas begin` first")
    if actor.out:
        raise RefusedError(f"{actor.name} is out of the fight and cannot act")
    if actor.next_shot != state.shot:
        now = ", ".join(f.name for f in state.may_act()) or "nobody"
        when = (
            f"next acts on shot {actor.next_shot}"
            if actor.next_shot > 0
            else "has no shots left this sequence"
        )
        raise RefusedError(f"it is shot {state.shot} ({now} to act); {actor.name} {when} (001-3)")
    first = state.on_shot(state.shot)[0]
    if state.options.same_shot_order == "speed" and first.id != actor.id:
        raise RefusedError(
            f"{first.name} acts first on shot {state.shot} (higher Speed, then PCs; 001-4); "
            "set the option same_shot_order=gm to choose the order at the table"
        )


def surcharge(fighter: Fighter) -> int:
    """001-16: each continuous action in force adds a shot to every other action."""
    return len(fighter.continuous)


def shot_cost(state: State, actor: Fighter, base: int, command: Act) -> tuple[int, list[Modifier]]:
    """The action's shots after the continuous surcharge and any snapshot (001-14, 001-16);
    returns the cost and the AV penalty the snapshot brings."""
    options = state.options
    cost = base + surcharge(actor)
    if command.snapshot == 0:
        return cost, []
    if command.snapshot not in (1, 2) or command.snapshot > len(options.snapshot_penalties):
        raise BadInputError("a snapshot cuts 1 or 2 shots, no more (001-14): --opt snapshot=1|2")
    if cost - command.snapshot < options.minimum_shots:
        raise RefusedError(
            f"a snapshot cannot take a {cost}-shot action below {options.minimum_shots} "
            "shot (001-14)"
        )
    penalty = options.snapshot_penalties[command.snapshot - 1]
    return cost - command.snapshot, [
        Modifier(penalty, f"snapshot, {command.snapshot} shot(s) quicker", "001-14")
    ]


def spend_shots(state: State, actor: Fighter, cost: int, what: str) -> list[Event]:
    """001-5: the next shot is s - c. 001-10: up to the carry limit the excess is dropped;
    001-11, 001-17: beyond it the remainder carries into the next sequence."""
    shot = state.shot
    events: list[Event] = [Spent(actor.id, "shots", cost, what, ["001-5"])]
    if shot - cost > 0:
        return events
    if cost <= state.options.carry_over_above:
        if shot - cost < 0:
            events.append(
                Resolved(
                    actor.id,
                    what,
                    [],
                    f"{cost} shots on shot {shot}: the excess is not carried over",
                    ["001-10"],
                )
            )
        return events
    if shot - cost < 0:
        detail = {"what": what, "remaining": cost - shot, "cost": cost}
        reason = f"{what} needs {cost - shot} more shots next sequence"
        events.append(ConditionSet(actor.id, "carrying", reason, detail, ["001-11", "001-17"]))
    return events


def check_movement(state: State, actor: Fighter, base: int, metres: int, limit: int) -> None:
    """001-7: a 3-shot action allows Move metres, running 2x Move; 3x Move per sequence."""
    if metres < 0:
        raise BadInputError("metres cannot be negative")
    if metres and base < 3:
        raise RefusedError("movement goes alongside a 3-shot action only (001-7)")
    if metres > limit:
        raise RefusedError(
            f"{actor.name} can move at most {limit} m with this action (Move {actor.sheet.move}; "
            "001-7)"
        )
    cap = state.options.move_cap * actor.sheet.move
    if actor.moved + metres > cap:
        raise RefusedError(
            f"{actor.name} has moved {actor.moved} m this sequence; the cap is {cap} m "
            f"({state.options.move_cap}x Move; 001-7)"
        )


def act(state: State, command: Act, ctx: Context, base: int, resolve) -> list[Event]:
    """Frame of every action on one's shot: check, declare, resolve, spend shots, count down."""
    actor = state.fighter(command.actor)
    check_on_shot(state, actor)
    is_run = isinstance(command, Run)
    if is_run and command.snapshot:
        raise RefusedError("running can't be a snapshot (001-7)")
    check_movement(state, actor, base, command.metres, actor.sheet.move * (2 if is_run else 1))
    cost, snapshot_penalty = shot_cost(state, actor, base, command)
    tag = command.__struct_config__.tag
    events: list[Event] = [declared_event(command, actor.id, ctx.command_id)]
    penalties = [*snapshot_penalty, *impairment(actor)]
    events += resolve(state, actor, command, ctx, penalties)
    if command.metres:
        events.append(Spent(actor.id, "metres", command.metres, f"moves {command.metres} m"))
    events += spend_shots(fold(state, events), actor, cost, getattr(command, "what", tag))
    after = fold(state, events)
    return events + advance(after, ctx)


def impairment(fighter: Fighter) -> list[Modifier]:
    level = fighter.impairment
    return [Modifier(level, "wound impairment", "001-M4")] if level else []


# -- attacks, defences and damage (mechanics 3 to 5) -----------------------------------------


def difficulty_of(
    state: State, events: list[Event], attacker: Fighter, target: Fighter, command: Attack
) -> tuple[int, str]:
    """Mechanic 3: 0 against a stationary target; the passive or active dodge; a parry.
    An active defence is taken off-turn and costs shots (001-8, 001-12)."""
    options = state.options
    kind = command.defence.get(target.id, "passive")
    if target.id in command.unaware:
        if kind != "passive":
            raise BadInputError(f"{target.name} is unaware of the attack and cannot {kind}")
        return 0, "stationary and not defending"
    penalty = target.impairment
    if kind == "passive":
        return target.sheet.dodge + penalty, "passive dodge"
    if target.next_shot <= 0:
        raise RefusedError(
            f"{target.name} has no shot left this sequence, so cannot {kind} (001-12); "
            "leave the defence passive"
        )
    cost = options.defence_shots + (surcharge(target) if options.surcharge_defences else 0)
    events.append(
        Spent(target.id, "shots", cost, f"{kind}s off-turn against {attacker.name}", ["001-12"])
    )
    if kind == "dodge":
        return target.sheet.dodge + options.active_dodge_bonus + penalty, (
            f"active dodge (+{options.active_dodge_bonus})"
        )
    return target.sheet.av(target.sheet.parry) + penalty, f"parry with {target.sheet.parry}"


def resolve_attack(
    state: State, actor: Fighter, command: Attack, ctx: Context, penalties: list[Modifier]
) -> list[Event]:
    if len(command.targets) != 1:
        raise BadInputError("attack exactly one target: act A attack TARGET --weapon W")
    target = state.fighter(command.targets[0])
    if target.id == actor.id:
        raise RefusedError(f"{actor.name} cannot attack themselves")
    if target.out:
        raise RefusedError(f"{target.name} is already out of the fight")
    weapon = actor.weapon(command.weapon)
    events: list[Event] = []
    difficulty, against = difficulty_of(state, events, actor, target, command)
    outcome = check(
        ctx,
        events,
        actor,
        f"{weapon.name} attack on {target.name} ({against})",
        state.options.action_dice,
        actor.sheet.av(weapon.skill),
        difficulty,
        [*command.modifiers, *penalties],
        ["001-M3"],
        state.options.hit_on_zero,
    )
    if outcome is None:
        events.append(Resolved(actor.id, "attack", [target.id], "misses", ["001-M3"]))
        return events
    if target.sheet.mook:
        events.append(Resolved(actor.id, "attack", [target.id], "hits a mook", ["001-M5"]))
        events.append(ConditionSet(target.id, "out", "a mook goes down to any hit", {}, ["001-M5"]))
        return events
    events.append(Resolved(actor.id, "attack", [target.id], f"hits, outcome {outcome}", ["001-M3"]))
    return events + wound(state, ctx, target, outcome, weapon)


def impairment_change(state: State, target: Fighter, wounds: int) -> list[Event]:
    """Mechanic 4: -1 and -2 to every check past the impairment lines."""
    options = state.options
    bruiser = options.big_bruiser_bonus if target.sheet.big_bruiser else 0
    level = -sum(1 for at in options.impairment_at if wounds >= at + bruiser)
    if level == target.impairment:
        return []
    if not level:
        return [ConditionCleared(target.id, "impaired", f"{wounds} wound points", ["001-M4"])]
    detail = {"penalty": level}
    return [ConditionSet(target.id, "impaired", f"{wounds} wound points", detail, ["001-M4"])]


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """Wound points, and impairment past its lines; a mook goes down to any harm (001-M5)."""
    fighter = state.fighter(target)
    if fighter.sheet.mook and not fighter.out:
        harm = gm.harmed(state, target, amount, reason)
        return [*harm, ConditionSet(target, "out", "a mook goes down to any harm", {}, ["001-M5"])]
    return gm.harmed(state, target, amount, reason) + impairment_change(
        state, fighter, fighter.wounds + amount
    )


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    fighter = state.fighter(target)
    healed = min(amount, fighter.wounds)
    if not healed:
        raise RefusedError(f"{fighter.name} has no wound points to heal")
    return gm.healed(state, target, healed, reason) + impairment_change(
        state, fighter, fighter.wounds - healed
    )


def wound(state: State, ctx: Context, target: Fighter, outcome: int, weapon: Weapon) -> list[Event]:
    """Mechanic 4: Outcome + Damage - Toughness into wound points; impairment; death checks."""
    options = state.options
    breakdown = [
        Modifier(outcome, "outcome", "001-M4"),
        Modifier(weapon.damage, f"{weapon.name} damage", "001-M4"),
        Modifier(-target.sheet.toughness, "Toughness", "001-M4"),
    ]
    amount = max(options.damage_floor, sum(m.value for m in breakdown))
    events: list[Event] = [Damaged(target.id, amount, weapon.name, breakdown, ["001-M4"])]
    wounds = target.wounds + amount
    bruiser = options.big_bruiser_bonus if target.sheet.big_bruiser else 0
    events += impairment_change(state, target, wounds)
    threshold = options.death_checks_at + bruiser
    if amount and wounds >= threshold:
        survived = check(
            ctx,
            events,
            target,
            "death check",
            options.closed_dice,
            target.sheet.constitution,
            wounds - threshold,
            [],
            ["001-M4"],
        )
        if survived is None:
            events.append(ConditionSet(target.id, "dead", "failed a death check", {}, ["001-M4"]))
    return events


# -- the other actions --------------------------------------------------------------------


def resolve_run(
    state: State, actor: Fighter, command: Run, ctx: Context, penalties: list[Modifier]
) -> list[Event]:
    return [Resolved(actor.id, "run", [], f"runs {command.metres} m", ["001-7"])]


def resolve_other(
    state: State, actor: Fighter, command: Other, ctx: Context, penalties: list[Modifier]
) -> list[Event]:
    rules = ["001-8"] if command.shots == 1 else ["001-6"] if command.shots <= 3 else ["001-17"]
    return [Resolved(actor.id, "other", [], command.what, rules)]


def decide_continuous(state: State, command: Continuous | Stop) -> list[Event]:
    """001-16: started and stopped at any time; no shot cost of its own."""
    actor = state.fighter(command.actor)
    if actor.out:
        raise RefusedError(f"{actor.name} is out of the fight")
    if not command.what:
        raise BadInputError("name the continuous action: --opt what=TEXT")
    name = f"continuous:{command.what}"
    if isinstance(command, Continuous):
        if actor.has(name):
            raise RefusedError(f"{actor.name} is already {command.what}")
        reason = "started: +1 shot to every other action"
        return [ConditionSet(actor.id, name, reason, {"what": command.what}, ["001-16"])]
    if not actor.has(name):
        known = ", ".join(actor.continuous) or "none"
        raise RefusedError(f"{actor.name} is not {command.what}; continuous actions: {known}")
    return [ConditionCleared(actor.id, name, "stopped", ["001-16"])]


# -- joining, beginning, passing ----------------------------------------------------------


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    sheet = replace(sheet, skills={k.lower(): v for k, v in sheet.skills.items()})
    return [joined_event(command, sheet)]


def decide_begin(state: State, command: Begin, ctx: Context) -> list[Event]:
    check_can_begin(state.sequence, state.fighters)
    events, ties = tie_rolls(state, ctx)
    return events + advance(state, ctx, ties)


def tie_rolls(state: State, ctx: Context) -> tuple[list[Event], dict[str, int]]:
    """The seeded random order within a shot for those of equal Speed and side (001-4)."""
    groups: dict[tuple, list[Fighter]] = {}
    for fighter in sorted(state.fighters.values(), key=lambda f: f.joined):
        groups.setdefault((fighter.sheet.speed, fighter.side), []).append(fighter)
    events: list[Event] = []
    ties: dict[str, int] = {}
    for group in groups.values():
        if len(group) < 2 or state.options.same_shot_order == "gm":
            continue
        for fighter in group:
            roll = ctx.dice.roll("d100", f"same-shot order of {fighter.name}")
            events.append(Rolled(fighter.id, "same-shot order", roll, None, [], None, ["001-4"]))
            ties[fighter.id] = roll.total
    return events, ties


def decide_pass(state: State, command: Pass, ctx: Context) -> list[Event]:
    """The GM lets a combatant's shot go by: they act again one shot later."""
    if state.sequence == 0:
        raise RefusedError("the fight has not begun: `fracas begin` first")
    waiting = state.on_shot(state.shot)
    if not waiting:
        raise RefusedError("nobody is left able to act in this fight")
    actor = state.fighter(command.actor) if command.actor else waiting[0]
    if actor not in waiting:
        raise RefusedError(f"{actor.name} does not act on shot {state.shot}")
    events: list[Event] = [Spent(actor.id, "shots", 1, "waits a shot", ["001-5"])]
    return events + advance(fold(state, events), ctx)


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Begin():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_pass(state, command, ctx)
        case Continuous() | Stop():
            return decide_continuous(state, command)
        case Attack():
            weapon = state.fighter(command.actor).weapon(command.weapon)
            return act(state, command, ctx, weapon.shots, resolve_attack)
        case Run():
            return act(state, command, ctx, 3, resolve_run)
        case Other():
            if command.shots < 1:
                raise BadInputError("an action costs at least 1 shot: --opt shots=N")
            return act(state, command, ctx, command.shots, resolve_other)
    raise BadInputError(f"the shot-clock ruleset cannot decide {type(command).__name__}")


# -- evolve: a pure, total fold -----------------------------------------------------------


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = msgspec.convert(event.sheet, Sheet)
    return roster.put(
        state, Fighter(event.combatant, event.name, event.side, sheet, len(state.fighters))
    )


def _initiative(state: State, event: InitiativeSet) -> State:
    return roster.change(
        state,
        event.combatant,
        lambda f: replace(
            f, initiative=event.value, next_shot=event.value, moved=0, tiebreak=event.tiebreak
        ),
    )


def _shot(state: State, event: ShotReached) -> State:
    return replace(state, sequence=event.sequence, shot=event.shot)


def _spent(state: State, event: Spent) -> State:
    if event.resource == "metres":
        return roster.change(
            state, event.combatant, lambda f: replace(f, moved=f.moved + event.amount)
        )
    return roster.change(
        state, event.combatant, lambda f: replace(f, next_shot=max(0, f.next_shot - event.amount))
    )


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, wounds=f.wounds + event.amount))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, wounds=max(0, f.wounds - event.amount))
    )


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: _initiative,
        ShotReached: _shot,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
    }
)


# -- the view the table sees --------------------------------------------------------------


def status_of(state: State, fighter: Fighter) -> str:
    if fighter.out:
        return "dead" if fighter.has("dead") else "out"
    parts = []
    if state.shot > 0 and fighter.next_shot == state.shot:
        parts.append("acting")
    elif fighter.next_shot > 0:
        parts.append(f"next shot {fighter.next_shot}")
    else:
        parts.append("no shots left this sequence")
    if fighter.continuous:
        parts.append("continuous: " + ", ".join(fighter.continuous))
    carrying = fighter.conditions.get("carrying")
    if carrying:
        parts.append(f"carrying {carrying['what']} ({carrying['remaining']} shots)")
    return "; ".join(parts)


def conditions_of(fighter: Fighter) -> list[str]:
    shown = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "impaired":
            shown.append(f"impaired {detail['penalty']}")
        elif name == "carrying":
            shown.append(f"carrying {detail['what']} ({detail['remaining']} shots)")
        elif name.startswith("continuous:"):
            shown.append(f"continuous: {detail['what']}")
        else:
            shown.append(name)
    return shown


def view(state: State) -> View:
    order = sorted(
        state.fighters.values(), key=lambda f: (f.out, -f.next_shot, state.same_shot_key(f))
    )
    acting = [f.id for f in state.may_act()]
    initiative = [
        InitiativeRow(
            f.id,
            f.name,
            i,
            f"shot {f.next_shot}" if f.next_shot > 0 and not f.out else "-",
            f.id in acting,
            status_of(state, f),
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [
        WoundRow(
            f.id,
            f.name,
            f.side,
            "mook" if f.sheet.mook else f"WP {f.wounds}",
            conditions_of(f),
            {
                "wounds": f.wounds,
                "toughness": f.sheet.toughness,
                "initiative": f.initiative,
                "next_shot": f.next_shot,
                "moved": f.moved,
            },
            f.wounds,
            None,
            "wound points",
            "taken",
        )
        for f in sorted(state.fighters.values(), key=lambda f: f.joined)
    ]
    notes = [
        f"{f.name}: continuous {what} (+1 shot to every other action)"
        for f in order
        for what in f.continuous
    ] + [
        f"{f.name}: {f.conditions['carrying']['what']} carries "
        f"{f.conditions['carrying']['remaining']} shots into the next sequence"
        for f in order
        if f.has("carrying")
    ]
    if not state.sequence:
        phase = "setup"
    elif not acting:
        phase = "over"
    else:
        phase = f"sequence {state.sequence}, shot {state.shot}"
    return View(state.sequence, phase, acting, initiative, wounds, [], notes)


def clock(state: State) -> Clock:
    """Where durations expire: a round is a sequence (001-1); a turn is one action, on the
    shot the combatant acts on (001-3), and ends as their next shot moves on (001-5)."""
    shot = f"{state.sequence}:{state.shot}"
    return Clock(state.sequence, {f.id: shot for f in state.on_shot(state.shot)}, "sequence")


TRACKED = frozenset(("carrying", "dead", "impaired", "out"))

# -- the table's words ----------------------------------------------------------------------

VERBS = {
    "attack": "attacks",
    "run": "runs",
    "other": "acts",
    "continuous": "keeps at a continuous action",
    "stop": "stops",
}


def headline(view: View) -> str:
    """The shot the sequence has reached: "shot 12"."""
    _, shot, number = view.phase.rpartition(", shot ")
    return f"shot {number}" if shot else ""


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    detail = wound.detail
    return {"Next shot": detail.get("next_shot", 0), "Init": detail.get("initiative", 0)}


ACTIVE_DEFENCE = Choices(
    ["passive", "dodge", "parry"],
    "passive",
    "001-M3",
    "the passive dodge: the Dodge AV, spending no shots",
    omit="passive",
)


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """Mechanic 3, 001-12: an attack's target keeps the passive dodge, or dodges actively or
    parries off-turn for a shot while their next shot is above 0; not when unaware."""
    if not isinstance(command, Attack):
        return {}
    return offer(decide, state, command, ACTIVE_DEFENCE, command.unaware)


def reach(state: State, command: Any) -> Reach | None:
    """What an attack's open roll can change whatever it shows (001-M3, 001-M4): the
    attacker and the target (wound points, impairment, a death check that may take them
    out, so the shot clock too), and everyone when no one else has a shot left, as the
    sequence that may begin then rolls everyone's initiative (001-9); other actions are
    left to fracas to try (None)."""
    if not isinstance(command, Attack):
        return None
    named = {command.actor, *command.targets}
    others = [f for f in state.fighters.values() if f.id not in named and not f.out]
    if not any(f.next_shot > 0 for f in others):
        named |= set(state.fighters)
    return Reach(frozenset(named), shared=True)


RULESET = Ruleset(
    reach=reach,
    name="shotclock",
    title="Shot clock (Feng Shui)",
    reference=toml_reference("fracas.rules", "reference.toml", "001"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=ShotCommand,
    event_type=event_union(ShotReached),
    initial=initial,
    decide=decide,
    reactions=reactions,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    schema=2,
    upcasters={(ANY_KIND, 1): mechanic_ids("001")},
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    moved_on=advance,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    clock=clock,
    reads_rolls="modified",
    round_word="Sequence",
    headline=headline,
    key_numbers=key_numbers,
    verbs=VERBS,
    told=frozenset(("impaired",)),
    down=frozenset(),
    out=frozenset(("dead", "out")),
    round_events={"turn.advanced": "round", "shot.reached": "sequence"},
)
