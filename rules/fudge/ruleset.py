"""The decider and the ruleset: joining, every command to its rule, what a secret roll can reach,
and the entry point fracas loads."""

from typing import Any

from fracas.rules.api import (
    ANY_KIND,
    BadInputError,
    Begin,
    Context,
    Event,
    Join,
    Pass,
    Reach,
    Ruleset,
    event_union,
    joined_event,
    mechanic_ids,
    toml_reference,
)

from .commands import ACTIONS, PLAYERS, Act, FudgeCommand
from .declarations import decide_declare
from .events import PhaseStarted, Withdrawn
from .evolve import evolve
from .joining import decide_begin
from .sheets import OPTION_HELP, Options, Sheet, check_sheet
from .state import State, initial
from .turn import decide_next
from .view import TRACKED, clock, heal_by_hand, view
from .words import VERBS, facts, headline, healed_words, key_numbers, target_outcomes


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    return [joined_event(command, sheet)]


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Begin():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_next(state, command, ctx)
        case Act():
            return decide_declare(state, command, ctx)
    raise BadInputError(f"the 4dF ruleset cannot decide {type(command).__name__}")


def offers(sheet: Sheet, field: str) -> list[str]:
    """What a phone shows a field with (`PlayerField.only_with`): a burst with the weapons
    that fire bursts (003-23)."""
    return [w.name for w in sheet.weapons if w.burst] if field == "burst weapon" else []


def reach(state: State, command: Any) -> Reach | None:
    """What a `next` that resolves a declared action can change whatever the 4dF show
    (opposed, two 4dF are 6,561 outcomes): the one resolving and the targets of the action
    (wounds, holds), and the turn, as a wounded target may no longer act (003-29, 003-33).
    Other steps are left to fracas to try (None)."""
    if not isinstance(command, Pass) or state.phase != "resolving" or not state.current:
        return None
    actor = state.fighters[state.current]
    if actor.resolved >= len(actor.declared):
        return None
    declared = actor.declared[actor.resolved]
    return Reach(frozenset([actor.id, *(declared.get("targets") or [])]), shared=True)


RULESET = Ruleset(
    reach=reach,
    reads_totals=True,  # 4dF is read by its total: the ladder, the margin, +4 and -4
    name="fudge",
    title="4dF outcomes, declare low, resolve high (The Contract, early)",
    reference=toml_reference("fracas.rules", "reference.toml", "003"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=FudgeCommand,
    event_type=event_union(PhaseStarted, Withdrawn),
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    offers=offers,
    schema=2,
    upcasters={(ANY_KIND, 1): mechanic_ids("003")},
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    heal_by_hand=heal_by_hand,
    clock=clock,
    reads_rolls="modified",
    round_word="Turn",
    headline=headline,
    key_numbers=key_numbers,
    verbs=VERBS,
    healed_words=healed_words,
    target_outcomes=target_outcomes,
    told=frozenset(("pinned",)),
    # a wound level that takes every action (Incapacitated, Dead) shows as "no actions"
    down=frozenset(("no actions",)),
    confines={"pinned": frozenset(("break",))},  # 003-25
    facts=facts,
    # What the GM reads beside each field in `fracas actions` (a player's have their own).
    field_help={
        "cover": "how much of the target is behind cover, 1 to 3 off the roll; more (a firing "
        "port) stops the attack without special measures (003-9)",
        "concealment": "concealment of a target the attacker can pinpoint: 0 or 1 off the roll "
        "(003-10)",
        "from_cover": "the attacker fires from behind cover: 1 off the roll (003-12)",
        "from_concealment": "the attacker's concealment blocks their view: 1 off the roll (003-12)",
        "cover_armor": "cover the attack shoots through, counted as armour (003-13)",
        "flank": "the side the attack comes from: a shield guards the front and its own arm's "
        "side (003-19)",
        "close": "at close range: +1 with buckshot (003-23)",
        "resist": "the skill each target resists with, as TARGET = physique or unarmed combat; "
        "none: their better",
        "difficulty": "the total the roll must reach to succeed",
    },
)
