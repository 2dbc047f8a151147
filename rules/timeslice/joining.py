"""Beginning and passing: the first round, a surprise round, and a turn let go."""

from msgspec.structs import replace

from fracas.rules.api import (
    BadInputError,
    Context,
    Event,
    InitiativeSet,
    Pass,
    RefusedError,
    check_can_begin,
    tie_roll,
)

from .commands import Start
from .evolve import fold
from .rolls import rolled, stat_roll
from .state import State
from .turn import advance, start_round


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
            tie = tie_roll(ctx, who, "initiative tie", ["002-4"])
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
