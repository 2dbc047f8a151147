"""At a table a player rolls attack and damage together and types both (issue 37): on a
miss the damage die lands said not needed, on the phone's step and on the TV, never refused
before the step lands (a refusal told the player hit or miss, the foe's AC unseen)."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import TV, WAIT, chosen, duel, phone_of, served, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def test_a_phone_types_attack_and_damage_misses_and_the_tv_shows_the_damage_unused(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "srd.db"
    duel(db, "srd", foe_side="npc")  # the hero, a rogue (+5 to hit), the foe a goblin (AC 15)
    with served(db) as running:
        tv = browser.new_context(**TV).new_page()
        tv.goto(running.players + "?tv")
        page = phone_of(browser, running, db, "hero")
        attack = chosen(page, "attack")
        attack.locator("label.tap:has(input[data-target][value=foe])").click()
        attack.locator("[data-dice]").fill("2 6")  # 2 + 5 misses; the d6 was rolled with it
        before = len(steps(db))
        attack.locator("button.go").click()
        page.wait_for_function(
            "n => document.querySelector('#latest') && "
            "document.querySelector('#latest').textContent.includes('step ' + n)",
            arg=before + 1,
            timeout=WAIT,
        )
        assert (
            attack.locator(".refused").count() == 0 or not attack.locator(".refused").is_visible()
        )
        landed = steps(db)[-1]
        assert landed["author"] == "hero"
        tv.wait_for_function(
            "() => document.body.innerText.includes('not needed: 6')", timeout=WAIT
        )
        assert "misses" in tv.locator("body").inner_text()
