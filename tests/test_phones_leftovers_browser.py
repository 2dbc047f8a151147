"""Issue 37's leftovers on a phone at 390x844 (Debian's headless Chromium): a form a
player fills as they would."""

import json
from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import (
    WAIT,
    chosen,
    fracas,
    no_sideways_scroll,
    phone_of,
    served,
    shot,
)

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def join(
    db: Path, ruleset: str, *cast: tuple[str, dict[str, Any], str], title: str = "Leftovers"
) -> None:
    with Fracas(str(db)) as log:
        fight = log.new(ruleset, title=title, encounter="fight")
        for who, sheet, side in cast:
            do(fight, {"action": "join", "combatant": who, "sheet": sheet, "side": side})
        do(fight, {"action": "begin"})


def the_step_lands(page: Any) -> None:
    """The chosen action's button tapped: one more step on the screen, or the test fails
    with the refusal the phone shows."""
    count = "Number(document.querySelector('#screen .screen').dataset.steps)"
    before = page.evaluate(f"() => {count}")
    page.locator("fieldset.chosen:visible button.go").click()
    page.wait_for_function(
        f"n => {count} > n || [...document.querySelectorAll('.refused')]"
        ".some(r => r.textContent.trim())",
        arg=before,
        timeout=WAIT,
    )
    refused = page.eval_on_selector_all(".refused", "rs => rs.map(r => r.textContent).join('')")
    assert not refused.strip(), refused


def last_events(db: Path) -> list[dict[str, Any]]:
    return json.loads(fracas(db, "log", "--json").stdout)[-1]["events"]


def wizard_and_two_goblins(tmp_path: Path, title: str = "Leftovers") -> Path:
    db = tmp_path / "srd.db"
    wizard = srd_sample("wizard", initiative=90)
    goblin = srd_sample("goblin", hp=60)
    cast = (("wizard", wizard, "pc"), ("gob", goblin, "npc"), ("gob2", goblin, "npc"))
    join(db, "srd", *cast, title=title)
    return db


def magic_missile_at_both(page: Any) -> Any:
    """The wizard's Cast form, magic missile chosen and both goblins tapped."""
    cast = chosen(page, "cast")
    cast.locator("select[data-field=spell]").select_option("magic missile")
    for goblin_id in ("gob", "gob2"):
        cast.locator(f"label.tap:has(input[data-target][value={goblin_id}])").click()
    return cast


def test_magic_missiles_three_darts_split_two_and_one(tmp_path: Path, browser: Any) -> None:
    """Magic missile at its own level: two darts at one goblin, one at the other; each
    goblin's name keeps to one line beside its box of darts."""
    db = wizard_and_two_goblins(tmp_path)
    with served(db) as running:
        page = phone_of(browser, running, db, "wizard")
        cast = magic_missile_at_both(page)
        cast.locator("[data-times=gob]").fill("2")
        no_sideways_scroll(page)
        shot(page, "srd-darts-2-1")
        # a name beside its box of darts keeps to one line (it broke a letter a line)
        heights = [
            cast.locator(f"label.tap:has(input[value={who}]) span").bounding_box()["height"]
            for who in ("wizard", "gob", "gob2")
        ]
        assert max(heights) - min(heights) <= 2, heights
        the_step_lands(page)
    events = last_events(db)
    command = next(e["command"] for e in events if "command" in e)
    assert sorted(command["targets"]) == ["gob", "gob", "gob2"], command
    struck = sorted(e["target"] for e in events if e.get("kind") == "damaged")
    assert struck == ["gob", "gob", "gob2"], events


def test_magic_missiles_boxes_add_up_to_the_darts_of_the_slot_level(
    tmp_path: Path, browser: Any
) -> None:
    """An outside table tester's magic missile at two goblins: each box said 1 (two of the
    three darts) and the refusal did not say why. The boxes start shared out so they add
    up to the darts of the slot chosen (3 at level 1, one more a level above)."""
    db = wizard_and_two_goblins(tmp_path)
    with served(db) as running:
        page = phone_of(browser, running, db, "wizard")
        cast = magic_missile_at_both(page)
        boxes = [cast.locator(f"[data-times={who}]") for who in ("gob", "gob2")]
        assert [int(box.input_value()) for box in boxes] == [2, 1]
        cast.locator("[data-field=level]").select_option("2")
        assert sorted(int(box.input_value()) for box in boxes) == [2, 2]
        shot(page, "srd-darts-level-2")
        the_step_lands(page)
    events = last_events(db)
    command = next(e["command"] for e in events if "command" in e)
    assert sorted(command["targets"]) == ["gob", "gob", "gob2", "gob2"], command


# Where each line of the phone's log starts, and where the step number sits.
LOG_LINE_STARTS = """() => [...document.querySelectorAll('#screen ol.log li')].map((li) => {
  const words = document.createRange();
  words.selectNodeContents(li.querySelector('.sentence'));
  const lefts = [...words.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.left));
  return {lefts, number: li.querySelector('.step-link').getBoundingClientRect().right};
})"""


def test_a_phones_header_log_and_end_turn_at_390_px(tmp_path: Path, browser: Any) -> None:
    """An outside table tester's phone (390x844): "Aa" wrapped to a row of its own; a log
    line wrapped under its step number; End turn took two taps. Now "Aa" keeps beside the
    title, a step's sentence hangs under itself, and End turn is one tap, its take-back
    offered as any step's."""
    db = wizard_and_two_goblins(tmp_path, title="The goblins of the cave")
    with served(db) as running:
        page = phone_of(browser, running, db, "wizard")
        shot(page, "phone-header-and-log", full_page=True)
        title = page.locator("header.top h1").bounding_box()
        large = page.locator("#large").bounding_box()
        assert large["y"] < title["y"] + title["height"], (title, large)
        no_sideways_scroll(page)
        lines = page.evaluate(LOG_LINE_STARTS)
        wrapped = [line for line in lines if len(set(line["lefts"])) > 0 and len(line["lefts"]) > 1]
        assert wrapped, lines  # "The fight begins: the order is ..." wraps at 390 px
        for line in lines:
            assert len(set(line["lefts"])) == 1 and line["lefts"][0] >= line["number"], line
        steps_before = len(json.loads(fracas(db, "log", "--json").stdout))
        page.click("button.action[data-action=next]")
        page.locator("#undo").wait_for(timeout=WAIT)
        shot(page, "phone-one-tap-end-turn")
        log = json.loads(fracas(db, "log", "--json").stdout)
        assert len(log) == steps_before + 1, log[-1]
        command = next(e["command"] for e in log[-1]["events"] if "command" in e)
        assert command["action"] == "next" and log[-1]["author"] == "wizard", log[-1]
