"""The dice box of a phone's form says every roll of the character's the action as filled in
takes, and says it again as the player changes the weapon or a switch (issue 37: a rogue's
player learned "2d6 sneak attack" only from a second refusal)."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import WAIT, chosen, duel, phone_of, served, shot

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def help_says(page: Any, words: str, says: bool = True) -> None:
    page.wait_for_function(
        "a => (document.querySelector('fieldset.chosen[data-action=attack]"
        " [data-dice-said]') || {}).textContent.includes(a[0]) === a[1]",
        arg=[words, says],
        timeout=WAIT,
    )


def test_the_dice_help_follows_the_weapon_and_the_sneak_attack_switch(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "srd.db"
    duel(db, "srd", foe_side="npc")  # the hero, a rogue, attacks the foe, a goblin
    with served(db) as running:
        page = phone_of(browser, running, db, "hero")
        attack = chosen(page, "attack")
        attack.locator("label.tap:has(input[data-target][value=foe])").click()
        help_says(page, "a d20 for the attack on foe with")
        attack.locator("select[data-field=weapon]").select_option("dagger")
        help_says(page, "a d4 for the damage of dagger")
        attack.locator("label:has([data-field=ally_near])").click()  # the switch on
        help_says(page, "a d4 for the damage of dagger, 2d6 for the sneak attack")
        shot(page, "phone-dice-help")
        attack.locator("label:has([data-field=ally_near])").click()  # and off
        help_says(page, "sneak attack", says=False)
        said = attack.locator("[data-dice-said]").inner_text()
        assert said == "a d20 for the attack on foe with dagger, a d4 for the damage of dagger"
