"""The GM's page on a laptop (1366x768): the command line, and the question an attack waits
on with a button to answer for each player, above the fold (an outside table tester, issue
37: the command line was far down the page and no answer was offered at all)."""

from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest

from tests.web import boxes, fracas, motel, sample, served, shot, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]
LAPTOP = {"width": 1366, "height": 768}


def above_the_fold(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], (selector, box)


def test_the_command_line_and_an_answer_for_a_player_are_above_the_fold(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "motel.db"
    motel(db)
    for _ in range(16):  # a log of the screen's full length under the board
        fracas(db, "note", "the neon sign buzzes")
    fracas(db, "next")  # the cultist's turn
    fracas(db, "act", "cultist", "attack", "bob", "--ask")  # waits for Bob's reaction
    with served(db) as running:
        gm = browser.new_page(viewport=LAPTOP)
        gm.goto(running.gm)
        above_the_fold(gm, "#line")
        above_the_fold(gm, "#invite")  # issue 37: where a GM starting a fight looks
        answer = gm.locator("#asked button[data-line^='answer bob ']")
        answer.first.wait_for(timeout=5000)
        assert "Answer for bob" in gm.locator("#asked").inner_text()
        above_the_fold(gm, "#asked button[data-line^='answer bob ']")
        shot(gm, "gm-asked-1366")
        before = len(steps(db))
        answer.first.click()
        gm.wait_for_function("!document.querySelector('#asked button')", timeout=5000)
        assert len(steps(db)) == before + 1


def test_the_board_is_near_the_top_beside_the_controls_on_a_laptop(
    tmp_path: Path, browser: Any
) -> None:
    """Issue 37 (an outside table tester at 1366x768): the board began ~380 px down in a
    945 px column, 420 px of the width unused, so two or three rows showed. The controls
    (Invite, the command line) stand beside the board, which starts near the top."""
    db = tmp_path / "motel.db"
    motel(db)
    with served(db) as running:
        gm = browser.new_page(viewport=LAPTOP)
        gm.goto(running.gm)
        board = boxes(gm, "#screen tr[data-combatant]")[0]  # the stream redraws the board
        at = gm.locator("#line").bounding_box()
        assert at is not None
        assert board["y"] < 200, board
        assert board["x"] >= at["x"] + at["width"], (board, at)  # beside the command line
        above_the_fold(gm, "#line")
        above_the_fold(gm, "#invite")
        shot(gm, "gm-board-1366")


def test_the_gm_page_loads_with_no_404_and_each_initiative_on_one_line(
    tmp_path: Path, browser: Any
) -> None:
    """Issue 37 (an outside table tester at 1366x768): the browser's console showed a 404
    each time the GM's page loaded (its icon, which a browser asks for on its own), and
    "init 14" of the acting row, in bold, wrapped onto two lines."""
    db = tmp_path / "bridge.db"
    fracas(db, "new", "-r", "srd", "--id", "bridge", "--title", "Ambush at the old bridge")
    for who in ("fighter", "rogue", "wizard", "cleric"):
        fracas(db, "add", who, "--sheet", sample(who), "--side", "pc")
    fracas(db, "add", "bugbear", "--monster", "bugbear", "--set", "initiative=40")
    fracas(db, "begin")
    fracas(db, "condition", "set", "wizard", "prone")
    with served(db) as running:
        gm = browser.new_page(viewport=LAPTOP)
        missing: list[str] = []
        gm.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
        gm.goto(running.gm)
        boxes(gm, "#screen tr[data-combatant]")  # the stream's first screen drawn
        gm.wait_for_load_state("networkidle")
        icon = gm.evaluate("() => document.querySelector('link[rel~=icon]')?.href") or ""
        if not icon.startswith("data:"):  # (headless Chromium asks for no icon itself)
            asked = httpx.get(urljoin(running.gm, icon or "/favicon.ico"))
            missing += [f"{asked.url} {asked.status_code}"] if asked.status_code >= 400 else []
        assert missing == [], missing
        cells = gm.locator("#screen tr[data-combatant] td.key")
        assert cells.count() == 5
        for i in range(cells.count()):
            cell = cells.nth(i)
            lines = cell.evaluate(
                "c => { const r = document.createRange(); r.selectNodeContents(c);"
                " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size }"
            )
            assert lines == 1, (cell.inner_text(), lines)
        shot(gm, "gm-init-1366")
