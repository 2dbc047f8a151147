"""Issue 37 (a table tester at the TV, 1920x1080 read from 3 m, an srd fight): the dice box
kept an older step's dice after a step that rolled none (read across the room as the
current roll); a dead NPC's row lost its side's tag; the GM's end of the fight said its
reason twice. Each in all six rulesets, from the page's HTML."""

import re
from html import unescape
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from fracas.cli.serve import Table, build
from fracas.projections import Fracas
from fracas.projections.replay import timeline
from tests.support import do
from tests.web import RULESETS, duel, headlines


def tv(db: Path) -> str:
    with TestClient(build(Table(str(db), "gm-token"))) as client:
        return client.get("/?tv").text


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def dice_box(html: str) -> str:
    part = re.search(r'<div data-part="dice">(.*?)</div>\s*<ol class="log"', html, re.S)
    assert part, "no dice part"
    return words(part[1])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_step_without_dice_leaves_the_dice_box_empty(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        actor = encounter.view().acting[0]
        do(encounter, {"action": "roll", "dice": "2d6", "reason": "the rope", "actor": actor})
    shown = dice_box(tv(db))
    assert "the rope" in shown, shown  # the latest step rolled: its dice
    with Fracas(str(db)) as log:
        do(log.encounter("fight"), {"action": "gm.harm", "target": "hero", "amount": 1})
    assert dice_box(tv(db)) == "", "the latest step rolled nothing, the box shows an older one's"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_dead_npcs_row_keeps_its_side_tag(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        do(log.encounter("fight"), {"action": "gm.remove", "target": "foe"})
    html = tv(db)
    row = re.search(r'<tr class="npc gone"[^>]*data-combatant="foe".*?</tr>', html, re.S)
    assert row, "the foe's row is not a gone npc row"
    said = words(row[0])
    assert re.search(r"\bnpc\b", said), said
    assert re.search(r'class="gone-word"', row[0]), row[0]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_gms_end_of_the_fight_says_its_reason_once(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        do(log.encounter("fight"), {"action": "gm.end", "reason": "the ogre falls"})
    line = headlines(db)[-1]
    assert line.count("the ogre falls") == 1, line
    with Fracas(str(db)) as log:
        said = [m.step.sentence for m in timeline(log.encounter("fight"))][-1]
    assert said.count("the ogre falls") == 1, said


def log_lines(html: str) -> list[str]:
    return re.findall(r'<li class="[^"]*".*?</li>', html.split('data-list="log"', 1)[1], re.S)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_by_names_the_sender_only_where_the_line_does_not(tmp_path: Path, ruleset: str) -> None:
    """docs/table.md: a log line says who sent its step ("by alice") where the sender is not
    the one the line says acted; the one acting and the GM are named by no "by"."""
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        actor = fight.view().acting[0]
        other = "foe" if actor == "hero" else "hero"
        names = {w.combatant: w.name for w in fight.view().wounds}
        roll = {"action": "roll", "dice": "1d6", "actor": actor}
        fight.execute(fight.ruleset.command({**roll, "reason": "own"}), author=actor)
        fight.execute(fight.ruleset.command({**roll, "reason": "for them"}), author=other)
        fight.execute(fight.ruleset.command({**roll, "reason": "the gm's"}))
    gms, theirs, own = log_lines(tv(db))[:3]
    assert "for them" in theirs and f"by {names[other]}:" in words(theirs), theirs
    for line in (own, gms):
        assert 'class="by"' not in line, line
