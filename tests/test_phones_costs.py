"""A player's turn on a phone shows its buttons grouped by what they cost, and one line of
what is left this turn (issue 37): fifteen equal buttons said nothing of the action, the
bonus action or the feet already spent. srd groups them as its turn's budget (srd-3,
srd-52); every other ruleset shows its buttons as before, in one group."""

import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import RULESETS, duel, phones

pytestmark = pytest.mark.sqlite_file


def headings(panel: str) -> list[str]:
    return re.findall(r'<h3 class="cost">([^<]*)</h3>', panel)


def left_line(panel: str) -> str:
    found = re.search(r'<p class="left"[^>]*>(.*?)</p>', panel, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else ""


def srd_turn(tmp_path: Path, *steps: tuple[dict[str, object], list[int]]) -> str:
    db = tmp_path / "srd.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The yard", encounter="fight")
        sheet = srd_sample("fighter")
        do(e, {"action": "join", "combatant": "hero", "sheet": sheet, "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(e, {"action": "begin"}, [20, 1])
        for command, dice in steps:
            do(e, command, dice)
    with phones(db, ("hero",)) as table:
        return table.panel("hero")


def test_an_srd_turn_groups_its_buttons_by_cost_and_says_what_is_left(tmp_path: Path) -> None:
    panel = srd_turn(tmp_path)
    assert headings(panel)[0] == "Action"
    assert "Movement and free" in headings(panel)
    assert "Reaction" not in headings(panel)  # not on one's own turn
    line = left_line(panel)
    assert line.startswith("Left this turn: Action"), line
    assert "30 ft of 30 ft to move" in line, line
    assert "used" not in line, line


def test_an_srd_action_taken_and_feet_moved_show_as_spent(tmp_path: Path) -> None:
    attack = {"action": "attack", "actor": "hero", "targets": ["gob"], "weapon": "longsword"}
    move = {"action": "move", "actor": "hero", "feet": 10}
    line = left_line(srd_turn(tmp_path, (move, []), (attack, [2])))
    assert "Action ✓ used" in line, line
    assert "20 ft of 30 ft to move" in line, line


@pytest.mark.parametrize("name", [r for r in RULESETS if r != "srd"])
def test_every_other_ruleset_still_shows_its_buttons_in_one_group(
    name: str, tmp_path: Path
) -> None:
    db = tmp_path / "duel.db"
    duel(db, name)
    with Fracas(str(db)) as log:
        acting = log.encounter("fight").view().acting[0]
    with phones(db, (acting,)) as table:
        panel = table.panel(acting)
    assert panel.count('class="action"') >= 2, name
    assert headings(panel) == [], name
    assert left_line(panel) == "", name


def test_a_dying_characters_death_save_has_a_group_of_its_own(tmp_path: Path) -> None:
    """An outside table tester (issue 37): a dying character's Death save sat under
    "Movement and free", a heading a dying player does not look for; it heads a group of
    its own, first."""
    db = tmp_path / "dying.db"
    with Fracas(str(db)) as log:
        fight = log.new(
            "srd", title="Dying", encounter="fight", options={"death_saves": "own_step"}
        )
        for who, sample, side, init in (
            ("hero", "fighter", "pc", 90),
            ("gob", "goblin", "npc", 10),
        ):
            joining = srd_sample(sample, initiative=init)
            do(fight, {"action": "join", "combatant": who, "sheet": joining, "side": side})
        do(fight, {"action": "begin"})
        fall = fight.state.fighters["hero"].hp
        do(fight, {"action": "gm.harm", "target": "hero", "amount": fall, "reason": "a fall"})
        do(fight, {"action": "next"})
        do(fight, {"action": "next"})
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
    assert ">Death save</button>" in panel, panel
    assert headings(panel) == ["Dying"], headings(panel)
