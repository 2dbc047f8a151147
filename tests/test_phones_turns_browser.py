"""A player takes a turn from a phone in every installed ruleset, with the form as a player
uses it (a button, a tap on a name, the fields the ruleset says are theirs), and one
reaction where the ruleset has one, on Debian's headless Chromium (issue 37).

FRACAS_SHOTS=DIR keeps a phone-sized screenshot (390x844) of each ruleset's turn page."""

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.web import (
    PHONE,
    RULESETS,
    TWO_FRAMES,
    WAIT,
    duel,
    fracas,
    invited,
    landed_by,
    served,
    steps,
    until_acting,
)

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]
ASKED = ("percentile", "pool", "shotclock", "timeslice")  # an attack asks its target's reaction
# What the page asks of the phone, recorded: a vibration, the screen kept awake.
SENSED = """
window.__vibrated = [];
Navigator.prototype.vibrate = function (pattern) { window.__vibrated.push(pattern); return true; };
Object.defineProperty(Navigator.prototype, "wakeLock", { configurable: true, value: {
  request: async (kind) => { window.__awake = kind; return { release: async () => {} }; } } });
"""


# The player's buttons (else their panel, where none is offered now) start in view.
BUTTONS_IN_VIEW = """() => {
  const top = (document.querySelector('#panel .actions') || document.querySelector('#panel'))
    .getBoundingClientRect().top;
  return top >= 0 && top < innerHeight;
}"""


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phone_takes_a_turn_and_a_reaction(tmp_path: Path, browser: Any, ruleset: str) -> None:
    db = tmp_path / f"{ruleset}.db"
    duel(db, ruleset, foe_side="npc" if ruleset == "srd" else "pc")  # srd: a foe's opportunity
    tokens = {who: invited(db, who) for who in ("hero", "foe")}
    with served(db) as running:
        phone = browser.new_context(**PHONE)
        phone.add_init_script(SENSED)
        hero = phone.new_page()
        foe = browser.new_context(**PHONE).new_page()
        hero.goto(f"{running.root}/p/{tokens['hero']}")
        foe.goto(f"{running.root}/p/{tokens['foe']}")
        until_acting(db, hero, True)
        foe.reload()

        # the turn: "Your turn" in colour, the actions as buttons, one action's fields shown
        assert hero.locator("#your-turn").is_visible()
        assert "my-turn" in (hero.locator("body").get_attribute("class") or "")
        assert hero.evaluate("window.__awake") == "screen"
        hero.click("button.action[data-action=attack]")
        attack = hero.locator("fieldset.chosen[data-action=attack]")
        assert attack.is_visible()
        assert hero.locator("fieldset.chosen:visible").count() == 1
        shown = hero.locator("#act").inner_text()
        assert "_" not in shown, shown  # no field reaches a player by its raw name
        visible = hero.locator("#act input:visible, #act select:visible, #act label.tap:visible")
        assert visible.count() <= 12, visible.count()
        attack.locator("label.tap:has(input[value=foe])").click()
        go = attack.locator("button.go")

        # a refusal shows beside the button, and the form keeps what the player chose
        before = steps(db)
        typed = attack.locator("[data-dice]").count() == 1  # 4dF's attack rolls at its turn
        wrong = attack.locator("[data-dice]" if typed else "[data-field=burst]")
        if typed:
            wrong.fill("9999")  # no dice show that
        else:  # a declaration without a target, a burst ticked (with the weapon that fires them)
            attack.locator("[data-field=weapon]").select_option("rifle")
            wrong.check()
            attack.locator("label.tap:has(input[value=foe])").click()
        go.click()
        refused = attack.locator(".refused")
        refused.wait_for(state="visible", timeout=WAIT)
        assert refused.inner_text().strip() and steps(db) == before
        assert wrong.input_value() == "9999" if typed else wrong.is_checked()
        if typed:
            assert attack.locator("input[value=foe]").is_checked()
            wrong.fill("")
        else:
            wrong.uncheck()
            attack.locator("label.tap:has(input[value=foe])").click()
        box = go.bounding_box()
        assert box is not None and box["y"] + box["height"] < 2 * 844, box  # not a wall
        if shots := os.environ.get("FRACAS_SHOTS"):
            Path(shots).mkdir(parents=True, exist_ok=True)
            hero.screenshot(path=f"{shots}/{ruleset}-turn.png")
        seen = hero.locator("#panel .me").get_attribute("data-seen")
        go.click()

        # where the rules give the foe a reaction, their phone is asked and answers (srd's
        # goblin has none to choose: srd's reaction from a phone is the opportunity attack
        # below; 4dF declares defences in its declare phase and asks nothing)
        asked = foe.locator("#react button[data-choice]")
        if ruleset in ASKED:
            asked.first.wait_for(timeout=WAIT)
            # each answer as wide as the prompt (side by side, srd's shield was 99 px wide)
            widths = [asked.nth(n).bounding_box()["width"] for n in range(asked.count())]
            assert min(widths) >= 300, widths
            if shots := os.environ.get("FRACAS_SHOTS"):
                foe.screenshot(path=f"{shots}/{ruleset}-asked.png")
            asked.first.click()
            landed_by(foe, db, "foe", 1)
            answered = [s for s in steps(db) if s["author"] == "foe"]
            kinds = [e["kind"] for s in answered for e in s["events"]]
            assert "reaction.given" in kinds, answered
        landed_by(hero, db, "hero", 1)
        assert foe.locator("#react").count() == 0
        # the hero's phone stays at their buttons: it scrolled down to the log
        hero.wait_for_function(
            "seen => document.querySelector('#panel .me').dataset.seen !== seen", arg=seen
        )
        hero.evaluate(TWO_FRAMES)
        assert hero.evaluate(BUTTONS_IN_VIEW), hero.evaluate("window.scrollY")
        attacked = [s for s in steps(db) if s["author"] == "hero"]
        assert attacked and "attack" in json.dumps(attacked[-1]["events"][0]), attacked

        if ruleset == "srd":  # a reaction out of turn: an opportunity attack as the foe moves
            until_acting(db, hero, False)
            fracas(db, "act", "foe", "move", "25", "-o", "leaves=hero")  # leaving the hero (srd-18)
            hero.click("button.action[data-action=opportunity]")
            chance = hero.locator("fieldset.chosen[data-action=opportunity]")
            if not chance.locator("input[value=foe]").is_checked():  # the only foe: ticked
                chance.locator("label.tap:has(input[value=foe])").click()
            if shots := os.environ.get("FRACAS_SHOTS"):
                hero.screenshot(path=f"{shots}/{ruleset}-reaction.png")
            chance.locator("button.go").click()
            landed_by(hero, db, "hero", 2)
            assert "opportunity attack" in hero.locator("#screen ol.log").inner_text()
            # the offer vibrated as a turn does; the turn comes round without a reload: again
            assert hero.evaluate("window.__vibrated") == [[200, 100, 200]]
            fracas(db, "next")
            hero.wait_for_selector("#your-turn", timeout=WAIT)
            assert hero.evaluate("window.__vibrated") == [[200, 100, 200]] * 2
    audit = fracas(db, "audit")
    assert audit.returncode == 0, audit.stdout
