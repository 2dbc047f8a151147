"""Session exports: lossless JSONL (and its import), readable Markdown, printable HTML.

A players' export leaves out every GM-only roll and whatever would reveal it.
"""

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

from fracas.ledger import (
    BadInputError,
    IntegrityError,
    RefusedError,
    StepRecord,
    Store,
    StoredEvent,
)
from fracas.ledger.store import where
from fracas.projections.replay import (
    Moment,
    PlayersMask,
    ReplayStep,
    player_event,
    players_mask,
    public_command,
    timeline,
)
from fracas.rules import Encounter
from fracas.rules.dice import BODY_CEILING, commitment
from fracas.rules.encounter import recorded_events, ruleset_of, started_event
from fracas.rules.events import EncounterStarted, SeedRevealed
from fracas.rules.reference import RULE_ID, statement
from fracas.rules.timeline import Frame, walk
from fracas.rules.views import View

EXPORT_FORMAT = 3  # 3: salted events, sealed seeds filed by commitment, players' steps
READABLE_FORMATS = (2, 3)
Progress = Callable[[int, int], None]  # (done, total)
_encode = msgspec.json.Encoder().encode


class Header(msgspec.Struct, frozen=True):
    """A GM's export names the chain's head; a players' export names nothing that counts
    or hashes events (both would depend on GM-only rolls)."""

    format: int
    schema: int
    audience: str  # "gm" or "players"
    lossless: bool
    secrets: bool
    head_hash: str = ""
    head_position: int = 0
    events: int = 0
    type: str = "header"


def quiet(done: int, total: int) -> None:
    """No progress shown."""


# -- JSONL -------------------------------------------------------------------------------


def export_jsonl(
    store: Store,
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
    chain = store.verify()
    structure = store.check_steps() if chain.ok else chain
    if not structure.ok:
        raise IntegrityError(
            f"the log is damaged {where(structure)}: {structure.reason}; `fracas audit` says more"
        )
    if players:
        return export_players_jsonl(store, out, progress)
    header = Header(
        EXPORT_FORMAT,
        store.schema_version,
        "gm",
        True,
        with_secrets,
        chain.head_hash,
        chain.checked,
        chain.checked,
    )
    out.write(_encode(header).decode() + "\n")
    for done, event in enumerate(store.events(), start=1):
        out.write(_encode({"type": "event", **msgspec.structs.asdict(event)}).decode() + "\n")
        progress(done, chain.checked)
    for encounter in store.encounters():
        for record in store.history(encounter).steps:
            out.write(_encode({"type": "step", **msgspec.structs.asdict(record)}).decode() + "\n")
    for name, value in sealed_seeds(store) if with_secrets else []:
        out.write(_encode({"type": "secret", "name": name, "value": value}).decode() + "\n")
    return header


def sealed_seeds(store: Store) -> Iterator[tuple[str, str]]:
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
            value = store.unseal(name) if name else None
            if name and value:
                yield name, value


def export_players_jsonl(store: Store, out: IO[str], progress: Progress) -> Header:
    header = Header(EXPORT_FORMAT, store.schema_version, "players", False, False)
    out.write(_encode(header).decode() + "\n")
    names = store.encounters()
    for done, encounter in enumerate(names, start=1):
        live = Encounter(store, encounter)
        frames = list(walk(store, encounter, live.ruleset))
        mask = players_mask(frames)
        for frame in frames:
            out.write(_encode(players_step(encounter, frame, mask)).decode() + "\n")
        progress(done, len(names))
    return header


def players_step(encounter: str, frame: Frame, mask: PlayersMask) -> dict[str, Any]:
    record = frame.record
    line: dict[str, Any] = {
        "type": "step",
        "encounter": encounter,
        "step": record.step,
        "control": record.control,
        "target": record.target,
        "author": record.author,
        "at": record.at,
    }
    source = mask.steps.get(record.step)
    if source is not None:
        command = public_command(frame.command)
        return {**line, "command": command, "withheld_after_secret_step": source}
    return {**line, "events": [player_event(e, mask.epochs) for e in frame.events]}


def read_export(lines: Iterable[str], where: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=1):
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


def load_export(path: str | Path, progress: Progress = quiet) -> Export:
    """Read a JSONL export back, every line checked."""
    where = str(path)
    lines = read_text(path).splitlines()
    header: Header | None = None
    events: list[StoredEvent] = []
    steps: list[StepRecord] = []
    sealed: list[tuple[str, str]] = []
    for number, data in read_export(lines, where):
        if len(lines[number - 1]) > MAX_EXPORT_LINE:
            raise BadInputError(f"line {number} of {where} is over {MAX_EXPORT_LINE} bytes")
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
                events.append(msgspec.convert(data, StoredEvent))
            elif kind == "step":
                steps.append(msgspec.convert(data, StepRecord))
            elif kind == "secret":
                value = str(data["value"])
                sealed.append((str(data.get("name") or commitment(value)), value))
        except (msgspec.ValidationError, KeyError, ValueError) as error:
            raise BadInputError(
                f"line {number} of {where} is not a valid {kind}: {error}"
            ) from None
        progress(number, len(lines))
    if header is None or header.format not in READABLE_FORMATS:
        raise BadInputError(
            f"{where} has no fracas export header of format {EXPORT_FORMAT}; "
            "export it again with `fracas export --format jsonl`"
        )
    return Export(header, events, steps, sealed)


def import_jsonl(store: Store, path: str | Path, progress: Progress = quiet) -> Export:
    """Take a GM's JSONL export into an empty file: the same events, chain and steps."""
    export = load_export(path, progress)
    for name, value in export.sealed:
        if commitment(value) != name:
            raise BadInputError(f"{path} carries a sealed seed that is not its commitment's")
    store.load(export.events, export.steps, export.sealed)
    return export


# -- readable exports --------------------------------------------------------------------


class Round(msgspec.Struct):
    number: int
    steps: list[ReplayStep]
    end: View
    withheld: int | None = None  # players: the secret step the standings at its end follow


def rounds(moments: Iterable[Moment]) -> list[Round]:
    """The timeline cut into rounds, each with the view at its end."""
    grouped: list[Round] = []
    for moment in moments:
        if not grouped or grouped[-1].number != moment.step.round:
            grouped.append(Round(moment.step.round, [], moment.view_after))
        grouped[-1].steps.append(moment.step)
        grouped[-1].end = moment.view_after
        grouped[-1].withheld = moment.withheld
    return grouped


def withheld_standings(round_: Round) -> str:
    return (
        f"The standings at the end of {round_title(round_.number).lower()} are GM-only: they "
        f"follow the GM's secret roll at step {round_.withheld}, until the GM discloses it."
    )


def turns(steps: list[ReplayStep]) -> list[tuple[list[str], list[ReplayStep]]]:
    grouped: list[tuple[list[str], list[ReplayStep]]] = []
    for step in steps:
        if not grouped or grouped[-1][0] != step.acting:
            grouped.append((step.acting, []))
        grouped[-1][1].append(step)
    return grouped


def round_title(number: int) -> str:
    return "Setting up" if number == 0 else f"Round {number}"


def turn_title(acting: list[str], names: dict[str, str]) -> str:
    if not acting:
        return "The table"
    return " and ".join(names.get(a, a) for a in acting) + ("'s turn" if len(acting) == 1 else "")


def step_heading(step: ReplayStep) -> str:
    heading = f"step {step.step} ({step.author})"
    if not step.in_effect:
        how = "superseded" if step.taken_back_as == "supersede" else "undone"
        heading += f", {how} by step {step.taken_back_by}"
    return heading


class Session(msgspec.Struct):
    encounter: str
    ruleset: str
    title: str
    rounds: list[Round]
    names: dict[str, str]


def sessions(
    store: Store, encounters: list[str], *, players: bool = False, progress: Progress = quiet
) -> list[Session]:
    found = []
    for done, name in enumerate(encounters, start=1):
        live = Encounter(store, name)
        moments = list(timeline(live, players=players))
        names = {w.combatant: w.name for w in live.view().wounds}
        title = started_event(store, name).title or name
        found.append(Session(name, live.ruleset.title, title, rounds(moments), names))
        progress(done, len(encounters))
    return found


_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "*_~|<>`"})


def md_text(text: str) -> str:
    return text.translate(_MD_SPECIAL)


def write_markdown(out: IO[str], found: list[Session]) -> None:
    for session in found:
        out.write(f"# {md_text(session.title)}\n\n")
        out.write(f"Encounter `{session.encounter}`, {md_text(session.ruleset)}.\n\n")
        for round_ in session.rounds:
            out.write(f"## {round_title(round_.number)}\n\n")
            for acting, steps in turns(round_.steps):
                out.write(f"### {md_text(turn_title(acting, session.names))}\n\n")
                for step in steps:
                    write_md_step(out, step)
            out.write(markdown_tables(round_))
    out.flush()


def write_md_step(out: IO[str], step: ReplayStep) -> None:
    struck = not step.in_effect
    out.write(f"- **{md_text(step_heading(step))}**\n")
    for line in step.lines:
        text = md_text(line)
        out.write(f"  - {'~~' + text + '~~' if struck else text}\n")
    out.write("\n")


def markdown_tables(round_: Round) -> str:
    if round_.withheld is not None:
        return f"*{withheld_standings(round_)}*\n\n"
    view = round_.end
    rows = [f"**At the end of {round_title(round_.number).lower()}**\n"]
    rows += ["| | Initiative | Key | Status |", "|---|---|---|---|"]
    for row in view.initiative:
        rows.append(
            f"| {'>' if row.acting else ''} | {md_text(row.name)} | {row.key} | "
            f"{md_text(row.status)} |"
        )
    rows += ["", "| Combatant | Side | Health | Conditions |", "|---|---|---|---|"]
    for w in view.wounds:
        rows.append(
            f"| {md_text(w.name)} | {w.side} | {md_text(w.health)} | "
            f"{md_text(', '.join(w.conditions))} |"
        )
    return "\n".join(rows) + "\n\n"


STYLE = """
body { font-family: Georgia, serif; max-width: 52rem; margin: 2rem auto; color: #222; }
h1 { border-bottom: 2px solid #222; } h2 { margin-top: 2rem; border-bottom: 1px solid #999; }
h3 { font-size: 1rem; color: #444; }
.step { margin: .4rem 0 .8rem; } .step ul { margin: .2rem 0; }
.head { font-weight: bold; font-size: .9rem; }
.undone, .undone li { color: #888; } del { text-decoration-thickness: 1px; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #bbb; padding: .15rem .5rem; text-align: left; }
caption { text-align: left; font-style: italic; }
@media print { body { margin: 0; max-width: none; } h2 { break-before: auto; }
  .round-end { break-inside: avoid; } }
"""


def write_html(out: IO[str], found: list[Session], title: str) -> None:
    from html import escape as e

    out.write(
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f"<title>{e(title)}</title>\n<style>{STYLE}</style></head><body>\n"
    )
    for session in found:
        out.write(
            f"<h1>{e(session.title)}</h1>\n<p>Encounter <code>{e(session.encounter)}"
            f"</code>, {e(session.ruleset)}.</p>\n"
        )
        for round_ in session.rounds:
            out.write(f"<h2>{e(round_title(round_.number))}</h2>\n")
            for acting, steps in turns(round_.steps):
                out.write(f"<h3>{e(turn_title(acting, session.names))}</h3>\n")
                for step in steps:
                    out.write(html_step(step))
            out.write(html_tables(round_))
    out.write("</body></html>\n")
    out.flush()


def with_statements(escaped: str) -> str:
    """Each rule id the line cites shows its statement on hover."""

    from html import escape

    def titled(match: re.Match[str]) -> str:
        text = statement(match[0])
        return f'<abbr title="{escape(text)}">{match[0]}</abbr>' if text else match[0]

    return RULE_ID.sub(titled, escaped)


def html_step(step: ReplayStep) -> str:
    from html import escape as e

    struck = not step.in_effect

    def shown(line: str) -> str:
        return with_statements(e(line))

    items = "".join(
        f"<li>{'<del>' + shown(line) + '</del>' if struck else shown(line)}</li>"
        for line in step.lines
    )
    css = "step undone" if struck else "step"
    head = f'<div class="head">{e(step_heading(step))}</div>'
    return f'<div class="{css}">{head}<ul>{items}</ul></div>\n'


def html_tables(round_: Round) -> str:
    from html import escape as e

    if round_.withheld is not None:
        return f'<p class="round-end"><em>{e(withheld_standings(round_))}</em></p>\n'
    view = round_.end
    caption = f"At the end of {round_title(round_.number).lower()}"
    initiative = "".join(
        f"<tr><td>{'&#9654;' if r.acting else ''}</td><td>{e(r.name)}</td><td>{e(r.key)}</td>"
        f"<td>{e(r.status)}</td></tr>"
        for r in view.initiative
    )
    wounds = "".join(
        f"<tr><td>{e(w.name)}</td><td>{e(w.side)}</td><td>{e(w.health)}</td>"
        f"<td>{e(', '.join(w.conditions))}</td></tr>"
        for w in view.wounds
    )
    return (
        f'<div class="round-end"><table><caption>{e(caption)}: initiative</caption>'
        f"<tr><th></th><th>Combatant</th><th>Key</th><th>Status</th></tr>{initiative}</table>"
        f"<table><caption>{e(caption)}: wounds</caption><tr><th>Combatant</th><th>Side</th>"
        f"<th>Health</th><th>Conditions</th></tr>{wounds}</table></div>\n"
    )
