"""Dice: seeded commit-reveal without modulo bias, and typed-in faces."""

import hashlib
from collections import Counter

import pytest

from fracas.ledger import BadInputError
from fracas.rules.dice import (
    ManualDice,
    SeededDice,
    derive_faces,
    parse_dice,
    parse_terms,
    split_faces,
    total_of,
    verify_roll,
)
from fracas.rules.events import EncounterStarted, Rolled, SeedRevealed
from tests.support import PISTOL, attack, fight, gunner, sheet

SEED = "ab" * 32


def test_seeded_faces_are_reproducible_from_the_seed_and_counter():
    roll = SeededDice(SEED, 1, "enc", step=7).roll("2d10", "test")
    assert roll.counter == "7.0" and roll.source == "seeded"
    assert roll.faces == derive_faces(SEED, "enc", "7.0", "2d10")
    assert verify_roll(SEED, "enc", roll)
    assert not verify_roll("cd" * 32, "enc", roll)


@pytest.mark.parametrize("spec", ["d6", "d100", "3d10", "4dF", "d7", "2d10z"])
def test_seeded_faces_stay_on_the_die(spec):
    count, values = parse_dice(spec)
    for n in range(300):
        faces = derive_faces(SEED, "enc", f"{n}.0", spec)
        assert len(faces) == count and set(faces) <= set(values)


def test_a_z_die_reads_from_zero_so_a_d10_shows_0_to_9():
    assert parse_dice("2d10z") == (2, tuple(range(10)))
    assert ManualDice([0, 9], "gm").roll("2d10z", "stat roll").total == 9
    with pytest.raises(BadInputError, match=r"faces run 0\.\.9"):
        ManualDice([10, 0], "gm").roll("2d10z", "stat roll")
    with pytest.raises(BadInputError, match="no z form"):
        parse_dice("4dFz")


def test_seeded_d6_is_uniform():
    counts = Counter(f for n in range(6000) for f in derive_faces(SEED, "e", f"{n}.0", "d6"))
    expected = 6000 / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert chi_square < 20.5  # p = 0.001 for 5 degrees of freedom


def test_manual_faces_are_checked_and_all_consumed():
    dice = ManualDice([34, 7], "gm")
    assert dice.roll("d100", "attack").faces == [34]
    with pytest.raises(BadInputError, match="not a face of 1d6"):
        ManualDice([7], "gm").roll("1d6", "damage")
    with pytest.raises(BadInputError, match="not enough dice"):
        ManualDice([], "gm").roll("d100", "attack")
    with pytest.raises(BadInputError, match="left over"):
        dice.finish()


def test_too_few_faces_say_the_rolls_they_came_after_and_no_roll_that_was_not():
    """Issue 40: the first roll short of faces said "needs 1d20 after nothing yet"."""
    with pytest.raises(BadInputError) as first:
        ManualDice([], "gm").roll("1d20", "attack roll")
    said = str(first.value)
    assert said.startswith("not enough dice typed in: the attack roll needs a d20; give"), said
    assert "after" not in said and "nothing" not in said, said
    later = ManualDice([12], "gm")
    later.roll("1d20", "attack roll")
    with pytest.raises(BadInputError, match="needs a d8, after a d20 for the attack roll; give"):
        later.roll("1d8", "damage")


def test_commit_reveal_lets_anyone_check_every_seeded_roll(fracas):
    e = fight(
        fracas,
        ("alice", gunner()),
        ("bob", sheet(10, hp=40)),
    )
    attack(e, "alice", "bob", weapon="pistol")
    before = fracas.audit()
    assert {r.verdict for r in before.rolls} == {"unverifiable until the seed is revealed"}
    revealed = e.reveal().events[0]
    assert isinstance(revealed, SeedRevealed)
    started = next(iter(e.events_of_step(1)))
    assert isinstance(started, EncounterStarted)
    assert hashlib.sha256(bytes.fromhex(revealed.seed)).hexdigest() == started.seed_sha256
    after = fracas.audit()
    assert after.ok and {r.verdict for r in after.rolls} == {"verified"}
    out = attack(e, "bob", "alice")  # rolls continue under the newly committed seed
    assert {r.roll.seed_epoch for r in out.events if isinstance(r, Rolled)} == {2}


def test_a_typed_roll_is_recorded_as_manual_with_who_typed_it(fracas):
    e = fight(
        fracas, ("alice", sheet(14, weapons=[PISTOL], holding=["pistol"])), ("bob", sheet(10))
    )
    out = e.execute(
        e.ruleset.command(
            {"action": "attack", "actor": "alice", "targets": ["bob"], "weapon": "pistol"}
        ),
        dice=[90],
        entered_by="sam",
    )
    (roll,) = [ev.roll for ev in out.events if isinstance(ev, Rolled)]
    assert (roll.source, roll.entered_by, roll.faces) == ("manual", "sam", [90])


def test_open_roll_explodes_each_die_and_subtracts_the_negative():
    dice = ManualDice([6, 6, 2, 3], "gm")  # positive 6, 6, 2 then negative 3
    roll = dice.roll("d6!-d6!", "attack")
    dice.finish()
    assert roll.faces == [6, 6, 2, 3] and roll.total == 14 - 3
    assert split_faces("d6!-d6!", roll.faces) == [[6, 6, 2], [3]]


def test_open_roll_asks_for_the_reroll_of_a_six():
    with pytest.raises(BadInputError, match="one more face"):
        ManualDice([4, 6], "gm").roll("d6!-d6!", "attack")


@pytest.mark.parametrize("spec", ["d6!-d6!", "2d6+d4", "d6-d6", "d10!"])
def test_seeded_expressions_verify_and_stay_on_the_dice(spec):
    for n in range(200):
        roll = SeededDice(SEED, 1, "enc", step=n).roll(spec, "test")
        assert verify_roll(SEED, "enc", roll)
        assert roll.total == total_of(spec, roll.faces)
        assert all(1 <= face <= 10 for face in roll.faces)


@pytest.mark.parametrize("spec", ["d6!!", "d6+", "2d6 d4", "dF!", "d6--d6", "x"])
def test_unknown_dice_expressions_are_refused(spec):
    with pytest.raises(BadInputError, match="unknown dice"):
        parse_terms(spec)
