"""The table's screen without a browser: health descriptors, the players' board, readable
sentences, the head code players may witness, and `fracas serve` refusing bad starts."""

import socket
from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from fracas.projections.screen import GM, LOG_LINES, PLAYERS, Timeline, descriptor
from fracas.rules import FreeRoll, load
from fracas.rules.ruleset import BUILTIN
from fracas.rules.views import WoundRow
from tests.casts import PLAIN
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
    assert [e.step for e in gm.screen().log] == list(range(16, max(0, 16 - LOG_LINES), -1))
    undone = next(e for e in gm.screen().log if e.step == 12)
    assert not undone.in_effect
    assert "critical" in next(e for e in gm.screen().log if e.step == 11).marks
    assert "down" in next(e for e in gm.screen().log if e.step == 10).marks


@pytest.mark.sqlite_file
@pytest.mark.slow
def test_players_witness_the_head_only_up_to_an_undisclosed_secret_roll(tmp_path: Path) -> None:
    from tests.web import secret_fight

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


@pytest.mark.slow
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


def long_fight(db: Path, steps: int) -> None:
    """Nine combatants of percentile trading attacks and aims until the log has `steps`."""
    with Fracas(db) as opened:
        opened.new("percentile", encounter="long", title="Long")
        opened.add("dummy", {"dex": 5, "hp": 100000})
        for n in range(1, 9):
            opened.add(f"p{n}", {"dex": 12, "skills": {"firearms": 40}}, side="pc")
        live = opened.encounter("long")
        live.execute(live.ruleset.command({"action": "begin"}))
        while live.history.head_step < steps:
            take(live)


def take(live: Any) -> None:
    who = live.view().acting[0]
    if who == "dummy":
        move = {"action": "next"}
    elif live.history.head_step % 2:
        move = {"action": "aim", "actor": who}
    else:
        move = {"action": "attack", "actor": who, "targets": ["dummy"]}
    live.execute(live.ruleset.command(move))


def work_of_one_step(db: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """What the server does for its pages when one more step lands: (steps whose players'
    view is worked out, steps walked into moments, events read from the log), the two
    screens rendered as the server pushes them; and they are the screens a server started
    afresh would push."""
    from fracas.cli.serve import Table
    from fracas.projections import replay, screen
    from fracas.rules import encounter, timeline

    table, fresh = Table(str(db), "token"), Table(str(db), "token")

    def pushes(table: Table) -> list[str]:  # on the server's own database thread
        work = lambda: [table.update("long", audience) for audience in (GM, PLAYERS)]  # noqa: E731
        return table.worker.submit(work).result()

    pushes(table)
    with Fracas(db) as other:
        take(other.encounter("long"))
    cut, walked, read = [], [], []

    def counted_cut(frames: list[Any], view_of: Any) -> Any:
        cut.append(len(frames))
        return real_cut(frames, view_of)

    def counted_walk(*args: Any, **kwargs: Any) -> Any:
        for moment in real_timeline(*args, **kwargs):
            walked.append(moment)
            yield moment

    def counted_read(*args: Any, **kwargs: Any) -> Any:
        for event in real_read(*args, **kwargs):
            read.append(event)
            yield event

    real_cut, real_timeline = replay.players_cut, screen.timeline
    real_read = encounter.recorded_events
    monkeypatch.setattr(replay, "players_cut", counted_cut)
    monkeypatch.setattr(screen, "timeline", counted_walk)
    monkeypatch.setattr(encounter, "recorded_events", counted_read)
    monkeypatch.setattr(timeline, "recorded_events", counted_read)
    pushed = pushes(table)
    monkeypatch.undo()
    assert pushed == pushes(fresh)
    table.close()
    fresh.close()
    return sum(cut), len(walked), len(read)


@pytest.mark.sqlite_file
def test_a_step_costs_the_server_the_same_at_any_length_of_the_fight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37 defect 9: the server walked the whole players' timeline again for every
    step, so a tap reached the pages later the longer the fight (430 ms near step 280)."""
    short, long = tmp_path / "short.db", tmp_path / "long.db"
    long_fight(short, 50)
    long_fight(long, 410)  # as far on in the round and the aim-attack cycle as at 50
    at_50, at_410 = work_of_one_step(short, monkeypatch), work_of_one_step(long, monkeypatch)
    assert at_410[:2] == at_50[:2]
    assert at_410[2] < 2 * at_50[2]  # the same few steps' events (an attack has more than an aim)
    assert at_410[0] <= 2  # the new step, and the last one players saw as the log has it


@pytest.mark.sqlite_file
def test_a_phone_panel_is_worked_out_once_per_head_of_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37 defect 9: every phone refetched its panel after every step, each worked out
    again; now one per character and head, whoever asks and however often."""
    from starlette.testclient import TestClient

    from fracas.cli import phones
    from fracas.cli.serve import Table, build
    from fracas.ledger.invites import invite

    db = tmp_path / "long.db"
    long_fight(db, 20)
    with Fracas(db) as opened:
        tokens = [invite(opened.store, "long", who) for who in ("p1", "p2")]
    worked: list[str] = []
    real_panel = phones.panel

    def counted(timeline: Any, live: Any, combatant: str) -> Any:
        worked.append(combatant)
        return real_panel(timeline, live, combatant)

    monkeypatch.setattr(phones, "panel", counted)
    table = Table(str(db), "token")
    with TestClient(build(table)) as client:
        for _ in range(3):
            for token in tokens:
                assert client.get(f"/p/{token}/panel").status_code == 200
        assert sorted(worked) == ["p1", "p2"]
        with Fracas(db) as other:
            take(other.encounter("long"))
        panels = {token: client.get(f"/p/{token}/panel").text for token in tokens}
        assert sorted(worked) == ["p1", "p1", "p2", "p2"]
        assert panels == {token: client.get(f"/p/{token}/panel").text for token in tokens}


SYSTEMS = sorted({*BUILTIN, "srd"})


class Followed:
    """The players' screen of one fight as `fracas serve` follows it, head after head, held
    after each step against the same screen walked whole from the log."""

    def __init__(self, opened: Fracas, encounter: str) -> None:
        self.opened, self.encounter = opened, encounter
        self.timeline = self.walked_whole()

    def walked_whole(self, since: Timeline | None = None) -> Timeline:
        live = self.opened.encounter(self.encounter)
        return Timeline(live, "t", PLAYERS, lambda step: str(step), since)

    def holds(self, what: str) -> list[str]:
        """The followed players' log lines, after asserting they are the whole walk's."""
        self.timeline = self.walked_whole(self.timeline)
        whole = self.walked_whole()
        followed = [(m.step.step, m.step.lines) for m in self.timeline.moments]
        assert followed == [(m.step.step, m.step.lines) for m in whole.moments], what
        assert self.timeline.screen() == whole.screen(), what
        return [line for _step, lines in followed for line in lines]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_disclosure_reads_the_same_step_followed_as_walked_whole(system: str) -> None:
    """A second disclosure of a GM-only roll, once players saw it plain: the followed
    players' screen read "the GM discloses step 0" where the whole walk reads its step,
    since the followed walk starts after that step and did not know its number."""
    opened = Fracas(":memory:")
    live = opened.new(system, encounter="e1")
    opened.add("alice", PLAIN[system], "e1", side="pc")
    opened.add("bob", PLAIN[system], "e1")
    live.execute(live.ruleset.command({"action": "begin"}))
    screen = Followed(opened, "e1")
    secret = live.execute(FreeRoll("d20", "a spot check"), secret=True).step
    screen.holds("a GM-only roll")
    live.disclose(secret)
    assert f"the GM discloses step {secret} to the players" in screen.holds("its disclosure")
    live.note("the lights go out")
    screen.holds("a note after it")
    again = live.disclose(secret).step
    lines = screen.holds("its second disclosure")
    assert screen.timeline.walked == 1, "the screen was walked whole, not followed"
    assert lines.count(f"the GM discloses step {secret} to the players") == 2, lines
    opened.add("lurker", PLAIN[system], "e1", hidden=True)
    screen.holds("a hidden combatant's join")
    live.reveal_combatant("lurker")
    screen.holds("their reveal")
    live.undo()
    live.undo()
    screen.holds("the reveal and the join undone")
    assert live.history.head_step > again
