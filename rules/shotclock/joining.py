"""Beginning and passing: the first sequence, ties, and a shot let go."""

from fracas.rules.api import (
    Begin,
    Context,
    Event,
    Pass,
    RefusedError,
    Rolled,
    Spent,
    check_can_begin,
)

from .evolve import fold
from .state import Fighter, State
from .turn import advance


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
