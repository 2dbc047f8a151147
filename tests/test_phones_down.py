"""A character the rules have put down, on their own phone as their turn comes (an outside
table tester, issue 37): a dying character's phone said a green "Your turn." and "Left this
turn: Action · Bonus action · 30 ft of 30 ft to move"; it says they are down, in the
ruleset's words, and offers only what the rules let one who is down take."""

import html
import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import RULESETS, cast_of, headlines, phones

pytestmark = pytest.mark.sqlite_file


def text(panel: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", panel)).split())


def actions(panel: str) -> list[str]:
    return re.findall(r'<button type="button" class="action" data-action="([^"]+)"', panel)


def heros_turn(fight: object) -> None:
    for _ in range(6):
        if fight.view().acting == ["hero"]:  # type: ignore[attr-defined]
            return
        fight.execute(fight.ruleset.command({"action": "next"}))  # type: ignore[attr-defined]
    raise AssertionError("the turn never came to hero")


# The harm that puts the hero of `cast_of` down (not dead) in each ruleset; shotclock's
# heroes never go down, its mooks go out of the fight at any harm (001-M5).
DOWNED = {"percentile": 8, "fudge": 6, "pool": 7, "timeslice": 20, "srd": 21, "shotclock": 1}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phone_whose_character_is_down_says_so_on_its_turn(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / "fight.db"
    (hero, mine), (foe, theirs) = cast_of(ruleset)
    if ruleset == "shotclock":
        mine = {**mine, "mook": True}
    with Fracas(str(db)) as log:
        fight = log.new(ruleset, title="Down", encounter="fight")
        do(fight, {"action": "join", "combatant": hero, "sheet": mine, "side": "pc"})
        do(fight, {"action": "join", "combatant": foe, "sheet": theirs, "side": "npc"})
        do(fight, {"action": "begin"})
        heros_turn(fight)
        do(fight, {"action": "gm.harm", "target": "hero", "amount": DOWNED[ruleset]})
        rules = fight.ruleset
        shown = next(w for w in fight.view().wounds if w.combatant == "hero").conditions
        passed_over = fight.view().acting != ["hero"]  # shotclock's mook out: no turn
    down = [c for c in shown if c.split(" (")[0] in rules.down | rules.out]
    assert down, shown
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
    said = text(panel)
    assert 'id="your-turn"' not in panel and "Your turn." not in said, said
    assert "Left this turn" not in said, said
    if passed_over:
        assert ruleset == "shotclock" and not actions(panel), said
        return
    assert "You are " in said and 'id="down"' in panel, said
    assert 'data-acting="down"' in panel  # no green page either
    assert set(actions(panel)) <= {"next"}, actions(panel)
    if "next" in actions(panel):  # the line says how the turn goes by
        assert "End turn" in said.partition("You are")[2], said


def test_a_dying_srd_character_is_told_the_death_save_comes_as_the_turn_passes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "fight.db"
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="Down", encounter="fight")
        for who, kind, side in (("hero", "rogue", "pc"), ("foe", "goblin", "npc")):
            do(fight, {"action": "join", "combatant": who, "sheet": srd_sample(kind), "side": side})
        do(fight, {"action": "begin"}, [20, 1])
        do(fight, {"action": "gm.harm", "target": "hero", "amount": 21})
        heros_turn(fight)
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
    said = text(panel)
    assert "Your turn." not in said and "Left this turn" not in said, said
    told = "You are dying: no actions; your death save is rolled as each of your turns starts"
    assert told in said, said
    assert set(actions(panel)) <= {"next"}, actions(panel)


def test_a_turns_end_headline_says_the_death_save_it_rolled(tmp_path: Path) -> None:
    """The TV's log and the phone's latest said only "hero ends the turn" where the step
    held "foe's death save 3 +1 = 4 against 10, a failure (1 of 3)"."""
    db = tmp_path / "fight.db"
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="Down", encounter="fight")
        for who, kind, side in (("hero", "rogue", "pc"), ("maelis", "fighter", "pc")):
            do(fight, {"action": "join", "combatant": who, "sheet": srd_sample(kind), "side": side})
        do(fight, {"action": "begin"}, [20, 1])
        do(fight, {"action": "gm.harm", "target": "maelis", "amount": 28})  # all 28 HP
        assert "dying" in next(w for w in fight.view().wounds if w.combatant == "maelis").conditions
        do(fight, {"action": "next", "actor": "hero"}, [3])
    said = headlines(db)[-1]
    assert said.startswith("hero ends the turn"), said
    assert "maelis's death save fails (1 of 3)" in said, said
    with phones(db, ("maelis",)) as table:
        assert "death save fails (1 of 3)" in text(table.panel("maelis"))
