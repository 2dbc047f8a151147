"""What a phone says of the step that touched its character last, and of the step a
take-back would undo (an outside table tester, issue 37): in the ruleset's own words, as
the players' screen has them, never a GM-only roll's outcome."""

import html
import re
from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from fracas.projections.replay import timeline
from tests.support import do, srd_sample
from tests.web import RULESETS, cast_of, duel, fracas, headlines, phones

pytestmark = pytest.mark.sqlite_file


FOE_ATTACKS = {"action": "attack", "actor": "foe", "targets": ["hero"]}


def foes_turn(fight: Any) -> None:
    while fight.view().acting != ["foe"]:
        fight.execute(fight.ruleset.command({"action": "next"}))


def latest(panel: str) -> str:
    found = re.search(r'<p class="latest" id="latest"[^>]*>(.*?)</p>', panel, re.S)
    assert found, panel
    return html.unescape(re.sub(r"<[^>]+>", " ", found[1]))


def sentences(db: Path, players: bool) -> list[str]:
    with Fracas(str(db)) as log:
        return [m.step.sentence for m in timeline(log.encounter("fight"), players=players)]


def foe_has_attacked(folder: Path, ruleset: str) -> Path:
    """A duel of hero and an NPC foe whose turn it is, who has just attacked hero."""
    db = folder / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        foes_turn(fight)
        fight.execute(fight.ruleset.command(FOE_ATTACKS))
    return db


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phone_says_what_the_latest_step_on_its_character_did(
    tmp_path: Path, ruleset: str
) -> None:
    db = foe_has_attacked(tmp_path, ruleset)
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        fight.execute(fight.ruleset.command({"action": "next"}))  # and ends their turn
    said = headlines(db)  # the step as the TV's log says it, in one short line
    opened = ("foe attacks hero", "foe hits hero", "foe misses hero")  # srd: what came of it
    opened += ("foe lands a critical hit on hero",)  # srd's natural 20, one fight in twenty
    attack = next(s for s in reversed(said) if s.startswith(opened))
    with phones(db, ("hero",)) as table:
        line = latest(table.panel("hero"))
    assert " ".join(attack.split()) in " ".join(line.split())
    assert f"step {said.index(attack) + 1}" in line


@pytest.mark.parametrize("ruleset", ["percentile", "srd", "shotclock"])
def test_a_phone_never_says_what_a_gm_only_roll_decided(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        foes_turn(fight)
        fight.execute(fight.ruleset.command(FOE_ATTACKS), secret=True)
    gms = sentences(db, players=False)[-1]
    assert "GM-only" not in gms
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
        line = latest(panel)
    assert "foe attacks hero" in line and "GM-only" in line
    assert gms not in html.unescape(panel)
    assert "damage" not in line


def test_a_take_back_names_the_step_it_takes_back(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    duel(db, "percentile", foe_side="npc")
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        if fight.view().acting[0] != "hero":
            fight.execute(fight.ruleset.command({"action": "next"}))
    with phones(db, ("hero",)) as table:
        sent = table.tap("hero", action="attack", targets=["foe"], dice=[95, 5])
        assert sent.status_code == 200, sent.text
        panel = table.panel("hero")
    # an outside table tester: the button carried the whole sentence, every roll in it,
    # nine lines tall after a kill; it says the step as the TV's log line does
    said, whole = headlines(db), sentences(db, players=True)
    assert len(said[-1]) < len(whole[-1]), (said[-1], whole[-1])
    button = re.search(r'<button type="button" id="undo"[^>]*>(.*?)</button>', panel, re.S)
    assert button, panel
    head = said[-1].partition(": ")[0]  # who did what; what came of it is the log's
    assert " ".join(html.unescape(button[1]).split()) == f"Take back: {head} (step {len(said)})"


def test_a_take_back_is_the_steps_first_clause_without_how_long_its_effects_last(
    tmp_path: Path,
) -> None:
    """A cleric's take-back after bless read "Take back: cleric casts bless on ilse and
    cleric: cleric is concentrating for 10 rounds (step 6)": the headline's outcome, with
    how long the effect lasts, made the button two lines long on a phone."""
    db = tmp_path / "fight.db"
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="Bless", encounter="fight")
        cast = (("cleric", "cleric", "pc"), ("ilse", "wizard", "pc"), ("gob", "goblin", "npc"))
        for who, kind, side in cast:
            do(fight, {"action": "join", "combatant": who, "sheet": srd_sample(kind), "side": side})
        do(fight, {"action": "begin"}, [20, 10, 1])
    with phones(db, ("cleric",)) as table:
        step = {"action": "cast", "targets": ["ilse", "cleric"], "fields": {"spell": "bless"}}
        sent = table.tap("cleric", **step)
        assert sent.status_code == 200, sent.text
        panel = table.panel("cleric")
    said = headlines(db)
    assert "10 rounds" in said[-1], said[-1]  # the TV's log line says how long
    button = re.search(r'<button type="button" id="undo"[^>]*>(.*?)</button>', panel, re.S)
    assert button, panel
    assert " ".join(html.unescape(button[1]).split()) == (
        f"Take back: cleric casts bless on ilse and cleric (step {len(said)})"
    )


# The character's own step that rolls nothing, as a phone taps it: a move where the
# ruleset has one (pool's nearest: a quick action).
OWN_MOVES: dict[str, dict[str, Any]] = {
    "percentile": {"action": "move"},
    "fudge": {"action": "move"},
    "pool": {"action": "quick"},
    "shotclock": {"action": "run", "fields": {"metres": 5}},
    "timeslice": {"action": "move", "fields": {"units": 1}},
    "srd": {"action": "move", "fields": {"feet": 10}},
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phones_latest_is_the_characters_own_move(tmp_path: Path, ruleset: str) -> None:
    """An outside table tester: after moving, the phone still said the foe's attack before
    it; a step the player took is the latest for them."""
    db = foe_has_attacked(tmp_path, ruleset)
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        while fight.view().acting != ["hero"]:
            fight.execute(fight.ruleset.command({"action": "next"}))
    with phones(db, ("hero",)) as table:
        sent = table.tap("hero", **OWN_MOVES[ruleset])
        assert sent.status_code == 200, sent.text
        line = latest(table.panel("hero"))
    said = headlines(db)
    assert " ".join(said[-1].split()) in " ".join(line.split()), (said[-1], line)
    assert f"step {len(said)}" in line


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phone_never_gives_a_join_as_its_latest(tmp_path: Path, ruleset: str) -> None:
    """An outside table tester: the phone's first line was "hero (pc) joins the fight", no
    news to the one who plays hero; until something concerns the character, no line. A
    join of another mid-fight is no news either."""
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    (_, mine), _ = cast_of(ruleset)
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        fight.execute(
            fight.ruleset.command(
                {"action": "join", "combatant": "ally", "sheet": mine, "side": "pc"}
            )
        )
    with phones(db, ("hero", "ally")) as table:
        for who in ("hero", "ally"):
            panel = table.panel(who)
            assert 'id="latest"' not in panel, latest(panel)


def latest_or_none(panel: str) -> str | None:
    return latest(panel) if 'id="latest"' in panel else None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phones_latest_says_a_step_on_its_character_was_taken_back(
    tmp_path: Path, ruleset: str
) -> None:
    """Issue 37 (an outside tester): once the GM took back the foe's attack on hero, or the
    player their own move, the phone's "Latest for you" still read like the step undone
    (the line before it, in some rulesets nothing at all). It says the take-back: "Taken
    back:" and who did what, at the take-back's step."""
    db = foe_has_attacked(tmp_path, ruleset)
    attack = headlines(db)[-1].partition(": ")[0]
    with phones(db, ("hero",)) as table:
        fracas(db, "undo")
        said = headlines(db)
        line = " ".join((latest_or_none(table.panel("hero")) or "").split())
        assert f"step {len(said)} Taken back: {attack}" in line, (said[-2:], line)
        with Fracas(str(db)) as log:
            fight = log.encounter("fight")
            while fight.view().acting != ["hero"]:
                fight.execute(fight.ruleset.command({"action": "next"}))
        sent = table.tap("hero", **OWN_MOVES[ruleset])
        assert sent.status_code == 200, sent.text
        moved = headlines(db)[-1].partition(": ")[0]
        sent = table.tap("hero", action="undo")
        assert sent.status_code == 200, sent.text
        said = headlines(db)
        line = " ".join((latest_or_none(table.panel("hero")) or "").split())
        assert f"step {len(said)} Taken back: {moved}" in line, (said[-3:], line)
