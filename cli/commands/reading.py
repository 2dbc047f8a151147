"""Reading the fight: the log, a replay, the head code, the rules and actions,
and help on a command."""

from __future__ import annotations

from typing import Any

import click

from fracas.cli.app import App, cli, dump_json, pass_app
from fracas.cli.numbers import INT, ascii_int
from fracas.cli.options import json_option
from fracas.ledger import BadInputError
from fracas.ledger.errors import said


@click.command(short_help="The ruleset's actions and their flags.")
@click.option("--ruleset", "-r", default=None, help="A ruleset; default: the encounter's.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def actions(app: App, ruleset: str | None, as_json: bool) -> None:
    """List the actions of the encounter's ruleset (or of -r RULESET) and their flags."""
    from fracas.cli import render
    from fracas.cli.options import ruleset_for
    from fracas.projections import catalog

    rules, _ = ruleset_for(app, ruleset)
    found = catalog.actions(rules)
    if as_json:
        dump_json({"ruleset": rules.name, "actions": found})
    else:
        render.actions(*catalog.shared(found))


@click.command(short_help="The rules reference, by system or rule id.")
@click.argument("wanted", required=False, metavar="[SYSTEM|RULE]")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def rules(wanted: str | None, as_json: bool) -> None:
    """The rules reference: the systems, one system's rules (by number or ruleset), or one
    rule by the id the log cites (`003-25`, `000-M2`, a plugin's `srd-14`)."""
    from fracas.cli import render
    from fracas.projections import catalog

    if wanted is None:
        found: Any = catalog.systems()
        shown = render.systems
    elif catalog.is_rule_id(wanted):
        found = catalog.rule(wanted)
        shown = render.rule
    else:
        picked = catalog.system(wanted)
        found = {"system": picked, "rules": catalog.rules_of(picked.id)}
        shown = render.system_rules
    if as_json:
        dump_json(found)
    else:
        shown(found)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def log(app: App, as_json: bool) -> None:
    """Every step with its events; undone steps are marked."""
    from fracas.cli import render

    steps = app.fracas.log(app.encounter_id)
    if as_json:
        dump_json(steps)
        return
    render.log(steps)


def parse_steps(text: str | None) -> tuple[int | None, int | None]:
    if text is None:
        return None, None
    first, sep, last = text.partition("..")
    try:
        start, end = ascii_int(first), ascii_int(last if sep else first)
    except ValueError:
        raise BadInputError(
            f"--steps takes A..B or one step, like --steps 5..9; got {said(text)}"
        ) from None
    if start > end:
        raise BadInputError(
            f"--steps {text} is reversed: the first step first, --steps {end}..{start}"
        )
    return start, end


@click.command(short_help="Walk a round, turn or steps, roll by roll.")
@click.option("--round", "round_", type=INT, default=None, help="Every step of round N.")
@click.option("--turn", default=None, metavar="ROUND:WHO", help="One turn, e.g. --turn 2:alice.")
@click.option("--steps", default=None, metavar="A..B", help="A range of steps, or one step.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def replay(
    app: App, round_: int | None, turn: str | None, steps: str | None, as_json: bool
) -> None:
    """Walk a disputed round, turn or steps: rolls, modifiers, rules, state before and after."""
    from fracas.cli import render

    first, last = parse_steps(steps)
    with render.progress_bar("replaying", "steps", shown=not as_json) as tick:
        walked = app.fracas.replay(
            app.encounter_id, round_=round_, turn=turn, first=first, last=last, progress=tick
        )
    if as_json:
        dump_json(walked)
        return
    from fracas.projections.board import shown_names

    render.replay(walked, shown_names(app.fracas.view(app.encounter_id)))


@click.command(name="help", short_help="Help on a command: `help act`.")
@click.argument("words", nargs=-1)
@click.pass_context
def help_(ctx: click.Context, words: tuple[str, ...]) -> None:
    """Help on a command: `help act`, `help condition set` (as `act --help` does)."""
    group: Any = ctx.parent.command if ctx.parent else cli
    command, path = group, ["fracas"]
    for word in words:
        found = command.get_command(ctx, word) if isinstance(command, click.Group) else None
        if found is None:
            from fracas.rules.names import closest

            known = command.commands if isinstance(command, click.Group) else {}
            guess = closest(word, known) if known else None
            hint = f"; did you mean {guess}?" if guess else ""
            raise BadInputError(f"no command {said(word)} to help with{hint}")
        command, path = found, [*path, found.name or word]
    with click.Context(command, info_name=" ".join(path)) as shown:
        click.echo(command.get_help(shown))


@click.command(short_help="The head code, to note and check later.")
@click.option("--step", type=INT, default=None, help="As it stood after STEP.")
@json_option
@pass_app
def head(app: App, step: int | None, as_json: bool) -> None:
    """Print the encounter's head code, for the table to note and `audit --head` to check."""
    code = app.fracas.head_code(app.encounter_id, step)
    if as_json:
        dump_json({"encounter": app.fracas.encounter(app.encounter_id).id, "head": code})
        return
    click.echo(code)
