"""`fracas status` read at 80 columns in every ruleset (names whole, columns folded), at
the terminal's width when wider, and the GM's board marking who is hidden."""

import io
import json
import os
import re
from pathlib import Path

import msgspec
import pexpect
import pytest
from rich.console import Console

from fracas.cli import render
from fracas.projections.board import BoardRow, board
from fracas.rules import load
from tests.support import SHEETS
from tests.terminal import FRACAS

SAMPLES = Path(__file__).parent.parent / "plugins" / "srd" / "fracas_srd" / "samples"
PISTOL = 'weapons=[{name="pistol", damage=3}]'
# Each ruleset's fight, as its tour in the README adds it, with long names and an ambush.
FIGHTS = {
    "percentile": [
        ["add", "alice", "--sheet", f"{SHEETS}/alice.toml", "--name", "Alice Reyes-Montgomery"],
        ["add", "cultist", "--sheet", f"{SHEETS}/cultist.toml", "--count", "2"],
        ["add", "bishop", "--sheet", f"{SHEETS}/bishop.toml", "--hidden"],
    ],
    "shotclock": [
        ["add", "jack", "--side", "pc", "--set", "speed=8", "--set", "skills.guns=14",
         "--name", "Jack Longname-Smith"],
        ["add", "boss", "--set", "speed=7", "--set", "toughness=8", "--hidden"],
        ["add", "mook", "--set", "mook=true", "--set", "skills.guns=8"],
    ],
    "pool": [
        ["add", "ana", "--side", "pc", "--set", "brawn=3", "--set", "dexterity=4",
         "--name", "Ana of the Long Road"],
        ["add", "bob", "--set", "dexterity=3", "--set", "abilities.melee=2", "--hidden"],
        ["add", "thug", "--set", "brawn=3", "--set", "abilities.brawl=2"],
    ],
    "timeslice": [
        ["add", "alice", "--sheet", f"{SHEETS}/squire.toml", "--name", "Alice of Ravenholm"],
        ["add", "orc", "--sheet", f"{SHEETS}/orc.toml", "--hidden"],
        ["add", "bob", "--sheet", f"{SHEETS}/medic.toml"],
    ],
    "fudge": [
        ["add", "p1", "--side", "pc", "--set", "skills.discipline=3", "--set", PISTOL,
         "--name", "Perpetua Vandersloot"],
        ["add", "p2", "--side", "pc", "--set", "skills.discipline=2", "--hidden"],
    ],
    "srd": [
        ["add", "brannoc", "--sheet", f"{SAMPLES}/fighter.toml", "--side", "pc",
         "--name", "Brannoc Ironfist"],
        ["add", "goblin", "--sheet", f"{SAMPLES}/goblin.toml", "--count", "2",
         "--name", "Goblin sniper"],
        ["add", "wyrm", "--sheet", f"{SAMPLES}/wyrm.toml", "--hidden"],
        ["add", "maelis", "--sheet", f"{SAMPLES}/cleric.toml", "--side", "pc"],
    ],
}  # fmt: skip
ROW = BoardRow(1, "orc", "Orc", "npc", "-", False, "out", "0", [], {})
HIDDEN = {"percentile": "bishop", "shotclock": "boss", "pool": "bob", "timeslice": "orc",
          "fudge": "p2", "srd": "wyrm"}  # fmt: skip


def begun(run, ruleset: str) -> dict:
    run("new", "-r", ruleset)
    for words in FIGHTS[ruleset]:
        run(*words)
    run("begin")
    first = json.loads(run("status", "--json").output)["wounds"][0]["combatant"]
    # one word: a folded column wraps between words, and who acts first (and so whose
    # status is long) is rolled
    run("condition", "set", first, "burning")
    return json.loads(run("status", "--json").output)


def drawn(run, width: int) -> str:
    from fracas.projections import Fracas

    with Fracas(run.db, readonly=True) as table:
        name, ruleset, view = table.current()
        shown = board(name, load(ruleset), view, frozenset(table.hidden(name)))
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(render.status_table(shown, width))
    return out.getvalue()


@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_status_at_80_columns_keeps_every_name_whole_and_fits(run, ruleset: str) -> None:
    data = begun(run, ruleset)
    text = drawn(run, 80)
    lines = text.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80, text
    for wound in data["wounds"]:
        assert any(wound["name"] in line for line in lines), (wound["name"], text)
    assert "burning" in text and "…" not in text, text


@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_status_marks_the_hidden_combatant_for_the_gm_alone(run, ruleset: str) -> None:
    data = begun(run, ruleset)
    who = next(w["name"] for w in data["wounds"] if w["combatant"] == HIDDEN[ruleset])
    rows = [line for line in drawn(run, 200).splitlines() if "not shown to players" in line]
    assert len(rows) == 1 and who in rows[0]
    assert json.loads(run("status", "--json").output)["hidden"] == [HIDDEN[ruleset]]
    run("reveal-combatant", HIDDEN[ruleset])
    assert "not shown to players" not in drawn(run, 200)
    assert json.loads(run("status", "--json").output)["hidden"] == []


def test_status_takes_the_terminal_s_width_when_wider(run) -> None:
    begun(run, "srd")
    narrow, wide = drawn(run, 80), drawn(run, 200)
    assert "Conditions" not in narrow and "AC 18 ·" in narrow  # folded into Status
    assert "Conditions" in wide and "Reaction" in wide  # each in its column
    assert max(len(line.rstrip()) for line in wide.splitlines()) > 80


@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_a_status_the_conditions_repeat_is_said_once(run, ruleset: str) -> None:
    data = begun(run, ruleset)
    fallen = data["wounds"][1]
    run("harm", fallen["combatant"], "200")
    after = json.loads(run("status", "--json").output)
    status = next(r["status"] for r in after["initiative"] if r["combatant"] == fallen["combatant"])
    for width in (80, 200):
        lines = drawn(run, width).splitlines()
        rule = next(n for n, line in enumerate(lines) if "───" in line)
        first = next(n for n, line in enumerate(lines) if n > rule and fallen["name"] in line)
        ends = [n for n, line in enumerate(lines) if n > first and line[:6].strip()]
        row = " ".join(" ".join(lines[first : (ends or [len(lines)])[0]]).split())
        assert row.count(status) == 1, row


def test_what_was_typed_shows_as_typed_never_as_markup(run) -> None:
    begun(run, "percentile")
    run("condition", "set", "alice", "[/oops]")
    run("rename", "cultist-1", "[bold]Boss")
    text = drawn(run, 200)
    assert "[/oops]" in text and "[bold]Boss" in text
    assert "[/oops]" in run("status").output


def test_the_shotclock_tour_says_each_carried_and_continuous_action_once(run) -> None:
    run("new", "-r", "shotclock")
    run("add", "jack", "--side", "pc", "--set", "speed=8", "--set", "skills.guns=14")
    run("add", "boss", "--set", "speed=7", "--set", "skills.martial arts=15")
    run("begin", "--dice", "4,3")
    run("act", "jack", "attack", "boss")
    run("act", "boss", "attack", "jack", "--defence", "dodge")
    run("act", "jack", "attack", "boss", "-o", "snapshot=1")
    run("act", "boss", "continuous", "-o", "what=driving")
    run("act", "boss", "other", "-o", "shots=8", "-o", "what=hot-wire the van")
    for width in (80, 200):
        text = " ".join(drawn(run, width).split())
        assert text.count("continuous: driving") == 1, text
        assert text.count("hot-wire the van") == 1, text


def test_a_combatant_hidden_from_the_players_reads_not_shown_to_players() -> None:
    """Not "hidden": that is the condition a creature takes by hiding (the d20 rules' hide),
    shown among its conditions; the GM's secret is the players' not seeing it."""
    row = msgspec.structs.replace(ROW, hidden=True, status="")
    assert render.status_words(row) == "not shown to players"
    shown = render.status_words(msgspec.structs.replace(ROW, hidden=True))
    assert shown == "not shown to players · out"


def test_status_in_a_pipe_honours_columns(run, monkeypatch) -> None:
    begun(run, "srd")
    monkeypatch.setenv("COLUMNS", "80")
    text = run("status").output
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80, text
    monkeypatch.delenv("COLUMNS")
    assert max(len(line.rstrip()) for line in run("status").output.splitlines()) > 80


def on_a_terminal(db: str, term: str, columns: int) -> str:
    """`fracas status` as a terminal of this kind and width shows it."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env |= {"TERM": term, "NO_COLOR": "1"}
    child = pexpect.spawn(FRACAS, ["--db", db, "status"], env=env, encoding="utf-8",
                          timeout=30, dimensions=(40, columns))  # fmt: skip
    child.expect(pexpect.EOF)
    return re.sub(r"\x1b\[[0-9;]*m", "", child.before.replace("\r\n", "\n"))  # no bold


@pytest.mark.sqlite_file  # drawn by the CLI process, over a file
@pytest.mark.parametrize("term", ["dumb", "xterm"])
@pytest.mark.parametrize("columns", [80, 60])
def test_status_on_a_terminal_dumb_or_not_keeps_every_column_whole_at_its_width(
    run, term: str, columns: int
) -> None:
    """A dumb terminal's width is its own (rich would take 80 and measure against it), and a
    narrow one folds the status's words onto more lines rather than cutting them."""
    data = begun(run, "srd")
    shown = on_a_terminal(run.db, term, columns)
    lines = shown.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= columns, shown
    assert "…" not in shown, shown
    for wound in data["wounds"]:
        assert any(wound["name"] in line for line in lines), (wound["name"], shown)
    words = shown.split()
    for heading in ("#", "Name", "Side", "Order", "Health", "Status"):
        assert heading in words, (heading, shown)
    assert "burning" in words and words.count("AC") == len(data["wounds"]), shown


def heading(text: str) -> list[str]:
    """The columns of a drawn board, as its heading names them."""
    return next(line.split() for line in text.splitlines() if " Name " in f" {line} ")


@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_the_status_layout_holds_through_a_fight_at_one_width(run, ruleset: str) -> None:
    """Issue 40 (a 5e GM): the board chose its columns from what the rows said, so a long
    condition with a duration folded the numbers, the status and the conditions into one
    column from one command to the next. At a terminal's width, a fight keeps its columns."""
    data = begun(run, ruleset)
    widths = range(80, 241, 8)
    before = {width: heading(drawn(run, width)) for width in widths}
    who = data["wounds"][0]["combatant"]
    run("condition", "set", who, "shaken by what it saw in the mirror", "--for", "10")
    for width in widths:
        text = drawn(run, width)
        assert heading(text) == before[width], (width, text)
        assert max(len(line.rstrip()) for line in text.splitlines()) <= width, text
        assert "…" not in text and "mirror" in text, text
