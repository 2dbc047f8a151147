"""The other actions."""

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    Modifier,
    RefusedError,
    Resolved,
)

from .commands import Continuous, Other, Run, Stop
from .state import Fighter, State


def resolve_run(
    state: State, actor: Fighter, command: Run, ctx: Context, penalties: list[Modifier]
) -> list[Event]:
    return [Resolved(actor.id, "run", [], f"runs {command.metres} m", ["001-7"])]


def resolve_other(
    state: State, actor: Fighter, command: Other, ctx: Context, penalties: list[Modifier]
) -> list[Event]:
    rules = ["001-8"] if command.shots == 1 else ["001-6"] if command.shots <= 3 else ["001-17"]
    return [Resolved(actor.id, "other", [], command.what, rules)]


def decide_continuous(state: State, command: Continuous | Stop) -> list[Event]:
    """001-16: started and stopped at any time; no shot cost of its own."""
    actor = state.fighter(command.actor)
    if actor.out:
        raise RefusedError(
            f"{actor.name} is out of the fight: act with another combatant, or if that was a "
            "mistake, `fracas undo` the step that took them out"
        )
    if not command.what:
        raise BadInputError("name the continuous action: --opt what=TEXT")
    name = f"continuous:{command.what}"
    if isinstance(command, Continuous):
        if actor.has(name):
            raise RefusedError(f"{actor.name} is already {command.what}")
        reason = "started: +1 shot to every other action"
        return [ConditionSet(actor.id, name, reason, {"what": command.what}, ["001-16"])]
    if not actor.has(name):
        known = ", ".join(actor.continuous) or "none"
        raise RefusedError(f"{actor.name} is not {command.what}; continuous actions: {known}")
    return [ConditionCleared(actor.id, name, "stopped", ["001-16"])]
