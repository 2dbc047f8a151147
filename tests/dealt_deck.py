"""A ruleset written from outside, against fracas.rules.api alone, that deals initiative anew
every round: each standing fighter is dealt a card of 52 (none twice in a round), the highest
acts first; a flip of a coin at someone takes a hit point off on heads. The players' page of
such a fight must follow a hidden combatant's turns as the GM's hand (issue 38)."""

from typing import Any

from msgspec import Struct
from msgspec.structs import replace

from fracas.rules.api import (
    BadInputError,
    Begin,
    CombatantJoined,
    Command,
    ConditionSet,
    Context,
    Damaged,
    EncounterStarted,
    Event,
    Healed,
    InitiativeRow,
    Join,
    Pass,
    Reference,
    RefusedError,
    Rolled,
    Ruleset,
    Source,
    Statement,
    TurnAdvanced,
    View,
    WoundRow,
    check_can_begin,
    event_union,
    gm,
    joined_event,
    roster,
)  # fmt: skip

DEAL = "deal"


class Sheet(Struct, frozen=True, forbid_unknown_fields=True):
    hp: int = 3


class Options(Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Fighter(Struct, frozen=True):
    id: str
    name: str
    side: str
    hp: int
    card: int = 0
    conditions: dict[str, dict[str, Any]] = {}


class State(Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    acting: str | None = None


class Flip(Command, tag="flip"):
    actor: str
    targets: list[str] = []


def standing(state: State) -> list[Fighter]:
    return [f for f in state.fighters.values() if not {"down", gm.REMOVED} & set(f.conditions)]


def order(state: State) -> list[str]:
    """deck-1: this round's order, the highest card first."""
    return [f.id for f in sorted(standing(state), key=lambda f: -f.card)]


def deal(state: State, ctx: Context, why: str) -> list[Event]:
    """deck-1: a new round: every standing fighter is dealt a card, then the highest acts."""
    events: list[Event] = []
    for fighter in standing(state):
        roll = ctx.dice.roll("d52", DEAL)
        events.append(Rolled(fighter.id, DEAL, roll, None, [], f"card {roll.total}", ["deck-1"]))
    dealt = roster.fold(evolve, state, events)
    first = order(dealt)
    actor = first[0] if first else None
    return events + [TurnAdvanced(state.round + 1, actor, why, ["deck-1"])]


def next_turn(state: State, ctx: Context, why: str) -> list[Event]:
    now = order(state)
    later = now[now.index(state.acting) + 1 :] if state.acting in now else []
    if not later:
        return deal(state, ctx, why)
    return [TurnAdvanced(state.round, later[0], why, ["deck-1"])]


def flip(state: State, command: Flip, ctx: Context) -> list[Event]:
    """deck-2: heads takes a hit point off the target; at 0 they are down."""
    if command.actor != state.acting:
        raise RefusedError(f"it is {state.acting}'s turn, not {command.actor}'s (deck-1)")
    if len(command.targets) != 1:
        raise BadInputError("flip a coin at one target, as in: fracas act ann flip bo")
    target = roster.find(state.fighters, command.targets[0])
    roll = ctx.dice.roll("d2", "flip")
    said = "heads" if roll.total >= 2 else "tails"
    events: list[Event] = [Rolled(command.actor, "flip", roll, 2, [], said, ["deck-2"])]
    if said == "heads":
        events.append(Damaged(target.id, 1, command.actor, [], ["deck-2"]))
        if target.hp <= 1 and "down" not in target.conditions:
            events.append(ConditionSet(target.id, "down", "no hit points left", {}, ["deck-2"]))
    return events + next_turn(roster.fold(evolve, state, events), ctx, "the coin has spoken")


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return [joined_event(command, RULESET.newcomer(command, state.fighters))]
        case Begin():
            check_can_begin(state.round > 0, state.fighters)
            return deal(state, ctx, "the cards are dealt")
        case Pass() | Flip() if state.acting is None:
            raise RefusedError("nobody is to act: `fracas begin` first")
        case Pass():
            return next_turn(state, ctx, "passes")
        case Flip():
            return flip(state, command, ctx)
    raise BadInputError(f"the dealt duel has no {type(command).__name__}")


def hp(state: State, target: str, by: int) -> State:
    return roster.change(state, target, lambda f: replace(f, hp=f.hp + by))


def joined(state: State, e: CombatantJoined) -> State:
    return roster.put(state, Fighter(e.combatant, e.name, e.side, e.sheet["hp"]))


def rolled(state: State, e: Rolled) -> State:
    if e.purpose != DEAL:
        return state
    return roster.change(state, e.actor, lambda f: replace(f, card=e.roll.total))


evolve = roster.dispatch({
    EncounterStarted: roster.options_evolver(Options),
    CombatantJoined: joined,
    Rolled: rolled,
    Damaged: lambda s, e: hp(s, e.target, -e.amount),
    Healed: lambda s, e: hp(s, e.target, e.amount),
    TurnAdvanced: lambda s, e: replace(s, round=e.round, acting=e.actor),
    **roster.CORE_EVOLVERS,
})  # fmt: skip


def view(state: State) -> View:
    ranked = order(state) + [f for f in state.fighters if f not in order(state)]
    fighters = [state.fighters[f] for f in ranked]
    rows = [
        InitiativeRow(f.id, f.name, n, f"card {f.card}", f.id == state.acting)
        for n, f in enumerate(fighters, 1)
    ]
    health = [
        WoundRow(f.id, f.name, f.side, f"HP {f.hp}", sorted(f.conditions), current=f.hp, unit="HP")
        for f in state.fighters.values()
    ]
    phase = f"round {state.round}" if state.round else "setup"
    return View(state.round, phase, [state.acting] if state.acting else [], rows, health, [])


def cards_left(state: State, purpose: str, drawn: Any) -> list[int]:
    """deck-1: the cards the kit may deal: none twice in a round."""
    return [card for card in range(1, 53) if card not in drawn] if purpose == DEAL else []


RULESET = Ruleset(
    name="deck", title="Dealt duel", options_type=Options, sheet_type=Sheet,
    command_type=Join | Begin | Pass | Flip, event_type=event_union(),
    initial=State, decide=decide, evolve=evolve, view=gm.table_view(view),
    actions={"flip": "flip a coin at a target: heads takes a hit point off (deck-2)"},
    verbs={"flip": "flips a coin at"}, conditions=frozenset({"down"}), down=frozenset({"down"}),
    legal_faces=cards_left,
    reference=Reference(
        prefix="deck",
        source=Source("The Dealt Duel", "a test of fracas: initiative dealt every round"),
        rules={
            "deck-1": Statement(
                "Each round every standing fighter is dealt a card; the highest acts first.",
                "Turns",
            ),
            "deck-2": Statement(
                "Heads takes a hit point off the target; at 0 they are down.", "Flips"
            ),
        },
        attribution="The Dealt Duel is dedicated to the public domain (CC0 1.0).",
        licence="CC0-1.0",
    ),
)  # fmt: skip
