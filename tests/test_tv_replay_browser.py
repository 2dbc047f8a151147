"""The TV's Replay panel covers the board: it closes by a visible button and by Escape, so the
board is back in view while play goes on. An outside table found only a click outside closed it
(issue 37)."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import TV, nine, served

pytestmark = pytest.mark.browser

OPEN = """() => { const d = document.getElementById('detail');
  return d.children.length > 0 && getComputedStyle(d).position === 'fixed'; }"""


def opened(tv: Any) -> None:
    tv.locator("#open-step").click()
    tv.locator("#detail .detail").wait_for(timeout=8000)
    assert tv.evaluate(OPEN)


def test_the_tv_replay_closes_by_its_button_and_by_escape(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "srd.db"
    nine(db, "srd")
    with served(db) as running:
        tv = browser.new_context(**TV).new_page()
        tv.goto(running.players + "?tv")
        tv.locator("#screen .screen section.dice").wait_for(timeout=8000)
        opened(tv)
        close = tv.get_by_role("button", name="Close")
        assert close.is_visible()
        close.click()
        assert not tv.evaluate(OPEN)
        assert tv.locator("#detail .detail").count() == 0
        opened(tv)
        tv.keyboard.press("Escape")
        assert not tv.evaluate(OPEN)
        assert tv.locator("#detail .detail").count() == 0
