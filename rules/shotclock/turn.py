"""The clock: initiative, the shots counted down, and the shots each action spends."""

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    InitiativeSet,
    Modifier,
    RefusedError,
    Resolved,
    Rolled,
    Spent,
    declared_event,
)

from .commands import Act, Run
from .events import ShotReached
from .evolve import evolve, fold
from .state import Fighter, State


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
        raise RefusedError(
            f"{actor.name} is out of the fight and cannot act: act with another combatant, or "
            "if that was a mistake, `fracas undo` the step that took them out"
        )
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
    quicker = f"{command.snapshot} shot{'s' if command.snapshot != 1 else ''} quicker"
    return cost - command.snapshot, [Modifier(penalty, f"snapshot, {quicker}", "001-14")]


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
                    "the excess is not carried over",
                    ["001-10"],
                    f"{cost} shots on shot {shot}",
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
