"""Damaged files: `audit` names the first bad position and never crashes; every other
command refuses in one line (the README's promise)."""

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.reliability import damage
from bench.reliability.trials import gunfight
from fracas.cli.main import cli

pytestmark = pytest.mark.sqlite_file


def invoke(db: Path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def not_crashed(result) -> bool:
    return result.exception is None or isinstance(result.exception, SystemExit)


def one_line(result) -> str:
    assert result.exit_code != 0 and not_crashed(result), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def test_an_event_body_that_is_not_utf8_is_named_by_its_position(tmp_path):
    db = tmp_path / "fight.db"
    gunfight(db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute(
        "UPDATE events SET body = CAST(X'7B226B696E64223AFF7D' AS TEXT) WHERE position = 9"
    )
    conn.commit()
    conn.close()
    audit = invoke(db, "audit")
    assert audit.exit_code == 1 and not_crashed(audit)
    assert "BROKEN at position 9: its body is not UTF-8 text" in audit.output
    assert "first bad position: 9" in audit.output
    for args in (["log"], ["export"]):
        line = one_line(invoke(db, *args))
        assert "at position 9: its body is not UTF-8 text" in line


def test_a_schema_that_is_not_utf8_is_refused_in_one_line(tmp_path):
    db = tmp_path / "fight.db"
    gunfight(db)
    data = bytearray(db.read_bytes())
    at = data.find(b"CREATE TABLE")
    data[at + 7 : at + 12] = b"\xff\x81\xfe\x89\xcd"  # SQLite quotes these in its complaint
    db.write_bytes(bytes(data))
    for args in (["audit"], ["status"], ["log"]):
        assert "is damaged" in one_line(invoke(db, *args))


def test_random_bytes_in_a_log_never_end_in_a_traceback(tmp_path):
    figures = damage.random_bytes(tmp_path, copies=150, seed=7)
    assert figures.counts["tracebacks"] == 0
    assert figures.counts["refused"] > 0  # the trial did damage something


def repeated(export: Path, target: Path, line: int, *, recount: bool) -> None:
    """The export with its `line` (1-based) written twice; `recount`: the header's count of
    events raised to match, as someone padding it by hand would."""
    lines = export.read_text().splitlines()
    lines.insert(line, lines[line - 1])
    if recount:
        header = json.loads(lines[0])
        header["events"] += 1
        lines[0] = json.dumps(header)
    target.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("recount", [True, False])
def test_an_export_line_written_twice_is_named_on_import(tmp_path, recount):
    db = tmp_path / "fight.db"
    gunfight(db)
    export = tmp_path / "fight.jsonl"
    assert invoke(db, "export", "-o", str(export)).exit_code == 0
    lines = export.read_text().splitlines()
    event_line = [n for n, text in enumerate(lines, start=1) if '"type":"event"' in text][8]
    position = json.loads(lines[event_line - 1])["position"]
    padded = tmp_path / "padded.jsonl"
    repeated(export, padded, event_line, recount=recount)
    line = one_line(invoke(tmp_path / "imp.db", "import", str(padded)))
    assert (
        f"line {event_line + 1} of {padded} repeats position {position} "
        f"(line {event_line} holds it)"
    ) in line
    assert not (tmp_path / "imp.db").exists()
    step_line = next(n for n, text in enumerate(lines, start=1) if '"type":"step"' in text)
    repeated(export, padded, step_line, recount=False)
    line = one_line(invoke(tmp_path / "imp.db", "import", str(padded)))
    assert f"line {step_line + 1} of {padded} repeats step" in line
