"""The d10 dice pool (The Contract, "Actions and Reactions", older revision).

Rule ids (004-n) are those of RULES.md §004. One Action per round, which a Reaction spends
early; held actions wait for a trigger the GM names; split pools; injuries cut every pool.
Read top to bottom: sheets and options, the roll, the round, actions, reactions, damage,
then evolve and the view.
"""

import math
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from fracas.rules.api import (
    ANY_KIND,
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
    TurnAdvanced,
    View,
    Waiting,
    WoundRow,
    check_can_begin,
    check_known,
    declared_event,
    did_you_mean,
    event_union,
    gm,
    joined_event,
    mechanic_ids,
    no_weapon,
    offer,
    roster,
    tie_roll,
    toml_reference,
)

# -- sheets and options -------------------------------------------------------------------

WeaponKind = Literal["brawl", "melee", "firearm"]
ATTRIBUTES = ("brawn", "dexterity", "perception", "intellect", "charisma")
ABILITIES = (  # mechanic 7
    "alertness", "animals", "athletics", "brawl", "crafts", "culture", "drive", "firearms",
    "influence", "investigation", "medicine", "melee", "occult", "performance", "science",
    "stealth", "survival", "technology", "thievery",
)  # fmt: skip


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Mechanic 2's weapon table: the roll, the Difficulty and the Weapon Damage."""

    name: str
    kind: WeaponKind = "melee"
    attribute: str = "brawn"
    ability: str = "melee"
    difficulty: int = 6
    damage: int = 0
    committed: bool = False


FISTS = Weapon("fists", "brawl", "brawn", "brawl", 5, 0)


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    brawn: int = 2
    dexterity: int = 2
    perception: int = 2
    intellect: int = 2
    charisma: int = 2
    abilities: dict[str, int] = {}
    weapons: list[Weapon] = []
    armor: int = 0
    body: int | None = None
    firearm_reactions: bool = False  # a Power that lets the character react to gunfire

    def pool(self, attribute: str, ability: str) -> int:
        """Attribute + Ability; Dexterity + Perception (initiative) adds two attributes."""
        if attribute not in ATTRIBUTES:
            hint = did_you_mean(attribute, ATTRIBUTES)
            raise BadInputError(f"no attribute {attribute!r}; {hint}")
        if ability not in (*ATTRIBUTES, *ABILITIES, *self.abilities):
            raise BadInputError(f"no ability {ability!r}; {did_you_mean(ability, ABILITIES)}")
        second = getattr(self, ability) if ability in ATTRIBUTES else self.abilities.get(ability, 0)
        return getattr(self, attribute) + second


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §004 'Ambiguities', overridable per encounter."""

    difficulty: Bounded = 6
    unskilled_difficulty: Bounded = 1
    initiative_difficulty: Bounded = 6
    dodge_difficulty: Bounded = 6
    evade_difficulty: Bounded = 7
    brawl_parry_with_weapon: Bounded = -1
    quick_action_dice: Bounded = 2
    desperate_dice: Bounded = 2
    split_minimum: Bounded = 2
    botched_defence_counts: bool = False
    body_penalties: tuple[Bounded, ...] = (4, 3, 2, 1, 1)  # Body remaining 1, 2, 3, 4, 5
    clash_as_desperate: bool = True
    exertion_outcome: Bounded = 1


OPTION_HELP = {
    "difficulty": "the usual Difficulty (004-M1)",
    "unskilled_difficulty": "what having no ranks in the Ability adds to the Difficulty",
    "initiative_difficulty": "the Difficulty of the initiative roll (004-M6)",
    "dodge_difficulty": "the Difficulty of a dodge (004-13)",
    "evade_difficulty": "the Difficulty of an evade (004-14)",
    "brawl_parry_with_weapon": (
        "the Difficulty change for parrying a brawl attack with a melee weapon (004-16)"
    ),
    "quick_action_dice": "the dice each quick action takes from the round's Action (004-3)",
    "desperate_dice": "the dice a desperate reaction takes from the next Action (004-19)",
    "split_minimum": "the fewest dice each part of a split pool may have (004-8)",
    "botched_defence_counts": "whether a defence outcome below 0 raises the attack's outcome",
    "body_penalties": "the dice lost at Body left 1, 2, 3, 4 and 5 (004-M4)",
    "clash_as_desperate": "whether a clash may be a desperate reaction",
    "exertion_outcome": "the Outcome an exertion adds (004-M5)",
}


# -- commands -----------------------------------------------------------------------------

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
    pass


class Quick(Act, tag="quick"):
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
POOL = "your pool of d10s, one face a die"
PLAYERS = {
    "attack": Playable({"exert": EXERT, "weapon": WEAPON}, dice=POOL),
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

# -- state --------------------------------------------------------------------------------


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    injuries: tuple[int, ...] = ()
    initiative: int = 0
    tiebreak: int = 0
    spent_round: int = 0
    quick_round: int = 0
    quick_count: int = 0
    exerted_round: int = 0
    conditions: dict[str, dict[str, Any]] = {}

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def body(self) -> int:
        """Mechanic 3: 5 + ceil(Brawn / 2), unless the sheet says otherwise."""
        return (
            self.sheet.body if self.sheet.body is not None else 5 + math.ceil(self.sheet.brawn / 2)
        )

    @property
    def body_left(self) -> int:
        if not self.injuries:
            return self.body
        worst = max(self.injuries)
        return self.body - (worst + len(self.injuries) - 1)

    @property
    def incapacitated(self) -> bool:
        return self.body_left <= 0

    @property
    def dead(self) -> bool:
        return self.body_left < 0

    @property
    def out(self) -> bool:
        return self.incapacitated or self.has(gm.REMOVED)

    def weapon(self, name: str) -> Weapon:
        """A weapon of the sheet by name; none named: the first on the sheet, else fists."""
        if not name:
            return self.sheet.weapons[0] if self.sheet.weapons else FISTS
        for weapon in self.sheet.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        if name.lower() in ("fists", "brawl", "unarmed"):
            return FISTS
        raise no_weapon(self.name, name, ["fists", *(w.name for w in self.sheet.weapons)])


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    turn: str | None = None
    asking: Waiting | None = None  # an attack waiting for a reaction (rules/reactions.py)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def order(self) -> list[Fighter]:
        """Initiative default: Outcome, then higher Dexterity, then the seeded tie roll."""
        return sorted(
            self.fighters.values(),
            key=lambda f: (-f.initiative, -f.sheet.dexterity, -f.tiebreak, f.joined),
        )

    def has_action(self, fighter: Fighter) -> bool:
        return fighter.spent_round < self.round and not fighter.out


def check_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """Abilities are the game's or listed in custom_skills; weapons name both halves."""
    known = (*ABILITIES, *custom)
    check_known("ability", sheet.abilities, known, f"{where}: abilities")
    for weapon in sheet.weapons:
        check_known("attribute", [weapon.attribute], ATTRIBUTES, f"{where}: weapon {weapon.name}")
        check_known(
            "ability", [weapon.ability], (*known, *ATTRIBUTES), f"{where}: weapon {weapon.name}"
        )


def initial() -> State:
    return State()


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


# -- the roll (mechanics 1 and 4) -----------------------------------------------------------


def reading(outcome: int) -> str:
    """Mechanic 1's bands."""
    if outcome < 0:
        return "botch"
    if outcome == 0:
        return "failure"
    if outcome <= 3:
        return "partial success"
    if outcome <= 5:
        return "complete success"
    return "exceptional success"


def count_outcome(faces: list[int], difficulty: int) -> int:
    """+1 per die at or above the Difficulty, +2 for a 10, -1 for a 1."""
    return sum(2 if f == 10 else 1 if f >= difficulty else -1 if f == 1 else 0 for f in faces)


def penalty(state: State, fighter: Fighter) -> int:
    """Mechanic 4: dice lost to Body remaining (RULES.md's table, an option)."""
    left = fighter.body_left
    table = state.options.body_penalties
    return table[left - 1] if 1 <= left <= len(table) else 0


class Pool(msgspec.Struct, frozen=True):
    dice: int
    terms: list[Modifier]


def pool_for(
    state: State, fighter: Fighter, attribute: str, ability: str, action: bool = True
) -> Pool:
    """Attribute + Ability, less the Penalty (not below 1), then less quick actions and a
    desperate reaction's cost (down to 0) when it is the round's Action."""
    base = fighter.sheet.pool(attribute, ability)
    terms = [Modifier(base, f"{attribute} + {ability}", "004-M1")]
    dice = base
    lost = penalty(state, fighter)
    if lost:
        dice = max(1, base - lost) if base > 0 else 0
        terms.append(Modifier(dice - base, "injury penalty", "004-M4"))
    if action and fighter.quick_round == state.round and fighter.quick_count:
        cut = min(dice, state.options.quick_action_dice * fighter.quick_count)
        dice -= cut
        terms.append(Modifier(-cut, f"{fighter.quick_count} quick action(s)", "004-3"))
    desperate = fighter.conditions.get("desperate")
    if action and desperate:
        cut = min(dice, desperate["dice"])
        dice -= cut
        terms.append(Modifier(-cut, "after a desperate reaction", "004-19"))
    return Pool(dice, terms)


def difficulty_for(
    state: State, fighter: Fighter, ability: str, base: int, modifiers: list[Modifier]
) -> tuple[int, list[Modifier]]:
    terms = list(modifiers)
    unskilled = ability not in ATTRIBUTES and fighter.sheet.abilities.get(ability, 0) == 0
    if unskilled and state.options.unskilled_difficulty:
        terms.append(
            Modifier(state.options.unskilled_difficulty, f"no ranks in {ability}", "004-M1")
        )
    return base + sum(m.value for m in terms), terms


def roll_pool(
    ctx: Context,
    events: list[Event],
    state: State,
    fighter: Fighter,
    purpose: str,
    pool: Pool,
    difficulty: int,
    difficulty_terms: list[Modifier],
    rules: list[str],
    exert: bool = False,
) -> int:
    """Roll the pool and count the Outcome; an empty pool is a failure with no roll."""
    if fighter.incapacitated:
        raise RefusedError(f"{fighter.name} is incapacitated and fails every rolled action")
    if pool.dice <= 0:
        events.append(
            Resolved(fighter.id, purpose, [], "no dice left: Outcome 0, a failure", ["004-3"])
        )
        return 0
    roll = ctx.dice.roll(f"{pool.dice}d10", purpose)
    outcome = count_outcome(roll.faces, difficulty)
    terms = [*pool.terms, *(replace(m, reason=f"difficulty: {m.reason}") for m in difficulty_terms)]
    if exert:
        outcome += state.options.exertion_outcome
        terms.append(Modifier(state.options.exertion_outcome, "exerted: +1 Outcome", "004-M5"))
    verdict = f"outcome {outcome}: {reading(outcome)}"
    events.append(Rolled(fighter.id, purpose, roll, difficulty, terms, verdict, ["004-M1", *rules]))
    return outcome


# -- the round ----------------------------------------------------------------------------


def advance(state: State, reason: str) -> list[Event]:
    """The next in initiative order this round who still has an Action; then a new round.
    A hold lapses when its holder's next turn comes (004-5)."""
    everyone = state.order()
    start = next((i + 1 for i, f in enumerate(everyone) if f.id == state.turn), 0)
    order = [f for f in everyone if not f.out]
    for fighter in [f for f in everyone[start:] if not f.out]:
        if state.has_action(fighter):
            return [*turn_begins(fighter), TurnAdvanced(state.round, fighter.id, reason, ["004-1"])]
    next_round = replace(state, round=state.round + 1)
    for fighter in order:
        if next_round.has_action(fighter):
            return [
                *turn_begins(fighter),
                TurnAdvanced(next_round.round, fighter.id, "a new round begins", ["004-1"]),
            ]
    return [TurnAdvanced(next_round.round, None, "nobody is left able to act", ["004-1"])]


def turn_begins(fighter: Fighter) -> list[Event]:
    """What lasts "until the character's next Action" ends when their turn comes."""
    events: list[Event] = []
    if fighter.has("holding"):
        events.append(ConditionCleared(fighter.id, "holding", "their next Action came", ["004-5"]))
    if fighter.has("evading"):
        events.append(ConditionCleared(fighter.id, "evading", "their next Action came", ["004-14"]))
    return events


def check_turn(state: State, actor: Fighter) -> None:
    if state.round == 0:
        raise RefusedError("the fight has not begun: `fracas begin` first")
    if actor.incapacitated:
        raise RefusedError(f"{actor.name} is incapacitated and cannot act")
    if state.turn != actor.id:
        current = state.fighters[state.turn].name if state.turn else "nobody"
        raise RefusedError(
            f"it is {current}'s turn, not {actor.name}'s (004-1); react from within an attack, "
            "or hold an action"
        )
    if not state.has_action(actor):
        raise RefusedError(f"{actor.name} has already used this round's Action (004-11)")


def spend_action(state: State, actor: Fighter, label: str, rules: list[str]) -> list[Event]:
    events: list[Event] = [Spent(actor.id, "action", 1, label, rules)]
    if actor.has("desperate"):
        events.append(
            ConditionCleared(actor.id, "desperate", "the next Action was taken", ["004-19"])
        )
    return events


def exertion(state: State, actor: Fighter, why: str) -> list[Event]:
    """Mechanic 5: once a round, declared before rolling; the Body pays a Severity-1 Injury."""
    if actor.exerted_round == state.round:
        raise RefusedError(f"{actor.name} has already exerted this round (mechanic 5)")
    return [
        Spent(actor.id, "exertion", 1, why, ["004-M5"]),
        Damaged(
            actor.id,
            1,
            "exerting the Body",
            [Modifier(1, "Severity-1 Injury", "004-M5")],
            ["004-M5"],
        ),
    ]


def turn_action(state: State, command: Act, ctx: Context, resolve) -> list[Event]:
    """Frame of an action on one's turn: check, declare, resolve, spend, pass the turn."""
    actor = state.fighter(command.actor)
    check_turn(state, actor)
    events: list[Event] = [declared_event(command, actor.id, ctx.command_id)]
    if command.exert:
        events += exertion(state, actor, "exerts for +1 Outcome")
    events += resolve(fold(state, events), actor, command, ctx)
    after = fold(state, events)
    me = after.fighters[actor.id]
    if after.turn == actor.id and (not after.has_action(me) or me.has("holding")):
        events += advance(after, f"{actor.name} acted")
    return events


# -- attacks, splits, reactions and damage ---------------------------------------------------


def split_shares(state: State, actor: Fighter, command: Attack, weapon: Weapon) -> list[int]:
    """004-8, 004-9, 004-10: dice available = the smallest pool; 2 dice at least for each;
    no split at 3 or fewer; one attack per target; committed actions never split."""
    targets = command.targets
    if len(set(targets)) != len(targets):
        raise RefusedError("a split pool cannot attack the same target twice (004-9)")
    splitting = len(targets) > 1 or command.keep
    attack_pool = pool_for(state, actor, weapon.attribute, weapon.ability).dice
    if not splitting:
        return [attack_pool]
    if weapon.committed:
        raise RefusedError(f"the {weapon.name} is committed: it uses the whole pool (004-10)")
    pools = [attack_pool]
    for kind in command.keep:
        if kind not in ("dodge", "parry", "clash"):
            raise BadInputError(f"dice can be kept for dodge, parry or clash, not {kind!r}")
        pools.append(reaction_pool(state, actor, kind, None).dice)
    available = min(pools)
    parts = len(targets) + len(command.keep)
    minimum = state.options.split_minimum
    if available < minimum * parts:
        raise RefusedError(
            f"{actor.name} has {available} dice to split (the smallest pool; 004-8): "
            f"{parts} actions need {minimum * parts}"
        )
    shares = list(command.shares) or even_shares(
        available - sum(command.keep.values()), len(targets)
    )
    if len(shares) != len(targets):
        raise BadInputError("give one share of dice per target: --opt shares=[3,2]")
    if any(s < minimum for s in [*shares, *command.keep.values()]):
        raise RefusedError(f"each split action needs at least {minimum} dice (004-8)")
    if sum(shares) + sum(command.keep.values()) > available:
        raise RefusedError(f"the shares add up to more than the {available} dice available (004-8)")
    return shares


def even_shares(dice: int, parts: int) -> list[int]:
    return [dice // parts + (1 if i < dice % parts else 0) for i in range(parts)]


def reaction_pool(
    state: State, fighter: Fighter, kind: str, weapon: Weapon | None, as_action: bool = False
) -> Pool:
    """A dodge, parry or clash pool; when it is the round's Action taken early (004-11) it
    takes every cut that Action would."""
    if kind == "dodge":
        return pool_for(state, fighter, "dexterity", "athletics", action=as_action)
    weapon = weapon or fighter.weapon("")
    return pool_for(state, fighter, weapon.attribute, weapon.ability, action=as_action)


def resolve_attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    if not command.targets:
        raise BadInputError("attack needs a target: act A attack TARGET -w WEAPON")
    weapon = actor.weapon(command.weapon)
    shares = split_shares(state, actor, command, weapon)
    events: list[Event] = []
    if len(shares) > 1 or command.keep:
        detail = ", ".join(
            f"{dice} dice at {state.fighter(t).name}"
            for t, dice in zip(command.targets, shares, strict=True)
        )
        events.append(
            Resolved(actor.id, "split", command.targets, f"splits the pool: {detail}", ["004-8"])
        )
    for target_id, dice in zip(command.targets, shares, strict=True):
        target = state.fighter(target_id)
        if target.id == actor.id:
            raise RefusedError(f"{actor.name} cannot attack themselves")
        events += attack_one(fold(state, events), ctx, actor, target, weapon, dice, command)
    events += spend_action(fold(state, events), actor, "attack", ["004-1"])
    if command.keep:
        events.append(
            ConditionSet(
                actor.id,
                "kept",
                f"keeps dice for {', '.join(command.keep)}",
                {"round": state.round, "dice": dict(command.keep)},
                ["004-8"],
            )
        )
    return events


def attack_one(
    state: State,
    ctx: Context,
    actor: Fighter,
    target: Fighter,
    weapon: Weapon,
    dice: int,
    command: Attack,
) -> list[Event]:
    """One attack (004-2) and the target's defence; then the damage (mechanic 2)."""
    base = pool_for(state, actor, weapon.attribute, weapon.ability)
    pool = (
        base
        if dice == base.dice
        else Pool(dice, [*base.terms, Modifier(dice - base.dice, "split share", "004-8")])
    )
    difficulty, terms = difficulty_for(
        state, actor, weapon.ability, weapon.difficulty, list(command.modifiers)
    )
    events: list[Event] = []
    outcome = roll_pool(
        ctx,
        events,
        state,
        actor,
        f"{weapon.name} attack on {target.name}",
        pool,
        difficulty,
        terms,
        ["004-2"],
        command.exert,
    )
    kind = command.defence.get(target.id)
    if kind is None:
        return events + evaded(actor, weapon, target, outcome, command)
    defender = state.fighter(command.defender.get(target.id, target.id))
    events += react(state, ctx, actor, weapon, outcome, target, defender, kind, command)
    return events


def evaded(
    actor: Fighter, weapon: Weapon, target: Fighter, outcome: int, command: Attack
) -> list[Event]:
    """004-14: an Evade Outcome still in force is spent against the attack."""
    evading = target.conditions.get("evading")
    spend = 0
    if evading and outcome > 0:
        spend = min(evading["pool"], command.evade.get(target.id, outcome))
    result: list[Event] = []
    if spend:
        result.append(
            Spent(target.id, "evade", spend, f"evades {spend} of {actor.name}'s attack", ["004-14"])
        )
    return result + damage(
        actor,
        target,
        weapon,
        outcome - spend,
        f"attack outcome {outcome}" + (f" - evade {spend}" if spend else ""),
    )


def react(
    state: State,
    ctx: Context,
    attacker: Fighter,
    weapon: Weapon,
    outcome: int,
    target: Fighter,
    defender: Fighter,
    kind: str,
    command: Attack,
) -> list[Event]:
    """004-11..004-19: a Reaction spends the defender's Action (or a desperate exertion)."""
    if weapon.kind == "firearm" and not defender.sheet.firearm_reactions:
        raise RefusedError(
            f"{defender.name} cannot react to a firearm attack without a Power (004-12)"
        )
    if kind in ("parry", "clash") and weapon.kind == "firearm":
        raise RefusedError(f"only melee and brawl attacks can be {kind}ed (004-15)")
    if defender.id != target.id and kind != "parry":
        raise RefusedError(f"{defender.name} can only parry for {target.name}, not {kind} (004-17)")
    events: list[Event] = []
    as_action = False
    kept = defender.conditions.get("kept", {})
    if kept.get("round") == state.round and kept.get("dice", {}).get(kind):
        dice = kept["dice"][kind]
        events.append(ConditionCleared(defender.id, "kept", f"the kept dice {kind}", ["004-8"]))
    elif state.has_action(defender):
        dice, as_action = None, True
        events += spend_action(state, defender, f"reacts: {kind}", ["004-11"])
    elif defender.id in command.desperate and (kind != "clash" or state.options.clash_as_desperate):
        events += exertion(state, defender, f"desperate {kind}")
        events.append(
            ConditionSet(
                defender.id,
                "desperate",
                f"a desperate {kind}",
                {"dice": state.options.desperate_dice},
                ["004-19"],
            )
        )
        dice = None
    else:
        raise RefusedError(
            f"{defender.name} has already used this round's Action and cannot react (004-11); "
            "--opt desperate=[NAME] exerts the Body for a desperate reaction (004-19)"
        )
    mid = fold(state, events)
    # 004-11: a Reaction that is the round's Action is built as that Action, before spending
    # it, so it takes the quick actions' and a past desperate reaction's cuts.
    builder = state.fighters[defender.id] if as_action else mid.fighters[defender.id]
    defender = mid.fighters[defender.id]
    defence_weapon, difficulty_shift = parry_weapon(defender, weapon, kind, command, mid.options)
    if kind == "dodge":
        pool = reaction_pool(mid, builder, "dodge", None, as_action)
        base_difficulty, ability, rules = mid.options.dodge_difficulty, "athletics", ["004-13"]
    else:
        pool = reaction_pool(mid, builder, kind, defence_weapon, as_action)
        base_difficulty = defence_weapon.difficulty + difficulty_shift
        ability = defence_weapon.ability
        rules = ["004-15", "004-16"] if kind == "parry" else ["004-18"]
    if dice is not None:
        pool = Pool(dice, [Modifier(dice, "kept dice", "004-8")])
    difficulty, terms = difficulty_for(mid, defender, ability, base_difficulty, [])
    defence = roll_pool(
        ctx,
        events,
        mid,
        defender,
        f"{kind} against {attacker.name}",
        pool,
        difficulty,
        terms,
        [*rules, "004-11"] if as_action else rules,
    )
    counted = defence if mid.options.botched_defence_counts else max(0, defence)
    if kind == "clash":
        return events + clash(attacker, weapon, outcome, defender, defence_weapon, counted)
    margin = f"attack outcome {outcome} - {kind} {counted}"
    return events + damage(attacker, target, weapon, outcome - counted, margin)


def parry_weapon(
    defender: Fighter, weapon: Weapon, kind: str, command: Attack, options: Options
) -> tuple[Weapon, int]:
    """004-15, 004-16: a melee weapon parries melee; brawl is parried by brawl, or by a melee
    weapon at -1 Difficulty, as the defender chooses."""
    if kind == "dodge":
        return FISTS, 0
    chosen = command.defence_weapon.get(defender.id)
    if chosen is None:
        melee = [w for w in defender.sheet.weapons if w.kind == "melee"]
        chosen = melee[0].name if melee else "fists"
    defence_weapon = defender.weapon(chosen)
    if weapon.kind == "melee" and defence_weapon.kind != "melee":
        raise RefusedError(
            f"{defender.name} needs a melee weapon to {kind} a melee attack (004-15)"
        )
    shift = (
        options.brawl_parry_with_weapon
        if weapon.kind == "brawl" and defence_weapon.kind == "melee"
        else 0
    )
    return defence_weapon, shift


def clash(
    attacker: Fighter,
    weapon: Weapon,
    outcome: int,
    defender: Fighter,
    defence_weapon: Weapon,
    defence: int,
) -> list[Event]:
    """004-18: compare; the higher deals full damage, a tie both (if above 0)."""
    events: list[Event] = []
    if outcome >= defence and outcome > 0:
        events += damage(
            attacker,
            defender,
            weapon,
            outcome,
            f"clash won {outcome} to {defence}",
            full=True,
        )
    if defence >= outcome and defence > 0:
        events += damage(
            defender,
            attacker,
            defence_weapon,
            defence,
            f"clash won {defence} to {outcome}",
            full=True,
        )
    if not events:
        events.append(
            Resolved(attacker.id, "clash", [defender.id], "nobody lands a blow", ["004-18"])
        )
    return events


def armor_of(target: Fighter, weapon: Weapon) -> int:
    """Mechanic 2: armour does not stack; Brawn counts as armour against hand-to-hand."""
    return max(target.sheet.armor, target.sheet.brawn if weapon.kind == "brawl" else 0)


def damage(
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    margin: int,
    why: str,
    full: bool = False,
) -> list[Event]:
    """Mechanic 2: Severity = margin + Weapon Damage - Armor; nothing if the margin is <= 0."""
    rule = "004-18" if full else "004-M2"
    if margin <= 0:
        return [Resolved(attacker.id, "attack", [target.id], f"fails ({why} = {margin})", [rule])]
    armor = armor_of(target, weapon)
    breakdown = [
        Modifier(margin, why, rule),
        Modifier(weapon.damage, f"{weapon.name} damage", "004-M2"),
        Modifier(-armor, "Brawn as armor" if armor > target.sheet.armor else "armor", "004-M2"),
    ]
    severity = sum(m.value for m in breakdown)
    hit = Resolved(attacker.id, "attack", [target.id], f"hits: Severity {max(0, severity)}", [rule])
    if severity <= 0:
        return [hit]
    events: list[Event] = [
        hit,
        Damaged(target.id, severity, weapon.name, breakdown, ["004-M2", "004-M3"]),
    ]
    after = replace(target, injuries=(*target.injuries, severity))
    if after.dead:
        events.append(ConditionSet(target.id, "dead", "Body below 0", {}, ["004-M3"]))
    elif after.incapacitated:
        events.append(ConditionSet(target.id, "incapacitated", "Body 0", {}, ["004-M3"]))
    return events


# -- the other actions --------------------------------------------------------------------


def resolve_evade(state: State, actor: Fighter, command: Evade, ctx: Context) -> list[Event]:
    events: list[Event] = []
    pool = pool_for(state, actor, "dexterity", "athletics")
    difficulty, terms = difficulty_for(
        state, actor, "athletics", state.options.evade_difficulty, list(command.modifiers)
    )
    outcome = roll_pool(
        ctx, events, state, actor, "evade", pool, difficulty, terms, ["004-14"], command.exert
    )
    events += spend_action(state, actor, "evade", ["004-14"])
    events.append(
        ConditionSet(
            actor.id,
            "evading",
            f"an Outcome of {max(0, outcome)} to share out",
            {"pool": max(0, outcome)},
            ["004-14"],
        )
    )
    return events


def decide_quick(state: State, command: Quick, ctx: Context) -> list[Event]:
    """004-3: no roll; 2 dice off the rest of this round's Action. Taken on one's turn."""
    actor = state.fighter(command.actor)
    check_turn(state, actor)
    return [
        declared_event(command, actor.id, ctx.command_id),
        Resolved(actor.id, "quick", [], command.what, ["004-3"]),
        Spent(
            actor.id,
            "dice",
            state.options.quick_action_dice,
            f"quick action: {command.what}",
            ["004-3"],
        ),
    ]


def resolve_other(state: State, actor: Fighter, command: Other, ctx: Context) -> list[Event]:
    events: list[Event] = []
    pool = pool_for(state, actor, command.attribute, command.ability, action=not command.passive)
    base = state.options.difficulty if command.difficulty is None else command.difficulty
    difficulty, terms = difficulty_for(state, actor, command.ability, base, list(command.modifiers))
    roll_pool(
        ctx, events, state, actor, command.what, pool, difficulty, terms, ["004-4"], command.exert
    )
    if not command.passive:
        events += spend_action(state, actor, command.what, ["004-1", "004-4"])
    return events


def decide_other(state: State, command: Other, ctx: Context) -> list[Event]:
    """004-4: passive awareness is rolled any time without touching the Action."""
    if not command.passive:
        return turn_action(state, command, ctx, resolve_other)
    actor = state.fighter(command.actor)
    return [
        declared_event(command, actor.id, ctx.command_id),
        *resolve_other(state, actor, command, ctx),
    ]


def resolve_hold(state: State, actor: Fighter, command: Hold, ctx: Context) -> list[Event]:
    """004-5: an action and its trigger declared; it waits until the holder's next turn."""
    if not command.trigger:
        raise BadInputError("a held action needs its trigger: --opt trigger=TEXT")
    if not command.targets:
        raise BadInputError(
            "hold an attack on a target: act A hold TARGET -w WEAPON --opt trigger=TEXT"
        )
    actor.weapon(command.weapon)
    held = msgspec.to_builtins(command)
    held["action"] = "attack"
    del held["trigger"]
    detail = {"command": held, "trigger": command.trigger, "round": state.round}
    return [
        ConditionSet(
            actor.id, "holding", f"holds an attack until {command.trigger}", detail, ["004-5"]
        )
    ]


def fire_held(state: State, holder_id: str, trigger: str, ctx: Context) -> list[Event]:
    """004-5: the GM names the trigger; firing uses the current round's Action."""
    holder = state.fighter(holder_id)
    holding = holder.conditions.get("holding")
    if holding is None:
        raise RefusedError(f"{holder.name} holds no action")
    if not state.has_action(holder):
        raise RefusedError(
            f"{holder.name} has already used this round's Action, so the held action cannot "
            "fire (004-5)"
        )
    attack = msgspec.convert(holding["command"], Attack)
    events: list[Event] = [ConditionCleared(holder.id, "holding", f"fires: {trigger}", ["004-5"])]
    return events + resolve_attack(fold(state, events), holder, attack, ctx)


def decide_fire(state: State, command: Fire, ctx: Context) -> list[Event]:
    """A held action fired on a trigger that is no combatant's action (the GM's word)."""
    holder = state.fighter(command.actor)
    trigger = command.trigger or holder.conditions.get("holding", {}).get("trigger", "")
    events: list[Event] = [
        declared_event(command, holder.id, ctx.command_id),
        *fire_held(state, holder.id, trigger, ctx),
    ]
    after = fold(state, events)
    current = after.fighters.get(after.turn) if after.turn else None
    if current is not None and not after.has_action(current):
        events += advance(after, f"{current.name} can no longer act")
    return events


def resolve_triggering_attack(
    state: State, actor: Fighter, command: Attack, ctx: Context
) -> list[Event]:
    """004-7: held actions fire before the action that triggered them, unless the trigger
    is a firearm being fired; then they fire after it."""
    weapon = actor.weapon(command.weapon)
    trigger = f"{actor.name} {'fires' if weapon.kind == 'firearm' else 'attacks'}"
    events: list[Event] = []
    if weapon.kind == "firearm":
        events += resolve_attack(state, actor, command, ctx)
    for holder in command.triggers:
        events += fire_held(fold(state, events), holder, trigger, ctx)
    if weapon.kind == "firearm":
        return events
    if fold(state, events).fighters[actor.id].incapacitated:
        stopped = Resolved(
            actor.id, "attack", command.targets, "stopped by the held action", ["004-7"]
        )
        return [*events, stopped, *spend_action(state, actor, "attack", ["004-7"])]
    return events + resolve_attack(fold(state, events), actor, command, ctx)


# -- joining, beginning, passing ----------------------------------------------------------


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    sheet = replace(sheet, abilities={k.lower(): v for k, v in sheet.abilities.items()})
    return [joined_event(command, sheet)]


def decide_begin(state: State, command: Begin, ctx: Context) -> list[Event]:
    """Initiative default: Dexterity + Perception at 6, once; ties by Dexterity, then a roll."""
    check_can_begin(state.round, state.fighters)
    events: list[Event] = []
    outcomes: dict[str, int] = {}
    for fighter in sorted(state.fighters.values(), key=lambda f: f.joined):
        pool = pool_for(state, fighter, "dexterity", "perception", action=False)
        outcomes[fighter.id] = roll_pool(
            ctx,
            events,
            state,
            fighter,
            "initiative",
            pool,
            state.options.initiative_difficulty,
            [],
            ["004-M6"],
        )
    groups: dict[tuple[int, int], list[str]] = {}
    for who, outcome in outcomes.items():
        groups.setdefault((outcome, state.fighters[who].sheet.dexterity), []).append(who)
    for who, outcome in outcomes.items():
        tiebreak = 0
        if len(groups[(outcome, state.fighters[who].sheet.dexterity)]) > 1:
            tie = tie_roll(ctx, who, f"initiative tie of {who}", ["004-M6"])
            events.append(tie)
            tiebreak = tie.roll.total
        reason = f"Outcome {outcome}" + (f", tie roll {tiebreak}" if tiebreak else "")
        events.append(InitiativeSet(who, outcome, reason, ["004-M6"], tiebreak))
    return events + advance(replace(fold(state, events), round=1), "the fight begins")


def decide_pass(state: State, command: Pass, ctx: Context) -> list[Event]:
    """The acting combatant ends the turn; the unspent Action may still react this round."""
    if state.turn is None:
        raise RefusedError(
            "the fight has not begun: `fracas begin` first"
            if not state.round
            else "nobody is left able to act in this fight"
        )
    actor = state.fighters[state.turn]
    if command.actor not in (None, actor.id):
        raise RefusedError(f"it is {actor.name}'s turn; only they can pass it")
    return advance(state, f"{actor.name} passed")


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Begin():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_pass(state, command, ctx)
        case Hold():
            return turn_action(state, command, ctx, resolve_hold)
        case Attack() if command.triggers:
            return turn_action(state, command, ctx, resolve_triggering_attack)
        case Attack():
            return turn_action(state, command, ctx, resolve_attack)
        case Evade():
            return turn_action(state, command, ctx, resolve_evade)
        case Quick():
            return decide_quick(state, command, ctx)
        case Other():
            return decide_other(state, command, ctx)
        case Fire():
            return decide_fire(state, command, ctx)
    raise BadInputError(f"the dice-pool ruleset cannot decide {type(command).__name__}")


# -- evolve: a pure, total fold -----------------------------------------------------------


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = msgspec.convert(event.sheet, Sheet)
    return roster.put(
        state, Fighter(event.combatant, event.name, event.side, sheet, len(state.fighters))
    )


def _turn(state: State, event: TurnAdvanced) -> State:
    return replace(state, round=event.round, turn=event.actor)


def _spend(fighter: Fighter, event: Spent, round_: int) -> Fighter:
    """The round's Action, an exertion, a quick action's dice, or part of an evade."""
    if event.resource == "action":
        return replace(fighter, spent_round=round_)
    if event.resource == "exertion":
        return replace(fighter, exerted_round=round_)
    if event.resource == "dice":
        count = fighter.quick_count + 1 if fighter.quick_round == round_ else 1
        return replace(fighter, quick_round=round_, quick_count=count)
    if event.resource == "evade" and fighter.has("evading"):
        left = fighter.conditions["evading"]["pool"] - event.amount
        return roster.with_condition(fighter, "evading", {"pool": left})
    return fighter


def _spent(state: State, event: Spent) -> State:
    return roster.change(state, event.combatant, lambda f: _spend(f, event, state.round))


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, injuries=(*f.injuries, event.amount))
    )


def _healed(state: State, event: Healed) -> State:
    return roster.change(state, event.target, lambda f: replace(f, injuries=eased(f, event.amount)))


def eased(fighter: Fighter, amount: int) -> tuple[int, ...]:
    """Healing by hand gives back a point of Body for each point healed (004-M3: Body lost is
    the worst Severity + one per other injury). Each point lowers the worst injury by 1, or
    every injury tied at the worst (lowering one of them would give back nothing); of
    Severity-1 injuries one is gone. An injury at 0 is gone."""
    injuries = list(fighter.injuries)
    for _ in range(amount):
        if not injuries:
            break
        worst = max(injuries)
        tied = [i for i, severity in enumerate(injuries) if severity == worst]
        for i in tied if worst > 1 else tied[:1]:
            injuries[i] -= 1
        injuries = [severity for severity in injuries if severity > 0]
    return tuple(injuries)


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: roster.initiative_set,
        TurnAdvanced: _turn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
    }
)


# -- the view the table sees --------------------------------------------------------------

SEVERITY = {1: "Minor", 2: "Moderate", 3: "Threatening", 4: "Serious", 5: "Grave", 6: "Critical"}


def status_of(state: State, fighter: Fighter) -> str:
    if fighter.dead:
        return "dead"
    if fighter.incapacitated:
        return "incapacitated"
    parts = [
        "acting"
        if state.turn == fighter.id
        else "Action left"
        if state.has_action(fighter)
        else "Action used"
    ]
    holding = fighter.conditions.get("holding")
    if holding:
        parts.append(f"holding an attack until {holding['trigger']}")
    if fighter.exerted_round == state.round and state.round:
        parts.append("exerted this round")
    return "; ".join(parts)


def conditions_of(fighter: Fighter) -> list[str]:
    shown = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "evading":
            shown.append(f"evading ({detail['pool']} left)")
        elif name == "desperate":
            shown.append(f"next Action -{detail['dice']} dice")
        elif name == "holding":
            shown.append(f"holding until {detail['trigger']}")
        elif name == "kept":
            shown.append("kept dice: " + ", ".join(f"{k} {v}" for k, v in detail["dice"].items()))
        else:
            shown.append(name)
    return shown


def view(state: State) -> View:
    order = state.order()
    initiative = [
        InitiativeRow(
            f.id, f.name, i, f"Outcome {f.initiative}", state.turn == f.id, status_of(state, f)
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [
        WoundRow(
            f.id,
            f.name,
            f.side,
            f"Body {f.body_left}/{f.body}",
            conditions_of(f),
            {
                "injuries": [f"{s} {SEVERITY.get(s, 'Critical')}" for s in f.injuries],
                "body": f.body_left,
                "penalty": -penalty(state, f),
                "action_left": state.has_action(f),
                "exerted": f.exerted_round == state.round and bool(state.round),
            },
            f.body_left,
            f.body,
            "Body",
        )
        for f in sorted(state.fighters.values(), key=lambda f: f.joined)
    ]
    notes = [
        f"{f.name} holds an attack on {', '.join(f.conditions['holding']['command']['targets'])} "
        f"until {f.conditions['holding']['trigger']}"
        for f in order
        if f.has("holding")
    ]
    phase = "setup" if not state.round else ("over" if state.turn is None else "turn")
    acting = [state.turn] if state.turn else []
    return View(state.round, phase, acting, initiative, wounds, [], notes)


def body_conditions(before: Fighter, after: Fighter) -> list[Event]:
    """004-M3: Body 0 incapacitates, below 0 kills; healed back above, they recover."""
    events: list[Event] = []
    for name, now, why in (
        ("dead", after.dead, "Body below 0"),
        ("incapacitated", after.incapacitated and not after.dead, "Body 0"),
    ):
        if now and not before.has(name):
            events.append(ConditionSet(after.id, name, why, {}, ["004-M3"]))
        elif before.has(name) and not now:
            events.append(ConditionCleared(after.id, name, f"Body {after.body_left}", ["004-M3"]))
    return events


def with_body(state: State, target: str, events: list[Event]) -> list[Event]:
    after = fold(state, events).fighters[target]
    return events + body_conditions(state.fighters[target], after)


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """An injury of Severity `amount`."""
    return with_body(state, target, gm.harmed(state, target, amount, reason))


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """`amount` points of Body given back (see `eased`)."""
    fighter = state.fighter(target)
    if not fighter.injuries:
        raise RefusedError(f"{fighter.name} has no injury to heal")
    given = min(amount, fighter.body - fighter.body_left)  # no more than Body lost
    return with_body(state, target, gm.healed(state, target, given, reason))


TRACKED = frozenset(("dead", "desperate", "evading", "holding", "incapacitated", "kept"))

# -- the table's words ----------------------------------------------------------------------

VERBS = {
    "attack": "attacks",
    "evade": "evades",
    "quick": "takes a quick action",
    "other": "acts",
    "hold": "holds",
    "fire": "fires",
}


def facts(event: Event) -> frozenset[str]:
    """Mechanic 1: an Outcome below 0 is a botch."""
    if isinstance(event, Rolled) and (event.result or "").endswith(f": {reading(-1)}"):
        return frozenset(("fumble",))
    return frozenset()


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    detail = wound.detail
    return {"Injuries": len(detail.get("injuries", [])), "Dice": detail.get("penalty", 0)}


REACTION = Choices(
    ["dodge", "parry", "clash", "none"],
    "none",
    "004-11",
    "no Reaction: the attack's Outcome stands",
)


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """004-11 to 004-19: an attack's target may React (dodge, parry, clash) with the round's
    Action, kept dice or a desperate exertion the command allows; firearms only with a Power
    (004-12). Not a target another defender parries for (004-17), nor a held action."""
    if type(command) is not Attack:
        return {}
    return offer(decide, state, command, REACTION, command.defender)


def reach(state: State, command: Any) -> Reach | None:
    """What a GM-only pool can change whatever it shows (004-4): an `other` check counts
    an Outcome and changes no one; other actions are left to fracas to try (None)."""
    return Reach() if isinstance(command, Other) else None


RULESET = Ruleset(
    reach=reach,
    name="pool",
    title="d10 dice pool (The Contract)",
    reference=toml_reference("fracas.rules", "reference.toml", "004"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=PoolCommand,
    event_type=event_union(),
    initial=initial,
    decide=decide,
    reactions=reactions,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    schema=2,
    upcasters={(ANY_KIND, 1): mechanic_ids("004")},
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    reads_rolls="faces",
    key_numbers=key_numbers,
    verbs=VERBS,
    down=frozenset(("incapacitated",)),
    out=frozenset(("dead",)),
    facts=facts,
)
