"""The round: whose turn it is, the one Action a round, and exertion."""

from msgspec.structs import replace

from fracas.rules.api import (
    ConditionCleared,
    Context,
    Damaged,
    Event,
    Modifier,
    RefusedError,
    Spent,
    TurnAdvanced,
    declared_event,
)

from .commands import Act
from .evolve import fold
from .state import Fighter, State


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
