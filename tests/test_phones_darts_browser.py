"""Magic missile's cast form on a phone (an outside table tester, issue 37): the spell
first, then the slot's level (its lowest with a slot left, not "—"), then the targets,
then how many darts at each under a label with their running total ("darts: 3 of 3")."""

from pathlib import Path
from typing import Any

import pytest

from tests.web import WAIT, chosen, fracas, phone_of, sample, served, shot

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]


def wizard_and_goblins(db: Path) -> None:
    fracas(db, "new", "-r", "srd", "--id", "crypt", "-t", "The Crypt")
    fracas(db, "add", "wizard", "--sheet", sample("wizard"), "--set", "initiative=60")
    for goblin in ("goblin", "gob2"):
        fracas(db, "add", goblin, "--sheet", sample("goblin"))
    fracas(db, "begin")


def before(page: Any, first: str, then: str) -> bool:
    return page.evaluate(
        "([a, b]) => Boolean(document.querySelector(a).compareDocumentPosition("
        "document.querySelector(b)) & Node.DOCUMENT_POSITION_FOLLOWING)",
        [first, then],
    )


def test_a_spell_of_darts_reads_spell_level_targets_then_darts_with_their_total(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "crypt.db"
    wizard_and_goblins(db)
    with served(db) as running:
        page = phone_of(browser, running, db, "wizard")
        cast = chosen(page, "cast")
        form = "fieldset.chosen[data-action=cast]"
        assert before(page, f"{form} [data-field=spell]", f"{form} [data-field=level]")
        assert before(page, f"{form} [data-field=level]", f"{form} input[data-target]")
        cast.locator("[data-field=spell]").select_option("magic missile")
        assert cast.locator("[data-field=level]").input_value() == "1"
        cast.locator("label.tap:has(input[value=goblin])").click()
        cast.locator("label.tap:has(input[value=gob2])").click()
        total = cast.locator("[data-times-total]")
        total.wait_for(state="visible", timeout=WAIT)
        assert total.inner_text() == "darts: 3 of 3"
        cast.locator("input.times[data-times=gob2]").fill("1")
        cast.locator("input.times[data-times=gob2]").dispatch_event("change")
        page.wait_for_function(
            "document.querySelector('[data-times-total]').innerText === 'darts: 3 of 3'"
            " || document.querySelector('[data-times-total]').innerText === 'darts: 2 of 3'",
            timeout=WAIT,
        )
        shot(page, "phone-darts-390")
