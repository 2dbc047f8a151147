"""The fight as it stands: `status`, in a module of its own so that `fracas status --json`,
the command a GM types most, imports nothing the other reading commands need."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
import msgspec

from fracas.cli.app import App, dump_json, pass_app
from fracas.cli.numbers import INT

if TYPE_CHECKING:
    from fracas.rules.views import View


@click.command(short_help="Initiative order, wounds, conditions.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@click.option("--at", "at_step", type=INT, default=None, help="As it stood after step STEP.")
@pass_app
def status(app: App, as_json: bool, at_step: int | None) -> None:
    """Initiative order, wounds and conditions, pins (now, or --at a past step)."""
    parts = status_parts(app, at_step)
    name, ruleset, view, hidden = parts.encounter, parts.ruleset, parts.view, parts.hidden
    waiting = waiting_for(app) if parts.waits else None
    if as_json and parts.header is not None:  # all from the read models: no ruleset loaded
        dump_json(status_json(name, ruleset, parts.header, view, hidden, waiting))
        return
    from fracas.cli import render
    from fracas.projections.board import board
    from fracas.rules import load

    shown = board(name, load(ruleset), view, frozenset(hidden))
    if as_json:
        dump_json(status_json(name, ruleset, shown.header, view, hidden, waiting))
        return
    render.status(shown)
    from fracas.rules.gm import over

    done = over(load(ruleset), view)
    if done:
        click.echo(done)
    if waiting is not None:
        click.echo(f"waiting: {waiting.line}")


def waiting_for(app: App) -> Any:
    """The reaction awaited now, if any (a fold: only once a reaction was ever asked)."""
    from fracas.projections.asking import pending

    return pending(app.encounter())


# Structs here and in the glance, not NamedTuples: a NamedTuple takes twice as long to make
# (a class built at each start of `fracas status`)
class StatusParts(msgspec.Struct, frozen=True):
    encounter: str
    ruleset: str
    view: View
    header: str | None  # the board's first line, when the read models hold it
    hidden: set[str]  # whom the players do not see now
    waits: bool  # a reaction may be awaited: ask the fold


def status_parts(app: App, at_step: int | None) -> StatusParts:
    """What `status` shows: now, from the read models where they tell it all (nobody ever
    hidden, no reaction ever asked), else folded; or as it stood after `at_step`."""
    from fracas.projections.glance import glance

    if at_step is not None:
        live = app.encounter()
        view = live.view_at(at_step)
        return StatusParts(live.id, live.ruleset.name, view, None, live.hidden(), False)
    seen = glance(app.store, app.encounter_id)
    if seen is None:  # an older file's read models, opened read-only: folded
        from fracas.projections.asking import may_wait

        name, ruleset, view = app.fracas.current(app.encounter_id)
        hidden = app.fracas.hidden(name)
        return StatusParts(name, ruleset, view, None, hidden, may_wait(app.store, name))
    hidden = app.fracas.hidden(seen.encounter) if seen.ever_hidden else set()
    return StatusParts(
        seen.encounter, seen.ruleset, seen.view, seen.header, hidden, seen.ever_asked
    )


def status_json(
    name: str, ruleset: str, header: str, view: View, hidden: set[str], waiting: Any
) -> dict[str, Any]:
    extra = {"waiting": msgspec.to_builtins(waiting)} if waiting else {}
    return (
        {"encounter": name, "ruleset": ruleset, "header": header}
        | msgspec.to_builtins(view)
        | {"hidden": sorted(hidden)}  # the GM's: whom the players do not see
        | extra
    )
