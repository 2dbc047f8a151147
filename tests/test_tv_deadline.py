"""An attack that waits on a player's reaction: the TV names whom it waits on and, when
the GM gave the answer a deadline (`act --ask --wait SECONDS`), when it is due, which the
page counts down; without a deadline it says whom the fight waits for, and no time."""

import re
from html import unescape
from pathlib import Path

from starlette.testclient import TestClient

from fracas.cli.serve import Table, build
from fracas.projections import Fracas
from fracas.rules.reactions import Ask
from tests.web import duel, duel_attack


def asked(db: Path, deadline: str) -> str:
    """The duel's attack waiting on its target; the target's name."""
    duel(db, "percentile")
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        attack = duel_attack(encounter)
        encounter.execute(encounter.ruleset.command(attack), ask=Ask(deadline=deadline))
        assert encounter.waiting() is not None
        (target,) = attack["targets"]
        return next(w.name for w in encounter.view().wounds if w.combatant == target)


def turn_part(db: Path, path: str) -> str:
    with TestClient(build(Table(str(db), "gm-token"))) as client:
        page = client.get(path, headers={"X-Fracas-Token": "gm-token"}).text
    found = re.search(r'<div class="turn" data-part="turn">.*?</div>', page, re.S)
    assert found, page
    return unescape(found[0])


def test_the_tv_says_when_the_answer_is_due(tmp_path: Path) -> None:
    db = tmp_path / "due.db"
    name = asked(db, "2031-05-04T20:15:30Z")
    for path in ("/?tv", "/gm/e/fight"):
        shown = turn_part(db, path)
        assert f"waiting on {name}'s reaction" in shown
        assert 'data-deadline="2031-05-04T20:15:30Z"' in shown
        assert "due by 20:15:30 UTC" in shown


def test_without_a_deadline_the_tv_names_whom_it_waits_for(tmp_path: Path) -> None:
    db = tmp_path / "open.db"
    name = asked(db, "")
    shown = turn_part(db, "/?tv")
    assert f"waiting on {name}'s reaction" in shown
    assert "data-deadline" not in shown and "due by" not in shown
