"""Beginning: the first turn's initiative."""

from fracas.rules.api import Begin, Context, Event, check_can_begin

from .state import State
from .turn import start_turn


def decide_begin(state: State, command: Begin, ctx: Context) -> list[Event]:
    check_can_begin(state.phase != "setup", state.fighters)
    return start_turn(state, ctx)
