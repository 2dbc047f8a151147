"""The audit: what a log proves, checked in order. The hash chains and the step records
first (fracas.ledger.verify); then, only on a sound log, every seeded roll and revealed
seed, rules drift, the read models and the snapshots against a fold; and, when given, an
export or a witnessed head code the log must still hold. `Fracas.audit` is this."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from fracas.ledger import CONTROL_KINDS, FracasError, LogStore
from fracas.projections.describe import describe
from fracas.projections.glance import latest
from fracas.projections.tables import differing_row, has_tables
from fracas.rules import Encounter, snapshots
from fracas.rules.dice import commitment, verify_roll, verify_served
from fracas.rules.encounter import ruleset_of
from fracas.rules.events import EncounterStarted, Rolled, SeedRevealed
from fracas.rules.snapshots import BadSnapshot

if TYPE_CHECKING:
    from fracas.projections.exports import Progress


class RollCheck(msgspec.Struct, frozen=True):
    encounter: str
    step: int
    counter: str | None
    source: str
    entered_by: str | None
    verdict: str
    position: int | None = None  # the roll's event


class SeedCheck(msgspec.Struct, frozen=True):
    """A revealed seed that does not hash to the commitment logged before its rolls."""

    encounter: str
    position: int
    problem: str


class ReadModelCheck(msgspec.Struct, frozen=True):
    """The stored read models against a fold of the log: the first row that differs."""

    ok: bool
    table: str = ""
    row: list[Any] = []
    problem: str = ""


class DriftCheck(msgspec.Struct, frozen=True):
    encounter: str
    step: int
    problem: str
    recorded: list[str]
    decided: list[str]
    changes: list[str] = []  # the events that differ, field by field


class AgainstCheck(msgspec.Struct, frozen=True):
    export: str
    ok: bool
    head_position: int
    head_hash: str
    problem: str = ""
    position: int | None = None


class HeadCheck(msgspec.Struct, frozen=True):
    encounter: str
    code: str
    ok: bool
    problem: str = ""
    position: int | None = None  # None: a rewrite a head code cannot place


class AuditReport(msgspec.Struct, frozen=True):
    chain_ok: bool
    events_checked: int
    head_hash: str
    first_bad_position: int | None
    chain_problem: str
    rolls: list[RollCheck]
    drift: list[DriftCheck] = []
    drift_checked: bool = False
    against: AgainstCheck | None = None
    steps_ok: bool = True
    steps_problem: str = ""
    steps_bad_position: int | None = None
    missing_triggers: list[str] = []
    head: HeadCheck | None = None
    seeds: list[SeedCheck] = []
    read_models: ReadModelCheck | None = None  # None: no read models in this release's shape
    bad_position: int | None = None  # the first bad position any check named
    snapshots: list[BadSnapshot] = []
    snapshots_checked: int = 0

    @property
    def ok(self) -> bool:
        return (
            not self.snapshots
            and self.chain_ok
            and self.steps_ok
            and not self.missing_triggers
            and not self.seeds
            and (self.read_models is None or self.read_models.ok)
            and not any(r.verdict == "MISMATCH" for r in self.rolls)
            and not self.drift
            and (self.against is None or self.against.ok)
            and (self.head is None or self.head.ok)
        )


def audit(
    store: LogStore,
    *,
    against: str | Path | None = None,
    head: str | None = None,
    encounter: str | None = None,
    progress: Progress | None = None,
) -> AuditReport:
    """The hash chain first; then every step record against its events; then, only on a
    sound log, seeded rolls and rules drift (a broken log is not evidence). Given an
    export, that the log still holds it; given a witnessed head code, that the log
    still extends it. Never raises on a damaged log: it says where the damage is."""
    chain = store.verify()
    steps = store.check_steps() if chain.ok else None
    sound = chain.ok and steps is not None and steps.ok
    encounters = store.encounters() if sound else []
    unreadable = _first_unreadable(store, encounters)
    rolls: list[RollCheck] = []
    seeds: list[SeedCheck] = []
    drifted: list[DriftCheck] = []
    read_models = None
    bad_snapshots: list[BadSnapshot] = []
    snapshots_checked = 0
    if sound and unreadable is None:
        for name in encounters:
            found_rolls, found_seeds = _check_rolls(store, name)
            rolls += found_rolls
            seeds += found_seeds
        drifted = _drift_all(store, encounters, progress)
        read_models = _check_read_models(store, encounters)
        snapshots_checked, bad_snapshots = _check_snapshots(store, encounters)
    if unreadable is not None:
        steps = msgspec.structs.replace(
            steps or chain, ok=False, first_bad_position=unreadable[0], reason=unreadable[1]
        )
    against_check = _against(store, against) if against is not None else None
    head_check = _head(store, head, encounter) if head is not None else None
    named = [
        chain.first_bad_position,
        None if steps is None or steps.ok else steps.first_bad_position,
        *(found.position for found in seeds),
        *(roll.position for roll in rolls if roll.verdict == "MISMATCH"),
        None if against_check is None else against_check.position,
        None if head_check is None else head_check.position,
        *(bad.position for bad in bad_snapshots),
    ]
    return AuditReport(
        chain.ok,
        chain.checked,
        chain.head_hash,
        chain.first_bad_position,
        chain.reason,
        rolls,
        drifted,
        sound and unreadable is None,
        against_check,
        steps is None or steps.ok,
        "" if steps is None else steps.reason,
        None if steps is None else steps.first_bad_position,
        store.missing_triggers(),
        head_check,
        seeds,
        read_models,
        min((p for p in named if p is not None), default=None),
        bad_snapshots,
        snapshots_checked,
    )


def _check_read_models(store: LogStore, encounters: list[str]) -> ReadModelCheck | None:
    """The stored read models against a fold of every encounter, in memory: a row
    edited by hand is named (a rebuild would have hidden it)."""
    if not has_tables(store):
        return None
    folded = {}
    for name in encounters:
        live = Encounter(store, name, snapshots=False)
        folded[name] = (live.view(), live.ruleset)
    found = differing_row(store, folded)
    if found is None:
        return ReadModelCheck(True)
    table, row, problem = found
    return ReadModelCheck(False, table, row, problem)


def _check_snapshots(store: LogStore, encounters: list[str]) -> tuple[int, list[BadSnapshot]]:
    """Every snapshot against a fold from the first event: how many were compared, and
    those that disagree (dropped here when the log is open for writing; see
    `drop_snapshots`)."""
    checked, found = 0, []
    for name in encounters:
        count, bad = snapshots.check(store, name, ruleset_of(store, name))
        checked += count
        found += bad
    return checked, found


def _head(store: LogStore, code: str, encounter: str | None) -> HeadCheck:
    name = encounter or latest(store)  # one deleted whole is named by the count
    position, problem = store.head_problem(name, code)
    return HeadCheck(name, code, not problem, problem, position)


def _first_unreadable(store: LogStore, encounters: list[str]) -> tuple[int, str] | None:
    """The first event that no longer decodes as its ruleset's event, as (position, why)."""
    for name in encounters:
        try:
            ruleset = ruleset_of(store, name)
        except FracasError as error:
            return next(store.events(name)).position, str(error)
        for event in store.events(name):
            if event.kind in CONTROL_KINDS:
                continue
            try:
                ruleset.decode(event.kind, event.schema, event.body)
            except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as error:
                return (
                    event.position,
                    f"its body does not decode as a {ruleset.name} event ({error})",
                )
    return None


def _drift_all(
    store: LogStore, encounters: list[str], progress: Progress | None
) -> list[DriftCheck]:
    """Every encounter decided again step by step (the long part of an audit), with
    `progress` told the steps done of all of them."""
    total = sum(store.head(name).step for name in encounters) if progress else 0
    found: list[DriftCheck] = []
    done = 0
    for name in encounters:
        tick = None if progress is None else lambda step, d=done: progress(d + step, total)
        found += _drift(store, name, tick)
        done += store.head(name).step if progress else 0
    return found


def _drift(
    store: LogStore, encounter: str, progress: Callable[[int], None] | None = None
) -> Iterator[DriftCheck]:
    from fracas.projections.drift import differences
    from fracas.rules.redecide import drift

    live = Encounter(store, encounter, snapshots=False)
    word, reads = live.ruleset.round_word, live.ruleset.reads_rolls
    for found in drift(live, progress):
        spent = live.ruleset.spent_words
        healed = live.ruleset.healed_words
        recorded = [describe(e, word, reads, spent=spent, healed=healed) for e in found.recorded]
        decided = [describe(e, word, reads, spent=spent, healed=healed) for e in found.decided]
        both = found.recorded and found.decided
        changes = differences(found.recorded, found.decided) if both else []
        yield DriftCheck(encounter, found.step, found.problem, recorded, decided, changes)


def _against(store: LogStore, path: str | Path) -> AgainstCheck:
    """Does this log still hold, unchanged, every event the export holds?"""
    from fracas.projections.exports import load_export

    export = load_export(path)
    head = export.header

    def verdict(ok: bool, problem: str = "", at: int | None = None) -> AgainstCheck:
        return AgainstCheck(str(path), ok, head.head_position, head.head_hash, problem, at)

    for exported in export.events:
        at = exported.position
        stored = store.event_at(at)
        if stored is None:
            return verdict(False, f"position {at} is gone from the log", at)
        same = stored.hash == exported.hash and stored.prev_hash == exported.prev_hash
        as_stored = msgspec.structs.astuple(stored) == msgspec.structs.astuple(exported)
        if not same or (head.lossless and not as_stored):
            return verdict(False, f"position {at} differs from the export", at)
    tip = store.event_at(head.head_position) if head.head_position else None
    if head.head_position and (tip is None or tip.hash != head.head_hash):
        return verdict(
            False,
            f"the export's head (position {head.head_position}) is not here",
            head.head_position,
        )
    return verdict(True)


def _check_rolls(store: LogStore, encounter: str) -> tuple[list[RollCheck], list[SeedCheck]]:
    """Every roll re-derived where its seed is revealed; every revealed seed against
    the commitment logged before its rolls (at the start, or by the reveal before)."""
    ruleset = ruleset_of(store, encounter)
    seeds: dict[int, str] = {}
    commitments: dict[int, str] = {}
    rolls: list[tuple[int, int, Rolled]] = []
    forged: list[SeedCheck] = []
    for stored in store.events(encounter):
        if stored.kind in CONTROL_KINDS:
            continue
        event = ruleset.decode(stored.kind, stored.schema, stored.body)
        if isinstance(event, EncounterStarted):
            commitments[event.seed_epoch] = event.seed_sha256
        elif isinstance(event, SeedRevealed):
            committed = commitments.get(event.seed_epoch, "")
            if _commits(event.seed, committed):
                seeds[event.seed_epoch] = event.seed
            else:
                forged.append(SeedCheck(encounter, stored.position, (
                    f"the seed revealed for epoch {event.seed_epoch} does not hash to the "
                    f"commitment logged before its rolls ({committed[:16] or 'none'}...)"
                )))  # fmt: skip
            commitments[event.seed_epoch + 1] = event.next_seed_sha256
        elif isinstance(event, Rolled):
            rolls.append((stored.step, stored.position, event))
    checks = [
        RollCheck(
            encounter,
            step,
            event.roll.counter,
            event.roll.source,
            event.roll.entered_by,
            _verdict(encounter, event, seeds, commitments),
            position,
        )
        for step, position, event in rolls
    ]
    return checks, forged


UNREVEALED = "unverifiable until the seed is revealed"


def _verdict(
    encounter: str, event: Rolled, seeds: dict[int, str], commitments: dict[int, str]
) -> str:
    roll = event.roll
    if roll.source == "manual" and not roll.servers():
        return "manual"
    # a seeded roll, or a typed one with faces the server rolled past those typed: the
    # server's faces are checked against the seed all the same
    seed = seeds.get(roll.seed_epoch or 0)
    if seed is None:
        return UNREVEALED
    if not _commits(seed, commitments.get(roll.seed_epoch or 0, "")):
        return "MISMATCH"
    verify = verify_served if roll.source == "manual" else verify_roll
    return "verified" if verify(seed, encounter, roll) else "MISMATCH"


def _commits(seed: str, committed: str) -> bool:
    """Does the revealed seed hash to the commitment (a seed not in hex never does)?"""
    try:
        return commitment(seed) == committed
    except ValueError:
        return False
