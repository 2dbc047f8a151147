"""The other actions: evading, quick and other actions, holding and firing."""

import msgspec

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    RefusedError,
    Resolved,
    Spent,
    declared_event,
)

from .attacks import resolve_attack
from .commands import Attack, Evade, Fire, Hold, Other, Quick
from .evolve import fold
from .rolls import difficulty_for, pool_for, roll_pool
from .state import Fighter, State
from .turn import advance, check_turn, spend_action, turn_action


def resolve_evade(state: State, actor: Fighter, command: Evade, ctx: Context) -> list[Event]:
    events: list[Event] = []
    pool = pool_for(state, actor, "dexterity", "athletics")
    difficulty, terms = difficulty_for(
        state, actor, "athletics", state.options.evade_difficulty, list(command.modifiers)
    )
    outcome = roll_pool(
        ctx, events, state, actor, "evade", pool, difficulty, terms, ["004-14"], command.exert
    )
    events += spend_action(state, actor, "evade", ["004-14"])
    events.append(
        ConditionSet(
            actor.id,
            "evading",
            f"an Outcome of {max(0, outcome)} to share out",
            {"pool": max(0, outcome)},
            ["004-14"],
        )
    )
    return events


def decide_quick(state: State, command: Quick, ctx: Context) -> list[Event]:
    """004-3: no roll; 2 dice off the rest of this round's Action. Taken on one's turn."""
    actor = state.fighter(command.actor)
    check_turn(state, actor)
    return [
        declared_event(command, actor.id, ctx.command_id),
        Resolved(actor.id, "quick", [], command.what, ["004-3"]),
        Spent(
            actor.id,
            "dice",
            state.options.quick_action_dice,
            f"quick action: {command.what}",
            ["004-3"],
        ),
    ]


def resolve_other(state: State, actor: Fighter, command: Other, ctx: Context) -> list[Event]:
    events: list[Event] = []
    pool = pool_for(state, actor, command.attribute, command.ability, action=not command.passive)
    base = state.options.difficulty if command.difficulty is None else command.difficulty
    difficulty, terms = difficulty_for(state, actor, command.ability, base, list(command.modifiers))
    roll_pool(
        ctx, events, state, actor, command.what, pool, difficulty, terms, ["004-4"], command.exert
    )
    if not command.passive:
        events += spend_action(state, actor, command.what, ["004-1", "004-4"])
    return events


def decide_other(state: State, command: Other, ctx: Context) -> list[Event]:
    """004-4: passive awareness is rolled any time without touching the Action."""
    if not command.passive:
        return turn_action(state, command, ctx, resolve_other)
    actor = state.fighter(command.actor)
    return [
        declared_event(command, actor.id, ctx.command_id),
        *resolve_other(state, actor, command, ctx),
    ]


def resolve_hold(state: State, actor: Fighter, command: Hold, ctx: Context) -> list[Event]:
    """004-5: an action and its trigger declared; it waits until the holder's next turn."""
    if not command.trigger:
        raise BadInputError("a held action needs its trigger: say what it waits for (004-5)")
    if not command.targets:
        raise BadInputError(
            "hold an attack on a target: name whom it strikes, with what, and what it waits for"
        )
    actor.weapon(command.weapon)
    held = msgspec.to_builtins(command)
    held["action"] = "attack"
    del held["trigger"]
    detail = {"command": held, "trigger": command.trigger, "round": state.round}
    return [
        ConditionSet(
            actor.id, "holding", f"holds an attack until {command.trigger}", detail, ["004-5"]
        )
    ]


def fire_held(state: State, holder_id: str, trigger: str, ctx: Context) -> list[Event]:
    """004-5: the GM names the trigger; firing uses the current round's Action."""
    holder = state.fighter(holder_id)
    holding = holder.conditions.get("holding")
    if holding is None:
        raise RefusedError(f"{holder.name} holds no action")
    if not state.has_action(holder):
        raise RefusedError(
            f"{holder.name} has already used this round's Action, so the held action cannot "
            "fire (004-5)"
        )
    attack = msgspec.convert(holding["command"], Attack)
    events: list[Event] = [ConditionCleared(holder.id, "holding", f"fires: {trigger}", ["004-5"])]
    return events + resolve_attack(fold(state, events), holder, attack, ctx)


def decide_fire(state: State, command: Fire, ctx: Context) -> list[Event]:
    """A held action fired on a trigger that is no combatant's action (the GM's word)."""
    holder = state.fighter(command.actor)
    trigger = command.trigger or holder.conditions.get("holding", {}).get("trigger", "")
    events: list[Event] = [
        declared_event(command, holder.id, ctx.command_id),
        *fire_held(state, holder.id, trigger, ctx),
    ]
    after = fold(state, events)
    current = after.fighters.get(after.turn) if after.turn else None
    if current is not None and not after.has_action(current):
        events += advance(after, f"{current.name} can no longer act")
    return events


def resolve_triggering_attack(
    state: State, actor: Fighter, command: Attack, ctx: Context
) -> list[Event]:
    """004-7: held actions fire before the action that triggered them, unless the trigger
    is a firearm being fired; then they fire after it."""
    weapon = actor.weapon(command.weapon)
    trigger = f"{actor.name} {'fires' if weapon.kind == 'firearm' else 'attacks'}"
    events: list[Event] = []
    if weapon.kind == "firearm":
        events += resolve_attack(state, actor, command, ctx)
    for holder in command.triggers:
        events += fire_held(fold(state, events), holder, trigger, ctx)
    if weapon.kind == "firearm":
        return events
    if fold(state, events).fighters[actor.id].incapacitated:
        stopped = Resolved(
            actor.id, "attack", command.targets, "stopped by the held action", ["004-7"]
        )
        return [*events, stopped, *spend_action(state, actor, "attack", ["004-7"])]
    return events + resolve_attack(fold(state, events), actor, command, ctx)
