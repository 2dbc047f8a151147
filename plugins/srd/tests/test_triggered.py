"""Sneak attack (srd-38), reactions with a trigger (srd-39..42) and magic missile (srd-43)."""

import pytest
from fracas.rules.api import (
    BadInputError,
    ConditionExpired,
    ConditionSet,
    Damaged,
    RefusedError,
    Resolved,
    Rolled,
    Spent,
)
from srd_table import fight, of, rolls, sample

from fracas_srd.ruleset import RULESET
from fracas_srd.slots import slot_resource, slots_left

FROST = {"name": "frost", "damage": "2d6", "type": "cold", "finesse": True}
DODGE = {"name": "uncanny dodge", "trigger": "hit", "halves": True}


def outcomes(out) -> list[str]:
    return [e.told for e in of(out, Resolved)]


def spent(out) -> list[str]:
    return [e.resource for e in of(out, Spent)]


def test_srd_39_shield_turns_a_hit_into_a_miss_when_ac_plus_5_beats_the_roll():
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    out = t.act(
        "gob", "attack", "pc-ilse", faces=(10,), weapon="scimitar", defence={"pc-ilse": "shield"}
    )
    assert rolls(out)[0].result == "hit (14 vs AC 12)"
    assert "shield: the hit becomes a miss (14 vs AC 17)" in outcomes(out)
    assert outcomes(out)[-1] == "misses pc-ilse" and not of(out, Damaged)
    assert spent(out) == ["action", "attack", "reaction", "level 1 spell slot"]
    assert t.who("pc-ilse").reaction
    wound = next(w for w in RULESET.view(t.state).wounds if w.combatant == "pc-ilse")
    assert wound.detail["ac"] == 17
    out = t.next()  # Ilse's turn starts: the shield ends
    assert [e.condition for e in of(out, ConditionExpired)] == ["under shield"]


def test_srd_39_shield_adds_to_the_ac_cover_raised_and_both_read_as_ac():
    """Cover raises the AC the roll meets (srd-22), as shield does: 16 vs AC 14 (12 + 2),
    then 16 vs AC 19 once shield adds 5; the roll's total is not lowered."""
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    out = t.act("gob", "attack", "pc-ilse", faces=(12,), weapon="scimitar", cover="half",
                defence={"pc-ilse": "shield"})  # fmt: skip
    assert rolls(out)[0].result == "hit (16 vs AC 14)"
    assert "shield: the hit becomes a miss (16 vs AC 19)" in outcomes(out)
    assert outcomes(out)[-1] == "misses pc-ilse" and not of(out, Damaged)


def test_srd_39_shield_against_a_critical_still_hit_and_against_a_miss_not_cast():
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    out = t.act(
        "gob", "attack", "pc-ilse", faces=(20, 2, 3), weapon="scimitar",
        defence={"pc-ilse": "shield"},
    )  # fmt: skip
    assert "shield: not cast, it cannot turn the hit (a natural 20 still hits)" in outcomes(out)
    assert of(out, Damaged)[0].amount == 2 + 3 + 2 and not t.who("pc-ilse").reaction
    assert spent(out) == ["action", "attack"]
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    out = t.act(
        "gob", "attack", "pc-ilse", faces=(3,), weapon="scimitar", defence={"pc-ilse": "shield"}
    )
    assert "reaction" not in spent(out) and not t.who("pc-ilse").reaction


def test_srd_39_shield_is_not_cast_when_ac_plus_5_still_is_hit():
    t = fight(("wyrm", "wyrm"), ("pc-ilse", "wizard"))
    slots = slots_left(t.who("pc-ilse"), 1)
    out = t.act(
        "wyrm", "attack", "pc-ilse", faces=(10, 3, 4), weapon="bite", defence={"pc-ilse": "shield"}
    )
    assert "shield: not cast, it cannot turn the hit (19 vs AC 17)" in outcomes(out)
    assert "reaction" not in spent(out) and "level 1 spell slot" not in spent(out)
    assert not t.who("pc-ilse").reaction and slots_left(t.who("pc-ilse"), 1) == slots
    assert not t.who("pc-ilse").has("under shield")


def test_srd_39_the_paralysed_take_no_reaction_so_no_shield_against_a_critical_up_close():
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    t.do({"action": "gm.condition-set", "target": "pc-ilse", "condition": "paralysed"})
    command = RULESET.command(
        {"action": "attack", "actor": "gob", "targets": ["pc-ilse"], "weapon": "scimitar"}
    )
    assert RULESET.reactions(t.state, command) == {}
    with pytest.raises(RefusedError, match="no actions or reactions"):
        t.act("gob", "attack", "pc-ilse", faces=(5, 5), defence={"pc-ilse": "shield"})


def test_srd_27_a_stunned_targets_named_reaction_is_refused_alone_and_the_attack_re_entered():
    """srd-27, srd-39: a stunned creature takes no reactions; the GM is told that the
    reaction is what is wrong, nothing is recorded, and the attack goes in without it."""
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    t.do({"action": "gm.condition-set", "target": "pc-ilse", "condition": "stunned"})
    logged = len(t.log)
    with pytest.raises(RefusedError) as refused:
        t.act("gob", "attack", "pc-ilse", faces=(5, 5), defence={"pc-ilse": "shield"})
    assert str(refused.value) == (
        "pc-ilse is stunned: no actions or reactions (srd-27), so not shield; nothing was "
        "recorded: give it again without --defence pc-ilse=shield"
    )
    assert len(t.log) == logged
    out = t.act("gob", "attack", "pc-ilse", faces=(15, 3, 4), weapon="scimitar")
    assert [e.target for e in of(out, Damaged)] == ["pc-ilse"]


def test_srd_39_the_reactions_hook_offers_what_the_target_may_take_against_this_attack():
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    command = RULESET.command(
        {"action": "attack", "actor": "gob", "targets": ["pc-ilse"], "weapon": "scimitar"}
    )
    # absorb elements answers no slashing: not offered; shield and hellish rebuke are asked
    # once the dice show their trigger (the hit, the damage), not before the roll
    assert "pc-ilse" not in RULESET.reactions(t.state, command)
    assert RULESET.reacts_after(t.state, command) == ["pc-ilse"]
    with pytest.raises(RefusedError, match="answers acid, cold, fire, lightning, thunder"):
        t.act("gob", "attack", "pc-ilse", weapon="scimitar", defence={"pc-ilse": "absorb elements"})
    with pytest.raises(BadInputError, match="has no reaction 'parry'; theirs: shield"):
        t.act("gob", "attack", "pc-ilse", weapon="scimitar", defence={"pc-ilse": "parry"})
    t.next()
    with pytest.raises(RefusedError, match="cast as a reaction"):
        t.act("pc-ilse", "cast", "pc-ilse", spell="shield")
    t = fight(("maelis", "cleric"), ("pc-ilse", "wizard"))
    with pytest.raises(BadInputError, match="bless makes no attack and deals no damage"):
        t.act("maelis", "cast", "pc-ilse", spell="bless", defence={"pc-ilse": "shield"})
    bless = RULESET.command(
        {"action": "cast", "actor": "maelis", "targets": ["pc-ilse"], "spell": "bless"}
    )
    assert RULESET.reactions(t.state, bless) == {}


def test_srd_42_absorb_elements_answers_a_save_spell_s_damage_and_shield_does_not():
    t = fight(("pc-ilse", "wizard"), begin=False)
    t.join("mage", sample("wizard", resistances=[]))
    t.do({"action": "begin"}, 20, 10)
    burn = RULESET.command(
        {"action": "cast", "actor": "pc-ilse", "targets": ["mage"], "spell": "burning hands"}
    )
    assert RULESET.reactions(t.state, burn)["mage"].options == ["none", "absorb elements"]
    assert RULESET.reacts_after(t.state, burn) == ["mage"]  # hellish rebuke, once damaged
    darts = RULESET.command(
        {"action": "cast", "actor": "pc-ilse", "targets": ["mage"], "spell": "magic missile"}
    )  # shield answers darts aimed at it (srd-43): asked before they fly
    assert RULESET.reactions(t.state, darts)["mage"].options == ["none", "shield"]
    both = RULESET.command(
        {"action": "cast", "actor": "pc-ilse", "targets": ["mage", "pc-ilse"],
         "spell": "burning hands"}
    )  # fmt: skip
    assert set(RULESET.reactions(t.state, both)) == {"mage"}  # not the caster against itself
    with pytest.raises(RefusedError, match="shield answers a hit, and this makes no attack"):
        t.act("pc-ilse", "cast", "mage", spell="burning hands", defence={"mage": "shield"})
    out = t.act(
        "pc-ilse", "cast", "mage", faces=(3, 4, 4, 4), spell="burning hands",
        defence={"mage": "absorb elements"},
    )  # fmt: skip
    assert [r.roll.dice for r in rolls(out)] == ["d20", "3d6"]  # the save, then the damage
    assert of(out, Damaged)[0].amount == 6 and "reaction" in spent(out)


def test_srd_39_one_reaction_a_round_across_a_multiattack():
    t = fight(("wyrm", "wyrm"), begin=False)
    t.join("pc-ilse", sample("wizard", hp=60), "pc")
    t.do({"action": "begin"}, 20, 10)
    out = t.act(
        "wyrm", "multiattack", "pc-ilse", faces=(7, 12, 1, 1, 12, 1, 1),
        defence={"pc-ilse": "shield"},
    )  # fmt: skip
    # bite 7 + 9 = 16 hits AC 12; shield: AC 17, a miss; each claw's 21 beats AC 17 still up.
    assert spent(out).count("reaction") == 1
    assert outcomes(out).count("shield: the hit becomes a miss (16 vs AC 17)") == 1
    assert len(of(out, Damaged)) == 2
    t.next()
    t.act("pc-ilse", "dodge")
    t.next()  # round 2: the wyrm again; Ilse's reaction is back, then spent on an opportunity
    t.apply([Spent("pc-ilse", "reaction", 1, "opportunity attack", ["srd-4"])])
    with pytest.raises(RefusedError, match="used their reaction since their last turn began"):
        t.act("wyrm", "multiattack", "pc-ilse", faces=(8,), defence={"pc-ilse": "shield"})


def test_srd_40_uncanny_dodge_halves_a_hit_s_damage_before_resistance():
    t = fight(("brannoc", "fighter"), begin=False)
    t.join("pc-wren", sample("rogue", level=5, features=[DODGE]), "pc")
    t.do({"action": "begin"}, 20, 10)
    out = t.act(
        "brannoc", "attack", "pc-wren", faces=(15, 7), weapon="longsword",
        defence={"pc-wren": "uncanny dodge"},
    )  # fmt: skip
    hit = of(out, Damaged)[0]
    assert hit.amount == 5 and hit.breakdown[-1].reason == "halved by uncanny dodge"  # 10 // 2
    assert "srd-40" in of(out, Resolved)[0].rules
    t.next()
    t.next()  # round 2: Wren's reaction is back; an attacker she cannot see
    with pytest.raises(RefusedError, match="needs a foe it can see: the GM says so"):
        t.act(
            "brannoc", "attack", "pc-wren", faces=(15, 7), weapon="longsword", unseen=True,
            defence={"pc-wren": "uncanny dodge"},
        )  # fmt: skip


def test_srd_41_hellish_rebuke_after_the_damage_the_save_before_its_damage():
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    out = t.act(
        "gob", "attack", "pc-ilse", faces=(12, 4, 5, 1, 2, 3), weapon="scimitar",
        defence={"pc-ilse": "hellish rebuke"},
    )  # fmt: skip
    assert [r.roll.dice for r in rolls(out)] == ["d20", "1d6", "d20", "3d10"]
    save = rolls(out)[2]
    assert (
        save.purpose == "Dexterity saving throw against hellish rebuke (DC 12)"
        and "srd-31" in save.rules
    )
    rebuke = of(out, Damaged)[-1]
    assert (rebuke.target, rebuke.amount) == ("gob", 6) and "srd-41" in rebuke.rules
    assert t.who("gob").hp == 1 and "level 1 spell slot" not in spent(out)  # innate


def test_srd_35_a_grappling_rider_leaves_the_target_grappled_by_its_attacker():
    crab = {"name": "claw", "damage": "1d6", "rider": {"save": "str", "dc": 11,
            "condition": "grappled"}}  # fmt: skip
    t = fight(("crab", "goblin"), ("pc-brannoc", "fighter"), begin=False)
    t.join("crab2", sample("goblin", weapons=[crab]))
    t.do({"action": "begin"}, 20, 10, 15)  # crab, crab2, brannoc
    t.next()
    out = t.act("crab2", "attack", "pc-brannoc", faces=(19, 2, 3), weapon="claw")
    held = of(out, ConditionSet)[-1]
    assert (held.condition, held.detail) == ("grappled", {"by": "crab2"})
    assert t.who("pc-brannoc").speed == 0


def test_srd_39_a_reaction_spell_takes_the_lowest_slot_left_and_none_is_refused():
    t = fight(("gob", "goblin"), begin=False)
    t.join("gob2", sample("goblin"))
    t.join("pc-ilse", sample("wizard", slots=[0, 1]), "pc")
    t.do({"action": "begin"}, 20, 15, 10)
    shield = {"pc-ilse": "shield"}
    out = t.act("gob", "attack", "pc-ilse", faces=(10,), weapon="scimitar", defence=shield)
    assert "level 2 spell slot" in spent(out)
    t.next()
    t.next()
    t.next()  # a new round: the reaction is back, the slots are not
    with pytest.raises(RefusedError, match="no spell slot left for shield"):
        t.act("gob", "attack", "pc-ilse", faces=(10,), weapon="scimitar", defence=shield)


def test_srd_41_no_rebuke_from_the_downed_nor_without_damage():
    t = fight(("gob", "goblin"), begin=False)
    t.join("pc-ilse", sample("wizard", hp=3), "pc")
    t.do({"action": "begin"}, 20, 10)
    out = t.act(
        "gob", "attack", "pc-ilse", faces=(12, 4), weapon="scimitar",
        defence={"pc-ilse": "hellish rebuke"},
    )  # fmt: skip
    assert outcomes(out)[-1] == "pc-ilse is down: no hellish rebuke"
    assert "reaction" not in spent(out)


def test_srd_42_absorb_elements_resists_the_triggering_damage_and_lasts_a_turn():
    t = fight(("frosty", "goblin"), begin=False)
    t.join("frosty2", sample("goblin", weapons=[FROST]))
    t.join("pc-ilse", sample("wizard"), "pc")
    t.do({"action": "begin"}, 20, 15, 10)
    t.next()
    out = t.act(
        "frosty2", "attack", "pc-ilse", faces=(12, 4, 5), weapon="frost",
        defence={"pc-ilse": "absorb elements"},
    )  # fmt: skip
    absorbed = of(out, ConditionSet)[0]
    assert absorbed.condition == "under absorb elements"
    assert absorbed.detail["effect"]["resistances"] == ["cold"]
    assert of(out, Damaged)[0].amount == (4 + 5 + 2) // 2 and t.who("pc-ilse").reaction


def test_srd_42_absorb_elements_adds_1d6_of_the_type_to_the_first_melee_hit_of_its_next_turn():
    t = fight(("frosty", "goblin"), begin=False)
    t.join("frosty2", sample("goblin", weapons=[FROST]))
    wizard = sample("wizard")
    daggers = [*wizard["weapons"], *wizard["weapons"]]  # a second dagger for the other hand
    t.join("pc-ilse", {**wizard, "weapons": daggers}, "pc")
    t.do({"action": "begin"}, 20, 15, 10)
    t.next()
    t.act(
        "frosty2", "attack", "pc-ilse", faces=(12, 4, 5), weapon="frost",
        defence={"pc-ilse": "absorb elements"},
    )  # fmt: skip
    t.next()
    assert t.turn == "pc-ilse" and "charged with cold" in t.who("pc-ilse").conditions
    out = t.act("pc-ilse", "attack", "frosty", faces=(15, 3, 6), weapon="dagger")
    [hit] = of(out, Damaged)
    assert hit.amount == 3 + 6 + 2  # the dagger's 1d4 + Dex, and 1d6 cold
    assert "1d6 [6]: cold (absorb elements)" in [m.reason for m in hit.breakdown]
    assert "charged with cold" not in t.who("pc-ilse").conditions  # the first hit only
    t.act("pc-ilse", "offhand", "frosty2", faces=(15, 3), weapon="dagger")  # no 1d6 asked


def test_srd_51_absorb_elements_cast_with_a_level_2_slot_charges_2d6():
    """srd-42, srd-51: with no level 1 slot left, absorb elements spends a level 2 slot, and
    its charge is 1d6 more for the slot level above 1st: 2d6 on the first melee hit."""
    t = fight(("frosty", "goblin"), begin=False)
    t.join("frosty2", sample("goblin", weapons=[FROST]))
    t.join("pc-ilse", sample("wizard"), "pc")
    t.do({"action": "begin"}, 20, 15, 10)
    t.apply([Spent("pc-ilse", slot_resource(1), 4, "cast earlier", ["srd-50"])])
    t.next()
    out = t.act(
        "frosty2", "attack", "pc-ilse", faces=(12, 4, 5), weapon="frost",
        defence={"pc-ilse": "absorb elements"},
    )  # fmt: skip
    assert slot_resource(2) in spent(out) and slots_left(t.who("pc-ilse"), 2) == 1
    assert of(out, ConditionSet)[-1].reason.startswith("2d6 cold on its first melee hit")
    t.next()
    out = t.act("pc-ilse", "attack", "frosty", faces=(15, 3, 6, 2), weapon="dagger")
    assert of(out, Damaged)[0].amount == 3 + 2 + 6 + 2  # the dagger's 1d4 + Dex, 2d6 cold


def test_srd_43_magic_missile_darts_hit_with_no_roll_and_shield_stops_them():
    t = fight(("pc-ilse", "wizard"), ("gob", "goblin"), ("gob2", "goblin"))
    with pytest.raises(
        RefusedError,
        match=r"3 darts: the darts must add up to 3 \(3 at 1st level, one more per level above\)",
    ):
        t.act("pc-ilse", "cast", "gob", "gob2", spell="magic missile")
    out = t.act("pc-ilse", "cast", "gob", "gob2", "gob", faces=(1, 2, 3), spell="magic missile")
    assert [r.roll.dice for r in rolls(out)] == ["1d4", "1d4", "1d4"]
    assert [(e.target, e.amount) for e in of(out, Damaged)] == [("gob", 2), ("gob2", 3), ("gob", 4)]
    t = fight(("pc-ilse", "wizard"), begin=False)
    t.join("mage", sample("wizard"))
    t.do({"action": "begin"}, 20, 10)
    out = t.act("pc-ilse", "cast", "mage", spell="magic missile", defence={"mage": "shield"})
    assert not rolls(out) and not of(out, Damaged)
    assert outcomes(out) == ["mage takes no damage from it"] * 3
    assert "srd-43" in of(out, Resolved)[0].rules and "reaction" in spent(out)


def test_srd_43_shield_against_darts_all_at_one_target_is_one_reaction_and_one_slot():
    t = fight(("pc-ilse", "wizard"), begin=False)
    t.join("evil", sample("wizard"))
    t.do({"action": "begin"}, 1, 20)
    before = slots_left(t.who("pc-ilse"), 1)
    out = t.act(
        "evil", "cast", "pc-ilse", "pc-ilse", "pc-ilse", spell="magic missile",
        defence={"pc-ilse": "shield"},
    )  # fmt: skip
    assert [e.resource for e in of(out, Spent) if e.combatant == "pc-ilse"] == [
        "reaction", slot_resource(1)
    ]  # fmt: skip
    assert slots_left(t.who("pc-ilse"), 1) == before - 1
    assert outcomes(out) == ["pc-ilse takes no damage from it"] * 3


def test_srd_38_sneak_attack_once_a_turn_with_advantage_or_an_ally_near():
    t = fight(("wren", "rogue"), ("gob", "goblin"), ("gob2", "goblin"))
    out = t.act(
        "wren", "attack", "gob", faces=(3, 12, 1, 2, 3), weapon="shortsword", advantage=True
    )
    assert [r.roll.dice for r in rolls(out)] == ["2d20kh1", "1d6", "2d6"]
    assert "once a turn" in spent(out) and t.who("gob").dead  # 1 + 3 + 5
    out = t.act("wren", "offhand", "gob2", faces=(12, 1, 1), weapon="dagger", advantage=True)
    assert [r.roll.dice for r in rolls(out)] == ["2d20kh1", "1d4"]  # once a turn
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    out = t.act("wren", "attack", "gob", faces=(12, 1, 1, 1), weapon="shortsword", ally_near=True)
    assert [r.roll.dice for r in rolls(out)] == ["d20", "1d6", "2d6"]
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    out = t.act(
        "wren", "attack", "gob", faces=(12, 14, 1), weapon="shortsword", ally_near=True,
        disadvantage=True,
    )  # fmt: skip
    assert [r.roll.dice for r in rolls(out)] == ["2d20kl1", "1d6"]
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    out = t.act("wren", "attack", "gob", faces=(12, 1), weapon="unarmed", advantage=True)
    assert "once a turn" not in spent(out)


def test_srd_39_the_target_s_player_answers_shield_to_an_attack_that_asks(tmp_path):
    from importlib import resources

    from click.testing import CliRunner
    from fracas.cli.main import cli

    samples = resources.files("fracas_srd").joinpath("samples")
    db = str(tmp_path / "fight.db")

    def run(*args: str) -> str:
        done = CliRunner().invoke(cli, ["--db", db, *args])
        assert done.exit_code == 0, done.output
        return done.output

    run("new", "-r", "srd")
    run("add", "gob", "--sheet", str(samples / "goblin.toml"))
    run("add", "ilse", "--sheet", str(samples / "wizard.toml"), "--side", "pc")
    run("begin", "--dice", "20,5")
    asked = run("act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "10")
    assert "none | shield" in asked  # asked once it hits; hellish rebuke once damaged
    out = run("answer", "ilse", "shield")
    assert "shield: the hit becomes a miss (14 vs AC 17)" in out


def settled_results(out) -> list[str | None]:
    """Each roll's result as the dice box says it, once its step is decided."""
    assert RULESET.settled is not None
    return [
        RULESET.settled(e, out[i + 1 :]) or e.result
        for i, e in enumerate(out)
        if isinstance(e, Rolled)
    ]


def test_a_roll_a_later_event_changed_reads_as_decided_on_the_dice_box():
    """Issue 37: the TV's dice box said "hit (12 vs AC 12)" for an attack a shield turned
    into a miss. The roll reads as its step decided it: the miss and why; a failed save
    legendary resistance made a success reads as the success (srd-39, srd-56)."""
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    out = t.act(
        "gob", "attack", "pc-ilse", faces=(10,), weapon="scimitar", defence={"pc-ilse": "shield"}
    )
    assert settled_results(out) == ["miss (14 vs AC 17, shield)"]
    t = fight(("gob", "goblin"), ("pc-ilse", "wizard"))
    out = t.act("gob", "attack", "pc-ilse", faces=(20, 2, 3), weapon="scimitar",
                defence={"pc-ilse": "shield"})  # fmt: skip
    assert settled_results(out)[0] == rolls(out)[0].result  # a natural 20 still hits
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"))
    out = t.act("maelis", "cast", "wyrm", faces=(2,), spell="sacred flame")
    assert settled_results(out) == ["success: legendary resistance"]
