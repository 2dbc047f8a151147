"""Session exports: lossless JSONL and its import, for every system; Markdown and HTML
logs; players' exports that leak nothing GM-only."""

import io
import json
import os
import re
import sqlite3
import stat
from pathlib import Path

import pytest

from fracas.ledger import BadInputError, IntegrityError, RefusedError
from fracas.projections import Fracas, exports
from fracas.projections.tables import table_rows
from fracas.rules import Encounter
from tests.session_fights import SYSTEMS
from tests.support import attack, cli_gunfight, fight, forge, gunner


def exported(fracas: Fracas, path: Path, **options) -> Path:
    with path.open("w", encoding="utf-8") as out:
        fracas.export_jsonl(out, **options)
    return path


@pytest.mark.parametrize("read_at_once", [exports.READ_AT_ONCE, 1024], ids=["whole", "chunks"])
@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_jsonl_round_trip_gives_the_same_events_chain_and_state(
    tmp_path, system, read_at_once, monkeypatch
):
    """Also when an import reads the file in many chunks, each decoded in one call."""
    monkeypatch.setattr(exports, "READ_AT_ONCE", read_at_once)
    with Fracas(tmp_path / "table.db") as table:
        played = SYSTEMS[system](table)
        export = exported(table, tmp_path / "session.jsonl", with_secrets=True)
        with Fracas(tmp_path / "copy.db") as copy:
            assert copy.import_jsonl(export) == len(list(table.store.events()))
            assert list(copy.store.events()) == list(table.store.events())
            assert copy.store.history(played.id) == table.store.history(played.id)
            assert copy.store.verify() == table.store.verify()
            again = Encounter(copy.store, played.id)
            assert again.state == played.state and again.view() == played.view()
            assert table_rows(copy.store) == table_rows(table.store)
            assert copy.audit().ok
            again.note("the copy plays on")  # and seeded dice still roll from the sealed seed
            assert again.reveal().step == played.history.head_step + 2


def test_a_gm_export_reads_the_same_in_a_text_file_as_in_text(tmp_path, fracas):
    """An export into a UTF-8 text file goes straight to its bytes: the same lines as one
    written as text, the header first and a backup's sealed seeds last, in order with what
    the caller writes around it."""
    fight(fracas, ("alice", gunner()), ("bob", gunner(10)))
    as_text = io.StringIO()
    fracas.export_jsonl(as_text, with_secrets=True)
    path = tmp_path / "backup.jsonl"
    with path.open("w", encoding="utf-8") as out:
        out.write("before\n")
        fracas.export_jsonl(out, with_secrets=True)
        out.write("after\n")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert "".join(lines[1:-1]) == as_text.getvalue()
    assert (lines[0], lines[-1]) == ("before\n", "after\n")
    kinds = [json.loads(line)["type"] for line in lines[1:-1]]
    assert kinds[0] == "header" and kinds[-1] == "secret" and "event" in kinds


def test_import_refuses_a_file_that_holds_events_and_appends_nothing(tmp_path, fracas):
    fight(fracas, ("alice", gunner()), ("bob", gunner()))
    export = exported(fracas, tmp_path / "s.jsonl")
    count = len(list(fracas.store.events()))
    with pytest.raises(RefusedError, match="copy or import only into a new, empty file"):
        fracas.import_jsonl(export)
    assert len(list(fracas.store.events())) == count


def test_import_refuses_a_damaged_export_naming_the_position(tmp_path, fracas):
    fight(fracas, ("alice", gunner()), ("bob", gunner()))
    lines = exported(fracas, tmp_path / "s.jsonl").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"combatant.joined"' in line)
    joined = json.loads(lines[at])
    joined["body"] = joined["body"].replace('"dex":14', '"dex":18')
    lines[at] = json.dumps(joined)
    (tmp_path / "bad.jsonl").write_text("\n".join(lines))
    with Fracas(tmp_path / "copy.db") as copy:
        with pytest.raises(IntegrityError, match=f"damaged at position {joined['position']}"):
            copy.import_jsonl(tmp_path / "bad.jsonl")
        assert list(copy.store.events()) == [], "nothing was imported"
    (tmp_path / "junk.jsonl").write_text("not json\n")
    with Fracas(tmp_path / "other.db") as other, pytest.raises(BadInputError, match="line 1"):
        other.import_jsonl(tmp_path / "junk.jsonl")


def test_a_line_that_does_not_read_is_named_in_any_chunk_of_the_file(tmp_path, fracas, monkeypatch):
    """An import reads a long export in chunks; a bad line far past the first chunk is still
    named by its own number, and nothing is imported."""
    monkeypatch.setattr(exports, "READ_AT_ONCE", 1024)
    fight(fracas, ("alice", gunner()), ("bob", gunner()))
    lines = exported(fracas, tmp_path / "s.jsonl").read_text().splitlines()
    assert sum(map(len, lines)) > 4 * 1024
    lines[-3] = '{"type": "event", "position": "three"}'
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    with Fracas(tmp_path / "copy.db") as copy:
        with pytest.raises(BadInputError, match=f"line {len(lines) - 2} of"):
            copy.import_jsonl(tmp_path / "bad.jsonl")
        assert list(copy.store.events()) == [], "nothing was imported"


def test_an_import_and_its_read_models_are_one_transaction(tmp_path, fracas, monkeypatch):
    """The read models are made inside the import's transaction: if making them fails (a
    full disk, say), the file is left empty rather than holding events without them."""
    fight(fracas, ("alice", gunner()), ("bob", gunner()))
    export = exported(fracas, tmp_path / "s.jsonl")

    def failing(*args: object) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr("fracas.projections.app.write_view", failing)
    with Fracas(tmp_path / "copy.db") as copy:
        with pytest.raises(OSError, match="the disk is full"):
            copy.import_jsonl(export)
        assert list(copy.store.events()) == [], "nothing was imported"
        assert copy.store.encounters() == []


def test_an_export_with_its_steps_after_the_events_still_imports(tmp_path, fracas):
    """Exports write the step records first (an import checks each event against its
    record as it passes); one from before, its records after the events, imports alike."""
    fight(fracas, ("alice", gunner()), ("bob", gunner()))
    lines = exported(fracas, tmp_path / "s.jsonl").read_text().splitlines()
    steps = [line for line in lines if line.startswith('{"type":"step"')]
    assert steps and lines[1 : 1 + len(steps)] == steps
    older = [line for line in lines if line not in steps] + steps
    (tmp_path / "older.jsonl").write_text("\n".join(older) + "\n")
    with Fracas(tmp_path / "copy.db") as copy:
        assert copy.import_jsonl(tmp_path / "older.jsonl") == len(list(fracas.store.events()))
        assert list(copy.store.events()) == list(fracas.store.events())
        assert copy.audit().ok


@pytest.mark.parametrize("records", ["first", "last"])
def test_an_import_makes_the_read_models_of_what_was_undone_and_redone(
    tmp_path, fracas, records
):
    """The read models an import makes (folded as the rows pass, or from the log once all
    are in when the records come last) are the source's: an undone step left out, a redone
    one back in, each encounter its own."""
    first = fight(fracas, ("alice", gunner()), ("bob", gunner(10)))
    second = fight(fracas, ("carol", gunner()), ("dan", gunner(12)))
    attack(first, "alice", "bob", dice=[10, 5])
    attack(second, "carol", "dan", dice=[10, 7])
    first.undo()
    attack(second, "dan", "carol", dice=[10, 3])
    second.undo()
    second.redo()
    lines = exported(fracas, tmp_path / "s.jsonl").read_text().splitlines()
    if records == "last":
        steps = [line for line in lines if line.startswith('{"type":"step"')]
        lines = [line for line in lines if line not in steps] + steps
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    with Fracas(tmp_path / "copy.db") as copy:
        copy.import_jsonl(tmp_path / "in.jsonl")
        assert table_rows(copy.store) == table_rows(fracas.store)
        for played in (first, second):
            again = Encounter(copy.store, played.id)
            assert again.state == played.state and again.view() == played.view()
        assert copy.audit().ok


def journal_mode(path: Path) -> str:
    """The mode another connection finds the file in."""
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA journal_mode").fetchone()[0]


@pytest.mark.sqlite_file
def test_a_file_imported_into_or_refused_stays_in_wal_mode(tmp_path, fracas):
    """An import writes through a rollback journal (the log goes to the file once); the
    file is back in WAL mode after it, taken or refused, so readers never wait on a writer."""
    fight(fracas, ("alice", gunner()), ("bob", gunner()))
    export = exported(fracas, tmp_path / "s.jsonl")
    with Fracas(tmp_path / "copy.db") as copy:
        copy.import_jsonl(export)
        assert journal_mode(tmp_path / "copy.db") == "wal"
    lines = export.read_text().splitlines()
    last_step = max(n for n, line in enumerate(lines) if line.startswith('{"type":"step"'))
    (tmp_path / "short.jsonl").write_text("\n".join(lines[:last_step] + lines[last_step + 1 :]))
    with Fracas(tmp_path / "refused.db") as refused:
        with pytest.raises(IntegrityError, match="nothing was imported"):
            refused.import_jsonl(tmp_path / "short.jsonl")
        assert journal_mode(tmp_path / "refused.db") == "wal"
        assert list(refused.store.events()) == []


def test_cli_import_of_a_players_export_is_refused_in_one_line(tmp_path, run):
    run("new")
    run("add", "alice")
    run("export", "--for", "players", "-o", str(tmp_path / "p.jsonl"))
    refused = run("--db", str(tmp_path / "x.db"), "import", str(tmp_path / "p.jsonl"), ok=False)
    assert refused.exit_code == 1 and "players' export" in refused.output
    assert len(refused.output.strip().splitlines()) == 1


def duel_with_an_undo(fracas: Fracas) -> Encounter:
    e = fight(fracas, ("alice", gunner(14)), ("bob", gunner(10, hp=8)))
    attack(e, "alice", "bob", weapon="pistol", dice=[30, 5])
    attack(e, "bob", "alice", weapon="pistol", dice=[70])
    attack(e, "alice", "bob", weapon="pistol", dice=[12, 1])
    e.undo()
    return e


def test_markdown_report_reads_by_round_and_turn_with_the_undone_step_folded(fracas):
    e = duel_with_an_undo(fracas)
    out = io.StringIO()
    fracas.export_text(out, "md", e.id)
    text = out.getvalue()
    assert text.startswith("# test\n")
    assert "## Setting up" in text and "## Round 1" in text
    assert "## Round 2" not in text, "the only step of round 2 was undone"
    assert "### alice's turn" in text and "### bob's turn" in text
    assert "alice attacks bob: 30 against 60%, success; hit; bob takes 5 damage" in text
    assert "30 vs 60%" in text, "the event lines, in the step's footnote"
    assert "**Taken back:** 1 step undone." in text
    assert "<summary>Taken back at the end: 1 step undone here</summary>" in text
    assert "~~alice attacks bob: 12 against 60%" in text
    assert "| bob | pc | HP 3/8 |" in text, "the wounds at the end of round 1"
    assert "| alice | 5 | 0 |" in text and "| bob | 0 | 5 |" in text, "damage dealt, taken"


def test_html_report_is_one_self_contained_printable_page(fracas):
    e = duel_with_an_undo(fracas)
    out = io.StringIO()
    fracas.export_text(out, "html", e.id)
    page = out.getvalue()
    assert page.startswith("<!doctype html>") and "@media print" in page
    assert not re.search(r"(src|href)=", page), "no outside files"
    assert "<del>alice attacks bob: 12 against 60%" in page
    assert page.count("<caption>At the end of Round 1</caption>") == 1
    assert "<td>HP 3/8</td>" in page
    assert '<svg class="health"' in page and "<script" not in page
    assert '<details class="more"><summary>rolls and rules</summary>' in page


SENTINEL = "SENTINEL-7731-gm-only"


def test_players_exports_leak_nothing_of_a_secret_roll(tmp_path, run):
    """The GM rolls a hidden shot whose modifier carries a sentinel; then reveals the seed
    (which would re-derive it). The GM's exports carry both; no players' export does."""
    cli_gunfight(run, bob_hp=30)
    run("act", "alice", "attack", "bob", "-w", "pistol", "--mod", f"-10:{SENTINEL}", "--secret")
    run("next")
    run("reveal")
    with Fracas(run.db) as table:
        (revealed,) = [e for e in table.store.events() if e.kind == "seed.revealed"]
    seed = json.loads(revealed.body)["seed"]
    secrets = (SENTINEL, seed)
    for fmt in ("jsonl", "md", "html"):
        gm = run("export", "--format", fmt).output
        assert all(s in gm for s in secrets), f"the GM's {fmt} carries them"
        players = run("export", "--format", fmt, "--for", "players").output
        assert not any(s in players for s in secrets), f"the players' {fmt} leaks"
        assert ("alice declares attack" in players) == (fmt != "jsonl")
    replayed = run("export", "--format", "md", "--for", "players").output
    assert "what it decided is GM-only until the GM discloses it" in replayed
    # the `next` that followed passes the turn the same way whatever the secret roll gave
    # (a 1d10 pistol cannot down 30 HP), so players see it at once (issue 38); what the
    # roll decided, Bob's health, still waits on the disclosure
    assert "Step 6, by the GM: bob spends 1 action: passes" in replayed
    assert "Step 7, by the GM: dice seed 1 revealed to the GM (withheld here" in replayed
    assert "Round 1 wait on the GM's secret roll at step 5" in replayed
    lines = [json.loads(x) for x in run("export", "--for", "players").output.splitlines()]
    withheld = [x for x in lines if x.get("withheld_after_secret_step") == 5]
    assert withheld[0]["command"] == {"actor": "alice", "action": "attack", "targets": ["bob"]}
    assert not any("hash" in x or "position" in x or "version" in x for x in lines)


def test_exports_show_no_progress_in_a_pipe(tmp_path, run):
    run("new")
    run("add", "alice")
    result = run("export", "-o", str(tmp_path / "s.jsonl"))
    (summary,) = result.output.splitlines()  # the one summary line, no progress bar
    assert summary.startswith("exported 3 events, head ")


def test_an_export_cut_short_or_missing_its_last_step_is_refused_and_nothing_is_imported(
    tmp_path,
) -> None:
    from click.testing import CliRunner

    from fracas.cli.main import cli

    runner = CliRunner()
    db, backup = str(tmp_path / "a.db"), tmp_path / "a.jsonl"
    for args in (["new"], ["add", "alice"], ["add", "bob"], ["begin"], ["note", "one"]):
        assert runner.invoke(cli, ["--db", db, *args]).exit_code == 0
    assert runner.invoke(cli, ["--db", db, "export", "-o", str(backup)]).exit_code == 0
    lines = backup.read_text().splitlines(keepends=True)
    events = [n for n, line in enumerate(lines) if line.startswith('{"type":"event"')]
    steps = [n for n, line in enumerate(lines) if line.startswith('{"type":"step"')]
    cuts = {
        "header only": lines[:1],
        "last step gone": [
            line for n, line in enumerate(lines) if n not in (events[-1], steps[-1])
        ],
    }
    for name, kept in cuts.items():
        cut = tmp_path / f"{name}.jsonl"
        cut.write_text("".join(kept))
        target = tmp_path / f"{name}.db"
        result = runner.invoke(cli, ["--db", str(target), "import", str(cut)])
        assert result.exit_code != 0, name
        assert "is not whole" in result.output and "Traceback" not in result.output
        assert not target.exists()


@pytest.mark.sqlite_file  # the files are written on this machine's disk
@pytest.mark.parametrize("fmt", ["jsonl", "md", "html"])
def test_an_export_file_follows_the_umask_and_keeps_the_mode_it_replaces(tmp_path, run, fmt):
    """A GM shares a report: it is made as any other file is (0666 less the umask), and an
    export over a file already there keeps that file's mode."""
    run("new")
    run("add", "alice")
    target = tmp_path / f"session.{fmt}"
    old = os.umask(0o022)
    try:
        run("export", "--format", fmt, "-o", str(target))
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        target.chmod(0o640)
        run("export", "--format", fmt, "-o", str(target))
        assert stat.S_IMODE(target.stat().st_mode) == 0o640
    finally:
        os.umask(old)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def two_fights_with_undo_and_redo(fracas: Fracas) -> None:
    """Two encounters whose events interleave, each with an undone and a redone step."""
    one = fight(fracas, ("alice", gunner(14)), ("bob", gunner(10)))
    two = fight(fracas, ("carol", gunner(14)), ("dave", gunner(10)))
    for live, actor, target in ((one, "alice", "bob"), (two, "carol", "dave")):
        attack(live, actor, target, weapon="pistol", dice=[95])
    for live in (one, two):
        live.undo()
    for live in (one, two):
        live.redo()


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE steps SET author = 'mallory' WHERE step = 4",
        "UPDATE steps SET at = '2000-01-01T00:00:00.000+00:00' WHERE step = 2",
        "UPDATE steps SET target = 2 WHERE control = 'undo'",
        "UPDATE steps SET control = 'command', target = NULL WHERE control = 'redo'",
        "UPDATE steps SET last_version = last_version + 1 WHERE step = 3",
        "DELETE FROM steps WHERE step = 3",
    ],
)
def test_a_gm_export_of_forged_step_records_is_refused(tmp_path, fracas, statement):
    """Step records are not chained: the export's one pass over the events checks them."""
    two_fights_with_undo_and_redo(fracas)
    exported(fracas, tmp_path / "whole.jsonl")  # the log as played exports
    forge(fracas, statement)
    assert not fracas.store.check_steps().ok
    with pytest.raises(IntegrityError, match="the log is damaged"):
        exported(fracas, tmp_path / "forged.jsonl")
