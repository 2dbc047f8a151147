"""Issue 37: a character's Move on a phone could not say whose reach it left, so a monster's
opportunity attack was never offered to the GM when a player's character ran (srd-18). The
move form asks "Leaving the reach of" (the living foes, none ticked), the step sends them
as `leaves`, and the GM's page offers the goblin's opportunity attack by the command line,
on Debian's headless Chromium at a phone's size (390x844).

FRACAS_SHOTS=DIR keeps the phone's move form and the GM's page with the offer."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import WAIT, chosen, crypt, fracas, no_sideways_scroll, phone_of, served, shot

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def test_a_phones_move_names_whom_it_leaves_and_the_gm_takes_the_attack(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "crypt.db"
    crypt(db)  # the fighter acts first; the rogue is on his side, the goblin is not
    with served(db) as running:
        gm = browser.new_page()
        gm.goto(running.gm)
        phone = phone_of(browser, running, db, "fighter")
        move = chosen(phone, "move")
        assert "Leaving the reach of" in move.inner_text()
        ticks = move.locator("input[data-field=leaves]")
        assert ticks.evaluate_all("ts => ts.map(t => [t.value, t.checked])") == [
            ["goblin", False]
        ]
        move.locator("input[data-field=feet]").fill("10")
        move.locator("label.tap:has(input[data-field=leaves][value=goblin])").click()
        assert ticks.first.is_checked()
        no_sideways_scroll(phone)
        shot(phone, "move-leaves-phone", full_page=True)
        move.locator("button.go").click()

        offer = gm.locator("#asked button[data-line='act goblin opportunity fighter --ask']")
        offer.wait_for(timeout=WAIT)
        assert offer.inner_text() == "goblin: opportunity attack on fighter"
        assert "fighter leaves the reach of goblin" in fracas(db, "log").stdout
        shot(gm, "move-leaves-gm")
        offer.click()
        offer.wait_for(state="detached", timeout=WAIT)
        said = fracas(db, "log").stdout
        assert "goblin spends 1 reaction: opportunity attack, as fighter moves out of reach" in said
