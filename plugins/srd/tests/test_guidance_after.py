"""Guidance and resistance spent after the roll (srd-81, srd-82; issue 40): the d4 is the
creature's to add to one ability check, or saving throw, of its choosing, once it has seen
the d20. The GM spends a kept one on the creature's latest check or save while its outcome
could still change (`act WHO spend guidance`): the d4 is rolled and the roll decided again,
as new events, the check's own step as it was."""

from pathlib import Path

import pytest
from srd_cli import Gm, ok, refused, status_row
from srd_cli import chapel as chapel_at


@pytest.fixture
def chapel(tmp_path: Path) -> Gm:
    return chapel_at(tmp_path)


def test_srd_81_guidance_is_spent_after_the_check_is_rolled_and_decides_it_again(chapel):
    ok(chapel, "act", "maelis", "cast", "brannoc", "-o", "spell=guidance")
    # 10 + 5 = 15 against 18: a failure, and prone; guidance's 3 or more would make it
    failed = ok(chapel, "act", "brannoc", "check", "athletics", "--dc", "18", "-o", "fail=prone",
                "--dice", "10")  # fmt: skip
    assert "failure (15 vs 18)" in failed and "Brannoc is prone" in failed, failed
    assert "Brannoc may still spend guidance on this ability check" in failed, failed
    assert "-o spend" not in failed, failed  # a fact the phones and the TV read
    before = ok(chapel, "log")
    spent = ok(chapel, "act", "brannoc", "spend", "guidance", "--dice", "3")
    assert "+1d4 guidance" in spent and "now a success (18 vs 18)" in spent, spent
    assert "Brannoc is no longer prone" in spent, spent
    assert "under guidance" not in status_row(chapel, "Brannoc"), spent
    assert "prone" not in status_row(chapel, "Brannoc"), spent
    assert "concentrating" not in status_row(chapel, "Maelis"), spent
    assert ok(chapel, "log").startswith(before.rstrip("\n").rsplit("\n", 1)[0])  # appended
    said = refused(chapel, "act", "brannoc", "spend", "guidance")
    assert "Brannoc has no guidance" in said, said
    ok(chapel, "undo")  # the spend taken back: the failure, prone and guidance again
    brannoc = status_row(chapel, "Brannoc")
    assert "under guidance" in brannoc and "prone" in brannoc
    still = ok(chapel, "act", "brannoc", "spend", "guidance", "--dice", "1")
    assert "still a failure (16 vs 18)" in still, still
    brannoc = status_row(chapel, "Brannoc")
    assert "prone" in brannoc and "under guidance" not in brannoc


def test_srd_82_resistance_is_spent_after_the_save_is_rolled(chapel):
    ok(chapel, "act", "maelis", "cast", "brannoc", "-o", "spell=resistance")
    failed = ok(chapel, "act", "brannoc", "save", "con", "--dc", "12", "--dice", "5")
    assert "failure (9 vs 12)" in failed, failed
    assert "Brannoc may still spend resistance on this saving throw" in failed, failed
    said = refused(chapel, "act", "brannoc", "spend", "guidance")
    assert said == (
        "Error: Brannoc has no guidance to spend (srd-81, srd-82): have Maelis cast guidance "
        "on Brannoc before the roll: `fracas act maelis cast brannoc -o spell=guidance`"
    ), said
    saved = ok(chapel, "act", "brannoc", "spend", "resistance", "--dice", "4")
    assert "now a success (13 vs 12)" in saved, saved
    assert "under resistance" not in status_row(chapel, "Brannoc"), saved


def test_guidance_after_the_roll_only_where_the_outcome_could_still_change(chapel):
    said = refused(chapel, "act", "brannoc", "spend", "guidance")
    assert said == (
        "Error: Brannoc has no guidance to spend (srd-81, srd-82): have Maelis cast guidance "
        "on Brannoc before the roll: `fracas act maelis cast brannoc -o spell=guidance`"
    ), said
    ok(chapel, "act", "maelis", "cast", "brannoc", "-o", "spell=guidance")
    said = refused(chapel, "act", "brannoc", "spend", "guidance")
    assert said.startswith("Error: Brannoc has no check or save that guidance could"), said
    made = ok(chapel, "act", "brannoc", "check", "athletics", "--dc", "12", "--dice", "10")
    assert "success (15 vs 12)" in made and "may still spend" not in made, made
    said = refused(chapel, "act", "brannoc", "spend", "guidance")
    assert "Brannoc has no check or save" in said, said
    far = ok(chapel, "act", "brannoc", "check", "athletics", "--dc", "25", "--dice", "10")
    assert "failure (15 vs 25)" in far and "may still spend" not in far, far  # 4 at most
    refused(chapel, "act", "brannoc", "spend", "guidance")
    near = ok(chapel, "act", "brannoc", "check", "athletics", "--dc", "18", "--dice", "10")
    assert "may still spend guidance" in near, near
    ok(chapel, "act", "brannoc", "save", "dex", "--dc", "5", "--dice", "10")  # a roll since
    said = refused(chapel, "act", "brannoc", "spend", "guidance")
    assert "Brannoc has no check or save" in said, said
    assert "under guidance" in status_row(chapel, "Brannoc")  # kept for a check to come
