"""A page whose stream the table could not open (its log's server down: PostgreSQL restarting
under `fracas serve`) says it lost the table, opens it again until the table answers, and then
shows the fight as it stands: the TV, the GM's page and a player's. An outside tester's TV
stayed frozen on the screen of before the outage, saying nothing (issue 37)."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import TV, duel, fracas, served, shot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("page_of", ["tv", "gm"])
def test_a_page_says_it_lost_the_table_and_comes_back_by_itself(
    page_of: str, tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "srd.db"
    duel(db, "srd")
    with served(db) as running:
        page = browser.new_context(**TV).new_page()
        refused = {"count": 0}

        def down(route: Any) -> None:  # the server's answer while its log's server is down
            refused["count"] += 1
            route.fulfill(status=503, body="the log server is not answering", headers={})

        page.route("**/stream*", down)  # (a page naming no encounter asks ?follow)
        page.goto(running.players + "?tv" if page_of == "tv" else running.gm)
        lost = page.locator("p.lost")
        lost.wait_for(state="visible", timeout=8000)
        assert "Lost the table" in lost.inner_text()
        shot(page, f"lost-{page_of}")
        fracas(db, "note", "the bridge gives way")  # the fight moved on meanwhile
        page.unroute("**/stream*")
        lost.wait_for(state="hidden", timeout=20000)
        page.locator("#screen", has_text="the bridge gives way").wait_for(timeout=8000)
        assert refused["count"] >= 1
        shot(page, f"back-{page_of}")
