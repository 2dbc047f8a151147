"""An outside 5e GM's night, through the CLI as the GM types it: an opportunity attack
after the move it answers (srd-18), no rest while a member is dying (srd-14, srd-58,
srd-59), refusals that say what is left to do (srd-3, srd-50), and a log that says what
was used (a monster's breath is no spell; an upcast spell is cast at its slot's level)."""

from pathlib import Path

import pytest
from srd_cli import SAMPLES, Gm, add, gm_on, ok, refused


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    return gm_on(tmp_path / "night.db")


def mage_fight(gm) -> None:
    """The goblin "mage" acts first, then Wren, then Torvald."""
    ok(gm, "new", "-r", "srd", "--id", "tower", "--title", "The mage's tower")
    add(gm, "torvald", "fighter", "Torvald Ironside")
    add(gm, "wren", "rogue", "Wren")
    add(gm, "mage", "goblin", "Zarvex the Mage", side="npc")
    ok(gm, "begin", "--dice", "2,10,19")


def test_an_opportunity_attack_recorded_after_the_move_it_answers(gm):
    mage_fight(gm)
    ok(gm, "act", "mage", "move", "30")
    swung = ok(gm, "act", "torvald", "opportunity", "mage", "-w", "longsword", "--dice", "14,6")
    assert "opportunity attack, as Zarvex the Mage moves out of reach" in swung
    assert "Zarvex the Mage is dead" in swung


BOW = '{name = "longbow", damage = "1d8", type = "piercing", ranged = true, range = [150, 600]}'
DAGGER = '{name = "dagger", damage = "1d4", type = "piercing", finesse = true}'


def running_mage(gm, *weapons: str) -> None:
    """The mage runs from Torvald (his sample's weapons, or `weapons` instead)."""
    ok(gm, "new", "-r", "srd", "--id", "tower", "--title", "The mage's tower")
    armed = ["--set", f"weapons=[{', '.join(weapons)}]"] if weapons else []
    add(gm, "torvald", "fighter", "Torvald Ironside", "pc", *armed)
    add(gm, "mage", "goblin", "Zarvex the Mage", "npc")
    ok(gm, "begin", "--dice", "2,19")
    ok(gm, "act", "mage", "move", "30")


def test_an_opportunity_attack_with_a_bow_is_refused_naming_the_melee_weapons(gm):
    """srd-18: an opportunity attack is a melee attack; the line says which weapons are."""
    running_mage(gm)
    said = refused(gm, "act", "torvald", "opportunity", "mage", "-w", "longbow", "--dice", "14")
    assert said == (
        "Error: an opportunity attack is a melee attack (srd-18): Torvald Ironside's longbow "
        "is a ranged weapon; use a melee one: longsword, handaxe (-w longsword)"
    )


def test_an_opportunity_attack_without_a_weapon_named_takes_a_melee_one(gm):
    """The sheet's first weapon was taken, a bow listed first refused the attack."""
    running_mage(gm, BOW, DAGGER)
    swung = ok(gm, "act", "torvald", "opportunity", "mage", "--dice", "14,3")
    assert "attack on Zarvex the Mage with dagger" in swung and "longbow" not in swung


def test_an_opportunity_attack_with_no_melee_weapon_is_an_unarmed_strike(gm):
    running_mage(gm, BOW)
    said = refused(gm, "act", "torvald", "opportunity", "mage", "-w", "longbow")
    assert said.endswith("use a melee one: unarmed (-w unarmed)"), said
    swung = ok(gm, "act", "torvald", "opportunity", "mage", "--dice", "14")
    assert "attack on Zarvex the Mage with unarmed" in swung, swung


def test_an_opportunity_attack_declared_before_the_move_still_works(gm):
    mage_fight(gm)
    ok(gm, "act", "torvald", "opportunity", "mage", "-w", "longsword", "--dice", "3")
    ok(gm, "act", "mage", "move", "30")


def test_no_opportunity_attack_on_an_ally(gm):
    mage_fight(gm)
    ok(gm, "next")
    ok(gm, "next")  # Torvald's turn; he has not moved
    said = refused(gm, "act", "wren", "opportunity", "torvald", "-w", "shortsword", "--dice", "12")
    assert said == (
        "Error: Torvald Ironside is Wren's ally: an opportunity attack is on a hostile "
        "creature leaving reach (srd-18)"
    )


def crypt_party(gm, maelis_loses: int) -> None:
    """Torvald wounded (5) and Maelis hurt by so much at the end of a fight in the crypt,
    back in the party."""
    ok(gm, "party", "add", "torvald", "-r", "srd", "--sheet", str(SAMPLES / "fighter.toml"))
    ok(gm, "party", "add", "maelis", "--sheet", str(SAMPLES / "cleric.toml"), "--name", "Maelis")
    ok(gm, "new", "--party", "--id", "crypt", "--title", "The crypt")
    add(gm, "ghoul", "goblin", "Ghoul", side="npc")
    ok(gm, "begin", "--dice", "5,10,15")
    ok(gm, "harm", "torvald", "5")
    ok(gm, "harm", "maelis", str(maelis_loses))
    ok(gm, "end")


def fallen_party(gm) -> None:
    """Torvald wounded and Maelis dying at the end of a fight, back in the party."""
    crypt_party(gm, 30)


def party_refused(gm, *args: str) -> str:
    """A rest refused: one line, exit code 1, the party as it was."""
    before = ok(gm, "party")
    code, output = gm(*args)
    assert code == 1 and len(output.strip().splitlines()) == 1, output
    assert ok(gm, "party") == before
    return output.strip()


def test_no_rest_while_a_member_is_dying(gm):
    fallen_party(gm)
    said = (
        "Error: Maelis is dying at 0 hit points: no rest while a member of the party is "
        "dying; heal Maelis first (`fracas party heal maelis 1`) or reopen the fight and "
        "stabilise Maelis (`fracas act ID stabilise maelis`, srd-16)"
    )
    short = ("party", "rest", "short", "--spend", "torvald=1", "--dice", "4")
    assert party_refused(gm, *short) == said
    assert party_refused(gm, "party", "rest", "long") == said
    ok(gm, "party", "heal", "maelis", "1")
    ok(gm, *short)
    assert "HP 24/24" in ok(gm, "party", "rest", "long")


def test_a_refused_action_says_what_is_left_of_the_turn(gm):
    mage_fight(gm)
    ok(gm, "next")
    ok(gm, "next")  # Torvald's turn
    ok(gm, "act", "torvald", "attack", "mage", "-w", "longsword", "--dice", "2")
    assert refused(gm, "act", "torvald", "dodge") == (
        "Error: Torvald Ironside has already taken their action this turn (attack), and dodge "
        "takes an action (srd-3); left this turn: their reaction, 30 feet of movement, or "
        "`fracas next` to end the turn"  # no off hand after a longsword (srd-19)
    )


def test_a_refused_slot_names_the_slots_left_or_the_long_rest(gm):
    ok(gm, "new", "-r", "srd", "--id", "tower", "--title", "The mage's tower")
    sheet = str(SAMPLES / "wizard.toml")
    ok(gm, "add", "ilse", "--sheet", sheet, "--side", "pc", "--name", "Ilse", "--set", "slots=[1]")
    add(gm, "mage", "goblin", "Zarvex the Mage", side="npc")
    ok(gm, "begin", "--dice", "19,2")
    ok(gm, "act", "ilse", "cast", "mage", "-o", "spell=magic missile", "--dice", "1,1,1")
    ok(gm, "next")
    ok(gm, "next")
    assert refused(gm, "act", "ilse", "cast", "mage", "-o", "spell=magic missile") == (
        "Error: Ilse has no 1st-level or higher spell slot left (srd-50); a long rest "
        "restores them"  # Ilse is no party member: `fracas party rest long` would not
    )


def test_a_slot_refusal_says_it_once_and_names_no_rest_a_sheet_without_slots_cannot_use(gm):
    """Issue 40: "no level 1 spell slot left (none on the sheet; srd-50), nor any higher;
    none is left of any level; a long rest restores them all (`fracas party rest long`)"
    for a monster whose sheet had none, in no party."""
    ok(gm, "new", "-r", "srd", "--id", "chapel")
    add(gm, "brannoc", "fighter", "Brannoc")
    ok(gm, "add", "acolyte", "--monster", "acolyte", "--set", "slots=[0, 0]")
    ok(gm, "begin", "--dice", "2,19")
    assert refused(gm, "act", "acolyte", "cast", "brannoc", "-o", "spell=bless") == (
        "Error: Acolyte has no 1st-level or higher spell slot left (srd-50)"
    )


def test_the_log_says_a_breath_is_the_monster_s_action_and_an_upcast_its_level(gm):
    ok(gm, "new", "-r", "srd", "--id", "lair", "--title", "The lair")
    add(gm, "wyrm", "wyrm", "Ashen Wyrm", side="npc")
    add(gm, "ilse", "wizard", "Ilse")
    ok(gm, "begin", "--dice", "19,2")
    breath = ok(
        gm, "act", "wyrm", "cast", "ilse", "-o", "spell=fire breath", "--dice", "20" + ",1" * 10
    )
    assert "Ashen Wyrm spends 1 action: fire breath, recharge 5-6" in breath
    assert "spell" not in breath.replace("spell=", "") and "cantrip" not in breath
    ok(gm, "next")
    darts = ok(gm, "act", "ilse", "cast", "wyrm", "-o", "spell=magic missile", "-o", "level=2")
    assert "Ilse casts magic missile, a 1st-level spell, at 2nd level with an action" in darts
    assert "Ilse spends a 2nd-level spell slot: 1 of 2 left" in darts


def dead_party(gm) -> None:
    """Torvald wounded and Maelis killed outright (massive damage, srd-14), back home."""
    crypt_party(gm, 60)


def test_the_dead_stay_in_the_party_but_out_of_the_next_fight(gm):
    """Issue 40: a dead member rolled initiative and topped the next fight's order."""
    dead_party(gm)
    out = ok(gm, "new", "--party", "--id", "road", "--title", "The road")
    assert "Maelis is dead and stays out of the fight" in out, out
    status = ok(gm, "status")
    assert "torvald" in status and "maelis" not in status.lower(), status
    assert "maelis" in ok(gm, "party")  # still in the party's record
    add(gm, "wolf", "wolf", "Wolf", side="npc")
    assert "Maelis" not in ok(gm, "begin", "--dice", "5,10")


def test_a_rest_spending_a_dead_members_hit_dice_is_refused(gm):
    """Issue 40: the dead member was dropped silently and the others rested."""
    dead_party(gm)
    said = party_refused(gm, "party", "rest", "short", "--spend", "maelis=1", "--dice", "4")
    assert said.startswith("Error: Maelis is dead: no rest brings"), said
    assert "spend none on Maelis" in said, said
    rested = ok(gm, "party", "rest", "short", "--spend", "torvald=1", "--dice", "4")
    assert "Maelis is dead" in rested, rested


def test_an_opportunity_attack_at_an_ally_on_anothers_turn_says_ally_first(gm):
    """Issue 40: it said the ally was "not moving on their own turn"."""
    mage_fight(gm)  # the mage's turn
    said = refused(gm, "act", "wren", "opportunity", "torvald", "-w", "shortsword", "--dice", "12")
    assert said == (
        "Error: Torvald Ironside is Wren's ally: an opportunity attack is on a hostile "
        "creature leaving reach (srd-18)"
    )
