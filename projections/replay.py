"""Replay of a disputed turn: every step with its rolls, modifiers, rule ids, and the state
of the combatants involved before and after it. Exports read the same timeline."""

from collections.abc import Iterator
from typing import Any

import msgspec

from fracas.ledger import BadInputError
from fracas.ledger.history import COMMAND
from fracas.projections.describe import describe, describe_control
from fracas.rules import Encounter
from fracas.rules.events import Event, Rolled, SeedRevealed
from fracas.rules.ruleset import command_of
from fracas.rules.timeline import walk
from fracas.rules.views import View, WoundRow

SECRET_LINE = "the GM rolled in secret; the roll and what it decided are GM-only"


class RollLine(msgspec.Struct, frozen=True):
    actor: str
    purpose: str
    dice: str
    faces: list[int]
    total: int
    source: str
    entered_by: str | None
    counter: str | None
    target: int | None
    modifiers: list[str]
    result: str | None
    rules: list[str]
    secret: bool


class Standing(msgspec.Struct, frozen=True):
    """One combatant at one moment: health, conditions, place in the initiative."""

    combatant: str
    name: str
    health: str
    conditions: list[str]
    initiative: str


class ReplayStep(msgspec.Struct, frozen=True):
    step: int
    control: str
    target: int | None
    author: str
    at: str
    round: int
    acting: list[str]
    in_effect: bool
    taken_back_by: int | None
    taken_back_as: str  # "undo" or "supersede": how it was taken back
    lines: list[str]
    rolls: list[RollLine]
    rules: list[str]
    before: list[Standing]
    after: list[Standing]
    secret: bool = False


class Moment(msgspec.Struct, frozen=True):
    """A step of the timeline and the whole view after it (what an export's round ends show)."""

    step: ReplayStep
    view_after: View


def roll_line(event: Rolled) -> RollLine:
    roll = event.roll
    return RollLine(
        event.actor,
        event.purpose,
        roll.dice,
        roll.faces,
        roll.total,
        roll.source,
        roll.entered_by,
        roll.counter,
        event.target,
        [m.describe() for m in event.modifiers],
        event.result,
        event.rules,
        event.secret,
    )


def rule_ids(events: list[Event]) -> list[str]:
    seen: dict[str, None] = {}
    for event in events:
        for rule in getattr(event, "rules", []) or []:
            seen[rule] = None
    return list(seen)


def named_in(events: list[Event], known: set[str]) -> set[str]:
    """The combatants an event names (as actor, target, holder …), its command included."""
    found: set[str] = set()

    def look(value: Any) -> None:
        if isinstance(value, str) and value in known:
            found.add(value)
        elif isinstance(value, list):
            for item in value:
                look(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                look(key)
                look(item)

    for event in events:
        data = msgspec.to_builtins(event)
        data.pop("sheet", None)
        look(data)
    return found


def standings(view: View, who: set[str]) -> list[Standing]:
    keys = {row.combatant: f"{row.key} {row.status}".strip() for row in view.initiative}
    return [
        Standing(w.combatant, w.name, w.health, w.conditions, keys.get(w.combatant, ""))
        for w in view.wounds
        if w.combatant in who
    ]


def changed_rows(before: View, after: View) -> set[str]:
    old: dict[str, WoundRow] = {w.combatant: w for w in before.wounds}
    return {w.combatant for w in after.wounds if old.get(w.combatant) != w}


def secret_epochs(events: list[Event]) -> set[int]:
    """The seed epochs that rolled GM-only dice: their revealed seeds would re-derive them."""
    return {e.roll.seed_epoch or 0 for e in events if isinstance(e, Rolled) and e.secret}


def is_secret(events: list[Event]) -> bool:
    return any(isinstance(e, Rolled) and e.secret for e in events)


def player_lines(events: list[Event], hidden: set[int]) -> list[str]:
    """What players may read of a step: of a step with a GM-only roll, only who asked for
    what; a revealed seed that would re-derive GM-only rolls is withheld."""
    if is_secret(events):
        return [describe(e) for e in events if command_of([e]) is not None] + [SECRET_LINE]
    return [
        f"dice seed {e.seed_epoch} revealed to the GM (withheld here: it would re-derive "
        "GM-only rolls)"
        if isinstance(e, SeedRevealed) and e.seed_epoch in hidden
        else describe(e)
        for e in events
    ]


def timeline(encounter: Encounter, *, players: bool = False) -> Iterator[Moment]:
    """Every step of the encounter with its round, its turn and the standings it touched;
    `players` leaves out everything GM-only."""
    ruleset = encounter.ruleset
    frames = list(walk(encounter.store, encounter.id, ruleset))
    hidden = secret_epochs([e for f in frames for e in f.events]) if players else set()
    for frame in frames:
        before, after = ruleset.view(frame.before), ruleset.view(frame.after)
        known = {w.combatant for w in after.wounds} | {w.combatant for w in before.wounds}
        who = named_in(frame.events, known) | changed_rows(before, after)
        record = frame.record
        masked = players and is_secret(frame.events)
        if record.control != COMMAND:
            lines = [describe_control(record.control, record.target)]
        elif players:
            lines = player_lines(frame.events, hidden)
        else:
            lines = [describe(e) for e in frame.events]
        rolled = [e for e in frame.events if isinstance(e, Rolled)]
        step = ReplayStep(
            record.step,
            record.control,
            record.target,
            record.author,
            record.at,
            before.round,
            before.acting,
            frame.in_effect,
            frame.taken_back_by.step if frame.taken_back_by else None,
            frame.taken_back_by.control if frame.taken_back_by else "",
            lines,
            [] if masked else [roll_line(e) for e in rolled],
            [] if masked else rule_ids(frame.events),
            [] if masked else standings(before, who),
            [] if masked else standings(after, who),
            is_secret(frame.events),
        )
        yield Moment(step, after)


def select(
    steps: list[ReplayStep],
    *,
    round_: int | None = None,
    turn: str | None = None,
    first: int | None = None,
    last: int | None = None,
) -> list[ReplayStep]:
    """The steps of a round, of one combatant's turn in a round ("2:alice"), or a range."""
    if turn is not None:
        number, sep, who = turn.partition(":")
        if not sep or not number.isdigit() or not who:
            raise BadInputError(f"--turn takes ROUND:COMBATANT, like --turn 2:alice; got {turn!r}")
        round_ = int(number)
    chosen = [
        s
        for s in steps
        if (round_ is None or s.round == round_)
        and (turn is None or who in s.acting)
        and (first is None or s.step >= first)
        and (last is None or s.step <= last)
    ]
    if not chosen:
        rounds = sorted({s.round for s in steps})
        raise BadInputError(
            f"no step matches; this encounter has steps 1 to {len(steps)} "
            f"in rounds {rounds[0]} to {rounds[-1]}"
        )
    return chosen


def replay(
    encounter: Encounter,
    *,
    round_: int | None = None,
    turn: str | None = None,
    first: int | None = None,
    last: int | None = None,
) -> list[ReplayStep]:
    steps = [moment.step for moment in timeline(encounter)]
    return select(steps, round_=round_, turn=turn, first=first, last=last)


def player_event(event: Event, secret_step: bool, hidden: set[int]) -> dict[str, Any]:
    """An event's body as the players' JSONL carries it."""
    data = msgspec.to_builtins(event)
    if isinstance(event, SeedRevealed) and event.seed_epoch in hidden:
        return {**data, "seed": None, "masked": True}
    if secret_step:
        command = command_of([event])
        if command is not None:
            return {"kind": data["kind"], "actor": data["actor"], "action": command["action"]}
        return {"kind": "masked", "masked": True}
    return data
