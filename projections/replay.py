"""Replay of a disputed turn: every step with its rolls, modifiers, rule ids, and the state
of the combatants involved before and after it. Exports read the same timeline."""

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from fracas.ledger import BadInputError, History
from fracas.ledger.history import COMMAND
from fracas.projections.describe import describe, describe_control
from fracas.projections.sentences import departed, fallen, marks, opening, sentence
from fracas.rules import Encounter
from fracas.rules.events import (
    ConditionSet,
    Damaged,
    Disclosed,
    Event,
    Note,
    Resolved,
    Rolled,
    SeedRevealed,
)
from fracas.rules.reference import statement
from fracas.rules.timeline import Frame, walk
from fracas.rules.views import View, WoundRow

GM, PLAYERS = "gm", "players"  # the two audiences: the GM sees all, players what they may


class Rule(msgspec.Struct, frozen=True):
    id: str
    statement: str


def stated(ids: list[str]) -> list[Rule]:
    """Rule ids with their statements, as a dispute or a report shows them."""
    return [Rule(r, statement(r) or "") for r in ids]


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


class Harm(msgspec.Struct, frozen=True):
    """Damage dealt in a step: by whom ("" for the GM's hand or the world), to whom."""

    who: str
    whom: str
    amount: int


class Departure(msgspec.Struct, frozen=True):
    """A combatant the GM took out of the fight (fled, captured), and the GM's reason."""

    combatant: str
    reason: str


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
    sentence: str = ""  # the step in one readable sentence, in names
    marks: list[str] = []  # "critical", "fumble", "down": what makes it stand out
    harm: list[Harm] = []
    fallen: list[str] = []  # the combatants this step put down
    felled_by: dict[str, str] = {}  # each of them: who put them down ("gm"; "" nobody)
    departed: list[Departure] = []  # the combatants the GM took out of the fight


class Moment(msgspec.Struct, frozen=True):
    """A step of the timeline and the whole view after it (what an export's round ends show);
    for players, `withheld` names the secret step the view after it depends on, if any."""

    step: ReplayStep
    view_after: View
    withheld: int | None = None
    masked: bool = False  # players: what this step decided is GM-only


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


def harm_of(events: list[Event], known: set[str]) -> list[Harm]:
    """Who dealt each damage of a step: its source when that names a combatant, else the
    actor whose resolution just before it struck that target, else nobody (the GM's hand,
    an exertion, the world): a step's actor is never credited with harm they did not
    resolve (the same attribution as the file's `harm` view)."""
    found, struck = [], {}
    for event in events:
        if isinstance(event, Resolved):
            struck.update(dict.fromkeys(event.targets, event.actor))
        elif isinstance(event, Damaged):
            who = event.source if event.source in known else struck.get(event.target, "")
            found.append(Harm(who, event.target, event.amount))
    return found


def felled_by(
    events: list[Event], command: dict[str, Any] | None, known: set[str]
) -> dict[str, str]:
    """Who put each combatant this step put down there: whoever last struck them in it
    (by a resolution or by damage), else the GM for a GM command ("gm"), else nobody ("")."""
    gm_step = command is not None and str(command.get("action", "")).startswith("gm.")
    struck: dict[str, str] = {}
    found: dict[str, str] = {}
    harms = iter(harm_of(events, known))
    for event in events:
        if isinstance(event, Resolved):
            struck.update({t: event.actor for t in event.targets if t != event.actor})
        elif isinstance(event, Damaged):
            harm = next(harms)
            if harm.who:
                struck[harm.whom] = harm.who
        elif isinstance(event, ConditionSet) and event.target in fallen([event]):
            found[event.target] = struck.get(event.target, "gm" if gm_step else "")
    return found


def is_secret(events: list[Event]) -> bool:
    return any(isinstance(e, Rolled) and e.secret for e in events)


def public_command(command: dict[str, Any] | None) -> dict[str, Any] | None:
    """What players may know of a command whose outcome is GM-only: who, what, against whom
    (its modifiers and options are the GM's ruling on a secret roll, and stay GM-only)."""
    if command is None:
        return None
    who = command.get("actor") or command.get("combatant")
    return {"actor": who, "action": command.get("action"), "targets": command.get("targets", [])}


def describe_command(command: dict[str, Any]) -> str:
    who = command.get("actor") or "the GM"
    targets = command.get("targets") or []
    against = f" against {', '.join(targets)}" if targets else ""
    return f"{who} declares {command.get('action', '?')}{against}"


class PlayersMask(msgspec.Struct, frozen=True):
    """What players may not see yet: every step whose content, and every step after which
    the standings, depend on a GM-only roll the GM has not disclosed; each mapped to that
    secret step. Decided from the GM's flags and disclosures alone, never from a roll."""

    steps: dict[int, int]
    views: dict[int, int]
    epochs: set[int]  # seed epochs whose reveal would re-derive an undisclosed roll


STATEMENTS = (Note, Disclosed)  # the GM's own words: never decided from the fight's state


def players_mask(frames: list[Frame]) -> PlayersMask:
    disclosed = {
        e.step for f in frames if f.in_effect for e in f.events if isinstance(e, Disclosed)
    }
    secret = {
        f.record.step: f for f in frames if is_secret(f.events) and f.record.step not in disclosed
    }
    epochs = {
        e.roll.seed_epoch or 0
        for f in secret.values()
        for e in f.events
        if isinstance(e, Rolled) and e.secret
    }
    tainted: dict[int, int] = {}
    views: dict[int, int] = {}
    history = History.of(())
    live: dict[int, int] = {}
    for frame in frames:
        record = frame.record
        history = history.with_step(record)
        if record.control == COMMAND:
            statement = all(isinstance(e, STATEMENTS) for e in frame.events)
            source = record.step if record.step in secret else min(live.values(), default=0)
            if source and not statement:
                tainted[record.step] = source
                live[record.step] = source
        else:
            live = {s: src for s, src in tainted.items() if s not in history.undone}
        if live:
            views[record.step] = min(live.values())
    return PlayersMask(tainted, views, epochs)


def withheld_line(source: int) -> str:
    return (
        f"what this decided is GM-only: it follows the GM's secret roll at step {source}, "
        "until the GM discloses it"
    )


def player_lines(frame: Frame, mask: PlayersMask) -> list[str]:
    """What players may read of a step: a withheld step shows only the command given."""
    source = mask.steps.get(frame.record.step)
    if source is not None:
        command = public_command(frame.command)
        shown = [describe_command(command)] if command is not None else []
        return [*shown, withheld_line(source)]
    return [
        f"dice seed {e.seed_epoch} revealed to the GM (withheld here: it would re-derive "
        "GM-only rolls)"
        if isinstance(e, SeedRevealed) and e.seed_epoch in mask.epochs
        else describe(e)
        for e in frame.events
    ]


CONTROL_SENTENCES = {
    "undo": "The GM takes back step {}",
    "redo": "The GM restores step {}",
    "supersede": "Step {} is set aside for the adopted what-if",
}


def initiative_order(view: View) -> list[str]:
    """The combatants in the order the view's initiative puts them."""
    return [row.combatant for row in sorted(view.initiative, key=lambda row: row.order)]


def step_sentence(
    frame: Frame, masked: bool, names: dict[str, str], reads: str, after: View
) -> str:
    record = frame.record
    if record.control != COMMAND:
        return CONTROL_SENTENCES.get(record.control, "{}").format(record.target)
    if masked:
        head = opening(public_command(frame.command), names) or "The GM"
        return f"{head}: what followed is GM-only until the GM discloses it"
    order = initiative_order(after)
    return sentence(frame.events, frame.command, names, order=order, reads=reads)


def timeline(
    encounter: Encounter, *, players: bool = False, progress: Callable[[int], None] | None = None
) -> Iterator[Moment]:
    """Every step of the encounter with its round, its turn and the standings it touched;
    `players` leaves out everything GM-only, and whatever depends on it. `progress` is told
    each step's number as it is walked."""
    ruleset = encounter.ruleset
    names = {w.combatant: w.name for w in encounter.view().wounds}
    frames = []
    for frame in walk(encounter.store, encounter.id, ruleset):
        frames.append(frame)
        if progress is not None:
            progress(frame.record.step)
    mask = players_mask(frames) if players else PlayersMask({}, {}, set())
    public_round, public_acting = 0, []
    for frame in frames:
        before, after = ruleset.view(frame.before), ruleset.view(frame.after)
        record = frame.record
        masked = record.step in mask.steps
        if record.step - 1 not in mask.views:
            public_round, public_acting = before.round, before.acting
        known = {w.combatant for w in after.wounds} | {w.combatant for w in before.wounds}
        unseen = masked or {record.step, record.step - 1} & mask.views.keys()
        who = set() if unseen else named_in(frame.events, known) | changed_rows(before, after)
        if record.control != COMMAND:
            lines = [describe_control(record.control, record.target)]
        elif players:
            lines = player_lines(frame, mask)
        else:
            lines = [describe(e) for e in frame.events]
        rolled = [] if masked else [e for e in frame.events if isinstance(e, Rolled)]
        step = ReplayStep(
            record.step,
            record.control,
            record.target,
            record.author,
            record.at,
            public_round,
            public_acting,
            frame.in_effect,
            frame.taken_back_by.step if frame.taken_back_by else None,
            frame.taken_back_by.control if frame.taken_back_by else "",
            lines,
            [roll_line(e) for e in rolled],
            [] if masked else rule_ids(frame.events),
            standings(before, who),
            standings(after, who),
            is_secret(frame.events),
            step_sentence(frame, masked, names, ruleset.reads_rolls, after),
            [] if masked else marks(frame.events),
            [] if masked else harm_of(frame.events, known),
            [] if masked else fallen(frame.events),
            {} if masked else felled_by(frame.events, frame.command, known),
            [] if masked else [Departure(*d) for d in departed(frame.events)],
        )
        yield Moment(step, after, mask.views.get(record.step), masked)


def public_views(moments: list[Moment], start: View) -> list[tuple[View, int | None]]:
    """The view after each step that its audience may see, and the GM-only step it waits
    on: for players, a view that depends on an undisclosed GM-only roll gives way to the
    last one that does not."""
    shown, last = [], start
    for moment in moments:
        if moment.withheld is None:
            last = moment.view_after
        shown.append((last, moment.withheld))
    return shown


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
    progress: Callable[[int], None] | None = None,
) -> list[ReplayStep]:
    steps = [moment.step for moment in timeline(encounter, progress=progress)]
    return select(steps, round_=round_, turn=turn, first=first, last=last)


def player_event(event: Event, hidden: set[int]) -> dict[str, Any]:
    """An event's body as the players' JSONL carries it: a revealed seed that would
    re-derive GM-only rolls is withheld."""
    data = msgspec.to_builtins(event)
    if isinstance(event, SeedRevealed) and event.seed_epoch in hidden:
        return {**data, "seed": None, "withheld": True}
    return data
