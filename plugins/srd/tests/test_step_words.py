"""What an outside tester read in srd's step sentences (the report's lines, the screens'
headline): every sum shown whole and in the order it was rolled, every die labelled, and
each step saying what was done in the words a table uses."""

import html
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
    db, runner = str(tmp_path / "words.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == 0, done.output
        return done.output

    return run


def add(gm: Run, who: str, sample: str, name: str, side: str = "pc") -> None:
    gm("add", who, "--sheet", str(SAMPLES / f"{sample}.toml"), "--side", side, "--name", name)


def act(gm: Run, *args: str) -> int:
    """`fracas act ...`: the number of the step it took."""
    found = re.search(r"^step (\d+)$", gm("act", *args), re.M)
    assert found
    return int(found.group(1))


def step_line(gm: Run, step: int) -> str:
    """Step N's sentence as the Markdown report and the HTML report both write it (the
    same words: the HTML's unescaped)."""
    report = gm("export", "--format", "md")
    line = rf"^- {step}\. (\*\*)?(.*?)(?(1)\*\*)(?: \(\w+\))?(?: \*\(.*\)\*)?\[\^"
    md = re.search(line, report, re.M)
    assert md, report
    page = gm("export", "--format", "html")
    found = re.search(rf'<span class="num">{step}</span> <span class="sentence">(.*?)</span>', page)
    assert found, page
    said = html.unescape(found.group(1))
    assert said == md.group(2).replace("\\", ""), (said, md.group(2))
    return said


def darts(gm: Run) -> None:
    gm("new", "-r", "srd", "--id", "darts", "--title", "Darts")
    add(gm, "ilse", "wizard", "Ilse")
    add(gm, "wolf", "wolf", "Wolf", "npc")
    gm("begin", "--dice", "20,2")


def test_magic_missile_reads_each_dart_s_roll_then_the_total(gm: Run) -> None:
    darts(gm)
    step = act(gm, "ilse", "cast", "wolf", "-o", "spell=magic missile", "--dice", "1,3,4")
    said = step_line(gm, step)
    places = [said.index(f"dart {n}") for n in (1, 2, 3)]
    assert places == sorted(places), said
    assert said.index("Wolf takes 11 force damage (2 + 4 + 5)") > places[-1], said


def ambush(gm: Run) -> None:
    """Wren (rogue), Maelis (cleric) and Brannoc (fighter) against a wolf and a goblin;
    the order is Wren, Maelis, Brannoc, the wolf, the goblin."""
    gm("new", "-r", "srd", "--id", "ambush", "--title", "Ambush")
    add(gm, "wren", "rogue", "Wren")
    add(gm, "maelis", "cleric", "Maelis")
    add(gm, "brannoc", "fighter", "Brannoc")
    add(gm, "wolf", "wolf", "Wolf", "npc")
    add(gm, "goblin", "goblin", "Goblin", "npc")
    gm("begin", "--dice", "20,18,15,5,2")


def test_a_hit_s_damage_reads_its_dice_and_every_flat_part_that_sums_to_the_damage(
    gm: Run,
) -> None:
    """'2+3 = 5 on 2d4; Brannoc takes 7 damage' hid the wolf's Dex modifier: each roll now
    states its whole sum, and the rolls add up to the damage taken."""
    ambush(gm)
    stab = ("wren", "attack", "goblin", "-w", "shortsword", "-o", "ally_near=true")
    said = step_line(gm, act(gm, *stab, "--dice", "15,4,3,5"))
    assert "damage of shortsword: 4 +3 = 7 on 1d6+3; sneak attack: 3+5 = 8 on 2d6" in said
    assert "Goblin takes 15 piercing damage" in said, said
    gm("next"), gm("next"), gm("next")
    bite = act(gm, "wolf", "attack", "brannoc", "-w", "bite", "--dice", "15,2,3,19")
    said = step_line(gm, bite)
    assert "damage of bite: 2+3 +2 = 7 on 2d4+2; Brannoc takes 7 piercing damage" in said


def test_a_dart_and_a_healing_spell_read_their_flat_parts_too(gm: Run) -> None:
    darts(gm)
    step = act(gm, "ilse", "cast", "wolf", "-o", "spell=magic missile", "--dice", "1,3,4")
    said = step_line(gm, step)
    for dart, rolled in ((1, "1 +1 = 2"), (2, "3 +1 = 4"), (3, "4 +1 = 5")):
        assert f"dart {dart} (at Wolf): {rolled} on 1d4+1" in said, said
    ambush(gm)
    gm("harm", "wren", "9", "--reason", "a fall")
    gm("next")
    cure = act(gm, "maelis", "cast", "wren", "-o", "spell=cure wounds", "--dice", "5")
    said = step_line(gm, cure)  # (the spell named once: "Maelis casts cure wounds on Wren")
    assert "on Wren: 5 +3 = 8 on 1d8+3; Wren regains 8 hit points" in said, said


def test_bless_s_die_is_labelled_where_the_attack_s_dice_are_written(gm: Run) -> None:
    """'12 +3 +2 +3 = 20 against 15, hit; 3, +3': the d4 after the attack roll had no label."""
    ambush(gm)
    gm("next")
    gm("act", "maelis", "cast", "maelis", "brannoc", "-o", "spell=bless")
    gm("next")
    out = gm("act", "brannoc", "attack", "wolf", "-w", "longsword", "--dice", "12,3,5")
    said = step_line(gm, int(re.findall(r"^step (\d+)$", out, re.M)[-1]))
    assert "12 +3 +2 +3 = 20 against 13, hit (20 vs AC 13); +1d4 bless: 3; hits Wolf" in said
    assert "rolls 1d4 for bless on the attack on Wolf with longsword: 3 -> +1d4 bless" in out
    assert "+3 bless: +1d4 rolled 3 (srd-32)" in out, out
    report = gm("export", "--format", "html")
    assert "<td>bless on the attack on Wolf with longsword</td><td>1d4</td>" in report


def lair(gm: Run) -> None:
    """Maelis (cleric, slots [2, 2]), Ilse (wizard) and the Ashen Wyrm, in that order."""
    gm("new", "-r", "srd", "--id", "lair", "--title", "The lair")
    add(gm, "maelis", "cleric", "Maelis")
    add(gm, "ilse", "wizard", "Ilse")
    add(gm, "wyrm", "wyrm", "Ashen Wyrm", "npc")
    gm("begin", "--dice", "20,15,2")


def test_a_breath_reads_as_the_monster_s_action_and_an_upcast_spell_as_its_slot_s_level(
    gm: Run,
) -> None:
    """The report read 'Ashen Wyrm casts fire breath' and 'Maelis casts cure wounds' though
    the log said the breath is its action and the cure a level 1 spell cast at level 2."""
    lair(gm)
    cure = act(gm, "maelis", "cast", "ilse", "-o", "spell=cure wounds", "-o", "level=2")
    assert step_line(gm, cure).startswith("Maelis casts cure wounds at 2nd level on Ilse: ")
    gm("next"), gm("next")
    breath = act(gm, "wyrm", "cast", "ilse", "-o", "spell=fire breath", "--dice", "15" + ",1" * 10)
    assert step_line(gm, breath).startswith("Ashen Wyrm uses fire breath on Ilse: "), breath
    gm("next")
    flame = act(gm, "maelis", "cast", "wyrm", "-o", "spell=sacred flame", "--dice", "19")
    assert step_line(gm, flame).startswith("Maelis casts sacred flame on Ashen Wyrm: ")


def ada_down(gm: Run, foe: str, sample: str, name: str) -> None:
    """Wren, then Ada, at 0 HP and dying, then a foe."""
    gm("new", "-r", "srd", "--id", f"{foe}-fight", "--title", "Dying")
    add(gm, "wren", "rogue", "Wren")
    add(gm, "ada", "fighter", "Ada")
    add(gm, foe, sample, name, "npc")
    gm("begin", "--dice", "20,10,2")
    gm("harm", "ada", "28", "--reason", "a fall")


def passed(gm: Run, dice: str) -> int:
    """`fracas next --dice DICE`: the number of the step it took."""
    return int(re.findall(r"^step (\d+)$", gm("next", "--dice", dice), re.M)[-1])


def test_a_death_save_rolled_as_the_turn_passes_reads_whose_turn_ended_and_the_count(
    gm: Run,
) -> None:
    """The `next` that ends Wren's turn begins Ada's with her death save: the report tells
    Wren's turn's end under his turn, and under Ada's her save and her count of them."""
    ada_down(gm, "goblin", "goblin", "Goblin")
    first = passed(gm, "14")
    assert step_lines(gm, first) == [
        ("Wren's turn", "Wren ends the turn"),
        ("Ada's turn", "Ada's death save 14 against 10, a success (1 of 3)"),
    ]
    gm("next"), gm("next")
    second = passed(gm, "1")
    assert step_lines(gm, second)[1] == (
        "Ada's turn", "Ada's death save 1 against 10, a natural 1: two failures (2 of 3)"
    )
    assert step_line(gm, first + 1) == "Ada ends the turn"  # a pass alone, as it was


def step_lines(gm: Run, step: int) -> list[tuple[str, str]]:
    """Each line step N reads in the Markdown report, under its turn's heading: a `next`
    told in parts (the turn it ended, the turn it began) reads under each."""
    found, heading = [], ""
    for line in gm("export", "--format", "md").splitlines():
        heading = line.removeprefix("### ") if line.startswith("### ") else heading
        said = re.match(rf"^- {step}\. (.*?)(?: \*\(.*\)\*)?(?:\[\^.*)?$", line)
        if said:
            found.append((heading, said.group(1).replace("\\", "")))
    return found


def test_a_death_save_made_before_the_turn_ends_reads_before_it(gm: Run) -> None:
    """With a legendary creature in the fight the GM's second `next` makes the save, then
    ends the dying one's turn: the sentence says them in that order."""
    ada_down(gm, "wyrm", "wyrm", "Ashen Wyrm")
    gm("next")
    save = passed(gm, "14")
    assert step_line(gm, save) == (
        "Ada's death save 14 against 10, a success (1 of 3); Ada's turn ends"
    )


def test_checks_and_saves_read_as_the_srd_names_them_with_their_article(gm: Run) -> None:
    """'Wren makes a athletics check', 'makes a dex save': a check is named by its ability
    and skill, a save is a saving throw, each with its article, in the report and the log."""
    ambush(gm)
    said = step_line(gm, act(gm, "wren", "check", "athletics", "--dc", "15", "--dice", "12"))
    assert said.startswith("Wren makes a Strength (Athletics) check: 12 "), said
    said = step_line(gm, act(gm, "wren", "save", "dex", "--dc", "13", "--dice", "8"))
    assert said.startswith("Wren makes a Dexterity saving throw: 8 "), said
    said = step_line(gm, act(gm, "maelis", "check", "investigation", "--dc", "9", "--dice", "5"))
    assert said.startswith("Maelis makes an Intelligence (Investigation) check: 5 "), said
    said = step_line(gm, act(gm, "wolf", "check", "str", "--dc", "9", "--dice", "5"))
    assert said.startswith("Wolf makes a Strength check: 5 "), said
    fell = act(gm, "wolf", "save", "str", "--dc", "13", "--dice", "1", "-o", "fail=prone")
    assert step_line(gm, fell).startswith("Wolf makes a Strength saving throw: 1 ")
    log = gm("log")
    assert "Wren rolls d20 for Strength (Athletics) check (DC 15): 12 " in log, log
    assert "Wren rolls d20 for Dexterity saving throw (DC 13): 8 " in log, log
    assert "Maelis rolls d20 for Intelligence (Investigation) check (DC 9): 5 " in log, log
    assert "Wolf is prone: failed the Strength saving throw (DC 13)" in log, log
    assert " save (DC" not in log and " Str check" not in log, log


def test_a_log_written_before_the_srd_s_names_reads_them_and_decides_as_recorded() -> None:
    """Events written under schema 1 named 'Dex save' and 'Str (Athletics) check': read now, they
    say the srd's names, as the rules decide them now (so the audit finds no drift)."""
    from fracas_srd.ruleset import RULESET

    old = (
        '{"kind":"rolled","actor":"wren","purpose":"bless on the Dex save (DC 13)",'
        '"roll":{"dice":"1d4","faces":[3],"total":3,"source":"gm"}}'
    )
    assert RULESET.decode("rolled", 1, old).purpose == (
        "bless on the Dexterity saving throw (DC 13)"
    )
    reason = '{"kind":"resolved","actor":"wolf","action":"save","targets":[],'
    reason += '"outcome":"fails the Str save automatically: stunned","rules":[]}'
    said = RULESET.decode("resolved", 1, reason).outcome
    assert said == "fails the Strength saving throw automatically: stunned"
    check = old.replace("Dex save (DC 13)", "Str (Athletics) check")
    assert RULESET.decode("rolled", 1, check).purpose == "bless on the Strength (Athletics) check"
    wis = old.replace("Dex save (DC 13)", "Wis check")
    assert RULESET.decode("rolled", 1, wis).purpose == "bless on the Wisdom check"


def test_an_off_hand_attack_and_an_escape_read_as_a_table_says_them(gm: Run) -> None:
    """Issue 40: "Wren attacks with the off hand Goblin" and "Ogre escape -> Hild: stays
    grappled"; the target goes where English puts it, and the log's line for an action
    says it in the ruleset's words, never its id ("declares second_wind")."""
    gm("new", "-r", "srd", "--id", "offhand")
    add(gm, "wren", "rogue", "Wren")
    add(gm, "gob", "goblin", "Goblin", "npc")
    gm("begin", "--dice", "20,1")
    act(gm, "wren", "attack", "gob", "--dice", "2")
    step = act(gm, "wren", "offhand", "gob", "-w", "dagger", "--dice", "2")
    assert step_line(gm, step).startswith("Wren attacks Goblin with the off hand: "), step_line(
        gm, step
    )
    log = gm("log")
    assert "Wren declares offhand" not in log, log
    assert "Wren declares: attacks Goblin with the off hand" in log, log
    assert "Wren attacks Goblin with the off hand: misses [srd-6" in log, log
    from fracas.projections.sentences import opening

    from fracas_srd.ruleset import RULESET

    escape = {"action": "escape", "actor": "ogre", "targets": ["hild"]}
    said = opening(escape, {"ogre": "Ogre", "hild": "Hild"}, RULESET)
    assert said == "Ogre tries to escape Hild's grapple", said
    alone = opening({**escape, "targets": []}, {"ogre": "Ogre"}, RULESET)
    assert alone == "Ogre tries to escape", alone


def test_a_spell_s_resolved_line_names_the_spell(gm: Run) -> None:
    """Issue 40: the log and `fracas act` read "Ilse cast -> Wolf: ..." where the declared
    line above it said "Ilse declares: casts magic missile on Wolf"."""
    darts(gm)
    said = gm("act", "ilse", "cast", "wolf", "-o", "spell=fire bolt", "--dice", "2")
    assert "cast -> " not in said, said
    assert "  Ilse casts fire bolt on Wolf: misses" in said, said
    assert "Ilse casts fire bolt on Wolf: misses" in gm("log"), gm("log")
