"""An outside 5e tester's fights through the CLI (issue 40, its second list): guidance and
resistance spent when the target chooses (srd-81, srd-82), a spell srd does not know named
alone, concentration on every spell that needs it (srd-26), Second Wind, and the lines a GM
reads when a command is refused."""

from pathlib import Path

import pytest
from fracas.rules.api import ConditionSet, Resolved
from srd_cli import SAMPLES, Gm, fight, gm_on, monster, ok, refused, written
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
    assert "a spell srd does not play is cast from the sheet with its level" in out, out
