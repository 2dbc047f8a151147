"""What the table sees of a d20 fight: the order, health with temporary hit points and
legendary actions, the key numbers, death saves, and the words of its sentences."""

from fracas.rules.api import gm
from srd_table import fight

from fracas_srd.events import TemporaryHitPoints
from fracas_srd.ruleset import RULESET


def row(t, who: str):
    return next(w for w in RULESET.view(t.state).wounds if w.combatant == who)


def test_the_board_shows_ac_temporary_hit_points_reaction_and_death_saves_in_the_status():
    t = fight(("gob", "goblin"), ("pc-wren", "rogue"), ("wyrm", "wyrm"))
    t.apply([TemporaryHitPoints("pc-wren", 4, "a draught", ["srd-11"])])
    wren = row(t, "pc-wren")
    assert wren.health == "HP 21/21 +4 temp, Hit Dice 3/3"  # srd-58: for a short rest
    assert RULESET.numbers_of(wren) == {"AC": 14, "Temp HP": 4, "Reaction": "ready"}
    assert row(t, "wyrm").health == "HP 150/150, legendary 3/3, legendary resistance 3/3"
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 25})
    assert "Death saves" not in RULESET.numbers_of(row(t, "pc-wren"))  # the status says them
    order = RULESET.view(t.state).initiative
    assert [(r.combatant, r.key, r.status) for r in order] == [
        ("gob", "init 22", "acting"),
        ("pc-wren", "init 19", "dying (0 saved, 0 failed)"),
        ("wyrm", "init 12", ""),
    ]


def test_every_action_has_a_verb_and_every_flag_a_line_of_help():
    assert set(RULESET.actions) <= set(RULESET.verbs)
    for action in RULESET.actions:
        for name in RULESET.fields_of(action):
            if name not in ("action", "actor", "targets", "modifiers", "weapon"):
                assert name in RULESET.field_help, (action, name)


OVER = "no NPC is left fighting; the PCs' side stands: end the fight with `fracas end`?"


def over(t) -> str:
    """The GM's one line that the fight is over (fracas's, from srd's `fallen_sides`)."""
    return gm.over(RULESET, RULESET.view(t.state))


def test_fracas_says_the_fight_is_over_once_when_one_side_has_nobody_left_fighting():
    """srd gave its own note ("one side has no conscious combatant left") beside fracas's
    line ("the fight is over ... `fracas end`"): the table read it twice. srd says who has
    fallen (`fallen_sides`), and fracas's line alone says it."""
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), ("gob2", "goblin"))
    assert RULESET.fallen_sides is not None
    assert over(t) == ""
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})
    assert over(t) == ""
    t.do({"action": "gm.harm", "target": "gob2", "amount": 7})
    assert over(t) == OVER
    assert RULESET.view(t.state).notes == []


def test_a_pc_only_dying_is_said_and_the_gm_decides_whether_the_fight_is_over():
    """Issue 40 (a 5e GM): with Brannoc dying (death saves to make) fracas said "the fight is
    over: no pc combatant is left standing". A dying PC may yet be saved: the line says he is
    dying, leaves the end to the GM, and says PC and NPC, not the sides' ids."""
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.do({"action": "gm.harm", "target": "brannoc", "amount": 40})
    said = over(t)
    assert said.startswith("no PC is left fighting (brannoc is dying"), said
    assert "the NPCs' side stands" in said and "`fracas end`" in said, said
    assert "the fight is over" not in said and " pc " not in said, said
    players = gm.over(RULESET, RULESET.view(t.state), players=True)
    assert "brannoc is dying" in players and "the GM says whether the fight is over" in players
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})
    assert over(t).startswith("no PC or NPC is left fighting"), over(t)


def test_srd_27_a_paralysed_stunned_or_sleeping_side_is_still_in_the_fight():
    """srd-27: paralysed and stunned are incapacitated, not down; one asleep (unconscious
    above 0 hit points) wakes when hurt (srd-49): the fight is over only for a side whose
    every creature is dead, at 0 hit points or removed."""
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), ("gob2", "goblin"))
    for name in ("paralysed", "stunned", "incapacitated", "unconscious"):
        t.do({"action": "gm.condition-set", "target": "gob", "condition": name})
    t.do({"action": "gm.harm", "target": "gob2", "amount": 7})
    assert over(t) == ""
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})  # at 0: dead or dying
    assert "no NPC is left fighting" in over(t)


def test_a_removed_creature_has_left_the_fight():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), ("gob2", "goblin"))
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})
    t.do({"action": "gm.remove", "target": "gob2", "reason": "flees"})
    assert "no NPC is left fighting" in over(t)


NAMES = {"maelis": "Maelis", "wren": "Wren", "wyrm": "Ashen Wyrm", "brannoc": "Brannoc"}


def said(t, actor: str, action: str, *targets: str, faces: tuple = (), **fields) -> str:
    """The report's sentence for one command, as the projection words it."""
    from fracas.projections.sentences import sentence

    out = t.act(actor, action, *targets, faces=faces, **fields)
    command = {"action": action, "actor": actor, "targets": list(targets), **fields}
    return sentence(out, command, NAMES, RULESET)


def test_a_spell_a_legendary_action_and_a_multiattack_read_as_sentences():
    t = fight(("maelis", "cleric"), ("wren", "rogue"), ("wyrm", "wyrm"), ("brannoc", "fighter"))
    t.do({"action": "gm.harm", "target": "wren", "amount": 5})
    text = said(t, "maelis", "cast", "wren", faces=(3,), spell="cure wounds")
    assert text.startswith("Maelis casts cure wounds on Wren: ")
    t.next()
    out = said(t, "wyrm", "legendary", "maelis", faces=(2,), option="tail attack")
    assert out.startswith("Ashen Wyrm uses its legendary tail attack on Maelis: ")
    t.next()
    out = said(t, "wyrm", "multiattack", "brannoc", "brannoc", "wren", faces=(2, 2, 2))
    assert out.startswith("Ashen Wyrm attacks Brannoc twice and Wren: ")
    t.next()
    t.next()
    out = said(t, "wyrm", "legendary", faces=(), option="detect")
    assert out == "Ashen Wyrm uses its legendary detect: the GM narrates what it does"


def test_a_bad_choice_lists_each_choice_once_and_no_empty_one():
    import pytest
    from fracas.rules.api import BadInputError

    with pytest.raises(BadInputError) as bad:
        RULESET.command({"action": "save", "actor": "ilse", "ability": "foo", "dc": 10})
    assert "or one of" not in str(bad.value) and "cha, con, dex, int, str, wis" in str(bad.value)
    with pytest.raises(BadInputError) as bad:
        RULESET.command({"action": "shove", "actor": "gob", "targets": ["x"], "defend_with": "y"})
    assert str(bad.value).endswith("use one of: acrobatics, athletics")


def test_the_legendary_resistances_left_show_beside_the_legendary_actions():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    assert row(t, "wyrm").health == "HP 150/150, legendary 3/3, legendary resistance 3/3"


def test_a_dead_creature_has_no_reaction_ready():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})
    assert t.who("gob").dead
    assert RULESET.numbers_of(row(t, "gob"))["Reaction"] == ""


def test_a_dying_creature_s_row_says_dying_once_and_no_reaction_ready():
    from fracas.projections.board import board

    t = fight(("gob", "goblin"), ("pc-wren", "rogue"))
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 25})
    [wren] = [
        r for r in board("e", RULESET, RULESET.view(t.state)).rows if r.combatant == "pc-wren"
    ]
    assert wren.status == "dying (0 saved, 0 failed)" and "dying" not in wren.conditions
    assert RULESET.numbers_of(row(t, "pc-wren"))["Reaction"] == ""  # unconscious: none (srd-27)


def test_an_incapacitated_creature_has_no_reaction_ready():
    t = fight(("gob", "goblin"), ("pc-wren", "rogue"))
    t.do({"action": "gm.condition-set", "target": "pc-wren", "condition": "stunned"})
    assert RULESET.numbers_of(row(t, "pc-wren"))["Reaction"] == ""


def test_concentrating_names_the_spell():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "gob", faces=(2,), spell="hold person")
    assert row(t, "maelis").conditions == [
        "concentrating on hold person "
        "(10 rounds left, ending at initiative 20)"]  # fmt: skip


def test_the_gm_s_status_says_the_fight_is_over_in_one_line(tmp_path):
    from srd_cli import add, gm_on, ok

    gm = gm_on(tmp_path / "over.db")
    ok(gm, "new", "-r", "srd", "--id", "over", "--title", "Over")
    add(gm, "hild", "fighter", "Hild")
    add(gm, "gob", "goblin", "Goblin", "npc")
    ok(gm, "begin", "--dice", "20,2")
    harmed = ok(gm, "harm", "gob", "30")
    shown = ok(gm, "status")
    for said in (harmed, shown):
        assert said.count("no NPC is left fighting") == 1, said
        assert "conscious combatant" not in said, said


def test_srd_26_a_concentration_says_its_duration_once_what_it_holds_names_whose_it_is():
    """Issue 40 (a 5e GM): bless showed "10 rounds left, ending at initiative 20" on the
    caster's concentration and again on every blessed creature. The duration is the
    concentration's; each effect it holds says whose concentration holds it."""
    t = fight(("maelis", "cleric"), ("pc-brannoc", "fighter"), ("gob", "goblin"))
    t.act("maelis", "cast", "pc-brannoc", "maelis", spell="bless")
    name = t.who("maelis").name
    held = f"under bless ({name}'s concentration)"
    assert row(t, "maelis").conditions == [
        "concentrating on bless (10 rounds left, ending at initiative 20)",
        held,
    ]
    assert row(t, "pc-brannoc").conditions == [held]
    assert row(t, "pc-brannoc").detail["durations"]["under bless"]["rounds_left"] == 10


def test_the_gm_s_status_says_a_dying_character_s_death_saves_once(tmp_path):
    """Issue 40 (a 5e GM): `fracas status` said "dying (1 saved, 0 failed)" beside a Death
    saves column saying "1✓ 0✗": the saves are said once, in the status (the TV's too)."""
    from srd_cli import add, gm_on, ok

    gm = gm_on(tmp_path / "saves.db")
    ok(gm, "new", "-r", "srd", "--id", "saves", "--title", "Saves")
    add(gm, "hild", "fighter", "Hild")
    add(gm, "gob", "goblin", "Goblin", "npc")
    ok(gm, "begin", "--dice", "2,20")
    ok(gm, "harm", "hild", "40")
    ok(gm, "next", "--dice", "12")  # her death save: a success
    shown = ok(gm, "status")
    assert "dying (1 saved, 0 failed)" in shown, shown
    assert "Death saves" not in shown and "1✓" not in shown, shown
