"""Keep highest, keep lowest, drop: every die recorded, the kept ones marked, and only they
counted; a plain number added or taken off; bad expressions refused in one line."""

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.ledger import BadInputError
from fracas.rules.dice import (
    ManualDice,
    SeededDice,
    derive_faces,
    kept_of,
    parse_terms,
    split_faces,
    total_of,
    verify_roll,
)
from fracas.rules.events import Roll
from fracas.testing.tiers import examples

SEED = "cd" * 32
PROPERTIES = settings(max_examples=examples(full=200, fast=50), deadline=None)


def test_advantage_keeps_the_higher_d20_and_records_both():
    roll = ManualDice([7, 15], "gm").roll("2d20kh1", "perception")
    assert (roll.faces, roll.kept, roll.total) == ([7, 15], [1], 15)
    assert roll.dropped() == [0]


def test_disadvantage_keeps_the_lower_d20():
    roll = ManualDice([7, 15], "gm").roll("2d20kl1", "stealth")
    assert (roll.kept, roll.total) == ([0], 7)


def test_4d6_drop_lowest_equals_keep_highest_three():
    faces = [3, 6, 1, 4]
    dropped = ManualDice(faces, "gm").roll("4d6dl1", "strength")
    kept = ManualDice(faces, "gm").roll("4d6kh3", "strength")
    assert dropped.total == kept.total == 13
    assert dropped.kept == kept.kept == [0, 1, 3]


def test_drop_highest_counts_the_rest():
    roll = ManualDice([3, 6, 1, 4], "gm").roll("4d6dh1", "curse")
    assert (roll.kept, roll.total) == ([0, 2, 3], 8)


def test_a_number_is_added_and_taken_off():
    assert ManualDice([12, 4], "gm").roll("2d20kh1+5", "check").total == 17
    assert ManualDice([2, 3], "gm").roll("2d6-1", "damage").total == 4
    assert split_faces("2d20kh1+5", [12, 4]) == [[12, 4], []]


def test_ties_keep_the_first_of_equal_dice():
    assert kept_of("3d6kh1", [5, 5, 2]) == [0]
    assert kept_of("3d6kl1", [5, 2, 2]) == [1]


def test_an_exploding_die_counts_as_its_whole_run():
    # 4d6!kh2: dice 6+2=8, 3, 5, 1 -> keep 8 and 5
    roll = ManualDice([6, 2, 3, 5, 1], "gm").roll("4d6!kh2", "damage")
    assert roll.faces == [6, 2, 3, 5, 1] and roll.kept == [0, 1, 3] and roll.total == 13


def test_keeping_is_written_only_when_a_roll_keeps_or_drops():
    """A roll that counts every die is written exactly as before `kept` existed, so old logs
    and rolls decided again compare equal byte for byte."""
    plain = ManualDice([3, 4], "gm").roll("2d6", "damage")
    assert msgspec.json.encode(plain) == (
        b'{"dice":"2d6","faces":[3,4],"total":7,"source":"manual","entered_by":"gm",'
        b'"seed_epoch":null,"counter":null}'
    )
    old = msgspec.json.decode(msgspec.json.encode(plain), type=Roll)
    assert old == plain and old.dropped() == []
    kept = ManualDice([3, 4], "gm").roll("2d6kh1", "damage")
    assert msgspec.json.decode(msgspec.json.encode(kept), type=Roll).kept == [1]


def test_typed_faces_need_every_die_rolled_the_dropped_ones_too():
    with pytest.raises(BadInputError, match="those dropped too"):
        ManualDice([17], "sam").roll("2d20kh1", "perception")
    dice = ManualDice([17, 3], "sam")
    assert dice.roll("2d20kh1", "perception").total == 17
    dice.finish()


def test_a_seeded_keep_roll_verifies_and_a_forged_mark_does_not():
    roll = SeededDice(SEED, 1, "enc", step=4).roll("4d6dl1", "strength")
    assert roll.faces == derive_faces(SEED, "enc", "4.0", "4d6dl1") and len(roll.faces) == 4
    assert verify_roll(SEED, "enc", roll)
    forged = msgspec.structs.replace(roll, kept=[0, 1, 2] if roll.kept != [0, 1, 2] else [1, 2, 3])
    assert not verify_roll(SEED, "enc", forged)
    assert not verify_roll(SEED, "enc", msgspec.structs.replace(roll, total=roll.total + 1))


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("4d6kh5", "keep 1 to 4"),
        ("4d6kh0", "keep 1 to 4"),
        ("4d6dl4", "keep 1 to 4"),
        ("2d20kl3", "keep 1 to 2"),
        ("2d20kh1+99999", "at most 10000"),
        ("5", "unknown dice"),
        ("2d20kh1kh1", "unknown dice"),
        ("2d20kx1", "unknown dice"),
        ("2d20kh1+", "unknown dice"),
    ],
)
def test_bad_keep_expressions_are_refused_in_one_line(spec, says):
    with pytest.raises(BadInputError, match=says) as refused:
        parse_terms(spec)
    assert "\n" not in str(refused.value)


dice_terms = st.tuples(
    st.integers(1, 8),  # count
    st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100]),  # sides
    st.sampled_from(["kh", "kl", "dl", "dh"]),
    st.integers(0, 8),  # how many kept / dropped
)


@pytest.mark.long
@PROPERTIES
@given(term=dice_terms, bonus=st.integers(-30, 30), data=st.data())
def test_the_total_is_the_sum_of_the_kept_highest_or_lowest(term, bonus, data):
    count, sides, how, n = term
    keep = count - n if how[0] == "d" else n
    spec = f"{count}d{sides}{how}{n}{bonus:+d}"
    if not 1 <= keep <= count:
        with pytest.raises(BadInputError):
            parse_terms(spec)
        return
    faces = data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    roll = ManualDice(faces, "gm").roll(spec, "check")
    highest = how in ("kh", "dl")
    chosen = sorted(faces, reverse=highest)[:keep]
    assert roll.total == sum(chosen) + bonus
    assert roll.faces == faces and len(roll.kept) == keep
    assert sorted(faces[i] for i in roll.kept) == sorted(chosen)


@pytest.mark.long
@PROPERTIES
@given(term=dice_terms, counter=st.integers(0, 10**6))
def test_seeded_keep_rolls_record_every_die_and_verify(term, counter):
    count, sides, how, n = term
    keep = count - n if how[0] == "d" else n
    if not 1 <= keep <= count:
        return
    spec = f"{count}d{sides}{how}{n}"
    roll = SeededDice(SEED, 1, "enc", step=counter).roll(spec, "check")
    assert len(roll.faces) == count and all(1 <= f <= sides for f in roll.faces)
    assert roll.total == total_of(spec, roll.faces) == sum(roll.faces[i] for i in roll.kept)
    assert verify_roll(SEED, "enc", roll)


@pytest.mark.long
@PROPERTIES
@given(st.text(alphabet="0123456789dFkhlz!+- x", max_size=16))
def test_any_text_parses_or_is_refused_in_one_line(spec):
    try:
        terms = parse_terms(spec)
    except BadInputError as refused:
        assert "\n" not in str(refused)
        return
    assert any(t.count for t in terms)


def test_the_log_line_shows_the_dropped_dice_in_brackets():
    from fracas.projections.describe import describe_roll
    from fracas.projections.replay import roll_line
    from fracas.rules.events import Rolled

    roll = ManualDice([4, 17], "sam").roll("2d20kh1+5", "perception")
    event = Rolled("gm", "perception", roll)
    assert describe_roll(event) == (
        "gm rolls 2d20kh1+5 for perception: 17 [dropped 4] + 5 = 22; typed by sam"
    )
    line = roll_line(event)
    assert line.marked() == [(4, False), (17, True)] and line.dropped() == [4]
    four = ManualDice([3, 6, 1, 4], "gm").roll("4d6dl1", "strength")
    assert "3+6+4 [dropped 1] = 13" in describe_roll(Rolled("gm", "strength", four))
