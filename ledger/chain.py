"""The hash chains of a log, and how they are checked. No SQL here: every backend stores the
same rows and hands them to these functions.

Each encounter is its own chain: an event's previous-hash is the hash of the event before it
in the same encounter (GENESIS for version 1), so appends to different encounters never
read or extend a common tip. The registry is a second, small chain with one entry per
encounter, written when the encounter starts and naming the hash of its first event: it is
what makes the set of encounters verifiable (a whole encounter deleted, or one slipped in,
breaks it). Events written before schema 3 (scope FILE_CHAIN) stay on the one chain through
the whole file they were written on, by position, and are checked as they always were.
"""

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import groupby

import msgspec

from fracas.ledger.values import SqlInt

GENESIS = "0" * 64
FILE_CHAIN = 0  # schema 1 and 2: one chain through the file, by position
ENCOUNTER_CHAIN = 1  # schema 3: one chain per encounter, by version
# An encounter chain whose every event also names, at the head of its salt ("3:9f0c..."),
# how many encounters the file had begun when it was written: a file-wide sequence inside
# the hash, so that deleting the last-begun encounter whole (its registry entry too) leaves
# later steps of other encounters naming more encounters than the log holds. Events
# written before it (scope 1) are checked as they always were.
COUNTED_CHAIN = 2
ENCOUNTER_CHAINS = (ENCOUNTER_CHAIN, COUNTED_CHAIN)


def counted_salt(begun: int, salt: str) -> str:
    return f"{begun}:{salt}"


def begun_of(event: "StoredEvent") -> int | None:
    """How many encounters had begun when a counted event was written (None: not counted,
    or a salt that does not say, which its hash then catches if edited)."""
    return begun_in(event.scope, event.salt)


def begun_in(scope: int, salt: str | None) -> int | None:
    """`begun_of` an event's scope and salt (as a stored row holds them)."""
    if scope != COUNTED_CHAIN or salt is None:
        return None
    count, sep, _ = salt.partition(":")
    return int(count) if sep and count.isascii() and count.isdigit() else None


class StoredEvent(msgspec.Struct, frozen=True):
    position: SqlInt
    encounter: str
    version: SqlInt
    step: SqlInt
    kind: str
    author: str
    at: str
    schema: SqlInt
    body: str
    prev_hash: str
    hash: str
    salt: str | None = None  # None on events written before salts (schema 1)
    scope: SqlInt = FILE_CHAIN

    def hashed_row(self) -> tuple:
        """The stored values the hash covers. The position is left out of an encounter
        chain: a server hands positions out from a sequence, not in chain order."""
        row = (
            self.encounter,
            self.version,
            self.step,
            self.kind,
            self.author,
            self.at,
            self.schema,
            self.body,
        )
        return row if self.scope in ENCOUNTER_CHAINS else (self.position, *row)

    def computed_hash(self, prev_hash: str) -> str:
        return chain_hash(prev_hash, self.hashed_row(), self.salt)


class RegistryEntry(msgspec.Struct, frozen=True):
    """One encounter in the record of encounters: the hash of its first event, chained."""

    seq: int
    encounter: str
    first_hash: str
    prev_hash: str
    hash: str


class VerifyReport(msgspec.Struct, frozen=True):
    ok: bool
    checked: int
    head_hash: str
    first_bad_position: int | None = None
    reason: str = ""
    head_position: int = 0  # the last event's position (positions may have gaps on a server)


def where(report: VerifyReport) -> str:
    """Where a report found its first problem, for a one-line message."""
    if report.first_bad_position is None:
        return "in its records"
    return f"at position {report.first_bad_position}"


def chain_hash(prev_hash: str, row: Iterable[object], salt: str | None = None) -> str:
    """SHA-256 over the previous hash and the exact stored values of one row, and its salt.

    The salt (16 random bytes per event, stored in the row) keeps a hash from being a test
    of a guess: without the row itself, nobody can try every die face against it."""
    values = list(row) if salt is None else [*row, salt]
    return hashlib.sha256(prev_hash.encode() + msgspec.json.encode(values)).hexdigest()


def registry_entry(
    previous: RegistryEntry | None, encounter: str, first_hash: str
) -> RegistryEntry:
    seq = previous.seq + 1 if previous else 1
    prev_hash = previous.hash if previous else GENESIS
    digest = chain_hash(prev_hash, (seq, encounter, first_hash))
    return RegistryEntry(seq, encounter, first_hash, prev_hash, digest)


def registry_of(firsts: Iterable[tuple[str, str]]) -> Iterator[RegistryEntry]:
    """The registry of a log's encounters, given (encounter, hash of its version 1) in the
    order they started: what a migration or an import writes."""
    entry = None
    for encounter, first_hash in firsts:
        entry = registry_entry(entry, encounter, first_hash)
        yield entry


Problem = tuple[int | None, str]  # (position to name, why)
FreeAfter = Callable[[int], int]  # the first position after this one that no event holds


def _next_position(after: int) -> int:
    return after + 1


def file_chain_problem(events: Iterable[StoredEvent]) -> Problem | None:
    """The first broken link of the schema-1/2 events, walked by position (they were written
    with no hole in the positions, so a missing one is named itself)."""
    prev_hash, expected = GENESIS, 1
    for event in events:
        if event.computed_hash(event.prev_hash) != event.hash:
            return event.position, "its content does not match its hash (edited after writing)"
        if event.position != expected:
            return expected, f"position {expected} is missing (deleted)"
        if event.prev_hash != prev_hash:
            return event.position, "its previous-hash does not match the event before it"
        prev_hash, expected = event.hash, expected + 1
    return None


def encounter_chain_problem(
    events: Iterable[StoredEvent], free_after: FreeAfter = _next_position
) -> Problem | None:
    """The first bad position of one encounter's events, walked by version. An event whose
    own hash does not cover its own row was edited: it is named. A missing version was
    deleted: the gap is named by the position the deleted event held, the first position
    after the encounter's event before it that no event holds (exact where positions have
    no holes, as in every file fracas writes; on a server whose sequence skipped a number,
    the first such skipped number). Events still on the file chain are checked there."""
    problems: list[Problem] = []
    prev_hash, expected, after, seen_encounter_chain = GENESIS, 1, 0, False
    for event in events:
        name = event.encounter
        own_hash_holds = event.computed_hash(event.prev_hash) == event.hash
        if event.scope in ENCOUNTER_CHAINS and not own_hash_holds:
            problems.append(
                (event.position, "its content does not match its hash (edited after writing)")
            )
        if not isinstance(event.version, int) or event.version < expected:
            problems.append((event.position, f"its version {event.version} is out of order"))
            continue
        if event.version > expected:
            problems.append(
                (free_after(after), f"version {expected} of encounter {name} is missing (deleted)")
            )
        elif event.scope in ENCOUNTER_CHAINS and event.prev_hash != prev_hash:
            problems.append(
                (event.position, "its previous-hash does not match the event before it")
            )
        if event.scope in ENCOUNTER_CHAINS:
            seen_encounter_chain = True
        elif event.scope != FILE_CHAIN or seen_encounter_chain:
            problems.append((event.position, "its chain scope was edited"))
        prev_hash, expected, after = event.hash, event.version + 1, event.position
    return first_of(problems)


def first_of(problems: Iterable[Problem]) -> Problem | None:
    """The problem at the lowest position (one with no position last)."""
    return min(problems, key=lambda p: (p[0] is None, p[0] or 0), default=None)


def registry_problem(
    entries: Iterable[RegistryEntry],
    firsts: dict[str, StoredEvent],
    free_after: FreeAfter = _next_position,
) -> Problem | None:
    """The record of encounters against the encounters the events hold. An encounter whose
    events are gone is named by the position its first event held (the first position no
    event holds); an entry edited, by its encounter's first event."""
    previous: RegistryEntry | None = None
    listed: set[str] = set()
    problems: list[Problem] = []
    for entry in entries:
        first = firsts.get(entry.encounter)
        at = first.position if first else free_after(0)
        expected = registry_entry(previous, entry.encounter, entry.first_hash)
        if entry.seq != expected.seq:
            problems.append(
                (free_after(0), f"entry {expected.seq} of the record of encounters is missing")
            )
        elif (entry.prev_hash, entry.hash) != (expected.prev_hash, expected.hash):
            problems.append((at, f"entry {entry.seq} of the record of encounters was edited"))
        elif first is None:
            problems.append(
                (
                    at,
                    f"encounter {entry.encounter} is in the record of encounters, "
                    "but its events are gone (deleted)",
                )
            )
        elif first.hash != entry.first_hash:
            problems.append(
                (at, f"encounter {entry.encounter} no longer starts with its recorded event")
            )
        listed.add(entry.encounter)
        if problems:
            break
        previous = entry
    for name, first in firsts.items():
        if name not in listed:
            problems.append(
                (first.position, f"encounter {name} is not in the record of encounters")
            )
    return first_of(problems)


class _Seen:
    """What verify keeps of one encounter's events as they stream past: never the events
    themselves, so a log of any length is checked in constant memory."""

    def __init__(self) -> None:
        self.count = 0
        self.first: StoredEvent | None = None
        self.tip: tuple[int, str] = (0, GENESIS)  # (position, hash) of the latest written
        self.most: tuple[int, int] = (0, 0)  # (begun, position): the most encounters named

    def each(self, events: Iterable[StoredEvent]) -> Iterator[StoredEvent]:
        for event in events:
            self.count += 1
            if self.first is None:
                self.first = event
            self.tip = max(self.tip, (event.position, event.hash))
            begun = begun_of(event)
            if begun is not None and begun > self.most[0]:
                self.most = (begun, event.position)
            yield event


def begun_problem(most: tuple[int, int], registry: list[RegistryEntry]) -> Problem | None:
    """An event naming more encounters begun than the record of encounters holds: the
    encounters begun last were deleted whole, entries and all."""
    begun, position = most
    if begun > len(registry):
        return position, (
            f"it was written when {begun} encounters had begun, the log holds {len(registry)}: "
            "an encounter was deleted whole"
        )
    return None


def verify(
    file_chain: Iterable[StoredEvent],
    by_encounter: Iterable[StoredEvent],
    registry: Iterable[RegistryEntry] | None,
    free_after: FreeAfter = _next_position,
) -> VerifyReport:
    """Every link: the file chain of older events, each encounter's chain, the registry
    (None for a file from before it). The problem at the lowest position is named."""
    problems: list[Problem] = []
    found = file_chain_problem(file_chain)
    if found:
        problems.append(found)
    checked, firsts, tip, most = 0, {}, (0, GENESIS), (0, 0)
    for name, rows in groupby(by_encounter, key=lambda event: event.encounter):
        seen = _Seen()
        found = encounter_chain_problem(seen.each(rows), free_after)
        checked += seen.count
        if seen.first is not None:
            firsts[name] = seen.first
        tip = max(tip, seen.tip)
        most = max(most, seen.most)
        if found:
            problems.append(found)
    if registry is not None:
        entries = list(registry)
        found = registry_problem(entries, firsts, free_after) or begun_problem(most, entries)
        if found:
            problems.append(found)
    if not problems:
        return VerifyReport(True, checked, tip[1], head_position=tip[0])
    position, reason = first_of(problems) or (None, "")
    return VerifyReport(False, checked, tip[1], position, reason, tip[0])


_encode = msgspec.json.Encoder().encode


class ChainWatch:
    """Each encounter's chain checked as whole event rows (EVENT_COLUMNS order) stream past
    in position order, keeping only each encounter's tip: an export or an import checks
    the chain in the pass that reads or writes the rows, in constant memory.

    It vouches only for what it can check in one pass: events of encounter chains, each
    encounter's versions in position order from 1, every link and hash holding, the
    registry naming every first event. Anything else (an older file chain, a row out of
    order, a link or hash that does not hold) makes it `doubtful`: the caller then runs
    the exact `verify`, which names the first bad position."""

    def __init__(self) -> None:
        self.tips: dict[str, tuple[int, str]] = {}  # encounter -> (version, hash)
        self.firsts: dict[str, StoredEvent] = {}  # encounter -> its first event
        self.count = 0
        self.head: tuple[int, str] = (0, GENESIS)  # (position, hash) of the last row seen
        self.most: tuple[int, int] = (0, 0)  # (begun, position): the most encounters named
        self.doubtful = False

    def see(self, rows: Sequence[tuple]) -> None:
        self.count += len(rows)
        if self.doubtful:
            return
        tips, sha, encode, (head, head_hash) = self.tips, hashlib.sha256, _encode, self.head
        chains, counted, most = ENCOUNTER_CHAINS, COUNTED_CHAIN, self.most
        # A salt that opens with the most encounters named so far names no more: its count
        # is not read (most events are such, and reading one is most of a row's work here).
        same = f"{most[0]}:"
        # an encounter's rows run together: its tip is kept in locals while they pass, and
        # put back in `tips` when another encounter's row comes (or the batch ends)
        current, last, tip = None, 0, GENESIS
        for row in rows:
            (position, encounter, version, step, kind, author, at, schema, body, prev, digest,
             salt, scope) = row  # fmt: skip
            if encounter != current:
                if current is not None:
                    tips[current] = (last, tip)
                current = encounter
                last, tip = tips.get(encounter) or self._first(row)
            if (
                version != last + 1
                or prev != tip
                or scope not in chains
                or type(position) is not int
                or position <= head
                or salt is None
                or sha(
                    prev.encode()
                    + encode((encounter, version, step, kind, author, at, schema, body, salt))
                ).hexdigest()
                != digest
            ):
                self.doubtful = True
                break
            last, tip, head = version, digest, position
            if scope == counted and not salt.startswith(same):
                begun = begun_in(scope, salt)
                if begun is not None and begun > most[0]:
                    most, same = (begun, position), f"{begun}:"
        if current is not None and not self.doubtful:
            tips[current] = (last, tip)
        self.head, self.most = (head, tip if current is not None else head_hash), most

    def _first(self, row: tuple) -> tuple[int, str]:
        self.firsts[row[1]] = StoredEvent(*row)
        return 0, GENESIS

    def report(self, registry: Iterable[RegistryEntry]) -> VerifyReport | None:
        """The verdict once every row has passed: None when the exact check must say."""
        entries = list(registry)
        if (
            self.doubtful
            or registry_problem(entries, self.firsts) is not None
            or begun_problem(self.most, entries) is not None
        ):
            return None
        return VerifyReport(True, self.count, self.head[1], head_position=self.head[0])
