"""The round: initiative, Time Slices refilled and spent, turns and interruptions."""

from fracas.rules.api import (
    ConditionCleared,
    Context,
    Event,
    RefusedError,
    Resolved,
    Spent,
    TurnAdvanced,
    declared_event,
)

from .commands import Act
from .damage import death
from .events import RoundStarted, StaggerChanged
from .evolve import fold
from .state import Fighter, State


def can_take_turn(fighter: Fighter) -> bool:
    return not fighter.out


def advance(state: State, reason: str) -> list[Event]:
    """The next combatant in order takes their turn; after the last, a new round (002-3)."""
    order = state.order()
    ids = [f.id for f in order]
    start = ids.index(state.turn) + 1 if state.turn in ids else 0
    events: list[Event] = []
    for fighter in order[start:]:
        if not can_take_turn(fighter):
            continue
        events += turn_begins(state, fighter)
        if fold(state, events).fighters[fighter.id].ts > 0:
            return [*events, TurnAdvanced(state.round, fighter.id, reason, ["002-1"])]
        events.append(
            Resolved(fighter.id, "turn", [], "no TS to spend: the turn passes", ["002-3"])
        )
    after = fold(state, events)
    if not any(can_take_turn(f) for f in after.fighters.values()):
        return [*events, TurnAdvanced(state.round, None, "nobody is left able to act", ["002-3"])]
    return events + start_round(after, state.round + 1, set(), f"round {state.round} is over")


def turn_begins(state: State, fighter: Fighter) -> list[Event]:
    """002-24: stagger ends, and its points return to 0, when the creature's next turn starts."""
    if fighter.has("staggered") or (state.options.stagger_resets_each_turn and fighter.stagger):
        return [
            StaggerChanged(fighter.id, 0, "their turn starts", ["002-24"]),
            *(
                [ConditionCleared(fighter.id, "staggered", "their turn starts", ["002-24"])]
                if fighter.has("staggered")
                else []
            ),
        ]
    return []


def start_round(state: State, number: int, denied: set[str], reason: str) -> list[Event]:
    """002-2: TS back to the maximum (002-22: not for who failed a surprise roll); game time
    moves on, and a dying timer that runs out kills (002-21)."""
    clock = state.clock + (state.options.seconds_per_round if number > 1 else 0)
    events: list[Event] = []
    for fighter in state.order():
        dying = fighter.conditions.get("dying")
        if dying and dying["deadline"] <= clock and not fighter.has("dead"):
            events += death(fighter, "the dying timer ran out", ["002-21"])
    after = fold(state, events)
    refills = {
        f.id: 0 if f.id in denied else after.ts_max(f) for f in after.order() if can_take_turn(f)
    }
    events.append(RoundStarted(number, clock, refills, reason, ["002-2"]))
    after = fold(after, events[-1:])
    if not any(refills.values()) and not denied:
        return [*events, TurnAdvanced(number, None, "nobody has TS to spend", ["002-2"])]
    return events + advance(after, f"round {number} begins")


def check_turn(state: State, actor: Fighter) -> None:
    if state.round == 0:
        raise RefusedError("the fight has not begun: `fracas begin` first")
    check_able(actor)
    if state.turn != actor.id:
        current = state.fighters[state.turn].name if state.turn else "nobody"
        raise RefusedError(
            f"it is {current}'s turn, not {actor.name}'s (002-1); off-turn, only an interrupt "
            "may be made (002-7)"
        )


def check_able(actor: Fighter) -> None:
    if actor.has("dead"):
        raise RefusedError(
            f"{actor.name} is dead and cannot act: act with another combatant, or if the "
            "death was a mistake, `fracas undo` the step that killed them"
        )
    if actor.has("unconscious"):
        raise RefusedError(f"{actor.name} is unconscious and cannot act (002-20)")


def spend(actor: Fighter, amount: int, why: str, rules: list[str]) -> Spent:
    """002-1: TS are spent the moment a maneuver is made, and there must be enough."""
    if amount > actor.ts:
        raise RefusedError(
            f"{actor.name} has {actor.ts} TS left; {why} costs {amount} ({rules[0]})"
        )
    return Spent(actor.id, "ts", amount, why, rules)


def on_turn(state: State, command: Act, ctx: Context, maneuver) -> list[Event]:
    """Frame of a maneuver on one's turn: check, declare, resolve; the turn passes at 0 TS."""
    actor = state.fighter(command.actor)
    check_turn(state, actor)
    events: list[Event] = [declared_event(command, actor.id, ctx.command_id)]
    events += maneuver(fold(state, events), actor, command, ctx)
    return events + pass_if_spent(fold(state, events))


def pass_if_spent(state: State) -> list[Event]:
    """The acting combatant with no TS left (spent, staggered, down) ends their turn."""
    current = state.fighters.get(state.turn) if state.turn else None
    if current is None or (current.ts > 0 and can_take_turn(current)):
        return []
    return advance(state, f"{current.name} has no TS left")
