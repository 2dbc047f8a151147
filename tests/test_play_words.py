"""What `fracas play` says as the GM plays (issue 40, an outside 5e GM): its bottom bar
names the save a creature failed, the fight's end is said once, a PC's sheet is theirs."""

from fracas.projections import Fracas
from fracas.projections.replay import latest_headline
from fracas.rules import Encounter
from tests.support import srd_fight

OVER = "no NPC is left fighting"


def bar(run) -> str:
    """The latest step in a line, as the bottom bar of `fracas play` shows it."""
    with Fracas(run.db) as log:
        return latest_headline(Encounter(log.store, log.store.encounters()[-1]))


def test_the_bar_names_the_save_a_bitten_creature_failed(run) -> None:
    """The wolf's bite knocks Maelis prone on a failed Strength saving throw, and breaks her
    concentration on bless: "Maelis fails" said neither which."""
    srd_fight(run, "20,5", ("maelis", "cleric", "pc"), ("wolf", "wolf", "npc"))
    run("act", "maelis", "cast", "maelis", "-o", "spell=bless")
    run("next")
    run("act", "wolf", "attack", "maelis", "--dice", "15,4,3,2,1,3")
    said = bar(run)
    assert said.startswith("Wolf hits Maelis: Maelis fails a Strength saving throw, 9 damage"), said


def test_a_spell_s_own_save_is_said_as_before(run) -> None:
    """Sacred flame is a Dexterity save: "Wolf fails" after the spell's name says which."""
    srd_fight(run, "20,5", ("maelis", "cleric", "pc"), ("wolf", "wolf", "npc"))
    run("act", "maelis", "cast", "wolf", "-o", "spell=sacred flame", "--dice", "2,5")
    assert bar(run).startswith("Maelis casts sacred flame on Wolf: Wolf fails, 5 damage")


def test_the_fight_s_end_is_said_once_not_after_every_step(run) -> None:
    srd_fight(run, "20,5", ("brannoc", "fighter", "pc"), ("gob", "goblin", "npc"))
    assert OVER in run("harm", "gob", "20").output
    assert OVER not in run("next").output
    assert OVER not in run("note", "the goblin's purse holds 3 sp").output
    assert OVER in run("status").output  # the board still says it, as long as it holds


def test_a_pc_without_multiattack_has_none_on_their_sheet(run) -> None:
    srd_fight(run, "20,5", ("brannoc", "fighter", "pc"), ("gob", "goblin", "npc"))
    said = run("act", "brannoc", "multiattack", "gob", ok=False).output
    assert "Brannoc has no Multiattack on their sheet" in said, said
