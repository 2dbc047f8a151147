"""A refusal a phone shows says what a player may tap, never a command to type (an outside
table tester, issue 37: "left this turn: … or `fracas next` to end the turn" on a phone).
The same refusal keeps the GM's command for the CLI."""

import re
from pathlib import Path

import pytest

from fracas.ledger import RefusedError
from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import RULESETS, duel, phones

pytestmark = pytest.mark.sqlite_file
CLI = ("`fracas", "(-w ", "`act ", "--")


def typed_nowhere(line: str) -> None:
    assert not any(word in line for word in CLI), line


def crypt(db: Path) -> None:
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="The Crypt", encounter="crypt")
        for who, sheet, side in (
            ("wizard", srd_sample("wizard", initiative=80), "pc"),
            ("goblin", srd_sample("goblin", hp=150, initiative=20), "npc"),
        ):
            do(fight, {"action": "join", "combatant": who, "sheet": sheet, "side": side})
        do(fight, {"action": "begin"})


def test_an_srd_refusal_on_a_phone_names_end_turn_where_the_cli_names_next(
    tmp_path: Path,
) -> None:
    db = tmp_path / "crypt.db"
    crypt(db)
    with phones(db, ("wizard",), encounter="crypt") as table:
        first = table.tap("wizard", action="attack", targets=["goblin"])
        assert first.status_code == 200, first.text
        again = table.tap("wizard", action="attack", targets=["goblin"])
        assert again.status_code == 400, again.text
        assert "End turn" in again.text, again.text
        typed_nowhere(again.text)
    with Fracas(str(db)) as log:
        fight = log.encounter("crypt")
        command = {"action": "attack", "actor": "wizard", "targets": ["goblin"]}
        with pytest.raises(RefusedError, match="`fracas next`"):
            do(fight, command)


def test_magic_missiles_darts_refused_on_a_phone_say_how_many_not_names_to_type(
    tmp_path: Path,
) -> None:
    """An outside table tester (issue 37): four darts set on a phone for a level 1 slot were
    refused with "naming one twice for two darts (gob gob wolf)", a CLI's way of aiming; a
    phone sets a count at each target."""
    db = tmp_path / "crypt.db"
    crypt(db)
    with phones(db, ("wizard",), encounter="crypt") as table:
        darts = ["goblin"] * 4
        fields = {"spell": "magic missile", "level": 1}
        refused = table.tap("wizard", action="cast", targets=darts, fields=fields)
        assert refused.status_code == 400, refused.text
        assert "set how many at each target" in refused.text, refused.text
        assert "gob gob wolf" not in refused.text
        typed_nowhere(refused.text)
    with Fracas(str(db)) as log:
        command = {"action": "cast", "actor": "wizard", "targets": darts, **fields}
        with pytest.raises(RefusedError, match="gob gob wolf"):
            do(log.encounter("crypt"), command)


CLI_USAGE = re.compile(r"`|\bact [A-Z]|(?:^|\s)--?[a-z]|\bTARGET\b|\bWEAPON\b|=[A-Z]")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_attack_with_no_target_tapped_is_refused_in_a_players_words(
    ruleset: str, tmp_path: Path
) -> None:
    """An outside table tester's phone (issue 37), pool, Attack with no target ticked:
    "attack needs a target: act A attack TARGET -w WEAPON". A phone says what to tap."""
    db = tmp_path / "fight.db"
    duel(db, ruleset)
    with Fracas(str(db)) as log:
        (actor,) = log.encounter("fight").view().acting
    with phones(db, ("hero", "foe")) as table:
        before = table.steps()
        refused = table.tap(actor, action="attack", targets=[])
        assert refused.status_code == 400, refused.text
        assert not CLI_USAGE.search(refused.text), refused.text
        assert "target" in refused.text.lower(), refused.text
        assert table.steps() == before
