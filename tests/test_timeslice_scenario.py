"""A two-round Archetype fight from the command line with typed dice, checked after every
command against figures worked out by hand from RULES.md §002: an interruption, a stagger,
a heart shot whose dying timer ticks; then undo of the interruption."""

import json
from pathlib import Path

from click.testing import CliRunner

from fracas.cli.main import cli

SHEETS = Path(__file__).parent.parent / "cli" / "demo_sheets"

# Alice (squire): [Q] +2, [V] +3, HP 20, DR 1, sword 4 (parry 2) and shield 3.
# The orc chieftain: [Q] +0, [V] +1, HP 30, axe 5. Bob (medic): [Q] +1, [V] +2, HP 16,
# spear 3 (parry 1). TS 10 each, stagger threshold 3, 6 seconds a round.
ROUNDS = [
    # (command, dice, round, turn, TS {alice, orc, bob}, HP {alice, orc, bob}, orc stagger,
    #  orc's conditions)
    # Initiative: Alice 5+4+2 = 11, the orc 3+3+0 = 6, Bob 4+0+1 = 5.
    ("begin", "5,4,3,3,4,0", 1, "alice", (10, 10, 10), (20, 30, 16), 0, []),
    # 5+5+3 = 13 against the orc's dodge 2+2 = 4: 4 damage, 1 stagger point; 3 TS.
    ("act alice attack orc -w sword", "5,5,2,2", 1, "alice", (7, 10, 10), (20, 26, 16), 1, []),
    ("act alice attack orc -w sword", "5,5,2,2", 1, "alice", (4, 10, 10), (20, 22, 16), 2, []),
    # Alice ends her turn with 4 TS saved.
    ("next", None, 1, "orc", (4, 10, 10), (20, 22, 16), 2, []),
    # The orc moves at her; the GM rules it in reach, so Alice's saved TS pay for an
    # interruption before the move: a natural 18, 21 vs 4, 4 x 2 = 8, 2 stagger points make
    # 4 > 3: staggered, the orc loses its 10 TS and its turn passes to Bob at once.
    (
        "act alice interrupt orc -w sword -o trigger=moves",
        "9,9,2,2",
        1,
        "bob",
        (1, 0, 10),
        (20, 14, 16),
        4,
        ["staggered"],
    ),
    # Bob's heart shot: 9+8+2-10 = 9 against a dodge (all a staggered orc may do) of 1+1 = 2:
    # 3 x 2 + 1 (staggered) = 7; dying at once, 5:00 left, conscious at -2; 6 stagger points.
    (
        "act bob attack orc -w spear --called heart",
        "9,8,1,1",
        1,
        "bob",
        (1, 0, 7),
        (20, 7, 16),
        6,
        ["dying (5:00 left, heart wound: -2)", "staggered"],
    ),
    # Round 2, six seconds on: 4:54 left; everyone back to 10 TS; the orc is still staggered
    # until its own turn starts.
    (
        "next",
        None,
        2,
        "alice",
        (10, 10, 10),
        (20, 7, 16),
        6,
        ["dying (4:54 left, heart wound: -2)", "staggered"],
    ),
    # 13 against the orc's 4+4+0-2 (heart) = 6: 4 + 1 (staggered) = 5; a minute off: 3:54.
    (
        "act alice attack orc -w sword",
        "5,5,4,4",
        2,
        "alice",
        (7, 10, 10),
        (20, 2, 16),
        7,
        ["dying (3:54 left, heart wound: -2)", "staggered"],
    ),
    # The orc's turn starts: stagger points back to 0, no longer staggered.
    ("next", None, 2, "orc", (7, 10, 10), (20, 2, 16), 0, ["dying (3:54 left, heart wound: -2)"]),
    # 6+6+1-2 = 11 against Alice's parry 3+3+2+2-3 = 7: 5 - 1 DR = 4.
    (
        "act orc attack alice -w axe --defence parry",
        "6,6,3,3",
        2,
        "orc",
        (7, 7, 10),
        (16, 2, 16),
        0,
        ["dying (3:54 left, heart wound: -2)"],
    ),
    ("next", None, 2, "bob", (7, 7, 10), (16, 2, 16), 0, ["dying (3:54 left, heart wound: -2)"]),
    # 5+5+2 = 12 against 0+0-2 = -2: 3 damage takes the orc to 0 HP: an NPC dies.
    ("act bob attack orc -w spear", "5,5,0,0", 2, "bob", (7, 7, 7), (16, 0, 16), 1, ["dead"]),
]


def snapshot(view: dict) -> tuple:
    wounds = {w["combatant"]: w for w in view["wounds"]}
    detail = {who: w["detail"] for who, w in wounds.items()}
    return (
        view["round"],
        view["acting"][0] if view["acting"] else None,
        tuple(detail[w]["ts"] for w in ("alice", "orc", "bob")),
        tuple(detail[w]["hp"] for w in ("alice", "orc", "bob")),
        detail["orc"]["stagger"],
        wounds["orc"]["conditions"],
    )


def test_two_rounds_command_by_command_from_the_command_line(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")  # a wide terminal: each row's figures on its line
    runner = CliRunner()
    db = str(tmp_path / "keep.db")

    def fracas(*args: str) -> str:
        result = runner.invoke(cli, ["--db", db, "-e", "keep", *args])
        assert result.exit_code == 0, f"{args}: {result.output}"
        return result.output

    fracas("new", "-r", "timeslice", "--id", "keep", "-t", "The keep")
    for who, sheet in (("alice", "squire"), ("orc", "orc"), ("bob", "medic")):
        fracas("add", who, "--sheet", str(SHEETS / f"{sheet}.toml"))
    for command, dice, *expected in ROUNDS:
        fracas(*command.split(), *(["--dice", dice] if dice else []))
        assert snapshot(json.loads(fracas("status", "--json"))) == tuple(expected), command
    status = fracas("status")
    assert "7 TS saved" in status and "HP 0/30 DR 0 stagger 1/3" in status
    log = fracas("log")
    assert "GM rules: Orc chieftain moves within range of Alice's sword [002-7]" in log
    assert "x2: heart shot (002-17)" in log and "+1 staggered (002-24)" in log


def test_undo_of_an_interruption_restores_both_combatants_ts_exactly(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "keep.db")

    def fracas(*args: str) -> str:
        result = runner.invoke(cli, ["--db", db, "-e", "keep", *args])
        assert result.exit_code == 0, f"{args}: {result.output}"
        return result.output

    fracas("new", "-r", "timeslice", "--id", "keep")
    for who, sheet in (("alice", "squire"), ("orc", "orc"), ("bob", "medic")):
        fracas("add", who, "--sheet", str(SHEETS / f"{sheet}.toml"))
    for command, dice, *_ in ROUNDS[:4]:
        fracas(*command.split(), *(["--dice", dice] if dice else []))
    before = fracas("status", "--json")
    fracas(
        "act",
        "alice",
        "interrupt",
        "orc",
        "-w",
        "sword",
        "-o",
        "trigger=moves",
        "--dice",
        "9,9,2,2",
    )
    assert snapshot(json.loads(fracas("status", "--json")))[1:3] == ("bob", (1, 0, 10))
    fracas("undo")
    assert fracas("status", "--json") == before
    after_undo = snapshot(json.loads(before))
    assert after_undo[1:3] == ("orc", (4, 10, 10)), "the orc's 10 TS and Alice's 4 saved TS"
    fracas("redo")
    assert snapshot(json.loads(fracas("status", "--json")))[1:5] == (
        "bob",
        (1, 0, 10),
        (20, 14, 16),
        4,
    )
