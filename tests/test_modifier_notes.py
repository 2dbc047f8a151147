"""A modifier that is a note on a roll, not a number of it, says so by a flag of its own
(issue 40): its words are read alone, never as a "+0" term, however they are worded."""

from fracas.projections.describe import MODIFIED, describe, describe_roll, is_note
from fracas.rules.dice import rolled
from fracas.rules.events import Damaged, Modifier, Rolled


def test_a_note_worded_without_a_colon_is_no_plus_0_term_of_a_checks_sum():
    note = Modifier(0, "half cover does not help against fire bolt", "srd-22", note=True)
    terms = [Modifier(5, "spell attack bonus", "srd-M4"), note]
    roll = rolled("1d20", [12], "manual", "gm")
    line = describe_roll(Rolled("maelis", "spell attack", roll, 13, terms), MODIFIED)
    assert "12 +5 = 17 vs 13" in line, line
    assert "(+5 spell attack bonus (srd-M4), half cover does not help" in line, line
    assert "+0" not in line, line
    assert is_note(note)
    assert note.describe() == "half cover does not help against fire bolt (srd-22)"


def test_a_term_that_came_to_0_keeps_its_number_whatever_its_words():
    """ "+0 Dex modifier" is a term of the sum: a colon in its words makes it no note."""
    term = Modifier(0, "Dex modifier: Dex 10", "srd-M2")
    assert not is_note(term) and term.describe() == "+0 Dex modifier: Dex 10 (srd-M2)"


def test_a_note_in_a_damage_breakdown_is_said_as_its_words():
    note = Modifier(0, "3 of it off temporary hit points first", "srd-11", note=True)
    hurt = Damaged("gob", 4, "brannoc", [Modifier(7, "1d8 [4] + 3 Str"), note])
    line = describe(hurt)
    assert "3 of it off temporary hit points first (srd-11)" in line and "+0" not in line, line


def test_a_note_in_a_log_written_before_the_flag_reads_as_it_did():
    """A log written before the flag holds its notes with note=False, told apart by their
    shape alone ('name: words', of no value): a replay or report still says no '+0'."""
    old = Modifier(0, "shield: +5 AC", "srd-32")
    terms = [Modifier(4, "attack bonus", "srd-M4"), old, Modifier(0, "Dex modifier", "srd-M2")]
    roll = rolled("1d20", [12], "manual", "gm")
    line = describe_roll(Rolled("gob", "attack", roll, 20, terms), MODIFIED)
    assert "(+4 attack bonus (srd-M4), shield: +5 AC (srd-32), +0 Dex modifier (srd-M2))" in line
    assert "+0 shield" not in line, line
    hurt = Damaged("gob", 4, "brannoc", [Modifier(4, "1d8 [4]"), Modifier(0, "armor: none")])
    assert "(+4 1d8 [4], armor: none)" in describe(hurt), describe(hurt)


def test_an_event_with_a_flagged_note_reads_by_its_flags_alone():
    """Where an event carries the flag, a term of no value worded 'name: words' is a term."""
    note = Modifier(0, "half cover does not help against fire bolt", "srd-22", note=True)
    terms = [note, Modifier(0, "Dex modifier: Dex 10", "srd-M2")]
    roll = rolled("1d20", [12], "manual", "gm")
    line = describe_roll(Rolled("maelis", "spell attack", roll, 13, terms), MODIFIED)
    assert "(half cover does not help against fire bolt (srd-22), +0 Dex modifier: Dex 10" in line
