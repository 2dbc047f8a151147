"""A phone's "Latest for you" card in the browser (issue 37): the newest step for the
player, as the stream brings it."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import WAIT, crypt, fracas, phone_of, served, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def test_the_latest_for_you_card_follows_the_step_that_offers_a_chance(
    tmp_path: Path, browser: Any
) -> None:
    """An outside table tester: the opportunity attack was offered, and the fighter's
    "Latest for you" card still showed an older line. It follows the goblin's move."""
    db = tmp_path / "crypt.db"
    crypt(db)
    with served(db) as running:
        page = phone_of(browser, running, db, "fighter")
        fracas(db, "next")
        fracas(db, "next")  # the goblin's turn
        fracas(db, "act", "goblin", "move", "25", "-o", "leaves=fighter")
        moved = len(steps(db))
        page.locator("#your-chance").wait_for(timeout=WAIT)
        page.wait_for_function(
            "n => (document.querySelector('#latest') || {textContent: ''})"
            ".textContent.includes('step ' + n)",
            arg=moved,
            timeout=WAIT,
        )
        assert "goblin" in page.locator("#latest").inner_text()
