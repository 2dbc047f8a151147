"""The conditions (srd-27) and durations that end by themselves (srd-28)."""

import pytest
from fracas.rules.api import (
    ConditionCleared,
    ConditionExpired,
    ConditionSet,
    RefusedError,
    Resolved,
)
from srd_table import Table, fight, of, rolls, sample

from fracas_srd.ruleset import RULESET


def condition(t: Table, who: str, name: str, **duration) -> None:
    t.do({"action": "gm.condition-set", "target": who, "condition": name, **duration})


def edge(out) -> list[str]:
    return [m.reason for m in rolls(out)[0].modifiers if m.value == 0]


def attack(t: Table, *faces: int, **flags) -> list:
    weapon = flags.pop("weapon", "longsword")
    return t.act("brannoc", "attack", "gob", faces=faces, weapon=weapon, **flags)


@pytest.mark.parametrize(
    ("who", "name", "reason"),
    [
        ("brannoc", "blinded", "disadvantage: brannoc is blinded"),
        ("gob", "blinded", "advantage: gob is blinded"),
        ("brannoc", "frightened", "disadvantage: brannoc is frightened"),
        ("brannoc", "invisible", "advantage: brannoc is invisible"),
        ("gob", "invisible", "disadvantage: gob is invisible"),
        ("gob", "paralysed", "advantage: gob is paralysed"),
        ("gob", "stunned", "advantage: gob is stunned"),
        ("gob", "unconscious", "advantage: gob is unconscious"),
        ("brannoc", "poisoned", "disadvantage: brannoc is poisoned"),
        ("brannoc", "prone", "disadvantage: brannoc is prone"),
        ("brannoc", "restrained", "disadvantage: brannoc is restrained"),
        ("gob", "restrained", "advantage: gob is restrained"),
    ],
)
def test_srd_27_conditions_give_advantage_or_disadvantage(who: str, name: str, reason: str):
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, who, name)
    assert reason in edge(attack(t, 2, 2))


def test_srd_27_prone_helps_attackers_within_5_feet_and_hinders_those_farther():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "gob", "prone")
    assert edge(attack(t, 2, 2, within_5ft=True)) == ["advantage: gob is prone, within 5 feet"]
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "gob", "prone")
    thrown = attack(t, 2, 2, within_5ft=False, weapon="handaxe")  # a longsword cannot (srd-53)
    assert edge(thrown) == ["disadvantage: gob is prone, beyond 5 feet"]


def test_srd_30_melee_is_within_5_feet_unless_said_otherwise_ranged_as_stated():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "gob", "prone")
    assert edge(attack(t, 2, 2)) == ["advantage: gob is prone, within 5 feet"]
    assert "srd-30" in rolls(t.log)[-1].modifiers[-1].rule
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "gob", "prone")
    thrown = attack(t, 2, 2, within_5ft=False, weapon="handaxe")  # a longsword cannot (srd-53)
    assert edge(thrown) == ["disadvantage: gob is prone, beyond 5 feet"]
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "gob", "prone")
    out = t.act("brannoc", "attack", "gob", faces=(2, 2), weapon="longbow")
    assert edge(out) == ["disadvantage: gob is prone, beyond 5 feet"]


def test_srd_30_a_melee_hit_on_the_paralysed_is_critical_without_saying_within_5_feet():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    condition(t, "wyrm", "paralysed")
    out = t.act("brannoc", "attack", "wyrm", faces=(2, 14, 3, 3), weapon="longsword")
    assert rolls(out)[0].result.startswith("critical hit") and "srd-30" in rolls(out)[0].rules
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    condition(t, "wyrm", "paralysed")
    out = t.act("brannoc", "attack", "wyrm", faces=(2, 14, 3), weapon="handaxe", within_5ft=False)
    assert rolls(out)[0].result.startswith("hit")


def test_srd_27_a_hit_on_the_paralysed_from_within_5_feet_is_critical():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    condition(t, "wyrm", "paralysed")
    out = t.act(
        "brannoc", "attack", "wyrm", faces=(2, 14, 3, 3), weapon="longsword", within_5ft=True
    )
    assert rolls(out)[0].result.startswith("critical hit") and rolls(out)[1].roll.dice == "2d8"
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    condition(t, "wyrm", "paralysed")
    out = t.act("brannoc", "attack", "wyrm", faces=(2, 16, 3), weapon="longbow")
    assert rolls(out)[0].result.startswith("hit")


def test_srd_27_paralysed_stunned_unconscious_fail_str_and_dex_saves():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    condition(t, "gob", "stunned")
    out = t.act("maelis", "cast", "gob", faces=(4,), spell="sacred flame")
    assert "fails the Dexterity saving throw automatically: stunned" in [
        e.outcome for e in of(out, Resolved)
    ]


def test_srd_27_the_incapacitated_take_no_actions_or_reactions():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "brannoc", "incapacitated")
    with pytest.raises(RefusedError, match="no actions or reactions"):
        attack(t, 10)
    t.next()
    with pytest.raises(RefusedError, match="no actions or reactions"):
        t.act("brannoc", "opportunity", "gob", faces=(10,))


def test_srd_27_restrained_creatures_have_disadvantage_on_dex_saves():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    condition(t, "gob", "restrained")
    out = t.act("maelis", "cast", "gob", faces=(19, 3, 4), spell="sacred flame")
    save = rolls(out)[0]
    assert save.roll.faces == [19, 3] and save.result.startswith("failure (5 vs 13)")


def test_srd_28_a_save_ends_condition_is_saved_against_at_the_end_of_each_turn():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "gob", faces=(2,), spell="hold person")
    t.next()
    with pytest.raises(RefusedError, match="paralysed"):
        t.act("gob", "attack", "maelis", faces=(10,))
    out = t.next(14)  # the goblin's turn ends: Wis -1 + 14 = 13 meets DC 13
    assert ("gob", "paralysed") in [(e.target, e.condition) for e in of(out, ConditionCleared)]
    assert "srd-28" in rolls(out)[0].rules


def test_srd_28_rounds_run_out_by_themselves_in_the_log():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), begin=False)
    t.join(
        "sage",
        {
            **sample("cleric"),
            "spells": [
                {"name": "web", "level": 2, "save": "dex", "condition": "restrained", "rounds": 1},
            ],
        },
    )
    t.do({"action": "begin"}, 1, 2, 20)
    t.act("sage", "cast", "gob", faces=(2,), spell="web")
    t.next()
    t.next()
    out = t.next()  # round 2 begins: the web's one round is up
    expired = of(out, ConditionExpired)
    assert [(e.target, e.condition) for e in expired] == [("gob", "restrained")]


def test_srd_28_until_the_end_of_a_named_creature_s_next_turn():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "gob", "frightened", until="end:brannoc")
    t.next()
    t.next()
    assert "frightened" in t.who("gob").conditions
    out = t.next()
    assert [e.condition for e in of(out, ConditionExpired)] == ["frightened"]


def test_srd_28_rounds_end_at_the_initiative_count_where_they_began_not_at_a_round_s_top():
    t = fight(("brannoc", "fighter"), ("maelis", "cleric"), ("gob", "goblin"))
    t.next()  # Maelis, at initiative count 16 of round 1
    t.next()
    t.next()
    t.next()  # round 2, Maelis again
    condition(t, "gob", "frightened", rounds=2)
    assert t.who("gob").conditions["frightened"]["until"]["count"] == 16
    for _ in range(4):  # the goblin; round 3: Brannoc, Maelis, the goblin
        assert not of(t.next(), ConditionExpired)
    out = t.next()  # round 4 begins with Brannoc (count 21): still frightened
    assert not of(out, ConditionExpired) and t.who("gob").has("frightened")
    out = t.next()  # count 16 of round 4: the two rounds are up
    (expired,) = of(out, ConditionExpired)
    assert expired.reason == "2 rounds are up at initiative count 16 of round 4"


def test_srd_28_a_spell_s_rounds_run_from_its_caster_s_count_and_status_says_so():
    t = fight(("brannoc", "fighter"), ("maelis", "cleric"), ("gob", "goblin"))
    t.next()
    t.act("maelis", "cast", "brannoc", spell="bless")
    lasting = t.who("brannoc").conditions["under bless"]["until"]
    assert (lasting["ends"], lasting["count"]) == (11, 16)
    seen = RULESET.view(t.state)
    row = next(w for w in seen.wounds if w.combatant == "brannoc")
    assert (
        row.detail["durations"]["under bless"]["text"] == "10 rounds left, ending at initiative 16"
    )


def test_srd_28_a_count_nobody_holds_any_more_is_passed_as_the_next_round_begins():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.next()  # the goblin's turn, at count 18
    condition(t, "brannoc", "frightened", rounds=1)
    t.next()  # round 2, Brannoc's turn: the goblin dies before its count comes
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})
    assert t.who("brannoc").has("frightened")
    out = t.next()  # round 3 begins with Brannoc: count 18 of round 2 has passed
    (expired,) = of(out, ConditionExpired)
    assert expired.reason == "1 round is up at initiative count 18 of round 2"


def test_srd_61_the_gm_cannot_set_a_condition_the_sheet_is_immune_to():
    t = Table()
    t.join("hild", sample("fighter", condition_immunities=["poisoned"]), "pc")
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 10)
    with pytest.raises(RefusedError, match=r"^hild is immune to being poisoned \(srd-61"):
        t.do({"action": "gm.condition-set", "target": "hild", "condition": "poisoned"})
    assert "poisoned" not in t.who("hild").conditions
    t.do({"action": "gm.condition-set", "target": "hild", "condition": "prone"})  # not immune
    assert "prone" in t.who("hild").conditions


def durations_shown(t: Table, who: str) -> dict[str, str]:
    seen = RULESET.view(t.state)
    row = next(w for w in seen.wounds if w.combatant == who)
    return {name: d["text"] for name, d in row.detail["durations"].items()}


def test_srd_28_what_is_left_of_rounds_that_end_at_a_count_names_the_round_they_end_in():
    """At the top of round 4, a condition that ends at count 16 of round 4 has part of that
    round left, not "0 rounds": status, play and the reports say which round."""
    t = fight(("brannoc", "fighter"), ("maelis", "cleric"), ("gob", "goblin"))
    t.next()  # Maelis, at initiative count 16 of round 1
    condition(t, "gob", "frightened", rounds=3)
    assert durations_shown(t, "gob") == {"frightened": "3 rounds left, ending at initiative 16"}
    for _ in range(8):  # the goblin; rounds 2 and 3; round 4 begins with Brannoc
        assert not of(t.next(), ConditionExpired)
    assert t.state.round == 4 and t.who("gob").has("frightened")
    assert durations_shown(t, "gob") == {"frightened": "until initiative 16 of round 4"}


def test_spells_that_pass_over_a_creature_type_refuse_it_and_the_samples_say_their_types():
    """SRD 5.1: hold person, a humanoid only (a wolf is a beast, a skeleton undead); hold
    monster "has no effect against the undead"; cure wounds and healing word "no effect on
    undead or constructs"."""
    t = fight(("maelis", "cleric"), ("wolf", "wolf"), ("bones", "skeleton"), ("gob", "goblin"))
    with pytest.raises(RefusedError, match="hold person affects humanoids only; wolf is a beast"):
        t.act("maelis", "cast", "wolf", spell="hold person")
    with pytest.raises(RefusedError) as refused:
        t.act("maelis", "cast", "bones", spell="cure wounds")
    assert (
        str(refused.value) == "cure wounds has no effect on undead or constructs; bones is undead"
    )
    t.act("maelis", "cast", "gob", faces=(2,), spell="hold person")
    fiend = Table()
    fiend.join("fiend", RULESET.monsters.find("pit fiend").sheet)
    fiend.join("bones", sample("skeleton"), "pc")
    fiend.join("wyrm", sample("wyrm"), "pc")
    fiend.do({"action": "begin"}, 20, 2, 1)
    assert fiend.who("fiend").sheet.spell("hold monster").per_day == 3
    with pytest.raises(RefusedError, match="hold monster has no effect on undead; bones is"):
        fiend.act("fiend", "cast", "bones", spell="hold monster")
    fiend.act("fiend", "cast", "wyrm", faces=(2,), spell="hold monster", resist=False)
    assert fiend.who("wyrm").has("paralysed")


@pytest.mark.parametrize(
    ("flags", "reason"),
    [
        ({"range": "long"}, "disadvantage: beyond normal range"),
        ({"hostile_near": True}, "disadvantage: a ranged attack with a hostile within 5 feet"),
    ],
)
def test_srd_17_a_thrown_weapon_at_range_is_a_ranged_attack(flags: dict, reason: str):
    """Issue 40: a handaxe thrown beyond 5 feet is hindered as a longbow's shot is."""
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    thrown = attack(t, 2, 2, within_5ft=False, weapon="handaxe", **flags)
    assert edge(thrown) == [reason]
    assert "srd-17" in rolls(thrown)[0].rules
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    near = {**flags, "within_5ft": True}
    if "range" in flags:  # issue 40: a range said of a swing is refused, not dropped
        with pytest.raises(RefusedError, match="handaxe is swung within 5 feet, so not at"):
            attack(t, 2, weapon="handaxe", **near)
        t = fight(("brannoc", "fighter"), ("gob", "goblin"))
        assert edge(attack(t, 2, 2, weapon="handaxe", **flags)) == [reason]  # so: thrown
    else:
        assert edge(attack(t, 2, weapon="handaxe", **near)) == []  # swung within 5 feet


def test_srd_61_a_failed_save_s_condition_does_not_land_on_a_sheet_immune_to_it():
    """Issue 40: Hild, immune to poisoned, failed a Constitution save with `-o fail=poisoned`
    and was logged poisoned, though the GM's `condition set` refuses it: every way a condition
    lands respects the sheet's condition immunities."""
    t = Table()
    t.join("hild", sample("fighter", condition_immunities=["poisoned"]), "pc")
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 10)
    out = t.act("hild", "save", faces=(4,), ability="con", dc=12, fail="poisoned")
    assert "poisoned" not in t.who("hild").conditions
    assert not of(out, ConditionSet)
    [said] = [e for e in of(out, Resolved) if e.action == "is immune"]
    assert said.outcome == "not poisoned, though failed the Constitution saving throw (DC 12)"
    assert "srd-61" in said.rules
    out = t.act("hild", "save", faces=(4,), ability="con", dc=12, fail="prone")
    assert "prone" in t.who("hild").conditions  # not immune to it: it lands
