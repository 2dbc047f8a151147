"""A pool player splits their attack with the phone's form (issue 37): how many dice at each
target tapped, and how many kept back for a dodge, land as the player set them."""

from pathlib import Path
from typing import Any

import pytest

from tests.casts.pool import assert_split_2_3_keeping_1_for_a_dodge, split_fight
from tests.web import WAIT, landed_by, phone_of, served, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def test_a_phone_splits_the_pool_two_and_three_keeping_one_for_a_dodge(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "split.db"
    split_fight(db)
    with served(db) as running:
        ana = phone_of(browser, running, db, "ana")
        ana.click("button.action[data-action=attack]")
        attack = ana.locator("fieldset.chosen[data-action=attack]")
        for who in ("bob", "thug"):
            attack.locator(f"label.tap:has(input[value={who}])").click()
        shares = attack.locator("[data-kind=each]")
        assert "_" not in attack.inner_text()  # the player reads words, never a field's name
        at_bob = shares.and_(ana.locator("[data-key=bob]"))
        at_thug = shares.and_(ana.locator("[data-key=thug]"))
        # too many for the pool: refused beside the button, the form keeping what was typed
        before = steps(db)
        at_bob.fill("4")
        at_thug.fill("3")
        attack.locator("button.go").click()
        refused = attack.locator(".refused")
        refused.wait_for(state="visible", timeout=WAIT)
        assert "more than the 6 dice" in refused.inner_text() and steps(db) == before
        assert at_bob.input_value() == "4" and attack.locator("input[value=thug]").is_checked()
        at_bob.fill("2")
        attack.locator("[data-kind=counts][data-key=dodge]").fill("1")
        attack.locator("button.go").click()
        landed_by(ana, db, "ana", 1)
    assert_split_2_3_keeping_1_for_a_dodge(db)
