"""A page opened without naming an encounter follows the file's current one (issue 37: an
outside table tester's TV and GM page stayed on the ended fight after `fracas new`, and the
command the GM typed there went to it and was refused); a page that names one stays."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import fracas, motel, served

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]
LAPTOP = {"width": 1366, "height": 768}
TV = {"width": 1920, "height": 1080}


def test_a_page_naming_no_encounter_moves_to_a_new_one_and_a_named_one_stays(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "night.db"
    motel(db)
    fracas(db, "end")
    with served(db) as running:
        tv = browser.new_page(viewport=TV)
        tv.goto(running.players)
        gm = browser.new_page(viewport=LAPTOP)
        gm.goto(running.gm)
        named = browser.new_page(viewport=TV)
        named.goto(f"{running.root}/e/motel")
        for page in (tv, gm, named):
            page.wait_for_function("document.body.innerText.includes('Lakeside Motel')")
        fracas(db, "new", "--id", "pool", "-t", "By the pool")
        for page in (tv, gm):  # the stream tells them; they move over
            page.wait_for_function(
                "document.body.innerText.includes('By the pool')", timeout=10_000
            )
        assert "/e/motel" not in tv.url and "/e/motel" not in gm.url
        named.wait_for_timeout(1500)  # (as long again as the others took: it stays)
        assert "Lakeside Motel" in named.inner_text("body"), named.inner_text("body")
        assert "By the pool" not in named.inner_text("h1"), named.inner_text("h1")
        gm.fill("#line", 'note "the water is still"')
        gm.press("#line", "Enter")
        gm.wait_for_function(
            "document.body.innerText.includes('the water is still')", timeout=10_000
        )
    pool = fracas(db, "--encounter", "pool", "log").stdout
    assert "the water is still" in pool, pool
