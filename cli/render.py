"""Plain-text rendering for the terminal. Scripts should use --json.

What a command renders is imported by the command that renders it: `status --json` starts
fast because nothing here loads the exports, the replay or rich until it is asked for."""

from __future__ import annotations

import io
import os
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click
import msgspec

if TYPE_CHECKING:
    from fracas.projections import AuditReport, LogStep, catalog
    from fracas.projections.board import Board
    from fracas.projections.branches import WhatIf
    from fracas.projections.party import Member
    from fracas.projections.replay import ReplayStep, Standing
    from fracas.rules import Encounter, StepOutcome


def _seconds(text: str, default: float) -> float:
    try:
        return max(0.0, float(text))
    except ValueError:
        return default


# seconds: quick work shows no bar at all (FRACAS_PROGRESS_AFTER=0 shows every bar at once)
SHOW_AFTER = _seconds(os.environ.get("FRACAS_PROGRESS_AFTER", ""), 1.0)
Tick = Callable[[int, int], None]  # (done, total)


@contextmanager
def progress_bar(label: str, unit: str = "events", *, shown: bool = True) -> Iterator[Tick]:
    """A progress bar on stderr (done, rate, time left) once the work has run past about a
    second, on a terminal; nothing at all in a pipe, or when `shown` is False (--json)."""
    if not shown or not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    rate = TextColumn(f"{{task.fields[rate]}} {unit}/s")
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), rate, TimeRemainingColumn())
    bar = Progress(*columns, console=Console(stderr=True), transient=True)
    started = time.monotonic()
    task: list[Any] = []

    def tick(done: int, total: int) -> None:
        elapsed = time.monotonic() - started
        if not task:
            if elapsed < SHOW_AFTER:
                return
            bar.start()
            task.append(bar.add_task(label, total=total, rate="…"))
        shown_rate = f"{done / elapsed:,.0f}" if elapsed > 0 else "…"
        bar.update(task[0], completed=done, total=total, rate=shown_rate)

    try:
        yield tick
    finally:
        if task:
            bar.stop()


def outcome(result: StepOutcome, live: Encounter) -> None:
    """A step's lines as the GM reads them (`describe.gm_lines`)."""
    from fracas.projections.describe import gm_lines
    from fracas.rules.events import is_secret

    prefix = f"step {result.step}" + (
        " (already recorded; nothing new)" if result.duplicate else ""
    )
    if is_secret(result.events):
        prefix += secret_mark(result.step, None)
    click.echo(prefix)
    for line in gm_lines(result.events, live):
        click.echo(f"  {line}")
    if not result.duplicate:  # a fight whose foes are all down says so, and how to end it:
        from fracas.rules.gm import over  # once, as the step that made it so (status holds it)

        done = over(live.ruleset, live.ruleset.view(live.state))
        if done and (result.step <= 1 or done != over(live.ruleset, live.view_at(result.step - 1))):
            click.echo(f"  {done}")


def secret_mark(step: int, disclosed_by: int | None) -> str:
    """What the GM reads beside a step with GM-only rolls: whether the players saw it."""
    if disclosed_by is not None:
        return f" [SECRET, disclosed at step {disclosed_by}]"
    return f" [SECRET: players see its command only until `fracas disclose {step}`]"


PIPE_WIDTH = 200  # a pipe or file gets whole rows, not rows folded at 80 columns


# What the separate columns keep for the words that change through a fight (health, status,
# conditions), which wrap between words within them: the layout is chosen from the width and
# the columns that hold still (names, order, the ruleset's numbers), never from how long a
# condition is, so a fight keeps its columns from one command to the next at one width.
WRAPPING = {"Health": 24, "Status": 16, "Conditions": 24}


def status_table(shown: Board, width: int) -> Any:
    """The board as a rich table, in one column each when the columns that hold still and
    room for the rest (WRAPPING) fit `width`; else with the ruleset's numbers, the status and
    the conditions folded into one wrapping column. A name is never broken."""
    from rich.console import Console
    from rich.measure import Measurement

    steady = board_table(shown, folded=False, steady_only=True)
    # A measure is capped at the console's width; one writing to no terminal has the width
    # it is given (a dumb terminal's would be 80, whatever it is given).
    unbounded = Console(width=10_000, file=io.StringIO())
    room = sum(WRAPPING.values()) + 2 * len(WRAPPING)  # and the gap before each
    if Measurement.get(unbounded, unbounded.options, steady).maximum + room <= width:
        return board_table(shown, folded=False)
    return board_table(shown, folded=True)


def board_table(shown: Board, *, folded: bool, steady_only: bool = False) -> Any:
    """Who acts, in order, with health and the key numbers; `folded`: the numbers, status
    and conditions in one column, words wrapped; else each in its column, health, status and
    conditions wrapping between words. `steady_only`: the columns that hold still alone."""
    from rich import box
    from rich.table import Table
    from rich.text import Text  # what was typed is text, never rich markup ("[/x]")

    numbers = list(shown.rows[0].numbers) if shown.rows else []
    table = Table(
        title=Text(shown.header),
        caption=Text(f"{shown.encounter} · {shown.ruleset}"),
        box=box.SIMPLE_HEAD,
        title_justify="left",
        caption_justify="left",
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("", width=1, no_wrap=True)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Name", no_wrap=True, overflow="ellipsis")
    table.add_column("Side", no_wrap=True)
    table.add_column("Order", no_wrap=not folded, overflow="fold")
    if not steady_only:
        table.add_column("Health", overflow="fold")
    if folded:  # its words wrap: a narrow terminal folds the row, never cuts it
        table.add_column("Status", ratio=1, overflow="fold")
    else:
        for column in numbers:
            table.add_column(column, justify="right", no_wrap=True)
        if not steady_only:
            table.add_column("Status", overflow="fold")
            table.add_column("Conditions", overflow="fold")
    for row in shown.rows:
        style = "bold" if row.acting else ("dim" if row.status.startswith("removed") else None)
        said = status_words(row)
        if folded:
            values = [f"{k} {v}" for k, v in row.numbers.items() if v not in ("", None)]
            rest = [" · ".join(part for part in [*values, said, *row.conditions] if part)]
        else:
            rest = [
                *(str(row.numbers.get(c, "")) for c in numbers),
                said,
                ", ".join(row.conditions),
            ]
        marks = ">" if row.acting else ""
        cells = [marks, str(row.order), row.name, row.side, row.key, row.health, *rest]
        if steady_only:
            cells = [marks, str(row.order), row.name, row.side, row.key, *rest[: len(numbers)]]
        table.add_row(*map(Text, cells), style=style)
    return table


# A combatant the GM keeps from the players, on the GM's board: not "hidden", which is the
# condition of a creature that hid (the d20 rules' hide), shown among its conditions.
NOT_SHOWN = "not shown to players"


def status_words(row: Any) -> str:
    """A row's status, led by NOT_SHOWN on the GM's board for a combatant players do not see."""
    return " · ".join(part for part in [NOT_SHOWN if row.hidden else "", row.status] if part)


def console_size(piped: bool) -> dict[str, int]:
    """The width (and height) to render at: COLUMNS, else the terminal's, else a pipe's
    PIPE_WIDTH. Given both, rich takes them as they are; alone, on a dumb terminal (TERM=dumb)
    it would render at 80 columns whatever the terminal's width."""
    asked = os.environ.get("COLUMNS", "").isdigit()
    if piped and not asked:
        return {"width": PIPE_WIDTH}
    size = shutil.get_terminal_size()
    return {"width": size.columns, "height": size.lines}


def status(shown: Board) -> None:
    def draw(console: Any) -> None:
        console.print(status_table(shown, console.width))
        for pin in shown.pins:
            console.print(f"pin: {pin}", markup=False)
        for note in shown.notes:
            console.print(f"note: {note}", markup=False)

    drawn(draw)


def drawn(draw: Callable[[Any], None]) -> None:
    """What `draw` prints on a rich console as wide as the terminal (or COLUMNS, or a pipe's
    PIPE_WIDTH), echoed."""
    from rich.console import Console

    piped = not sys.stdout.isatty()
    console = Console(highlight=False, **console_size(piped))
    with console.capture() as captured:
        draw(console)
    text = captured.get()
    if piped:  # rich pads every line to the table's width: a file or a pipe gets none
        text = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    click.echo(text, nl=False)


def stat_block(name: str, kind: str, lines: list[tuple[str, str]]) -> None:
    """A monster's stat block: its name and kind, then a line a label, the text wrapped."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=Text(f"{name}\n{kind}"),
        title_justify="left",
        box=box.SIMPLE,
        show_header=False,
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("", style="bold", no_wrap=True)
    table.add_column("", ratio=1, overflow="fold")
    for label, text in lines:
        table.add_row(Text(label), Text(text))
    drawn(lambda console: console.print(table))


PARTY_COLUMNS = ("ID", "Name", "Health", "In", "Conditions")
BETWEEN_FIGHTS = "—"  # in the "In" column: the member is in no fight
RESTING = f"{BETWEEN_FIGHTS}: between fights; `fracas new --party` brings them into the next fight"


def party(members: list[Member]) -> None:
    """The party as `fracas party` lists it: a row a member, in columns that wrap between
    words on a narrow terminal; one too narrow for the longest words breaks them, never
    cuts them off. "In" names the fight a member is in, else says they are between fights."""
    rows = [
        [m.combatant, m.name, m.health, m.where or BETWEEN_FIGHTS, ", ".join(m.conditions)]
        for m in members
    ]
    resting = any(not m.where for m in members)

    def draw(console: Any) -> None:
        console.print(party_table(rows, console.width))
        if resting:
            console.print(RESTING, markup=False)

    drawn(draw)


def party_table(rows: list[list[str]], width: int) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text  # what was typed is text, never rich markup

    least = [
        max([len(heading), *(len(word) for row in rows for word in row[n].split())])
        for n, heading in enumerate(PARTY_COLUMNS)
    ]
    whole_words = sum(least) + 2 * (len(least) - 1) <= width
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    for heading, most in zip(PARTY_COLUMNS, least, strict=True):
        table.add_column(heading, min_width=most if whole_words else None, overflow="fold")
    for row in rows:
        table.add_row(*map(Text, row))
    return table


def log(steps: list[LogStep]) -> None:
    for step in steps:
        mark = " [UNDONE]" if step.undone else ""
        if step.secret:
            mark += secret_mark(step.step, step.disclosed_by)
        from fracas.projections.replay import typist_name

        by = typist_name(step.author, {})  # "the GM", as `replay` says it
        click.echo(f"step {step.step} ({step.control} by {by}, {step.at}){mark}")
        for line in step.lines:
            click.echo(f"  {'~ ' if step.undone else ''}{line}")


def audit(report: AuditReport) -> None:
    from fracas.projections.audit import UNREVEALED

    if report.chain_ok:
        click.echo(f"hash chain: ok, {report.events_checked} events, head {report.head_hash}")
    else:
        click.echo(
            f"hash chain: BROKEN at position {report.first_bad_position}: {report.chain_problem}"
        )
    if not report.chain_ok:
        click.echo("step records: not checked, the chain is broken")
    elif report.steps_ok:
        click.echo("step records: ok, every step holds exactly its events")
    else:
        where = report.steps_bad_position
        at = f"at position {where}" if where is not None else "in the step records"
        click.echo(f"step records: BROKEN {at}: {report.steps_problem}")
    if report.missing_triggers:
        click.echo(
            "append-only triggers: MISSING "
            f"({', '.join(report.missing_triggers)}): someone removed the file's guards"
        )
    by_verdict: dict[tuple[str, str], dict[str, list[int]]] = {}
    for roll in report.rolls:
        said = [("seeded rolls", roll.verdict)]
        if roll.source == "manual":
            said = [("manual rolls", f"typed by {roll.entered_by}")]
            if roll.verdict != "manual":  # the server rolled some of its faces: checked too
                said.append(("the server's dice in typed rolls", roll.verdict))
        for key in said:
            by_verdict.setdefault(key, {}).setdefault(roll.encounter, []).append(roll.step)
    for (kind, verdict), where in sorted(by_verdict.items(), key=lambda kv: kv[0][::-1]):
        count = sum(len(steps) for steps in where.values())
        places = "; ".join(
            f"encounter {name} step{'s' * (len(set(steps)) > 1)} {step_ranges(steps)}"
            for name, steps in where.items()
        )
        fixes = ", ".join(f"`fracas reveal -e {name}`" for name in where)
        fix = f": {fixes}" if verdict == UNREVEALED else ""
        click.echo(f"{kind} {verdict}: {count} ({places}){fix}")
    for seed in report.seeds:
        click.echo(
            f"revealed seed: FORGED at position {seed.position} "
            f"(encounter {seed.encounter}): {seed.problem}"
        )
    if report.read_models is not None:
        models = report.read_models
        if models.ok:
            click.echo("read models: ok, every row is what a fold of the log gives")
        elif not models.row:  # no row could be read: the table's pages are damaged
            click.echo(
                f"read models: DAMAGED: {models.table}: {models.problem}; the events may "
                "still read whole: `fracas export --format jsonl -o rescue.jsonl`, then "
                "`fracas --db NEW.db import rescue.jsonl`"
            )
        else:
            row = ", ".join(str(part) for part in models.row)
            click.echo(f"read models: EDITED in {models.table} row ({row}): {models.problem}")
    for bad in report.snapshots:
        what = "dropped" if bad.dropped else "NOT dropped (the log is read-only here)"
        click.echo(
            f"snapshot: WRONG at position {bad.position} (encounter {bad.encounter}, "
            f"version {bad.version}): {bad.problem}; {what}, no fold starts from it again"
        )
    if report.drift_checked and not report.snapshots and report.snapshots_checked:
        click.echo(f"snapshots: ok, {report.snapshots_checked} agree with a fold from the start")
    if not report.drift_checked:
        click.echo("rules drift: not checked, the log is damaged")
    elif not report.drift:
        click.echo("rules drift: none, every step decides as recorded under this code")
    for found in report.drift:
        click.echo(f"rules drift: encounter {found.encounter} step {found.step}: {found.problem}")
        if found.changes:  # decided both ways: what differs, event by event, field by field
            for line in found.changes:
                click.echo(f"    {line}")
            continue
        for line in found.recorded:
            click.echo(f"    was: {line}")
        for line in found.decided:
            click.echo(f"    now: {line}")
    if report.against is not None:
        against = report.against
        if against.ok:
            click.echo(
                f"against {against.export}: the log extends it unchanged "
                f"(position {against.head_position}, {against.head_hash[:16]}...)"
            )
        else:
            click.echo(f"against {against.export}: NOT extended: {against.problem}")
    if report.head is not None:
        head = report.head
        if head.ok:
            click.echo(f"head {head.code}: the log still extends it (encounter {head.encounter})")
        else:
            click.echo(f"head {head.code}: NOT extended: {head.problem}")
    if report.bad_position is not None:
        click.echo(f"first bad position: {report.bad_position}")


def step_ranges(steps: Iterable[int]) -> str:
    """Step numbers as runs: 3-5, 9, 42, 45-47 (a long fight's thousands stay one line)."""
    runs: list[list[int]] = []
    for step in sorted(set(steps)):
        if runs and step == runs[-1][1] + 1:
            runs[-1][1] = step
        else:
            runs.append([step, step])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def standing(row: Standing) -> str:
    parts = [row.health, ", ".join(row.conditions), row.initiative]
    return "; ".join(part for part in parts if part) or "-"


def replay(steps: list[ReplayStep], names: dict[str, str] | None = None) -> None:
    """The steps as `fracas replay` prints them, combatants by the names the table knows
    (`names`: the whole fight's, so a step that shows no row of the one acting names them
    too); each roll once, on its event line with its breakdown."""
    from fracas.projections.replay import typist_name
    from fracas.rules.names import and_list

    rows = {row.combatant: row.name for s in steps for row in (*s.before, *s.after)}
    names = {**(names or {}), **rows}
    for step in steps:
        acting = [names.get(who, who) for who in step.acting]
        turn = f"round {step.round}" + (f", {and_list(acting)} acting" if acting else "")
        mark = ""
        if not step.in_effect:
            how = "SUPERSEDED" if step.taken_back_as == "supersede" else "UNDONE"
            mark = f" [{how} by step {step.taken_back_by}]"
        by = typist_name(step.author, names)
        click.echo(f"step {step.step} ({turn}; {step.control} by {by}, {step.at}){mark}")
        for line in step.lines:
            click.echo(f"  {'~ ' if not step.in_effect else ''}{line}")
        if step.rules:
            click.echo(f"  rules: {', '.join(step.rules)}")
        after = {row.combatant: row for row in step.after}
        for row in step.before:
            now = after.get(row.combatant)
            change = "unchanged" if now == row else f"-> {standing(now) if now else 'gone'}"
            click.echo(f"  {row.name}: {standing(row)} {change}")
        for row in step.after:
            if row.combatant not in {b.combatant for b in step.before}:
                click.echo(f"  {row.name}: new -> {standing(row)}")


def whatif(branch: WhatIf) -> None:
    click.echo(f"what if step {branch.from_step} went otherwise (the log is untouched):")
    for step in branch.steps:
        if step.status == "same":
            click.echo(f"step {step.step}: same outcome")
            continue
        click.echo(f"step {step.step}: {step.status}{': ' + step.refused if step.refused else ''}")
        if step.status == "changed":
            for line in step.was:
                if line not in step.now:
                    click.echo(f"  was: {line}")
            for line in step.now:
                if line not in step.was:
                    click.echo(f"  now: {line}")
    if branch.standings:
        click.echo("at the end:")
        for row in branch.standings:
            click.echo(f"  {row.name}: was {row.was or '-'}; would be {row.now or '-'}")
    elif branch.changed:
        click.echo("at the end: the same standings")
    if branch.changed:
        steps = ", ".join(str(s) for s in branch.superseded)
        click.echo(f"`fracas adopt` with the same options supersedes steps {steps}")
    else:
        click.echo("nothing would change")


def as_text(value: object) -> str:
    """A value as the GM types it (true, 3, "text", [1, 2])."""
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def actions(groups: list[catalog.Shared], own: list[catalog.Action]) -> None:
    """The flags several actions share once, at the top, then each action with its own."""
    every = [action.name for action in own]
    sharing: set[str] = set()
    if groups:
        click.echo("Flags several actions take (listed once):")
    for group in groups:
        sharing.update(group.actions)
        click.echo(textwrap.fill(f"{takers(group.actions, every)}:", 78, initial_indent="  "))
        flags(group.flags)
    for action in own:
        click.echo(f"{action.name}: {action.description}")
        also = " (and the shared flags above)" if action.name in sharing else ""
        click.echo(f"  {action.usage}{also}")
        flags(action.flags)


def takers(names: list[str], every: list[str]) -> str:
    """Which actions take a group of flags, in the fewest words."""
    left_out = [name for name in every if name not in names]
    if not left_out:
        return "every action"
    if len(left_out) < len(names):
        return f"every action but {', '.join(left_out)}"
    return ", ".join(names)


def flags(listed: list[catalog.Flag]) -> None:
    for flag in listed:
        unset = flag.default in (None, "", [], {})
        default = "" if unset else f" (default {as_text(flag.default)})"
        click.echo(f"    {flag.flag:<32} {flag.accepts}{default}")
        if flag.description:
            click.echo(f"    {'':<32} {flag.description}")


def options(ruleset: str, found: list[catalog.Option], of_encounter: bool) -> None:
    whose = "this encounter's" if of_encounter else "the defaults of"
    click.echo(f"{ruleset}: {whose} options (set them with `fracas new -o NAME=VALUE`)")
    for option in found:
        changed = "" if option.value == option.default else f" (default {as_text(option.default)})"
        click.echo(f"{option.name} = {as_text(option.value)}{changed}")
        click.echo(f"    {option.description}; {option.accepts}")


def systems(found: list[catalog.System]) -> None:
    ids = max((len(system.id) for system in found), default=0)
    names = max((len(system.ruleset) for system in found), default=0)
    for system in found:
        named = f"{system.id:<{ids}} {system.ruleset:<{names}}"
        click.echo(f"{named} {system.title}, {system.rules} rules")
    click.echo("`fracas rules 000` lists a system's rules; `fracas rules 000-8` shows one.")


def system_rules(found: dict) -> None:
    system = found["system"]
    named = system.id if system.id == system.ruleset else f"{system.id} {system.ruleset}"
    click.echo(f"{named}: {system.game}, {system.source}")
    attribution(system.attribution)
    for rule in found["rules"]:
        click.echo(f"[{rule.id}] {rule.text}")


def attribution(text: str) -> None:
    """The licence's attribution, wherever the rules it covers are shown."""
    if text:
        click.echo(text.strip())


def rule(found: catalog.Rule) -> None:
    click.echo(f"[{found.id}] {found.text}")
    click.echo(f"From: {found.source}")
    attribution(found.attribution)
