"""The conditions a bestiary monster's abilities set last as their text says (srd-28): until
the end of the monster's (or the target's) next turn, for 1 minute, until a save repeated
at the end of each of the target's turns, or, where the text says so, until removed; and
a save failed by 5 or more may add the text's worse condition."""

import collections
import json

import pytest
from fracas.rules.api import ConditionExpired
from srd_table import Table, of, sample

from fracas_srd import bestiary
from fracas_srd.convert import convert
from fracas_srd.ruleset import RULESET

LAST_UNTIL_UNDONE = ("prone", "grappled")  # until the creature stands or escapes (srd-20, 27)


def monster(name: str):
    return RULESET.monsters.find(name)


def duel(name: str, **changed) -> Table:
    """The monster (id "m") acts first, the fighter ("pc") second."""
    table = Table()
    table.join("m", monster(name).sheet)
    table.join("pc", sample("fighter", **changed), "pc")
    table.do({"action": "begin"}, 20, 2)
    return table


def test_dreadful_glare_frightens_until_the_end_of_the_mummy_s_next_turn():
    table = duel("mummy")
    table.act("m", "cast", "pc", faces=(9,), spell="dreadful glare")  # 9 + 1 < 11, not by 5
    assert table.who("pc").has("frightened") and not table.who("pc").has("paralyzed")
    table.next()  # the mummy's turn ends: not "its next" one
    table.next()  # the fighter's turn ends
    assert table.who("pc").has("frightened")
    out = table.next()  # the mummy's next turn ends
    assert not table.who("pc").has("frightened")
    assert [e.condition for e in out if isinstance(e, ConditionExpired)] == ["frightened"]


def test_dreadful_glare_failed_by_5_or_more_also_paralyses_for_the_same_time():
    table = duel("mummy")
    table.act("m", "cast", "pc", faces=(2,), spell="dreadful glare")  # 2 + 1: failed by 8
    assert table.who("pc").has("frightened") and table.who("pc").has("paralyzed")
    table.next(), table.next()
    out = table.next()
    assert sorted(e.condition for e in out if isinstance(e, ConditionExpired)) == [
        "frightened", "paralyzed"]  # fmt: skip


def test_the_mummy_lord_s_blinding_dust_lasts_to_the_end_of_the_blinded_creature_s_turn():
    table = duel("mummy lord")
    table.next(), table.next()  # the fighter's turn ends: legendary actions may follow
    table.act("m", "legendary", "pc", faces=(2,), option="blinding dust")
    table.next()  # the mummy lord's turn ends
    assert table.who("pc").has("blinded")
    out = table.next()  # the blinded fighter's turn ends: so does the blindness
    assert not table.who("pc").has("blinded")
    assert [e.condition for e in out if isinstance(e, ConditionExpired)] == ["blinded"]


def test_the_mummy_lord_s_blasphemous_word_stuns_to_the_end_of_its_own_next_turn():
    table = duel("mummy lord")
    table.next(), table.next()
    table.act("m", "legendary", "pc", faces=(2,), option="blasphemous word")
    assert table.who("pc").has("stunned")
    out = table.next()  # the mummy lord's next turn ends
    assert [e.condition for e in out if isinstance(e, ConditionExpired)] == ["stunned"]


def test_a_ghoul_s_claws_paralyse_for_a_minute_the_save_repeated_at_each_turn_s_end():
    table = duel("ghoul")
    table.act("m", "attack", "pc", faces=(19, 1, 1, 2), weapon="claws")  # hit, 2d4, save 2
    held = table.who("pc").conditions["paralyzed"]
    assert held["until"]["rounds"] == 10 and held["save_ends"]["dc"] == 10
    table.next()
    table.next(15)  # the paralysed fighter's turn ends: its save again, made
    assert not table.who("pc").has("paralyzed")


def conditions_set(entry: dict) -> list[tuple[str, dict]]:
    sheet = entry["sheet"]
    found = [(s["name"], s) for s in sheet["spells"] if s.get("condition")]
    return found + [(w["name"], w["rider"]) for w in sheet["weapons"] if w.get("rider")]


def test_every_condition_a_bestiary_ability_sets_lasts_as_its_text_says():
    """Each ability that sets a condition (but prone or grappled, which last until the
    creature stands or escapes) has a duration, or the text makes it last until removed
    (counted by the converter)."""
    tally: collections.Counter = collections.Counter()
    folder = bestiary.data_folder()
    unread = []
    for file in sorted(folder.glob("*.json")):
        entry = convert(json.loads(file.read_bytes()), tally)
        for name, sets in conditions_set(entry):
            timed = any(sets.get(k) for k in ("rounds", "until", "save_ends", "concentration"))
            if not timed and sets["condition"] not in LAST_UNTIL_UNDONE:
                unread.append(f"{entry['name']}: {name}")
    assert len(unread) == tally["conditions the text makes last until removed"], unread


@pytest.mark.parametrize(
    ("name", "ability", "lasting"),
    [
        ("cloaker", "moan", {"until": "end"}),
        ("vrock", "stunning screech", {"until": "end"}),
        ("gibbering mouther", "blinding spittle", {"until": "end"}),
        ("adult brass dragon", "sleep breath", {"rounds": 100}),
        ("succubus/incubus", "charm", {"rounds": 14400}),
        ("djinni", "create whirlwind", {"concentration": True}),
    ],
)
def test_siblings_read_their_durations(name, ability, lasting):
    spell = RULESET.sheet(monster(name).sheet, name).spell(ability)
    assert {k: getattr(spell, k) for k in lasting} == lasting


def test_a_glare_that_frightens_nobody_sets_no_condition():
    """The sea hag's Death Glare targets a frightened creature: it frightens nobody."""
    assert RULESET.sheet(monster("sea hag").sheet, "sea hag").spell("death glare").condition == ""


def test_dreadful_glare_cast_last_in_the_round_outlasts_the_round_s_wrap():
    table = Table()
    table.join("pc", sample("fighter"), "pc")
    table.join("m", monster("mummy").sheet)
    table.do({"action": "begin"}, 20, 2)
    table.next()  # the fighter's turn ends: the mummy, last in the order, acts
    table.act("m", "cast", "pc", faces=(2,), spell="dreadful glare")
    out = table.next()  # this very turn of the mummy ends, and round 2 begins
    assert not of(out, ConditionExpired)
    assert table.who("pc").has("frightened") and table.who("pc").has("paralyzed")
    table.next()  # the fighter's turn, paralysed, ends
    out = table.next()  # the mummy's next turn ends
    assert sorted(e.condition for e in of(out, ConditionExpired)) == ["frightened", "paralyzed"]
