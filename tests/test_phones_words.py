"""A phone's sheet line in words (an outside table tester, issue 37): pool's panel said
"Dice 0" beside the health, a number nobody could read; it names what the number is."""

import html
import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.support import do
from tests.web import cast_of, phones

pytestmark = pytest.mark.sqlite_file


def sheet_line(panel: str) -> str:
    found = re.search(r'<p class="sheet">(.*?)</p>', panel, re.S)
    assert found, panel
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def test_pools_sheet_line_names_the_dice_injuries_take_away(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    (hero, mine), (foe, theirs) = cast_of("pool")
    with Fracas(str(db)) as log:
        fight = log.new("pool", title="Words", encounter="fight")
        do(fight, {"action": "join", "combatant": hero, "sheet": mine, "side": "pc"})
        do(fight, {"action": "join", "combatant": foe, "sheet": theirs, "side": "npc"})
        do(fight, {"action": "begin"})
    with phones(db, (hero,)) as table:
        line = sheet_line(table.panel(hero))
    assert not re.search(r"\bDice -?\d", line), line
    assert "Dice lost to injuries 0" in line, line
