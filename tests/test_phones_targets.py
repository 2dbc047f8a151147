"""An outside table tester's phone (issue 37): tapping Attack listed the cleric's allies
first, so the first, most natural tap landed on a friend; and its help read like a rules
index ("... then a rider's save (srd-6..9, srd-17, srd-22, srd-32, srd-35)"). A phone lists
foes first and gives each action's help in words."""

import re
from html import unescape
from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.rules import load
from tests.support import SIX, do
from tests.web import cast_of, phones

pytestmark = pytest.mark.sqlite_file


def skirmish(db: Path, ruleset: str) -> None:
    """The hero and a friend (players' characters, joined first) against the foe."""
    (hero, mine), (foe, theirs) = cast_of(ruleset)
    with Fracas(str(db)) as log:
        encounter = log.new(ruleset, title="A skirmish", encounter="fight")
        for who, sheet, side in ((hero, mine, "pc"), ("friend", mine, "pc"), (foe, theirs, "npc")):
            do(encounter, {"action": "join", "combatant": who, "sheet": sheet, "side": side})
        do(encounter, {"action": "begin"})
        for _ in range(8):  # the GM passes turns until the hero's comes
            if 'data-acting="yes"' in panel_of(db, hero):
                return
            do(encounter, {"action": "next"})
        raise AssertionError("the hero's turn never came")


def panel_of(db: Path, who: str) -> str:
    with phones(db, (who,)) as table:
        return table.panel(who)


@pytest.mark.parametrize("ruleset", SIX)
def test_a_phone_lists_the_foes_before_the_allies(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / f"{ruleset}.db"
    skirmish(db, ruleset)
    panel = panel_of(db, "hero")
    listed = re.findall(
        r'<label class="tap (ally|foe)"><input type="checkbox" value="(\w+)"', panel
    )
    assert listed, panel
    first_ally = next(n for n, (side, _) in enumerate(listed) if side == "ally")
    assert all(side == "foe" for side, _ in listed[:first_ally]) and first_ally > 0, listed
    assert ("foe", "foe") in listed and ("ally", "friend") in listed, listed


@pytest.mark.parametrize("ruleset", SIX)
def test_a_phones_actions_are_helped_in_words_the_rules_they_follow_left_to_the_gm(
    tmp_path: Path, ruleset: str
) -> None:
    db = tmp_path / f"{ruleset}.db"
    skirmish(db, ruleset)
    panel = unescape(panel_of(db, "hero"))
    helps = load(ruleset).actions
    offered = re.findall(r'data-action="(\w+)"', panel)
    assert "attack" in offered or ruleset == "fudge", offered
    for action in set(offered) & set(helps):
        words = helps[action].split(" (")[0]  # before the rules it cites, if it cites any
        assert words in panel, action
    assert not re.search(r"\((?:srd|\d{3})-", panel), panel
