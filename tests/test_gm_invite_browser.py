"""The GM page's Invite list follows the fight: a combatant added from the page's console or
from the command line can be invited at once, without reloading the page, and the GM's
choice in the list stays chosen."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import fracas, motel, served

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def invitees(page: Any) -> dict[str, str]:
    return page.eval_on_selector(
        "#invitee", "s => Object.fromEntries([...s.options].map(o => [o.value, o.text]))"
    )


def until_invitable(page: Any, combatant: str) -> None:
    page.wait_for_function(
        f"[...document.querySelector('#invitee').options].some(o => o.value === '{combatant}')",
        timeout=5000,
    )


def test_a_combatant_added_mid_fight_can_be_invited_without_a_reload(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "motel.db"
    motel(db)
    with served(db) as running:
        gm = browser.new_page()
        gm.goto(running.gm)
        assert list(invitees(gm)) == ["alice", "cultist", "bob"]
        gm.select_option("#invitee", "bob")

        fracas(db, "add", "gob1", "--name", "Goblin 1")  # from the command line
        until_invitable(gm, "gob1")
        gm.fill("#line", "add wren --name Wren")  # from the page's console
        gm.press("#line", "Enter")
        until_invitable(gm, "wren")

        listed = invitees(gm)
        assert listed["gob1"] == "Goblin 1" and listed["wren"] == "Wren"
        assert gm.eval_on_selector("#invitee", "s => s.value") == "bob"  # still the GM's pick
        gm.select_option("#invitee", "wren")
        gm.click("#invite button[type=submit]")
        gm.wait_for_selector("#invited svg", timeout=5000)
        assert "/p/" in gm.locator("#invited .link").inner_text()
