"""The turn: the DEX countdown, whose turn it is, and what a turn spends."""

from msgspec.structs import replace

from fracas.rules.api import (
    ConditionCleared,
    Context,
    Event,
    Pass,
    RefusedError,
    Spent,
    TurnAdvanced,
    declared_event,
)

from .commands import Act, Aim, Attack, Escape, Stand, Wait
from .evolve import fold
from .state import Fighter, State


def waiting_is_live(state: State, fighter: Fighter) -> bool:
    """000-25: a waited action may cut in any time before the waiter's next turn."""
    waiting = fighter.conditions.get("waiting")
    if waiting is None or fighter.out or state.turn == fighter.id:
        return False
    return waiting["round"] == state.round or (
        waiting["round"] == state.round - 1 and fighter.acted_round < state.round
    )


def aim_is_live(state: State, fighter: Fighter) -> bool:
    """000-6, 000-7: the bonus is for the attack on the turn after aiming, not later; an
    action waited in that turn is still that turn's action, even when it cuts in later."""
    aiming = fighter.conditions.get("aiming")
    if aiming is None:
        return False
    if aiming["round"] == state.round - 1:
        return True
    waiting = fighter.conditions.get("waiting")
    return bool(
        waiting and waiting["round"] == aiming["round"] + 1 and waiting_is_live(state, fighter)
    )


def still_acts_this_round(state: State, fighter: Fighter) -> bool:
    """Out of the fight, unless taken out by someone of the same DEX this round (000-3)."""
    if (
        fighter.acted_round >= state.round
        or fighter.conditions.get("forfeit", {}).get("round") == state.round
    ):
        return False
    if not fighter.out:
        return True
    if state.options.dex_ties != "simultaneous":
        return False
    taken_out = fighter.conditions.get("dead") or fighter.conditions.get("unconscious") or {}
    return taken_out.get("round") == state.round and taken_out.get("slot_dex") == fighter.sheet.dex


def advance(state: State, reason: str) -> list[Event]:
    """Give the turn to the next in DEX order who can act; after the last, a new round."""
    order = state.order()
    for fighter in order:
        if still_acts_this_round(state, fighter):
            return [TurnAdvanced(state.round, fighter.id, reason, ["000-1", "000-2"])]
    next_round = replace(state, round=state.round + 1)
    for fighter in order:
        if still_acts_this_round(next_round, fighter):
            return [
                TurnAdvanced(next_round.round, fighter.id, "a new turn begins", ["000-1", "000-2"])
            ]
    return [TurnAdvanced(next_round.round, None, "nobody is left able to act", ["000-1"])]


def check_can_act(state: State, actor: Fighter, command: Act) -> bool:
    """Whose turn it is (000-1, 000-2), or a live waiter cutting in (000-25). True if waited."""
    if state.round == 0:
        raise RefusedError("the fight has not begun: `fracas begin` first")
    if actor.out and not still_acts_this_round(state, actor):
        raise RefusedError(
            f"{actor.name} is out of the fight and cannot act: act with another combatant, or "
            "if that was a mistake, `fracas undo` the step that took them out"
        )
    if state.turn != actor.id:
        if waiting_is_live(state, actor):
            return True
        current = state.fighters[state.turn].name if state.turn else "nobody"
        if actor.acted_round >= state.round:
            raise RefusedError(
                f"{actor.name} has already used this turn's action (000-1); it is {current}'s turn"
            )
        raise RefusedError(
            f"it is {current}'s turn, not {actor.name}'s (000-2); act in DEX order or wait (000-25)"
        )
    if actor.has("pinned") and not isinstance(command, Escape):
        raise RefusedError(
            f"{actor.name} is pinned: a pinned combatant may only try to escape (000-24)"
        )
    if actor.has("prone") and not isinstance(command, Stand | Pass):
        raise RefusedError(
            f"{actor.name} is prone and must spend the turn standing up first (000-19): act stand"
        )
    return False


def end_of_action(state: State, actor: Fighter, waited: bool, label: str) -> list[Event]:
    """The action is spent (000-1); a waited action leaves the current turn where it was."""
    events: list[Event] = []
    if waited:
        events.append(ConditionCleared(actor.id, "waiting", "acted after waiting", ["000-25"]))
    else:
        events.append(Spent(actor.id, "action", 1, label, ["000-1"]))
        if actor.has("waiting"):
            events.append(ConditionCleared(actor.id, "waiting", "their own turn came", ["000-25"]))
    if actor.has("defending") and actor.conditions["defending"].get("kind") == "escape":
        events.append(ConditionCleared(actor.id, "defending", "next action taken", ["000-15"]))
    return events


def act(state: State, command: Act, ctx: Context, resolve) -> list[Event]:
    """Frame of every action: check, declare, resolve, spend the action, pass the turn."""
    actor = state.fighter(command.actor)
    waited = check_can_act(state, actor, command)
    events: list[Event] = [declared_event(command, actor.id, ctx.command_id)]
    keeps_aim = Attack | Aim | Wait if state.options.wait_keeps_aim else Attack | Aim
    if actor.has("aiming") and not isinstance(command, keeps_aim):
        events.append(ConditionCleared(actor.id, "aiming", "did something else", ["000-7"]))
    events += resolve(state, actor, command, ctx)
    resolved = fold(state, events)
    ending = end_of_action(resolved, actor, waited, command.__struct_config__.tag)
    events += ending
    after = fold(resolved, ending)
    holder = after.fighters.get(after.turn) if after.turn else None
    if holder is None or not still_acts_this_round(after, holder):
        events += advance(after, f"{actor.name} acted")
    return events
