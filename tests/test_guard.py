"""Issues 29 and 30: nothing a process did not create alone is removed; numbers and hex
that do not fit are refused in one line where they enter; a GM's backup carries every
sealed seed or is refused; key files are owner-only and never tracked by git."""

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.reliability import guard
from bench.reliability.trials import Figures
from fracas.cli.main import App, cli
from fracas.ledger import BadInputError
from fracas.projections import Fracas

pytestmark = pytest.mark.sqlite_file  # the SQLite file itself: its files, its key file

ROOT = Path(__file__).parent.parent
BIG = str(2**63)


def bad(figures: Figures, *keys: str) -> dict[str, object]:
    return {key: figures.counts[key] for key in keys if figures.counts.get(key, 0)}


def one_line_refusal(result, *words: str) -> str:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    line = result.output.strip()
    assert len(line.splitlines()) == 1 and line.startswith("Error: "), line
    for word in words:
        assert word in line, line
    return line


def fight(tmp_path: Path, name: str = "fight.db") -> tuple[Path, CliRunner]:
    """A percentile fight through the CLI: Alice has shot at Bob with seeded dice."""
    db = tmp_path / name
    return db, guard.setting_up(db)


def invoke(runner: CliRunner, db: Path, *args: str):
    return runner.invoke(cli, ["--db", str(db), *args])


def private_files(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.startswith(".")]


# -- 1. racing `new` on a missing file -------------------------------------------------------


def test_racing_new_with_distinct_ids_on_a_missing_file_keeps_every_acknowledged_one(
    tmp_path: Path,
) -> None:
    figures = guard.racing_new_missing(tmp_path, rounds=2, racers=4)
    assert figures.counts["encounters acknowledged"] + figures.counts["refusals"] == 8
    assert not bad(
        figures,
        "acknowledged but lost",
        "tracebacks",
        "refusals not one line",
        "wrong id printed",
        "broken logs",
        "seeds missing from the key file",
        "key files not owner-only",
        "private files left behind",
    )


def test_a_refused_start_never_removes_a_log_another_process_created_meanwhile(
    tmp_path: Path,
) -> None:
    db = tmp_path / "fight.db"

    def refused_after_another_started(path: str) -> str:
        with Fracas(db) as other:  # another process creates the file and commits to it
            other.new("percentile", encounter="theirs")
        raise BadInputError("this command was refused")

    with pytest.raises(BadInputError):
        App(str(db), None).creating(refused_after_another_started)
    with Fracas(db, readonly=True) as log:
        assert log.store.encounters() == ["theirs"]
        assert log.encounter("theirs").sealed_seed()
    assert private_files(tmp_path) == []


def test_a_start_that_loses_the_race_to_create_the_file_runs_on_the_winners_file(
    tmp_path: Path,
) -> None:
    db = tmp_path / "fight.db"
    paths: list[str] = []

    def start(path: str) -> str:
        paths.append(path)
        if len(paths) == 1:
            with Fracas(db) as other:
                other.new("percentile", encounter="theirs")
        with Fracas(path) as log:
            return log.new("percentile", encounter="mine").id

    assert App(str(db), None).creating(start) == "mine"
    assert paths[1] == str(db)
    with Fracas(db, readonly=True) as log:
        assert log.store.encounters() == ["theirs", "mine"]
        assert all(log.encounter(name).sealed_seed() for name in ("theirs", "mine"))
    assert private_files(tmp_path) == []


def test_a_refused_new_or_import_on_a_missing_file_leaves_no_file(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "fight.db"
    one_line_refusal(invoke(runner, db, "new", "--option", "bogus=1"), "bogus")
    (tmp_path / "empty.jsonl").write_text("\n")
    one_line_refusal(invoke(runner, db, "import", str(tmp_path / "empty.jsonl")))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.jsonl"]


def test_opening_a_missing_file_from_python_makes_it_whole_and_owner_only_keys(
    tmp_path: Path,
) -> None:
    db = tmp_path / "fight.db"
    with Fracas(db) as log:
        log.new("percentile", encounter="one")
    assert private_files(tmp_path) == []
    assert os.stat(f"{db}.keys").st_mode & 0o077 == 0
    assert os.stat(db).st_mode & 0o777 == 0o666 & ~current_umask()


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- 2. numbers and hex that do not fit ------------------------------------------------------


def test_hostile_numbers_and_hex_never_give_a_traceback_or_append(tmp_path: Path) -> None:
    figures = guard.hostile_numbers(tmp_path)
    assert figures.trials > 200 and figures.counts["refused"] > 100
    assert not bad(
        figures,
        "tracebacks",
        "appended on refusal",
        "files left by a refused import",
        "refusals without an Error line",
    )


@pytest.mark.parametrize("field", ["position", "version", "step", "schema", "scope"])
def test_an_import_with_a_number_sqlite_cannot_hold_is_refused_in_one_line(
    tmp_path: Path, field: str
) -> None:
    db, runner = fight(tmp_path)
    export = tmp_path / "backup.jsonl"
    invoke(runner, db, "export", "-o", str(export))
    path = guard.edited(tmp_path, read_lines(export), "event", field, 2**63)
    one_line_refusal(invoke(runner, tmp_path / "copy.db", "import", str(path)), field)
    one_line_refusal(invoke(runner, db, "audit", "--against", str(path)), field)
    assert not (tmp_path / "copy.db").exists()


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_audit_against_an_export_whose_head_is_out_of_range_is_refused(tmp_path: Path) -> None:
    db, runner = fight(tmp_path)
    export = tmp_path / "backup.jsonl"
    invoke(runner, db, "export", "-o", str(export))
    path = guard.edited(tmp_path, read_lines(export), "header", "head_position", 10**30)
    one_line_refusal(invoke(runner, db, "audit", "--against", str(path)), "head_position")


@pytest.mark.parametrize("code", [f"{BIG}-abcdef", f"-{BIG}-abcdef", "٣-abcdef", "3-zzzzzz"])
def test_a_head_code_out_of_range_or_not_hex_is_refused_in_one_line(
    tmp_path: Path, code: str
) -> None:
    db, runner = fight(tmp_path)
    one_line_refusal(invoke(runner, db, "audit", "--head", code), "not a head code")


def test_an_import_whose_secret_is_not_hex_is_refused_and_leaves_no_file(tmp_path: Path) -> None:
    db, runner = fight(tmp_path)
    export = tmp_path / "backup.jsonl"
    invoke(runner, db, "export", "--with-secrets", "-o", str(export))
    lines = read_lines(export)
    for path in (
        guard.edited(tmp_path, lines, "secret", "value", "zz" * 32),
        guard.edited(tmp_path, lines, "secret", "name", None, value="not hex"),
        guard.edited(tmp_path, lines, "secret", "name", "zz" * 32),
    ):
        one_line_refusal(invoke(runner, tmp_path / "copy.db", "import", str(path)), "secret")
        assert not (tmp_path / "copy.db").exists() and private_files(tmp_path) == []


def test_a_revealed_seed_that_is_not_hex_is_named_by_the_audit(tmp_path: Path) -> None:
    db, runner = fight(tmp_path)
    invoke(runner, db, "reveal")
    with guard.forged(db) as conn:
        guard.reveal_not_hex(conn)
    audited = invoke(runner, db, "audit")
    assert audited.exit_code == 1 and isinstance(audited.exception, SystemExit)
    assert "hash chain: ok" in audited.output and "does not decode" in audited.output
    one_line_refusal(invoke(runner, db, "log"), "does not decode")


def test_a_key_file_holding_a_damaged_seed_refuses_seeded_rolls_in_one_line(
    tmp_path: Path,
) -> None:
    db, runner = fight(tmp_path)
    for damaged in ("zz" * 32, "ab" * 32):
        guard.set_keys(db, damaged)
        one_line_refusal(invoke(runner, db, "act", "bob", "attack", "alice"), "damaged dice seed")
        one_line_refusal(invoke(runner, db, "export", "--with-secrets"), "damaged dice seed")
    typed = invoke(runner, db, "act", "bob", "attack", "alice", "--dice", "90")
    assert typed.exit_code == 0, typed.output


def test_status_and_audit_say_so_when_an_encounters_first_event_is_gone(tmp_path: Path) -> None:
    db, runner = fight(tmp_path)
    with guard.forged(db) as conn:
        guard.first_event_gone(conn)
    for args in (["status"], ["log"], ["encounters"], ["note", "x"]):
        one_line_refusal(invoke(runner, db, *args), "first event of encounter fight is missing")
    for args in (["audit", "--head", "3-abcdef"], ["audit"]):
        audited = invoke(runner, db, *args)
        assert audited.exit_code == 1 and isinstance(audited.exception, SystemExit)
        assert "version 1 of encounter fight is missing" in audited.output


# -- 4. secrets and keys ---------------------------------------------------------------------


def test_a_backup_with_secrets_and_no_key_file_is_refused_not_silently_empty(
    tmp_path: Path,
) -> None:
    db, runner = fight(tmp_path)
    os.remove(f"{db}.keys")
    out = tmp_path / "backup.jsonl"
    one_line_refusal(
        invoke(runner, db, "export", "--with-secrets", "-o", str(out)), "not in the key file"
    )
    assert not out.exists()
    assert invoke(runner, db, "export", "-o", str(out)).exit_code == 0  # without: as asked


def test_a_backup_with_secrets_carries_them_when_the_key_file_journal_is_hot(
    tmp_path: Path,
) -> None:
    db, runner = fight(tmp_path)
    with Fracas(db, readonly=True) as log:
        seed = log.encounter().sealed_seed()
    assert seed
    killed_mid_write(f"{db}.keys")
    assert Path(f"{db}.keys-journal").exists()
    exported = invoke(runner, db, "export", "--with-secrets")
    assert exported.exit_code == 0, exported.output
    assert seed in exported.output


def killed_mid_write(keys: str) -> None:
    """A writer killed mid-transaction on the key file: its journal is left hot."""
    code = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA cache_size=1')\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "for i in range(300):\n"
        "    c.execute('INSERT INTO sealed VALUES (?, ?)', (f'junk{i}', 'ab' * 200))\n"
        "os.kill(os.getpid(), 9)\n"
    )
    subprocess.run([guard.PYTHON, "-c", code, keys], check=False)


def test_without_a_key_file_only_seeded_rolls_are_refused(tmp_path: Path) -> None:
    db, runner = fight(tmp_path)
    os.remove(f"{db}.keys")
    aimed = invoke(runner, db, "act", "bob", "aim")
    assert aimed.exit_code == 0, aimed.output
    one_line_refusal(invoke(runner, db, "act", "alice", "attack", "bob", "-w", "pistol"), "--dice")


def test_a_key_file_readable_by_others_is_made_owner_only_when_next_written(
    tmp_path: Path,
) -> None:
    db, runner = fight(tmp_path)
    keys = Path(f"{db}.keys")
    assert keys.stat().st_mode & 0o077 == 0
    keys.chmod(0o644)  # as a git checkout or a careless copy leaves it
    assert invoke(runner, db, "new", "--id", "second").exit_code == 0
    assert keys.stat().st_mode & 0o077 == 0


def test_key_files_are_ignored_by_git_and_none_is_tracked_but_the_fixtures() -> None:
    ignore = (ROOT / ".gitignore").read_text().splitlines()
    assert "*.keys" in ignore
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return  # an unpacked release: there is no index to look at
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "*.keys"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert all(path.startswith("tests/fixtures/") for path in tracked), tracked


def test_the_demo_writes_an_ignored_log_and_an_owner_only_key_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["demo", "--quiet"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "fracas-demo.db").exists()
    assert os.stat(tmp_path / "fracas-demo.db.keys").st_mode & 0o077 == 0
    with sqlite3.connect(tmp_path / "fracas-demo.db") as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] > 10


def test_a_release_0_1_file_whose_sealed_seed_is_not_hex_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old.db"
    shutil.copy(ROOT / "tests" / "fixtures" / "release-0.1-demo.db", old)
    with guard.forged(old) as conn:
        conn.execute("UPDATE secrets SET value = 'not hex'")
    runner = CliRunner()
    assert invoke(runner, old, "status").exit_code == 0  # read as it is
    one_line_refusal(invoke(runner, old, "note", "x"), "not hex")
    with sqlite3.connect(old) as conn:  # not migrated: the seed is where it was
        assert conn.execute("SELECT max(version) FROM fracas_migrations").fetchone() == (1,)
        assert conn.execute("SELECT value FROM secrets").fetchall() == [("not hex",)]
