"""The decider and the ruleset: joining, the defences offered, what a secret roll can reach,
every command to its rule, and the entry point fracas loads."""

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace

from fracas.rules.api import (
    ANY_KIND,
    BadInputError,
    Begin,
    Choices,
    Context,
    Event,
    Join,
    Pass,
    Reach,
    Ruleset,
    event_union,
    joined_event,
    mechanic_ids,
    offer,
    toml_reference,
)

from .actions import decide_continuous, resolve_other, resolve_run
from .attacks import harm_by_hand, heal_by_hand, resolve_attack
from .commands import ACTIONS, PLAYERS, Attack, Continuous, Other, Run, ShotCommand, Stop
from .events import ShotReached
from .evolve import evolve, fold
from .joining import decide_begin, decide_pass
from .sheets import OPTION_HELP, Options, Sheet
from .state import State, check_sheet, initial
from .turn import act, advance
from .view import TRACKED, clock, view
from .words import VERBS, headline, healed_words, key_numbers


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    sheet = replace(sheet, skills={k.lower(): v for k, v in sheet.skills.items()})
    joined = [joined_event(command, sheet)]
    if state.sequence and not state.on_shot(state.shot):  # nobody was left: 001-9 goes on
        return joined + advance(fold(state, joined), ctx)
    return joined


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Begin():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_pass(state, command, ctx)
        case Continuous() | Stop():
            return decide_continuous(state, command)
        case Attack():
            weapon = state.fighter(command.actor).weapon(command.weapon)
            return act(state, command, ctx, weapon.shots, resolve_attack)
        case Run():
            return act(state, command, ctx, 3, resolve_run)
        case Other():
            if command.shots < 1:
                raise BadInputError("an action costs at least 1 shot: --opt shots=N")
            return act(state, command, ctx, command.shots, resolve_other)
    raise BadInputError(f"the shot-clock ruleset cannot decide {type(command).__name__}")


ACTIVE_DEFENCE = Choices(
    ["passive", "dodge", "parry"],
    "passive",
    "001-M3",
    "the passive dodge: the Dodge AV, spending no shots",
    omit="passive",
)


def reaction_figures(sheet: Sheet, option: str, own: Mapping[str, Any]) -> str:
    """A defence's figures from the target's sheet (mechanic 3, 001-12): the Dodge AV it
    keeps, or the active dodge's or the parry's, each of which spends a shot."""
    if option == "passive":
        return f"Dodge AV {sheet.dodge}, no shot spent"
    if option == "dodge":
        return f"Dodge AV {sheet.dodge} + the active bonus; spends a shot"
    if option == "parry":
        return f"{sheet.parry.title()} AV {sheet.av(sheet.parry)}; spends a shot"
    return ""


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """Mechanic 3, 001-12: an attack's target keeps the passive dodge, or dodges actively or
    parries off-turn for a shot while their next shot is above 0; not when unaware."""
    if not isinstance(command, Attack):
        return {}
    return offer(decide, state, command, ACTIVE_DEFENCE, command.unaware)


def reach(state: State, command: Any) -> Reach | None:
    """What an attack's open roll can change whatever it shows (001-M3, 001-M4): the
    attacker and the target (wound points, impairment, a death check that may take them
    out, so the shot clock too), and everyone when no one else has a shot left, as the
    sequence that may begin then rolls everyone's initiative (001-9); other actions are
    left to fracas to try (None)."""
    if not isinstance(command, Attack):
        return None
    named = {command.actor, *command.targets}
    others = [f for f in state.fighters.values() if f.id not in named and not f.out]
    if not any(f.next_shot > 0 for f in others):
        named |= set(state.fighters)
    return Reach(frozenset(named), shared=True)


RULESET = Ruleset(
    reach=reach,
    name="shotclock",
    title="Shot clock (Feng Shui)",
    reference=toml_reference("fracas.rules", "reference.toml", "001"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=ShotCommand,
    event_type=event_union(ShotReached),
    initial=initial,
    decide=decide,
    reactions=reactions,
    reaction_figures=reaction_figures,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    schema=2,
    upcasters={(ANY_KIND, 1): mechanic_ids("001")},
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    moved_on=advance,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    clock=clock,
    reads_rolls="modified",
    round_word="Sequence",
    headline=headline,
    key_numbers=key_numbers,
    verbs=VERBS,
    healed_words=healed_words,
    told=frozenset(("impaired",)),
    down=frozenset(),
    out=frozenset(("dead", "out")),
    round_events={"turn.advanced": "round", "shot.reached": "sequence"},
)
