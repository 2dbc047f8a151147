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


def dice_section(html: str) -> str:
    part = re.search(r'<div data-part="dice">(.*?)</div>\s*<ol class="log"', html, re.S)
    assert part, "no dice part"
    return part[1]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_last_roll_stays_labelled_with_its_step_and_marked_earlier(
    tmp_path: Path, ruleset: str
) -> None:
    """The box emptied after a step that rolled none (54406ca: a tester read an older step's
    dice as the roll just made); the next tester wanted the last roll to stay. It stays,
    headed by its step and who did what ("Step 5 · Hero rolls 2d6 for the rope …"), and once
    a later step rolled none it is marked the last roll, an earlier step's."""
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        actor = encounter.view().acting[0]
        do(encounter, {"action": "roll", "dice": "2d6", "reason": "the rope", "actor": actor})
        rolled = encounter.history.head_step
        name = next(w.name for w in encounter.view().wounds if w.combatant == actor)
    html = dice_section(tv(db))
    shown = words(html)
    heading = words(re.search(r"<h3>(.*?)</h3>", html, re.S)[1])
    assert heading.startswith(f"Step {rolled} · {name} rolls 2d6 for the rope"), heading
    assert "the rope" in shown and "Last roll" not in shown, shown
    assert 'class="dice earlier"' not in html
    with Fracas(str(db)) as log:
        do(log.encounter("fight"), {"action": "gm.harm", "target": "hero", "amount": 1})
    html = dice_section(tv(db))
    heading = words(re.search(r"<h3>(.*?)</h3>", html, re.S)[1])
    assert heading.startswith(f"Last roll · Step {rolled} · {name} rolls 2d6"), heading
    assert 'class="dice earlier"' in html, html


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
