"""A phone asks the server for its dice box's words as its form changes (`POST
/p/{token}/dice`): a form not yet complete (an attack with no target tapped) is no error.
An outside table tester (issue 37) counted about 30 console errors across four phones, a
400 each time a form was opened before its target was tapped; the answer is a 200 that says
in a player's words what the form still needs."""

import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.web import RULESETS, duel, phones

pytestmark = pytest.mark.sqlite_file
CLI_USAGE = re.compile(r"`|\bact [A-Z]|(?:^|\s)--?[a-z]|\bTARGET\b|\bWEAPON\b|=[A-Z]")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_attack_with_no_target_yet_is_answered_with_what_it_still_needs(
    ruleset: str, tmp_path: Path
) -> None:
    db = tmp_path / "fight.db"
    duel(db, ruleset)
    with Fracas(str(db)) as log:
        (actor,) = log.encounter("fight").view().acting
    with phones(db, ("hero", "foe")) as table:
        token = table.tokens[actor]
        said = table.client.post(
            f"/p/{token}/dice",
            json={"action": "attack", "targets": []},
            headers={"X-Fracas-Token": token},
        )
        assert said.status_code == 200, said.text
        answer = said.json()
        assert answer["missing"] and "target" in answer["missing"], answer
        assert not CLI_USAGE.search(answer["missing"]), answer
        complete = table.client.post(
            f"/p/{token}/dice",
            json={"action": "attack", "targets": ["foe" if actor == "hero" else "hero"]},
            headers={"X-Fracas-Token": token},
        )
        assert complete.status_code == 200, complete.text
        assert complete.json()["dice"] and not complete.json().get("missing"), complete.text
