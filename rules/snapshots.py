"""Snapshots of a folded fight: where a fold may start instead of at the first event.

A snapshot is a cache beside the log, never part of the record. It is written every
`SNAPSHOT_EVERY` events (and when a fight ends) in the transaction of the step it folds, and
it is used only when everything it was made from still holds: the same events (the chain
hash of its last event), the same steps undone, and the same code folding the same shape of
state (`key_of`). Nothing is trusted: `audit` folds every encounter from its first event and
compares each snapshot it passes (`check`); one that disagrees is named and dropped.
Deleting every snapshot changes no answer, only how long the answer takes.
"""

import hashlib
import hmac
import re
import secrets
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from fracas.ledger import CONTROL_KINDS, History, LogStore, Snapshot
from fracas.rules.events import EncounterStarted, SeedRevealed
from fracas.rules.ruleset import Ruleset

# Events between snapshots. A fold costs about 4 us an event and writing a snapshot some
# 30-100 us inside its step's transaction (one step in thirty), so a fight of any length is
# ready after at most about 1 ms of folding (bench/bench_ledger.py, "state ready").
SNAPSHOT_EVERY = 200
UNREADABLE = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)

SEAL_NAME = "fracas snapshots"  # the key file's entry holding the snapshots' MAC key
_HEX_KEY = re.compile(r"^[0-9a-f]{64}\Z")
_seal_keys: "weakref.WeakKeyDictionary[LogStore, bytes | None]" = weakref.WeakKeyDictionary()
_keys: dict[int, str] = {}
_checkpoints: dict[int, Any] = {}


def _source_files(ruleset: Ruleset) -> list[Path]:
    """The Python files of the package whose code folds this ruleset's events."""
    module = sys.modules.get(ruleset.evolve.__module__)
    source = getattr(module, "__file__", None)
    return sorted(Path(source).parent.glob("*.py")) if source else []


def key_of(ruleset: Ruleset) -> str:
    """What a snapshot of this ruleset's state depends on: its name and event schema, the
    shape of its state, and the code of the package that folds it. Any change to them
    leaves every earlier snapshot unused."""
    found = _keys.get(id(ruleset))
    if found is None:
        digest = hashlib.sha256(f"{ruleset.name}\n{ruleset.schema}\n".encode())
        digest.update(repr(type(ruleset.initial()).__annotations__).encode())
        for path in _source_files(ruleset):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        found = _keys[id(ruleset)] = digest.hexdigest()[:32]
    return found


def _checkpoint_type(ruleset: Ruleset) -> Any:
    found = _checkpoints.get(id(ruleset))
    if found is None:
        found = _checkpoints[id(ruleset)] = msgspec.defstruct(
            "Checkpoint",
            [("state", type(ruleset.initial())), ("epoch", int), ("commitment", str)],
            frozen=True,
        )
    return found


def encode(ruleset: Ruleset, state: Any, epoch: int, commitment: str) -> str:
    """The body of a snapshot: the state, and the dice seed the fight rolled with then."""
    return msgspec.json.encode(_checkpoint_type(ruleset)(state, epoch, commitment)).decode()


def decode(ruleset: Ruleset, body: str) -> Any | None:
    """A snapshot's checkpoint (state, epoch, commitment); None if it does not decode."""
    try:
        return msgspec.json.decode(body, type=_checkpoint_type(ruleset))
    except UNREADABLE:
        return None


def undone_through(history: History, step: int) -> tuple[int, ...]:
    return tuple(sorted(u for u in history.undone if u <= step))


def seal_key(store: LogStore, *, create: bool = False) -> bytes | None:
    """The GM's key that seals this log's snapshots, kept in the key file beside the seeds:
    someone who edits the log alone cannot make a snapshot that is used. None without the
    key file (a copy of the log alone folds from the first event)."""
    if store in _seal_keys and (_seal_keys[store] is not None or not create):
        return _seal_keys[store]
    found = store.unseal(SEAL_NAME)
    if found is None and create and not store.readonly:
        store.seal(SEAL_NAME, secrets.token_hex(32))
        found = store.unseal(SEAL_NAME)
    key = bytes.fromhex(found) if found and _HEX_KEY.match(found) else None
    _seal_keys[store] = key
    return key


def _mac(key: bytes, snapshot: Snapshot, made_by: str) -> str:
    fields = (snapshot.encounter, snapshot.version, snapshot.step, snapshot.hash, made_by)
    message = msgspec.json.encode([*fields, snapshot.undone, snapshot.redo, snapshot.body])
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


def sealed(store: LogStore, snapshot: Snapshot, ruleset: Ruleset) -> Snapshot | None:
    """The snapshot with its `key` naming the code that made it and sealed by the GM's
    key; None when there is no key to seal with."""
    key = seal_key(store, create=True)
    if key is None:
        return None
    made_by = key_of(ruleset)
    return msgspec.structs.replace(snapshot, key=f"{made_by}.{_mac(key, snapshot, made_by)}")


def seal_holds(store: LogStore, snapshot: Snapshot, ruleset: Ruleset) -> bool:
    """Whether the snapshot is as this code sealed it with the GM's key."""
    made_by, _, mac = snapshot.key.partition(".")
    key = seal_key(store)
    return (
        key is not None
        and made_by == key_of(ruleset)
        and hmac.compare_digest(mac, _mac(key, snapshot, made_by))
    )


def made_here(snapshot: Snapshot, ruleset: Ruleset) -> bool:
    return snapshot.key.partition(".")[0] == key_of(ruleset)


def fits(snapshot: Snapshot, history: History, ruleset: Ruleset) -> bool:
    """Whether a snapshot folds what this history folds up to its step: made by this
    code, with the same steps undone."""
    return made_here(snapshot, ruleset) and snapshot.undone == undone_through(
        history, snapshot.step
    )


class Start(msgspec.Struct, frozen=True):
    """Where a fold starts: a state, and the last event already folded into it."""

    state: Any
    version: int = 0
    step: int = 0
    epoch: int = 0
    commitment: str = ""


def start(
    store: LogStore, encounter: str, ruleset: Ruleset, history: History, up_to_version: int
) -> Start | None:
    """The newest snapshot a fold of `history` up to `up_to_version` can start from."""
    for snapshot in store.snapshots(encounter, at_most=up_to_version, limit=4):
        if (found := _start_at(store, snapshot, history, ruleset)) is not None:
            return found
    return None


def _start_at(
    store: LogStore, snapshot: Snapshot, history: History, ruleset: Ruleset
) -> Start | None:
    """A fold's start from this snapshot, if it fits the history, its seal holds, it
    decodes and the log still holds the event it folded up to."""
    if not fits(snapshot, history, ruleset) or not seal_holds(store, snapshot, ruleset):
        return None
    checkpoint = decode(ruleset, snapshot.body)
    if checkpoint is None or store.hash_at(snapshot.encounter, snapshot.version) != snapshot.hash:
        return None
    return Start(
        checkpoint.state, snapshot.version, snapshot.step, checkpoint.epoch, checkpoint.commitment
    )


def resume(store: LogStore, encounter: str, ruleset: Ruleset) -> tuple[History, Start] | None:
    """The encounter's history and a start for its fold, from its newest usable snapshot,
    reading only the steps since: what makes a long fight ready as fast as a short one."""
    for snapshot in store.snapshots(encounter, limit=4):
        if not made_here(snapshot, ruleset):
            continue
        history = store.history_from(snapshot)
        if (found := _start_at(store, snapshot, history, ruleset)) is not None:
            return history, found
    return None


# -- the audit's side: every snapshot against a fold from the first event ------------------


class BadSnapshot(msgspec.Struct, frozen=True):
    """A snapshot that disagrees with the fold of the log, named by the position of the
    event it folded up to; `dropped` once nothing can start from it again."""

    encounter: str
    version: int
    position: int | None
    problem: str
    dropped: bool = False


def check(store: LogStore, encounter: str, ruleset: Ruleset) -> tuple[int, list[BadSnapshot]]:
    """Fold the encounter from its first event and compare every snapshot of it that this
    code made: state, seed, steps undone and redo stack as they were at its step. Returns
    how many were compared, and those that disagree."""
    ours = [s for s in store.snapshots(encounter) if made_here(s, ruleset)]
    if not ours:
        return 0, []
    history = store.history(encounter)
    bad = []
    for snapshot, problem in _compare(store, encounter, ruleset, history, ours):
        if problem:
            position = store.event_position(encounter, snapshot.version)
            dropped = store.forget_snapshot(encounter, snapshot.version)
            bad.append(BadSnapshot(encounter, snapshot.version, position, problem, dropped))
    return len(ours), bad


def _compare(
    store: LogStore,
    encounter: str,
    ruleset: Ruleset,
    history: History,
    snapshots: list[Snapshot],
) -> Iterator[tuple[Snapshot, str]]:
    by_version = {s.version: s for s in snapshots}
    records = {r.step: r for r in history.steps}
    then = _steps_then(history, {s.step for s in snapshots})
    for snapshot in snapshots:
        record = records.get(snapshot.step)
        if record is None or record.last_version != snapshot.version:
            yield snapshot, "it names a step and version the log does not have"
            by_version.pop(snapshot.version)
            continue
        if store.hash_at(encounter, snapshot.version) != snapshot.hash:
            yield snapshot, "it names an event hash the log does not have"
            by_version.pop(snapshot.version)
            continue
        if seal_key(store) is not None and not seal_holds(store, snapshot, ruleset):
            yield snapshot, "its seal does not hold: it was edited after it was written"
            by_version.pop(snapshot.version)
            continue
        if (snapshot.undone, snapshot.redo) != then[snapshot.step]:
            yield snapshot, "its undone steps or redo stack are not the log's at its step"
            by_version.pop(snapshot.version)
    groups: dict[tuple[int, ...], list[Snapshot]] = {}
    for snapshot in by_version.values():
        groups.setdefault(snapshot.undone, []).append(snapshot)
    for undone, group in groups.items():
        yield from _compare_group(store, encounter, ruleset, frozenset(undone), group)


def _steps_then(
    history: History, steps: set[int]
) -> dict[int, tuple[tuple[int, ...], tuple[int, ...]]]:
    """(undone, redo stack) as they stood once each of these steps was recorded: one walk
    over the step records, however many snapshots there are."""
    found = {}
    grown = History.of(())
    for record in history.steps:
        grown = grown.with_step(record)
        if record.step in steps:
            found[record.step] = (undone_through(grown, record.step), grown.redo_stack)
    return found


def _compare_group(
    store: LogStore,
    encounter: str,
    ruleset: Ruleset,
    undone: frozenset[int],
    group: list[Snapshot],
) -> Iterator[tuple[Snapshot, str]]:
    """One fold with these steps undone, stopping at each snapshot's version to compare."""
    waiting = sorted(group, key=lambda s: s.version)
    state, epoch, commitment = ruleset.initial(), 1, ""
    for version, step, kind, schema, body in store.rows_with_versions(encounter):
        while waiting and waiting[0].version < version:
            yield _verdict(ruleset, waiting.pop(0), state, epoch, commitment)
        if kind in CONTROL_KINDS:
            continue
        event = ruleset.decode(kind, schema, body)
        epoch, commitment = _seed_after(event, epoch, commitment)  # undone or not, as live
        if step not in undone:
            state = ruleset.evolve(state, event)
    for snapshot in waiting:
        yield _verdict(ruleset, snapshot, state, epoch, commitment)


def seed_after(events: list[Any], epoch: int, commitment: str) -> tuple[int, str]:
    """The dice seed in force once these events are recorded."""
    for event in events:
        epoch, commitment = _seed_after(event, epoch, commitment)
    return epoch, commitment


def _seed_after(event: Any, epoch: int, commitment: str) -> tuple[int, str]:
    """The dice seed in force after this event (as `current_commitment` reads it)."""
    if isinstance(event, EncounterStarted):
        return event.seed_epoch, event.seed_sha256
    if isinstance(event, SeedRevealed):
        return event.seed_epoch + 1, event.next_seed_sha256
    return epoch, commitment


def _verdict(
    ruleset: Ruleset, snapshot: Snapshot, state: Any, epoch: int, commitment: str
) -> tuple[Snapshot, str]:
    checkpoint = decode(ruleset, snapshot.body)
    if checkpoint is None:
        return snapshot, "its state does not decode"
    if msgspec.json.encode(checkpoint.state) != msgspec.json.encode(state):
        return snapshot, "its state is not what the events fold to"
    if (checkpoint.epoch, checkpoint.commitment) != (epoch, commitment):
        return snapshot, "its dice seed commitment is not the log's"
    return snapshot, ""
