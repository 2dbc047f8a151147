"""The Python API a game master scripts against: a file of encounters with live read models."""

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

from fracas.ledger import NotFoundError, Store
from fracas.ledger.history import COMMAND, UNDO
from fracas.ledger.store import REDONE_KIND, UNDONE_KIND
from fracas.projections.describe import describe
from fracas.projections.tables import drop_tables, ensure_tables, write_view
from fracas.rules import Encounter, Ruleset
from fracas.rules import load as load_ruleset
from fracas.rules.dice import commitment, verify_roll
from fracas.rules.encounter import recorded_events, ruleset_of, started_event
from fracas.rules.events import EncounterStarted, Event, Rolled, SeedRevealed
from fracas.rules.views import View

EXPORT_FORMAT = 1


class LogStep(msgspec.Struct, frozen=True):
    step: int
    control: str
    target: int | None
    undone: bool
    author: str
    at: str
    lines: list[str]
    events: list[dict[str, Any]]


class RollCheck(msgspec.Struct, frozen=True):
    encounter: str
    step: int
    counter: str | None
    source: str
    entered_by: str | None
    verdict: str


class AuditReport(msgspec.Struct, frozen=True):
    chain_ok: bool
    events_checked: int
    head_hash: str
    first_bad_position: int | None
    chain_problem: str
    rolls: list[RollCheck]

    @property
    def ok(self) -> bool:
        return self.chain_ok and not any(r.verdict == "MISMATCH" for r in self.rolls)


class Fracas:
    """One SQLite file of encounters: start, play, undo, read, export, audit."""

    def __init__(self, path: str | Path = "fracas.db", *, synchronous: str = "FULL") -> None:
        self.store = Store(path, synchronous=synchronous)
        with self.store.db.atomic():
            ensure_tables(self.store.db)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "Fracas":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- encounters ----------------------------------------------------------------------

    def new(
        self,
        ruleset: str | Ruleset,
        *,
        title: str = "",
        options: dict[str, Any] | None = None,
        encounter: str | None = None,
        author: str = "gm",
    ) -> Encounter:
        rules = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        return Encounter.start(
            self.store,
            rules,
            title=title,
            options=options,
            encounter=encounter,
            author=author,
            projector=write_view,
        )

    def encounter(self, encounter: str | None = None) -> Encounter:
        """The named encounter, or the most recently started one."""
        if encounter is None:
            started = self.store.encounters()
            if not started:
                raise NotFoundError(
                    f"no encounters in {self.store.path} yet: start one with `fracas new`"
                )
            encounter = started[-1]
        return Encounter(self.store, encounter, projector=write_view)

    def encounters(self) -> list[dict[str, Any]]:
        listed = []
        for encounter in self.store.encounters():
            started = started_event(self.store, encounter)
            version, step = self.store.head(encounter)
            listed.append(
                {
                    "encounter": encounter,
                    "ruleset": started.ruleset,
                    "title": started.title,
                    "steps": step,
                    "events": version,
                }
            )
        return listed

    def view(self, encounter: str | None = None) -> View:
        return self.encounter(encounter).view()

    def rebuild(self) -> int:
        """Drop every read model and fold every encounter again; returns how many."""
        encounters = self.store.encounters()
        with self.store.db.atomic():
            drop_tables(self.store.db)
            ensure_tables(self.store.db)
            for encounter in encounters:
                live = Encounter(self.store, encounter)
                write_view(self.store.conn, encounter, live.view(), None)
        return len(encounters)

    # -- the log -------------------------------------------------------------------------

    def log(self, encounter: str | None = None) -> list[LogStep]:
        live = self.encounter(encounter)
        history = live.history
        by_step: dict[int, list[Event]] = {}
        for step, event in recorded_events(self.store, live.id, live.ruleset):
            by_step.setdefault(step, []).append(event)
        steps = []
        for record in history.steps:
            if record.control == COMMAND:
                events = by_step.get(record.step, [])
                lines = [describe(e) for e in events]
                data = [msgspec.to_builtins(e) for e in events]
            else:
                undo = record.control == UNDO
                lines = [f"{'undoes' if undo else 'redoes'} step {record.target}"]
                data = [{"kind": UNDONE_KIND if undo else REDONE_KIND, "step": record.target}]
            steps.append(
                LogStep(
                    record.step,
                    record.control,
                    record.target,
                    record.step in history.undone,
                    record.author,
                    record.at,
                    lines,
                    data,
                )
            )
        return steps

    # -- export and audit ----------------------------------------------------------------

    def export_jsonl(self, out: IO[str], encounter: str | None = None) -> int:
        """Lossless JSONL: a header, every stored event envelope, and every step record."""
        report = self.store.verify()
        header = {
            "type": "header",
            "format": EXPORT_FORMAT,
            "schema": self.store.schema_version,
            "head_hash": report.head_hash,
            "encounter": encounter,
        }
        out.write(msgspec.json.encode(header).decode() + "\n")
        count = 0
        for event in self.store.events(encounter):
            line = {"type": "event", **msgspec.structs.asdict(event)}
            out.write(msgspec.json.encode(line).decode() + "\n")
            count += 1
        encounters = [encounter] if encounter else self.store.encounters()
        for name in encounters:
            for record in self.store.history(name).steps:
                line = {"type": "step", **msgspec.structs.asdict(record)}
                out.write(msgspec.json.encode(line).decode() + "\n")
        return count

    def audit(self) -> AuditReport:
        chain = self.store.verify()
        rolls = [check for name in self.store.encounters() for check in self._check_rolls(name)]
        return AuditReport(
            chain.ok, chain.checked, chain.head_hash, chain.first_bad_position, chain.reason, rolls
        )

    def _check_rolls(self, encounter: str) -> Iterator[RollCheck]:
        ruleset = ruleset_of(self.store, encounter)
        seeds: dict[int, str] = {}
        commitments: dict[int, str] = {}
        rolls: list[tuple[int, Rolled]] = []
        for step, event in recorded_events(self.store, encounter, ruleset):
            if isinstance(event, EncounterStarted):
                commitments[event.seed_epoch] = event.seed_sha256
            elif isinstance(event, SeedRevealed):
                seeds[event.seed_epoch] = event.seed
                commitments[event.seed_epoch + 1] = event.next_seed_sha256
            elif isinstance(event, Rolled):
                rolls.append((step, event))
        for step, event in rolls:
            yield RollCheck(
                encounter,
                step,
                event.roll.counter,
                event.roll.source,
                event.roll.entered_by,
                self._verdict(encounter, event, seeds, commitments),
            )

    @staticmethod
    def _verdict(
        encounter: str, event: Rolled, seeds: dict[int, str], commitments: dict[int, str]
    ) -> str:
        roll = event.roll
        if roll.source == "manual":
            return "manual"
        seed = seeds.get(roll.seed_epoch or 0)
        if seed is None:
            return "unverifiable until the seed is revealed"
        if commitment(seed) != commitments.get(roll.seed_epoch or 0):
            return "MISMATCH"
        return "verified" if verify_roll(seed, encounter, roll) else "MISMATCH"
