"""An outside table tester's TV (issue 37): the short headline of an srd attack read "wren
attacks gob: 15 damage", the attack's verb whatever came of it. A headline says what the
step came to in the ruleset's own words: "wren hits gob: 15 damage", "wren misses gob";
a ruleset that gives no such words keeps its action's verb."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.replay import timeline
from fracas.rules import Encounter
from tests.casts.fudge import a, declare_turn, fudge_fight
from tests.casts.pool import pool_fight
from tests.casts.timeslice import ts_fight
from tests.support import do, fight, gunner, sheet, srd_sample

pytestmark = pytest.mark.sqlite_file


def yard(log: Fracas) -> Encounter:
    """Wren the rogue, first to act, and a goblin of 60 hit points."""
    e = log.new("srd", title="The yard", encounter="fight")
    do(e, {"action": "join", "combatant": "wren", "sheet": srd_sample("rogue"), "side": "pc"})
    goblin = srd_sample("goblin", hp=60)
    do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
    do(e, {"action": "begin"}, [20, 1])
    return e


def attack_headline(tmp_path: Path, d20: int) -> str:
    db = tmp_path / "yard.db"
    with Fracas(str(db)) as log:
        e = yard(log)
        attack = {"action": "attack", "actor": "wren", "targets": ["gob"], "weapon": "shortsword"}
        do(e, attack, [d20, 3] if d20 >= 10 else [d20])
        steps = [m.step for m in timeline(log.encounter("fight"), players=True)]
    return steps[-1].headline or steps[-1].sentence


def test_an_srd_hit_reads_hits_in_the_headline(tmp_path: Path) -> None:
    assert attack_headline(tmp_path, 15) == "wren hits gob: 6 damage"


def test_an_srd_miss_reads_misses_in_the_headline_once(tmp_path: Path) -> None:
    assert attack_headline(tmp_path, 2) == "wren misses gob"


def test_an_srd_opportunity_attack_is_named_in_the_headline(tmp_path: Path) -> None:
    """The table read "wren hits gob: 6 damage" on the goblin's own turn: nothing said it
    was wren's reaction to the goblin running (srd-18), not a turn of hers."""
    db = tmp_path / "yard.db"
    with Fracas(str(db)) as log:
        e = yard(log)
        do(e, {"action": "next"})
        do(e, {"action": "move", "actor": "gob", "feet": 25})
        swing = {"action": "opportunity", "actor": "wren", "targets": ["gob"]}
        do(e, swing, [15, 3])
        steps = [m.step for m in timeline(log.encounter("fight"), players=True)]
    headline = steps[-1].headline or steps[-1].sentence
    assert "opportunity attack" in headline and "6 damage" in headline, headline


def cast_headline(tmp_path: Path, spell: str, dice: list[int]) -> str:
    """A cleric's spell on a goblin (DC 13), as the TV's log reads it."""
    db = tmp_path / "chapel.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The chapel", encounter="fight")
        do(e, {"action": "join", "combatant": "mae", "sheet": srd_sample("cleric"), "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(e, {"action": "begin"}, [20, 1])
        do(e, {"action": "cast", "actor": "mae", "spell": spell, "targets": ["gob"]}, dice)
        steps = [m.step for m in timeline(log.encounter("fight"), players=True)]
    return steps[-1].headline or steps[-1].sentence


def test_an_srd_save_spell_saved_says_so_in_the_headline(tmp_path: Path) -> None:
    # issue 37: it read "mae casts sacred flame on gob", the save (21 vs DC 13) unsaid
    assert cast_headline(tmp_path, "sacred flame", [19]) == (
        "mae casts sacred flame on gob: gob saves, no damage"
    )


def test_an_srd_save_spell_failed_says_so_in_the_headline(tmp_path: Path) -> None:
    assert cast_headline(tmp_path, "sacred flame", [2, 5]) == (
        "mae casts sacred flame on gob: gob fails, 5 damage"
    )


def test_an_srd_save_spell_failed_says_the_condition_it_set(tmp_path: Path) -> None:
    assert cast_headline(tmp_path, "hold person", [2]) == (
        "mae casts hold person on gob: gob fails, paralysed"
    )


def test_an_srd_save_spell_saved_that_deals_no_damage_says_only_the_save(tmp_path: Path) -> None:
    assert cast_headline(tmp_path, "hold person", [19]) == "mae casts hold person on gob: gob saves"


def test_an_srd_save_spell_on_two_says_each_ones_save_and_damage(tmp_path: Path) -> None:
    """Burning hands (half on a save) on two goblins: one saves, one fails (srd-25, srd-31)."""
    db = tmp_path / "heath.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The heath", encounter="fight")
        do(e, {"action": "join", "combatant": "ilse", "sheet": srd_sample("wizard"), "side": "pc"})
        for gob in ("gob", "bob"):
            do(
                e,
                {
                    "action": "join",
                    "combatant": gob,
                    "sheet": srd_sample("goblin", hp=60),
                    "side": "npc",
                },
            )
        do(e, {"action": "begin"}, [20, 1, 2])
        flames = {
            "action": "cast",
            "actor": "ilse",
            "spell": "burning hands",
            "targets": ["gob", "bob"],
        }
        do(e, flames, [19, 2, 3, 3, 3])
        steps = [m.step for m in timeline(log.encounter("fight"), players=True)]
    assert (
        steps[-1].headline == "ilse casts burning hands: gob saves, 4 damage; bob fails, 9 damage"
    )


def last_headline(encounter: Encounter) -> str:
    steps = [m.step for m in timeline(encounter, players=True)]
    return steps[-1].headline or steps[-1].sentence


def test_a_percentile_dodge_is_said_in_the_headline(tmp_path: Path) -> None:
    """000-13: bob's own dodge roll (90 against 30%) is his; the headline said only "alice
    attacks bob: 5 damage"."""
    with Fracas(str(tmp_path / "alley.db")) as log:
        e = fight(log, ("alice", gunner(14)), ("bob", sheet(10, hp=30)))
        shot = {"action": "attack", "actor": "alice", "targets": ["bob"], "weapon": "pistol"}
        do(e, {**shot, "defence": {"bob": "dodge"}}, [30, 90, 5])
        assert last_headline(e) == "alice attacks bob: bob's dodge (failure), 5 damage"


def test_a_pool_parry_is_said_in_the_headline(tmp_path: Path) -> None:
    """004-11: bob's parry pool against ana's sword is his own roll."""
    with Fracas(str(tmp_path / "yard.db")) as log:
        e = pool_fight(log)
        cut = {"action": "attack", "actor": "ana", "targets": ["bob"], "weapon": "sword"}
        do(e, {**cut, "defence": {"bob": "parry"}}, [10, 9, 9, 2, 1, 9, 4, 3, 2])
        assert last_headline(e) == "ana attacks bob: bob's parry (partial success), 3 damage"


@pytest.mark.parametrize(
    ("dice", "said"),
    [
        ([1, 2, 5, 5], "alice attacks orc: misses and may move 1 unit free, uninterrupted; "
         "orc's dodge holds"),
        ([9, 9, 1, 1], "alice attacks orc: orc's dodge fails, 8 damage"),
    ],
)  # fmt: skip
def test_a_timeslice_defence_is_said_in_the_headline(
    tmp_path: Path, dice: list[int], said: str
) -> None:
    """002-23: the orc's dodge is its own roll; the headline said "8 damage" alone."""
    with Fracas(str(tmp_path / "field.db")) as log:
        e = ts_fight(log)
        do(e, {"action": "attack", "actor": "alice", "targets": ["orc"]}, dice)
        assert last_headline(e) == said


def test_a_fudge_dodge_is_said_in_the_headline_of_the_step_that_resolves_it(
    tmp_path: Path,
) -> None:
    """003-1: cy's dodge is cy's own roll, made as the table moves on and ana's declared
    attack resolves; the headline said "cy takes 8" alone."""
    with Fracas(str(tmp_path / "bar.db")) as log:
        e = fudge_fight(log)
        declare_turn(e, ana=[a("attack", "cy", weapon="pistol")])
        do(e, {"action": "next"}, [1, 1, 0, 0, -1, 0, 0, 0])
        assert last_headline(e) == "The table moves on: cy's dodge (defence 0), takes 8"
