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


def given(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#given li", "items => items.map(li => li.innerText.replace(/\\s+/g, ' ').trim())"
    )


def test_the_links_given_are_named_under_invite_and_outlive_a_reload(
    tmp_path: Path, browser: Any
) -> None:
    """Issue 37 (an outside table tester on the GM laptop): the links given and revoked were
    listed at the bottom of the page under no name, and were gone or nameless after a
    reload; the QR code did not say whose it was. Under the Invite control, each link is
    listed by the character's name, when given and whether revoked, after a reload too; the
    QR code is captioned with the name, its link beside it; Revoke on a line ends that
    character's links."""
    db = tmp_path / "motel.db"
    motel(db)
    fracas(db, "add", "wren", "--name", "Wren", "--side", "pc")
    fracas(db, "invite", "alice", "--no-qr", "--url", "http://table.local:8000")
    with served(db) as running:
        gm = browser.new_page(viewport={"width": 1366, "height": 768})
        gm.goto(running.gm)
        (alice,) = given(gm)
        assert alice.startswith("Alice Reyes · given ") and alice.endswith("UTC Revoke"), alice

        gm.select_option("#invitee", "wren")
        gm.click("#invite button[type=submit]")
        gm.wait_for_selector("#invited figure svg", timeout=5000)
        assert gm.locator("#invited figcaption strong").inner_text() == "Link for Wren"
        link = gm.locator("#invited .link")
        assert "/p/" in link.inner_text()
        qr, beside = gm.locator("#invited svg").bounding_box(), link.bounding_box()
        assert qr is not None and beside is not None
        assert beside["x"] >= qr["x"] + qr["width"], (qr, beside)  # beside it, not under it
        gm.wait_for_function("document.querySelectorAll('#given li').length === 2", timeout=5000)
        assert given(gm)[1].startswith("Wren · given "), given(gm)
        shot(gm, "gm-links-given-1366")

        gm.click("#given li:nth-child(2) button[data-revoke]")  # Wren's line
        gm.wait_for_function(
            "document.querySelector('#invited').innerText === 'Revoked 1 link of Wren.'",
            timeout=5000,
        )
        gm.wait_for_function(
            "document.querySelector('#given li:nth-child(2)').innerText.includes('revoked')",
            timeout=5000,
        )
        gm.reload()
        alice, wren = given(gm)
        assert alice.startswith("Alice Reyes · given ") and "revoked" not in alice, alice
        assert wren.startswith("Wren · given ") and " · revoked " in wren, wren
        assert "Revoke" not in wren.replace("revoked", "")  # nothing left to revoke
        listed, line = gm.locator("#given").bounding_box(), gm.locator("#line").bounding_box()
        assert listed is not None and line is not None
        assert listed["y"] + listed["height"] <= line["y"], (listed, line)  # above the fold
        shot(gm, "gm-links-given-reloaded-1366")


def test_the_qr_code_closes_once_the_player_has_scanned_it(tmp_path: Path, browser: Any) -> None:
    """Issue 37 (an outside table tester on a 1366x768 laptop): after Invite the QR code and
    its link stayed above the board for the rest of the fight, with no way to close them. A
    Close button beside them puts them away; the link itself stays given."""
    db = tmp_path / "motel.db"
    motel(db)
    fracas(db, "add", "wren", "--name", "Wren", "--side", "pc")
    with served(db) as running:
        gm = browser.new_page(viewport={"width": 1366, "height": 768})
        gm.goto(running.gm)
        until_invitable(gm, "wren")
        gm.select_option("#invitee", "wren")
        gm.click("#invite button[type=submit]")
        gm.wait_for_selector("#invited figure svg", timeout=5000)
        board = gm.locator("#line").bounding_box()
        assert board is not None
        shot(gm, "gm-qr-open-1366")
        gm.click("#invited button.close")
        gm.wait_for_selector("#invited figure", state="detached", timeout=5000)
        closed = gm.locator("#line").bounding_box()  # the command line back up
        assert closed is not None and closed["y"] < board["y"], (board, closed)
        assert [line.startswith("Wren · given ") for line in given(gm)][-1], given(gm)
        shot(gm, "gm-qr-closed-1366")
