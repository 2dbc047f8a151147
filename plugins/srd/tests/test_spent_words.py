"""A spell cast and the slot it spends read in 5e's words (issue 40): "a 1st-level spell
slot", never "1 spell" or "1 level 1 spell slot"; a cantrip says it spends no slot. The
words are made when the log is read, so a log written before reads the same way."""

from fracas.projections.describe import describe
from fracas.rules.api import Spent
from srd_table import fight, of

from fracas_srd.ruleset import RULESET


def said(events: list) -> list[str]:
    return [describe(e, spent=RULESET.spent_words) for e in of(events, Spent)]


def test_a_spell_of_level_1_reads_as_cast_with_a_1st_level_slot():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    lines = said(t.act("maelis", "cast", "maelis", spell="bless"))
    assert "maelis casts bless, a 1st-level spell, with an action" in lines, lines
    assert "maelis spends a 1st-level spell slot: 3 of 4 left" in lines, lines
    assert not any("spends 1 spell" in line or "level 1 spell slot" in line for line in lines)


def test_a_spell_cast_with_a_higher_slot_names_both_levels_in_ordinals():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    lines = said(t.act("maelis", "cast", "maelis", spell="bless", level=2))
    assert "maelis casts bless, a 1st-level spell, at 2nd level with an action" in lines, lines
    assert "maelis spends a 2nd-level spell slot: 1 of 2 left" in lines, lines


def test_a_cantrip_says_it_spends_no_slot():
    t = fight(("pc-ilse", "wizard"), ("gob", "goblin"))
    lines = said(t.act("pc-ilse", "cast", "gob", faces=(2,), spell="fire bolt"))
    assert lines[-1] == "pc-ilse casts fire bolt, a cantrip (no spell slot), with an action"


def test_a_log_written_before_reads_in_the_same_words():
    """The words recorded are srd-3's ("…, a level 1 spell cast with an action"), as ever:
    an old log's events read the new way, and its oldest shape ("action:2") as it was."""
    old = Spent("maelis", "spell", 1, "bless, a level 1 spell cast with a bonus action")
    assert RULESET.spent_words(old) == "maelis casts bless, a 1st-level spell, with a bonus action"
    oldest = Spent("maelis", "spell", 1, "action:2")
    assert describe(oldest, spent=RULESET.spent_words) == "maelis spends 1 spell: action:2"
    other = Spent("wyrm", "legendary actions", 1, "tail")
    assert describe(other, spent=RULESET.spent_words) == "wyrm spends 1 legendary action: tail"


def test_an_8th_level_slot_and_spell_take_an_not_a():
    """An outside GM read "a 8th-level" (issue 40): the article is the spoken number's."""
    slot = Spent("sage", "level 8 spell slot", 1, "0 of 1 left")
    assert RULESET.spent_words(slot) == "sage spends an 8th-level spell slot: 0 of 1 left"
    cast = Spent("sage", "spell", 1, "power word stun, a level 8 spell cast with an action")
    assert RULESET.spent_words(cast) == (
        "sage casts power word stun, an 8th-level spell, with an action"
    )

