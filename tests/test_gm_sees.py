"""The GM sees what is hidden and what is secret: a hidden combatant marked on the GM's
page (and `fracas status`: tests/test_status_width.py), a `--secret` step marked in the
GM's output, `fracas log` and the GM's page, with whether it is disclosed; never on a
players' surface."""

import asyncio
import json

import httpx

from fracas.cli.serve import TOKEN_HEADER, Table, build
from tests.support import SHEETS


def ambush(run) -> None:
    """Alice and a cultist begun, and Bishop added hidden; Alice's attack is secret."""
    run("new", "--id", "motel")
    run("add", "alice", "--sheet", f"{SHEETS}/alice.toml")
    run("add", "cultist", "--sheet", f"{SHEETS}/cultist.toml")
    run("add", "bishop", "--sheet", f"{SHEETS}/bishop.toml", "--hidden")
    run("begin")


def acting(run) -> str:
    return json.loads(run("status", "--json").output)["acting"][0]


def test_a_secret_step_is_marked_for_the_gm_until_and_after_it_is_disclosed(run) -> None:
    ambush(run)
    who = acting(run)
    foe = "cultist" if who != "cultist" else "alice"
    weapon = {"alice": "pistol", "cultist": "knife", "bishop": "revolver"}
    out = run("act", who, "attack", foe, "-w", weapon.get(who, ""), "--secret", "--dice", "20,5")
    step = int(out.output.split()[1])
    assert f"[SECRET: players see its command only until `fracas disclose {step}`]" in out.output
    header = next(
        line for line in run("log").output.splitlines() if line.startswith(f"step {step} ")
    )
    assert header.endswith(f"until `fracas disclose {step}`]")
    logged = next(s for s in json.loads(run("log", "--json").output) if s["step"] == step)
    assert logged["secret"] and logged["disclosed_by"] is None
    run("disclose", str(step))
    lines = run("log").output.splitlines()
    assert f"[SECRET, disclosed at step {step + 1}]" in next(
        line for line in lines if line.startswith(f"step {step} ")
    )
    assert "SECRET" not in next(line for line in lines if line.startswith(f"step {step + 1} "))
    run("undo")  # the disclosure taken back: the step is secret again
    assert header_of(run, step).endswith(f"until `fracas disclose {step}`]")


def header_of(run, step: int) -> str:
    return next(line for line in run("log").output.splitlines() if line.startswith(f"step {step} "))


def test_the_gm_s_page_marks_the_hidden_and_the_secret_and_the_players_page_neither(run) -> None:
    ambush(run)
    who = acting(run)
    foe = "cultist" if who != "cultist" else "alice"
    weapon = {"alice": "pistol", "cultist": "knife"}[who]
    step = int(
        run("act", who, "attack", foe, "-w", weapon, "--secret", "--dice", "20,5").output.split()[1]
    )
    gm, players = pages(run.db)
    assert 'class="hidden-mark">not shown to players</span>' in gm
    assert "secret, not disclosed" in gm
    said = players.lower().replace("gm's secret roll", "").replace("secret until shown", "")
    assert "hidden-mark" not in players and "secret" not in said
    run("disclose", str(step))
    run("reveal-combatant", "bishop")
    gm, _ = pages(run.db)
    assert "secret, disclosed" in gm and "hidden-mark" not in gm


def pages(db: str) -> tuple[str, str]:
    """The GM's page and the players' page of the encounter, as the server serves them."""

    async def read() -> tuple[str, str]:
        table = Table(db, "token")
        transport = httpx.ASGITransport(app=build(table))
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as client:
            gm = await client.get("/gm/e/motel", headers={TOKEN_HEADER: "token"})
            players = await client.get("/e/motel")
        table.close()
        return gm.text, players.text

    return asyncio.run(read())


def test_play_s_board_marks_the_hidden_combatant(run, capsys) -> None:
    from fracas.cli.main import App, cli
    from fracas.cli.shell import Session

    ambush(run)
    app = App(run.db, None)
    try:
        session = Session(app, cli)
        capsys.readouterr()
        assert session.run("s")
        rows = [line for line in capsys.readouterr().out.splitlines() if "Marcus Bishop" in line]
        assert len(rows) == 1 and "not shown to players" in rows[0]
    finally:
        app.close()
