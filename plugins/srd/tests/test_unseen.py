"""Unseen attackers and targets (srd-23), with what hiding, invisibility and blindness do
to every kind of attack: the Attack action, a Multiattack, a legendary attack, a readied
attack, an opportunity attack (srd-18) and a dodge (srd-5)."""

import pytest
from fracas.rules.api import CombatantRevealed, RefusedError
from srd_table import Table, fight, rolls, sample

UNSEEN_TARGET = "disadvantage: the attacker cannot see gob: gob is hidden"


def condition(t: Table, who: str, name: str) -> None:
    t.do({"action": "gm.condition-set", "target": who, "condition": name})


def edges(out) -> list[str]:
    return [m.reason for m in rolls(out)[0].modifiers if m.value == 0]


def test_srd_23_attacking_a_hidden_target_has_disadvantage():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "hide", faces=(15,))
    t.next()
    out = t.act("brannoc", "attack", "gob", faces=(10, 1), weapon="longsword")
    assert rolls(out)[0].roll.dice == "2d20kl1"
    assert edges(out) == [UNSEEN_TARGET]
    assert "srd-23" in [m.rule for m in rolls(out)[0].modifiers if m.value == 0]


def test_srd_23_a_hidden_target_of_each_attack_of_a_multiattack_or_a_legendary_attack():
    t = fight(("gob", "goblin"), ("wyrm", "wyrm"), ("brannoc", "fighter"))
    t.act("gob", "hide", faces=(15,))
    t.next()
    out = t.act("wyrm", "multiattack", "gob", faces=(1, 1, 1, 1, 1, 1))
    attacks = [r for r in rolls(out) if r.purpose.startswith("attack")]
    assert [r.roll.dice for r in attacks] == ["2d20kl1"] * 3
    t.next()
    t.next()  # brannoc's turn ends
    out = t.act("wyrm", "legendary", "gob", faces=(1, 1), option="tail attack")
    assert rolls(out)[0].roll.dice == "2d20kl1"
    assert UNSEEN_TARGET in edges(out)


def test_srd_23_a_readied_attack_on_a_hidden_target_has_disadvantage():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "ready", trigger="the goblin moves", then="attack")
    t.next()
    t.act("gob", "hide", faces=(15,))
    out = t.act("brannoc", "react", "gob", faces=(1, 1), weapon="longsword")
    assert edges(out) == [UNSEEN_TARGET]


def test_srd_18_no_opportunity_attack_on_a_creature_it_cannot_see():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "hide", faces=(15,))
    with pytest.raises(RefusedError, match="brannoc cannot see gob: gob is hidden"):
        t.act("brannoc", "opportunity", "gob", faces=(12,), weapon="longsword")
    for who, name in (("gob", "invisible"), ("brannoc", "blinded")):
        t = fight(("gob", "goblin"), ("brannoc", "fighter"))
        condition(t, who, name)
        with pytest.raises(RefusedError, match=f"cannot see gob: {who} is {name}"):
            t.act("brannoc", "opportunity", "gob", faces=(12,), weapon="longsword")
    with pytest.raises(RefusedError, match="cannot see gob: the GM says so"):
        fight(("gob", "goblin"), ("brannoc", "fighter")).act(
            "brannoc", "opportunity", "gob", faces=(12,), weapon="longsword", unseeing=True
        )


def dodged(name: str) -> list:
    """brannoc attacks the dodging gob, unseen by it: hidden, invisible, or gob blinded."""
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    if name == "hidden":
        t.act("brannoc", "hide", faces=(15,))
    t.next()
    t.act("gob", "dodge")
    if name != "hidden":
        condition(t, "gob" if name == "blinded" else "brannoc", name)
    t.next()
    return t.act("brannoc", "attack", "gob", faces=(2, 1), weapon="longsword")


@pytest.mark.parametrize("name", ["hidden", "invisible", "blinded"])
def test_srd_5_a_dodge_is_no_help_against_an_attacker_it_cannot_see(name):
    out = dodged(name)
    assert not [e for e in edges(out) if "dodging" in e]
    assert rolls(out)[0].roll.dice == "2d20kh1"


def test_srd_23_hidden_against_hidden_cancels_out():
    t = fight(("gob", "goblin"), ("wren", "rogue"))
    t.act("gob", "hide", faces=(15,))
    t.next()
    t.act("wren", "hide", faces=(15,))
    t.next()
    t.next()
    out = t.act("wren", "attack", "gob", faces=(2,), weapon="shortsword")
    assert rolls(out)[0].roll.dice == "d20"
    assert "advantage: wren attacks from hiding" in edges(out)
    assert UNSEEN_TARGET in edges(out)


def ambush(tmp_path, attacker: str = "gob"):
    """Wren (the players') and a goblin the players do not see (`add --hidden`), begun
    with the goblin first; the live encounter."""
    from fracas.projections import Fracas

    log = Fracas(str(tmp_path / "t.db"))
    e = log.new("srd", title="ambush")
    join = {"action": "join", "combatant": "wren", "sheet": sample("rogue"), "side": "pc"}
    e.execute(e.ruleset.command(join))
    join = {"action": "join", "combatant": "gob", "sheet": sample("goblin"), "side": "npc"}
    e.execute(e.ruleset.command(join), hidden=True)
    e.execute(e.ruleset.command({"action": "begin"}), dice=[1, 20])
    return log, e


@pytest.mark.parametrize("faces", [[2], [19, 4]], ids=["miss", "hit"])
def test_srd_23_an_attacker_the_players_did_not_see_is_revealed_by_its_attack(tmp_path, faces):
    """srd-23: an attack gives the attacker away, hit or miss: a goblin added --hidden is
    shown to the players by its first attack, in that step; undone, it is hidden again."""
    from fracas.projections.replay import timeline

    log, e = ambush(tmp_path)
    assert e.hidden() == {"gob"}
    attack = {"action": "attack", "actor": "gob", "targets": ["wren"], "weapon": "scimitar"}
    out = e.execute(e.ruleset.command(attack), dice=faces)
    [shown] = [ev for ev in out.events if isinstance(ev, CombatantRevealed)]
    assert shown.describe() == (
        "gob is revealed to the players: its attack gives it away, hit or miss"
    )
    assert e.hidden() == set() and "srd-23" in shown.rules
    said = [m.step.sentence for m in timeline(e, players=True)]
    assert any(s.startswith("gob attacks wren") for s in said), said
    e.undo()
    assert e.hidden() == {"gob"}
    log.close()


def test_srd_23_what_is_no_attack_leaves_the_unseen_unseen(tmp_path):
    """A dodge, or the GM's harm by hand, is no attack: the goblin stays unseen."""
    log, e = ambush(tmp_path)
    e.execute(e.ruleset.command({"action": "dodge", "actor": "gob"}))
    e.execute(e.ruleset.command({"action": "gm.harm", "target": "wren", "amount": 3}))
    assert e.hidden() == {"gob"}
    log.close()
