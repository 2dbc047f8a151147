"""What came of a tap stays in sight on a phone at 390x844 (issue 37): a player scrolls down
a long form to its button and taps it; the step's result (the "Latest for you" line) or its
refusal is on the screen once the panel is drawn again, not scrolled away above it."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import TWO_FRAMES, WAIT, chosen, duel, phone_of, served, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def on_screen(page: Any, selector: str) -> dict[str, Any]:
    """The element's box, and whether it is all within the viewport, to a pixel's rounding
    (the browser scrolls by whole pixels; a box may start between two), looked up and measured
    at once: the panel may be drawn again between two calls, its old element detached."""
    return page.evaluate(
        "s => { const b = document.querySelector(s).getBoundingClientRect();"
        " return {top: b.top, bottom: b.bottom, height: innerHeight, scrollY,"
        " within: b.height > 0 && b.top > -1 && b.bottom < innerHeight + 1}; }",
        selector,
    )


def tap_at_the_foot(page: Any, form: Any) -> str:
    """The player scrolls the form's button to the foot of the screen and taps it; the
    panel's step before the tap."""
    seen = page.locator("#panel .me").get_attribute("data-seen")
    go = form.locator("button.go")
    go.evaluate("b => b.scrollIntoView({block: 'end'})")
    go.click()
    return str(seen)


def settled(page: Any) -> None:
    page.evaluate(TWO_FRAMES)
    page.wait_for_timeout(400)  # a smooth scroll, if any


def test_a_phone_shows_the_result_of_a_step_that_lands_and_of_one_refused(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "srd.db"
    duel(db, "srd", foe_side="npc")  # the hero, a rogue, attacks the foe, a goblin
    with served(db) as running:
        page = phone_of(browser, running, db, "hero")

        attack = chosen(page, "attack")
        attack.locator("label.tap:has(input[data-target][value=foe])").click()
        attack.locator("label.tap:has([data-field=within_5ft][value=no])").click()
        before = steps(db)
        tap_at_the_foot(page, attack)
        refused = attack.locator(".refused")
        refused.wait_for(state="visible", timeout=WAIT)
        assert "reach" in refused.inner_text() and steps(db) == before
        settled(page)
        box = on_screen(page, "fieldset.chosen[data-action=attack] .refused")
        assert box["within"], box

        attack.locator("label.tap:has([data-field=within_5ft][value=''])").click()
        seen = tap_at_the_foot(page, attack)
        page.wait_for_function(
            "seen => document.querySelector('#panel .me').dataset.seen !== seen",
            arg=seen,
            timeout=WAIT,
        )
        settled(page)
        landed = len(steps(db))
        latest = page.locator("#latest")
        assert f"step {landed}" in latest.inner_text() and "hero" in latest.inner_text()
        box = on_screen(page, "#latest")
        assert box["within"], box
        assert on_screen(page, "#act .actions")["top"] < 844  # the buttons start in sight too


def test_a_phone_shows_its_step_waiting_for_the_gms_nod(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "srd.db"
    duel(db, "srd", foe_side="npc")
    with served(db, "--player-steps", "nod") as running:
        page = phone_of(browser, running, db, "hero")
        attack = chosen(page, "attack")
        attack.locator("label.tap:has(input[data-target][value=foe])").click()
        tap_at_the_foot(page, attack)
        page.locator(".waiting").wait_for(timeout=WAIT)
        settled(page)
        assert "attack" in page.locator(".waiting").inner_text()
        box = on_screen(page, ".waiting")
        assert box["within"], box
