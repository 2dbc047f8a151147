"""Plain-text rendering for the terminal. Scripts should use --json."""

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from fracas.projections import AuditReport, LogStep, describe
from fracas.projections.branches import WhatIf
from fracas.projections.replay import ReplayStep, Standing
from fracas.rules import StepOutcome
from fracas.rules.views import View


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr when it is a terminal; nothing at all in a pipe."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield tick


def outcome(result: StepOutcome) -> None:
    prefix = f"step {result.step}" + (
        " (already recorded; nothing new)" if result.duplicate else ""
    )
    click.echo(prefix)
    for event in result.events:
        click.echo(f"  {describe(event)}")


def status(encounter: str, ruleset: str, view: View) -> None:
    click.echo(f"encounter {encounter} ({ruleset}): round {view.round}, {view.phase}")
    click.echo("initiative:")
    for row in view.initiative:
        marker = ">" if row.acting else " "
        click.echo(f" {marker} {row.order:>2}. {row.name:<16} {row.key:<10} {row.status}")
    click.echo("wounds:")
    for row in view.wounds:
        conditions = ", ".join(row.conditions)
        click.echo(f"    {row.name:<16} {row.side:<4} {row.health:<12} {conditions}")
    if view.pins:
        click.echo("pins:")
        for pin in view.pins:
            click.echo(f"    {pin.holder} {pin.kind} {pin.target}")
    for note in view.notes:
        click.echo(f"note: {note}")


def log(steps: list[LogStep]) -> None:
    for step in steps:
        mark = " [UNDONE]" if step.undone else ""
        click.echo(f"step {step.step} ({step.control} by {step.author}, {step.at}){mark}")
        for line in step.lines:
            click.echo(f"  {'~ ' if step.undone else ''}{line}")


def audit(report: AuditReport) -> None:
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
    by_verdict: dict[str, dict[str, list[int]]] = {}
    for roll in report.rolls:
        verdict = f"typed by {roll.entered_by}" if roll.source == "manual" else roll.verdict
        steps = by_verdict.setdefault(verdict, {}).setdefault(roll.encounter, [])
        steps.append(roll.step)
    for verdict, where in sorted(by_verdict.items()):
        count = sum(len(steps) for steps in where.values())
        places = "; ".join(
            f"encounter {name} steps {', '.join(str(s) for s in sorted(set(steps)))}"
            for name, steps in where.items()
        )
        kind = "manual rolls" if verdict.startswith("typed by") else "seeded rolls"
        click.echo(f"{kind} {verdict}: {count} ({places})")
    if not report.drift_checked:
        click.echo("rules drift: not checked, the log is damaged")
    elif not report.drift:
        click.echo("rules drift: none, every step decides as recorded under this code")
    for found in report.drift:
        click.echo(f"rules drift: encounter {found.encounter} step {found.step}: {found.problem}")
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


def standing(row: Standing) -> str:
    parts = [row.health, ", ".join(row.conditions), row.initiative]
    return "; ".join(part for part in parts if part) or "-"


def replay(steps: list[ReplayStep]) -> None:
    for step in steps:
        turn = f"round {step.round}" + (
            f", {' and '.join(step.acting)} acting" if step.acting else ""
        )
        mark = ""
        if not step.in_effect:
            how = "SUPERSEDED" if step.taken_back_as == "supersede" else "UNDONE"
            mark = f" [{how} by step {step.taken_back_by}]"
        click.echo(f"step {step.step} ({turn}; {step.control} by {step.author}, {step.at}){mark}")
        for line in step.lines:
            click.echo(f"  {'~ ' if not step.in_effect else ''}{line}")
        for roll in step.rolls:
            source = (
                f"typed by {roll.entered_by}"
                if roll.source == "manual"
                else f"seeded #{roll.counter}"
            )
            faces = ",".join(str(f) for f in roll.faces)
            target = f" vs {roll.target}" if roll.target is not None else ""
            click.echo(
                f"  roll: {roll.actor} {roll.dice} [{faces}] = {roll.total}{target} ({source})"
            )
            for modifier in roll.modifiers:
                click.echo(f"    modifier {modifier}")
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
