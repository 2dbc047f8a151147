"""Spell slots (srd-50) and casting with a higher one (srd-51)."""

import pytest
from fracas.rules.api import BadInputError, Healed, RefusedError, Spent, roster
from srd_table import fight, of, rolls, sample

from fracas_srd.ruleset import RULESET
from fracas_srd.slots import restore_slots, slots_left
from fracas_srd.view import health


def maelis_again(t) -> None:
    """Brannoc's and the goblin's turns pass: Maelis's turn again."""
    t.next()
    t.next()
    t.next()
    assert t.turn == "maelis"


def test_srd_50_a_levelled_spell_spends_a_slot_a_cantrip_none():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), ("gob", "goblin"))
    out = t.act("maelis", "cast", "brannoc", faces=(5,), spell="cure wounds")
    slot = [e for e in of(out, Spent) if "slot" in e.resource]
    assert [(s.resource, s.reason, s.rules) for s in slot] == [
        ("level 1 spell slot", "3 of 4 left", ["srd-50"])
    ]
    assert slots_left(t.who("maelis"), 1) == 3 and slots_left(t.who("maelis"), 2) == 2
    assert "slots 1st 3/4 · 2nd 2/2" in health(t.who("maelis"))
    maelis_again(t)
    out = t.act("maelis", "cast", "gob", faces=(2, 4), spell="sacred flame")
    assert not [e for e in of(out, Spent) if "slot" in e.resource]
    assert slots_left(t.who("maelis"), 1) == 3


def test_srd_50_no_slot_of_the_level_left_is_refused_and_a_higher_one_offered():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), ("gob", "goblin"))
    for _ in range(4):
        t.act("maelis", "cast", "brannoc", faces=(5,), spell="cure wounds")
        maelis_again(t)
    before = len(t.log)
    with pytest.raises(RefusedError, match=r"no 1st-level spell slot left .*-o level=2"):
        t.act("maelis", "cast", "brannoc", faces=(5,), spell="cure wounds")
    assert len(t.log) == before and t.who("maelis").action == ""
    t.act("maelis", "cast", "brannoc", faces=(5, 3), spell="cure wounds", level=2)
    assert slots_left(t.who("maelis"), 2) == 1


def test_srd_50_a_slot_the_sheet_lacks_and_a_sheet_without_slots_are_refused():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    with pytest.raises(RefusedError, match=r"no 3rd-level spell slots \(slots = \[4, 2\]"):
        t.act("maelis", "cast", "gob", faces=(5,), spell="cure wounds", level=3)
    with pytest.raises(RefusedError, match="sacred flame is a cantrip: it takes no spell slot"):
        t.act("maelis", "cast", "gob", faces=(5,), spell="sacred flame", level=1)
    with pytest.raises(RefusedError, match="needs a 2nd-level slot or higher"):
        t.act("maelis", "cast", "gob", faces=(5,), spell="hold person", level=1)
    with pytest.raises(BadInputError, match=r"guiding bolt is a 1st-level spell: give .* slots"):
        t.join("sage", sample("cleric", slots=[]))


def test_srd_50_a_long_rest_restores_every_slot_through_its_hook():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), ("gob", "goblin"))
    t.act("maelis", "cast", "brannoc", faces=(5, 3), spell="cure wounds", level=2)
    assert restore_slots(t.who("brannoc"), "a long rest") == []  # nothing spent
    rested = restore_slots(t.who("maelis"), "a long rest")
    t.apply(rested)
    assert slots_left(t.who("maelis"), 2) == 2 and rested[0].describe().endswith("a long rest")
    replayed = roster.fold(RULESET.evolve, RULESET.initial(), t.log)
    assert replayed.fighters["maelis"].slots_spent == ()


def test_srd_51_a_higher_slot_adds_the_spell_s_dice_for_each_level_above():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"))
    out = t.act("maelis", "cast", "brannoc", faces=(5, 3), spell="cure wounds", level=2)
    assert rolls(out)[0].roll.dice == "2d8"
    assert of(out, Healed)[0].amount == 0  # Brannoc is at full HP: nothing to restore


def test_srd_51_an_upcast_spell_attack_s_critical_doubles_the_scaled_dice():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    out = t.act("maelis", "cast", "gob", faces=(20, *[1] * 10), spell="guiding bolt", level=2)
    assert rolls(out)[1].roll.dice == "10d6"  # 4d6 + 1d6 for the level above, twice


def test_srd_51_a_higher_slot_takes_more_targets_and_no_more():
    t = fight(
        ("maelis", "cleric"), ("a", "goblin"), ("b", "goblin"), ("c", "goblin"), ("d", "goblin")
    )
    with pytest.raises(RefusedError, match="bless takes at most 3 targets, not 4"):
        t.act("maelis", "cast", "maelis", "a", "b", "c", spell="bless")
    t.act("maelis", "cast", "maelis", "a", "b", "c", spell="bless", level=2)
    assert all(t.who(w).has("under bless") for w in ("maelis", "a", "b", "c"))
    assert slots_left(t.who("maelis"), 2) == 1


def test_srd_51_a_scaling_of_another_die_is_refused_as_the_sheet_loads():
    t = fight(("maelis", "cleric"), begin=False)
    odd = {"name": "odd", "level": 1, "heal": "1d8", "upcast": "1d6"}
    with pytest.raises(BadInputError, match=r"odd: upcast = '1d6' must be dice of the kind"):
        t.join("sage", sample("cleric", spells=[odd]))


def test_srd_43_magic_missile_fires_one_more_dart_for_each_slot_level_above_1st():
    t = fight(("ilse", "wizard"), ("gob", "goblin"))
    out = t.act("ilse", "cast", "gob", faces=(1, 1, 1, 1), spell="magic missile", level=2)
    assert [r.roll.dice for r in rolls(out)] == ["1d4"] * 4  # four darts, 2 damage each
    said = (
        r"magic missile has 4 darts: the darts must add up to 4 \(3 at 1st level, one more per "
        r"level above\); name one target"
    )
    with pytest.raises(RefusedError, match=said):
        t2 = fight(("ilse", "wizard"), ("gob", "goblin"), ("gob2", "goblin"))
        t2.act("ilse", "cast", "gob", "gob2", "gob", spell="magic missile", level=2)


def test_srd_51_burning_hands_deals_1d6_more_for_each_slot_level_above_1st():
    t = fight(("ilse", "wizard"), ("gob", "goblin"))
    out = t.act("ilse", "cast", "gob", faces=(2, 1, 1, 1, 1), spell="burning hands", level=2)
    assert [r.roll.dice for r in rolls(out)] == ["d20", "4d6"]


def test_srd_50_the_refusal_names_the_higher_slot_left_and_how_many():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), ("gob", "goblin"))
    for _ in range(4):
        t.act("maelis", "cast", "brannoc", faces=(5,), spell="cure wounds")
        maelis_again(t)
    with pytest.raises(RefusedError) as refused:
        t.act("maelis", "cast", "brannoc", spell="cure wounds")
    assert str(refused.value) == (
        "maelis has no 1st-level spell slot left (all 4 spent; srd-50): cast it with a "
        "2nd-level slot, -o level=2 (2 left)"
    )


def test_srd_50_a_sheet_may_have_no_slot_left_at_a_level_it_has():
    """A caster joining with slots spent (or a level of none): the sheet loads, the
    casting is refused and the slot that is left named."""
    t = fight(("maelis", "cleric"), ("gob", "goblin"), begin=False)
    t.join("sage", sample("cleric", slots=[0, 1]), "pc")
    t.join("spent", sample("cleric", slots=[0, 0]), "pc")
    t.do({"action": "begin"}, 20, 16, 12, 8)
    t.next(), t.next()
    with pytest.raises(
        RefusedError, match=r"no 1st-level spell slot left .* -o level=2 \(1 left\)"
    ):
        t.act("sage", "cast", "gob", spell="guiding bolt")
    t.next()
    with pytest.raises(RefusedError, match=r"^spent has no 1st-level or higher spell slot left "):
        t.act("spent", "cast", "gob", spell="guiding bolt")


def slot_refusal(t, *targets: str, **fields) -> str:
    with pytest.raises(RefusedError) as refused:
        t.act("maelis", "cast", *targets, **fields)
    return str(refused.value)


def test_srd_50_an_upcast_refused_names_the_lower_slot_it_may_take_instead():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), ("gob", "goblin"))
    for _ in range(2):
        t.act("maelis", "cast", "brannoc", faces=(5, 5), spell="cure wounds", level=2)
        maelis_again(t)
    assert slot_refusal(t, "brannoc", spell="cure wounds", level=2) == (
        "maelis has no 2nd-level spell slot left (all 2 spent; srd-50): cast it with a "
        "1st-level slot, -o level=1 (4 left)"
    )
    assert slot_refusal(t, "brannoc", spell="cure wounds", level=3) == (
        "maelis has no 3rd-level spell slots (slots = [4, 2] on the sheet, by level; srd-50): "
        "cast it with a 1st-level slot, -o level=1 (4 left)"
    )


def test_srd_50_with_no_slot_high_enough_the_refusal_names_those_left_and_the_long_rest():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), begin=False)
    t.join("sage", sample("cleric", slots=[3, 1]), "pc")
    t.do({"action": "begin"}, 20, 16, 12)
    t.next(), t.next()
    t.act("sage", "cast", "gob", faces=(20,), spell="hold person")
    t.next(), t.next(), t.next()
    with pytest.raises(RefusedError) as refused:
        t.act("sage", "cast", "gob", spell="hold person")
    assert str(refused.value) == (
        "sage has no 2nd-level or higher spell slot left (srd-50); left: 3 at 1st level, "
        "too low for hold person; a long rest restores them"
    )
    for _ in range(3):
        t.next(), t.next(), t.next()
        t.act("sage", "cast", "sage", faces=(1,), spell="cure wounds")
    t.next(), t.next(), t.next()
    said = r"^sage has no 1st-level or higher spell slot left \(srd-50\); a long rest restores them"
    with pytest.raises(RefusedError, match=said + "$"):
        t.act("sage", "cast", "gob", spell="guiding bolt")


def test_srd_51_an_upcast_spell_is_logged_cast_at_its_slot_s_level():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"), ("gob", "goblin"))
    out = t.act("maelis", "cast", "brannoc", faces=(5, 3), spell="cure wounds", level=2)
    assert [(s.resource, s.reason) for s in of(out, Spent)][1:] == [
        ("spell", "cure wounds, a level 1 spell cast at level 2 with an action"),
        ("level 2 spell slot", "1 of 2 left"),
    ]
    maelis_again(t)
    out = t.act("maelis", "cast", "brannoc", faces=(5,), spell="cure wounds")
    assert of(out, Spent)[1].reason == "cure wounds, a level 1 spell cast with an action"
    t.next(), t.next(), t.next()
    t.act("maelis", "cast", "maelis", faces=(2, 2), spell="healing word", level=2)
    with pytest.raises(RefusedError, match="cast a bonus-action spell this turn"):
        t.act("maelis", "cast", "brannoc", faces=(5,), spell="cure wounds")  # srd-3 reads it


def test_a_monster_s_ability_is_logged_as_its_action_with_its_recharge_not_as_a_spell():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"))
    out = t.act("wyrm", "cast", "brannoc", faces=(5, *[1] * 10), spell="fire breath")
    assert [(s.resource, s.reason) for s in of(out, Spent)] == [
        ("action", "fire breath, recharge 5-6"),
        ("recharge", "fire breath"),
    ]
    assert t.who("wyrm").spells == ()
