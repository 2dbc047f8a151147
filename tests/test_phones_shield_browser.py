"""Shield asked once the attack hits (srd-39, issue 37): the GM's goblin attacks Ilse with
`--ask`, the attack is rolled first, and Ilse's phone (390x844, Debian's headless Chromium)
shows the roll that hit her beside "none | shield"; her tap turns the hit into a miss."""

from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import PHONE, WAIT, fracas, invited, served, shot, steps

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def test_a_phone_is_asked_for_shield_with_the_roll_that_hit_and_answers_it(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "shield.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="A shield", encounter="fight")
        for who, kind, side in (("gob", "goblin", "npc"), ("ilse", "wizard", "pc")):
            do(e, {"action": "join", "combatant": who, "sheet": srd_sample(kind), "side": side})
        do(e, {"action": "begin"}, [20, 5])
    with served(db, "--reaction-wait", "90") as running:
        ilse = browser.new_context(**PHONE).new_page()
        ilse.goto(f"{running.root}/p/{invited(db, 'ilse')}")
        attack = ["act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice"]
        missed = fracas(db, *attack, "2")
        assert "asked nobody" in missed.stdout, missed.stdout  # a miss asks nobody
        fracas(db, "undo")
        fracas(db, *attack, "10")
        asked = ilse.locator("#react")
        asked.wait_for(timeout=WAIT)
        shot(ilse, "srd-shield-asked")
        seen = asked.locator("#asked-seen").inner_text()
        assert "scimitar hits" in seen and "14 vs AC 12" in seen, seen
        choices = asked.locator("button.choice").evaluate_all(
            "bs => bs.map(b => b.dataset.choice)"
        )
        assert choices == ["none", "shield"], choices
        # an outside table tester: shield's help ran past its button's bottom border (108 px
        # of text in a 92 px box); each answer grows with its words
        cut = asked.locator("button.choice").evaluate_all(
            "bs => bs.filter(b => b.scrollHeight > b.clientHeight + 1).map(b => b.dataset.choice)"
        )
        assert cut == [], cut
        asked.locator("button.choice[data-choice=shield]").click()
        ilse.wait_for_function("() => !document.querySelector('#react')", timeout=WAIT)
        told = [e.get("outcome", "") for e in steps(db)[-1]["events"]]
        assert "shield: the hit becomes a miss" in told, told
        assert steps(db)[-1]["author"] == "ilse"
