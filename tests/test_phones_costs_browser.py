"""An srd phone's turn at 390x844 (issue 37): its buttons under what they cost and the line
of what is left this turn, every button still a thumb's size, nothing scrolling sideways."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import duel, fracas, no_sideways_scroll, phone_of, served, shot

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def test_an_srd_turn_shows_its_costs_and_whats_left_at_a_thumbs_size(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "srd.db"
    duel(db, "srd")
    with served(db) as running:
        page = phone_of(browser, running, db, "hero")
        fracas(db, "act", "hero", "move", "10")
        page.reload()
        page.wait_for_selector("p.left")
        shot(page, "srd-costs")
        headings = page.locator("h3.cost").all_inner_texts()
        assert [h.strip().lower() for h in headings][:1] == ["action"], headings
        left = page.locator("p.left").inner_text()
        assert "20 ft of 30 ft to move" in left, left
        for button in page.locator("button.action").all():
            box = button.bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44, box
        no_sideways_scroll(page)
