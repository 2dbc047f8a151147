"""The other actions."""

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Context,
    EquipmentChanged,
    Event,
    RefusedError,
    Resolved,
)

from .attacks import resolve_attack, resolve_disarm, resolve_escape, resolve_pin
from .commands import Aim, Attack, Disarm, Escape, Move, Other, Pin, Ready, Stand, Wait
from .rolls import roll_test
from .state import Fighter, State


def resolve_aim(state: State, actor: Fighter, command: Aim, ctx: Context) -> list[Event]:
    return [
        Resolved(actor.id, "aim", [], "aims: +20% to next turn's attack", ["000-6"]),
        ConditionSet(actor.id, "aiming", "aimed", {"round": state.round}, ["000-6"]),
    ]


def resolve_move(state: State, actor: Fighter, command: Move, ctx: Context) -> list[Event]:
    metres = {"jog": 10, "run": 20, "sprint": 30}[command.pace]
    events: list[Event] = [
        Resolved(actor.id, "move", [], f"{command.pace}s up to {metres} m", ["000-18"])
    ]
    if command.footing:
        if command.pace == "jog":
            raise BadInputError("a footing test is only called when running or sprinting (000-19)")
        test = roll_test(
            ctx,
            events,
            actor,
            "dexx5",
            "footing",
            list(command.modifiers),
            state.options,
            ["000-19"],
        )
        if not test.success:
            events.append(ConditionSet(actor.id, "prone", "lost footing", {}, ["000-19"]))
            events.append(
                ConditionCleared(actor.id, "cover", "fell short of cover", ["000-20"])
                if actor.has("cover")
                else Resolved(actor.id, "move", [], "falls prone", ["000-19"])
            )
            return events
    if command.cover is not None:
        events.append(
            ConditionSet(actor.id, "cover", "behind cover", {"armor": command.cover}, ["000-20"])
        )
    elif actor.has("cover"):
        events.append(ConditionCleared(actor.id, "cover", "left cover", ["000-20"]))
    return events


def resolve_wait(state: State, actor: Fighter, command: Wait, ctx: Context) -> list[Event]:
    if state.turn != actor.id:
        raise RefusedError(f"{actor.name} can only choose to wait on their own turn (000-25)")
    return [ConditionSet(actor.id, "waiting", "waits", {"round": state.round}, ["000-25"])]


def resolve_stand(state: State, actor: Fighter, command: Stand, ctx: Context) -> list[Event]:
    if not actor.has("prone"):
        raise RefusedError(f"{actor.name} is not prone")
    return [
        Resolved(actor.id, "stand", [], "stands up", ["000-19", "000-26"]),
        ConditionCleared(actor.id, "prone", "stood up", ["000-19", "000-26"]),
    ]


def resolve_ready(state: State, actor: Fighter, command: Ready, ctx: Context) -> list[Event]:
    if not command.item:
        raise BadInputError("ready needs --item NAME")
    if command.item in actor.holding:
        raise RefusedError(f"{actor.name} already holds the {command.item}")
    return [
        Resolved(actor.id, "ready", [], f"readies the {command.item}", ["000-26"]),
        EquipmentChanged(actor.id, [*actor.holding, command.item], "readied", ["000-26"]),
    ]


def resolve_other(state: State, actor: Fighter, command: Other, ctx: Context) -> list[Event]:
    events: list[Event] = []
    if command.test:
        test = roll_test(
            ctx,
            events,
            actor,
            command.test.replace("×", "x"),
            command.what,
            list(command.modifiers),
            state.options,
            ["000-26"],
        )
        outcome = f"{command.what}: {test.result}"
    else:
        outcome = command.what
    events.append(Resolved(actor.id, "other", [], outcome, ["000-26"]))
    return events


RESOLVERS = {
    Attack: resolve_attack,
    Aim: resolve_aim,
    Disarm: resolve_disarm,
    Pin: resolve_pin,
    Escape: resolve_escape,
    Move: resolve_move,
    Wait: resolve_wait,
    Stand: resolve_stand,
    Ready: resolve_ready,
    Other: resolve_other,
}
