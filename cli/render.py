"""Plain-text rendering for the terminal. Scripts should use --json."""

import click

from fracas.projections import AuditReport, LogStep, describe
from fracas.rules import StepOutcome
from fracas.rules.views import View


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
    counts: dict[str, int] = {}
    for roll in report.rolls:
        key = f"typed by {roll.entered_by}" if roll.source == "manual" else roll.verdict
        counts[key] = counts.get(key, 0) + 1
    for verdict, count in sorted(counts.items()):
        click.echo(f"rolls {verdict}: {count}")
    for roll in report.rolls:
        if roll.verdict == "MISMATCH":
            click.echo(
                f"  MISMATCH: encounter {roll.encounter} step {roll.step} roll {roll.counter}"
            )
