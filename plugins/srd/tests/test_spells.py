"""Saves for half (srd-25) and concentration (srd-26)."""

import pytest
from fracas.rules.api import ConditionCleared, Damaged, RefusedError, Resolved
from srd_table import Table, fight, of, rolls, sample

from fracas_srd.damage import gain_temporary
from fracas_srd.ruleset import RULESET


def test_srd_25_a_successful_save_halves_the_damage_rounded_down():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), begin=False)
    blast = {
        "name": "blast",
        "level": 1,
        "save": "dex",
        "damage": "2d6",
        "type": "thunder",
        "half": True,
    }
    t.join("sage", sample("cleric", spells=[blast]))
    t.do({"action": "begin"}, 1, 2, 20)  # the sage first
    out = t.act("sage", "cast", "brannoc", "maelis", faces=(15, 2, 4, 3), spell="blast")
    first, second = of(out, Damaged)
    assert (first.amount, second.amount) == (3, 7)  # Brannoc saved: 7 // 2; Maelis failed
    assert "srd-25" in first.rules and first.breakdown[-1].value == -4


def test_srd_25_a_save_without_half_takes_nothing():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    out = t.act("maelis", "cast", "gob", faces=(15,), spell="sacred flame")
    assert not of(out, Damaged) and of(out, Resolved)[-1].outcome == "saves against sacred flame"


def test_srd_31_the_save_is_rolled_before_the_damage():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    out = t.act("maelis", "cast", "gob", faces=(6, 5), spell="sacred flame")
    save, damage = rolls(out)
    assert (
        save.purpose.startswith("Dexterity saving throw")
        and save.roll.faces == [6]
        and "srd-31" in save.rules
    )
    assert damage.roll.dice == "1d8" and of(out, Damaged)[0].amount == 5


def burst() -> Table:
    """Maelis with a table's own spell: a Dex save for 1d8 radiant damage, none on a
    success, on any number of creatures."""
    t = Table()
    flash = {"name": "radiant burst", "save": "dex", "damage": "1d8", "type": "radiant"}
    t.join("maelis", sample("cleric", spells=[flash]), "pc")
    t.join("gob", sample("goblin")), t.join("gob2", sample("goblin"))
    t.do({"action": "begin"}, 20, 16, 12)
    return t


def test_srd_31_every_target_saves_then_one_damage_roll_none_when_all_negate():
    t = burst()
    out = t.act("maelis", "cast", "gob", "gob2", faces=(17, 16), spell="radiant burst")
    assert [r.roll.dice for r in rolls(out)] == ["d20", "d20"] and not of(out, Damaged)
    t = burst()
    out = t.act("maelis", "cast", "gob", "gob2", faces=(17, 2, 4), spell="radiant burst")
    assert [r.roll.dice for r in rolls(out)] == ["d20", "d20", "1d8"]
    assert [(e.target, e.amount) for e in of(out, Damaged)] == [("gob2", 4)]


def test_srd_31_too_few_dice_say_the_order_they_are_rolled_in():
    from fracas.rules.api import BadInputError, Context
    from fracas.rules.dice import ManualDice

    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    command = RULESET.command(
        {"action": "cast", "actor": "maelis", "targets": ["gob"], "spell": "sacred flame"}
    )
    with pytest.raises(BadInputError) as refused:
        RULESET.decide_step(t.state, command, Context(ManualDice([3], "gm"), 9))
    assert "needs a d8, after a d20 for the Dexterity saving throw against sacred flame" in str(
        refused.value
    )
    assert "srd-31" in RULESET.actions["cast"]


def hold(t, target: str = "gob", save: int = 2):
    """Maelis holds `target` (Wisdom saving throw against DC 13) and concentrates on it."""
    t.act("maelis", "cast", target, faces=(save,), spell="hold person")
    assert "paralysed" in t.who(target).conditions
    assert t.who("maelis").conditions["concentrating"]["effects"] == [[target, "paralysed"]]


def test_srd_28_a_repeated_save_names_its_ability_and_the_spell_not_the_condition():
    """An outside 5e GM (issue 40): "rolls d20 for save against paralysed (DC 13)"."""
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    hold(t)
    t.next()
    out = t.next(1)  # the goblin's turn ends: it saves again
    save = rolls(out)[-1]
    said = "Wisdom saving throw against hold person (paralysed, DC 13)"
    assert save.purpose == said, save.purpose


def test_srd_26_damage_calls_for_a_con_save_dc_10_or_half_the_damage():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), ("wyrm", "wyrm"))
    hold(t)
    t.next()
    t.next(1)  # the goblin's turn ends: its save against the hold fails (1 - 1 = 0)
    out = t.act("wyrm", "attack", "maelis", faces=(15, 5, 5, 8), weapon="bite")
    save = rolls(out)[-1]
    # 5 + 5 + 5 = 15 damage: DC 10 (half is 7). Con +2: 8 + 2 = 10 keeps it.
    assert save.purpose == "concentration on hold person (DC 10)" and "srd-26" in save.rules
    assert save.target == 10 and "concentrating" in t.who("maelis").conditions


def test_srd_26_a_failed_save_ends_the_concentration_and_what_it_holds():
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"), ("gob", "goblin"))
    hold(t)
    t.next()
    out = t.act("wyrm", "attack", "maelis", faces=(15, 5, 5, 7), weapon="bite")
    cleared = [(e.target, e.condition) for e in of(out, ConditionCleared)]
    assert cleared == [("maelis", "concentrating"), ("gob", "paralysed")]


def test_srd_26_in_a_multiattack_a_save_after_each_hit():
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"), ("gob", "goblin"))
    hold(t)
    t.next()
    # bite (2d10), claw (2d6), claw: each hit 1 + 1 + 5 = 7, each followed by its save.
    out = t.act("wyrm", "multiattack", "maelis", faces=(15, 1, 1, 15, 15, 1, 1, 15, 15, 1, 1, 15))
    saves = [r for r in rolls(out) if r.purpose.startswith("concentration")]
    assert len(saves) == 3 and t.who("maelis").hp == 24 - 21


def test_srd_26_damage_at_0_ends_concentration_with_no_save():
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"), ("gob", "goblin"))
    hold(t)
    t.do({"action": "gm.harm", "target": "maelis", "amount": 20}, 20)  # the save made
    t.next()
    out = t.act("wyrm", "attack", "maelis", faces=(15, 1, 1), weapon="bite")  # 7: 4 HP left
    assert not [r for r in rolls(out) if r.purpose.startswith("concentration")]
    assert "concentrating" not in t.who("maelis").conditions
    assert "paralysed" not in t.who("gob").conditions


def test_srd_26_what_temporary_hit_points_absorb_counts_as_damage_taken():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), ("wyrm", "wyrm"))
    hold(t)
    t.apply(gain_temporary(t.state, t.who("maelis"), 30, "a blessing"))
    t.next()
    t.next(5)
    out = t.act("wyrm", "attack", "maelis", faces=(15, 10, 10, 15), weapon="bite")
    # All 25 absorbed by temporary hit points, yet 25 taken: DC 12.
    assert rolls(out)[-1].target == 12 and t.who("maelis").hp == 24


def test_srd_26_immunity_leaves_no_damage_and_no_save():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), begin=False)
    t.join(
        "ember",
        sample(
            "cleric",
            immunities=["fire"],
            spells=[
                {
                    "name": "hold person",
                    "level": 2,
                    "save": "wis",
                    "condition": "paralysed",
                    "concentration": True,
                },
            ],
        ),
    )
    t.join("imp", sample("goblin", weapons=[{"name": "flame", "damage": "1d6", "type": "fire"}]))
    t.do({"action": "begin"}, 1, 2, 20, 16)  # ember, imp, gob, maelis
    t.act("ember", "cast", "gob", faces=(2,), spell="hold person")
    t.next()
    out = t.act("imp", "attack", "ember", faces=(15, 6), weapon="flame")
    assert of(out, Damaged)[0].amount == 0
    assert not [r for r in rolls(out) if r.purpose.startswith("concentration")]


def test_srd_26_a_new_concentration_ends_the_old():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), ("gob2", "goblin"))
    hold(t)
    t.next()
    t.next(1)
    t.next()
    out = t.act("maelis", "cast", "gob2", faces=(2,), spell="hold person")
    assert ("gob", "paralysed") in [(e.target, e.condition) for e in of(out, ConditionCleared)]
    assert "paralysed" in t.who("gob2").conditions


def test_srd_26_incapacity_ends_concentration():
    """srd-26: at once, as the GM sets the caster stunned, and what it held with it."""
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    hold(t)
    out = t.do({"action": "gm.condition-set", "target": "maelis", "condition": "stunned"})
    assert [(e.target, e.condition) for e in of(out, ConditionCleared)] == [
        ("maelis", "concentrating"), ("gob", "paralysed")]  # fmt: skip
    assert of(out, ConditionCleared)[0].reason == "incapacitated: hold person ends on gob"


def blessed_then_harmed_by_hand(*faces: int):
    """Maelis blesses three; the GM's arrow (8 by hand) calls for her concentration save,
    rolled at once on these faces (d20, bless's d4), as an attack's damage rolls it."""
    t = fight(("maelis", "cleric"), ("pc-ilse", "wizard"), ("pc-brannoc", "fighter"))
    t.act("maelis", "cast", "maelis", "pc-ilse", "pc-brannoc", spell="bless")
    out = t.do({"action": "gm.harm", "target": "maelis", "amount": 8, "reason": "arrow"}, *faces)
    return t, out


def blessed(t) -> list[str]:
    return [f.id for f in t.state.fighters.values() if f.has("under bless")]


def test_srd_26_harm_by_hand_rolls_the_concentration_save_at_once():
    _, out = blessed_then_harmed_by_hand(5, 1)
    save = rolls(out)[0]
    # 5 + 2 Con + 1 on bless's d4 = 8: failed, the concentration and bless end on all three.
    assert save.purpose == "concentration on bless (DC 10)" and save.result == "failure (8 vs 10)"
    [over] = [e for e in of(out, ConditionCleared) if e.condition == "concentrating"]
    assert over.reason == (
        "failed the concentration save: bless ends on maelis, pc-ilse and pc-brannoc"
    )


def test_srd_26_the_save_made_on_harm_by_hand_keeps_the_spell():
    t, _ = blessed_then_harmed_by_hand(15, 1)
    assert blessed(t) == ["maelis", "pc-ilse", "pc-brannoc"]
    out = t.act("maelis", "save", faces=(1, 1), ability="con", dc=10)  # a Con save of another cause
    assert rolls(out)[0].purpose == "Constitution saving throw (DC 10)"
    assert blessed(t) == ["maelis", "pc-ilse", "pc-brannoc"]


def test_srd_26_a_con_save_owed_nothing_leaves_the_concentration():
    t = fight(("maelis", "cleric"), ("pc-ilse", "wizard"))
    t.act("maelis", "cast", "maelis", spell="bless")
    t.act("maelis", "save", faces=(1, 1), ability="con", dc=10)
    assert blessed(t) == ["maelis"]


def test_srd_34_the_concentration_ends_when_the_spell_has_ended_on_every_target():
    t = Table()
    t.join("maelis", sample("cleric", slots=[4, 2, 2]), "pc")
    t.join("gob", sample("goblin")), t.join("gob2", sample("goblin"))
    t.do({"action": "begin"}, 20, 16, 12)
    up = {"spell": "hold person", "level": 3}  # a slot a level up: two targets, both held
    t.act("maelis", "cast", "gob", "gob2", faces=(2, 2), **up)
    t.next()
    t.next(15)  # gob saves at the end of its turn (15 - 1 vs 13): one still held
    assert t.who("maelis").has("concentrating") and t.who("gob2").has("paralysed")
    out = t.next(15)  # gob2 saves too: the spell is over, and so is the concentration
    assert not t.who("maelis").has("concentrating")
    [over] = [e for e in of(out, ConditionCleared) if e.target == "maelis"]
    assert over.reason == "hold person has ended on every target" and "srd-34" in over.rules


def test_srd_34_hold_person_ends_on_a_target_that_dies_and_with_its_last_the_concentration():
    """srd-34: the spell ends on a held creature that dies; while another is held the
    concentration lasts, and once the spell holds nobody it ends."""
    t = Table()
    t.join("maelis", sample("cleric", slots=[4, 2, 2]), "pc")
    t.join("gob", sample("goblin")), t.join("gob2", sample("goblin"))
    t.do({"action": "begin"}, 20, 16, 12)
    t.act("maelis", "cast", "gob", "gob2", faces=(2, 2), spell="hold person", level=3)
    out = t.do({"action": "gm.harm", "target": "gob", "amount": 7, "reason": "an arrow"})
    assert t.who("gob").dead and not t.who("gob").has("paralysed")
    assert ("gob", "paralysed", "hold person ends on gob, who is dead") in [
        (e.target, e.condition, e.reason) for e in of(out, ConditionCleared)
    ]
    assert t.who("maelis").has("concentrating") and t.who("gob2").has("paralysed")
    out = t.do({"action": "gm.harm", "target": "gob2", "amount": 7, "reason": "a sling"})
    assert not t.who("maelis").has("concentrating")
    assert [(e.target, e.condition) for e in of(out, ConditionCleared)][-2:] == [
        ("gob2", "paralysed"), ("maelis", "concentrating")]  # fmt: skip


def test_srd_34_a_spell_that_holds_nobody_is_not_concentrated_on():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    out = t.act("maelis", "cast", "gob", faces=(19,), spell="hold person")  # saved
    assert not t.who("maelis").has("concentrating")
    assert "hold person holds nobody: no concentration" in [e.outcome for e in of(out, Resolved)]


def test_srd_34_the_concentration_lasts_no_longer_than_the_spell():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "gob", faces=(2,), spell="hold person")
    assert t.who("maelis").conditions["concentrating"]["until"]["rounds"] == 10


@pytest.mark.parametrize(
    ("caster", "sheet", "spell"),
    [
        ("ilse", "wizard", "fire bolt"),  # a spell attack: one target
        ("maelis", "cleric", "guiding bolt"),
        ("maelis", "cleric", "sacred flame"),  # "a creature": one
        ("maelis", "cleric", "cure wounds"),
        ("maelis", "cleric", "healing word"),
    ],
)
def test_a_single_target_spell_refuses_a_second_target_in_one_line(caster, sheet, spell):
    t = fight((caster, sheet), ("gob", "goblin"), ("gob2", "goblin"))
    with pytest.raises(RefusedError, match=rf"^{spell} takes one target, not 2$"):
        t.act(caster, "cast", "gob", "gob2", spell=spell)
    assert t.who(caster).action == "" and t.who(caster).slots_spent == ()  # nothing spent


def test_a_spell_of_several_targets_names_how_many():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), ("gob2", "goblin"))
    four = ["maelis", "gob", "gob2", "maelis"]
    with pytest.raises(RefusedError, match=r"^bless takes at most 3 targets, not 4 \(srd-51\)$"):
        t.act("maelis", "cast", *four, spell="bless")


def test_a_monster_s_ability_on_one_target_refuses_a_second():
    t = Table()
    t.join("m", RULESET.monsters.find("mummy").sheet)
    t.join("pc", sample("fighter"), "pc"), t.join("pc2", sample("rogue"), "pc")
    t.do({"action": "begin"}, 20, 2, 1)
    with pytest.raises(RefusedError, match=r"^dreadful glare takes one target, not 2$"):
        t.act("m", "cast", "pc", "pc2", spell="dreadful glare")


def test_srd_34_the_gm_freeing_the_last_held_target_ends_the_concentration():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "gob", faces=(2,), spell="hold person")
    clear = {"action": "gm.condition-clear", "target": "gob", "condition": "paralysed"}
    out = t.do({**clear, "reason": "dispelled"})
    assert [(e.target, e.condition) for e in of(out, ConditionCleared)] == [
        ("gob", "paralysed"), ("maelis", "concentrating")]  # fmt: skip


def test_hold_person_affects_humanoids_only():
    owlbear = RULESET.monsters.find("owlbear").sheet
    assert owlbear["creature_type"] == "monstrosity"
    t = Table()
    t.join("maelis", sample("cleric"), "pc")
    t.join("owlbear", owlbear)
    t.join("gob", sample("goblin"))  # a sheet that names no type: a humanoid
    t.do({"action": "begin"}, 20, 2, 1)
    before = len(t.log)
    with pytest.raises(RefusedError) as refused:
        t.act("maelis", "cast", "owlbear", faces=(2,), spell="hold person")
    assert str(refused.value) == "hold person affects humanoids only; owlbear is a monstrosity"
    assert len(t.log) == before and not t.who("owlbear").has("paralysed")
    hold(t)


@pytest.mark.parametrize("spell", ["hold person", "Charm Person", "dominate person"])
def test_a_humanoid_only_spell_on_a_sheet_that_does_not_say_so_still_affects_humanoids_only(
    spell,
):
    """SRD 5.1's hold person, charm person and dominate person: "a humanoid". A sheet (an
    imported one, a GM's own) that lists the spell without `affects` refuses an owlbear
    all the same, and still holds a goblin."""
    plain = {"name": spell, "level": 2, "save": "wis", "condition": "paralysed"}
    t = Table()
    t.join("sage", sample("cleric", spells=[plain]), "pc")
    t.join("owlbear", RULESET.monsters.find("owlbear").sheet)
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 2, 1)
    with pytest.raises(RefusedError, match=f"^{spell} affects humanoids only; owlbear is a"):
        t.act("sage", "cast", "owlbear", faces=(2,), spell=spell)
    t.act("sage", "cast", "gob", faces=(2,), spell=spell)
    assert t.who("gob").has("paralysed")


def test_a_sheet_s_own_affects_is_kept():
    beasts = {"name": "hold person", "level": 2, "save": "wis", "condition": "paralysed",
              "affects": "monstrosity"}  # fmt: skip
    t = Table()
    t.join("sage", sample("cleric", spells=[beasts]), "pc")
    t.join("owlbear", RULESET.monsters.find("owlbear").sheet)
    t.do({"action": "begin"}, 20, 2)
    t.act("sage", "cast", "owlbear", faces=(2,), spell="hold person")
    assert t.who("owlbear").has("paralysed")


def test_a_bestiary_spellcaster_s_hold_person_affects_humanoids_only():
    """The mummy lord casts hold person from its Spellcasting: an owlbear is refused, a
    goblin held."""
    t = Table()
    t.join("lord", RULESET.monsters.find("mummy lord").sheet)
    t.join("owlbear", RULESET.monsters.find("owlbear").sheet, "pc")
    t.join("gob", sample("goblin"), "pc")
    t.do({"action": "begin"}, 20, 2, 1)
    with pytest.raises(RefusedError, match=r"^hold person affects humanoids only; owlbear is a"):
        t.act("lord", "cast", "owlbear", faces=(2,), spell="hold person")
    t.act("lord", "cast", "gob", faces=(2,), spell="hold person")
    assert t.who("gob").has("paralysed")


def test_a_spell_without_darts_names_each_target_once():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    with pytest.raises(RefusedError, match=r"^bless names gob more than once: name each"):
        t.act("maelis", "cast", "gob", "gob", spell="bless")
