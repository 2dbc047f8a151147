"""What the commands share: their common options (--dice, --by, --id, --turn, --secret,
--reason), the parsers of what a GM types (and the ruleset an -r names), and shell
completion from the log."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

import click

from fracas.cli.numbers import AsciiInt, ascii_int
from fracas.cli.text import LINE
from fracas.ledger import BadInputError, FracasError, NotFoundError
from fracas.ledger.errors import said
from fracas.ledger.open import is_database_error, is_server, shown

if TYPE_CHECKING:
    from fracas.cli.app import App
    from fracas.rules import Encounter, Ruleset


def names_for_completion(ctx: click.Context, names: Any, incomplete: str) -> list[str]:
    """`names(encounter)` of the encounter the line being completed names, read-only, that
    start with `incomplete`; nothing when there is none (completion never fails)."""
    from fracas.projections import Fracas

    root = ctx.find_root().params
    db = root.get("db") or os.environ.get("FRACAS_DB", "fracas.db")
    if not is_server(db) and not os.path.exists(db):
        return []
    try:
        with Fracas(db, readonly=True, create=False) as table:
            found = names(table.encounter(root.get("encounter")))
    except Exception as error:
        if isinstance(error, FracasError | OSError) or is_database_error(error):
            return []
        raise
    return [name for name in found if name.startswith(incomplete)]


def complete_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of combatant ids."""
    return names_for_completion(ctx, lambda live: list(live.state.fighters), incomplete)


def complete_conditions(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a condition: the target's own to clear, the ones the rules know
    by name (and the target has not) to set."""

    def conditions(live: Encounter) -> list[str]:
        fighter = live.state.fighters.get(ctx.params.get("target") or "")
        had = list(fighter.conditions) if fighter is not None else []
        return had if ctx.command.name == "clear" else sorted(live.ruleset.condition_names - {*had})

    return names_for_completion(ctx, conditions, incomplete)


def complete_turn_edges(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of --until: end:ID and start:ID for every combatant, and removed."""

    def edges(live: Encounter) -> list[str]:
        return [f"{e}:{who}" for e in ("end", "start") for who in live.state.fighters]

    return names_for_completion(ctx, lambda live: [*edges(live), "removed"], incomplete)


def complete_actions(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of the encounter's actions."""
    return names_for_completion(ctx, lambda live: list(live.ruleset.actions), incomplete)


def actor_and_action(ctx: click.Context) -> tuple[str, str]:
    """ACTOR and ACTION of the `act` line being completed (while an option waits for its
    value, click leaves the words unparsed, in ctx.args)."""
    words = [*ctx.args, "", ""]
    return ctx.params.get("actor") or words[0], ctx.params.get("action") or words[1]


def complete_opts(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of -o: the action's fields, then what the actor's sheet offers."""
    from fracas.cli.shell import opt_values

    actor, action = actor_and_action(ctx)
    return names_for_completion(
        ctx, lambda live: opt_values(live, actor, action, incomplete), incomplete
    )


def complete_weapons(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of -w: the weapons on the actor's sheet."""
    from fracas.projections import catalog

    actor, action = actor_and_action(ctx)
    return names_for_completion(
        ctx, lambda live: catalog.offered(live, actor, action, "weapon"), incomplete
    )


def parse_dice_faces(text: str | None) -> list[int] | None:
    if text is None:
        return None
    pieces = re.split(r"\s*,\s*|\s+", text.strip()) if text.strip() else []
    if "" in pieces:
        raise BadInputError(
            f"--dice has an empty face in {said(text)}: give each face once, like --dice 34,7"
        )
    try:
        return [ascii_int(piece) for piece in pieces]
    except ValueError:
        raise BadInputError(
            f"--dice takes the faces as whole numbers, like --dice 34,7; got {said(text)}"
        ) from None


def parse_pairs(pairs: tuple[str, ...], flag: str) -> dict[str, Any]:
    from fracas.rules.sheets import parse_value, set_path

    parsed: dict[str, Any] = {}
    given: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise BadInputError(f"{flag} takes KEY=VALUE, got {said(pair)}")
        key, value = key.strip(), value.strip()
        if given.setdefault(key, value) != value:  # the later one was kept, unseen
            raise BadInputError(
                f"{flag} gives {key} twice, {given[key]} and {value}: give it once"
            )
        where = f"{flag} {key}"
        parsed = set_path(parsed, key, parse_value(value, where))
    return parsed


def parse_defences(texts: tuple[str, ...], targets: tuple[str, ...]) -> dict[str, str]:
    """Each target's one reaction: `TARGET=KIND`, or a bare `KIND` for every target. Two
    kinds for one target are refused (a target answers an attack with one reaction; the
    later one used to replace the earlier unseen)."""
    defences: dict[str, str] = {}
    for text in texts:
        who, sep, kind = text.partition("=")
        for target, chosen in [(who, kind)] if sep else [(t, text) for t in targets]:
            if defences.setdefault(target, chosen) != chosen:
                raise BadInputError(
                    f"--defence gives {target} two reactions, {defences[target]} and {chosen}: "
                    "a target has one reaction to an attack; choose one"
                )
    return defences


def health() -> AsciiInt:
    """AMOUNT of health taken or given back by hand: 1 up to the most the rules allow."""
    from fracas.rules.commands import MOST_HEALTH

    return AsciiInt(1, MOST_HEALTH)


dice_option = click.option(
    "--dice",
    "-d",
    default=None,
    metavar="FACES",
    help="Faces of physical dice in the order rolled, e.g. 34,7.",
)


by_option = click.option(
    "--by",
    default="gm",
    show_default=True,
    help="Who is entering this: recorded as the step's author.",
)


id_option = click.option(
    "--command-id", default=None, help="Idempotency key: retrying the same id appends nothing new."
)


turn_option = click.option(
    "--turn",
    default=None,
    metavar="TOKEN",
    help="The turn you saw, as `fracas turn` prints it: refused if another command ended it.",
)


secret_option = click.option(
    "--secret", is_flag=True, help="GM-only: its rolls are left out of players' exports."
)


json_option = click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
reason_option = click.option(
    "--reason", "-m", default="", type=LINE, help="Why, in a few words: it is shown in the log."
)


def ruleset_for(app: App, name: str | None) -> tuple[Ruleset, Any]:
    """The named ruleset (with its defaults), or the encounter's (with its options now)."""
    from fracas.projections import catalog
    from fracas.rules import load

    if name is not None:
        return load(name), None
    way_out = by_name()
    no_log = BadInputError(f"{shown(app.db)}: no such log, so no encounter's ruleset; {way_out}")
    if not is_server(app.db) and not os.path.exists(app.db):
        raise no_log
    try:
        encounter = app.encounter()
    except NotFoundError as missing:
        if not is_server(app.db):
            raise NotFoundError(f"{missing}; or {way_out}") from None
        raise no_log from None
    return encounter.ruleset, catalog.options_in_force(encounter)


def by_name() -> str:
    """How the command names a ruleset with no encounter to read it from: `fracas actions
    -r srd`, and the rulesets installed."""
    from fracas.rules import available

    names = available()
    example = "srd" if "srd" in names else names[0] if names else "RULESET"
    command = click.get_current_context().info_name
    return f"name a ruleset: `fracas {command} -r {example}` (installed: {', '.join(names)})"
