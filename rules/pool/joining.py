"""Beginning and passing: the fight's first round, and a turn let go."""

from msgspec.structs import replace

from fracas.rules.api import (
    Begin,
    Context,
    Event,
    InitiativeSet,
    Pass,
    RefusedError,
    check_can_begin,
    tie_roll,
)

from .evolve import fold
from .rolls import pool_for, roll_pool
from .state import State
from .turn import advance


def decide_begin(state: State, command: Begin, ctx: Context) -> list[Event]:
    """Initiative default: Dexterity + Perception at 6, once; ties by Dexterity, then a roll."""
    check_can_begin(state.round, state.fighters)
    events: list[Event] = []
    outcomes: dict[str, int] = {}
    for fighter in sorted(state.fighters.values(), key=lambda f: f.joined):
        if fighter.incapacitated:  # down before the fight (a party member carried in so)
            outcomes[fighter.id] = 0  # no roll: a rolled action would fail (004-3)
            continue
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
            tie = tie_roll(ctx, who, "initiative tie", ["004-M6"])
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
