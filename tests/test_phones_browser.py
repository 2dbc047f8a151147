"""The GM and two players on three pages of Debian's headless Chromium play a round: a
player attacks from the phone page with dice typed by hand, every page sees it, the other
player picks a reaction to an attack, acts on his turn, the GM undoes a step, and a revoked
link stops working."""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web import fracas, invited, landed_by, motel, served, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def log_text(page: Any) -> str:
    return page.locator("#screen ol.log").inner_text()


def test_the_gm_and_two_players_play_a_round_on_three_pages(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "motel.db"
    motel(db)
    alice_token, bob_token = invited(db, "alice"), invited(db, "bob")
    with served(db) as running:
        gm = browser.new_page()
        gm.goto(running.gm)
        alice = browser.new_context(**PHONE).new_page()
        alice.goto(f"{running.root}/p/{alice_token}")
        bob = browser.new_context(**PHONE).new_page()
        bob.goto(f"{running.root}/p/{bob_token}")
        assert alice.locator(".me .turn").inner_text() == "Your turn."
        assert bob.locator("#act").count() == 0  # not Bob's turn: nothing to tap

        # Alice attacks the cultist from her phone, with the faces she rolled by hand
        alice.click("button.action[data-action=attack]")
        attack = alice.locator("fieldset.chosen[data-action=attack]")
        attack.locator("label.tap:has(input[value=cultist])").click()
        attack.locator("[data-dice]").fill("95 5")  # the attack and the damage, rolled together
        attack.locator("button.go").click()
        for page in (gm, alice, bob):
            landed_by(page, db, "alice", 1)
        assert "Alice Reyes" in log_text(bob) and "cultist" in log_text(bob).lower()
        step = json.loads(fracas(db, "log", "--json").stdout)[-1]
        assert step["author"] == "alice"
        assert step["events"][1]["roll"] == step["events"][1]["roll"] | {
            "faces": [95],
            "source": "manual",
            "entered_by": "alice",
        }

        # the cultist attacks Bob and the attack waits: Bob's phone offers his reactions
        gm.fill("#line", "act cultist attack bob --ask")
        gm.press("#line", "Enter")
        bob.wait_for_selector("#react button[data-choice=dodge]", timeout=5000)
        assert "dodge" in alice.locator(".question").inner_text()  # Alice sees it wait
        bob.click("#react button[data-choice=dodge]")
        for page in (gm, alice, bob):
            landed_by(page, db, "bob", 1)
        answered = json.loads(fracas(db, "log", "--json").stdout)[-1]
        assert answered["author"] == "bob"
        assert any("bob reacts: dodge" in line for line in answered["lines"])
        assert bob.locator("#react").count() == 0

        # a new turn: Alice aims from her phone, and may take it back; the GM undoes it
        alice.wait_for_selector("#act", timeout=5000)
        alice.click("button.action[data-action=aim]")
        alice.click("fieldset.chosen[data-action=aim] button.go")
        alice.wait_for_selector("#undo", timeout=5000)
        gm.wait_for_function(  # the GM's Undo names the step it takes back
            "document.querySelector('#undoing').innerText.includes('aims')",
            timeout=5000,
        )
        gm.locator("button[data-line=undo]").click()
        aimed = [s["step"] for s in steps(db) if s["author"] == "alice"][-1]
        for page in (gm, alice, bob):
            page.wait_for_selector(f'#screen ol.log li.undone[data-step="{aimed}"]')
        alice.wait_for_selector("#act", timeout=5000)
        assert alice.locator("#undo").count() == 0

        # the GM revokes Bob's link from the GM page: his page says so, and acts no more
        gm.select_option("#invitee", "bob")
        gm.click("#revoke")
        gm.wait_for_function(
            "document.querySelector('#invited').innerText.includes('Revoked 1')", timeout=5000
        )
        bob.wait_for_function("document.body.classList.contains('revoked')", timeout=5000)
        ended = "The GM has ended this link: ask the GM for a new one."
        assert bob.locator("#refusal").inner_text() == ended
        # and it is final: no "Lost the table: trying again", no stream asked for again, and
        # no stale board under the line
        asked: list[str] = []
        bob.on("request", lambda request: asked.append(request.url))
        bob.wait_for_timeout(3500)  # a retry would come 1 s, then 2 s, after the last
        assert bob.locator("p.lost").is_hidden() and bob.locator("#screen").is_hidden()
        assert not [url for url in asked if url.endswith("/stream")]
        assert bob.locator("#refusal").bounding_box()["height"] >= 40  # big, not a footnote
        bob.reload()
        assert ended in bob.content()
        assert alice.locator(".me h2").inner_text() == "Alice Reyes"  # Alice's link still works

        # the GM's invite button shows a new link with its QR code
        gm.select_option("#invitee", "bob")
        gm.click("#invite button[type=submit]")
        gm.wait_for_selector("#invited svg", timeout=5000)
        link = gm.locator("#invited .link").inner_text()
        bob.goto(link.replace(running.players.rstrip("/").rsplit(":", 1)[0], "http://127.0.0.1"))
        assert bob.locator(".me h2").inner_text() == "bob"
    audit = fracas(db, "audit")
    assert audit.returncode == 0, audit.stdout
