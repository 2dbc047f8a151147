"""A phone's turn page as an outside table tester saw it at 390x844 on Debian's headless
Chromium (issue 37): it never scrolls sideways, in every ruleset. Each test fails on the
code before its fix."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import PHONE, RULESETS, chromium, duel, fracas, invited, served, until_acting

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]
LONG = "Grimgorg-Skullsplitter-of-the-Black-Mountains"  # a name with nowhere to break


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def wider(page: Any) -> list[str]:
    """What reaches past the phone's right edge, if the page scrolls sideways."""
    if page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]:
        return []
    return page.evaluate(
        """(edge) => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > edge)
        .slice(0, 5).map(e => `${e.tagName}.${e.className} ${e.getBoundingClientRect().right}`)""",
        PHONE["viewport"]["width"],
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phones_turn_page_never_scrolls_sideways(
    tmp_path: Path, browser: Any, ruleset: str
) -> None:
    """Pages were 408 px wide on a 390 px phone: the board's table grew past the screen
    with a name it could not break (and with the large type the page's Aa button sets)."""
    db = tmp_path / f"{ruleset}.db"
    duel(db, ruleset)
    fracas(db, "rename", "foe", LONG)
    token = invited(db, "hero")
    with served(db) as running:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{running.root}/p/{token}")
        until_acting(db, page, True)
        assert wider(page) == []
        for action in page.locator("button.action").all():
            action.click()
            assert wider(page) == [], action.get_attribute("data-action")
        page.click("#large")
        assert wider(page) == []
