"""The table's screen without a browser: health descriptors, the players' board, readable
sentences, the head code players may witness, and `fracas serve` refusing bad starts."""

import socket
from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.screen import GM, PLAYERS, Timeline, descriptor
from fracas.rules import load
from fracas.rules.views import WoundRow
from tests.web import fracas


def wound(current: int, maximum: int | None, counts: str = "left", *conditions: str) -> WoundRow:
    return WoundRow("x", "X", "npc", "", list(conditions), {}, current, maximum, "HP", counts)


@pytest.mark.parametrize(
    ("row", "shown"),
    [
        (wound(12, 12), "unhurt"),
        (wound(7, 12), "hurt"),
        (wound(6, 12), "bloodied"),
        (wound(1, 12), "bloodied"),
        (wound(0, 12), "down"),
        (wound(9, 12, "left", "unconscious"), "down"),
        (wound(0, 6, "taken"), "unhurt"),
        (wound(2, 6, "taken"), "hurt"),
        (wound(3, 6, "taken"), "bloodied"),
        (wound(1, None, "taken"), "hurt"),
        (wound(5, None, "taken", "dead"), "down"),
    ],
)
def test_npc_health_reads_as_a_descriptor(row: WoundRow, shown: str) -> None:
    assert descriptor(row, load("percentile")) == shown


def test_down_is_what_the_ruleset_says_it_is() -> None:
    mook = wound(0, None, "taken", "out")
    assert descriptor(mook, load("shotclock")) == "down"
    assert descriptor(mook, load("percentile")) == "unhurt"


def timelines(db: Path) -> tuple[Timeline, Timeline]:
    opened = Fracas(db, readonly=True)  # left open: the timelines read head codes from it
    live = opened.encounter()
    head = lambda step: opened.store.head_code(live.id, step)  # noqa: E731
    return Timeline(live, "t", GM, head), Timeline(live, "t", PLAYERS, head)


@pytest.mark.sqlite_file
def test_the_players_board_hides_npc_numbers_and_the_gm_board_does_not(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    fracas(db, "demo", "--db", str(db), "--quiet")
    gm, players = timelines(db)
    health = {r.combatant: r.health for r in gm.screen().board.rows}
    shown = {r.combatant: r.health for r in players.screen().board.rows}
    assert health == {
        "alice": "HP 12/12",
        "cultist": "HP 1/12",
        "bishop": "HP 14/14",
        "gunman": "HP 3/11",
    }
    assert shown == {
        "alice": "HP 12/12",
        "cultist": "down",
        "bishop": "HP 14/14",
        "gunman": "bloodied",
    }
    numbers = {r.combatant: r.health for r in players.screen(npc_numbers=True).board.rows}
    assert numbers == health
    assert players.screen(9).board.header == gm.screen(9).board.header
    assert [e.step for e in gm.screen().log] == [16, 15, 14, 13, 12, 11, 10, 9]
    undone = next(e for e in gm.screen().log if e.step == 12)
    assert not undone.in_effect
    assert "critical" in next(e for e in gm.screen().log if e.step == 11).marks
    assert "down" in next(e for e in gm.screen().log if e.step == 10).marks


@pytest.mark.sqlite_file
def test_players_witness_the_head_only_up_to_an_undisclosed_secret_roll(tmp_path: Path) -> None:
    from tests.test_serve import secret_fight

    db = tmp_path / "secret.db"
    secret_fight(db, "12,9")
    fracas(db, "note", "the lights flicker")
    gm, players = timelines(db)
    assert gm.screen().head_code == fracas(db, "head").stdout.split()[0]
    seen = players.screen()
    assert seen.head_step == 5 and seen.head_code.startswith("5-")
    assert seen.withheld == 6
    assert [e.sentence for e in seen.log[:2]] == [
        "Note: the lights flicker",
        "bob attacks alice: what it decided is GM-only until the GM discloses it",
    ]
    assert not seen.log[1].marks
    fracas(db, "disclose", "6")
    _gm, players = timelines(db)
    assert players.screen().head_code == fracas(db, "head").stdout.split()[0]
    assert players.screen().withheld is None


def test_serve_refuses_a_missing_log_and_a_taken_port_in_one_line(tmp_path: Path) -> None:
    missing = fracas(tmp_path / "none.db", "serve", check=False)
    assert missing.returncode != 0 and len(missing.stderr.strip().splitlines()) == 1
    assert "no fracas log" in missing.stderr
    db = tmp_path / "demo.db"
    fracas(db, "demo", "--db", str(db), "--quiet")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = fracas(db, "serve", "--port", port, check=False)
    assert busy.returncode != 0 and len(busy.stderr.strip().splitlines()) == 1
    assert "pick another --port" in busy.stderr
    for files in (tmp_path / "nowhere", db):  # no such directory; a file, not a directory
        bad = fracas(db, "serve", "--port", "0", "--files", str(files), check=False)
        assert bad.returncode == 2 and "'--files'" in bad.stderr.strip().splitlines()[-1]


def test_ctrl_c_stops_the_server_cleanly_with_pages_open(tmp_path: Path) -> None:
    import json
    import signal

    import httpx

    from tests.web import served

    db = tmp_path / "demo.db"
    fracas(db, "demo", "--db", str(db), "--quiet")
    name = json.loads(fracas(db, "encounters", "--json").stdout)[0]["encounter"]
    with served(db) as running, httpx.stream("GET", f"{running.root}/e/{name}/stream") as live:
        assert live.status_code == 200
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(10) == 0
        assert running.process.stdout is not None
        assert "fracas serve: stopped" in running.process.stdout.read()
