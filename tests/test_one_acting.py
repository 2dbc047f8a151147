"""After a GM-secret step, the players' board still has exactly one row acting: the row a
secret touched is where players last saw it, but who acts now is not the secret's to say
when the turn moved on regardless (an srd rogue's secret hide, then the GM's `next`)."""

from pathlib import Path

from fracas.projections import Fracas
from fracas.projections.screen import PLAYERS, Timeline
from fracas.rules import Encounter
from tests.support import do, gunner, srd_sample


def players_rows(encounter: Encounter) -> tuple[str, list[str]]:
    board = Timeline(encounter, "t", PLAYERS, lambda step: "").screen().board
    return board.header, [r.combatant for r in board.rows if r.acting]


def turn_of(encounter: Encounter, who: str) -> None:
    for _ in range(4):
        if encounter.view().acting == [who]:
            return
        do(encounter, {"action": "next"})
    raise AssertionError(f"{who}'s turn never came")


def test_after_a_secret_hide_one_row_is_acting(tmp_path: Path) -> None:
    with Fracas(str(tmp_path / "hide.db")) as log:
        encounter = log.new("srd", title="Hide", encounter="hide")
        cast = (("rogue", "rogue", "pc"), ("gob", "goblin", "npc"), ("hild", "fighter", "pc"))
        for who, sample, side in cast:
            join = {"action": "join", "combatant": who, "sheet": srd_sample(sample), "side": side}
            do(encounter, join)
        do(encounter, {"action": "begin"})
        turn_of(encounter, "rogue")
        hide = encounter.ruleset.command({"action": "hide", "actor": "rogue"})
        encounter.execute(hide, secret=True)
        do(encounter, {"action": "next"})
        after = encounter.view().acting
        header, acting = players_rows(log.encounter("hide"))
    assert acting == after and len(acting) == 1
    assert "rogue" not in header


def test_after_a_secret_check_one_row_is_acting_in_percentile(tmp_path: Path) -> None:
    with Fracas(str(tmp_path / "check.db")) as log:
        encounter = log.new("percentile", title="Check", encounter="check")
        for who, sheet in (("alice", gunner(14)), ("bob", gunner(10))):
            do(encounter, {"action": "join", "combatant": who, "sheet": sheet, "side": "pc"})
        do(encounter, {"action": "begin"})
        check = {"action": "other", "actor": "alice", "what": "listens", "test": "dex"}
        encounter.execute(encounter.ruleset.command(check), secret=True)
        assert encounter.view().acting == ["bob"]
        header, acting = players_rows(log.encounter("check"))
    assert acting == ["bob"]
    assert header.endswith("bob to act")
