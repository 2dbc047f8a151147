"""The GM page's Invite list follows the fight: a combatant added from the page's console or
from the command line can be invited at once, without reloading the page, and the GM's
choice in the list stays chosen."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import fracas, motel, served, shot

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
        # issue 37: the player characters alone, never the cultist (an NPC)
        assert list(invitees(gm)) == ["alice", "bob"]
        gm.select_option("#invitee", "bob")

        fracas(db, "add", "ilse", "--name", "Ilse", "--side", "pc")  # from the command line
        until_invitable(gm, "ilse")
        gm.fill("#line", "add wren --name Wren --side pc")  # from the page's console
        gm.press("#line", "Enter")
        until_invitable(gm, "wren")
        fracas(db, "add", "gob1", "--name", "Goblin 1")  # an NPC: never offered

        listed = invitees(gm)
        assert listed["ilse"] == "Ilse" and listed["wren"] == "Wren"
        assert "gob1" not in listed
        assert gm.eval_on_selector("#invitee", "s => s.value") == "bob"  # still the GM's pick
        gm.select_option("#invitee", "wren")
        gm.click("#invite button[type=submit]")
        gm.wait_for_selector("#invited svg", timeout=5000)
        assert "/p/" in gm.locator("#invited .link").inner_text()


def test_the_invite_list_offers_living_player_characters_at_the_top(
    tmp_path: Path, browser: Any
) -> None:
    """Issue 37 (an outside tester on the GM laptop, srd fight): the Invite list offered the
    monsters and the dead, at the bottom of the page under the log. It offers the living
    player characters, where a GM starting the fight looks: under the title."""
    db = tmp_path / "motel.db"
    motel(db)
    fracas(db, "harm", "bob", "99", "-m", "a fall")
    with served(db) as running:
        gm = browser.new_page(viewport={"width": 1366, "height": 768})
        gm.goto(running.gm)
        assert list(invitees(gm)) == ["alice"]
        invite = gm.locator("#invite").bounding_box()
        line = gm.locator("#line").bounding_box()
        assert invite is not None and line is not None
        assert invite["y"] + invite["height"] <= line["y"] + line["height"] + 1, (invite, line)
        shot(gm, "gm-invite-1366")
