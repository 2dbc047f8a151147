"""The table beyond the terminal: `play` (the interactive session), `serve` (the players'
screen and the GM's page) and `invite` (a link for a player's phone)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fracas.cli.app import App, cli, dump_json, pass_app
from fracas.cli.numbers import AsciiInt
from fracas.cli.options import complete_ids, json_option
from fracas.ledger import BadInputError

if TYPE_CHECKING:
    pass


@click.command(short_help="An interactive session: commands, keys, Tab.")
@pass_app
def play(app: App) -> None:
    """An interactive session on the encounter: the same commands without `fracas`,
    completion (Tab), history, and short forms: `attack bob` for whoever acts now;
    u, r, n, s for undo, redo, next, status. Ctrl-C clears the line, Ctrl-D leaves."""
    from fracas.cli.shell import play as shell

    if not sys.stdin.isatty() and not os.environ.get("FRACAS_PLAY_PIPE"):
        raise BadInputError("fracas play needs a terminal; pipe commands to `fracas` instead")
    shell(app, cli)


@click.command(short_help="The players' screen and the GM's page.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; 0.0.0.0 shares the screen on your network.",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=AsciiInt(0, 65535),
    help="The port (0: any free one).",
)
@click.option(
    "--npc-numbers",
    is_flag=True,
    help="Show the players NPCs' exact health instead of descriptors (bloodied, down).",
)
@click.option(
    "--files",
    type=click.Path(exists=True, file_okay=False, resolve_path=True, path_type=Path),
    default=None,
    help="The one directory the GM page's console may read and write files in "
    "(export -o, copy, add --sheet); without it, none.",
)
@click.option(
    "--player-steps",
    type=click.Choice(["now", "nod"]),
    default="now",
    show_default=True,
    help="A step from a player's phone lands at once (now), or waits for the GM's nod.",
)
@click.option(
    "--reaction-wait",
    type=AsciiInt(1, 86_400),
    default=120,
    show_default=True,
    metavar="SECONDS",
    help="How long a player has to answer an attack from their phone; then the rules' default.",
)
@click.option(
    "--certfile",
    type=click.Path(exists=True, dir_okay=False, resolve_path=True, path_type=Path),
    default=None,
    help="Serve HTTPS with this certificate (PEM); with --keyfile.",
)
@click.option(
    "--keyfile",
    type=click.Path(exists=True, dir_okay=False, resolve_path=True, path_type=Path),
    default=None,
    help="The certificate's private key (PEM).",
)
@pass_app
def serve(
    app: App,
    host: str,
    port: int,
    npc_numbers: bool,
    files: Path | None,
    player_steps: str,
    reaction_wait: int,
    certfile: Path | None,
    keyfile: Path | None,
) -> None:
    """The table's screen: a live players' page, and a GM's page behind a token."""
    from fracas.cli.serve import check_tls
    from fracas.cli.serve import serve as start

    check_tls(certfile, keyfile)
    app.open()  # refuses a missing or unreadable log with one line, before listening
    start(
        app.db,
        host,
        port,
        npc_numbers=npc_numbers,
        files=files,
        encounter=app.encounter_id,
        player_steps=player_steps,
        reaction_wait=reaction_wait,
        certfile=certfile,
        keyfile=keyfile,
    )


@click.command(short_help="A link for a player's phone.")
@click.argument("combatant", required=False, shell_complete=complete_ids)
@click.option("--revoke", is_flag=True, help="Revoke every link of COMBATANT at once.")
@click.option("--list", "listed", is_flag=True, help="Every link given, and when revoked.")
@click.option(
    "--url",
    default=None,
    metavar="URL",
    envvar="FRACAS_URL",
    help="Where `fracas serve` answers, as phones reach it (default: this machine's "
    "address on the network, port 8000).",
)
@click.option("--no-qr", is_flag=True, help="Print the link without its QR code.")
@json_option
@pass_app
def invite(
    app: App,
    combatant: str | None,
    revoke: bool,
    listed: bool,
    url: str | None,
    no_qr: bool,
    as_json: bool,
) -> None:
    """A link (and QR code) for COMBATANT's player to act from their phone; --revoke ends it."""
    from fracas.cli.phones import qr_terminal
    from fracas.cli.serve import lan_address
    from fracas.ledger import invites

    if as_json and not listed:
        raise BadInputError("--json goes with --list: a link is printed for its player")
    if listed:
        live = app.encounter()
        if as_json:
            given = invites.invites(live.store, live.id)
            rows = [{"combatant": g.combatant, "given": g.at, "revoked": g.revoked} for g in given]
            dump_json({"invites": rows})
            return
        for given in invites.invites(live.store, live.id):
            ended = f", revoked {given.revoked}" if given.revoked else ""
            click.echo(f"{given.combatant}: given {given.at}{ended}")
        return
    if combatant is None:
        raise click.UsageError("name the combatant whose player gets a link (or --list)")
    live = app.encounter(write=True)
    invites.check_known(combatant, [w.combatant for w in live.view().wounds])
    if revoke:
        count = invites.revoke(live.store, live.id, combatant)
        click.echo(f"revoked {count} link{'s' * (count != 1)} of {combatant}")
        return
    token = invites.invite(live.store, live.id, combatant)
    link = f"{(url or f'http://{lan_address()}:8000').rstrip('/')}/p/{token}"
    if not no_qr:
        click.echo(qr_terminal(link), nl=False)
    click.echo(link)
    click.echo(f"{combatant}'s player opens it to act from their phone; anyone with it can.")
