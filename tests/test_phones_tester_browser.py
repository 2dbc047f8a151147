"""An outside table tester's phones at 390x844 (issue 37), on Debian's headless Chromium:
a refusal belongs to the attempt it answered, every box to tick is tapped by its whole
label, 44 px or more, and what is left of a turn keeps each of its items whole."""

from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from tests.support import do
from tests.web import (
    RULESETS,
    WAIT,
    chosen,
    duel,
    fracas,
    phone_of,
    served,
    shot,
)

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


# Every box to tick or pill to choose in the chosen form: its label's box, and whether a
# tap near each of the label's corners and at its middle lands on the label (the box is
# ticked by a tap anywhere on its label).
BOXES = """() => [...document.querySelectorAll('fieldset.chosen:not([hidden]) input')]
  .filter((box) => box.type === 'checkbox' || box.type === 'radio')
  .filter((box) => !box.closest('[hidden]'))
  .map((box) => {
    const label = box.closest('label');
    const tapped = label || box;
    const r = tapped.getBoundingClientRect();
    tapped.scrollIntoView({block: 'center'});
    const s = tapped.getBoundingClientRect();
    const points = [[s.left + 3, s.top + 3], [s.right - 3, s.top + 3], [s.left + 3, s.bottom - 3],
      [s.right - 3, s.bottom - 3], [(s.left + s.right) / 2, (s.top + s.bottom) / 2]];
    const missed = points.filter(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return !hit || !(label ? label.contains(hit) : hit === box);
    });
    const said = (label ? label.innerText : box.value).trim().slice(0, 24);
    const labelled = Boolean(label);
    return {said, labelled, width: r.width, height: r.height, missed: missed.length};
  })"""


def every_choice(page: Any, form: Any) -> list[dict[str, Any]]:
    """The boxes of the form with each value of each of its lists chosen in turn (a part
    that applies with one value alone, srd's within 5 ft with a spell attack, shows then)."""
    found = list(page.evaluate(BOXES))
    for select in form.locator("select:visible").all():
        for value in select.evaluate("s => [...s.options].map(o => o.value)"):
            select.select_option(value)
            found += page.evaluate(BOXES)
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_box_to_tick_is_tapped_by_its_whole_label_44_px_or_more(
    tmp_path: Path, browser: Any, ruleset: str
) -> None:
    """srd's "Ally beside it" and "Difficult terrain": the box was a 26 px square beside
    its words, and the layout test measured only what it could see first. Every box and
    pill of every action (each list's every value tried) is a label 44 px or more each
    way, and a tap anywhere on it ticks the box."""
    db = tmp_path / f"{ruleset}.db"
    duel(db, ruleset)
    with served(db) as running:
        page = phone_of(browser, running, db, "hero")
        actions = page.locator("button.action:not([data-at-once])")
        small = []
        for n in range(actions.count()):
            action = actions.nth(n).get_attribute("data-action")
            form = chosen(page, action)
            for box in every_choice(page, form):
                if not box["labelled"] or min(box["width"], box["height"]) < 44 or box["missed"]:
                    small.append((action, box))
        shot(page, f"boxes-{ruleset}", full_page=True)
        assert not small, small


def srd_turn_half_spent(db: Path) -> None:
    """srd: the hero (a rogue, 30 ft) has attacked and moved 10 ft: the Action used, a
    bonus action and 20 ft of 30 left."""
    duel(db, "srd", foe_side="npc")
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        while fight.view().acting != ["hero"]:
            do(fight, {"action": "next"})
        do(fight, {"action": "attack", "actor": "hero", "targets": ["foe"]})
        do(fight, {"action": "move", "actor": "hero", "feet": 10})


# Each item of the turn's leftovers: its words and the lines it takes.
LEFT = """() => [...document.querySelectorAll('#left > span:not(.label)')].map((item) => {
  const boxes = [...item.getClientRects()].filter((r) => r.width);
  const lines = new Set(boxes.map((r) => Math.round(r.top)));
  return [item.innerText, lines.size];
})"""


@pytest.mark.parametrize("large", [False, True])
def test_what_is_left_of_a_turn_keeps_each_item_whole(
    tmp_path: Path, browser: Any, large: bool
) -> None:
    """"Action ✓ used · Bonus action · 20 ft of 30 ft to move" broke inside "20 ft of 30
    ft to move" on a 390 px phone: the line may wrap between items, never inside one."""
    db = tmp_path / "srd.db"
    srd_turn_half_spent(db)
    with served(db) as running:
        page = phone_of(browser, running, db, "hero")
        if large:
            page.click("#large")
        items = page.evaluate(LEFT)
        shot(page, f"left-this-turn-{'large' if large else 'plain'}")
    said = [words for words, _ in items]
    assert any("20 ft of 30 ft" in words for words in said), said
    assert all(lines == 1 for _, lines in items), items


SHOWN_REFUSALS = """() => [...document.querySelectorAll('.refused, #refusal')]
  .filter((line) => line.checkVisibility() && line.textContent.trim())
  .map((line) => line.textContent.trim())"""


def redrawn(page: Any, then: Any) -> None:
    """The panel drawn again after THEN (a push of the screen, or the GM's step)."""
    page.evaluate("document.querySelector('#panel .me').dataset.old = 'yes'")
    then()
    page.wait_for_function("!document.querySelector('#panel .me[data-old]')", timeout=WAIT)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_refusal_stays_while_the_player_corrects_and_goes_with_the_turn(
    tmp_path: Path, browser: Any, ruleset: str
) -> None:
    """An outside table tester: an attack's refusal stayed on the phone into the next turn
    and after other steps landed. It stays, with the form's values, while the panel is
    drawn again for the fight as it stood; once another step lands it is gone."""
    db = tmp_path / f"{ruleset}.db"
    duel(db, ruleset, foe_side="npc")
    with served(db) as running:
        page = phone_of(browser, running, db, "hero")
        form = chosen(page, "attack")
        form.locator("label.tap:has(input[data-target][value=foe])").click()
        dice = form.locator("[data-dice]")
        if dice.count():
            dice.fill("999")  # a face no die has
        else:  # fudge's phone types no dice: the page's mark is an old one (a 409)
            page.evaluate("document.querySelector('#panel .me').dataset.seen = '1'")
        form.locator("button.go").click()
        line = form.locator(".refused")
        line.wait_for(state="visible", timeout=WAIT)
        said = line.inner_text().strip()
        assert said
        redrawn(page, lambda: page.evaluate("document.dispatchEvent(new Event('fracas:screen'))"))
        assert page.evaluate(SHOWN_REFUSALS) == [said]
        if dice.count():
            assert dice.input_value() == "999"
        assert form.locator("input[data-target][value=foe]").is_checked()
        redrawn(page, lambda: fracas(db, "next"))  # the GM ends the hero's turn
        shot(page, f"refusal-gone-{ruleset}")
        assert page.evaluate(SHOWN_REFUSALS) == []
