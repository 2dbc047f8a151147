"""Session exports: lossless JSONL and its import (the readable report is `report`).

A players' export leaves out every GM-only roll and whatever would reveal it.
"""

import codecs
import io
import itertools
import operator
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

from fracas.ledger import (
    BadInputError,
    IntegrityError,
    LogStore,
    RefusedError,
    StepRecord,
    StoredEvent,
    VerifyReport,
)
from fracas.ledger.base import LOAD_BATCH, Stream, batches
from fracas.ledger.chain import ChainWatch, where
from fracas.ledger.digests import Hex, Sha256
from fracas.ledger.values import SqlInt
from fracas.ledger.verify import StepWatch
from fracas.projections.replay import player_event, public_command
from fracas.projections.secrecy import (
    UNSHOWN,
    Cut,
    involves,
    players_cut,
    shown_author,
    shown_command,
    shown_events,
)
from fracas.rules import Encounter
from fracas.rules.dice import BODY_CEILING, commitment
from fracas.rules.encounter import (
    current_commitment,
    recorded_events,
    ruleset_of,
    unseal_seed,
)
from fracas.rules.events import EncounterStarted, SeedRevealed
from fracas.rules.timeline import Frame, walk

EXPORT_FORMAT = 3  # 3: salted events, sealed seeds filed by commitment, players' steps
READABLE_FORMATS = (2, 3)
Progress = Callable[[int, int], None]  # (done, total)
_encode = msgspec.json.Encoder().encode


class Header(msgspec.Struct, frozen=True):
    """A GM's export names the chain's head; a players' export names nothing that counts
    or hashes events (both would depend on GM-only rolls)."""

    format: SqlInt
    schema: SqlInt
    audience: str  # "gm" or "players"
    lossless: bool
    secrets: bool
    head_hash: str = ""
    head_position: SqlInt = 0
    events: SqlInt = 0
    type: str = "header"


class Sealed(msgspec.Struct, frozen=True):
    """A sealed dice seed in a GM's backup: the seed, filed under its commitment."""

    value: Hex
    name: Sha256 | None = None


class EventLine(StoredEvent, tag="event", tag_field="type", frozen=True):
    """An event's line in a JSONL export: its envelope, tagged as an event."""


class StepLine(StepRecord, tag="step", tag_field="type", frozen=True):
    """A step record's line in a JSONL export."""


class SecretLine(Sealed, tag="secret", tag_field="type", frozen=True):
    """A sealed seed's line in a GM's backup."""


_lines_decoder = msgspec.json.Decoder(EventLine | StepLine | SecretLine)
_read_line = _lines_decoder.decode
_read_lines = _lines_decoder.decode_lines  # a chunk of lines in one call
_position = operator.attrgetter("position")
_NOT_READ = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, ValueError)
LINES_AT_ONCE = 1000  # lines encoded in one call: no dict per row, one write per batch
_encode_lines = msgspec.json.Encoder().encode_lines


def quiet(done: int, total: int) -> None:
    """No progress shown."""


# -- JSONL -------------------------------------------------------------------------------


def export_jsonl(
    store: LogStore,
    out: IO[str],
    *,
    players: bool = False,
    with_secrets: bool = False,
    progress: Progress = quiet,
) -> Header:
    """A GM's export: every event envelope of the file, every step record, and the sealed
    dice seeds only in a backup that asks for them. A players' export: step by step, the
    events players may see, and for a step that depends on an undisclosed GM-only roll,
    only the command given."""
    if players and with_secrets:
        raise BadInputError("a players' export never carries the GM's sealed dice seeds")
    with store.snapshot():  # the log as it stood at one moment, while the table plays on
        return _export_jsonl(store, out, players, with_secrets, progress)


def _export_jsonl(
    store: LogStore, out: IO[str], players: bool, with_secrets: bool, progress: Progress
) -> Header:
    if players:
        refuse_damaged(store, store.verify())
        return export_players_jsonl(store, out, progress)
    sealed = backup_seeds(store) if with_secrets else []
    count, position, digest = store.tip()
    header = Header(
        EXPORT_FORMAT, store.schema_version, "gm", True, with_secrets, digest, position, count
    )
    write = utf8_writer(out)
    write(_encode(header) + b"\n")
    # the step records before the events they claim: an import checks each event against
    # its record as it passes, instead of every record once all are in
    for batch in batches(store.step_rows(), LINES_AT_ONCE):
        write(_encode_lines(list(itertools.starmap(StepLine, batch))))
    watch, steps, done = ChainWatch(), StepWatch(store), 0
    for batch in store.event_batches(LINES_AT_ONCE):
        watch.see(batch)
        steps.see(batch)
        write(_encode_lines(list(itertools.starmap(EventLine, batch))))
        done += len(batch)
        progress(done, count)
    chain = watch.report(store.registry()) or store.verify()
    refuse_damaged(store, chain, steps.report())
    if (chain.checked, chain.head_position, chain.head_hash) != (count, position, digest):
        raise IntegrityError("the log changed while it was exported; export it again")
    for name, value in sealed:
        write(_encode({"type": "secret", "name": name, "value": value}) + b"\n")
    return header


def utf8_writer(out: IO[str]) -> Callable[[bytes], object]:
    """How text already encoded as UTF-8 goes to `out`: straight into the bytes under a
    text file that writes UTF-8 where lines end in "\\n" (decoding it only for the file to
    encode it back was most of a JSONL export's writing), else as text. (A text file
    opened with newline="\\r\\n" gets "\\n" too: JSONL ends its lines so.)"""
    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    if (
        isinstance(out, io.TextIOWrapper)
        and buffer is not None
        and encoding is not None
        and codecs.lookup(encoding).name == "utf-8"
        and os.linesep == "\n"
    ):
        out.flush()  # what was written as text goes first
        return buffer.write
    return lambda data: out.write(data.decode())


def refuse_damaged(
    store: LogStore, chain: VerifyReport, steps: VerifyReport | None = None
) -> VerifyReport:
    """The chain's report if the chains and then the step records hold (`steps`, when
    already checked); refused otherwise."""
    structure = (steps or store.check_steps()) if chain.ok else chain
    if not structure.ok:
        raise IntegrityError(
            f"the log is damaged {where(structure)}: {structure.reason}; `fracas audit` says more"
        )
    return chain


def sealed_seeds(store: LogStore) -> Iterator[tuple[str, str]]:
    """(commitment, seed) of every seed the file's encounters committed to and the key
    file holds."""
    for encounter in store.encounters():
        ruleset = ruleset_of(store, encounter)
        for _step, event in recorded_events(store, encounter, ruleset):
            name = None
            if isinstance(event, EncounterStarted):
                name = event.seed_sha256
            elif isinstance(event, SeedRevealed):
                name = event.next_seed_sha256
            value = unseal_seed(store, encounter, name) if name else None
            if name and value:
                yield name, value


def backup_seeds(store: LogStore) -> list[tuple[str, str]]:
    """The sealed seeds a GM's backup carries: refused, rather than a backup that looks
    whole and is not, when the seed an encounter rolls with now is not in the key file
    (none there, or one that cannot be read)."""
    sealed = dict(sealed_seeds(store))
    for encounter in store.encounters():
        _epoch, rolls_with = current_commitment(store, encounter)
        if rolls_with not in sealed:
            raise RefusedError(
                f"the sealed dice seed of encounter {encounter} is not in the key file "
                f"{store.keys.path}: a backup made now would not carry it; bring the key "
                "file back beside the log, or export without --with-secrets"
            )
    return list(sealed.items())


def export_players_jsonl(store: LogStore, out: IO[str], progress: Progress) -> Header:
    header = Header(EXPORT_FORMAT, store.schema_version, "players", False, False)
    out.write(_encode(header).decode() + "\n")
    names = store.encounters()
    for done, encounter in enumerate(names, start=1):
        live = Encounter(store, encounter)
        frames = list(walk(store, encounter, live.ruleset))
        cut = players_cut(frames, live.ruleset)
        for frame in frames:
            out.write(_encode(players_step(encounter, frame, cut)).decode() + "\n")
        progress(done, len(names))
    return header


def players_step(encounter: str, frame: Frame, cut: Cut) -> dict[str, Any]:
    """A step as players may see it, numbered as the log numbers it: a masked one by its
    command, a withheld one as a step the GM has not shown yet."""
    record = frame.record
    number = cut.number(record.step)
    if number is None:
        return {"type": "step", "encounter": encounter, "step": record.step, "unshown": UNSHOWN}
    line: dict[str, Any] = {
        "type": "step",
        "encounter": encounter,
        "step": number,
        "control": record.control,
        "target": cut.number(record.target),
        "author": shown_author(record.author, cut),
        "at": record.at,
    }
    if cut.seen[record.step].masked:
        command = public_command(shown_command(frame, cut))
        return {**line, "command": command, "withheld_after_secret_step": number}
    events = [player_event(e, cut.epochs) for e in shown_events(frame, cut)]
    if involves(frame, set(cut.hidden)):  # its events say little: who did what, to whom
        line["command"] = shown_command(frame, cut)
    return {**line, "events": events}


def read_export(
    lines: Iterable[str], where: str, first: int = 1
) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=first):
        if not line.strip():
            continue
        try:
            data = msgspec.json.decode(line)
        except (msgspec.DecodeError, RecursionError):
            raise BadInputError(
                f"line {number} of {where} is not JSON: is it a `fracas export --format jsonl`?"
            ) from None
        if not isinstance(data, dict) or "type" not in data:
            raise BadInputError(f"line {number} of {where} is not a fracas export line")
        yield number, data


class Export(msgspec.Struct):
    header: Header
    events: list[StoredEvent]
    steps: list[StepRecord]
    sealed: list[tuple[str, str]]


class Imported(msgspec.Struct, frozen=True):
    header: Header
    events: int
    steps: int
    sealed: int


MAX_EXPORT_LINE = 2 * BODY_CEILING  # an event line: its body and its envelope
READ_AT_ONCE = 1 << 20  # bytes of an export read at once
assert READ_AT_ONCE <= MAX_EXPORT_LINE  # (what ExportReader._refuse_long counts on)


def read_text(path: str | Path) -> str:
    """A whole text file in UTF-8, or one line saying why not."""
    where = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise BadInputError(f"cannot read {where}: {error.strerror or error}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInputError(not_utf8(where)) from None


def not_utf8(where: str) -> str:
    return f"{where} is not UTF-8 text: save it as UTF-8 (or export it again) and retry"


class Once:
    """An export's events and steps, each once: a line that repeats a position, an
    encounter's version or a step is named by its number, before the log's unique keys
    refuse it without saying where."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.seen: dict[tuple[object, ...], int] = {}

    def event(self, number: int, event: StoredEvent) -> StoredEvent:
        self._first(number, ("position", event.position), f"position {event.position}")
        version = f"version {event.version} of encounter {event.encounter}"
        self._first(number, ("version", event.encounter, event.version), version)
        return event

    def step(self, number: int, record: StepRecord) -> StepRecord:
        what = f"step {record.step} of encounter {record.encounter}"
        self._first(number, ("step", record.encounter, record.step), what)
        return record

    def _first(self, number: int, key: tuple[object, ...], what: str) -> None:
        first = self.seen.setdefault(key, number)
        if first != number:
            raise BadInputError(
                f"line {number} of {self.where} repeats {what} (line {first} holds it): "
                "remove the copy, or export the log again"
            )


Item = StoredEvent | StepRecord | Sealed | Header


class ExportReader:
    """A JSONL export read line by line, in constant memory: events and steps decoded
    straight into their structs (no dict per row); the header, and any line that does not
    decode so, through a dict, to be checked and named. What only the whole file can show
    (a header, every event it counts up to its head) is checked by `finish`."""

    def __init__(self, path: str | Path, progress: Progress = quiet) -> None:
        self.path, self.where, self.progress = path, str(path), progress
        self.header: Header | None = None
        self.events = self.steps = 0
        self.head: tuple[int, str] = (0, "")
        self.sealed: list[tuple[str, str]] = []

    def chunks(self) -> Iterator[tuple[int, bytes]]:
        """The file's whole lines, a chunk at a time: (the number of the first, the lines
        without the last one's newline)."""
        total = self._count_lines() if self.progress is not quiet else 0
        number, leftover = 1, b""
        try:
            with open(self.path, "rb") as source:
                while chunk := source.read(READ_AT_ONCE):
                    whole, newline, leftover = (leftover + chunk).rpartition(b"\n")
                    if newline:
                        self._refuse_long(number, whole)
                        yield number, whole
                        number += whole.count(b"\n") + 1
                    self._refuse_long(number, leftover)  # a line read so far
                    self.progress(number - 1, total)
        except OSError as error:
            raise BadInputError(f"cannot read {self.where}: {error.strerror or error}") from None
        if leftover:
            yield number, leftover
        self.progress(number, total)

    def _refuse_long(self, number: int, lines: bytes) -> None:
        """Only the first of a chunk's lines can be too long: it alone began in an earlier
        read (the others fit in one, READ_AT_ONCE being under the limit)."""
        end = lines.find(b"\n")
        if (len(lines) if end < 0 else end) > MAX_EXPORT_LINE:
            raise BadInputError(f"line {number} of {self.where} is over {MAX_EXPORT_LINE} bytes")

    def _count_lines(self) -> int:
        try:
            with open(self.path, "rb") as source:
                return sum(chunk.count(b"\n") for chunk in iter(lambda: source.read(1 << 20), b""))
        except OSError:
            return 0

    def numbered(self) -> Iterator[tuple[int, Item]]:
        """Every event, step record and header of the export, in file order, with its
        line's number; events and steps counted, sealed seeds kept aside."""
        for first, lines in self.chunks():
            yield from self._numbered(first, lines.split(b"\n"))

    def _numbered(self, first: int, lines: list[bytes]) -> Iterator[tuple[int, Item]]:
        read = _read_line
        for number, line in enumerate(lines, start=first):
            try:
                item = read(line)
            except _NOT_READ:
                item = self._other(number, line)
            if item is not None and self._counted(item):
                yield number, item

    def _counted(self, item: Item) -> bool:
        """Count an event or a step record; keep a sealed seed aside (False: not an item
        of the log)."""
        if isinstance(item, StoredEvent):
            self.events += 1
            if item.position >= self.head[0]:
                self.head = (item.position, item.hash)
        elif isinstance(item, StepRecord):
            self.steps += 1
        elif isinstance(item, Sealed):
            self.sealed.append((item.name or commitment(item.value), item.value))
            return False
        return True

    def log(self) -> Iterator[list[StoredEvent | StepRecord]]:
        """The events and step records, as the log takes them in: a chunk of the file at a
        time, decoded in one call when every line of it is an event, a step record or a
        seed (else line by line, to take in the header or name the line that is wrong)."""
        for first, lines in self.chunks():
            if first == 1:  # the header's line, on its own: the rest of the chunk in one call
                header, _, lines = lines.partition(b"\n")
                yield self._line_by_line(1, header)
                first = 2
            try:
                items = _read_lines(lines)
            except _NOT_READ:
                yield self._line_by_line(first, lines)
                continue
            yield self._taken(items)

    def _line_by_line(self, first: int, lines: bytes) -> list[StoredEvent | StepRecord]:
        numbered = self._numbered(first, lines.split(b"\n"))
        return [item for _n, item in numbered if not isinstance(item, Header)]

    def _taken(self, items: list[Item]) -> list[StoredEvent | StepRecord]:
        """A chunk's events and step records, counted (as `_counted` would, a type at a
        time); its sealed seeds kept aside."""
        kept = [item for item in items if type(item) is not SecretLine]
        if len(kept) < len(items):
            for seed in (item for item in items if type(item) is SecretLine):
                self._counted(seed)
        events = [item for item in kept if type(item) is EventLine]
        self.events += len(events)
        self.steps += len(kept) - len(events)
        if events:
            last = max(reversed(events), key=_position)  # the last of the highest
            if last.position >= self.head[0]:
                self.head = (last.position, last.hash)
        return kept  # type: ignore[return-value]

    def _other(self, number: int, line: bytes) -> Item | None:
        """A line the fast decoder did not take: the header, or something to name."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInputError(not_utf8(self.where)) from None
        if not text.strip():
            return None
        ((_, data),) = read_export([text], self.where, first=number)
        kind = data.pop("type")
        try:
            if kind == "header":
                header = msgspec.convert(data, Header)
                if not header.lossless:
                    raise RefusedError(
                        f"{self.where} is a players' export with GM-only rolls withheld; "
                        "use the GM's export"
                    )
                self.header = header
                return header
            if kind == "event":
                data.pop("masked", None)
                return msgspec.convert(data, StoredEvent)
            if kind == "step":
                return msgspec.convert(data, StepRecord)
            if kind == "secret":
                return msgspec.convert(data, Sealed)
        except msgspec.ValidationError as error:
            raise BadInputError(
                f"line {number} of {self.where} is not a valid {kind}: {error}"
            ) from None
        return None

    def finish(self) -> None:
        """Refuse an export without a header, or not whole, or with a seed not its own."""
        header = self.header
        if header is None or header.format not in READABLE_FORMATS:
            raise BadInputError(
                f"{self.where} has no fracas export header of format {EXPORT_FORMAT}; "
                "export it again with `fracas export --format jsonl`"
            )
        check_whole(header, self.events, self.head, self.where)
        for name, value in self.sealed:
            if commitment(value) != name:
                raise BadInputError(
                    f"{self.where} carries a sealed seed that is not its commitment's"
                )


def load_export(path: str | Path, progress: Progress = quiet) -> Export:
    """Read a JSONL export back whole, every line checked (for `audit --against`)."""
    reader = ExportReader(path, progress)
    events: list[StoredEvent] = []
    steps: list[StepRecord] = []
    once = Once(reader.where)
    for number, item in reader.numbered():
        if isinstance(item, StoredEvent):
            events.append(once.event(number, item))
        elif isinstance(item, StepRecord):
            steps.append(once.step(number, item))
    reader.finish()
    assert reader.header is not None
    return Export(reader.header, events, steps, reader.sealed)


def check_whole(header: Header, events: int, head: tuple[int, str], where: str) -> None:
    """A GM's export holds every event its header counts, up to the head it names: one cut
    short (or padded) is refused, never taken in as a smaller log."""
    if not header.lossless:
        return
    promised = (header.head_position, header.head_hash)
    if events != header.events or (header.events and head != promised):
        raise BadInputError(
            f"{where} is not whole: its header names {header.events} events up to position "
            f"{header.head_position}, it holds {events} up to position {head[0]}; "
            "export it again"
        )


def import_jsonl(
    store: LogStore,
    path: str | Path,
    progress: Progress = quiet,
    read_models: Callable[[], object] | None = None,
    stream: Stream | None = None,
) -> Imported:
    """Take a GM's JSONL export into an empty file: the same events, chain and steps,
    streamed from the file into one transaction, with the `read_models` made from them
    (`stream` sees the rows as they pass: see LogStore.load)."""
    reader = ExportReader(path, progress)
    project = None if read_models is None else lambda _conn: read_models()
    try:
        store.load(reader.log(), reader.sealed, project, taken=reader.finish, stream=stream)
    except store.unique_violation:
        name_repeated(path)
        raise
    assert reader.header is not None
    return Imported(reader.header, reader.events, reader.steps, len(reader.sealed))


def name_repeated(path: str | Path) -> None:
    """The line that repeats an earlier event or step, named (the file is read again, only
    once the log's unique keys refused it)."""
    reader = ExportReader(path)
    once = Once(reader.where)
    for number, item in reader.numbered():
        if isinstance(item, StoredEvent):
            once.event(number, item)
        elif isinstance(item, StepRecord):
            once.step(number, item)


# -- copying a whole log between backends ------------------------------------------------


class CopyReport(msgspec.Struct, frozen=True):
    encounters: int
    events: int
    steps: int
    sealed: int
    head_hash: str


def copy_log(
    source: LogStore, target: LogStore, chain: VerifyReport, progress: Progress = quiet
) -> CopyReport:
    """Every event, step record and sealed seed of `source` into the empty `target`, byte
    for byte, in one transaction; then read back from the target and compared with the
    source, field by field. `chain` is what `sound_source` found, in the same snapshot of
    the source (taken before the target was created)."""
    names = source.encounters()
    steps = [record for name in names for record in source.history(name).steps]
    sealed = list(sealed_seeds(source))

    def events() -> Iterator[StoredEvent]:
        for done, event in enumerate(source.events(), start=1):
            progress(done, chain.checked)
            yield event

    target.load(batches(itertools.chain(events(), steps), LOAD_BATCH), sealed)
    _compare(source, target, names, sealed)
    return CopyReport(len(names), chain.checked, len(steps), len(sealed), chain.head_hash)


def sound_source(source: LogStore) -> VerifyReport:
    """The source's chains, if they and its step records hold; refused otherwise."""
    chain = source.verify()
    structure = source.check_steps() if chain.ok else chain
    if not structure.ok:
        raise IntegrityError(
            f"{source.path} is damaged {where(structure)}: {structure.reason}; nothing was copied"
        )
    return chain


def _compare(
    source: LogStore, target: LogStore, names: list[str], sealed: list[tuple[str, str]]
) -> None:
    """The copy as the target now holds it, against the source."""
    problem = ""
    if target.encounters() != names:
        problem = "the encounters differ"
    elif any(a != b for a, b in zip(source.events(), target.events(), strict=True)):
        problem = "an event differs"
    elif any(source.history(n).steps != target.history(n).steps for n in names):
        problem = "a step record differs"
    elif any(target.unseal(name) != value for name, value in sealed):
        problem = "a sealed seed differs"
    elif not target.verify().ok:
        problem = "its hash chains do not hold"
    if problem:
        raise IntegrityError(f"the copy at {target.path} does not match: {problem}")
