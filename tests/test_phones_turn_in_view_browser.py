"""An outside table tester's phone at 390x844 (issue 37): a player scrolled down to the log
while others acted, and their turn came with "Your turn" off the top of the screen. The
turn's arrival now brings it into view, as an opportunity attack's "Your chance" is; a
redraw while the turn goes on (another's step, the GM's note) leaves the page where the
player has it, so a player filling a form is never yanked. In every ruleset."""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web import (
    RULESETS,
    TWO_FRAMES,
    WAIT,
    duel,
    fracas,
    phone_of,
    served,
    shot,
)

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]

TOP = "document.querySelector('#your-turn').getBoundingClientRect().top"
BOTTOM = "window.scrollTo(0, document.documentElement.scrollHeight)"


def redrawn(page: Any, step: Any) -> None:
    """STEP (a GM's command) lands and the phone's panel is drawn again after it."""
    seen = page.locator("#panel .me").get_attribute("data-seen")
    step()
    page.wait_for_function(
        "seen => document.querySelector('#panel .me').dataset.seen !== seen",
        arg=seen,
        timeout=WAIT,
    )
    page.evaluate(TWO_FRAMES)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_your_turn_comes_into_view_as_the_turn_arrives_and_stays_put_after(
    tmp_path: Path, browser: Any, ruleset: str
) -> None:
    db = tmp_path / f"{ruleset}.db"
    duel(db, ruleset)
    with served(db) as running:
        page = phone_of(browser, running, db, "hero", acting=False)
        for n in range(12):  # a log long enough to scroll the phone's page down to it
            fracas(db, "note", f"the rain keeps on falling, hour {n + 1} of the watch")
        page.wait_for_function(
            "document.documentElement.scrollHeight > innerHeight + 400", timeout=WAIT
        )
        page.evaluate(BOTTOM)
        assert page.evaluate("window.scrollY") > 400, page.evaluate("window.scrollY")

        for _ in range(8):  # the GM passes turns until the hero's comes round, by the log
            fracas(db, "next")  # (a panel a note before set off may still be on its way)
            if "hero" in json.loads(fracas(db, "status", "--json").stdout)["acting"]:
                break
        page.wait_for_function("document.querySelector('#panel .me').dataset.acting === 'yes'")
        page.wait_for_function(f"() => Math.abs({TOP}) < 2", timeout=WAIT)  # smooth or not
        shot(page, f"{ruleset}-turn-arrives")

        # while the turn goes on, a redraw leaves the page where the player has it
        page.evaluate(BOTTOM)
        scrolled = page.evaluate("window.scrollY")
        assert page.evaluate(TOP) < 0, scrolled
        redrawn(page, lambda: fracas(db, "note", "thunder, far off"))
        assert page.evaluate(TOP) < 0, page.evaluate(f"[window.scrollY, {TOP}]")
