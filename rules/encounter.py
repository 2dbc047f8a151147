"""One encounter as the table plays it: load, decide, append as one step, evolve.

The projector is handed in from above (fracas.projections) so that read models are
written in the same transaction as the events, without this layer knowing any table.
"""

import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import msgspec

from fracas.ledger import CONTROL_KINDS, BadInputError, History, NewEvent, RefusedError, Store
from fracas.ledger.history import REDO, SUPERSEDE, UNDO
from fracas.rules import ruleset as registry
from fracas.rules.dice import ManualDice, SeededDice, commitment, new_seed
from fracas.rules.events import EncounterStarted, Event, Note, SeedRevealed
from fracas.rules.ruleset import Context, Ruleset
from fracas.rules.views import View

Projector = Callable[[Any, str, View, View | None], None]
_encode = msgspec.json.Encoder().encode


class StepOutcome(msgspec.Struct, frozen=True):
    step: int
    events: list[Event]
    duplicate: bool = False


def to_new_events(events: Iterable[Event]) -> list[NewEvent]:
    return [
        NewEvent(type(e).__struct_config__.tag, _encode(e).decode())  # type: ignore[arg-type]
        for e in events
    ]


def seed_name(epoch: int) -> str:
    return f"seed:{epoch}"


def started_event(store: Store, encounter: str) -> EncounterStarted:
    """The event that opened the encounter: its ruleset, title, options, seed commitment."""
    store.require(encounter)
    _step, _kind, _schema, body = next(iter(store.rows(encounter, up_to_step=1)))
    return msgspec.json.decode(body, type=EncounterStarted)


def ruleset_of(store: Store, encounter: str) -> Ruleset:
    return registry.load(started_event(store, encounter).ruleset)


def recorded_events(
    store: Store, encounter: str, ruleset: Ruleset, up_to_step: int | None = None
) -> Iterator[tuple[int, Event]]:
    """(step, event) for every recorded event, undone steps included; undo and redo
    themselves are step records, not ruleset events, and are left out."""
    for step, kind, schema, body in store.rows(encounter, up_to_step=up_to_step):
        if kind not in CONTROL_KINDS:
            yield step, ruleset.decode(kind, schema, body)


class Encounter:
    def __init__(
        self,
        store: Store,
        encounter: str,
        ruleset: Ruleset | None = None,
        projector: Projector | None = None,
    ) -> None:
        self.store, self.id = store, encounter
        self.ruleset = ruleset or ruleset_of(store, encounter)
        self.projector = projector
        self.reload()

    @classmethod
    def start(
        cls,
        store: Store,
        ruleset: Ruleset,
        *,
        title: str = "",
        options: dict[str, Any] | None = None,
        encounter: str | None = None,
        author: str = "gm",
        projector: Projector | None = None,
    ) -> "Encounter":
        encounter = encounter or uuid.uuid4().hex[:12]
        if store.exists(encounter):
            raise RefusedError(f"encounter {encounter!r} already exists; pick another id")
        checked = ruleset.options(options or {})
        seed = new_seed()
        started = EncounterStarted(
            ruleset.name, title, msgspec.to_builtins(checked), commitment(seed), 1
        )
        state = ruleset.evolve(ruleset.initial(), started)

        def write(conn: Any) -> None:
            store.seal(encounter, seed_name(1), seed)
            if projector is not None:
                projector(conn, encounter, ruleset.view(state), None)

        store.append(
            encounter,
            to_new_events([started]),
            expected_version=0,
            command_id=f"start:{encounter}",
            author=author,
            project=write,
        )
        return cls(store, encounter, ruleset, projector)

    # -- state ---------------------------------------------------------------------------

    def reload(self) -> None:
        self.history = self.store.history(self.id)
        self.state = self.fold(self.history)
        self._epoch = self._sealed_epoch()
        self._written: View | None = None  # unknown: the next write rewrites every row
        self._pending: View | None = None

    def fold(self, history: History | None = None, up_to_step: int | None = None) -> Any:
        """Fold the effective events, streamed in order; undone steps are skipped."""
        history = history or self.store.history(self.id)
        ruleset = self.ruleset
        decode, evolve, current = ruleset.decoder.decode, ruleset.evolve, ruleset.schema
        state = ruleset.initial()
        for schema, body in self.store.effective_bodies(self.id, history.undone, up_to_step):
            event = decode(body) if schema == current else ruleset.upcast(schema, body)
            state = evolve(state, event)
        return state

    def view(self) -> View:
        return self.ruleset.view(self.state)

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

    def _refresh_if_stale(self) -> None:
        if self.store.head(self.id)[0] != self.history.head_version:
            self.reload()

    @property
    def version(self) -> int:
        return self.history.head_version

    def seed_epoch(self) -> int:
        return self._epoch

    def _sealed_epoch(self) -> int:
        epoch = 1
        while self.store.unseal(self.id, seed_name(epoch + 1)) is not None:
            epoch += 1
        return epoch

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
    ) -> StepOutcome:
        """Decide a command and append its events as one step; `secret` marks its rolls GM-only.

        Retrying a command id that is already recorded returns that step and rolls nothing.
        """
        command_id = command_id or uuid.uuid4().hex
        original = self.store.step_for_command(self.id, command_id)
        if original is not None:
            return StepOutcome(original.step, self.events_of_step(original.step), True)
        events = self.decide(
            command,
            dice=dice,
            entered_by=entered_by,
            command_id=command_id,
            author=author,
            secret=secret,
        )
        return self.record(events, command_id=command_id, author=author)

    def decide(
        self,
        command: Any,
        *,
        dice: list[int] | None = None,
        entered_by: str = "gm",
        command_id: str = "",
        author: str = "gm",
        secret: bool = False,
    ) -> list[Event]:
        """The events a command would append now, without appending them."""
        self._refresh_if_stale()
        step = self.history.head_step + 1
        epoch = self.seed_epoch()
        source = (
            ManualDice(dice, entered_by)
            if dice is not None
            else SeededDice(self._seed(epoch), epoch, self.id, step)
        )
        ctx = Context(source, step, author, command_id)
        events = self.ruleset.decide_step(self.state, command, ctx, secret=secret)
        if isinstance(source, ManualDice):
            source.finish()
        return events

    def record(
        self, events: list[Event], *, command_id: str | None = None, author: str = "gm"
    ) -> StepOutcome:
        """Append decided events as one step: evolve, projections, hash chain, one commit."""
        return self._commit(events, command_id or uuid.uuid4().hex, author)

    def sealed_seed(self) -> str | None:
        """The current dice seed, kept beside the log until revealed; None if not held here."""
        return self.store.unseal(self.id, seed_name(self.seed_epoch()))

    def _seed(self, epoch: int) -> str:
        seed = self.store.unseal(self.id, seed_name(epoch))
        if seed is None:
            raise RefusedError("this encounter has no sealed dice seed; give the faces with --dice")
        return seed

    def _commit(
        self,
        events: list[Event],
        command_id: str,
        author: str,
        before_commit: Callable[[], None] | None = None,
    ) -> StepOutcome:
        state = self.state
        for event in events:
            state = self.ruleset.evolve(state, event)
        result = self.store.append(
            self.id,
            to_new_events(events),
            expected_version=self.version,
            command_id=command_id,
            author=author,
            project=self._writer(state, before_commit),
        )
        if result.duplicate or result.record is None:
            return StepOutcome(result.step, self.events_of_step(result.step), True)
        self.history = self.history.with_step(result.record)
        self.state = state
        self._written = self._pending
        return StepOutcome(result.step, events)

    def _writer(
        self, state: Any, before_commit: Callable[[], None] | None = None
    ) -> Callable[[Any], None]:
        def write(conn: Any) -> None:
            if before_commit is not None:
                before_commit()
            if self.projector is not None:
                view = self.ruleset.view(state)
                self.projector(conn, self.id, view, self._written)
                self._pending = view

        return write

    def undo(self, *, command_id: str | None = None, author: str = "gm") -> int:
        """Take back the latest effective step; returns the step undone."""
        return self._control(UNDO, command_id, author)

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
        self, control: str, command_id: str | None, author: str, target: int | None = None
    ) -> int:
        self._refresh_if_stale()
        if target is None:
            target = self.history.undo_target() if control == UNDO else self.history.redo_target()
        undone = set(self.history.undone)
        if control == REDO:
            undone.discard(target)
        else:
            undone.add(target)
        after = History(self.history.steps, frozenset(undone), ())
        state = self.fold(after)
        result = self.store.append_control(
            self.id,
            control,
            target,
            expected_version=self.version,
            command_id=command_id or uuid.uuid4().hex,
            author=author,
            project=self._writer(state),
        )
        if result.duplicate or result.record is None:
            self.reload()
            return target
        self.history = self.history.with_step(result.record)
        self.state = state
        self._written = self._pending
        return target

    def reveal(self, *, author: str = "gm") -> StepOutcome:
        """Log the current dice seed so anyone can re-derive every roll; commit a new one."""
        self._refresh_if_stale()
        epoch = self.seed_epoch()
        seed, next_seed = self._seed(epoch), new_seed()
        event = SeedRevealed(epoch, seed, commitment(next_seed))

        def seal_next() -> None:
            self.store.seal(self.id, seed_name(epoch + 1), next_seed)

        outcome = self._commit([event], uuid.uuid4().hex, author, seal_next)
        self._epoch = self._sealed_epoch()
        return outcome

    def note(self, text: str, *, author: str = "gm") -> StepOutcome:
        """A note for the record; it changes nothing in the fight."""
        self._refresh_if_stale()
        return self._commit([Note(text, author)], uuid.uuid4().hex, author)

    def events_of_step(self, step: int) -> list[Event]:
        return [
            event
            for s, event in recorded_events(self.store, self.id, self.ruleset, step)
            if s == step
        ]
