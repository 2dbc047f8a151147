"""Beginning and passing: the first turn, and a turn let go."""

from fracas.rules.api import (
    Begin,
    Context,
    Event,
    InitiativeSet,
    Pass,
    RefusedError,
    Spent,
    check_can_begin,
    tie_roll,
)

from .evolve import fold
from .state import Fighter, State
from .turn import advance


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
