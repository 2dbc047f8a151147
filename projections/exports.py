"""Session exports: lossless JSONL and its import (the readable report is `report`).

A players' export leaves out every GM-only roll and whatever would reveal it.
"""

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
from fracas.ledger.base import batches, where
from fracas.ledger.values import Hex, Sha256, SqlInt
from fracas.projections.replay import player_event, public_command
from fracas.projections.secrecy import Cut, players_cut, shown_events
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


_read_line = msgspec.json.Decoder(EventLine | StepLine | SecretLine).decode
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
    chain = store.verify()
    structure = store.check_steps() if chain.ok else chain
    if not structure.ok:
        raise IntegrityError(
            f"the log is damaged {where(structure)}: {structure.reason}; `fracas audit` says more"
        )
    if players:
        return export_players_jsonl(store, out, progress)
    sealed = backup_seeds(store) if with_secrets else []
    header = Header(
        EXPORT_FORMAT,
        store.schema_version,
        "gm",
        True,
        with_secrets,
        chain.head_hash,
        chain.head_position,
        chain.checked,
    )
    out.write(_encode(header).decode() + "\n")
    done = 0
    for batch in batches(store.events(of=EventLine), LINES_AT_ONCE):
        out.write(_encode_lines(batch).decode())
        done += len(batch)
        progress(done, chain.checked)
    for encounter in store.encounters():
        records = store.step_records(encounter)
        for batch in batches(records, LINES_AT_ONCE):
            lines = [StepLine(*msgspec.structs.astuple(record)) for record in batch]
            out.write(_encode_lines(lines).decode())
    for name, value in sealed:
        out.write(_encode({"type": "secret", "name": name, "value": value}).decode() + "\n")
    return header


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
        cut = players_cut(frames, live.ruleset.view)
        for frame in frames:
            if cut.shown(frame.record.step):
                out.write(_encode(players_step(encounter, frame, cut)).decode() + "\n")
        progress(done, len(names))
    return header


def players_step(encounter: str, frame: Frame, cut: Cut) -> dict[str, Any]:
    """A step players may see, numbered among those steps; a masked one by its command."""
    record = frame.record
    number = cut.number(record.step)
    line: dict[str, Any] = {
        "type": "step",
        "encounter": encounter,
        "step": number,
        "control": record.control,
        "target": cut.number(record.target),
        "author": record.author,
        "at": record.at,
    }
    if cut.seen[record.step].masked:
        command = public_command(frame.command)
        return {**line, "command": command, "withheld_after_secret_step": number}
    counted = number == record.step
    events = [player_event(e, cut.epochs, counted) for e in shown_events(frame, cut)]
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


def read_lines(
    lines: list[str], where: str
) -> Iterator[tuple[int, EventLine | StepLine | SecretLine | dict[str, Any]]]:
    """Each line of an export: events, steps and secrets decoded straight into their
    structs (no dict per row); the header, and any line that does not decode so, as a dict
    for `load_export` to check and name."""
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_EXPORT_LINE:
            raise BadInputError(f"line {number} of {where} is over {MAX_EXPORT_LINE} bytes")
        try:
            yield number, _read_line(line)
            continue
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            pass
        yield from read_export([line], where, first=number)


class Export(msgspec.Struct):
    header: Header
    events: list[StoredEvent]
    steps: list[StepRecord]
    sealed: list[tuple[str, str]]


MAX_EXPORT_LINE = 2 * BODY_CEILING  # an event line: its body and its envelope


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
        raise BadInputError(
            f"{where} is not UTF-8 text: save it as UTF-8 (or export it again) and retry"
        ) from None


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


def load_export(path: str | Path, progress: Progress = quiet) -> Export:
    """Read a JSONL export back, every line checked."""
    where = str(path)
    lines = read_text(path).splitlines()
    header: Header | None = None
    events: list[StoredEvent] = []
    steps: list[StepRecord] = []
    sealed: list[tuple[str, str]] = []
    once = Once(where)
    for number, data in read_lines(lines, where):
        progress(number, len(lines))
        if isinstance(data, EventLine):
            events.append(once.event(number, data))
            continue
        if isinstance(data, StepLine):
            steps.append(once.step(number, data))
            continue
        if isinstance(data, SecretLine):
            sealed.append((data.name or commitment(data.value), data.value))
            continue
        kind = data.pop("type")
        try:
            if kind == "header":
                header = msgspec.convert(data, Header)
                if not header.lossless:
                    raise RefusedError(
                        f"{where} is a players' export with GM-only rolls withheld; "
                        "use the GM's export"
                    )
            elif kind == "event":
                data.pop("masked", None)
                events.append(once.event(number, msgspec.convert(data, StoredEvent)))
            elif kind == "step":
                steps.append(once.step(number, msgspec.convert(data, StepRecord)))
            elif kind == "secret":
                secret = msgspec.convert(data, Sealed)
                sealed.append((secret.name or commitment(secret.value), secret.value))
        except msgspec.ValidationError as error:
            raise BadInputError(
                f"line {number} of {where} is not a valid {kind}: {error}"
            ) from None
    if header is None or header.format not in READABLE_FORMATS:
        raise BadInputError(
            f"{where} has no fracas export header of format {EXPORT_FORMAT}; "
            "export it again with `fracas export --format jsonl`"
        )
    check_whole(header, events, where)
    return Export(header, events, steps, sealed)


def check_whole(header: Header, events: list[StoredEvent], where: str) -> None:
    """A GM's export holds every event its header counts, up to the head it names: one cut
    short (or padded) is refused, never taken in as a smaller log."""
    if not header.lossless:
        return
    last = max(events, key=lambda event: event.position, default=None)
    head = (last.position, last.hash) if last else (0, "")
    promised = (header.head_position, header.head_hash)
    if len(events) != header.events or (header.events and head != promised):
        raise BadInputError(
            f"{where} is not whole: its header names {header.events} events up to position "
            f"{header.head_position}, it holds {len(events)} up to position {head[0]}; "
            "export it again"
        )


def import_jsonl(store: LogStore, path: str | Path, progress: Progress = quiet) -> Export:
    """Take a GM's JSONL export into an empty file: the same events, chain and steps."""
    export = load_export(path, progress)
    for name, value in export.sealed:
        if commitment(value) != name:
            raise BadInputError(f"{path} carries a sealed seed that is not its commitment's")
    store.load(export.events, export.steps, export.sealed)
    return export


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

    target.load(events(), steps, sealed)
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
