"""Setting up: rulesets and their options, a new encounter, combatants, monsters, the
party kept from fight to fight, and the demo."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from typing import TYPE_CHECKING, Any

import click
import msgspec

from fracas.cli import render
from fracas.cli.app import App, dump_json, pass_app
from fracas.cli.numbers import AsciiInt
from fracas.cli.options import (
    by_option,
    dice_option,
    health,
    id_option,
    names_for_completion,
    parse_dice_faces,
    parse_pairs,
    ruleset_for,
)
from fracas.cli.text import LINE, LOG_PATH
from fracas.ledger import BadInputError, NotFoundError
from fracas.rules import DEFAULT
from fracas.rules.views import PARTY

if TYPE_CHECKING:
    from fracas.projections import Fracas
    from fracas.rules import Ruleset
    from fracas.rules.bestiary import Bestiary, Monster


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def rulesets(as_json: bool) -> None:
    """List the installed combat systems."""
    from fracas.ledger import FracasError
    from fracas.rules import available, load

    listed = []
    for name in available():
        try:
            listed.append({"name": name, "title": load(name).title})
        except FracasError as error:  # one broken plugin: list the others, say which and why
            click.echo(f"fracas: {error}", err=True)
    if as_json:
        dump_json(listed)
        return
    for entry in listed:
        click.echo(f"{entry['name']:<12} {entry['title']}")


@click.command(short_help="Start a new encounter (and the log file).")
@click.option("--ruleset", "-r", default=DEFAULT, show_default=True)
@click.option("--title", "-t", default="", type=LINE, help="A name for the fight.")
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    type=LINE,
    help="Override a default of the ruleset (see `fracas options`).",
)
@click.option("--id", "encounter_id", default=None, help="Choose the encounter id.")
@click.option(
    "--party",
    "with_party",
    is_flag=True,
    help="Bring the party in, as they ended their last fight (`fracas party`); the ruleset "
    "is the party's.",
)
@click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="NAME=N",
    help="dice=N per expression (default 100, at most 1000), faces=N per die (1000; 10000), "
    "body=BYTES per event (65536; 1048576).",
)
@pass_app
def new(
    app: App,
    ruleset: str,
    title: str,
    options: tuple[str, ...],
    encounter_id: str | None,
    with_party: bool,
    limits: tuple[str, ...],
) -> None:
    """Start a new encounter (and the log file, if there is none) and print its id; with
    --party, bring the party in as they stand."""
    from fracas.projections import Fracas, party

    chosen, limited = parse_pairs(options, "--option"), parse_pairs(limits, "--limit")
    source = click.get_current_context().get_parameter_source("ruleset")
    chose_ruleset = source is not click.core.ParameterSource.DEFAULT

    out: list[str] = []

    def start(path: str) -> str:
        with Fracas(path, create=True) as log:
            given = {"title": title, "options": chosen, "encounter": encounter_id}
            if not with_party:
                return log.new(ruleset, **given, limits=limited).id
            rules = ruleset if chose_ruleset else party.party(log).ruleset.name
            fight = party.new_with_party(log, rules, **given, limits=limited)
            out[:] = party.staying_out(party.party(log)).values()
            return fight.id

    started = app.creating(start)
    click.echo(started)
    for name in out:  # on stderr: scripts read the id from stdout
        click.echo(party.stays_out(name), err=True)
    app.witness(started)


@click.command("options", short_help="The ruleset's options.")
@click.option("--ruleset", "-r", default=None, help="A ruleset; default: the encounter's.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def options_(app: App, ruleset: str | None, as_json: bool) -> None:
    """List the options of the encounter's ruleset (or of -r RULESET): value, values, meaning."""
    from fracas.projections import catalog

    rules, current = ruleset_for(app, ruleset)
    found = catalog.options(rules, current)
    if as_json:
        dump_json({"ruleset": rules.name, "options": found})
    else:
        render.options(rules.name, found, current is not None)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def encounters(app: App, as_json: bool) -> None:
    """List the encounters in the file, oldest first."""
    listed = app.fracas.encounters()
    if as_json:
        dump_json(listed)
        return
    wide = max((len(entry["encounter"]) for entry in listed), default=0)
    for entry in listed:
        click.echo(
            f"{entry['encounter']:<{wide}}  {entry['ruleset']:<11} {entry['steps']:>4} steps  "
            f"{entry['title']}"
        )


@click.command(short_help="Add a combatant from a sheet and --set fields.")
@click.argument("combatant")
@click.option("--name", default="", help="Display name; default: the id.")
@click.option(
    "--side",
    type=click.Choice(["pc", "npc"]),
    default=None,
    help="pc or npc; default: the sheet's side, else npc.",
)
@click.option(
    "--sheet", "sheet_file", type=click.Path(dir_okay=False), default=None, help="A TOML sheet."
)
@click.option(
    "--monster",
    default=None,
    shell_complete=lambda ctx, param, incomplete: names_for_completion(
        ctx, lambda live: [m.slug for m in live.ruleset.monsters.monsters], incomplete
    ),
    help="A monster from the ruleset's bestiary (`fracas monsters`), instead of a sheet.",
)
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set or override a sheet field, e.g. --set dex=14 --set skills.firearms=60.",
)
@click.option(
    "--count",
    type=AsciiInt(1, 100),
    default=1,
    help="Add N copies: ids COMBATANT-1..N, names numbered the same way.",
)
@click.option(
    "--hidden",
    is_flag=True,
    help="An ambush: the players see neither them nor what they do until reveal-combatant.",
)
@dice_option
@by_option
@id_option
@pass_app
def add(
    app: App,
    combatant: str,
    name: str,
    side: str | None,
    sheet_file: str | None,
    monster: str | None,
    sets: tuple[str, ...],
    count: int,
    hidden: bool,
    dice: str | None,
    by: str,
    command_id: str | None,
) -> None:
    """Add a combatant (or --count copies) from a sheet file, a monster of the bestiary
    and/or --set fields; --name and --side override the sheet's. --dice: the faces of what
    joining rolls (d20: initiative, once the fight has begun), as many for each copy."""
    from fracas.rules.commands import check_absent
    from fracas.rules.sheets import deep_merge, identity, read_sheet_file

    if sheet_file and monster:
        raise BadInputError("give --sheet or --monster, not both")
    fight = app.fight()
    if count == 1:  # first: the refusal alone, before the sheet's warnings
        check_absent(combatant, fight.state.fighters)
    rules = fight.ruleset
    sheet = read_sheet_file(sheet_file) if sheet_file else {}
    told: set[str] = set()
    if sheet_file:
        sheet = imported(rules, sheet, sheet_file, told)
    if monster:
        sheet = from_bestiary(rules, monster)
    for pair in sets:
        sheet = deep_merge(sheet, parse_pairs((pair,), "--set"))
    if sets:  # a spell --set names is filled in as one a sheet file names
        sheet = imported(rules, sheet, "--set", told)
    own = identity(sheet, sheet_source(sheet_file, sets) or f"sheet of {combatant}")
    outcomes = app.writer.add(
        combatant,
        sheet,
        app.encounter_id,
        name=name or own.name,
        side=side or own.side or "npc",
        count=count,
        where=sheet_source(sheet_file, sets),
        author=by,
        command_id=command_id,
        hidden=hidden,
        dice=parse_dice_faces(dice),
    )
    live = app.encounter()
    for outcome in outcomes:
        render.outcome(outcome, live)
    app.witness()


def from_bestiary(ruleset: Ruleset, monster: str) -> dict[str, Any]:
    """A monster's sheet from the ruleset's bestiary, with its name."""
    found = bestiary_of(ruleset).find(monster)
    return {**found.sheet, "name": found.name}


def bestiary_of(ruleset: Ruleset) -> Bestiary:
    """The ruleset's bestiary; one line when it has none."""
    if not ruleset.monsters.monsters:
        raise BadInputError(
            f"the {ruleset.name} rules have no bestiary: add from a sheet (--sheet)"
            + bestiaries_elsewhere()
        )
    return ruleset.monsters


def bestiaries_elsewhere() -> str:
    """The installed rulesets that have a bestiary, and how to list one."""
    from fracas.rules import available, load

    having = [name for name in available() if load(name).monsters.monsters]
    if not having:
        return ""
    named = " or ".join(f"{name}'s" for name in having)
    return f", or see {named} with `fracas monsters -r {having[0]}`"


class BestiaryHelp(click.Command):
    """`monsters --help` ends with each bestiary's attribution, as its licence asks."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from fracas.rules import available, load

        super().format_epilog(ctx, formatter)
        for name in available():
            rules = load(name)
            if rules.bestiary is not None:
                formatter.write_paragraph()
                formatter.write_text(f"The {name} bestiary: {rules.monsters.attribution}")


@click.command(cls=BestiaryHelp, short_help="The bestiary: monsters to add with `add --monster`.")
@click.argument("text", required=False, default="")
@click.option("--ruleset", "-r", default=None, help="A ruleset; default: the encounter's.")
@click.option("--show", is_flag=True, help="The stat block of the monster TEXT names.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def monsters(app: App, text: str, ruleset: str | None, show: bool, as_json: bool) -> None:
    """List the ruleset's monsters (those whose name or type holds TEXT): name, challenge
    rating and type, with the attribution their licence asks for. --show: the stat block of
    the monster TEXT names, to read before adding it."""
    from fracas.projections import party

    if show and not text.strip():
        raise BadInputError(
            "--show reads one monster's stat block: name it, like `fracas monsters owlbear --show`"
        )

    try:
        rules, _ = ruleset_for(app, ruleset)
    except NotFoundError:  # no fight yet: the party's ruleset, if there is a party
        if not party.has_party(app.fracas):
            raise
        rules = party.party(app.fracas).ruleset
    bestiary = bestiary_of(rules)
    if show:
        stat_block(rules, bestiary.find(text), bestiary.attribution, as_json)
        return
    found = bestiary.search(text)
    nearest = None if found else bestiary.nearest(text)
    if as_json:
        listed = [{"monster": m.slug, "name": m.name, "cr": m.cr, "type": m.kind} for m in found]
        given = {"did_you_mean": nearest} if nearest else {}
        dump_json({"monsters": listed, **given, "attribution": bestiary.attribution})
        if not found:
            raise click.exceptions.Exit(1)  # no match, as the listing and --show: exit 1
        return
    if not found:
        hint = f"did you mean {nearest}?" if nearest else "`fracas monsters` lists them all"
        raise NotFoundError(f"no monster's name or type holds {text!r}; {hint}")
    for m in found:
        click.echo(f"{m.slug:<30} CR {m.challenge:<4} {m.kind}")
    click.echo(f"{len(found)} of {len(bestiary.monsters)} monsters. {bestiary.attribution}")


def stat_block(rules: Ruleset, monster: Monster, attribution: str, as_json: bool) -> None:
    """A monster's stat block as its ruleset words it, with the attribution."""
    block = rules.stat_block_of(monster.sheet)
    if as_json:
        lines = [{"label": label, "text": text} for label, text in block]
        found = {"monster": monster.slug, "name": monster.name, "cr": monster.cr}
        dump_json(
            {**found, "type": monster.kind, "block": lines, "sheet": monster.sheet,
             "attribution": attribution}
        )  # fmt: skip
        return
    render.stat_block(monster.name, f"{monster.kind} · CR {monster.challenge}", block)
    click.echo(attribution)


def imported(
    ruleset: Ruleset, sheet: dict[str, Any], source: str, told: set[str]
) -> dict[str, Any]:
    """A sheet from another program's export (or a spell named alone) as the ruleset reads
    it, each thing it could not read told in one line, once (on stderr: the sheet still
    loads); `told`: the lines told already."""
    sheet, unread = ruleset.imported(sheet)
    for line in unread:
        if line not in told:
            click.echo(f"{source}: not read: {line}", err=True)
            told.add(line)
    return sheet


def sheet_source(sheet_file: str | None, sets: tuple[str, ...]) -> str:
    """What a bad sheet from a file is blamed on: the file, with the --set fields over it
    ("" without a file: the sheet of the combatant)."""
    given = "".join(f" --set {pair}" for pair in sets)
    return f"{sheet_file}{' with' if given else ''}{given}" if sheet_file else ""


@click.group("party", invoke_without_command=True, short_help="The party, fight to fight.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@click.pass_context
def party_(ctx: click.Context, as_json: bool) -> None:
    """The player characters kept in the log: as they stand now, in the fight they were
    last brought into (`fracas new --party`) or between fights."""
    from fracas.projections import party

    if ctx.invoked_subcommand is not None:
        return
    app = ctx.find_object(App)
    assert app is not None
    found = party.members(app.fracas)
    if as_json:
        dump_json([msgspec.to_builtins(member) for member in found])
        return
    render.party(found)


@party_.command("add", short_help="A player character joins the party.")
@click.argument("combatant")
@click.option("--name", default="", help="Display name; default: the sheet's, else the id.")
@click.option(
    "--sheet", "sheet_file", type=click.Path(dir_okay=False), default=None, help="A sheet."
)
@click.option("--monster", default=None, help="A monster of the bestiary (`fracas monsters`).")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set or override a sheet field, e.g. --set hp=30 --set skills.firearms=60.",
)
@click.option(
    "--ruleset",
    "-r",
    default=None,
    help="The party's ruleset, when it starts; default: the latest fight's.",
)
@pass_app
def party_add(
    app: App,
    combatant: str,
    name: str,
    sheet_file: str | None,
    monster: str | None,
    sets: tuple[str, ...],
    ruleset: str | None,
) -> None:
    """A player character (a sheet, an export, or a monster of the bestiary, and/or --set
    fields, as `fracas add` takes them) joins the party, kept in the log beside the fights."""
    from fracas.projections import Fracas, party
    from fracas.rules import load
    from fracas.rules.sheets import deep_merge, identity, read_sheet_file

    if sheet_file and monster:
        raise BadInputError("give --sheet FILE or --monster NAME, not both")
    if not (sheet_file or monster or sets):
        raise BadInputError("give --sheet FILE or --monster NAME (or --set KEY=VALUE fields)")
    given = read_sheet_file(sheet_file) if sheet_file else {}
    set_fields = [parse_pairs((pair,), "--set") for pair in sets]  # first: refused, no log
    where = sheet_source(sheet_file, sets)

    called = [name]

    def join(path: str) -> None:
        with Fracas(path, create=True) as log:
            party.check_joining(log, combatant)  # first: before the sheet's warnings
            rules = ruleset or party_ruleset(log)
            sheet, told = given, set[str]()
            if sheet_file:
                sheet = imported(load(rules), given, sheet_file, told)
            if monster:
                sheet = from_bestiary(load(rules), monster)
            for fields in set_fields:
                sheet = deep_merge(sheet, fields)
            if set_fields:
                sheet = imported(load(rules), sheet, "--set", told)
            own = identity(sheet, where or f"sheet of {combatant}")
            called[0] = name or own.name
            party.add_member(log, combatant, sheet, rules, name=called[0], where=where)

    app.creating(join)
    click.echo(f"{called[0] or combatant} joins the party")


@party_.command("update", short_help="Give a member a new sheet, or change one field.")
@click.argument("combatant")
@click.option(
    "--sheet", "sheet_file", type=click.Path(dir_okay=False), default=None,
    help="The new sheet (or another program's export), in place of the member's.",
)  # fmt: skip
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set one field of the member's sheet (or of the new one), e.g. --set level=4.",
)
@click.option("--reason", "-m", default="", type=LINE, help="Why (levelled up, a fix).")
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_update(
    app: App, combatant: str, sheet_file: str | None, sets: tuple[str, ...], reason: str, by: str
) -> None:
    """A member of the party takes a new sheet between fights (levelled up, corrected),
    checked by the ruleset as `fracas party add` checks one, and keeps how they stand where
    it allows: wounds (no more health than the new sheet's most), conditions, and what the
    ruleset carries from fight to fight (d20: spent slots and Hit Dice). --set changes one
    field of the member's sheet, or of the new one; a field that says how they stand (d20:
    hp_now, temp_hp, slots_spent, hit_dice_spent) is how they stand after. The log keeps
    the old sheet.

    \b
    fracas party update maelis --sheet maelis-level4.toml
    fracas party update maelis --set level=4
    fracas party update maelis --set hp_now=1 -m "a trap"
    """
    from fracas.projections import party
    from fracas.rules.sheets import deep_merge, read_sheet_file

    if not (sheet_file or sets):
        raise BadInputError("give --sheet FILE (the new sheet) or --set KEY=VALUE (one field)")
    given = read_sheet_file(sheet_file) if sheet_file else None
    set_fields = [parse_pairs((pair,), "--set") for pair in sets]  # first: refused, no log
    log = app.writer
    rules = party.party(log).ruleset
    told = set[str]()
    if given is None:
        sheet = party.sheet_of(log, combatant)
    else:
        party.check_member(party.party(log), combatant)
        sheet = imported(rules, given, str(sheet_file), told)
    for fields in set_fields:
        sheet = deep_merge(sheet, fields)
    if set_fields:
        sheet = imported(rules, sheet, "--set", told)
    where = sheet_source(sheet_file, sets) or f"sheet of {combatant} with" + "".join(
        f" --set {pair}" for pair in sets
    )
    fields: dict[str, Any] = {}
    for one in set_fields:
        fields = deep_merge(fields, one)
    party.update_member(
        log, combatant, sheet, where=where, reason=reason, author=by, fields=fields
    )
    click.echo(f"{party.joined(party.party(log))[combatant].name} takes the new sheet")
    echo_member(app, combatant)


@party_.command("remove", short_help="A member leaves the party.")
@click.argument("combatant")
@click.option("--reason", "-m", default="", type=LINE, help="Why (retired, moved away).")
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_remove(app: App, combatant: str, reason: str, by: str) -> None:
    """A member leaves the party between fights: they join no fight after. Nothing is
    deleted: the log keeps how they joined and stood, and `fracas party add` brings them
    back (with a sheet, as any newcomer).

    \b
    fracas party remove bo -m "retired to a farm"
    """
    from fracas.projections import party

    party.check_member(party.party(app.writer), combatant)
    name = party.joined(party.party(app.writer))[combatant].name
    party.remove_member(app.writer, combatant, reason, author=by)
    click.echo(
        f"{name} leaves the party: `fracas party add {combatant} --sheet FILE` brings "
        "them back"
    )


def party_ruleset(log: Fracas) -> str:
    """The party's ruleset; before it has one, the latest fight's (else the default)."""
    from fracas.projections import party

    if party.has_party(log):
        return party.party(log).ruleset.name
    fights = [e for e in log.encounters() if e["encounter"] != PARTY]
    return str(fights[-1]["ruleset"]) if fights else DEFAULT


@party_.command("bring", short_help="Bring the party into the encounter.")
@dice_option
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_bring(app: App, dice: str | None, by: str) -> None:
    """Bring the party into the encounter (-e, or the latest) as they stand: what `fracas new
    --party` does for a fight already started (the GM's page brings them in so). --dice: the
    faces of what joining rolls (d20: initiative), as many for each member, in their order."""
    from fracas.projections import party

    live = app.encounter(write=True)
    party.check_plays(app.writer, live.ruleset.name)
    typed = parse_dice_faces(dice)
    for who in party.bring_into(app.writer, live.id, author=by, dice=typed):
        click.echo(f"{who} joins {live.id} as the party stands")
    for name in party.staying_out(party.party(app.writer)).values():
        click.echo(party.stays_out(name))
    app.witness(live.id)


@party_.command("rest", short_help="The party rests: short or long.")
@click.argument("kind", type=click.Choice(["short", "long"]))
@click.option(
    "--spend",
    "spends",
    multiple=True,
    metavar="ID=N",
    help="On a short rest, member ID spends N of its Hit Dice (d20); repeat for each. "
    "A member not named spends none.",
)
@dice_option
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_rest(app: App, kind: str, spends: tuple[str, ...], dice: str | None, by: str) -> None:
    """The party takes a short or a long rest: the ruleset's recovery, as events, and what
    it gave each member. On a short rest each member spends the Hit Dice --spend gives it
    (d20: each heals its roll plus the Constitution modifier, 0 at least), rolled here or
    typed with --dice: one face a die, member by member in the party's order."""
    from fracas.projections import party
    from fracas.projections.board import shown_names
    from fracas.projections.describe import gm_lines

    if kind == "long" and spends:
        raise BadInputError("--spend is for a short rest: a long rest gives everything back")
    spend = parse_spends(spends)
    rested = party.rest(app.writer, kind, author=by, spend=spend, dice=parse_dice_faces(dice))
    home = party.party(app.writer)
    names = shown_names(home.view())
    for who, step in rested.items():
        click.echo(f"{names.get(who, who)} rests (step {step.step}):")
        for line in gm_lines(step.events, home):
            click.echo(f"  {line}")
    render.party(party.members(app.writer))


def parse_spends(given: tuple[str, ...]) -> dict[str, int]:
    """`--spend brannoc=2` as {"brannoc": 2}."""
    spend: dict[str, int] = {}
    for pair in given:
        who, equals, count = pair.partition("=")
        if not equals or not who or not count.strip().isdigit():
            raise BadInputError(
                f"--spend takes ID=N, a member and how many Hit Dice it spends, like "
                f"--spend brannoc=2; got {pair!r}"
            )
        spend[who.strip()] = int(count)
    return spend


@party_.command("harm", short_help="Take health off a member between fights.")
@click.argument("combatant")
@click.argument("amount", type=health())
@click.option("--reason", "-m", default="", type=LINE, help="Why (a trap, a fall).")
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_harm(app: App, combatant: str, amount: int, reason: str, by: str) -> None:
    """Take AMOUNT of health off a member of the party between fights, by hand (a trap on
    the road): `fracas party harm ann 4 -m "a falling rock"`."""
    from fracas.projections import party

    party.harm(app.writer, combatant, amount, reason, author=by)
    echo_member(app, combatant)


@party_.command("heal", short_help="Give health back to a member between fights.")
@click.argument("combatant")
@click.argument("amount", type=health())
@click.option("--reason", "-m", default="", type=LINE, help="Why (a potion, a healer's kit).")
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_heal(app: App, combatant: str, amount: int, reason: str, by: str) -> None:
    """Give AMOUNT of health back to a member of the party between fights, by hand."""
    from fracas.projections import party

    party.heal(app.writer, combatant, amount, reason, author=by)
    echo_member(app, combatant)


@party_.group("condition", short_help="Set or clear a member's condition between fights.")
def party_condition() -> None:
    """Set or clear a condition on a member of the party between fights (in a fight, and
    once it has ended, the party stands as that fight left it: this carries them home)."""


def member_change(command: Any) -> Any:
    """What a change to a member between fights takes: ID, NAME, --reason and --by."""
    command = click.argument("combatant")(
        click.argument("name", type=LINE)(
            click.option("--reason", "-m", default="", type=LINE, help="Why (herbs, a curse).")(
                click.option("--by", default="gm", show_default=True, help="Who enters this.")(
                    pass_app(command)
                )
            )
        )
    )
    return command


@party_condition.command("set", short_help="Set condition NAME on a member.")
@member_change
def party_condition_set(app: App, combatant: str, name: str, reason: str, by: str) -> None:
    """Set condition NAME on a member of the party between fights, until cleared."""
    from fracas.projections import party

    party.set_condition(app.writer, combatant, name, reason, author=by)
    echo_member(app, combatant)


@party_condition.command("clear", short_help="Clear condition NAME from a member.")
@member_change
def party_condition_clear(app: App, combatant: str, name: str, reason: str, by: str) -> None:
    """Clear condition NAME from a member of the party between fights."""
    from fracas.projections import party

    party.clear_condition(app.writer, combatant, name, reason, author=by)
    echo_member(app, combatant)


def echo_member(app: App, combatant: str) -> None:
    """A member's row as `fracas party` shows it, after a change between fights."""
    from fracas.projections import party

    render.party([m for m in party.members(app.writer) if m.combatant == combatant])


def program_run() -> str:
    """How to name this fracas in a hint: `fracas` when that is the one on PATH (or it was
    run some other way, as `python -m`), else the path it was run by."""
    run = sys.argv[0]
    if os.path.basename(run) != "fracas":
        return "fracas"
    on_path = shutil.which("fracas")
    same = on_path is not None and os.path.realpath(on_path) == os.path.realpath(run)
    return "fracas" if same else run


@click.command(short_help="Play a scripted fight into a demo file.")
@click.option(
    "--db",
    "demo_db",
    default="fracas-demo.db",
    type=LOG_PATH,
    show_default=True,
    help="Where to record the demo fight.",
)
@click.option("--quiet", is_flag=True, help="Print one line: where the fight was recorded.")
def demo(demo_db: str, quiet: bool) -> None:
    """Play a scripted Delta Green-style fight with fixed dice into a SQLite file."""
    from fracas.cli.demo import play

    run_as = program_run()
    echo = (lambda _line: None) if quiet else click.echo
    play(demo_db, echo=echo, program=shlex.quote(run_as), quiet=quiet)
