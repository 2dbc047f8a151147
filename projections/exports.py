"""Session exports: lossless JSONL (and its import), readable Markdown, printable HTML.

A players' export leaves out every GM-only roll and whatever would reveal it.
"""

import html
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

from fracas.ledger import (
    CONTROL_KINDS,
    BadInputError,
    IntegrityError,
    RefusedError,
    StepRecord,
    Store,
    StoredEvent,
)
from fracas.projections.replay import Moment, ReplayStep, is_secret, player_event, timeline
from fracas.projections.replay import secret_epochs as hidden_epochs
from fracas.rules import Encounter
from fracas.rules.encounter import recorded_events, ruleset_of, started_event
from fracas.rules.events import Event
from fracas.rules.views import View

EXPORT_FORMAT = 2
Progress = Callable[[int, int], None]  # (done, total)
_encode = msgspec.json.Encoder().encode


class Header(msgspec.Struct, frozen=True):
    format: int
    schema: int
    head_hash: str
    head_position: int
    events: int
    audience: str  # "gm" or "players"
    lossless: bool
    secrets: bool
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
    """Every event envelope of the file (the hash chain spans all encounters), every step
    record, and the sealed dice seeds only in a GM's backup that asks for them."""
    if players and with_secrets:
        raise BadInputError("a players' export never carries the GM's sealed dice seeds")
    chain = store.verify()
    if not chain.ok:
        raise IntegrityError(
            f"the log is broken at position {chain.first_bad_position}: {chain.reason}; "
            "`fracas audit` says more"
        )
    header = Header(
        EXPORT_FORMAT,
        store.schema_version,
        chain.head_hash,
        chain.checked,
        chain.checked,
        "players" if players else "gm",
        not players,
        with_secrets,
    )
    out.write(_encode(header).decode() + "\n")
    masks = player_masks(store) if players else {}
    for done, event in enumerate(store.events(), start=1):
        line = {"type": "event", **msgspec.structs.asdict(event)}
        if event.position in masks:
            line.update(body=masks[event.position], masked=True)
        out.write(_encode(line).decode() + "\n")
        progress(done, chain.checked)
    for encounter in store.encounters():
        for record in store.history(encounter).steps:
            out.write(_encode({"type": "step", **msgspec.structs.asdict(record)}).decode() + "\n")
    for encounter, name, value in store.secrets() if with_secrets else []:
        line = {"type": "secret", "encounter": encounter, "name": name, "value": value}
        out.write(_encode(line).decode() + "\n")
    return header


def player_masks(store: Store) -> dict[int, str]:
    """position -> the body players get, for every event that is or reveals a GM-only roll."""
    masks: dict[int, str] = {}
    for encounter in store.encounters():
        decoded = list(recorded_events(store, encounter, ruleset_of(store, encounter)))
        envelopes = [e for e in store.events(encounter) if e.kind not in CONTROL_KINDS]
        hidden = hidden_epochs([event for _, event in decoded])
        by_step: dict[int, list[Event]] = {}
        for step, event in decoded:
            by_step.setdefault(step, []).append(event)
        for (step, event), envelope in zip(decoded, envelopes, strict=True):
            body = player_event(event, is_secret(by_step[step]), hidden)
            if body != msgspec.to_builtins(event):
                masks[envelope.position] = _encode(body).decode()
    return masks


def read_export(lines: Iterable[str], where: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = msgspec.json.decode(line)
        except msgspec.DecodeError:
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
    secrets: list[tuple[str, str, str]]


def load_export(path: str | Path, progress: Progress = quiet) -> Export:
    """Read a JSONL export back, every line checked."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise BadInputError(f"cannot read {where}: {error.strerror}") from None
    lines = text.splitlines()
    header: Header | None = None
    events: list[StoredEvent] = []
    steps: list[StepRecord] = []
    secrets: list[tuple[str, str, str]] = []
    for number, data in read_export(lines, where):
        kind = data.pop("type")
        try:
            if kind == "header":
                header = msgspec.convert(data, Header)
            elif kind == "event":
                data.pop("masked", None)
                events.append(msgspec.convert(data, StoredEvent))
            elif kind == "step":
                steps.append(msgspec.convert(data, StepRecord))
            elif kind == "secret":
                secrets.append((data["encounter"], data["name"], data["value"]))
        except (msgspec.ValidationError, KeyError) as error:
            raise BadInputError(
                f"line {number} of {where} is not a valid {kind}: {error}"
            ) from None
        progress(number, len(lines))
    if header is None or header.format != EXPORT_FORMAT:
        raise BadInputError(
            f"{where} has no fracas export header of format {EXPORT_FORMAT}; "
            "export it again with `fracas export --format jsonl`"
        )
    return Export(header, events, steps, secrets)


def import_jsonl(store: Store, path: str | Path, progress: Progress = quiet) -> Export:
    """Take a GM's JSONL export into an empty file: the same events, chain and steps."""
    export = load_export(path, progress)
    if not export.header.lossless:
        raise RefusedError(
            f"{path} is a players' export with GM-only rolls masked; import the GM's export"
        )
    store.load(export.events, export.steps, export.secrets)
    return export


# -- readable exports --------------------------------------------------------------------


class Round(msgspec.Struct):
    number: int
    steps: list[ReplayStep]
    end: View


def rounds(moments: Iterable[Moment]) -> list[Round]:
    """The timeline cut into rounds, each with the view at its end."""
    grouped: list[Round] = []
    for moment in moments:
        if not grouped or grouped[-1].number != moment.step.round:
            grouped.append(Round(moment.step.round, [], moment.view_after))
        grouped[-1].steps.append(moment.step)
        grouped[-1].end = moment.view_after
    return grouped


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
    e = html.escape
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


def html_step(step: ReplayStep) -> str:
    e = html.escape
    struck = not step.in_effect
    items = "".join(
        f"<li>{'<del>' + e(line) + '</del>' if struck else e(line)}</li>" for line in step.lines
    )
    css = "step undone" if struck else "step"
    head = f'<div class="head">{e(step_heading(step))}</div>'
    return f'<div class="{css}">{head}<ul>{items}</ul></div>\n'


def html_tables(round_: Round) -> str:
    e = html.escape
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
