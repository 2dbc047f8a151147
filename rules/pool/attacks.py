"""Attacks, splits, reactions and damage."""

from msgspec.structs import replace

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Context,
    Damaged,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    Spent,
)

from .commands import Attack
from .evolve import fold
from .rolls import Pool, difficulty_for, pool_for, roll_pool
from .sheets import FISTS, Options, Weapon
from .state import Fighter, State
from .turn import exertion, spend_action


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
        raise BadInputError(
            "attack needs a target: act A attack TARGET -w WEAPON",
            player="attack needs a target: tap one first",
        )
    weapon = actor.weapon(command.weapon)
    shares = split_shares(state, actor, command, weapon)
    events: list[Event] = []
    if len(shares) > 1 or command.keep:
        detail = ", ".join(
            f"{dice} dice at {state.fighter(t).name}"
            for t, dice in zip(command.targets, shares, strict=True)
        )
        events.append(
            Resolved(actor.id, "split", command.targets, "splits the pool", ["004-8"], detail)
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
        return [Resolved(attacker.id, "attack", [target.id], "fails", [rule], f"{why} = {margin}")]
    armor = armor_of(target, weapon)
    breakdown = [
        Modifier(margin, why, rule),
        Modifier(weapon.damage, f"{weapon.name} damage", "004-M2"),
        Modifier(-armor, "Brawn as armor" if armor > target.sheet.armor else "armor", "004-M2"),
    ]
    severity = sum(m.value for m in breakdown)
    figures = f"Severity {max(0, severity)}"
    if severity <= 0:  # armour took it all: the hit says so, not a bare "hits" (issue 37)
        return [Resolved(attacker.id, "attack", [target.id], "hits, no harm", [rule], figures)]
    hit = Resolved(attacker.id, "attack", [target.id], "hits", [rule], figures)
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
