"""An outside table tester's srd phones at 390x844 (issue 37). The Cast form offered "—"
(no slot) for cure wounds, and the same slots for every spell: the slot field now offers,
for the spell chosen, its own level and up among the levels with a slot left. The
opportunity attack's offer came with no cue, its button a narrow tile: it now has the
turn's colour and vibration, and a full-width button a thumb's height."""

from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import WAIT, chosen, fracas, no_sideways_scroll, phone_of, served, shot

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]

# What the page asks of the phone, recorded: each vibration's pattern.
VIBRATIONS = """
window.__vibrated = [];
Navigator.prototype.vibrate = function (pattern) { window.__vibrated.push(pattern); return true; };
0;  // not the function: page.evaluate would call it
"""


def against_a_goblin(db: Path, title: str, who: str, sample: str) -> None:
    """WHO (srd's SAMPLE sheet) acts first, a goblin of 60 hit points ("gob") last."""
    with Fracas(str(db)) as log:
        fight = log.new("srd", title=title, encounter="fight")
        mine = srd_sample(sample, initiative=90)
        do(fight, {"action": "join", "combatant": who, "sheet": mine, "side": "pc"})
        goblin = srd_sample("goblin", hp=60, initiative=-10)
        do(fight, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(fight, {"action": "begin"})


def casters(db: Path) -> None:
    """The cleric acts first (sacred flame, cure wounds, hold person at 2nd), the goblin last."""
    against_a_goblin(db, "Casters", "cleric", "cleric")


def slots_shown(form: Any) -> list[str]:
    """The slot levels the form's select lets a player pick now."""
    return form.locator("select[data-field=level]").evaluate(
        "s => [...s.options].filter(o => !o.hidden && !o.disabled).map(o => o.value)"
    )


def test_the_slot_offered_follows_the_spell_chosen(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "srd.db"
    casters(db)
    with served(db) as running:
        page = phone_of(browser, running, db, "cleric")
        form = chosen(page, "cast")
        spell = form.locator("select[data-field=spell]")
        level = form.locator("select[data-field=level]")
        spell.select_option("cure wounds")
        assert slots_shown(form) == ["1", "2"]
        assert level.input_value() == "1"
        shot(page, "cast-cure-wounds")
        spell.select_option("hold person")
        assert slots_shown(form) == ["2"]
        assert level.input_value() == "2"
        shot(page, "cast-hold-person")
        spell.select_option("sacred flame")  # a cantrip: no slot asked
        assert not level.is_visible()
        spell.select_option("hold person")
        form.locator("label.tap:has(input[value=gob])").click()
        form.locator("button.go").click()
        page.wait_for_function(  # a 2nd-level slot spent, as the phone's sheet says
            "() => /2nd 1\\/2/.test(document.querySelector('.me .health').innerText)",
            timeout=WAIT,
        )


def test_an_opportunity_attack_is_cued_like_a_turn(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "srd.db"
    against_a_goblin(db, "Reach", "hero", "fighter")
    with served(db) as running:
        page = phone_of(browser, running, db, "hero", acting=False)
        page.evaluate(VIBRATIONS)
        assert page.evaluate("document.body.classList.contains('chance')") is False
        fracas(db, "act", "gob", "move", "25", "-o", "leaves=hero")  # out of the hero's reach
        cue = page.wait_for_selector("#your-chance", timeout=WAIT)
        assert "opportunity attack" in cue.inner_text().lower(), cue.inner_text()
        assert page.evaluate("window.__vibrated") == [[200, 100, 200]]
        top = page.evaluate("document.querySelector('#your-chance').getBoundingClientRect().top")
        assert -2 <= top < 844 / 2, top  # the cue is on screen, wherever the page was scrolled
        colour = page.evaluate(
            "getComputedStyle(document.querySelector('#your-chance')).backgroundColor"
        )
        turn = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert colour not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), colour
        assert turn not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), turn
        button = page.locator("button.action[data-action=opportunity]")
        box = button.bounding_box()
        width = page.evaluate("document.querySelector('#act').getBoundingClientRect().width")
        assert box and box["height"] >= 44 and box["width"] >= width - 40, (box, width)
        shot(page, "opportunity-cue")
        no_sideways_scroll(page)
        form = chosen(page, "opportunity")
        form.locator("button.go").click()
        page.wait_for_function("() => !document.querySelector('#your-chance')", timeout=WAIT)
        assert page.evaluate("document.body.classList.contains('chance')") is False


def test_a_tapped_actions_form_opens_in_view_its_top_at_the_top(
    tmp_path: Path, browser: Any
) -> None:
    """Tapping Cast showed only the form's "Spell" at the foot of the screen (issue 37)."""
    db = tmp_path / "srd.db"
    casters(db)
    with served(db) as running:
        page = phone_of(browser, running, db, "cleric")
        form = chosen(page, "cast")
        page.wait_for_function(
            "() => { const r = document.querySelector('fieldset.chosen[data-action=cast]')"
            ".getBoundingClientRect(); return Math.abs(r.top) < 2 || r.bottom <= innerHeight; }",
            timeout=WAIT,
        )
        assert form.evaluate("f => f.getBoundingClientRect().top") > -2
        shot(page, "cast-form-in-view")
