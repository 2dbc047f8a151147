"""What an outside tester read at the command line in a 5e fight and found not plain table
English (issue 40): a line that repeats itself, a creature's id where its name belongs, a
count of one in the plural, "its" for a player character, doubled parentheses."""

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from fracas.cli.main import cli

SAMPLES = Path(__file__).parents[1] / "fracas_srd" / "samples"
Run = Callable[..., str]


@pytest.fixture
def gm(tmp_path: Path) -> Run:
    """`fracas` with the GM's arguments on one database; its output, exit code 0."""
    db, runner = str(tmp_path / "english.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == 0, done.output
        return done.output

    return run


@pytest.fixture
def refused(tmp_path: Path) -> Run:
    """`fracas` on the same database, refused: its one line."""
    db, runner = str(tmp_path / "english.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code != 0, done.output
        return done.output

    return run


def fight(gm: Run) -> None:
    """Hild the fighter, an ogre from the bestiary, Wren the rogue: Hild, the ogre, Wren."""
    gm("new", "-r", "srd", "--id", "yard", "--title", "The ogre in the yard")
    gm("add", "hild", "--sheet", str(SAMPLES / "fighter.toml"), "--side", "pc", "--name", "Hild")
    gm("add", "ogre", "--monster", "ogre")
    gm("add", "wren", "--sheet", str(SAMPLES / "rogue.toml"), "--side", "pc", "--name", "Wren")
    gm("begin", "--dice", "20,10,4")


def test_disengage_and_dodge_say_so_once(gm: Run) -> None:
    fight(gm)
    said = gm("act", "hild", "disengage")
    assert "Hild is disengaged until the end of Hild's current turn [srd-5, srd-18]" in said
    assert "disengages" not in said
    assert "Hild declares: takes the Disengage action" in said, said
    gm("next")
    said = gm("act", "ogre", "dodge")
    assert "Ogre is dodging until the start of Ogre's next turn [srd-5]" in said
    assert "dodges" not in said
    assert "Ogre declares: takes the Dodge action" in said, said


def test_a_move_out_of_reach_names_whose_reach_it_leaves(gm: Run) -> None:
    fight(gm)
    gm("next")
    said = gm("act", "ogre", "move", "10", "-o", "leaves=hild")
    assert "Ogre leaves the reach of Hild" in said
    assert "Ogre leaves the reach of Hild" in gm("log")
    assert "reach of hild" not in gm("log") + gm("replay")


def test_one_hit_point_is_said_in_the_singular(gm: Run, tmp_path: Path) -> None:
    fight(gm)
    said = gm("heal", "wren", "1", "--temp")
    assert "Wren has 1 temporary hit point: " in said
    assert "1 temporary hit points" not in gm("log")
    party = str(tmp_path / "party.db")
    gm("--db", party, "new", "-r", "srd", "--id", "camp", "--title", "Camp")
    sheet = str(SAMPLES / "fighter.toml")
    gm("--db", party, "party", "add", "hild", "--sheet", sheet, "--name", "Hild")
    gm("--db", party, "new", "-r", "srd", "--id", "one", "--title", "One", "--party")
    gm("--db", party, "-e", "one", "harm", "hild", "27")
    gm("--db", party, "-e", "one", "end")
    gm("--db", party, "new", "-r", "srd", "--id", "two", "--title", "Two", "--party")
    told = gm("--db", party, "log", "-e", "two")
    assert "Hild stands at 1 hit point" in told
    assert "1 hit points" not in told


def test_an_off_hand_attack_reads_plainly_for_a_player_character(gm: Run, refused: Run) -> None:
    fight(gm)
    gm("next")
    gm("next")
    gm("act", "wren", "attack", "ogre", "-w", "shortsword", "--dice", "12,3")
    said = gm("act", "wren", "offhand", "ogre", "--dice", "12,3")
    assert "off-hand: the Dex modifier is not added" in said
    assert " its " not in said  # Wren is a player character: never "it"
    again = refused("act", "wren", "offhand", "ogre")
    assert "Wren has already taken a bonus action this turn (off-hand attack; srd-3)" in again
    assert ") (" not in again


def test_a_party_member_stands_as_before_never_as_it_ended_a_fight_it_never_had(
    gm: Run, tmp_path: Path
) -> None:
    party = str(tmp_path / "party.db")
    gm("--db", party, "new", "-r", "srd", "--id", "camp", "--title", "Camp")
    sheet = str(SAMPLES / "fighter.toml")
    gm("--db", party, "party", "add", "hild", "--sheet", sheet, "--name", "Hild")
    gm("--db", party, "party", "update", "hild", "--sheet", sheet)
    gm("--db", party, "new", "-r", "srd", "--id", "one", "--title", "One", "--party")
    told = gm("--db", party, "log", "-e", "party") + gm("--db", party, "log", "-e", "one")
    assert "Hild stands at 28 hit points: as before" in told
    assert "last fight" not in told and " its " not in told


def report_line(gm: Run, step: int) -> str:
    """Step N's sentence in the Markdown report."""
    report = gm("export", "--format", "md")
    found = re.search(rf"^- {step}\. (.*)\[\^", report, re.M)
    assert found, report
    return found.group(1)


def test_the_report_names_who_saves_against_a_reaction_spell(gm: Run) -> None:
    """Ilse's hellish rebuke, her reaction to the ogre's blow: the ogre's save reads as the
    ogre's, in the ogre's own step."""
    gm("new", "-r", "srd", "--id", "rebuke", "--title", "Rebuke")
    gm("add", "ilse", "--sheet", str(SAMPLES / "wizard.toml"), "--side", "pc", "--name", "Ilse")
    gm("add", "ogre", "--monster", "ogre")
    gm("begin", "--dice", "5,10")
    said = gm(
        "act", "ogre", "attack", "ilse", "-w", "greatclub", "--defence", "ilse=hellish rebuke",
        "--dice", "15,5,5,3,4,4,4",
    )
    step = int(re.search(r"^step (\d+)$", said, re.M).group(1))  # type: ignore[union-attr]
    line = report_line(gm, step)
    assert "Ogre's Dexterity saving throw against hellish rebuke (DC 12) 3 -1 = 2" in line, line
    assert "; 3 -1 = 2" not in line, line


def test_each_attack_of_a_multiattack_under_bless_reads_with_its_own_bless_die(gm: Run) -> None:
    """The owlbear, blessed, bites Hild and claws Maelis: each d4 reads right after the attack
    it adds to, before what that attack came to, in the log and the report."""
    gm("new", "-r", "srd", "--id", "blessed", "--title", "Blessed")
    gm("add", "maelis", "--sheet", str(SAMPLES / "cleric.toml"), "--side", "pc", "--name", "Maelis")
    gm("add", "bear", "--monster", "owlbear")
    gm("add", "hild", "--sheet", str(SAMPLES / "fighter.toml"), "--side", "pc", "--name", "Hild")
    gm("begin", "--dice", "20,10,5")
    gm("act", "maelis", "cast", "bear", "-o", "spell=bless")
    gm("next")
    said = gm("act", "bear", "multiattack", "hild", "maelis", "--dice", "15,2,4,16,3,4,4,15")
    lines = [line.strip() for line in said.splitlines()]
    beak = next(i for i, line in enumerate(lines) if "attack on Hild with beak:" in line)
    claws = next(i for i, line in enumerate(lines) if "attack on Maelis with claws:" in line)
    assert lines[beak + 1].startswith("Owlbear rolls 1d4 for bless on the attack on Hild with beak")
    assert lines[claws + 1].startswith(
        "Owlbear rolls 1d4 for bless on the attack on Maelis with claws"
    )
    step = int(re.search(r"^step (\d+)$", said, re.M).group(1))  # type: ignore[union-attr]
    line = report_line(gm, step)
    assert "hit (24 vs AC 18); +1d4 bless: 2; hits Hild" in line, line
    assert "hit (26 vs AC 16); +1d4 bless: 3; hits Maelis" in line, line


def test_an_escape_short_of_dice_says_which_check_wants_which_die(gm: Run, refused: Run) -> None:
    fight(gm)
    gm("act", "hild", "grapple", "ogre", "-o", "free_hand=true", "--dice", "15,5")
    gm("next")
    said = refused("act", "ogre", "escape", "--dice", "3")
    assert (
        "the Strength (Athletics) check against the escape needs a d20, after a d20 for the "
        "Strength (Athletics) check to escape;"
    ) in said, said
    log = gm("act", "ogre", "escape", "--dice", "3,15")
    assert "Ogre rolls d20 for Strength (Athletics) check to escape: 3 " in log, log
    assert "Hild rolls d20 for Strength (Athletics) check against the escape: 15 " in log, log


def test_a_party_member_carried_home_says_how_their_hit_points_changed(
    gm: Run, tmp_path: Path
) -> None:
    """Issue 40: the party's log said "Hild stands at 10 hit points: as before" after a fight
    she went into at 28: it says the change."""
    party = str(tmp_path / "party.db")
    sheet = str(SAMPLES / "fighter.toml")
    gm("--db", party, "party", "add", "hild", "-r", "srd", "--sheet", sheet, "--name", "Hild")
    gm("--db", party, "new", "-r", "srd", "--id", "one", "--title", "One", "--party")
    gm("--db", party, "-e", "one", "harm", "hild", "18")
    gm("--db", party, "-e", "one", "end")
    gm("--db", party, "party", "heal", "hild", "1")
    told = gm("--db", party, "log", "-e", "party")
    assert "Hild stands at 10 hit points, down from 28: as before" in told, told
    assert "Hild stands at 28 hit points: as before" not in told


def test_undo_and_redo_name_the_step_as_the_log_words_it(gm: Run) -> None:
    """Issue 40: `fracas undo` said "undid step 8: maelis cast goblin-2", the command's ids
    and tag, where the log reads "Maelis casts bless on Goblin 2"."""
    gm("new", "-r", "srd", "--id", "cave", "--title", "Cave")
    gm("add", "maelis", "--sheet", str(SAMPLES / "cleric.toml"), "--side", "pc", "--name",
       "Maelis")  # fmt: skip
    gm("add", "goblin", "--monster", "goblin", "--count", "2")
    gm("begin", "--dice", "20,2,1")
    gm("act", "maelis", "cast", "goblin-2", "-o", "spell=bless")
    undone = gm("undo")
    assert re.match(r"undid step \d+: Maelis casts bless on Goblin 2\n", undone), undone
    assert re.match(r"redid step \d+: Maelis casts bless on Goblin 2\n", gm("redo"))
    gm("harm", "goblin-1", "3")
    assert re.match(r"undid step \d+: The GM harms Goblin 1 by 3\n", gm("undo"))


def test_an_opportunity_refused_names_whose_reach_the_move_left(gm: Run, refused: Run) -> None:
    """Issue 40: "Ogre's move left the reach of hild, wren: Maelis has no opportunity
    attack", the ids joined by a comma, where the table says "Hild and Wren"."""
    fight(gm)
    gm("add", "maelis", "--sheet", str(SAMPLES / "cleric.toml"), "--side", "pc", "--name",
       "Maelis", "--dice", "1")  # fmt: skip
    gm("next")
    gm("act", "ogre", "move", "10", "-o", "leaves=hild,wren")
    said = refused("act", "maelis", "opportunity", "ogre")
    assert "Ogre's move left the reach of Hild and Wren: Maelis has no opportunity" in said, said


def test_a_move_dragging_a_grappled_creature_names_it(gm: Run, refused: Run) -> None:
    """Issue 40: "Moving 20 feet (dragging goblin 2) costs 40 feet": the line's first
    letter made capital lowered the rest, the name with it."""
    gm("new", "-r", "srd", "--id", "yard")
    gm("add", "hild", "--sheet", str(SAMPLES / "fighter.toml"), "--side", "pc", "--name", "Hild")
    gm("add", "goblin", "--monster", "goblin", "--count", "2")
    gm("begin", "--dice", "20,2,1")
    gm("act", "hild", "grapple", "goblin-2", "-o", "free_hand=true", "--dice", "20,1")
    said = refused("act", "hild", "move", "20")
    assert "Moving 20 feet (dragging Goblin 2) costs 40 feet" in said, said
    said = gm("act", "hild", "move", "10")
    assert "moving 10 feet (dragging Goblin 2)" in said, said


def test_copies_of_the_sample_skeleton_are_named_skeleton(gm: Run) -> None:
    """Issue 40: `add skel --sheet skeleton.toml --count 2` showed "skel 1" and "skel 2",
    the ids, as the sample sheet had no name."""
    gm("new", "-r", "srd", "--id", "crypt")
    said = gm("add", "skel", "--sheet", str(SAMPLES / "skeleton.toml"), "--count", "2")
    assert "Skeleton 1 (npc) joins as skel-1" in said, said
    assert "Skeleton 2 (npc) joins as skel-2" in said, said


def test_a_hidden_creature_s_edge_is_said_once(gm: Run) -> None:
    """Issue 40: `-o unseeing=true` on a hidden target gave two reasons for one
    disadvantage ("the attacker cannot see the target", "the attacker cannot see Goblin:
    Goblin is hidden"); `-o unseen=true` from hiding two for one advantage."""
    gm("new", "-r", "srd", "--id", "yard")
    gm("add", "hild", "--sheet", str(SAMPLES / "fighter.toml"), "--side", "pc", "--name", "Hild")
    gm("add", "gob", "--monster", "goblin")
    gm("begin", "--dice", "2,20")
    gm("act", "gob", "hide", "--dice", "20")
    gm("next")
    said = gm("act", "hild", "attack", "gob", "-o", "unseeing=true", "--dice", "15,12,3")
    [rolled] = [line for line in said.splitlines() if "rolls 2d20kl1" in line]
    assert rolled.count("cannot see") == 1, rolled
    assert "the attacker cannot see Goblin: Goblin is hidden (srd-23)" in rolled, rolled
    gm("next")
    said = gm("act", "gob", "attack", "hild", "-o", "unseen=true", "--dice", "2,1,1")
    [rolled] = [line for line in said.splitlines() if "rolls 2d20kh1" in line]
    assert "Goblin attacks from hiding" in rolled, rolled
    assert "the target cannot see the attacker" not in rolled, rolled


def test_a_spell_attack_beyond_range_is_refused_in_the_spell_s_words(
    gm: Run, refused: Run
) -> None:
    """Issue 40: `-o range=beyond` on fire bolt was refused as a weapon is, "the target is
    beyond long range", where a spell has one range: the refusal names the spell."""
    gm("new", "-r", "srd", "--id", "darts")
    gm("add", "ilse", "--sheet", str(SAMPLES / "wizard.toml"), "--side", "pc", "--name", "Ilse")
    gm("add", "gob", "--monster", "goblin")
    gm("begin", "--dice", "20,2")
    said = refused("act", "ilse", "cast", "gob", "-o", "spell=fire bolt", "-o", "range=beyond")
    assert "long range" not in said, said
    assert "Goblin is beyond fire bolt's range: no attack (srd-17)" in said, said
    assert len(said.strip().splitlines()) == 1, said
