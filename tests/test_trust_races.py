"""Trust, round 4 (issue 42): races between the table's processes. A reader sees one state of
the log (its step records and its events in one read snapshot), on both backends. Each test
failed on the code before its fix; bench/reliability/races.py runs them long."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.reliability import races
from fracas.ledger import ConflictError
from fracas.projections import Fracas
from fracas.rules import Encounter
from tests import session_fights
from tests.support import POSTGRESQL, cli_gunfight, do, fight


@pytest.fixture(params=["sqlite", POSTGRESQL])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "race.db")


@pytest.fixture
def table(where: str) -> Iterator[tuple[Fracas, Fracas]]:
    """The GM's writer and another process's reader of one log."""
    with Fracas(where) as writer, Fracas(where, readonly=True, create=False) as reader:
        yield writer, reader


def test_a_reader_sees_the_records_and_the_events_of_one_moment(table) -> None:
    """Another process appends an undo and a redo between the reader's reads of the step
    records and of the events: the reader still folds what its records say."""
    writer, reader = table
    live = fight(writer, ("alice", {"dex": 14}), ("bob", {"dex": 10}))
    do(live, {"action": "next"})
    live.undo()
    store = reader.store
    runs = store._effective_runs
    moved: list[int] = []

    def then_another_appends(*args, **kwargs):
        found = runs(*args, **kwargs)
        if not moved:  # once: the redo, then a new step, land between two reads
            moved.append(live.redo())
            do(live, {"action": "next"})
        return found

    store._effective_runs = then_another_appends  # type: ignore[method-assign]
    seen = Encounter(store, live.id)
    assert moved, "the race was not run"
    quiet = Encounter(writer.store, live.id)
    assert seen.history.head_step < quiet.history.head_step  # it read before they landed
    assert seen.state == quiet.state_at(seen.history.head_step)


def srd(table: Fracas) -> Encounter:
    live = table.new("srd", title="race")
    for who in ("wren", "gob"):
        do(live, {"action": "join", "combatant": who, "sheet": {"hp": 20}, "side": "pc"})
    do(live, {"action": "begin"})
    return live


FIGHTS = {
    "percentile": session_fights.percentile,
    "shotclock": session_fights.shotclock,
    "pool": session_fights.pool,
    "timeslice": session_fights.timeslice,
    "fudge": session_fights.fudge,
    "srd": srd,
}


def landing_first(store, live: Encounter):
    """`store.append`, once, after `live` ended the turn."""
    append = store.append

    def after_the_other_lands(*args, **kwargs):
        store.append = append
        do(live, {"action": "next"})
        return append(*args, **kwargs)

    return after_the_other_lands


@pytest.mark.parametrize("name", FIGHTS)
def test_two_tables_ending_the_turn_they_saw_end_one_turn(tmp_path: Path, name: str) -> None:
    """Two processes see the same turn and both say `next`, the other's landing between
    this one's decision and its append: this one is refused in one line (its retry on the
    new head used to end the next combatant's turn), and so is a `next` given the turn."""
    db = str(tmp_path / "fight.db")
    with Fracas(db) as first, Fracas(db) as second:
        live = FIGHTS[name](first)
        tokens = [live.turn()]
        for _ in range(6):
            other = second.encounter(live.id)  # the other table, at the turn this one sees
            assert other.turn() == tokens[-1]
            other.store.append = landing_first(other.store, live)  # type: ignore[method-assign]
            with pytest.raises(ConflictError, match=r"^the turn moved on: .*look again$"):
                do(other, {"action": "next"})
            head = live.history.head_step
            with pytest.raises(ConflictError, match="the turn moved on"):
                other.execute(other.ruleset.command({"action": "next"}), turn=tokens[-1])
            assert Encounter(first.store, live.id).history.head_step == head
            tokens.append(live.turn())
        assert len(set(tokens)) == len(tokens), tokens  # every `next` moved the token on


@pytest.mark.sqlite_file  # the processes open the file by path
def test_two_fracas_next_at_once_end_one_turn_each_round(run, tmp_path: Path) -> None:
    """Two `fracas next --turn T` processes at once, round after round (the bench runs 100)."""
    cli_gunfight(run, bob_hp=30)
    db = Path(run.db)
    figures = races.next_rounds(db, rounds=8)
    assert figures.counts == {"rounds ending 1 turn(s)": 8}, figures.counts


@pytest.mark.sqlite_file  # the processes open the file by path
def test_the_gm_page_and_play_pressing_next_at_once_end_one_turn(tmp_path: Path) -> None:
    figures = races.page_races_play(tmp_path, rounds=4)
    assert figures.counts == {"rounds ending 1 turn(s)": 4}, figures.counts


def test_play_and_the_gm_page_carry_what_they_showed(run) -> None:
    """`n` and `u` in `fracas play`, and the GM page's lines, carry the turn and the step the
    GM was shown: one racing another table's is refused, not doubled."""
    from fracas.cli.main import App, cli
    from fracas.cli.serve import Table
    from fracas.cli.shell import Session

    cli_gunfight(run, bob_hp=30)
    run("note", "a step to take back")
    play = Session(App(run.db, None), cli)
    play.prompt()  # what the GM is shown
    run("next")  # another table ends that turn first
    play.run("n")
    assert play.last.startswith("refused: the turn moved on"), play.last
    play.prompt()
    page = Table(run.db, "t")  # the GM page, showing the latest step
    seen = int(run("head").output.split("-")[0])
    run("undo")  # another table takes back the step the page shows as the latest
    name = page.worker.submit(page.encounter, None).result()
    answer = page.worker.submit(page.command, name, "undo", None, seen).result()
    # the page's Undo names what landed since it showed its step (issue 37 defect 7)
    assert answer["refusal"] == f"the fight moved on: step {seen + 1} landed", answer
    assert answer["status"] == 409, answer
    answer = page.worker.submit(page.command, name, "next", None, seen).result()  # bob's: undone
    assert answer["refusal"].startswith("the turn moved on"), answer
    page.close()
    assert run("audit").exit_code == 0


@pytest.mark.sqlite_file  # the log is named by its path on disk
def test_a_client_that_leaves_mid_body_leaves_no_traceback(tmp_path: Path) -> None:
    """A phone's step, the GM's command, invite and revoke, each declaring a body and
    leaving before it arrived: answered (to nobody), nothing raised to the server's log."""
    import asyncio

    from fracas.cli.serve import Table, build
    from tests.web import invited, motel

    db = tmp_path / "motel.db"
    motel(db)
    player = invited(db, "alice")
    table = Table(str(db), "gm-token")
    app = build(table)
    gm = [(b"x-fracas-token", b"gm-token"), (b"cookie", b"fracas_gm=gm-token")]
    paths = [
        (f"/p/{player}/act", [(b"x-fracas-token", player.encode())]),
        ("/gm/e/motel/command", gm),
        ("/gm/e/motel/invite", gm),
        ("/gm/e/motel/revoke", gm),
    ]

    async def leave_midway(path: str, headers: list[tuple[bytes, bytes]]) -> list[dict]:
        arriving = [
            {"type": "http.request", "body": b'{"li', "more_body": True},
            {"type": "http.disconnect"},
        ]
        sent: list[dict] = []

        async def receive() -> dict:
            return arriving.pop(0) if arriving else {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"100"),
                *headers,
            ],
            "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 8000),
            "scheme": "http",
            "root_path": "",
            "http_version": "1.1",
        }
        await app(scope, receive, send)  # a traceback in the log is an exception here
        return sent

    try:
        for path, headers in paths:
            sent = asyncio.run(leave_midway(path, headers))
            status = next(m["status"] for m in sent if m["type"] == "http.response.start")
            assert status == 400, (path, sent)
    finally:
        table.close()


def log_bytes(db: Path) -> dict[str, bytes]:
    files = sorted(db.parent.iterdir())
    return {path.name: path.read_bytes() for path in files if path.name.startswith(db.name)}


@pytest.mark.sqlite_file  # the log is named by its path on disk
def test_a_full_disk_refuses_in_one_line_and_changes_no_byte(tmp_path: Path, monkeypatch) -> None:
    """The Python API as the CLI: a writer opened on a full disk, and an append that finds
    the disk full, are refused with fracas's own line (no raw sqlite3 error), the log's
    files byte for byte as they were."""
    import shutil

    from fracas.ledger import RefusedError

    db = tmp_path / "fight.db"
    with Fracas(str(db)) as table:
        live = fight(table, ("alice", {"dex": 14}), ("bob", {"dex": 10}))
        name = live.id
    before = log_bytes(db)
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda _path: usage._replace(free=0))
    with pytest.raises(RefusedError, match="is full: nothing was written"):
        Fracas(str(db))
    assert log_bytes(db) == before
    monkeypatch.undo()
    with Fracas(str(db)) as table:
        live = table.encounter(name)
        pages = table.store.conn.execute("PRAGMA page_count").fetchone()[0]
        table.store.conn.execute(f"PRAGMA max_page_count = {pages}")  # as if the disk filled
        with pytest.raises(RefusedError, match="is full: nothing was written"):
            live.note("x" * 20000)
        head = live.history.head_step
    with Fracas(str(db), readonly=True, create=False) as table:
        assert table.encounter(name).history.head_step == head  # nothing was appended


def test_end_and_undo_given_what_was_seen_are_refused_once_it_moved(run) -> None:
    cli_gunfight(run, bob_hp=30)
    seen = run("turn").output.strip()
    run("next")
    before = run("log", "--json").output
    moved = run("end", "--turn", seen, ok=False)
    assert moved.output.startswith(f"Error: the turn moved on: {seen} was seen"), moved.output
    assert "no longer the latest" in run("undo", "--step", "4", ok=False).output
    assert run("log", "--json").output == before
    run("end", "--turn", run("turn").output.strip())  # the turn as it is now: it ends
