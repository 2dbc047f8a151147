"""The TV (1920x1080, read from 3 m) holds a fight of nine combatants without scrolling, in
every ruleset: the whole board, the latest dice and the log's column all in view. An
outside tester found the srd dice box below the fold with nine combatants."""

import os
from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from tests.casts import CASTS
from tests.support import SIX, do, srd_sample
from tests.web import served

pytestmark = pytest.mark.browser

TV = {"viewport": {"width": 1920, "height": 1080}}
MEASURED = """() => {
  const box = (el) => el.getBoundingClientRect();
  const rows = [...document.querySelectorAll("#screen table.board tbody tr")];
  const parts = {};
  const named = {dice: "section.dice", notes: "[data-part=extras]", head: ".head",
                 foot: ".timeline", "last row": "table.board tbody tr:last-child"};
  for (const [name, selector] of Object.entries(named)) {
    const found = document.querySelector(selector);
    parts[name] = found ? [box(found).top, box(found).bottom] : [0, 9999];
  }
  return {tall: document.documentElement.scrollHeight, rows: rows.length, parts,
          board: box(document.querySelector("table.board")).right,
          dice: box(document.querySelector("section.dice")).left};
}"""


def nine(db: Path, ruleset: str) -> None:
    """Four players' characters and five foes, begun, a few steps in, the latest with dice."""
    with Fracas(str(db)) as log:
        encounter = log.new(ruleset, title="Nine at the ford", encounter="ford")
        if ruleset == "srd":
            sheets = [srd_sample(s) for s in ("fighter", "rogue", "wizard", "cleric")]
            foes = [srd_sample("goblin", hp=40)] * 5
        else:
            cast = list(CASTS[ruleset].sheets.values())
            sheets, foes = [cast[n % len(cast)] for n in range(4)], [cast[-1]] * 5
        for n, sheet in enumerate(sheets):
            join = {"action": "join", "combatant": f"hero{n}", "sheet": sheet, "side": "pc"}
            do(encounter, {**join, "name": f"Hero number {n + 1} of the company"})
        for n, sheet in enumerate(foes):
            join = {"action": "join", "combatant": f"foe{n}", "sheet": sheet, "side": "npc"}
            do(encounter, {**join, "name": f"Goblin skirmisher {n + 1}"})
        do(encounter, {"action": "begin"})
        for n in range(5):
            do(encounter, {"action": "gm.harm", "target": f"foe{n}", "amount": 1})
        for n in range(4):
            shaken = {"action": "gm.condition-set", "target": f"hero{n}", "condition": "shaken"}
            do(encounter, shaken)
        current = {"action": "roll", "dice": "4d6", "reason": "the ford's current"}
        do(encounter, {**current, "actor": "hero0"})


@pytest.mark.parametrize("ruleset", SIX)
def test_nine_combatants_fit_the_tv_with_the_dice_in_view(
    ruleset: str, tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / f"{ruleset}.db"
    nine(db, ruleset)
    with served(db) as running:
        tv = browser.new_context(**TV).new_page()
        tv.goto(running.players)
        tv.locator("#screen .screen section.dice").wait_for(timeout=8000)
        if dump := os.environ.get("FRACAS_SHOTS"):  # where to keep a screenshot to look at
            tv.screenshot(path=f"{dump}/tv-nine-{ruleset}.png")
        seen = tv.evaluate(MEASURED)  # at one moment: a push may redraw the screen
        assert seen["tall"] <= 1080, f"{ruleset}: the TV scrolls ({seen['tall']} px)"
        assert seen["rows"] == 9
        for part, (top, bottom) in seen["parts"].items():
            assert bottom <= 1080, (ruleset, part, top, bottom)
        board, dice = seen["board"], seen["dice"]
        assert board <= dice, f"{ruleset}: the board runs under the dice ({board} > {dice})"
