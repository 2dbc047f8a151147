"""The turn (003-29): initiative, the phases of declaring and resolving, and whose move it is."""

import msgspec

from fracas.rules.api import (
    ConditionCleared,
    Context,
    Event,
    InitiativeSet,
    Pass,
    RefusedError,
    Resolved,
    Spent,
    TurnAdvanced,
    tie_roll,
)

from .actions import RESOLVERS
from .attacks import damage, garrote_weapon
from .commands import FudgeCommand
from .declarations import grapple_bars
from .events import PhaseStarted
from .evolve import fold
from .rolls import check, rolled
from .state import State


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
            tie = tie_roll(ctx, who, "initiative tie", ["003-29"])
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
                "cannot act",
                ["003-33"],
                mid.wound(actor).name,
            )
        )
    else:
        events += RESOLVERS[type(command)](mid, mid.fighters[actor.id], command, ctx)
        aiming = actor.conditions.get("aiming")
        if aiming and declared["action"] not in ("aim", "attack", "draw"):
            events.append(ConditionCleared(actor.id, "aiming", "did something else", ["003-8"]))
    return events + point_to_next(fold(state, events))
