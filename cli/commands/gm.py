"""The GM's hand: health, conditions, who is in the fight, the fight's end, notes, and
what is shown to the players (a secret step, a hidden combatant, the dice seed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from fracas.cli import render
from fracas.cli.app import App, pass_app
from fracas.cli.commands.turns import run
from fracas.cli.numbers import INT
from fracas.cli.options import (
    by_option,
    complete_conditions,
    complete_ids,
    complete_turn_edges,
    health,
    id_option,
    reason_option,
    turn_option,
)
from fracas.cli.text import LINE
from fracas.ledger import BadInputError
from fracas.rules.commands import GM

if TYPE_CHECKING:
    pass


GM_DICE = "fracas.gm-dice"  # where a GM command's --dice waits for gm_command (ctx.meta)


def keep_gm_dice(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    ctx.meta[GM_DICE] = value


gm_dice_option = click.option(
    "--dice",
    "-d",
    default=None,
    metavar="FACES",
    expose_value=False,
    callback=keep_gm_dice,
    help="Faces of physical dice for what this sets off, such as a new round's initiative.",
)


def gm_flags(command: Any) -> Any:
    """The flags every GM command takes: --reason, --by, --command-id and --dice."""
    return reason_option(by_option(id_option(gm_dice_option(pass_app(command)))))


def gm_command(
    app: App, verb: str, by: str, command_id: str | None, turn: str | None = None, **fields: Any
) -> None:
    """One of the GM's everyday commands, recorded as its own undoable step."""
    dice = click.get_current_context().meta.get(GM_DICE)
    run(app, {"action": f"{GM}{verb}", **fields}, dice, by, command_id, turn=turn)


@click.command(short_help="Take health off TARGET by hand.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("amount", type=health())
@gm_flags
def harm(app: App, target: str, amount: int, reason: str, by: str, command_id: str | None) -> None:
    """Take AMOUNT off TARGET's health by hand (a trap, a fall, a ruling)."""
    gm_command(app, "harm", by, command_id, target=target, amount=amount, reason=reason)


@click.command(short_help="Give health back to TARGET by hand.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("amount", type=health())
@click.option(
    "--temp",
    is_flag=True,
    help="Temporary hit points instead, in a ruleset that has them (5e keeps the larger).",
)
@gm_flags
def heal(
    app: App, target: str, amount: int, temp: bool, reason: str, by: str, command_id: str | None
) -> None:
    """Give AMOUNT of health back to TARGET by hand (a potion, first aid)."""
    fields = {"temp": True} if temp else {}
    gm_command(app, "heal", by, command_id, target=target, amount=amount, reason=reason, **fields)


@click.group(short_help="Set or clear a condition by hand.")
def condition() -> None:
    """Set or clear a condition by hand: `condition set bob "on fire"`."""


class RoundsType(click.ParamType):
    """`3r`, `3 rounds` or `3`: a number of rounds, at least 1."""

    name = "rounds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> int:
        text = str(value).strip().lower()
        digits = text.removesuffix("rounds").removesuffix("round").removesuffix("r").strip()
        if not digits.isascii() or not digits.isdigit() or not 1 <= int(digits) <= 1000:
            self.fail(f"{value!r} is not a number of rounds from 1 to 1000, as in 3r", param, ctx)
        return int(digits)


class UntilType(click.ParamType):
    """`end:ID`, `start:ID` (that combatant's next turn) or `removed`."""

    name = "end:ID|start:ID|removed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> str:
        from fracas.rules import durations

        try:
            durations.parse_until(str(value))
        except BadInputError as error:
            self.fail(str(error), param, ctx)
        return str(value).strip()


@condition.command("set", short_help="Set condition NAME on TARGET, for a while or until.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("name", type=LINE, shell_complete=complete_conditions)
@click.option("--for", "rounds", type=RoundsType(), help="Lasts this many rounds: 3r.")
@click.option(
    "--until",
    type=UntilType(),
    shell_complete=complete_turn_edges,
    help="Lasts until the end or start of a combatant's next turn: end:alice, start:alice.",
)
@gm_flags
def condition_set(
    app: App,
    target: str,
    name: str,
    rounds: int | None,
    until: str | None,
    reason: str,
    by: str,
    command_id: str | None,
) -> None:
    """Set a free-text condition NAME on TARGET, until removed or --for/--until."""
    fields = {"target": target, "condition": name, "reason": reason, "rounds": rounds}
    gm_command(app, "condition-set", by, command_id, **fields, until=until or "")


@condition.command("clear", short_help="Clear the condition NAME from TARGET.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("name", type=LINE, shell_complete=complete_conditions)
@gm_flags
def condition_clear(
    app: App, target: str, name: str, reason: str, by: str, command_id: str | None
) -> None:
    """Clear the condition NAME from TARGET (the rules' own conditions too, as a ruling)."""
    gm_command(app, "condition-clear", by, command_id, target=target, condition=name, reason=reason)


@click.command(short_help="Take TARGET out of the fight.")
@click.argument("target", shell_complete=complete_ids)
@gm_flags
def remove(app: App, target: str, reason: str, by: str, command_id: str | None) -> None:
    """Take TARGET out of the fight (fled, captured); their turns stop until `return`."""
    gm_command(app, "remove", by, command_id, target=target, reason=reason)


@click.command(name="return")
@click.argument("target", shell_complete=complete_ids)
@gm_flags
def return_(app: App, target: str, reason: str, by: str, command_id: str | None) -> None:
    """Bring a removed TARGET back into the fight."""
    gm_command(app, "return", by, command_id, target=target, reason=reason)


@click.command(short_help="End the encounter.")
@turn_option
@gm_flags
def end(app: App, turn: str | None, reason: str, by: str, command_id: str | None) -> None:
    """End the encounter: nothing changes it until `reopen` (`fracas party` changes the
    party between fights); notes and free rolls go on."""
    gm_command(app, "end", by, command_id, turn, reason=reason)


@click.command()
@gm_flags
def reopen(app: App, reason: str, by: str, command_id: str | None) -> None:
    """Reopen an ended encounter."""
    gm_command(app, "reopen", by, command_id, reason=reason)


@click.command()
@click.argument("target", shell_complete=complete_ids)
@click.argument("name", type=LINE)
@gm_flags
def rename(app: App, target: str, name: str, reason: str, by: str, command_id: str | None) -> None:
    """Show TARGET under a new NAME; their id stays."""
    gm_command(app, "rename", by, command_id, target=target, name=name, reason=reason)


@click.command(short_help="Reveal the dice seed for anyone to check.")
@by_option
@pass_app
def reveal(app: App, by: str) -> None:
    """Reveal the dice seed so anyone can check every seeded roll; a new seed is committed.
    With no encounter named (-e, FRACAS_ENCOUNTER): the latest encounter's, and every ended
    encounter's whose seeded rolls are not yet checkable, as at a session's end; `fracas
    audit` names any left. With one named: that encounter's alone."""
    live = app.encounter(write=True)
    ended = [] if app.encounter_id else app.open(write=True).unrevealed_ended(live.id)
    render.outcome(live.reveal(author=by), live)
    app.witness(live.id)
    for name in ended:
        other = app.open(write=True).encounter(name)
        click.echo(f"encounter {name}:")
        render.outcome(other.reveal(author=by), other)
        app.witness(name)


@click.command()
@click.argument("text", type=LINE)
@by_option
@pass_app
def note(app: App, text: str, by: str) -> None:
    """Add a note to the log (it changes nothing in the fight)."""
    live = app.encounter(write=True)
    render.outcome(live.note(text, author=by), live)
    app.witness()


@click.command(short_help="Show the players a secret step.")
@click.argument("step", type=INT)
@by_option
@pass_app
def disclose(app: App, step: int, by: str) -> None:
    """Show the players what STEP (a step with GM-only rolls) decided."""
    render.outcome(app.writer.disclose(step, app.encounter_id, author=by), app.encounter())
    app.witness()


@click.command("reveal-combatant", short_help="Show the players a hidden combatant.")
@click.argument("combatant")
@by_option
@pass_app
def reveal_combatant(app: App, combatant: str, by: str) -> None:
    """Show the players COMBATANT (added --hidden) and every step that involved them."""
    shown = app.writer.reveal_combatant(combatant, app.encounter_id, author=by)
    render.outcome(shown, app.encounter())
    app.witness()
