"""An outside 5e tester's fights through the CLI (issue 40, its second list): guidance and
resistance spent when the target chooses (srd-81, srd-82), a spell srd does not know named
alone, concentration on every spell that needs it (srd-26), Second Wind, and the lines a GM
reads when a command is refused."""

import json
from pathlib import Path

import pytest
from fracas.rules.api import ConditionSet, Resolved
from srd_cli import SAMPLES, Gm, fight, gm_on, monster, ok, refused, sample, written
from srd_table import Middling, Table
from srd_table import sample as sheet_of

from fracas_srd.spellbook import spellbook


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    return gm_on(tmp_path / "tester.db")


def row(gm: Gm, name: str) -> str:
    """The combatant's row of `fracas status`."""
    return next(line for line in ok(gm, "status").splitlines() if f" {name}  " in line)


def cleric_with(tmp_path: Path, more: str) -> str:
    """The sample cleric's sheet with level 3 slots and these spells more."""
    text = (SAMPLES / "cleric.toml").read_text().replace("slots = [4, 2]", "slots = [4, 2, 2]")
    return text + more


SPIRIT_GUARDIANS = '\n[[spells]]\nname = "spirit guardians"\nlevel = 3\nconcentration = true\n'


def test_srd_26_a_spell_srd_does_not_play_cast_with_concentration_starts_it(tmp_path):
    """Spirit guardians, written with its level and concentration, did nothing srd plays
    and recorded no concentration: bless held on after it."""
    gm = fight(
        tmp_path / "guard.db", "The guard", "19,2",
        written(tmp_path, "cl", cleric_with(tmp_path, SPIRIT_GUARDIANS), "Maelis"),
        monster("gob", "goblin"),
    )  # fmt: skip
    ok(gm, "act", "cl", "cast", "cl", "-o", "spell=bless", "--dice", "")
    assert "concentrating" in row(gm, "Maelis")
    ok(gm, "next")
    ok(gm, "next")
    out = ok(gm, "act", "cl", "cast", "gob", "-o", "spell=spirit guardians")
    assert "concentrating" in out and "spirit guardians" in out.split("concentrating", 1)[1]
    assert "under bless" not in row(gm, "Maelis"), out
    assert "concentrating" in row(gm, "Maelis")


CONCENTRATING = sorted(name for name, spell in spellbook().items() if spell.get("concentration"))


@pytest.mark.parametrize("name", CONCENTRATING)
def test_srd_26_every_concentration_spell_of_the_spellbook_starts_concentration(name):
    spell = spellbook()[name]
    caster = sheet_of("wizard", int=20, level=20, slots=[4, 3, 3, 3, 3, 2, 1, 1, 1],
                      spells=[spell])  # fmt: skip
    t = Table()
    t.join("ilse", caster, "pc")
    t.join("ally", sheet_of("fighter"), "pc")
    t.join("gob", sheet_of("goblin"), "npc")
    t.do({"action": "begin"}, 20, 10, 2)
    harmful = spell.get("save") or spell.get("condition") or spell.get("attack")
    targets = [] if spell.get("on_self") else ["gob"] if harmful else ["ally"]
    if spell.get("hp_pool") or (not spell.get("targets") and not spell.get("on_self")):
        targets = ["gob"] if harmful else ["ally"]
    data = {"action": "cast", "actor": "ilse", "spell": name, "targets": targets}
    events = t.decide(data, Middling())
    held = [e for e in events if isinstance(e, ConditionSet) and e.condition == "concentrating"]
    unheld = [e for e in events if isinstance(e, Resolved) and "no concentration" in e.outcome]
    assert held or unheld, [str(e) for e in events]


def test_a_spell_srd_does_not_know_named_alone_is_left_off_the_sheet_and_refused(tmp_path):
    """A sheet's spell srd does not know, with no level, was cast as a cantrip with an
    action, silently: `add` says it is left off and how to write it, and casting it is
    refused in one line naming the sheet's spell close to it and how to write it."""
    db = tmp_path / "guard.db"
    gm = gm_on(db)
    ok(gm, "new", "-r", "srd", "--id", "guard", "--title", "The guard")
    more = '\n[[spells]]\nname = "magic missle"\n'
    said = ok(gm, *written(tmp_path, "ilse", (SAMPLES / "wizard.toml").read_text() + more, "Ilse"))
    line = next(x for x in said.splitlines() if "magic missle" in x)
    assert "did you mean magic missile?" in line and "left off" in line, line
    assert "level = 1" in line and "concentration = true" in line, line
    ok(gm, *monster("gob", "goblin"))
    ok(gm, "begin", "--dice", "19,2")
    out = refused(gm, "act", "ilse", "cast", "gob", "-o", "spell=magic missle")
    assert "no spell 'magic missle' on the sheet (did you mean magic missile?)" in out, out
    assert "a spell srd does not play is written on the sheet with its level" in out, out


def test_second_wind_heals_1d10_plus_the_fighter_level_once_until_a_short_rest(tmp_path):
    """The fighter had no Second Wind: a bonus action, 1d10 + fighter level hit points,
    once until a short or long rest (`fracas party rest short`)."""
    gm = gm_on(tmp_path / "t.db")
    ok(gm, "party", "add", "brannoc", "-r", "srd", "--sheet", str(SAMPLES / "fighter.toml"),
       "--name", "Brannoc")  # fmt: skip

    def fight_with_a_second_wind(code: int = 0) -> str:
        fight = ok(gm, "new", "--party").split()[0]
        ok(gm, "add", "gob", "--monster", "goblin", "-e", fight)
        ok(gm, "begin", "--dice", "20,1", "-e", fight)
        ok(gm, "harm", "brannoc", "12", "-e", fight)
        done, out = gm("act", "brannoc", "second_wind", "-e", fight, "--dice", "6")
        assert done == code, out
        if code == 0:
            again = refused(gm, "act", "brannoc", "second_wind", "-e", fight, "--dice", "6")
            assert "has used second wind" in again, again
        ok(gm, "end", "-e", fight)
        return out

    won = fight_with_a_second_wind()
    assert "Brannoc spends 1 bonus action: second wind" in won, won
    # 1d10 [6] + fighter level 3: 9 of the 12 lost
    assert "regains 9" in won or "heals 9" in won or "+9" in won, won
    assert "HP 25/28" in ok(gm, "party"), ok(gm, "party")
    used = fight_with_a_second_wind(code=1)
    assert "Brannoc has used second wind: a short or long rest gives it back" in used, used
    assert "(fracas party rest short)" in used, used
    rested = ok(gm, "party", "rest", "short")
    assert "second wind" in rested, rested
    fight_with_a_second_wind()


def test_second_wind_is_refused_to_a_sheet_without_it(gm):
    ok(gm, "new", "-r", "srd", "--id", "yard", "--title", "The yard")
    ok(gm, *sample("wren", "rogue", "Wren"))
    ok(gm, *monster("gob", "goblin"))
    ok(gm, "begin", "--dice", "20,1")
    said = refused(gm, "act", "wren", "second_wind")
    assert said == (
        "Error: Wren has no Second Wind on the sheet (a fighter's: [[features]] name = "
        '"second wind", heals = "1d10")'
    ), said


def test_srd_14_a_death_save_for_a_stable_creature_is_refused_saying_it_is_stable(gm):
    ok(gm, "new", "-r", "srd", "--id", "den", "--title", "The den", "-o", "death_saves=own_step")
    ok(gm, *sample("wren", "rogue", "Wren"))
    ok(gm, *monster("gob", "goblin"))
    ok(gm, "begin", "--dice", "2,19")
    ok(gm, "harm", "wren", "30")
    for _ in range(3):
        ok(gm, "next")  # the goblin's turn ends: Wren's starts, her death save its step
        ok(gm, "act", "wren", "death_save", "--dice", "12")
    assert "stable" in row(gm, "Wren")
    ok(gm, "next")
    said = refused(gm, "act", "wren", "death_save", "--dice", "12")
    assert said == (
        "Error: Wren is stable: no death saves; they wake with 1 HP after 1d4 hours or when "
        "healed (srd-14)"
    ), said


def test_srd_29_a_legendary_action_refused_says_when_the_next_comes(gm):
    ok(gm, "new", "-r", "srd", "--id", "lair", "--title", "The lair")
    for who in ("fighter", "rogue", "wizard", "cleric"):
        ok(gm, *sample(who, who, who.title()))
    ok(gm, *monster("dr", "adult red dragon"))
    ok(gm, "begin", "--dice", "20,18,16,14,2")
    ok(gm, "next")
    ok(gm, "act", "dr", "legendary", "-o", "option=detect")
    said = refused(gm, "act", "dr", "legendary", "-o", "option=detect")
    assert said == (
        "Error: Adult Red Dragon has taken a legendary action at this turn's end: one at each "
        "turn's end, the next once another creature's turn ends (srd-29)"
    ), said
    for _ in range(2):
        ok(gm, "next")
        ok(gm, "act", "dr", "legendary", "-o", "option=detect")
    ok(gm, "next")
    said = refused(gm, "act", "dr", "legendary", "-o", "option=detect")
    assert said == (
        "Error: Adult Red Dragon has 0 legendary actions left, this costs 1: they come back at "
        "the start of its turn (srd-29)"
    ), said


def test_srd_83_a_moved_mark_keeps_the_time_the_spell_has_left(tmp_path):
    """Moved to a new quarry on a later turn, hunter's mark said 600 rounds again for the
    new one, while the concentration holding it had 598 left: both have what is left."""
    sheet = cleric_with(tmp_path, '\n[[spells]]\nname = "hunter\'s mark"\n')
    gm = fight(
        tmp_path / "hunt.db", "The hunt", "19,2,1",
        written(tmp_path, "cl", sheet, "Maelis"), monster("g1", "goblin"), monster("g2", "goblin"),
    )  # fmt: skip
    ok(gm, "act", "cl", "cast", "g1", "-o", "spell=hunter's mark")
    ok(gm, "act", "cl", "attack", "g1", "--dice", "18,6,6")  # 13: the goblin is dead
    for _ in range(4):
        ok(gm, "next")  # the dead goblin's turns pass by: Maelis's turn of round 3
    moved = ok(gm, "act", "cl", "cast", "g2", "-o", "spell=hunter's mark")
    assert "Goblin (g2) is under hunter's mark for 598 rounds" in moved, moved
    assert "Maelis is concentrating for 598 rounds" in moved, moved
    wounds = json.loads(ok(gm, "status", "--json"))["wounds"]
    shown = {w["combatant"]: w["conditions"] for w in wounds}
    left = "hunter's mark (598 rounds left, ending at initiative 19)"
    held = "under hunter's mark (Maelis's concentration)"  # the duration is said once (issue 40)
    assert shown["cl"] == [f"concentrating on {left}"] and shown["g2"] == [held]


def test_a_foundry_fighters_second_wind_is_read_and_played(gm, tmp_path):
    """A Foundry VTT export's Second Wind was named as a feature the GM plays: it is the
    sheet's Second Wind now."""
    hild = json.loads((SAMPLES / "hild.foundry.json").read_text())
    hild["items"].append({"name": "Second Wind", "type": "feat", "system": {}})
    export = tmp_path / "hild.json"
    export.write_text(json.dumps(hild))
    ok(gm, "new", "-r", "srd", "--id", "yard", "--title", "The yard")
    said = ok(gm, "add", "hild", "--sheet", str(export), "--side", "pc", "--name", "Hild")
    assert "Second Wind" not in said, said
    ok(gm, *monster("gob", "goblin"))
    ok(gm, "begin", "--dice", "20,1")
    ok(gm, "harm", "hild", "12")
    out = ok(gm, "act", "hild", "second_wind", "--dice", "6")
    assert "Hild regains 9 HP" in out or "+9" in out or "9 on 1d10+3" in out, out


def test_srd_14_a_dying_creature_ends_no_turn_before_its_death_save(gm):
    """A table tester (issue 37): with option death_saves = own_step, Ilse's phone offered
    End turn beside Death save, as if the save could be let go by. The save is owed: her
    own pass is refused in one line saying what to type, nothing appended; the GM's
    `next` rolls it, as the docs say."""
    ok(gm, "new", "-r", "srd", "--id", "den", "--title", "The den", "-o", "death_saves=own_step")
    ok(gm, *sample("wren", "rogue", "Wren"))
    ok(gm, *monster("gob", "goblin"))
    ok(gm, "begin", "--dice", "2,19")
    ok(gm, "harm", "wren", "30")
    ok(gm, "next")  # the goblin's turn ends: Wren's starts, her death save its step
    said = refused(gm, "next", "wren")
    assert said == (
        "Error: Wren's turn starts with their death save: roll it first, "
        "`fracas act wren death_save` (srd-14)"
    ), said
    rolled = ok(gm, "next", "--dice", "12")  # the GM's pass rolls it, then ends the turn
    assert "death save" in rolled and "dying (1 saved, 0 failed)" in row(gm, "Wren"), rolled
