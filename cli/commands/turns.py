"""The turn at the table: begin, act, answer, next, undo, redo, whose turn, a free roll."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
import msgspec
from msgspec import inspect

from fracas.cli import render
from fracas.cli.app import App, dump_json, pass_app
from fracas.cli.numbers import AsciiInt, ascii_int
from fracas.cli.options import (
    by_option,
    complete_actions,
    complete_ids,
    complete_opts,
    complete_weapons,
    dice_option,
    id_option,
    json_option,
    parse_defences,
    parse_dice_faces,
    parse_pairs,
    reason_option,
    secret_option,
    turn_option,
)
from fracas.cli.text import LINE, MODIFIER
from fracas.ledger import BadInputError
from fracas.ledger.errors import said
from fracas.projections.asking import could_ask, pending
from fracas.rules.commands import GM

if TYPE_CHECKING:
    from fracas.rules import Encounter, Ruleset
    from fracas.rules.events import Modifier
    from fracas.rules.reactions import Ask


NOBODY_ASKED = (
    "asked nobody: no target has a choice of reaction to this attack, so it was decided at once"
)


def run(
    app: App,
    command: dict[str, Any],
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool = False,
    ask: Ask | None = None,
    turn: str | None = None,
) -> None:
    encounter = app.fight()
    parsed = encounter.ruleset.command(command)
    outcome = encounter.execute(
        parsed,
        dice=parse_dice_faces(dice),
        entered_by=by,
        command_id=command_id,
        author=by,
        secret=secret,
        ask=ask,
        turn=turn,
    )
    render.outcome(outcome, encounter)
    asked = pending(encounter)
    if asked is not None:
        click.echo(f"waiting: {asked.line}")
    elif ask is not None:
        click.echo(NOBODY_ASKED)
    elif (
        command.get("targets")
        and not outcome.duplicate
        and (  # an attack on someone
            unasked := could_ask(encounter, outcome.step, parsed, outcome.events)
        )
    ):
        click.echo(not_asked(unasked))
    app.witness(encounter.id)


def not_asked(players: list[str]) -> str:
    """One line for the GM where a player holding a phone link could have been asked for a
    reaction to the command decided at once."""
    from fracas.rules.names import and_list

    whose = and_list(f"{who}'s" for who in players)
    holds = "player holds a phone link" if len(players) == 1 else "players hold phone links"
    return f"not asked: {whose} {holds} and could react to this (`--ask` asks them)"


@click.command()
@click.option(
    "--opt",
    "-o",
    "opts",
    multiple=True,
    metavar="KEY=VALUE",
    type=LINE,
    help="A field of the ruleset's begin, e.g. surprised=[bob] (`fracas actions`).",
)
@dice_option
@by_option
@id_option
@secret_option
@pass_app
def begin(
    app: App,
    opts: tuple[str, ...],
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
) -> None:
    """Begin the fight: initiative order and the first turn."""
    run(app, {"action": "begin", **parse_pairs(opts, "--opt")}, dice, by, command_id, secret)


@click.command(name="next", short_help="End the turn (or ACTOR's turn).")
@click.argument("actor", required=False, shell_complete=complete_ids)
@dice_option
@by_option
@id_option
@secret_option
@turn_option
@pass_app
def next_(
    app: App,
    actor: str | None,
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
    turn: str | None,
) -> None:
    """The acting combatant (or ACTOR) lets their turn or shot go by.

    --dice takes the faces of whatever that starts, such as a new sequence's initiative."""
    command = {"action": "next", **({"actor": actor} if actor else {})}
    run(app, command, dice, by, command_id, secret, turn=turn)


class ActCommand(click.Command):
    """`fracas act`, whose unknown option that is an -o field of the action (`--disadvantage`)
    is answered with the -o it meant."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # click's parser consumes the list it is handed
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as error:
            meant = as_o_field(ctx, given, error.option_name)
            if meant is None:
                raise
            said_as = f"No such option {said(error.option_name)}; did you mean `-o {meant}`?"
            raise click.NoSuchOption(error.option_name, said_as, ctx=ctx) from None


def as_o_field(ctx: click.Context, given: list[str], option: str) -> str | None:
    """`disadvantage=true` for `--disadvantage` where ACTOR ACTION (the first two words)
    takes it by -o; None where it does not, or there is no encounter to ask."""
    from fracas.ledger import FracasError
    from fracas.rules.names import plain

    if len(given) < 2 or any(w.startswith("-") for w in given[:2]) or not isinstance(ctx.obj, App):
        return None
    name, _, value = option.lstrip("-").partition("=")
    field, action = name.replace("-", "_"), given[1]
    try:
        ruleset = ctx.obj.encounter().ruleset
    except FracasError:  # no log, no encounter: click's own line
        return None
    taken = ruleset.fields_of(action)
    struct = ruleset.command_struct(action)
    if not taken or struct is None:
        return None
    if field not in o_fields(action, taken, ruleset.positional_of(action)):
        return None
    typ = next(plain(f.type) for f in inspect.type_info(struct).fields if f.encode_name == field)
    if isinstance(typ, inspect.BoolType):
        return f"{field}={value or 'true'}"
    at = given.index(option) if option in given else -1
    after = given[at + 1] if 0 <= at < len(given) - 1 else ""
    return f"{field}={value or (after if after and not after.startswith('-') else 'VALUE')}"


@click.command(name="act", cls=ActCommand, short_help="ACTOR takes ACTION [against TARGETS].")
@click.argument("actor", shell_complete=complete_ids)
@click.argument("action", shell_complete=complete_actions)
@click.argument("targets", nargs=-1, shell_complete=complete_ids)
@click.option(
    "--weapon",
    "-w",
    default=None,
    shell_complete=complete_weapons,
    help="Weapon to attack with (default: the one in hand or first on the sheet, else unarmed).",
)
@click.option(
    "--called",
    default=None,
    help="Called shot, as the ruleset names them (`fracas actions` lists the choices).",
)
@click.option(
    "--mod",
    "mods",
    multiple=True,
    type=MODIFIER,
    metavar="VALUE[:REASON]",
    help="The GM's modifier with its reason, e.g. --mod -20:smoke.",
)
@click.option(
    "--defence",
    "--defense",
    "defences",
    multiple=True,
    metavar="[TARGET=]KIND",
    help="A target's reaction, as the ruleset names them (`fracas actions` lists them).",
)
@click.option(
    "--defence-weapon",
    "--defense-weapon",
    "defence_weapons",
    multiple=True,
    metavar="TARGET=WEAPON",
    help="The weapon a target defends with (a parry, a block), one on their sheet.",
)
@click.option("--unaware", multiple=True, metavar="TARGET", help="A target unaware of it.")
@click.option("--item", default=None, help="Item to disarm or ready.")
@click.option(
    "--dc",
    type=AsciiInt(0),
    default=None,
    help="The difficulty a save or check is rolled against, where the ruleset has one "
    "(its bounds: `fracas actions`).",
)
@click.option(
    "--opt",
    "-o",
    "opts",
    multiple=True,
    metavar="KEY=VALUE",
    type=LINE,
    shell_complete=complete_opts,
    help="Any other field of the action (see `fracas actions`).",
)
@click.option(
    "--ask",
    is_flag=True,
    help="Wait for the targets' own reactions (`fracas answer`) instead of deciding at once.",
)
@click.option(
    "--wait",
    type=AsciiInt(1, 86_400),
    default=None,
    metavar="SECONDS",
    help="With --ask: after this long, `answer --timeout` applies the rules' default.",
)
@dice_option
@by_option
@id_option
@secret_option
@pass_app
def act_(
    app: App,
    actor: str,
    action: str,
    targets: tuple[str, ...],
    weapon: str | None,
    called: str | None,
    mods: tuple[Modifier, ...],
    defences: tuple[str, ...],
    defence_weapons: tuple[str, ...],
    unaware: tuple[str, ...],
    item: str | None,
    dc: int | None,
    opts: tuple[str, ...],
    ask: bool,
    wait: int | None,
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
) -> None:
    """ACTOR takes ACTION [against TARGETS]; see `fracas actions`. With --ask, an attack
    that gives a target a choice of reaction waits for `fracas answer`."""
    from fracas.rules.reactions import ask_until

    ruleset = app.encounter(write=True).ruleset
    words = ruleset.positional_of(action)
    extras = {
        "targets": list(targets) or None,
        "weapon": weapon,
        "called": called,
        "item": item,
        "dc": dc,
        "modifiers": [msgspec.to_builtins(m) for m in mods] or None,
        "defence": parse_defences(defences, targets) or None,
        "defence_weapon": parse_pairs(defence_weapons, "--defence-weapon") or None,
        "unaware": list(unaware) or None,
    }
    if words != "targets":  # the words are not combatants: `save dex`, `check sleight of hand`
        extras[words] = " ".join(extras.pop("targets") or []) or None
    given = {k: v for k, v in extras.items() if v is not None}
    taken = ruleset.fields_of(action)
    if taken:  # an unknown action is the ruleset's to refuse, with its list of actions
        check_taken(action, given, taken)
    options = parse_pairs(opts, "--opt")
    if taken:
        check_opts(ruleset, action, options, taken, words)
    command = {"action": action, "actor": actor, **given, **options}
    check_numbers(ruleset, action, command, words)
    if wait is not None and not ask:
        raise BadInputError("--wait goes with --ask: how long the targets have to answer")
    if ask and dice and ruleset.reacts_after is None:
        raise BadInputError(
            "an attack that asks rolls nothing yet: give --dice to `answer`, or leave --ask "
            "out to decide the attack at once with these dice"
        )
    waits = ask_until(wait) if ask else None
    run(app, command, dice, by, command_id, secret, waits)


@click.command(short_help="TARGET's reaction to a waiting attack.")
@click.argument("target", required=False, shell_complete=complete_ids)
@click.argument("choice", required=False)
@click.option(
    "--timeout",
    "timed_out",
    is_flag=True,
    help="The deadline has passed: the rules' default for every target not yet answered.",
)
@click.option("--withdraw", is_flag=True, help="The GM takes the waiting attack back.")
@click.option("--reason", "-m", default="", type=LINE, help="With --withdraw: why.")
@dice_option
@by_option
@id_option
@json_option
@pass_app
def answer(
    app: App,
    target: str | None,
    choice: str | None,
    timed_out: bool,
    withdraw: bool,
    reason: str,
    dice: str | None,
    by: str,
    command_id: str | None,
    as_json: bool,
) -> None:
    """TARGET's CHOICE of reaction to the attack waiting for it (see `act --ask`); the
    last answer decides the attack. With no arguments: who is waited on."""
    from fracas.rules.reactions import ANSWER, TIMEOUT, WITHDRAW, now

    given = [bool(target or choice), timed_out, withdraw]
    if sum(given) > 1 or (target and not choice):
        raise BadInputError("answer takes TARGET CHOICE, or --timeout, or --withdraw")
    if not any(given):
        asked = pending(app.encounter())
        if as_json:
            dump_json({"waiting": msgspec.to_builtins(asked)})
            return
        click.echo(f"waiting: {asked.line}" if asked else "no attack waits for a reaction")
        return
    if as_json:
        raise BadInputError("--json goes with `answer` alone, which shows who is waited on")
    command: dict[str, Any] = (
        {"action": WITHDRAW, "reason": reason}
        if withdraw
        else {"action": TIMEOUT, "at": now()}
        if timed_out
        else {"action": ANSWER, "combatant": target, "choice": choice}
    )
    run(app, command, dice, by, command_id)


def check_numbers(ruleset: Ruleset, action: str, command: dict[str, Any], words: str) -> None:
    """A whole number out of the action's bounds is a usage error (exit 2) naming the flag or
    the word it was typed as, with the bounds, before the ruleset reads the command."""
    from fracas.rules.names import accepted, plain, struct_info

    struct = ruleset.command_struct(action)
    for field in struct_info(struct).fields if struct else ():
        name, typ = field.encode_name, plain(field.type)
        given = command.get(name)
        if not isinstance(typ, inspect.IntType) or given is None or isinstance(given, bool):
            continue
        try:
            number = ascii_int(given) if isinstance(given, str) else int(given)
        except (TypeError, ValueError):
            continue  # not a number at all: the ruleset's refusal names what it takes
        if not within(typ, number):
            hint = flag_of(name, words)
            raise click.BadParameter(f"{number} is not {accepted(typ)}", param_hint=hint)


def within(typ: inspect.IntType, number: int) -> bool:
    return (typ.ge is None or number >= typ.ge) and (typ.le is None or number <= typ.le)


def flag_of(field: str, words: str) -> str:
    """How `fracas act` takes a field: its flag, the words after the action, or -o."""
    from fracas.projections import catalog

    if field == words:
        return f"'{field.upper()}'"
    if field in catalog.FLAGS:
        return f"'{catalog.FLAGS[field].split()[0]}'"
    return f"'-o {field}'"


def check_taken(action: str, given: dict[str, Any], taken: tuple[str, ...]) -> None:
    """Only what the action's command takes is sent: a flag it has no field for is refused
    (rather than dropped unseen)."""
    from fracas.projections import catalog

    for name in given:
        if name not in taken:
            what = "targets" if name == "targets" else catalog.FLAGS[name].split()[0]
            raise BadInputError(
                f"{action} takes no {what}; `fracas actions` lists what each action takes"
            )


def o_fields(action: str, taken: tuple[str, ...], words: str) -> list[str]:
    """The fields of an action `-o` sets: not the actor, the targets, the words after the
    action, nor a field with a flag of its own."""
    from fracas.projections import catalog

    return sorted(set(taken) - {*catalog.IMPLIED, words, *catalog.FLAGS})


def check_opts(
    ruleset: Ruleset, action: str, options: dict[str, Any], taken: tuple[str, ...], words: str
) -> None:
    """A `-o` field the action does not take is refused naming what `-o` does take for it
    (and its flags), or the flag that gives it, or the actions that take it and why."""
    from fracas.projections import catalog
    from fracas.rules.names import and_list, closest

    settable = o_fields(action, taken, words)
    for name in options:
        if name in settable or (name in catalog.FLAGS and name in taken):
            continue  # a flag's field by -o too: `-o modifiers=[...]`
        if name in {*catalog.IMPLIED, words} and name in taken:
            raise BadInputError(
                f"{action}: the {name} are the words after the action, not an -o field"
                if name == words
                else f"{action}: the {name} is the first word after `act`, not an -o field"
            )
        flags = [catalog.FLAGS[f] for f in taken if f in catalog.FLAGS]
        shown = f"-o takes: {', '.join(settable)}" if settable else f"{action} takes no -o field"
        shown += f"; flags: {', '.join(flags)}" if flags else ""
        others = [
            a
            for a in ruleset.actions
            if name in o_fields(a, ruleset.fields_of(a), ruleset.positional_of(a))
        ]
        guess = closest(name, settable) if settable else None
        if others and name not in taken:
            why = catalog.described(ruleset, name)
            listed = and_list(others)
            hint = f"only {listed} take {name}" + (f": {why}" if why else "")
        elif guess is not None:
            hint = f"did you mean -o {guess}?"
        else:
            hint = ""
        head = f"{action}: -o takes no field {said(name)}; "
        raise BadInputError(head + "; ".join(x for x in (hint, shown) if x))


def step_words(live: Encounter, step: int) -> str:
    """A step as the log's sentence words it, combatants by name: 'Maelis casts bless on
    Goblin 2', 'The GM harms Bob by 3', 'Goblin 2 joins'."""
    from fracas.projections.board import shown_names
    from fracas.projections.sentences import opening
    from fracas.rules.ruleset import command_of

    events = live.events_of_step(step)
    command = command_of(events)
    if command is None:
        return "a note or a reveal"
    if command.get("action") == "join":  # (gone once undone: its name is in the command)
        return f"{command.get('name') or command.get('combatant')} joins"
    names = shown_names(live.view())
    said = opening(command, names, live.ruleset, events)
    amount = command.get("amount") if str(command.get("action")).startswith(GM) else None
    said += f" by {amount}" if amount is not None else ""  # "The GM harms Bob by 3"
    return said or str(command.get("action", "")).removeprefix(GM)


@click.command(short_help="Take back the latest step.")
@by_option
@click.option(
    "--step",
    type=AsciiInt(1),
    default=None,
    help="The step you saw as the latest: refused if another was taken back or added since.",
)
@pass_app
def undo(app: App, by: str, step: int | None) -> None:
    """Take back the latest step (appends an undo; nothing is deleted)."""
    live = app.encounter(write=True)
    step = live.undo(author=by, only=step)
    click.echo(f"undid step {step}: {step_words(live, step)}")
    app.witness()


@click.command(short_help="Whose turn it is, as a token `next --turn` takes.")
@json_option
@pass_app
def turn(app: App, as_json: bool) -> None:
    """Whose turn it is now, as the token `next --turn` and `end --turn` take, so that a
    command for the turn you saw is refused once another command ended it."""
    live = app.encounter()
    if as_json:
        dump_json({"encounter": live.id, "turn": live.turn()})
        return
    click.echo(live.turn())


@click.command()
@by_option
@pass_app
def redo(app: App, by: str) -> None:
    """Restore the most recently undone step."""
    live = app.encounter(write=True)
    step = live.redo(author=by)
    click.echo(f"redid step {step}: {step_words(live, step)}")
    app.witness()


@click.command(name="roll", short_help="Roll dice no rule applies to.")
@click.argument("expression", metavar="DICE")
@reason_option
@dice_option
@click.option(
    "--by",
    default="gm",
    show_default=True,
    help="Who rolls: gm, or a combatant by id (and who typed --dice).",
)
@id_option
@secret_option
@pass_app
def roll_(
    app: App,
    expression: str,
    reason: str,
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
) -> None:
    """Roll DICE for a check no rule applies, e.g. `roll 2d20kh1+5 --reason perception`:
    recorded as its own undoable step. DICE: NdS terms added or taken off, with kh/kl (keep
    highest/lowest), dl/dh (drop lowest/highest), ! (exploding) and plain numbers."""
    command = {"action": "roll", "dice": expression, "reason": reason, "actor": by}
    run(app, command, dice, by, command_id, secret)
