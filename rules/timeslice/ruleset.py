"""The decider and the ruleset: joining, every maneuver to its rule, the defences offered, what a
phone offers, and the entry point fracas loads."""

from collections.abc import Mapping
from typing import Any

from fracas.rules.api import (
    BadInputError,
    Choices,
    Context,
    Event,
    Join,
    Pass,
    Ruleset,
    event_union,
    joined_event,
    offer,
    toml_reference,
)

from .actions import do_aim, do_check, do_draw, do_heal, do_move, do_reload, do_stow, do_treat
from .attacks import decide_interrupt, do_attack, do_cast
from .commands import (
    ACTIONS,
    PLAYERS,
    RELOADABLE,
    Aim,
    Attack,
    Cast,
    Check,
    Draw,
    Heal,
    Interrupt,
    Move,
    Reload,
    Start,
    Stow,
    TimeSliceCommand,
    Treat,
)
from .damage import harm_by_hand, heal_by_hand
from .events import RoundStarted, StaggerChanged
from .evolve import evolve
from .joining import decide_begin, decide_pass
from .sheets import OPTION_HELP, Options, Sheet
from .state import State, check_sheet, initial
from .turn import on_turn
from .view import TRACKED, view
from .words import VERBS, key_numbers, target_outcomes


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    return [joined_event(command, sheet)]


MANEUVERS = {
    Attack: do_attack,
    Cast: do_cast,
    Move: do_move,
    Draw: do_draw,
    Stow: do_stow,
    Aim: do_aim,
    Reload: do_reload,
    Treat: do_treat,
    Heal: do_heal,
    Check: do_check,
}


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Start():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_pass(state, command, ctx)
        case Interrupt():
            return decide_interrupt(state, command, ctx)
    maneuver = MANEUVERS.get(type(command))
    if maneuver is None:
        raise BadInputError(f"the time-slice ruleset cannot decide {type(command).__name__}")
    return on_turn(state, command, ctx, maneuver)


DEFENCE = Choices(
    ["dodge", "block", "parry"],
    "dodge",
    "002-23",
    "a dodge: a [Q] roll with no other bonus",
    omit="",
)


def reaction_figures(sheet: Sheet, option: str, own: Mapping[str, Any]) -> str:
    """A defence's figures from the target's sheet (002-23): [Q], and a block's shield
    bonus or a parry's weapon bonus, the best on the sheet (the one held counts)."""
    q = f"[Q] {sheet.q}"
    shields = [w for w in sheet.weapons if w.shield]
    blades = [w for w in sheet.weapons if not w.ranged]
    if option == "block" and shields:
        best = max(shields, key=lambda w: w.shield)
        return f"{q} + {best.shield} ({best.name}, if held)"
    if option == "parry" and blades:
        best = max(blades, key=lambda w: w.parry)
        return f"{q} + {best.parry} ({best.name}, if held) - the parry penalty"
    return q if option == "dodge" else ""


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """002-23, 002-24: the target of an attack, interruption or spell rolls a dodge, a block
    (with a shield) or a parry (with a melee weapon; not while staggered). Nobody out of the
    fight: they cannot roll a defence."""
    if not isinstance(command, Attack):
        return {}
    out = [f.id for f in state.fighters.values() if f.out]
    return offer(decide, state, command, DEFENCE, out)


def offers(sheet: Sheet, field: str) -> list[str]:
    """What Tab and a phone offer for `-o spell=`: the spells on the sheet; what a phone
    offers to reload (`PlayerField.offered_as`); and what a phone shows a field with
    (`PlayerField.only_with`): the limb with a called shot at one."""
    if field == "spell":
        return [spell.name for spell in sheet.spells]
    if field == RELOADABLE:  # 002-12: a weapon that lists a reload
        return [weapon.name for weapon in sheet.weapons if weapon.reload_ts]
    return ["limb"] if field == "called at a limb" else []


RULESET = Ruleset(
    name="timeslice",
    title="time slices (Archetype)",
    reference=toml_reference("fracas.rules", "reference.toml", "002"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=TimeSliceCommand,
    event_type=event_union(RoundStarted, StaggerChanged),
    initial=initial,
    decide=decide,
    reactions=reactions,
    reaction_figures=reaction_figures,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    offers=offers,
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    reads_rolls="modified",
    key_numbers=key_numbers,
    verbs=VERBS,
    target_outcomes=target_outcomes,
    down=frozenset(("unconscious", "dying")),
    out=frozenset(("dead",)),
    field_help={
        "called": "a called shot: head, heart or limb (002-18)",
        "hp": "the hit points it heals (a spell that heals by itself heals its own)",
        "at": "the unit at whose centre the spell is cast, as the GM names it (002-25)",
        "ts": "the time slices (TS) it takes from the actor",
        "source": "what heals, as the log tells it (a potion, first aid)",
        "difficulty": "the total the roll must reach to succeed",
    },
)
