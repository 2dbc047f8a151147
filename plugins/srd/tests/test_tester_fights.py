"""An outside 5e tester's fights (issue 40), read as the GM reads them from the CLI: a
shield declared against a Multiattack whose target drops mid-way, Search saying what it
found, a grapple's refusals, conditions set once, overkill out of the damage totals, the
report's words, sneak attack withheld with its reason, magic missile's darts, and a
player character's pronouns."""

from pathlib import Path

from srd_cli import Gm, fight, gm_on, ok, refused, sample


def wyrm_and_ilse(tmp_path: Path, hp: int = 5) -> Gm:
    """The Ashen Wyrm acts first, against Ilse (a wizard with shield) on `hp` hit points."""
    return fight(
        tmp_path / "lair.db",
        "The lair",
        "2,19",
        [*sample("ilse", "wizard", "Ilse"), "--set", f"hp={hp}"],
        sample("wyrm", "wyrm", "Wyrm", "npc"),
    )


def test_srd_29_a_shield_named_for_a_multiattack_lapses_when_its_target_drops(tmp_path):
    """The bite drops Ilse (the shield cannot turn it); the claws still come, at a dying
    Ilse who can no longer cast shield (srd-27): the Multiattack goes on without it, where
    it was refused whole and nothing recorded."""
    gm = wyrm_and_ilse(tmp_path)
    out = ok(
        gm,
        "act",
        "wyrm",
        "multiattack",
        "ilse",
        "--defence",
        "ilse=shield",
        "--dice",
        "14,1,1,14,14,1,1,1,1",
    )
    assert "shield: not cast, it cannot turn the hit" in out, out
    assert "claw: Ilse is unconscious: no reactions, so not shield" in out, out
    assert "Wyrm attacks Ilse: critical hit [" in out and "Ilse is dead" in out, out
    assert "spends 1 reaction" not in out, out


def test_srd_27_a_shield_named_by_a_target_already_down_is_still_refused(tmp_path):
    """What the refusal is for: a target that cannot react when the attack is declared."""
    gm = wyrm_and_ilse(tmp_path)
    ok(gm, "act", "wyrm", "attack", "ilse", "-w", "tail", "--dice", "14,1,1")  # dying
    ok(gm, "next", "--dice", "15")
    ok(gm, "next")
    said = refused(
        gm,
        "act",
        "wyrm",
        "multiattack",
        "ilse",
        "--defence",
        "ilse=shield",
        "--dice",
        "14,14,1,1,1,1,1,1",
    )
    assert "so not shield; nothing was recorded" in said, said


def rogue_hides(tmp_path: Path, stealth: str) -> Gm:
    """Wren hides on the face `stealth` (+5), and the goblin's turn comes."""
    gm = fight(
        tmp_path / "den.db",
        "The den",
        "19,2",
        sample("wren", "rogue", "Wren"),
        sample("gob", "goblin", "Goblin", "npc"),
    )
    ok(gm, "act", "wren", "hide", "--dice", stealth)
    ok(gm, "next")
    return gm


def test_srd_5_a_search_says_whom_it_found_and_reveals_them(tmp_path):
    gm = rogue_hides(tmp_path, "5")  # Stealth 10
    out = ok(gm, "act", "gob", "search", "--dice", "18")  # Perception 17
    assert "Goblin searches: Perception 17: finds Wren (Stealth 10) [srd-5]" in out, out
    assert "Wren is no longer hidden: found by Goblin" in out, out
    assert "hidden" not in next(r for r in ok(gm, "status").splitlines() if " Wren " in r)


def test_srd_5_a_search_that_finds_no_one_says_so(tmp_path):
    gm = rogue_hides(tmp_path, "15")  # Stealth 20
    out = ok(gm, "act", "gob", "search", "--dice", "18")
    assert "Perception 17: finds no one; Wren (Stealth 20) stays hidden [srd-5]" in out, out
    assert "hidden" in next(r for r in ok(gm, "status").splitlines() if " Wren " in r)
    ok(gm, "undo")
    ok(gm, "next")  # Wren's turn again: she is seen (hidden ends as she attacks)
    ok(gm, "act", "wren", "attack", "gob", "-w", "shortsword", "--dice", "1,1")
    ok(gm, "next")
    out = ok(gm, "act", "gob", "search", "--dice", "18")
    assert "Goblin searches: Perception 17: finds no one hidden [srd-5]" in out, out


def brannoc_and_goblin(tmp_path: Path) -> Gm:
    """Brannoc (a fighter, one attack) acts first, against a goblin of 50 hit points."""
    return fight(
        tmp_path / "yard.db",
        "The yard",
        "19,2",
        sample("bran", "fighter", "Brannoc"),
        [*sample("gob", "goblin", "Goblin", "npc"), "--set", "hp=50"],
    )


def test_srd_20_a_grapple_refused_names_the_grapple_not_an_attack(tmp_path):
    gm = brannoc_and_goblin(tmp_path)
    ok(gm, "act", "bran", "dodge")
    said = refused(gm, "act", "bran", "grapple", "gob", "--dice", "15,2")
    assert "and a grapple, one attack of the Attack action, takes an action (srd-3)" in said
    ok(gm, "undo")
    ok(gm, "act", "bran", "attack", "gob", "-w", "longsword", "--dice", "1")
    said = refused(gm, "act", "bran", "grapple", "gob", "--dice", "15,2")
    assert said.startswith(
        "Error: Brannoc has made the only attack of their Attack action, and a grapple takes "
        "the place of one (srd-20, srd-3); left this turn"
    ), said
    said = refused(gm, "act", "bran", "shove", "gob", "--dice", "15,2")
    assert "and a shove takes the place of one (srd-21, srd-3)" in said, said


def test_srd_3_a_player_characters_attack_action_is_theirs_not_its(tmp_path):
    gm = brannoc_and_goblin(tmp_path)
    out = ok(gm, "act", "bran", "attack", "gob", "-w", "longsword", "--dice", "1")
    assert "Brannoc spends 1 attack: the only one their Attack action gives" in out, out
    ok(gm, "next")
    out = ok(gm, "act", "gob", "attack", "bran", "-w", "scimitar", "--dice", "1")
    assert "Goblin spends 1 attack: the only one its Attack action gives" in out, out


def conditions_of(gm: Gm, name: str) -> str:
    """The combatant's row of `fracas status`."""
    return next(r for r in ok(gm, "status").splitlines() if f" {name} " in r)


def test_srd_27_prone_is_set_once_and_a_dead_body_stays_prone(tmp_path):
    """A dragon's wing attack drops Brannoc, who falls prone: its own prone is not set
    again. Then dead, he is prone still (it was cleared at death)."""
    gm = fight(
        tmp_path / "cave.db",
        "The cave",
        "19,2",
        [*sample("bran", "fighter", "Brannoc"), "--set", "hp=10"],
        ["add", "drag", "--monster", "adult red dragon", "--side", "npc"],
    )
    ok(gm, "next")
    out = ok(gm, "act", "drag", "legendary", "bran", "-o", "option=wing attack", "--dice", "2,3,3")
    assert out.count("Brannoc is prone") == 1, out
    assert "already prone: wing attack changes nothing" in out, out
    ok(gm, "next", "--dice", "1")  # Brannoc's death save
    ok(gm, "next")
    out = ok(gm, "act", "drag", "multiattack", "bran", "--dice", "15,15,1,1,1,1,1,1,1,1")
    assert "Brannoc is dead" in out and "no longer prone" not in out, out
    assert "prone" in conditions_of(gm, "Brannoc"), conditions_of(gm, "Brannoc")


def test_srd_21_a_shove_to_knock_prone_a_creature_already_prone_is_refused(tmp_path):
    gm = brannoc_and_goblin(tmp_path)
    ok(gm, "act", "bran", "shove", "gob", "--dice", "15,2")
    ok(gm, "next")
    ok(gm, "next")
    said = refused(gm, "act", "bran", "shove", "gob", "--dice", "15,2")
    assert said == "Error: Goblin is already prone (srd-21): push it (-o push=true)", said


def test_srd_38_a_sneak_attack_withheld_says_why(tmp_path):
    gm = fight(
        tmp_path / "alley.db",
        "The alley",
        "19,2",
        sample("wren", "rogue", "Wren"),
        [*sample("gob", "goblin", "Goblin", "npc"), "--set", "hp=60"],
    )
    out = ok(gm, "act", "wren", "attack", "gob", "-w", "shortsword", "--dice", "15,3")
    assert (
        "Wren sneak attack: not on this hit: no advantage on the roll and no other foe of the "
        "target declared within 5 feet of it [srd-38]"
    ) in out, out
    ok(gm, "undo")
    out = ok(
        gm,
        "act",
        "wren",
        "attack",
        "gob",
        "-w",
        "shortsword",
        "-o",
        "ally_near=true",
        "--dice",
        "15,3,2,2",
    )
    assert "not on this hit" not in out and "sneak attack" in out, out
    out = ok(
        gm,
        "act",
        "wren",
        "offhand",
        "gob",
        "-w",
        "dagger",
        "-o",
        "ally_near=true",
        "--dice",
        "15,3",
    )
    assert "Wren sneak attack: not on this hit: used already this turn (once a turn)" in out
    ok(gm, "undo")
    ok(gm, "undo")
    out = ok(
        gm,
        "act",
        "wren",
        "attack",
        "gob",
        "-w",
        "shortsword",
        "-o",
        "ally_near=true",
        "-o",
        "disadvantage=true",
        "--dice",
        "15,15,3",
    )
    assert "Wren sneak attack: not on this hit: the attack roll had disadvantage" in out, out


def test_srd_9_the_reports_damage_totals_count_no_overkill(tmp_path):
    """A longsword's 11 on a goblin of 7 hit points: it lost 7, and the report's totals
    (dealt and taken) count 7, not the 4 beyond 0 HP."""
    gm = fight(
        tmp_path / "yard.db",
        "The yard",
        "19,2",
        sample("bran", "fighter", "Brannoc"),
        sample("gob", "goblin", "Goblin", "npc"),
    )
    out = ok(gm, "act", "bran", "attack", "gob", "-w", "longsword", "--dice", "15,8")
    assert "Goblin takes 11 damage" in out, out
    report = ok(gm, "export", "--format", "md")
    assert "| Brannoc | 7 | 0 |" in report and "| Goblin | 0 | 7 |" in report, report
    assert "Goblin takes 11 slashing damage" in report, report


def test_srd_43_every_dart_lands_though_the_first_darts_killed_their_target(tmp_path):
    """Magic missile's darts strike at once: the third dart at a goblin the first two
    killed is rolled and listed with the others, where it was left out; it strikes the
    body, and the dead goblin takes no more damage (the report's total is its 10)."""
    gm = fight(
        tmp_path / "hall.db",
        "The hall",
        "19,2,5",
        sample("ilse", "wizard", "Ilse"),
        sample("gob", "goblin", "Goblin", "npc"),
        sample("gob2", "goblin", "Gob2", "npc"),
    )
    out = ok(
        gm,
        "act",
        "ilse",
        "cast",
        "gob",
        "gob",
        "gob",
        "gob2",
        "-o",
        "spell=magic missile",
        "-o",
        "level=2",
        "--dice",
        "4,4,1,1",
    )
    assert "dart 3 (at Goblin): 1 +1 = 2" in out and "dart 4 (at Gob2)" in out, out
    report = ok(gm, "export", "--format", "md")
    assert "dart 3 strikes Goblin's body (2 force): Goblin is already dead" in out, out
    assert "Goblin takes 10 force damage (5 + 5)" in report, report


def test_srd_13_dropping_to_0_hp_is_said_once(tmp_path):
    """Unconscious and dying at once, for one reason: the GM reads the reason once, not on
    both lines (issue 40)."""
    gm = wyrm_and_ilse(tmp_path)
    out = ok(gm, "act", "wyrm", "attack", "ilse", "-w", "tail", "--dice", "14,1,1")
    assert "Ilse is unconscious: dropped to 0 HP [srd-13, srd-27]" in out, out
    assert "Ilse is dying [srd-13, srd-14]" in out, out
    assert out.count("dropped to 0 HP") == 1, out


def test_srd_2_begin_says_each_initiative_once(tmp_path):
    """`fracas begin`: the roll's line gives the total, the order's line the place, not the
    total again after an arrow nor the roll's sum again in words (issue 40)."""
    gm = gm_on(tmp_path / "a.db")
    ok(gm, "new", "-r", "srd", "--id", "a", "--title", "A")
    ok(gm, *sample("ilse", "wizard", "Ilse"))
    out = ok(gm, "begin", "--dice", "2")
    assert "Ilse rolls d20 for initiative: 2 +2 = 4 (+2 Dex modifier (srd-M1)); typed" in out
    assert "Ilse: initiative 4 [srd-2]" in out, out
    assert "-> 4" not in out and "(d20 + Dex)" not in out, out


def test_srd_8_a_critical_hit_names_its_target_once(tmp_path):
    """The attack's line after its roll: "Wyrm attacks Ilse: critical hit", not the
    target named again after the outcome (issue 40)."""
    gm = wyrm_and_ilse(tmp_path, hp=40)
    out = ok(gm, "act", "wyrm", "attack", "ilse", "-w", "tail", "--dice", "20,1,1,1,1")
    assert "Wyrm attacks Ilse: critical hit [" in out, out
    assert "critical hit Ilse" not in out, out
