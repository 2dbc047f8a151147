"""What an outside 5e GM found (issue 40), played through the CLI as a GM types it: an
attack, a Multiattack or a spell aimed at the dead is refused, nothing spent; a search is
Perception or Investigation as the GM names it."""

import pytest
from srd_cli import (
    SAMPLES,
    Gm,
    chapel,
    fight,
    gm_on,
    monster,
    ok,
    refused,
    sample,
    status_row,
    written,
)

WYRM = ["add", "wyrm", "--sheet", str(SAMPLES / "wyrm.toml"), "--name", "Wyrm"]
GOBLIN = ["add", "gob", "--sheet", str(SAMPLES / "goblin.toml"), "--name", "Goblin"]
ILSE = ["add", "ilse", "--sheet", str(SAMPLES / "wizard.toml"), "--side", "pc", "--name", "Ilse"]


@pytest.fixture
def graveyard(tmp_path) -> Gm:
    """The wyrm (first), a goblin the GM has killed, and Ilse, a wizard (last)."""
    gm = fight(tmp_path / "graveyard.db", "Graveyard", "20,5,3", WYRM, GOBLIN, ILSE)
    ok(gm, "harm", "gob", "50")
    return gm


def test_srd_29_a_multiattack_at_the_dead_is_refused_naming_its_state(graveyard):
    said = refused(graveyard, "act", "wyrm", "multiattack", "gob")
    assert said.startswith("Error: Goblin is dead"), said
    # one of several targets dead is refused too: the GM names a living one for each
    said = refused(graveyard, "act", "wyrm", "multiattack", "ilse", "gob", "ilse")
    assert said.startswith("Error: Goblin is dead"), said
    out = ok(graveyard, "act", "wyrm", "multiattack", "ilse", "--dice", "1,1,1")
    assert "multiattack" in out and "dead" not in out, out


def test_an_attack_and_a_spell_at_the_dead_are_refused(graveyard):
    assert refused(graveyard, "act", "wyrm", "attack", "gob", "-w", "bite") == (
        "Error: Goblin is dead: pick a living target, or if its death was a mistake, "
        "`fracas undo` the step that killed it"
    )
    ok(graveyard, "next")  # the dead goblin's turn is skipped: Ilse's
    said = refused(graveyard, "act", "ilse", "cast", "gob", "-o", "spell=fire bolt")
    assert said.startswith("Error: Goblin is dead"), said
    said = refused(graveyard, "act", "ilse", "cast", "gob", "-o", "spell=magic missile")
    assert said.startswith("Error: Goblin is dead"), said


def rogue_hides(tmp_path) -> Gm:
    """Wren (Int 12, +1; Wis 14, +2, proficient in Perception +2) hides on a 5 (Stealth
    10), and the goblin's turn comes; Wren is the one who searches after it."""
    gm = fight(
        tmp_path / "den.db",
        "The den",
        "19,2",
        ["add", "wren", "--sheet", str(SAMPLES / "rogue.toml"), "--side", "pc", "--name", "Wren"],
        GOBLIN,
    )
    ok(gm, "act", "wren", "hide", "--dice", "5")
    ok(gm, "next")
    return gm


def test_srd_5_a_search_is_perception_by_default_or_investigation_as_the_gm_names_it(tmp_path):
    gm = rogue_hides(tmp_path)
    # the goblin: Wis 8 (-1), Int 10 (+0)
    looked = ok(gm, "act", "gob", "search", "--dice", "10")
    assert "Wisdom (Perception) check" in looked, looked
    assert "Goblin searches: Perception 9: finds no one; Wren (Stealth 10) stays hidden" in looked
    ok(gm, "undo")
    read = ok(gm, "act", "gob", "search", "-o", "using=investigation", "--dice", "10")
    assert "Intelligence (Investigation) check" in read, read
    assert "Goblin searches: Investigation 10: finds Wren (Stealth 10)" in read, read
    said = refused(gm, "act", "gob", "search", "-o", "using=athletics")
    assert "investigation" in said and "perception" in said, said


@pytest.fixture
def yard(tmp_path) -> Gm:
    """Brannoc, a fighter (28 HP, speed 30), acts first; then a goblin (speed 30)."""
    brannoc = ["add", "brannoc", "--sheet", str(SAMPLES / "fighter.toml"), "--side", "pc",
               "--name", "Brannoc"]  # fmt: skip
    return fight(tmp_path / "yard.db", "The yard", "19,2", brannoc, GOBLIN)


def test_a_player_character_is_named_or_their_and_a_monster_is_it(yard):
    """A table never calls its players "it": the sentences of movement, conditions and
    damage name a player character, or give it "their", where a monster's say "it"."""
    said = refused(yard, "act", "brannoc", "move", "35")
    assert "a Dash adds their speed" in said, said
    ok(yard, "condition", "set", "brannoc", "grappled")
    said = refused(yard, "act", "brannoc", "move", "5")
    assert "is 0 (grappled): Brannoc cannot move or stand (srd-27)" in said, said
    ok(yard, "next")
    said = refused(yard, "act", "gob", "move", "35")
    assert "a Dash adds its speed" in said, said
    ok(yard, "condition", "set", "gob", "grappled")
    said = refused(yard, "act", "gob", "move", "5")
    assert "is 0 (grappled): it cannot move or stand (srd-27)" in said, said
    ok(yard, "harm", "brannoc", "28")  # dying; then massive damage kills him (srd-15)
    out = ok(yard, "harm", "brannoc", "28")
    assert "28 damage at 0 HP, at least their max HP 28" in out, out


def test_each_actions_using_has_its_own_help_and_dodge_says_it(tmp_path):
    """Issue 40: escape's `using` listed the search skills; dodge lacked "it"."""
    from fracas.projections import catalog

    from fracas_srd.ruleset import RULESET

    def using(action: str) -> str:
        flags = catalog.flags_of(RULESET, action, {"using"})
        return next(f for f in flags if f.field == "using").description

    assert "acrobatics" in using("escape") and "investigation" not in using("escape")
    assert "investigation" in using("search") and "acrobatics" not in using("search")
    out = ok(gm_on(tmp_path / "actions.db"), "actions", "-r", "srd")
    assert "dodge: attacks against you have disadvantage" in out, out


def test_a_monsters_reactions_are_its_own(tmp_path):
    """Issue 40: a monster's missing reaction said "theirs"."""
    gm = fight(tmp_path / "r.db", "R", "20,5", ILSE, GOBLIN)
    said = refused(gm, "act", "ilse", "attack", "gob", "--defence", "gob=parry")
    assert said == "Error: Goblin has no reaction 'parry'; its own: none", said


@pytest.fixture
def shrine(tmp_path) -> Gm:
    """Maelis, a cleric (DC 13), acts first; then Hild (a Foundry sheet), a fighter with a
    longsword and a shield equipped; then an orc (Dex 12, +1); then Ilse, a wizard."""
    return fight(
        tmp_path / "shrine.db", "The shrine", "20,10,5,3",
        sample("maelis", "cleric", "Maelis"),
        ["add", "hild", "--sheet", str(SAMPLES / "hild.foundry.json"), "--side", "pc",
         "--name", "Hild"],
        ["add", "orc", "--monster", "Orc", "--side", "npc"],
        sample("ilse", "wizard", "Ilse"),
    )  # fmt: skip


def test_srd_22_sacred_flame_gains_its_target_no_cover(shrine):
    """Sacred flame: "The target gains no benefit from cover for this saving throw"."""
    out = ok(shrine, "act", "maelis", "cast", "orc", "-o", "spell=sacred flame",
             "-o", "cover=half", "--dice", "10,4")  # fmt: skip
    assert "10 +1 = 11 vs 13" in out, out
    assert "+2 half cover" not in out, out
    assert "half cover does not help against sacred flame (srd-22)" in out, out
    assert "-> failure" in out, out
    # total cover still keeps it from being targeted at all
    ok(shrine, "undo")
    said = refused(shrine, "act", "maelis", "cast", "orc", "-o", "spell=sacred flame",
                   "-o", "cover=total")  # fmt: skip
    assert "total cover" in said, said
    # another spell's Dex save still meets the cover: Ilse's burning hands
    for _ in range(3):
        ok(shrine, "next")
    out = ok(shrine, "act", "ilse", "cast", "orc", "-o", "spell=burning hands",
             "-o", "cover=half", "--dice", "10,1,1,1")  # fmt: skip
    assert "+2 half cover (srd-22)" in out, out


def test_srd_3_a_spent_action_is_refused_before_a_spent_slot(tmp_path):
    """Maelis, her last level 1 slot spent on healing word (a bonus action), then sacred
    flame with her action: bless is refused for the action, not for the slot, whose way out
    (a level 2 slot) would be refused too."""
    cleric = (SAMPLES / "cleric.toml").read_text().replace(
        "slots = [4, 2]", "slots = [4, 2]\nslots_spent = [3]"
    )
    gm = fight(
        tmp_path / "vigil.db", "The vigil", "20,10,5",
        written(tmp_path, "maelis", cleric, "Maelis"),
        sample("hild", "fighter", "Hild"),
        ["add", "orc", "--monster", "Orc", "--side", "npc"],
    )  # fmt: skip
    ok(gm, "act", "maelis", "cast", "maelis", "-o", "spell=healing word", "--dice", "1")
    ok(gm, "act", "maelis", "cast", "orc", "-o", "spell=sacred flame", "--dice", "15")
    for asked in ([], ["-o", "level=2"]):
        said = refused(gm, "act", "maelis", "cast", "hild", "-o", "spell=bless", *asked)
        assert said.startswith(
            "Error: Maelis has already taken their action this turn (cast), and casting bless "
            "takes an action (srd-3)"
        ), said
        assert "slot" not in said, said


def test_srd_20_a_grapple_needs_a_free_hand(shrine):
    """Hild holds her longsword and her shield (equipped in her Foundry sheet): no hand is
    free to grapple with, until the GM says one is (she dropped the sword)."""
    ok(shrine, "next")
    said = refused(shrine, "act", "hild", "grapple", "orc")
    assert said.startswith("Error: Hild has no free hand to grapple with"), said
    assert "-o free_hand=true" in said and "srd-20" in said, said
    out = ok(shrine, "act", "hild", "grapple", "orc", "-o", "free_hand=true", "--dice", "15,2")
    assert "Orc is grappled" in out or "grappled" in out, out
    # Maelis (a mace, no shield) has a hand free; the GM may say she has none
    ok(shrine, "undo")
    ok(shrine, "undo")
    said = refused(shrine, "act", "maelis", "grapple", "orc", "-o", "free_hand=false")
    assert said.startswith("Error: Maelis has no free hand to grapple with"), said
    out = ok(shrine, "act", "maelis", "grapple", "orc", "--dice", "15,2")
    assert "grappled" in out, out


def test_srd_26_the_gms_harm_in_a_fight_rolls_the_concentration_save_as_the_rule_says(tmp_path):
    """srd-26: the save is "made right after that damage"; the GM's harm in a fight rolls it
    at once (on the faces typed), and `fracas rules srd-26` says so, not that it is owed."""
    gm = chapel(tmp_path)
    ok(gm, "act", "maelis", "cast", "maelis", "brannoc", "-o", "spell=bless")
    out = ok(gm, "harm", "maelis", "22", "--reason", "a falling rock", "--dice", "2,1")
    assert "Maelis rolls d20 for concentration on bless (DC 11): 2" in out, out
    assert "Maelis is no longer concentrating" in out, out
    rule = " ".join(ok(gm, "rules", "srd-26").split())
    assert "made right after that damage" in rule, rule
    assert "harm in a fight rolls it at once" in rule, rule
    assert "harm by hand rolls no dice" not in rule, rule


def test_srd_27_moving_while_grappled_says_how_to_break_free(yard):
    """It said only that Brannoc cannot move: now the command that tries to escape."""
    ok(yard, "condition", "set", "brannoc", "grappled")
    said = refused(yard, "act", "brannoc", "move", "5")
    assert "cannot move or stand (srd-27)" in said, said
    assert said.endswith("the GM clears it: `fracas condition clear brannoc grappled`"), said


def test_srd_27_moving_while_grappled_by_a_creature_names_the_escape(shrine):
    """Held by the orc's grapple: `fracas act orc escape` (its action, srd-20)."""
    ok(shrine, "act", "maelis", "grapple", "orc", "--dice", "15,2")
    ok(shrine, "next"), ok(shrine, "next")  # the orc's turn
    said = refused(shrine, "act", "orc", "move", "5")
    assert said.endswith("to break free, `fracas act orc escape` (its action, srd-20)"), said


def test_an_attack_with_no_target_shows_its_form(shrine):
    said = refused(shrine, "act", "maelis", "attack")
    assert said == (
        "Error: attack takes exactly one target: `fracas act maelis attack TARGET -w WEAPON`"
    ), said
    said = refused(shrine, "act", "maelis", "attack", "orc", "ilse", "-w", "mace")
    assert said.endswith("`fracas act maelis attack TARGET -w WEAPON`"), said


def test_srd_29_a_legendary_attack_with_no_target_shows_its_form(graveyard):
    ok(graveyard, "next"), ok(graveyard, "next")  # Ilse's turn has ended: the wyrm's may act
    said = refused(graveyard, "act", "wyrm", "legendary", "-o", "option=tail attack")
    assert said == (
        "Error: tail attack takes exactly one target: "
        "`fracas act wyrm legendary TARGET -o \"option=tail attack\"`"
    ), said


def test_srd_41_two_defences_for_one_defender_are_refused_naming_both(tmp_path):
    """A creature has one reaction a round: shield and hellish rebuke typed for Ilse were
    taken as hellish rebuke alone, shield dropped unseen (issue 40). Refused, both named."""
    gm = fight(tmp_path / "den.db", "Den", "20,5", monster("owlbear", "owlbear"), ILSE)
    for defences in (
        ["--defence", "ilse=shield", "--defence", "ilse=hellish rebuke"],
        ["--defence", "shield", "--defence", "ilse=hellish rebuke"],
    ):
        said = refused(gm, "act", "owlbear", "multiattack", "ilse", *defences,
                       "--dice", "9,4,12,4,5,8,3")  # fmt: skip
        assert said == (
            "Error: --defence gives ilse two reactions, shield and hellish rebuke: "
            "a target has one reaction to an attack; choose one"
        ), said
    # the same one twice is still one
    out = ok(gm, "act", "owlbear", "multiattack", "ilse", "--defence", "ilse=shield",
             "--defence", "shield", "--dice", "9,3")  # fmt: skip
    assert "shield: the hit becomes a miss (16 vs AC 17)" in out, out


def test_srd_29_the_aboleths_psychic_drain_harms_one_it_has_charmed_and_heals_it(tmp_path):
    """Psychic Drain (costs 2): one creature charmed by the aboleth takes 3d6 psychic
    damage, and the aboleth regains hit points equal to the damage taken. It spent two
    legendary actions and said "the GM narrates what it does", nothing rolled (issue 40)."""
    wren = sample("wren", "rogue", "Wren")
    gm = fight(tmp_path / "lake.db", "Lake", "20,5,3", monster("abo", "aboleth"), ILSE, wren)
    ok(gm, "act", "abo", "cast", "ilse", "-o", "spell=enslave", "--dice", "2")  # charmed
    ok(gm, "harm", "abo", "20")
    ok(gm, "next"), ok(gm, "next")  # Ilse's turn has ended: the aboleth may act
    said = refused(gm, "act", "abo", "legendary", "wren", "-o", "option=psychic drain")
    assert said == (
        "Error: Wren is not charmed by Aboleth: psychic drain harms only a creature it has "
        "charmed (srd-29)"
    ), said
    # 3d6, then her save against enslave again, hurt (srd-79): a 2, failed
    out = ok(gm, "act", "abo", "legendary", "ilse", "-o", "option=psychic drain",
             "--dice", "1,2,3,2")  # fmt: skip
    assert "Aboleth spends 2 legendary actions: psychic drain" in out, out
    assert "narrates" not in out, out
    assert "Ilse takes 6 damage" in out and "psychic" in out, out
    assert "Aboleth regains 6 hit points" in out, out
    shown = ok(gm, "monsters", "-r", "srd", "aboleth", "--show")
    assert "psychic drain: 3d6 psychic to one it has charmed, regaining as much" in shown, shown


def test_srd_14_a_die_typed_for_a_death_save_already_rolled_says_where_it_went(tmp_path):
    """`next` rolled dying Wren's death save with the seeded dice; `next --dice 1` then
    said only "this action rolled no dice at all" (issue 40): now what this step rolls
    (nothing), where the save went and how to type its die."""
    wren = sample("wren", "rogue", "Wren")
    gm = fight(tmp_path / "road.db", "Road", "20,5", GOBLIN, wren)
    ok(gm, "harm", "wren", "30")  # dying
    rolled = ok(gm, "next")
    assert "Wren rolls d20 for death save" in rolled and "seeded #6.0" in rolled, rolled
    said = refused(gm, "next", "--dice", "1")
    assert said == (
        "Error: 1 typed face left over: this next rolls no dice; step 6 rolled Wren's "
        "death save with the seeded dice: to type its die, `fracas undo` step 6, then "
        "`fracas next --dice FACES`"
    ), said
    ok(gm, "undo")
    out = ok(gm, "next", "--dice", "1")
    assert "Wren rolls d20 for death save: 1" in out and "typed by gm" in out, out
    # a step that rolls nothing after one that rolled none says only that
    said = refused(gm, "condition", "set", "gob", "soaked", "--dice", "3")
    assert said == (
        "Error: 1 typed face left over: this condition set rolls no dice; drop the extra "
        "faces from --dice"
    ), said


def test_srd_79_the_aboleths_enslaved_target_saves_again_each_time_it_takes_damage(tmp_path):
    """Enslave: "Whenever the charmed target takes damage, the target can repeat the saving
    throw. On a success, the effect ends." The charm held through any damage (issue 40)."""
    gm = fight(tmp_path / "lake.db", "Lake", "20,5", monster("abo", "aboleth"), ILSE)
    ok(gm, "act", "abo", "cast", "ilse", "-o", "spell=enslave", "--dice", "2")  # charmed
    assert "charmed" in status_row(gm, "Ilse")
    out = ok(gm, "harm", "ilse", "1", "--dice", "3")  # the save again, failed
    assert "against enslave, hurt (DC 14)" in out, out
    assert "charmed" in status_row(gm, "Ilse")
    out = ok(gm, "harm", "ilse", "1", "--dice", "19")  # made: the charm ends
    assert "saves: enslave ends" in out, out
    assert "charmed" not in status_row(gm, "Ilse")
