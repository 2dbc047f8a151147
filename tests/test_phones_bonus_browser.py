"""A rogue's Cunning Action on her phone at 390x844 (srd-60, issue 37): first thing in her
turn she taps Dash under "Bonus action", and it lands as her bonus action, her action still
hers to take."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import WAIT, chosen, duel, phone_of, served, shot, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def test_a_rogue_dashes_as_her_bonus_action_first_thing_in_her_turn(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "srd.db"
    duel(db, "srd")  # the hero is a rogue
    with served(db) as running:
        page = phone_of(browser, running, db, "hero")
        left = page.locator("p.left").inner_text()
        assert "Action" in left and "used" not in left, left  # nothing spent yet
        # the button sits under the bonus action's heading
        heading = page.locator("button.action[data-action=bonus_dash]").evaluate(
            "b => { let e = b; while ((e = e.previousElementSibling) && e.tagName !== 'H3');"
            " return e && e.textContent.trim(); }"
        )
        assert heading and heading.lower() == "bonus action", heading
        form = chosen(page, "bonus_dash")
        seen = page.locator("#panel .me").get_attribute("data-seen")
        form.locator("button.go").click()
        page.wait_for_function(
            "seen => document.querySelector('#panel .me').dataset.seen !== seen"
            " || [...document.querySelectorAll('.refused')].some(r => r.textContent.trim())",
            arg=seen,
            timeout=WAIT,
        )
        refused = page.eval_on_selector_all(".refused", "rs => rs.map(r => r.textContent).join('')")
        assert not refused.strip(), refused
        shot(page, "srd-rogue-bonus-dash")
        events = steps(db)[-1]["events"]
        command = next(e["command"] for e in events if "command" in e)
        assert command["action"] == "dash" and command.get("bonus") is True, command
        spent = [e["resource"] for e in events if e.get("kind") == "spent"]
        assert spent == ["bonus action"], events
        left = page.locator("p.left").inner_text()
        assert "Bonus action ✓ used" in left and "Action ✓" not in left, left
        assert page.locator("button.action[data-action=bonus_dash]").count() == 0
        assert page.locator("button.action[data-action=attack]").count() == 1
