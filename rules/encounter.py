"""One encounter as the table plays it: load, decide, append as one step, evolve.

The projector is handed in from above (fracas.projections) so that read models are
written in the same transaction as the events, without this layer knowing any table.
"""

import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import msgspec

from fracas.ledger import (
    CONTROL_KINDS,
    BadInputError,
    ConflictError,
    History,
    IntegrityError,
    LogStore,
    NewEvent,
    RefusedError,
    Snapshot,
    StepRecord,
)
from fracas.ledger.errors import FracasError, RulesetFailedError
from fracas.ledger.history import COMMAND, REDO, SUPERSEDE, UNDO
from fracas.ledger.open import is_database_error
from fracas.ledger.values import is_hex
from fracas.rules import ruleset as registry
from fracas.rules import snapshots
from fracas.rules.commands import (
    LONGEST_ENCOUNTER_ID,
    End,
    Pass,
    check_author,
    check_command_id,
    check_id,
)
from fracas.rules.dice import (
    Limits,
    ManualDice,
    OwnDice,
    ProbeDice,
    ProbeOwn,
    SeededDice,
    TooFewTyped,
    commitment,
    new_seed,
    unneeded,
)
from fracas.rules.events import (
    CombatantHidden,
    CombatantRevealed,
    Commanded,
    Disclosed,
    EncounterEnded,
    EncounterStarted,
    Event,
    Note,
    ReactionAsked,
    Rolled,
    SeedRevealed,
)
from fracas.rules.names import and_list
from fracas.rules.reactions import Ask, Waiting, asking
from fracas.rules.ruleset import Context, Ruleset
from fracas.rules.views import View

Projector = Callable[[Any, str, View, View | None], None]
_encode = msgspec.json.Encoder().encode

PHONES_DICE = "the dice box"  # where a player types their dice, as a refusal names it


def new_command_id() -> str:
    """A fresh command id: 32 hex digits, the clock's nanoseconds first, so that ids sort in
    the order they were made and each new one lands at the end of the steps' index of
    command ids (one page written, where a random id lands on any page and splits them)."""
    return f"{time.time_ns():016x}{os.urandom(8).hex()}"


# why `act --ask --dice` with the asking step's rolls alone wants more (docs/table.md)
ASKED_NOBODY = (
    "With --ask it asked nobody: what those dice showed left no target a reaction that "
    "could change it (a natural 20, or a hit the target's reaction could not turn), so "
    "it was decided at once: type its damage after the attack roll"
)


class Asked(NamedTuple):
    """Rolls of a player's, and how many faces they take."""

    count: int
    used: list[str]


class StepOutcome(msgspec.Struct, frozen=True):
    step: int
    events: list[Event]
    duplicate: bool = False


def to_new_events(events: Iterable[Event], schema: int = 1) -> list[NewEvent]:
    return [
        NewEvent(type(e).__struct_config__.tag, _encode(e).decode(), schema)  # type: ignore[arg-type]
        for e in events
    ]


SEED_KINDS = ("encounter.started", "seed.revealed")
ENDS_THE_TURN = (Pass, End)  # what means "end the turn (or the fight) I see"
UNREADABLE = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


def unreadable(encounter: str, error: Exception) -> IntegrityError:
    return IntegrityError(
        f"the log of encounter {encounter} cannot be read: an event does not decode ({error}); "
        "`fracas audit` names its position"
    )


@contextmanager
def the_rulesets_own(ruleset: Ruleset) -> Iterator[None]:
    """Where a step runs the ruleset's own code (a plugin's, perhaps): a bug in it refuses
    the step in one line, before anything is appended, rather than ending the session. A
    refusal, a file's or the log's error passes as it is."""
    try:
        yield
    except (FracasError, OSError):
        raise
    except Exception as error:
        if is_database_error(error):
            raise
        raise RulesetFailedError(
            f"the ruleset {ruleset.name} failed on this step: {type(error).__name__} "
            f"{error}; nothing was appended (FRACAS_DEBUG=1 shows where)"
        ) from error


def started_event(store: LogStore, encounter: str) -> EncounterStarted:
    """The event that opened the encounter: its ruleset, title, options, seed commitment."""
    store.require(encounter)
    first = store.first_event(encounter)
    if first is None:
        raise IntegrityError(
            f"the first event of encounter {encounter} is missing; `fracas audit` says more"
        )
    _schema, body = first
    try:
        return msgspec.json.decode(body, type=EncounterStarted)
    except UNREADABLE as error:
        raise unreadable(encounter, error) from None


def current_commitment(
    store: LogStore, encounter: str, known: tuple[int, int, str] = (0, 1, "")
) -> tuple[int, str]:
    """(epoch, commitment) of the dice seed the encounter rolls with now: the one it started
    with, or the one committed when the last seed was revealed. `known`: (version, epoch,
    commitment) as they stood at that version (a snapshot's), so only later events are read."""
    after, epoch, commitment = known
    found = store.last_of_kinds(encounter, SEED_KINDS, after_version=after)
    if found is None:
        return epoch, commitment
    try:
        event = msgspec.json.decode(found, type=EncounterStarted | SeedRevealed)
    except UNREADABLE as error:
        raise unreadable(encounter, error) from None
    if isinstance(event, SeedRevealed):
        return event.seed_epoch + 1, event.next_seed_sha256
    return event.seed_epoch, event.seed_sha256


def unseal_seed(store: LogStore, encounter: str, sealed_as: str) -> str | None:
    """The dice seed filed under its commitment in the key file; None if it is not there.
    A seed that is not the one committed to (not hex, or another seed) is refused, never
    rolled with or carried into a backup."""
    seed = store.unseal(sealed_as)
    if seed is not None and not (is_hex(seed) and commitment(seed) == sealed_as):
        raise IntegrityError(
            f"the key file {store.keys.path} holds a damaged dice seed for encounter "
            f"{encounter} (not the seed its log committed to): restore the key file from a "
            "backup (`fracas export --with-secrets`), or give the faces with --dice"
        )
    return seed


def ruleset_of(store: LogStore, encounter: str) -> Ruleset:
    return registry.load(started_event(store, encounter).ruleset)


def recorded_events(
    store: LogStore,
    encounter: str,
    ruleset: Ruleset,
    up_to_step: int | None = None,
    from_step: int = 1,
) -> Iterator[tuple[int, Event]]:
    """(step, event) for every recorded event, undone steps included; undo and redo
    themselves are step records, not ruleset events, and are left out."""
    rows = store.rows(encounter, up_to_step=up_to_step, from_step=from_step)
    for step, kind, schema, body in rows:
        if kind not in CONTROL_KINDS:
            try:
                yield step, ruleset.decode(kind, schema, body)
            except UNREADABLE as error:
                raise unreadable(encounter, error) from None


class StreamedFold:
    """Each encounter's state folded as a whole log's rows stream into an empty file (see
    LogStore.load's `stream`): its read models are then made without reading every event
    again. The step records must all come before the events (as an export writes them),
    each encounter's in order, and every row be vouched for by the chain check as it
    passes; anything else, or an event it cannot read, and it gives up (`encounter` is
    None: the caller folds from the log, which names what is wrong)."""

    def __init__(self) -> None:
        self.controls: dict[str, list[StepRecord]] = {}  # the undo, redo, supersede records
        self.steps: dict[str, int] = {}  # encounter -> its last record's step
        self.folding: dict[str, tuple[Ruleset, frozenset[int], Any]] = {}
        self.given_up = False

    def see(self, records: list[tuple], rows: list[tuple] | None) -> None:
        if self.given_up:
            return
        if rows is None or (records and self.folding):  # unvouched, or records after events
            self.given_up = True
            return
        for record in records:
            encounter, step = record[0], record[1]
            if step != self.steps.get(encounter, 0) + 1:
                self.given_up = True
                return
            self.steps[encounter] = step
            if record[3] != COMMAND:
                self.controls.setdefault(encounter, []).append(StepRecord(*record))
        try:
            self._fold(rows)
        except (*UNREADABLE, FracasError):
            self.given_up = True

    def _fold(self, rows: list[tuple]) -> None:
        folding, controls = self.folding, CONTROL_KINDS
        current, ruleset, skip, state = None, None, frozenset[int](), None
        for row in rows:  # (an encounter's rows run together: its fold kept in locals)
            encounter = row[1]
            if encounter != current:
                if current is not None:
                    folding[current] = (ruleset, skip, state)
                current = encounter
                ruleset, skip, state = folding.get(encounter) or self._begin(row)
                decode, evolve, schema_now = ruleset.decoder.decode, ruleset.evolve, ruleset.schema
            if row[3] in skip or row[4] in controls:
                continue
            schema, body = row[7], row[8]
            event = decode(body) if schema == schema_now else ruleset.upcast(schema, body)
            state = evolve(state, event)
        if current is not None:
            folding[current] = (ruleset, skip, state)

    def _begin(self, row: tuple) -> tuple[Ruleset, frozenset[int], Any]:
        """An encounter's fold, at its first event (version 1, the chain check saw to it)."""
        started = msgspec.json.decode(row[8], type=EncounterStarted)
        ruleset = registry.load(started.ruleset)
        skip = History.of(self.controls.get(row[1], ())).undone
        return ruleset, skip, ruleset.initial()

    def encounter(self, store: LogStore, encounter: str) -> "Encounter | None":
        """The encounter as folded while its rows passed, once they are all in."""
        if self.given_up or encounter not in self.folding:
            return None
        ruleset, skip, state = self.folding[encounter]
        live = Encounter(store, encounter, ruleset, folded=state)
        return live if live.history.undone == skip else None


class Appended(msgspec.Struct, frozen=True):
    """A step an Encounter appended, with the states before and after it."""

    record: StepRecord
    before: Any
    after: Any


class Encounter:
    def __init__(
        self,
        store: LogStore,
        encounter: str,
        ruleset: Ruleset | None = None,
        projector: Projector | None = None,
        *,
        snapshots: bool = True,
        folded: Any = None,
    ) -> None:
        """`snapshots=False` folds from the first event whatever snapshots there are (the
        audit's way: it trusts none). `folded`: the state at the head, already folded from
        the first event (by a StreamedFold), taken instead of folding again."""
        self.store, self.id = store, encounter
        self.ruleset = ruleset or ruleset_of(store, encounter)
        self.projector = projector
        self._use_snapshots = snapshots
        if folded is None:
            self.reload()
            return
        with store.snapshot():
            self.limits = Limits.of(started_event(store, encounter).limits)
            self._folded_whole(store.history_at_head(encounter), folded)
        self._unwritten()

    @classmethod
    def start(
        cls,
        store: LogStore,
        ruleset: Ruleset,
        *,
        title: str = "",
        options: dict[str, Any] | None = None,
        encounter: str | None = None,
        author: str = "gm",
        projector: Projector | None = None,
        limits: dict[str, int] | None = None,
    ) -> "Encounter":
        encounter = encounter or uuid.uuid4().hex[:12]
        check_id("encounter", encounter, LONGEST_ENCOUNTER_ID)
        title = title.strip() or encounter  # a fight is never told as “”
        if store.exists(encounter):
            raise RefusedError(f"encounter {encounter!r} already exists; pick another id")
        checked = ruleset.options(options or {})
        chosen = Limits.of(limits or {})
        seed = new_seed()
        started = EncounterStarted(
            ruleset.name,
            title,
            msgspec.to_builtins(checked),
            commitment(seed),
            1,
            msgspec.to_builtins(chosen) if limits else {},
        )
        state = ruleset.evolve(ruleset.initial(), started)

        def write(conn: Any) -> None:
            if projector is not None:
                projector(conn, encounter, ruleset.view(state), None)

        store.seal(started.seed_sha256, seed)  # first: a lost race leaves only an orphan seed
        store.append(
            encounter,
            to_new_events([started], ruleset.schema),
            expected_version=0,
            command_id=new_command_id(),
            author=author,
            project=write,
        )
        return cls(store, encounter, ruleset, projector)

    # -- state ---------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the encounter afresh: its history and its events in one read snapshot, so
        that a step another process appends meanwhile is either wholly seen or not at all."""
        self.store.snapshots_ready()  # (a server's first look may create the table: not here)
        with self.store.snapshot():
            self._read()

    def _read(self) -> None:
        self.limits = Limits.of(started_event(self.store, self.id).limits)
        resumed = self._use_snapshots and snapshots.resume(self.store, self.id, self.ruleset)
        if not resumed:
            history = self.store.history_at_head(self.id)
            start = snapshots.Start(self.ruleset.initial())
            self._folded_whole(history, self._fold_from(start, history))
        else:
            self.history, start = resumed
            self.state = self._fold_from(start, self.history)
            self._seed_read_from = (start.version, start.epoch, start.commitment)
            self._snapshot_version = start.version
        self._unwritten()

    def _folded_whole(self, history: History, state: Any) -> None:
        """The encounter as folded from its first event (no snapshot used)."""
        self.history, self.state = history, state
        self._seed_read_from: tuple[int, int, str] = (0, 1, "")
        latest = self.store.snapshots(self.id, limit=1)
        self._snapshot_version = latest[0].version if latest else 0

    def _unwritten(self) -> None:
        self._appended: Appended | None = None  # nothing this object appended since the read
        self._seed_now: tuple[int, str] | None = None
        self._written: View | None = None  # unknown: the next write rewrites every row
        self._pending: View | None = None
        self._pending_snapshot: int | None = None

    def _seed_in_force(self) -> tuple[int, str]:
        """(epoch, commitment) of the dice seed rolled with now, read from the log the first
        time a command needs it (a fold alone never does)."""
        if self._seed_now is None:
            self._seed_now = current_commitment(self.store, self.id, self._seed_read_from)
        return self._seed_now

    @property
    def _epoch(self) -> int:
        return self._seed_in_force()[0]

    @property
    def _commitment(self) -> str:
        return self._seed_in_force()[1]

    def fold(self, history: History | None = None, up_to_step: int | None = None) -> Any:
        """Fold the effective events, streamed in order; undone steps are skipped. The fold
        starts from the newest snapshot that folds the same history, if there is one."""
        with self.store.snapshot():
            history = history or self.store.history(self.id)
            bound = history.record(up_to_step).last_version if up_to_step else history.head_version
            start = self._use_snapshots and snapshots.start(
                self.store, self.id, self.ruleset, history, bound
            )
            start = start or snapshots.Start(self.ruleset.initial())
            return self._fold_from(start, history, up_to_step)

    def _fold_from(
        self, start: "snapshots.Start", history: History, up_to_step: int | None = None
    ) -> Any:
        ruleset = self.ruleset
        decode, evolve, current = ruleset.decoder.decode, ruleset.evolve, ruleset.schema
        state = start.state
        skip = frozenset(u for u in history.undone if u > start.step)
        rows = self.store.effective_bodies(self.id, skip, up_to_step, start.version)
        try:
            for schema, body in rows:
                event = decode(body) if schema == current else ruleset.upcast(schema, body)
                state = evolve(state, event)
        except UNREADABLE as error:
            raise unreadable(self.id, error) from None
        return state

    def view(self) -> View:
        return self.ruleset.view(self.state)

    def folded_around(self, record: StepRecord) -> tuple[Any, Any] | None:
        """The state just before `record`'s step and just after it, when this object
        appended that step (its latest append since it last read the log): the states it
        decided the step on and folded it to, which the log's past holds for good (a later
        undo is a step of its own). None otherwise: the caller folds from the log."""
        done = self._appended
        if done is None or (done.record.step, done.record.command_id) != (
            record.step,
            record.command_id,
        ):
            return None
        return done.before, done.after

    def state_at(self, step: int) -> Any:
        """The state as the table saw it once step `step` was recorded."""
        self._refresh_if_stale()
        if not 1 <= step <= self.history.head_step:
            raise BadInputError(
                f"there is no step {step}: this encounter has steps 1 to {self.history.head_step}"
            )
        return self.fold(self.history.upto(step), up_to_step=step)

    def view_at(self, step: int) -> View:
        return self.ruleset.view(self.state_at(step))

    def refresh(self) -> bool:
        """Catch up with steps another process appended since; True if there were any."""
        if self.store.head(self.id).version != self.history.head_version:
            self.reload()
            return True
        return False

    def _refresh_if_stale(self) -> None:
        self.refresh()

    @property
    def version(self) -> int:
        return self.history.head_version

    def seed_epoch(self) -> int:
        return self._epoch

    def turn(self) -> str:
        """Whose turn it is now, as the token a command ending "the turn I see" carries."""
        self._refresh_if_stale()
        return self.ruleset.turn_of(self.state)

    def _check_turn(self, turn: str | None) -> None:
        """Refused unless the turn is still the one the command was given for."""
        if turn is None:
            return  # given for no turn in particular: nothing to compare
        now = self.ruleset.turn_of(self.state)
        if turn != now:
            raise ConflictError(
                f"the turn moved on: {turn} was seen, it is {now} now (another command ended "
                "it); nothing was recorded, look again"
            )

    # -- commands ------------------------------------------------------------------------

    def execute(
        self,
        command: Any,
        *,
        dice: list[int] | None = None,
        entered_by: str = "gm",
        command_id: str | None = None,
        author: str = "gm",
        secret: bool = False,
        hidden: bool = False,
        ask: Ask | None = None,
        turn: str | None = None,
    ) -> StepOutcome:
        """Decide a command and append its events as one step; `secret` marks its rolls GM-only,
        `hidden` a joining combatant as hidden from the players until revealed, `ask` an
        attack that gives a target a choice as waiting for the answer (rules/reactions.py).
        `turn`: the turn the command was given for (`turn()`), refused once another command
        ended it; a command that ends the turn (`next`, `gm.end`) is held to the turn it
        was first decided on, however often a race makes it decide again.

        Retrying a command id that is already recorded returns that step and rolls nothing.
        """
        check_author(author)
        check_author(entered_by)
        if command_id is None:  # a new id: nothing can be recorded under it yet
            command_id = new_command_id()
        else:
            check_command_id(command_id)
            if original := self.store.step_for_command(self.id, command_id):
                return StepOutcome(original.step, self.events_of_step(original.step), True)
        options = dict(
            dice=dice, entered_by=entered_by, author=author, secret=secret, hidden=hidden, ask=ask
        )
        events = self.decide(command, command_id=command_id, optimistic=True, turn=turn, **options)
        if turn is None and isinstance(command, ENDS_THE_TURN):
            turn = self.ruleset.turn_of(self.state)  # the turn it was decided on
        try:  # (the id was checked above, or is a fresh one)
            return self._commit(events, command_id, author)
        except ConflictError:
            if not self.refresh():
                raise
        events = self.decide(command, command_id=command_id, turn=turn, **options)  # new head
        return self._commit(events, command_id, author)

    def decide(
        self,
        command: Any,
        *,
        dice: list[int] | None = None,
        entered_by: str = "gm",
        command_id: str = "",
        author: str = "gm",
        secret: bool = False,
        hidden: bool = False,
        optimistic: bool = False,
        ask: Ask | None = None,
        turn: str | None = None,
        own: str | None = None,
    ) -> list[Event]:
        """The events a command would append now, without appending them. `optimistic`:
        if this process appended the head it knows, decide on it without asking (the
        append is refused if another writer moved on, and `execute` decides again).
        `own`: typed `dice` are this combatant's alone (a player's phone); every other
        combatant's roll is the seeded dice's."""
        if not (optimistic and self.store.wrote_last(self.id, self.version)):
            self._refresh_if_stale()
        self._check_turn(turn)
        step = self.history.head_step + 1
        epoch = self.seed_epoch()

        def seeded() -> SeededDice:
            return SeededDice(self._seed, epoch, self.id, step, self.limits)

        def decided(source: Any) -> list[Event]:
            ctx = Context(source, step, author, command_id)
            with the_rulesets_own(self.ruleset):
                return self.ruleset.decide_step(
                    self.state, command, ctx, secret=secret, hidden=hidden, ask=ask
                )

        if dice is None:
            return decided(seeded())
        if own is None:
            typed = ManualDice(dice, entered_by, self.limits)
            try:
                events = decided(typed)
            except TooFewTyped as short:
                if ask is None:
                    raise
                # asked, the step rolls on past its typed rolls only where it asked nobody
                # (no target's reaction could change what they showed): said, so that the
                # GM who typed the asking step's rolls alone knows why more are wanted now
                raise TooFewTyped(f"{short}. {ASKED_NOBODY}") from None
            if typed.faces and not typed.used:
                raise BadInputError(self._rolled_nothing(command, len(typed.faces)))
            if not typed.faces:
                return events
            if any(isinstance(e, ReactionAsked) for e in events):
                # the asking step takes the rolls before the question, the rest are the
                # answer's to type (`answer --dice`): a face past them is refused
                typed.finish()
            # the GM typed a player's dice as rolled together (attack and damage): those
            # the outcome did not need land said so, up to the most any outcome takes
            most = self._probe_all(decided, entered_by)
            typed.finish((max(most.count, typed.taken), most.used))
            actor = str(getattr(command, "actor", "") or entered_by)
            return [*events, unneeded(actor, self._unneeded_line(events, typed, [], actor))]
        # the player types every die the action may need before any is seen (their own
        # roll against a number they never see, a target's save): how many they typed is
        # judged by the ways the dice could fall, never by how they fell
        asked, most = self._probe_own(decided, own)
        if len(dice) < asked.count:
            raise BadInputError(self._too_few(len(dice), asked.used))
        rest = SeededDice(self._seed, epoch, self.id, f"{step}.rest", self.limits)
        events, typed, _ = self._own_dice(decided, seeded(), dice, entered_by, own, rest=rest)
        said: list[str] = []
        if typed.filled:
            said.append(f"the server rolled {', '.join(typed.filled)}: more than typed")
        if typed.faces:
            # whether any outcome could have taken them, found without the seeded dice
            taken, rolls = self._most_typed(decided, dice, entered_by, own)
            if most.count > taken:
                taken, rolls = most.count, most.used
            typed.finish((taken, rolls))
            said.append(self._unneeded_line(events, typed, asked.used, own))
        return [*events, *(unneeded(own, line) for line in said)]

    def _too_few(self, typed: int, asked: list[str]) -> str:
        return (
            f"too few faces typed ({typed}): this action may roll {', '.join(asked)}; "
            "type every one, in that order (a die the outcome does not need is shown "
            "not needed)"
        )

    def _own_dice(
        self,
        decided: Callable[[Any], list[Event]],
        others_dice: "SeededDice | ProbeDice",
        dice: list[int],
        entered_by: str,
        own: str,
        probe: float | None = None,
        rest: SeededDice | None = None,
    ) -> tuple[list[Event], ManualDice, frozenset[int]]:
        """A step decided with `own`'s rolls typed and every other's from `others_dice`;
        with the typed faces, and the places of the rolls that were another's. `probe`:
        `own`'s dice fall at that face of each die (`ProbeOwn`), `dice` unused. `rest`:
        the server's dice for faces a roll wants past the last typed."""
        others: frozenset[int] = frozenset()
        while True:  # ends: each pass gives one more roll of a step's finitely many
            typed = (
                ManualDice(dice, entered_by, self.limits, PHONES_DICE, rest)
                if probe is None
                else ProbeOwn(probe, entered_by, self.limits)
            )
            source = OwnDice(typed, others_dice, others)
            if isinstance(others_dice, ProbeDice):
                others_dice.rolled = 0
            events = decided(source)
            rolls = [(e.actor, e.roll) for e in events if isinstance(e, Rolled)]
            strays = source.strays(rolls, own)
            if not strays:
                return events, typed, others
            others |= {min(strays)}

    def own_rolls(self, command: Any, own: str, author: str | None = None) -> list[str]:
        """The rolls of `own`'s that `command` asks for, in the order the step rolls them,
        each in the words a refusal of too few typed faces says it ("a d20 for the attack
        roll", "5d10 for the attack"): of the ways their dice and others' could fall (each
        die at its lowest, its highest, next to either or in the middle; others' lowest or
        highest), the one taking the most rolls of theirs, then the fewest faces (a hit,
        not a critical's doubled dice). The step the phone's typed dice are checked by,
        decided here without the seeded dice and without appending; refused as it is."""
        self._refresh_if_stale()
        step = self.history.head_step + 1

        def decided(source: Any) -> list[Event]:
            ctx = Context(source, step, author or own, "")
            with the_rulesets_own(self.ruleset):
                return self.ruleset.decide_step(self.state, command, ctx)

        return self._probe_own(decided, own)[0].used

    def _probe_own(
        self, decided: Callable[[Any], list[Event]], own: str
    ) -> tuple[Asked, Asked]:
        """`own`'s rolls as their dice and others' could fall (each die at its lowest, its
        highest, next to either or in the middle; others' lowest or highest): the rolls
        the dice help asks for (the most rolls, then the fewest faces: a hit, not a
        critical's doubled dice), and the most faces any outcome takes, with its rolls."""
        best: tuple[tuple[int, int], Asked] | None = None
        most = Asked(0, [])
        refused: FracasError | None = None
        for others in (0, -1):  # others' rolls all lowest (a save failed), or all highest
            for at in (-2, 1, 0.5, -1, 0):
                try:
                    _, typed, _ = self._own_dice(decided, ProbeDice(others), [], own, own, at)
                except FracasError as error:
                    refused = refused or error
                    continue
                key = (len(typed.used), -typed.count)
                if best is None or key > best[0]:
                    best = (key, Asked(typed.count, list(typed.used)))
                if typed.count > most.count:
                    most = Asked(typed.count, list(typed.used))
        if best is None:
            assert refused is not None
            raise refused
        return best[1], most

    def _probe_all(self, decided: Callable[[Any], list[Event]], entered_by: str) -> Asked:
        """The most faces a step with every roll typed could take, each die at its lowest,
        its highest, next to either or in the middle, with the rolls that take them."""
        most = Asked(0, [])
        for at in (-2, 1, 0.5, -1, 0):
            typed = ProbeOwn(at, entered_by, self.limits)
            try:
                decided(typed)
            except FracasError:  # an outcome the rules refuse, or dice past the limit
                continue
            if typed.count > most.count:
                most = Asked(typed.count, list(typed.used))
        return most

    def _most_typed(
        self, decided: Callable[[Any], list[Event]], dice: list[int], entered_by: str, own: str
    ) -> tuple[int, list[str]]:
        """The most typed faces the step could take, with the rolls that took them, as
        others' rolls fall lowest or highest (every mix of the first four): never from
        the seeded dice, so a refusal tells nothing of a roll not yet shown."""
        best, said, seen = -1, [], 0
        for highs in (*range(16), -1):
            if 0 < highs < 16 and highs >= 1 << seen:
                continue  # the same as a mix already tried: fewer rolls than bits
            probe = ProbeDice(highs)
            try:
                _, typed, _ = self._own_dice(decided, probe, dice, entered_by, own)
            except TooFewTyped:  # an outcome would want more than were typed
                return len(dice), []
            except FracasError:  # an outcome the rules refuse: not one the step can have
                continue
            seen = max(seen, probe.rolled)
            if typed.taken > best:
                best, said = typed.taken, list(typed.used)
        return best, said

    def _rolled_nothing(self, command: Any, left: int) -> str:
        """Faces typed for a step that rolls none: where the same command just before
        rolled with the seeded dice (a `next` that rolled a dying character's death save,
        then `next --dice`), the roll they were meant for, and how to type it instead."""
        config = getattr(command, "__struct_config__", None)  # a command's tag: its action
        asked = command.get("action") if isinstance(command, dict) else config and config.tag
        asked = asked if isinstance(asked, str) else "action"
        action = str(asked).removeprefix("gm.").removeprefix("party.").replace("-", " ")
        faces = "face" if left == 1 else "faces"
        said = f"{left} typed {faces} left over: this {action} rolls no dice"
        steps = self.history.effective_command_steps()
        last = steps[-1] if steps else None
        events = self.events_of_step(last) if last is not None else []
        seeded = [e for e in events if isinstance(e, Rolled) and e.roll.source == "seeded"]
        given = next((e for e in events if isinstance(e, Commanded)), None)
        before = str(given.command.get("action")) if given is not None else ""
        if not seeded or before != asked or self.history.undo_target() != last:
            return f"{said}; drop the extra faces from --dice"  # no roll they were meant for
        names = {w.combatant: w.name for w in self.view().wounds}
        rolls = and_list([f"{names.get(e.actor, e.actor)}'s {e.purpose}" for e in seeded])
        again = f"`fracas {action} --dice FACES`"
        dice = "its die" if len(seeded) == 1 and len(seeded[0].roll.faces) == 1 else "its dice"
        return (
            f"{said}; step {last} rolled {rolls} with the seeded dice: to type {dice}, "
            f"`fracas undo` step {last}, then {again}"
        )

    def _unneeded_line(
        self, events: list[Event], typed: ManualDice, most: list[str], own: str
    ) -> str:
        """'not needed: 5 (typed for a d8 for the damage of sacred flame; unneeded after
        goblin's Dexterity save against sacred flame (DC 13): success)', or without the
        reason where it was the player's own roll (the step says how it fell)."""
        left = list(most)
        for made in typed.used:
            if made in left:
                left.remove(made)
        faces = ", ".join(map(str, typed.faces))
        hidden = self.hidden()
        names = {w.combatant: w.name for w in self.view().wounds}
        shown = [
            f"{names.get(e.actor, e.actor)}'s {e.purpose}{f': {e.result}' if e.result else ''}"
            for e in events
            if isinstance(e, Rolled) and e.actor != own
        ]
        theirs = [e for e in events if isinstance(e, Rolled) and e.actor != own]
        secret = any(e.secret or e.actor in hidden for e in theirs)
        why = "another's roll" if secret else "; ".join(shown)
        said = [f"typed for {', '.join(left)}"] if left else []
        said += [f"unneeded after {why}"] if why else []
        return f"not needed: {faces}" + (f" ({'; '.join(said)})" if said else "")

    def record(
        self, events: list[Event], *, command_id: str | None = None, author: str = "gm"
    ) -> StepOutcome:
        """Append decided events as one step: evolve, projections, hash chain, one commit."""
        if command_id is not None:
            check_command_id(command_id)
        return self._commit(events, command_id or new_command_id(), author)

    def sealed_seed(self) -> str | None:
        """The current dice seed, kept in the GM's key file until revealed; None if the key
        file is not here (a copy of the log alone rolls nothing)."""
        return unseal_seed(self.store, self.id, self._commitment)

    def _seed(self) -> str:
        seed = self.sealed_seed()
        if seed is None:
            raise RefusedError(
                f"the sealed dice seed of encounter {self.id} is not in the key file "
                f"{self.store.keys.path}; give the faces with --dice"
            )
        return seed

    def _commit(
        self,
        events: list[Event],
        command_id: str,
        author: str,
    ) -> StepOutcome:
        check_author(author)
        new_events = to_new_events(events, self.ruleset.schema)
        self.limits.check_bodies(new_events)
        state = self.state
        with the_rulesets_own(self.ruleset):
            for event in events:
                state = self.ruleset.evolve(state, event)
        ended = any(isinstance(e, EncounterEnded) for e in events)
        seed = snapshots.seed_after(events, self._epoch, self._commitment)
        result = self.store.append(
            self.id,
            new_events,
            expected_version=self.version,
            command_id=command_id,
            author=author,
            project=self._writer(state, self.history.after(COMMAND, None), seed, ended),
        )
        if result.duplicate or result.record is None:
            return StepOutcome(result.step, self.events_of_step(result.step), True)
        self._appended = Appended(result.record, self.state, state)
        self.history = self.history.with_step(result.record)
        self.state = state
        self._settle()
        return StepOutcome(result.step, events)

    def _writer(
        self,
        state: Any,
        steps: tuple[tuple[int, ...], tuple[int, ...]],
        seed: tuple[int, str],
        ended: bool = False,
    ) -> Callable[[Any], None]:
        """What an append writes besides its events, in its transaction: the read models,
        and a snapshot when one is due (`steps`: undone and redo after it; `seed`: the dice
        seed in force after it)."""

        def write(conn: Any) -> None:
            if self.projector is not None:
                view = self.ruleset.view(state)
                self.projector(conn, self.id, view, self._written)
                self._pending = view
            self._pending_snapshot = self._snapshot_if_due(conn, state, steps, seed, ended)

        return write

    def _snapshot_if_due(
        self,
        conn: Any,
        state: Any,
        steps: tuple[tuple[int, ...], tuple[int, ...]],
        seed: tuple[int, str],
        ended: bool,
    ) -> int | None:
        """The version of the snapshot written with this append, if one was due."""
        version, step, digest = self.store.writing()
        due = ended or version - self._snapshot_version >= snapshots.SNAPSHOT_EVERY
        if not due or not self.store.snapshots_ready():
            return None
        body = snapshots.encode(self.ruleset, state, *seed)
        made = Snapshot(self.id, version, step, digest, "", *steps, body)
        sealed = snapshots.sealed(self.store, made, self.ruleset)
        if sealed is None:
            return None
        self.store.write_snapshot(conn, sealed)
        return version

    def keep_snapshot(self, conn: Any) -> int | None:
        """A snapshot of the state now, written through `conn` inside its open transaction,
        when the fold that made it began SNAPSHOT_EVERY events or more behind the head (a
        log imported, which carries no snapshots, or read models made again): the next
        reads start there instead of folding every event again. The version kept, if any."""
        history, version = self.history, self.history.head_version
        if version - self._snapshot_version < snapshots.SNAPSHOT_EVERY:
            return None
        if not self.store.snapshots_ready():
            return None
        digest = self.store.hash_at(self.id, version)
        if digest is None:
            return None
        body = snapshots.encode(self.ruleset, self.state, *self._seed_in_force())
        steps = (tuple(sorted(history.undone)), history.redo_stack)
        made = Snapshot(self.id, version, history.head_step, digest, "", *steps, body)
        sealed = snapshots.sealed(self.store, made, self.ruleset)
        if sealed is None:
            return None
        self.store.write_snapshot(conn, sealed)
        self._snapshot_version = version
        return version

    def _settle(self) -> None:
        """The append just committed: what its writer wrote is what the log now holds (an
        attempt the store made again, or that was refused, left nothing behind)."""
        self._written = self._pending
        if self._pending_snapshot is not None:
            self._snapshot_version = self._pending_snapshot

    def undo(
        self, *, command_id: str | None = None, author: str = "gm", only: int | None = None
    ) -> int:
        """Take back the latest effective step; returns the step undone. `only`: that step
        and no other (a ConflictError when the latest effective step is another by then)."""
        return self._control(UNDO, command_id, author, expected=only)

    def redo(self, *, command_id: str | None = None, author: str = "gm") -> int:
        """Restore the most recently undone step; returns it."""
        return self._control(REDO, command_id, author)

    def replace(
        self,
        superseded: list[int],
        steps: list[tuple[list[Event], str, str]],
        *,
        author: str = "gm",
    ) -> list[StepOutcome]:
        """Mark steps superseded for good and record the steps that replace them, as
        (events, command id, author), all in one transaction."""
        self._refresh_if_stale()
        try:
            with self.store.batch():
                for target in superseded:
                    self._control(SUPERSEDE, None, author, target)
                return [self._commit(events, cid, by) for events, cid, by in steps]
        except BaseException:
            self.reload()
            raise

    def _control(
        self,
        control: str,
        command_id: str | None,
        author: str,
        target: int | None = None,
        expected: int | None = None,
    ) -> int:
        check_author(author)
        if command_id is not None:
            check_command_id(command_id)
        self._refresh_if_stale()
        if target is None:
            target = self.history.undo_target() if control == UNDO else self.history.redo_target()
        if expected is not None and target != expected:
            raise ConflictError(f"step {expected} is no longer the latest; look again")
        undone = set(self.history.undone)
        if control == REDO:
            undone.discard(target)
        else:
            undone.add(target)
        state = self.fold(self.history.with_undone(frozenset(undone)))
        seed = (self._epoch, self._commitment)
        result = self.store.append_control(
            self.id,
            control,
            target,
            expected_version=self.version,
            command_id=command_id or new_command_id(),
            author=author,
            project=self._writer(state, self.history.after(control, target), seed),
        )
        if result.duplicate or result.record is None:
            self.reload()
            return target
        self._appended = Appended(result.record, self.state, state)
        self.history = self.history.with_step(result.record)
        self.state = state
        self._settle()
        return target

    def reveal(self, *, author: str = "gm") -> StepOutcome:
        """Log the current dice seed so anyone can re-derive every roll; commit a new one."""
        self._refresh_if_stale()
        epoch = self.seed_epoch()
        seed, next_seed = self._seed(), new_seed()
        event = SeedRevealed(epoch, seed, commitment(next_seed))
        self.store.seal(event.next_seed_sha256, next_seed)
        outcome = self._commit([event], new_command_id(), author)
        self._seed_now = (epoch + 1, event.next_seed_sha256)
        return outcome

    def note(self, text: str, *, author: str = "gm") -> StepOutcome:
        """A note for the record; it changes nothing in the fight."""
        if not text.strip():
            raise BadInputError('a note needs some text, as in: fracas note "the lights go out"')
        self._refresh_if_stale()
        command_id = new_command_id()
        try:
            return self._commit([Note(text, author)], command_id, author)
        except ConflictError:  # another step came first: a note reads nothing, so it follows
            if not self.refresh():
                raise
        return self._commit([Note(text, author)], command_id, author)

    def disclose(self, step: int, *, author: str = "gm") -> StepOutcome:
        """Show the players what step `step` decided: its GM-only rolls and their outcome."""
        self._refresh_if_stale()
        record = self.history.record(step)
        rolled = [e for e in self.events_of_step(record.step) if isinstance(e, Rolled)]
        if not any(e.secret for e in rolled):
            raise RefusedError(f"step {step} has no GM-only roll to disclose")
        return self._commit([Disclosed(step, author)], new_command_id(), author)

    def hidden(self, after: int = 0, known: set[str] | frozenset[str] = frozenset()) -> set[str]:
        """The combatants hidden from the players now: joined hidden, not yet revealed.
        Given those `known` hidden once step `after` was recorded (and no undo or redo
        since), only the steps after it are read."""
        found: set[str] = set(known)
        for step, event in recorded_events(self.store, self.id, self.ruleset, None, after + 1):
            if step in self.history.undone:
                continue
            if isinstance(event, CombatantHidden):
                found.add(event.combatant)
            elif isinstance(event, CombatantRevealed):
                found.discard(event.combatant)
        return found

    def disclosed(self, after: int = 0, known: dict[int, int] | None = None) -> dict[int, int]:
        """Each step with GM-only rolls the GM disclosed, and the step that disclosed it (a
        disclosure undone is none); read without decoding the log when none was made. Given
        those `known` once step `after` was recorded (and no undo or redo since), only the
        steps after it are read."""
        found: dict[int, int] = dict(known or {})
        if (
            not after
            and self.store.last_of_kinds(self.id, (Disclosed.__struct_config__.tag,)) is None
        ):
            return {}
        for step, event in recorded_events(self.store, self.id, self.ruleset, None, after + 1):
            if isinstance(event, Disclosed) and step not in self.history.undone:
                found.setdefault(event.step, step)
        return found

    def reveal_combatant(self, combatant: str, *, author: str = "gm") -> StepOutcome:
        """Show the players a hidden combatant, and every step that involved them."""
        self._refresh_if_stale()
        if combatant not in self.hidden():
            shown = ", ".join(sorted(self.hidden())) or "none"
            raise RefusedError(
                f"{combatant!r} is not a hidden combatant of this encounter; hidden: {shown}"
            )
        return self._commit([CombatantRevealed(combatant, author)], new_command_id(), author)

    def waiting(self) -> Waiting | None:
        """The attack waiting for a reaction now, if one is (rules/reactions.py)."""
        self._refresh_if_stale()
        return asking(self.state)

    def events_of_step(self, step: int) -> list[Event]:
        return [e for _, e in recorded_events(self.store, self.id, self.ruleset, step, step)]
