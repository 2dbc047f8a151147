"""Multiattack and legendary actions (srd-29)."""

import pytest
from fracas.rules.api import RefusedError, Resolved, Spent
from srd_table import Table, fight, of, rolls, sample

from fracas_srd.ruleset import RULESET


def test_srd_29_multiattack_is_one_action_of_the_sheet_s_attacks_in_order():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue"))
    out = t.act("wyrm", "multiattack", "brannoc", "wren", "wren", faces=(2, 3, 1))
    attacks = [r.purpose for r in rolls(out) if r.purpose.startswith("attack")]
    assert attacks == [
        "attack on brannoc with bite",
        "attack on wren with claw",
        "attack on wren with claw",
    ]
    assert [(e.resource, e.reason) for e in of(out, Spent)] == [
        ("action", "multiattack"),
        ("attack", "its Multiattack of bite, claw and claw"),
    ]
    with pytest.raises(RefusedError, match="3 attacks"):
        fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue")).act(
            "wyrm", "multiattack", "brannoc", "wren"
        )


def test_an_attack_past_the_attack_action_s_points_a_monster_to_its_multiattack():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue"))
    t.act("wyrm", "attack", "brannoc", weapon="bite", faces=(15, 3, 3))
    with pytest.raises(RefusedError) as refused:
        t.act("wyrm", "attack", "brannoc", weapon="claw")
    assert str(refused.value) == (
        "wyrm has made the only attack of its Attack action; its Multiattack (bite, claw "
        "and claw) is one action, taken instead of Attack on its next turn: "
        "`fracas act wyrm multiattack TARGET` (or a target for each attack)"
    )


def test_srd_29_legendary_actions_come_at_the_end_of_another_s_turn_one_at_a_time():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"), ("wren", "rogue"))
    with pytest.raises(RefusedError, match="end of another creature's turn"):
        t.act("wyrm", "legendary", option="detect")
    with pytest.raises(RefusedError, match="no legendary option 'nothing'"):
        t.act("wyrm", "legendary", option="nothing")
    with pytest.raises(RefusedError, match=r"legendary options: .*; pick one with -o option="):
        t.act("wyrm", "legendary")


def test_srd_29_a_legendary_option_costs_its_points_and_they_come_back_on_its_turn():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue"))
    t.next()  # the wyrm's turn ends: no legendary action after its own turn
    with pytest.raises(RefusedError, match="own turn"):
        t.act("wyrm", "legendary", option="detect")
    t.next()  # Brannoc's turn ends
    out = t.act("wyrm", "legendary", "brannoc", faces=(15, 3, 3), option="tail attack")
    assert [(e.resource, e.amount) for e in of(out, Spent)] == [("legendary action", 1)]
    with pytest.raises(RefusedError, match="at this turn's end"):
        t.act("wyrm", "legendary", option="detect")
    t.act("wren", "dash")
    with pytest.raises(RefusedError, match="end of another creature's turn"):
        t.act("wyrm", "legendary", option="detect")
    t.next()  # Wren's turn ends: one more, the wing attack for the 2 left
    t.act("wyrm", "legendary", "brannoc", "wren", option="wing attack")
    assert of(t.log, Spent)[-1].reason == "wing attack"
    assert of(t.log, Resolved)[-1].outcome == "the GM narrates what it does"
    with pytest.raises(RefusedError, match="at this turn's end"):
        t.act("wyrm", "legendary", option="detect")
    assert t.who("wyrm").legendary_prior == 0
    assert t.who("wyrm").legendary_left == 3  # round 2: its own turn began, they are back


def test_srd_29_no_legendary_action_without_the_points_or_while_incapacitated():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue"))
    t.next()
    t.next()
    t.act("wyrm", "legendary", option="wing attack")
    t.next()
    with pytest.raises(RefusedError, match="1 legendary action left, this costs 2"):
        t.act("wyrm", "legendary", option="wing attack")
    t.do({"action": "gm.condition-set", "target": "wyrm", "condition": "stunned"})
    with pytest.raises(RefusedError, match="stunned"):
        t.act("wyrm", "legendary", option="detect")


def test_srd_29_a_surprised_legendary_creature_waits_for_its_first_turn_to_end():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"), ("wren", "rogue"), begin=False)
    t.do({"action": "surprise", "targets": ["wyrm"]})
    t.do({"action": "begin"}, 20, 16, 12)
    t.next()
    t.next()  # the wyrm's first turn ends: no longer surprised
    t.next()  # Wren's turn ends
    t.act("wyrm", "legendary", option="detect")


def test_srd_29_the_dead_have_no_turn_so_no_turn_end_for_a_legendary_action():
    t = fight(("wyrm", "wyrm"), ("gob", "goblin"), ("brannoc", "fighter"))
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})
    t.next()  # the wyrm's turn ends; the goblin is dead and skipped
    assert t.turn == "brannoc"


def dying_wren_after_the_goblin() -> Table:
    """The wyrm, then the goblin, then Wren, who is dying: the goblin's turn ends."""
    t = fight(("wyrm", "wyrm"), ("gob", "goblin"), ("wren", "rogue"))
    t.do({"action": "gm.harm", "target": "wren", "amount": t.who("wren").hp})
    t.next()
    return t


def test_srd_29_a_legendary_action_at_a_turn_end_comes_before_the_next_turn_s_death_save():
    t = dying_wren_after_the_goblin()
    out = t.next()  # the goblin's turn ends; Wren's death save waits for the wyrm
    assert t.turn == "wren" and not rolls(out)
    waits = of(out, Resolved)[-1].outcome
    assert "after any legendary action" in waits
    assert "`" not in waits and "fracas" not in waits  # the report reads it: no commands
    t.act("wyrm", "legendary", "wren", faces=(15, 3, 3), option="tail attack", within_5ft=False)
    assert t.who("wren").failures == 1  # damage at 0 hit points (srd-15)
    out = t.next(12)  # Wren's turn begins with her death save, then ends: she is down
    assert [r.purpose for r in rolls(out)] == ["death save"]
    assert t.who("wren").successes == 1 and t.who("wren").failures == 1
    assert t.turn == "wyrm"


def test_srd_29_the_death_save_closes_the_window_for_legendary_actions():
    t = dying_wren_after_the_goblin()
    t.next()
    out = t.next(20)  # a natural 20: Wren is up with 1 HP and her turn goes on
    assert t.turn == "wren" and t.who("wren").hp == 1
    assert [r.purpose for r in rolls(out)] == ["death save"]
    with pytest.raises(RefusedError, match="end of another creature's turn"):
        t.act("wyrm", "legendary", option="detect")
    t.act("wren", "dash")


def test_srd_14_with_no_legendary_creature_the_death_save_comes_with_the_turn():
    t = fight(("gob", "goblin"), ("wren", "rogue"))
    t.do({"action": "gm.harm", "target": "wren", "amount": t.who("wren").hp})
    out = t.next(12)
    assert [r.purpose for r in rolls(out)] == ["death save"] and t.turn == "wren"


def mummy_lord_at_a_turn_end() -> Table:
    t = Table()
    t.join("lord", RULESET.monsters.find("mummy lord").sheet)
    t.join("pc", sample("fighter"), "pc")
    t.do({"action": "begin"}, 2, 20)
    t.next()  # the fighter's turn ends: the lord may take a legendary action
    return t


def test_srd_29_a_legendary_attack_uses_the_weapon_chosen():
    t = mummy_lord_at_a_turn_end()
    out = t.act("lord", "legendary", "pc", faces=(1,), option="attack", weapon="rotting fist")
    assert [r.purpose for r in rolls(out)] == ["attack on pc with rotting fist"]


def test_srd_29_a_legendary_option_of_two_uses_the_one_named_or_asks_which():
    t = mummy_lord_at_a_turn_end()
    with pytest.raises(RefusedError) as refused:
        t.act("lord", "legendary", "pc", option="attack")
    assert str(refused.value) == (
        "lord's attack uses its rotting fist or its dreadful glare: "
        "name one, -w 'rotting fist' or -w 'dreadful glare'"
    )
    out = t.act("lord", "legendary", "pc", faces=(19,), option="attack", weapon="dreadful glare")
    assert [r.purpose for r in rolls(out)] == ["Wisdom saving throw against dreadful glare (DC 16)"]


def test_srd_29_a_legendary_action_refuses_a_weapon_it_does_not_offer():
    t = mummy_lord_at_a_turn_end()
    with pytest.raises(
        RefusedError,
        match=r"^lord's attack uses its rotting fist or its dreadful glare, not 'bite'$",
    ):
        t.act("lord", "legendary", "pc", option="attack", weapon="bite")
    with pytest.raises(
        RefusedError, match=r"^lord's blinding dust uses its blinding dust, not 'rotting"
    ):
        t.act("lord", "legendary", "pc", option="blinding dust", weapon="rotting fist")
    assert t.who("lord").legendary_left == 3  # nothing spent


def mummy_and_fighter() -> Table:
    t = Table()
    t.join("mummy", RULESET.monsters.find("mummy").sheet)
    t.join("pc", sample("fighter"), "pc")
    t.do({"action": "begin"}, 20, 2)
    return t


def test_srd_29_a_multiattack_names_the_ability_that_is_part_of_it():
    """The mummy "can use its Dreadful Glare and makes one attack with its rotting fist"."""
    t = mummy_and_fighter()
    out = t.act("mummy", "multiattack", "pc", faces=(1,))
    said = [e.outcome for e in of(out, Resolved) if "Multiattack too" in e.outcome]
    assert said == ["its dreadful glare is part of this Multiattack too: "
                    "cast -o spell='dreadful glare'"]  # fmt: skip


def test_srd_29_the_ability_of_a_multiattack_may_follow_its_attacks_once():
    t = mummy_and_fighter()
    t.act("mummy", "multiattack", "pc", faces=(1,))  # the fist misses
    t.act("mummy", "cast", "pc", faces=(9,), spell="dreadful glare")
    assert t.who("pc").has("frightened")
    with pytest.raises(RefusedError, match=r"^mummy has used its dreadful glare in this Multi"):
        t.act("mummy", "cast", "pc", spell="dreadful glare")


def test_srd_29_the_ability_first_then_the_attacks_and_not_again():
    t = mummy_and_fighter()
    t.act("mummy", "cast", "pc", faces=(19,), spell="dreadful glare")
    out = t.act("mummy", "multiattack", "pc", faces=(1,))
    assert not [e for e in of(out, Resolved) if "Multiattack too" in e.outcome]  # used
    with pytest.raises(RefusedError, match="has used its dreadful glare"):
        t.act("mummy", "cast", "pc", spell="dreadful glare")


def test_srd_29_the_bestiary_s_multiattacks_keep_every_part_they_can():
    """A part named in the plural ("two with its claws") is the weapon "claw"; an ability
    that is part of it (a gibbering mouther's Blinding Spittle) is marked so."""
    sheet = RULESET.monsters.find("dragon turtle").sheet
    assert sheet["multiattack"] == ["bite", "claw", "claw"]
    mouther = RULESET.sheet(RULESET.monsters.find("gibbering mouther").sheet)
    assert mouther.multiattack == ["bites"] and mouther.spell("blinding spittle").multiattack


def test_srd_29_a_legendary_ability_on_one_target_refuses_a_second():
    t = mummy_lord_at_a_turn_end()
    t.do({"action": "join", "combatant": "pc2", "sheet": sample("rogue"), "side": "pc"}, 5)
    glare = {"option": "attack", "weapon": "dreadful glare"}
    with pytest.raises(RefusedError, match=r"^dreadful glare takes one target, not 2$"):
        t.act("lord", "legendary", "pc", "pc2", **glare)


def filed(tmp_path, *commands: tuple[dict, list[int] | None]) -> dict[int, tuple[int, list[str]]]:
    """Each step's (round, turn) as the replay and the report file it, after the commands,
    in a fight of Brannoc, the wyrm and Wren (initiative in that order)."""
    from fracas.projections import Fracas
    from fracas.projections.replay import timeline

    with Fracas(str(tmp_path / "t.db")) as log:
        e = log.new("srd", title="the wyrm's lair")
        cast = (("brannoc", "fighter", "pc"), ("wyrm", "wyrm", "npc"), ("wren", "rogue", "pc"))
        for who, name, side in cast:
            join = {"action": "join", "combatant": who, "sheet": sample(name), "side": side}
            e.execute(e.ruleset.command(join))
        e.execute(e.ruleset.command({"action": "begin"}), dice=[20, 16, 8])
        for data, dice in commands:
            e.execute(e.ruleset.command(data), dice=dice)
        return {m.step.step: (m.step.round, m.step.acting) for m in timeline(e)}


TAIL = {"action": "legendary", "actor": "wyrm", "targets": ["brannoc"], "option": "tail attack"}


def test_srd_29_a_legendary_action_after_next_is_filed_at_the_end_of_the_turn_that_ended(tmp_path):
    """srd-29: "only at the end of another creature's turn": taken after `next`, before the
    next creature acts, it is filed under the turn that ended, in its round (the last turn
    of round 1 too); what the next creature then does is its own turn's."""
    steps = filed(
        tmp_path,
        ({"action": "next"}, None),  # step 6: Brannoc's turn ends
        ({**TAIL}, [15, 3, 3]),  # 7: at the end of Brannoc's turn
        ({"action": "dash", "actor": "wyrm"}, None),  # 8: the wyrm's own turn
        ({"action": "next"}, None),  # 9
        ({"action": "next"}, None),  # 10: Wren's turn ends, and round 1 with it
        ({**TAIL, "option": "detect", "targets": []}, None),  # 11: at the end of Wren's
        ({"action": "dodge", "actor": "brannoc"}, None),  # 12: round 2, Brannoc's turn
    )
    assert [steps[n] for n in range(6, 13)] == [
        (1, ["brannoc"]), (1, ["brannoc"]), (1, ["wyrm"]), (1, ["wyrm"]), (1, ["wren"]),
        (1, ["wren"]), (2, ["brannoc"])]  # fmt: skip
