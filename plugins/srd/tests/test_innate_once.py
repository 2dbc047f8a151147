"""An innate spell once a long rest (Ilse's hellish rebuke, her Infernal Legacy) is spent
when cast as a reaction: a second cast before a long rest is refused in every path (a
declared --defence, an answer to --ask, the offer itself), and status shows its uses."""

import json

import pytest
from srd_cli import fight, ok, refused, sample

OGRE = ["add", "ogre", "--monster", "ogre", "--side", "npc"]


@pytest.fixture
def gm(tmp_path):
    """An ogre (first) against Ilse, a wizard with an innate hellish rebuke, once a day."""
    return fight(tmp_path / "rebuke.db", "Rebuke", "20,5", OGRE, sample("ilse", "wizard", "Ilse"))


def rebuked(gm) -> str:
    """Round 1: the ogre's javelin hits Ilse, who rebukes it."""
    dice = ["--dice", "15,1,1,1,1,1,1"]
    return ok(gm, "act", "ogre", "attack", "ilse", "-w", "javelin",
              "--defence", "ilse=hellish rebuke", *dice)  # fmt: skip


def next_round(gm) -> None:
    ok(gm, "next")
    ok(gm, "next")


def test_a_declared_rebuke_spends_its_use_and_status_shows_it(gm):
    assert "hellish rebuke 1/1 today" in ok(gm, "status")
    out = rebuked(gm)
    assert "Ilse spends 1 reaction: hellish rebuke" in out
    assert "hellish rebuke 0/1 today" in ok(gm, "status")
    shown = json.loads(ok(gm, "status", "--json"))
    ilse = next(f for f in shown["wounds"] if f["combatant"] == "ilse")
    assert ilse["detail"]["innate_left"] == {"hellish rebuke": 0}
    next_round(gm)
    said = refused(gm, "act", "ogre", "attack", "ilse", "-w", "javelin",
                   "--defence", "ilse=hellish rebuke", "--dice", "15,1,1")  # fmt: skip
    assert "hellish rebuke" in said and "long rest" in said, said


def test_a_spent_rebuke_is_not_offered_again(gm):
    asked = ["act", "ogre", "attack", "ilse", "-w", "javelin", "--ask", "--dice", "15,1,1"]
    out = ok(gm, *asked)
    assert "(none | hellish rebuke)" in out, out
    out = ok(gm, "answer", "ilse", "hellish rebuke", "--dice", "1,1,1,1")
    assert "Ilse spends 1 reaction: hellish rebuke" in out
    next_round(gm)
    out = ok(gm, *asked)
    assert "hellish rebuke" not in out and "waits" not in out, out
    assert "Ilse takes" in out
