"""What a creature carries from fight to fight (the party) and its rests: Hit Dice on a
short one (srd-58), everything on a long one (srd-59)."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fracas.cli.main import cli
from fracas.rules.api import (
    ConditionCleared,
    ConditionSet,
    Healed,
    Note,
    RefusedError,
    Rolled,
    Spent,
)
from srd_table import Table, condition, fight, of, sample

from fracas_srd.ruleset import RULESET
from fracas_srd.slots import slots_left


def carried_into_a_new_fight(t: Table, who: str, kind: str) -> Table:
    """`who` joined to a fresh table and carried over as they stand in `t`."""
    standing = RULESET.standing_of(t.state, who)
    fresh = Table()
    fresh.join(who, sample(kind), "pc")
    fresh.do({"action": "party.carry", "target": who, "source": "ambush", "standing": standing})
    return fresh


def test_a_creature_carries_hp_temp_hp_death_saves_slots_and_lasting_conditions():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), ("gob", "goblin"))
    t.act("maelis", "cast", "brannoc", faces=(5, 3), spell="cure wounds", level=2)
    t.do({"action": "gm.heal", "target": "maelis", "amount": 5, "temp": True})
    t.do({"action": "gm.harm", "target": "maelis", "amount": 30})  # 5 temp, then 24: at 0
    condition(t, "maelis", "exhausted")
    condition(t, "maelis", "blessed", rounds=10)
    condition(t, "maelis", "grappled")
    before = t.who("maelis")
    assert before.hp == 0 and before.has("dying")
    again = carried_into_a_new_fight(t, "maelis", "cleric").who("maelis")
    assert (again.hp, again.temp_hp) == (0, 0)
    assert (again.successes, again.failures) == (before.successes, before.failures)
    assert slots_left(again, 2) == 1 and slots_left(again, 1) == 4
    assert {"dying", "unconscious", "exhausted"} <= set(again.conditions)
    assert not {"blessed", "grappled", "prone"} & set(again.conditions)


def test_a_condition_held_by_a_grapple_or_ended_by_a_save_at_a_turn_s_end_stays_in_the_fight():
    """A roper's tendril grapples and restrains Brannoc while the grapple lasts; a bite
    leaves him poisoned until a save at the end of one of his turns: none of it outlasts
    the fight (it has no turns left), as exhaustion set by hand does."""
    t = Table()
    t.join("roper", RULESET.monsters.find("roper").sheet)
    t.join("brannoc", sample("fighter"), "pc")
    t.do({"action": "begin"}, 20, 2)
    t.act("roper", "attack", "brannoc", faces=(15,), weapon="tendril", within_5ft=False)
    save_ends = {"by": "roper", "save_ends": {"ability": "con", "dc": 10}}
    t.apply([ConditionSet("brannoc", "poisoned", "a bite", save_ends)])
    condition(t, "brannoc", "exhausted")
    assert {"grappled", "restrained", "poisoned"} <= set(t.who("brannoc").conditions)
    again = carried_into_a_new_fight(t, "brannoc", "fighter").who("brannoc")
    assert set(again.conditions) == {"exhausted"}


def rest(t: Table, who: str, kind: str, *faces: int, spend: int = 0):
    return t.do({"action": "party.rest", "target": who, "kind": kind, "spend": spend}, *faces)


def test_srd_58_a_short_rest_spends_the_hit_dice_the_gm_says():
    t = Table()
    t.join("brannoc", sample("fighter"), "pc")  # level 3, d10 Hit Dice, Con 14 (+2)
    t.do({"action": "gm.harm", "target": "brannoc", "amount": 20})  # 8 of 28
    out = rest(t, "brannoc", "short", 4, 1, spend=2)  # 4+2, 1+2: two of three
    assert [r.roll.dice for r in of(out, Rolled)] == ["d10"] * 2
    assert [h.amount for h in of(out, Healed)] == [6, 3]
    assert [s.reason for s in of(out, Spent)] == ["2 of 3 left", "1 of 3 left"]
    assert t.who("brannoc").hp == 17 and t.who("brannoc").hit_dice_spent == 2
    out = rest(t, "brannoc", "short", 10, spend=1)  # 12, of which 1 is lost: 28 at most
    assert [h.amount for h in of(out, Healed)] == [11] and t.who("brannoc").hp == 28
    out = rest(t, "brannoc", "short")  # none said: none spent
    assert "spends no Hit Dice" in of(out, Note)[0].text and t.who("brannoc").hit_dice_spent == 3
    t.do({"action": "gm.harm", "target": "brannoc", "amount": 5})
    with pytest.raises(RefusedError, match="brannoc has no Hit Dice left of 3"):
        rest(t, "brannoc", "short", 5, spend=1)


def test_srd_58_no_hit_die_is_spent_on_a_creature_at_full_hit_points():
    t = Table()
    t.join("brannoc", sample("fighter"), "pc")  # 28 of 28
    with pytest.raises(RefusedError, match=r"brannoc is at full hit points, 28 of 28: .*none"):
        rest(t, "brannoc", "short", 4, 1, 1, spend=3)
    assert t.who("brannoc").hit_dice_spent == 0
    t.do({"action": "gm.harm", "target": "brannoc", "amount": 1})
    out = rest(t, "brannoc", "short", 4, spend=1)  # one hit point down: the die may be spent
    assert [h.amount for h in of(out, Healed)] == [1] and t.who("brannoc").hit_dice_spent == 1


def test_srd_58_a_hit_die_gives_at_least_0_and_no_more_are_spent_than_are_left():
    t = Table()
    t.join("bob", sample("fighter", con=3, level=2), "pc")  # Con 3 (-4)
    t.do({"action": "gm.harm", "target": "bob", "amount": 10})
    with pytest.raises(RefusedError, match="bob has 2 Hit Dice left of 2: spend at most 2"):
        rest(t, "bob", "short", 1, 1, 1, spend=3)
    out = rest(t, "bob", "short", 1, 9, spend=2)  # 1-4 gives 0, not less; 9-4 gives 5
    assert [r.result for r in of(out, Rolled)] == ["regains 0", "regains 5"]
    assert [h.amount for h in of(out, Healed)] == [5]
    gob = Table()
    gob.join("gob", sample("goblin"))
    with pytest.raises(RefusedError, match="has no Hit Dice"):
        rest(gob, "gob", "short", 3, spend=1)


def test_srd_59_a_long_rest_gives_back_hp_slots_and_half_the_hit_dice():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "maelis", faces=(5, 3), spell="cure wounds", level=2)
    t.do({"action": "gm.harm", "target": "maelis", "amount": 10})
    rest(t, "maelis", "short", 1, 1, 1, spend=3)  # three d8s of 1 (+2 Con): all three
    assert t.who("maelis").hit_dice_spent == 3
    rest(t, "maelis", "long")
    after = t.who("maelis")
    assert after.hp == after.hp_max == 24
    assert slots_left(after, 2) == 2
    assert after.hit_dice_spent == 2  # half of 3 is 1 (at least one) regained


def test_no_rest_while_a_member_is_dying_but_a_stable_creature_wakes_with_1():
    """A dying member keeps the whole party from resting, short or long, until stabilised
    or healed (srd-14, srd-16); stable at 0, a long rest gives 1 hit point (srd-59)."""
    t = Table()
    t.join("brannoc", sample("fighter"), "pc")
    t.join("maelis", sample("cleric"), "pc")
    t.do({"action": "gm.harm", "target": "brannoc", "amount": 28})
    t.do({"action": "gm.harm", "target": "maelis", "amount": 5})
    assert t.who("brannoc").has("dying")
    said = (
        r"^brannoc is dying at 0 hit points: no rest while a member of the party is dying; "
        r"heal brannoc first \(`fracas party heal brannoc 1`\) or reopen the fight and "
        r"stabilise brannoc \(`fracas act ID stabilise brannoc`, srd-16\)$"
    )
    for who, kind, spend, faces in [
        ("maelis", "short", 1, (4,)),
        ("maelis", "long", 0, ()),
        ("brannoc", "long", 0, ()),
    ]:
        with pytest.raises(RefusedError, match=said):
            rest(t, who, kind, *faces, spend=spend)
    stable = [
        ConditionCleared("brannoc", "dying", "three successes"),
        ConditionSet("brannoc", "stable", "three successes"),
    ]
    t.apply(stable)  # as three successful death saves leave it (srd-14)
    rest(t, "brannoc", "long")
    assert t.who("brannoc").hp == 1


def test_the_party_shows_hit_dice_left_and_a_long_rest_says_what_it_gave_back(tmp_path):
    """`fracas party` shows the Hit Dice left beside the hit points; a long rest says how
    many it gave back (half the level, 1 at least: srd-59)."""
    fighter = Path(__file__).parents[1] / "fracas_srd" / "samples" / "fighter.toml"
    worn = tmp_path / "brannoc.toml"
    worn.write_text("hp_now = 10\nhit_dice_spent = 2\n" + fighter.read_text())
    db, runner = str(tmp_path / "t.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == 0, done.output
        return done.output

    run("party", "add", "brannoc", "-r", "srd", "--sheet", str(worn))
    assert "HP 10/28, Hit Dice 1/3" in run("party")
    rested = run("party", "rest", "long")
    assert "1 Hit Die back, 2 of 3 left" in rested
    assert "HP 28/28, Hit Dice 2/3" in run("party")


def test_the_report_says_a_character_died_of_failed_death_saves(tmp_path):
    """The session report's Fell line says how a fall ended: Wren, dropped by the GM's
    harm, is dead of three failed death saves two turns later."""
    rogue = Path(__file__).parents[1] / "fracas_srd" / "samples" / "rogue.toml"
    goblin = rogue.with_name("goblin.toml")
    db, runner = str(tmp_path / "t.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == 0, done.output
        return done.output

    run("new", "-r", "srd", "--id", "cave")
    run("add", "gob", "--sheet", str(goblin))
    run("add", "wren", "--sheet", str(rogue), "--side", "pc", "--name", "Wren")
    run("begin", "--dice", "20,2")
    run("harm", "wren", "21", "--reason", "an ogre's club")  # 0 of 21: dying
    run("next", "--dice", "1")  # her turn, her death save: a natural 1, two failures
    run("next")  # the goblin's turn, round 2
    run("next", "--dice", "4")  # hers again: the third failure, dead
    report = run("export", "--format", "md", "--for", "gm")
    fell = next(line for line in report.splitlines() if "**Fell:**" in line)
    assert "Wren, dying (dropped to 0 HP) by the GM (Round 1, step 5)" in fell, fell
    assert "then dead: three death save failures (Round 2, step 8)" in fell, fell
    assert "put down" not in fell, fell


def test_the_report_says_a_character_carried_in_dying_died_of_failed_death_saves(tmp_path):
    """Wren ends the ambush dying and comes into the next fight so: the report of that
    fight says she died there of failed death saves, where its Fell line said nobody."""
    rogue = Path(__file__).parents[1] / "fracas_srd" / "samples" / "rogue.toml"
    db, runner = str(tmp_path / "t.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == 0, done.output
        return done.output

    run("party", "add", "wren", "-r", "srd", "--sheet", str(rogue), "--name", "Wren")
    run("new", "--party", "--id", "ambush")
    run("add", "gob", "--monster", "goblin", "-e", "ambush")
    run("begin", "-e", "ambush", "--dice", "20,1")
    run("harm", "wren", "21", "-e", "ambush")  # dying
    run("end", "-e", "ambush")
    run("new", "--party", "--id", "cave")
    run("add", "gob", "--monster", "goblin", "-e", "cave")
    run("begin", "-e", "cave", "--dice", "20,2,1")  # her death save: a natural 1
    run("next", "-e", "cave")
    run("next", "-e", "cave", "--dice", "1")  # the third failure: dead
    report = run("export", "-e", "cave", "--format", "md", "--for", "gm")
    fell = next(line for line in report.splitlines() if "**Fell:**" in line)
    assert "Wren, dead: three death save failures (Round 1, step 7)" in fell, fell


def test_innate_spells_a_day_spent_in_one_fight_stay_spent_in_the_next_until_a_long_rest(
    tmp_path,
):
    """An oni in the party casts its cone of cold (1/day) in the first fight: in the next it
    has none left, as a spent slot would be; a long rest gives it back."""
    db, runner = str(tmp_path / "t.db"), CliRunner()

    def run(*args: str, code: int = 0) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == code, done.output
        return done.output

    def fight_with_a_cone_of_cold(code: int = 0) -> str:
        fight = run("new", "--party").split()[0]
        run("add", "gob", "--monster", "goblin", "-e", fight)
        run("begin", "--dice", "20,1", "-e", fight)
        cast = run("act", "oni", "cast", "gob", "-o", "spell=cone of cold", "-e", fight, code=code)
        run("end", "-e", fight)
        return cast

    run("party", "add", "oni", "-r", "srd", "--monster", "oni")
    assert "cone of cold 1/1 today" in run("party")
    assert "Oni spends 1 innate use: cone of cold" in fight_with_a_cone_of_cold()
    refused = fight_with_a_cone_of_cold(code=1)
    assert "has cast cone of cold its 1 time a day (innate spellcasting)" in refused
    run("party", "rest", "long")
    assert "Oni spends 1 innate use: cone of cold" in fight_with_a_cone_of_cold()


def test_the_uses_left_of_an_innate_spell_a_day_show_where_slots_do(tmp_path):
    """The oni's cone of cold (1/day), once cast, shows 0 of 1 left in `fracas party`,
    in `status` and on the GM's page of the next fight, and in `--json`; a long rest shows
    it back."""
    from fracas.cli.serve import Table as Served
    from fracas.cli.serve import build
    from starlette.testclient import TestClient

    db, runner = str(tmp_path / "t.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args], env={"COLUMNS": "200"})
        assert done.exit_code == 0, done.output
        return done.output

    run("party", "add", "oni", "-r", "srd", "--monster", "oni")
    assert "cone of cold 1/1 today" in run("party")
    run("new", "--party", "--id", "road")
    run("add", "gob", "--monster", "goblin")
    run("begin", "--dice", "20,1")
    assert "cone of cold 1/1 today" in run("status")
    run("act", "oni", "cast", "gob", "-o", "spell=cone of cold")
    assert "cone of cold 0/1 today" in run("status")
    run("end")
    listed = run("party")
    assert re.search(r"HP 110/110, charm person 1/1 today, cone of cold 0/1 today", listed)
    run("new", "--party", "--id", "den")
    assert "cone of cold 0/1 today" in run("status")
    [oni] = [w for w in json.loads(run("status", "--json"))["wounds"] if w["combatant"] == "oni"]
    assert oni["detail"]["innate_left"]["cone of cold"] == 0
    with TestClient(build(Served(db, "gm-token"))) as client:
        page = client.get("/gm/e/den", headers={"X-Fracas-Token": "gm-token"}).text
    assert "cone of cold 0/1 today" in page
    run("end")
    run("party", "rest", "long")
    assert "cone of cold 1/1 today" in run("party")


def test_fracas_party_shows_the_party_between_fights_without_what_ended_with_the_fight(tmp_path):
    """Maelis blesses Brannoc and herself (concentration, 10 rounds) and the fight ends:
    `fracas party` shows neither blessed nor concentrating, as the next fight will bring them
    in, and Maelis's spent slot still spent."""
    db, runner = str(tmp_path / "t.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args], env={"COLUMNS": "200"})
        assert done.exit_code == 0, done.output
        return done.output

    samples = Path(__file__).parents[1] / "fracas_srd" / "samples"
    run("party", "add", "maelis", "-r", "srd", "--sheet", str(samples / "cleric.toml"))
    run("party", "add", "brannoc", "--sheet", str(samples / "fighter.toml"))
    fight = run("new", "--party").split()[0]
    run("add", "gob", "--monster", "goblin", "-e", fight)
    run("begin", "--dice", "20,1,1", "-e", fight)
    run("act", "maelis", "cast", "brannoc", "maelis", "-o", "spell=bless", "-e", fight)
    assert "under bless" in run("status", "-e", fight)
    run("end", "-e", fight)
    listed = run("party")
    assert "bless" not in listed and "rounds left" not in listed
    assert "HP 24/24, slots 1st 3/4 · 2nd 2/2, Hit Dice 3/3" in listed
    run("new", "--party")
    assert run("party").count("bless") == 0


def test_srd_58_a_hit_die_face_refused_says_whose_and_counts_in_english(tmp_path):
    """It said '8 is not a face of d6 (for the hit die)' of a party of two, and '2 faces for
    1 dice spent' (an outside 5e GM, issue 40)."""
    samples = Path(__file__).parents[1] / "fracas_srd" / "samples"
    worn = tmp_path / "brannoc.toml"
    worn.write_text("hp_now = 10\n" + (samples / "fighter.toml").read_text())
    db, runner = str(tmp_path / "t.db"), CliRunner()

    def run(*args: str, code: int = 0) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == code, done.output
        return done.output

    run("party", "add", "brannoc", "-r", "srd", "--sheet", str(worn))
    said = run("party", "rest", "short", "--spend", "brannoc=1", "--dice", "11", code=1)
    assert "11 is not a face of d10 (for the Hit Die of brannoc)" in said, said
    said = run("party", "rest", "short", "--spend", "brannoc=1", "--dice", "5,6", code=1)
    assert said.startswith("Error: --dice gave 2 faces for 1 die spent (brannoc 1)"), said
    assert "HP 10/28, Hit Dice 3/3" in run("party")
