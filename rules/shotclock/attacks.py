"""Attacks, defences and damage (mechanics 3 to 5)."""

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
    gm,
)

from .commands import Attack
from .rolls import check
from .sheets import Weapon
from .state import Fighter, State
from .turn import surcharge


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
        raise BadInputError(
            "attack exactly one target: act A attack TARGET --weapon W",
            player="an attack takes one target: tap one",
        )
    target = state.fighter(command.targets[0])
    if target.id == actor.id:
        raise RefusedError(f"{actor.name} cannot attack themselves")
    if target.out:
        raise RefusedError(
            f"{target.name} is already out of the fight: pick another target, or if that was "
            "a mistake, `fracas undo` the step that took them out"
        )
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
    hit = Resolved(actor.id, "attack", [target.id], "hits", ["001-M3"], f"outcome {outcome}")
    events.append(hit)
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
