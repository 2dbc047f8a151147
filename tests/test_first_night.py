"""What a GM's first night with the party found (issue 40), in every ruleset: an ended fight
refuses changes in one line and the party is changed between fights instead; a misspelt
condition or monster is answered with a did-you-mean; a mid-fight joiner's typed roll."""

import html
import json

import pytest
from click.testing import CliRunner

from fracas.cli.main import App, cli
from fracas.cli.shell import Completion, Session
from tests.support import SIX, SRD_SAMPLES, member_sheet
from tests.terminal import click_completes


def steps(run) -> int:
    """How many events the log holds, over every encounter."""
    return sum(e["events"] for e in json.loads(run("encounters", "--json").output))


def refused_in_one_line(run, *args: str) -> str:
    """The one line a refusal prints, with nothing appended to the log."""
    before = steps(run)
    result = run(*args, ok=False)
    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert steps(run) == before, f"{args} appended to the log"
    return lines[0]


def party_conditions(run) -> list[str]:
    [ann] = json.loads(run("party", "--json").output)
    return ann["conditions"]


@pytest.mark.parametrize("ruleset", SIX)
def test_an_ended_fight_refuses_changes_and_the_party_is_changed_between_fights(
    run, tmp_path, ruleset
):
    run("party", "add", "ann", "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    run("new", "--party", "-t", "the ambush")
    run("add", "gob", "--sheet", member_sheet(tmp_path, ruleset))
    run("begin")
    run("condition", "set", "ann", "poisoned")
    run("end")
    assert "poisoned" in party_conditions(run)
    for args in (
        ("condition", "clear", "ann", "poisoned"),
        ("condition", "set", "ann", "on fire"),
        ("harm", "ann", "1"),
        ("heal", "ann", "1"),
        ("remove", "gob"),
        ("return", "gob"),
        ("rename", "gob", "Snik"),
        ("add", "bob", "--sheet", member_sheet(tmp_path, ruleset)),
        ("begin",),
        ("next",),
        ("party", "bring"),
    ):
        line = refused_in_one_line(run, *args)
        assert line.startswith("Error: the fight has ended"), (args, line)
        assert "fracas reopen" in line and "fracas party" in line, line
    assert "poisoned" in party_conditions(run)
    run("party", "condition", "clear", "ann", "poisoned", "-m", "a healer's herbs")
    assert "poisoned" not in party_conditions(run)
    run("party", "condition", "set", "ann", "exhausted")
    assert "exhausted" in party_conditions(run)
    assert refused_in_one_line(run, "party", "bring").startswith("Error: the fight has ended")
    second = run("new", "--party").output.split()[0]
    with_party = json.loads(run("-e", second, "status", "--json").output)
    [row] = [w for w in with_party["wounds"] if w["combatant"] == "ann"]
    assert "exhausted" in row["conditions"] and "poisoned" not in row["conditions"]


MISSPELT = {  # a condition each ruleset's rules know, as a GM might mistype it
    "percentile": ("unconcious", "unconscious"),
    "shotclock": ("impared", "impaired"),
    "pool": ("incapacitatd", "incapacitated"),
    "timeslice": ("staggerd", "staggered"),
    "fudge": ("garotted", "garroted"),
    "srd": ("Unconcious", "unconscious"),
}


@pytest.mark.parametrize("ruleset", SIX)
def test_a_misspelt_condition_is_refused_with_the_name_it_was_near(run, tmp_path, ruleset):
    run("new", "-r", ruleset)
    run("add", "bob", "--sheet", member_sheet(tmp_path, ruleset))
    typed, meant = MISSPELT[ruleset]
    line = refused_in_one_line(run, "condition", "set", "bob", typed)
    assert line.startswith(f"Error: unknown condition '{typed}': did you mean {meant}?")
    run("condition", "set", "bob", "on fire")
    line = refused_in_one_line(run, "condition", "set", "bob", "on fir")  # a free one, as set
    assert "did you mean on fire?" in line
    run("condition", "set", "bob", "on fir (ruling)")  # a name of one's own stays free
    line = refused_in_one_line(run, "condition", "clear", "bob", "on fre")
    assert "did you mean on fire?" in line
    run("condition", "clear", "bob", "ON FIRE")  # the name as set, in any case
    rows = json.loads(run("status", "--json").output)["wounds"]
    assert [w["conditions"] for w in rows] == [["on fir (ruling)"]]


def test_the_d20_conditions_are_known_by_name_in_any_case(run):
    run("new", "-r", "srd")
    run("add", "bob", "--sheet", str(SRD_SAMPLES / "fighter.toml"))
    line = refused_in_one_line(run, "condition", "set", "bob", "pron")
    assert line.startswith("Error: unknown condition 'pron': did you mean prone?")
    assert "such as 'pron (ruling)'" in line
    run("condition", "set", "bob", "Poisoned")
    refused_in_one_line(run, "condition", "set", "bob", "poisoned")  # already: not twice
    run("party", "add", "ann", "--sheet", str(SRD_SAMPLES / "fighter.toml"))
    line = refused_in_one_line(run, "party", "condition", "set", "ann", "grapled")
    assert "did you mean grappled?" in line
    [row] = json.loads(run("status", "--json").output)["wounds"]
    assert row["conditions"] == ["poisoned"]


@pytest.mark.sqlite_file  # bash's completion runs `fracas` on the file
def test_tab_offers_the_rules_conditions_to_set_and_the_targets_to_clear(tmp_path):
    db = tmp_path / "tab.db"
    runner = CliRunner()
    for args in (
        ["new", "-r", "srd"],
        ["add", "bob", "--sheet", str(SRD_SAMPLES / "fighter.toml")],
        ["condition", "set", "bob", "poisoned"],
    ):
        assert runner.invoke(cli, ["--db", str(db), *args]).exit_code == 0
    assert click_completes(db, "fracas condition set bob pr") == ["prone"]
    assert click_completes(db, "fracas condition set bob poi") == []  # bob is already
    assert click_completes(db, "fracas condition clear bob ") == ["poisoned"]
    app = App(str(db), None)
    try:
        offered = Completion(Session(app, cli)).candidates("condition set bob pa")
    finally:
        app.close()
    assert offered == ["paralysed", "paralyzed"]


@pytest.mark.parametrize("typed", ["owl bear", "Owl-Bear", "OWLBEAR", "owl_bear"])
def test_a_monster_is_found_in_any_case_spacing_or_punctuation(run, typed):
    run("new", "-r", "srd")
    listed = run("monsters", typed).output.splitlines()
    assert listed[0].split()[0] == "owlbear" and listed[1].startswith("1 of ")
    run("add", "bear", "--monster", typed)
    [row] = json.loads(run("status", "--json").output)["wounds"]
    assert row["name"] == "Owlbear"


def test_a_misspelt_monster_is_answered_with_a_did_you_mean(run):
    run("new", "-r", "srd")
    line = refused_in_one_line(run, "monsters", "gobln")  # no match: exit 1, as --show
    assert line == "Error: no monster's name or type holds 'gobln'; did you mean goblin?"
    line = refused_in_one_line(run, "monsters", "gobln", "--show")
    assert line == "Error: no monster 'gobln' in the bestiary; did you mean goblin?"
    listed = run("monsters", "gobln", "--json", ok=False)
    assert listed.exit_code == 1 and json.loads(listed.output)["did_you_mean"] == "goblin"
    line = refused_in_one_line(run, "add", "gob", "--monster", "gobln")
    assert line == "Error: no monster 'gobln' in the bestiary; did you mean goblin?"
    line = refused_in_one_line(run, "party", "add", "gob", "--monster", "owlbaer")
    assert line == "Error: no monster 'owlbaer' in the bestiary; did you mean owlbear?"


@pytest.mark.parametrize("ruleset", SIX[:5])
def test_a_ruleset_without_a_bestiary_says_so_when_a_monster_is_asked_for(run, ruleset):
    run("new", "-r", ruleset)
    asked = (("add", "gob", "--monster", "goblin"), ("monsters", "goblin"),
             ("monsters", "goblin", "--show"))  # fmt: skip
    for args in asked:
        line = refused_in_one_line(run, *args)
        assert line == (
            f"Error: the {ruleset} rules have no bestiary: add from a sheet (--sheet), "
            "or see srd's with `fracas monsters -r srd`"
        )
    line = refused_in_one_line(run, "monsters", "--json")  # refused alike, not an empty list
    assert line.startswith(f"Error: the {ruleset} rules have no bestiary")


def initiative(run) -> dict[str, str]:
    return {
        r["combatant"]: r["key"] for r in json.loads(run("status", "--json").output)["initiative"]
    }


def test_a_joiner_mid_fight_rolls_the_initiative_the_gm_types(run):
    """d20 rolls a newcomer's initiative as they join: --dice gives its faces, as `begin`'s."""
    run("new", "-r", "srd")
    run("add", "ann", "--sheet", str(SRD_SAMPLES / "fighter.toml"))  # Dex +1
    run("begin", "--dice", "10")
    joined = run("add", "gob", "--monster", "goblin", "--dice", "17", "--by", "alice").output
    assert "initiative: 17 +2 = 19" in joined or "-> 19" in joined, joined
    run("add", "orc", "--monster", "goblin", "--count", "2", "--dice", "3,18")
    assert initiative(run) == {
        "gob": "init 19",
        "orc-2": "init 20",
        "ann": "init 11",
        "orc-1": "init 5",
    }
    [typed] = [e for e in json.loads(run("log", "--json").output) if "gob" in str(e)][:1]
    assert "manual" in json.dumps(typed) and "alice" in json.dumps(typed)
    for faces, says in (
        ("4", "give the same number for each (a multiple of 2)"),
        ("5,21", "21 is not a face of d20"),
    ):
        line = refused_in_one_line(run, "add", "imp", "--monster", "goblin", "--count", "2",
                                   "--dice", faces)  # fmt: skip
        assert says in line, line
    assert "imp-1" not in initiative(run)


@pytest.mark.parametrize("ruleset", SIX[:5])
def test_typed_dice_for_a_joiner_who_rolls_nothing_are_refused(run, tmp_path, ruleset):
    run("new", "-r", ruleset)
    run("add", "ann", "--sheet", member_sheet(tmp_path, ruleset))
    run("begin")
    line = refused_in_one_line(run, "add", "bob", "--sheet", member_sheet(tmp_path, ruleset),
                               "--dice", "5")  # fmt: skip
    assert "left over" in line and "drop the extra faces from --dice" in line


def test_the_party_brought_into_a_fight_begun_rolls_the_initiative_the_gm_types(run):
    run("party", "add", "ann", "-r", "srd", "--sheet", str(SRD_SAMPLES / "fighter.toml"))
    run("party", "add", "cat", "--sheet", str(SRD_SAMPLES / "rogue.toml"))  # Dex 16
    run("new", "-r", "srd")
    run("add", "gob", "--monster", "goblin")
    run("begin", "--dice", "1")
    line = refused_in_one_line(run, "party", "bring", "--dice", "15")
    assert "--dice gave 1 face for 2 joining" in line
    run("party", "bring", "--dice", "15,2")
    order = initiative(run)
    assert (order["ann"], order["cat"]) == ("init 16", "init 5")  # Dex +1 and +3


FELLED_BY_HAND = {"percentile", "pool", "timeslice", "srd"}  # elsewhere a roll fells


def reports(run) -> dict[str, str]:
    """The fight's report in Markdown and HTML, the GM's and the players'."""
    return {
        f"{fmt} for {who}": run("export", "--format", fmt, "--for", who).stdout
        for fmt in ("md", "html")
        for who in ("gm", "players")
    }


@pytest.mark.parametrize("ruleset", SIX)
def test_the_report_of_a_fight_with_the_party_and_a_joiner(run, tmp_path, ruleset):
    """Ann comes in from the party wounded (the dead stay out of a new fight); a goblin
    joins once the fight has begun and is struck down, then struck again while down: the
    report orders the joiner, words the party's coming in, and counts each fall once."""
    sheet = member_sheet(tmp_path, ruleset)
    run("party", "add", "ann", "-r", ruleset, "--sheet", sheet)
    run("new", "--party", "--id", "first")
    run("add", "orc", "--sheet", sheet, "--name", "Orc")
    run("harm", "ann", "1")
    run("end")
    run("new", "--party", "--id", "second")
    run("add", "orc", "--sheet", sheet, "--name", "Orc")
    run("begin")
    run("add", "gob", "--sheet", sheet, "--name", "Gob")
    run("harm", "gob", "10000")
    run("harm", "gob", "10000")
    for name, text in reports(run).items():
        assert "party.carry" not in text and "takes the party" not in text, name
        assert "ann comes in as the party stood" in text, name
        order = next(line for line in text.splitlines() if "Initiative order:" in line)
        assert "Gob" in order, (name, order)
        fell = next(line for line in text.splitlines() if "Fell:" in line)
        assert fell.count("Gob") == (ruleset in FELLED_BY_HAND) and "ann" not in fell, (name, fell)
    cast = reports(run)["md for gm"].split("## Cast")[1].split("##")[0]
    [gob] = [row for row in cast.splitlines() if row.startswith("| Gob |")]
    assert gob.split("|")[3].strip(), f"the joiner's place in the order: {gob}"


@pytest.mark.parametrize("ruleset", SIX)
def test_a_party_member_carried_in_down_does_not_stop_the_fight_beginning(run, tmp_path, ruleset):
    sheet = member_sheet(tmp_path, ruleset)
    run("party", "add", "ann", "-r", ruleset, "--sheet", sheet)
    run("new", "--party", "--id", "first")
    run("harm", "ann", "10000")
    run("end")
    run("new", "--party", "--id", "second")
    run("add", "orc", "--sheet", sheet, "--name", "Orc")
    run("begin")  # refused in the dice pool, where ann's initiative roll would fail
    acting = json.loads(run("status", "--json").output)["acting"]
    assert acting == (["orc"] if ruleset in FELLED_BY_HAND else acting) and acting


def test_a_character_struck_while_down_fell_once(run):
    """d20: a character at 0 is unconscious and dying; a blow then kills them. One fall."""
    run("new", "-r", "srd")
    run("add", "ann", "--sheet", str(SRD_SAMPLES / "fighter.toml"), "--side", "pc")
    run("add", "gob", "--monster", "goblin")
    run("begin", "--dice", "15,5")
    run("harm", "ann", "28")
    run("harm", "ann", "3")
    run("harm", "ann", "40")
    for name, text in reports(run).items():
        fell = next(line for line in text.splitlines() if "Fell:" in line)
        assert fell.count("ann") == 1 and "step 5" in fell, (name, fell)


def test_a_joiners_critical_is_in_every_report_a_secret_one_in_the_gms_alone(run):
    run("party", "add", "ann", "-r", "srd", "--sheet", str(SRD_SAMPLES / "fighter.toml"))
    run("new", "--party")
    run("add", "gob", "--monster", "goblin")
    run("begin", "--dice", "15,5")
    run("next")
    run("add", "wolf", "--monster", "wolf", "--dice", "20")  # before ann, in round 2
    run("next")
    run("act", "wolf", "attack", "ann", "--dice", "20,4,4,3,3,15")  # 4d4 on a critical
    run("next")
    run("next")
    run("act", "gob", "attack", "ann", "--dice", "20,3,3", "--secret")
    for name, text in reports(run).items():
        criticals = html.unescape(next(ln for ln in text.splitlines() if "Criticals:" in ln))
        assert "step 9, Wolf's attack on ann: 16 damage" in criticals, (name, criticals)
        assert ("Goblin's attack on ann" in criticals) == name.endswith("gm"), (name, criticals)
        order = next(line for line in text.splitlines() if "Initiative order:" in line)
        assert "Wolf, ann, Goblin" in order, (name, order)


@pytest.mark.parametrize("ruleset", SIX)
def test_the_party_is_no_fight_to_give_fight_commands(run, tmp_path, ruleset):
    """`-e party` names the party's own log, which a fight's commands would change unseen:
    `fracas party` shows the members as they stand in the fight they were brought into."""
    sheet = member_sheet(tmp_path, ruleset)
    run("party", "add", "ann", "-r", ruleset, "--sheet", sheet)
    run("new", "--party")
    for args in (
        ("harm", "ann", "1"),
        ("heal", "ann", "1"),
        ("condition", "set", "ann", "poisoned"),
        ("begin",),
        ("next",),
        ("end",),
        ("roll", "d6"),
        ("add", "bob", "--sheet", sheet),
    ):
        line = refused_in_one_line(run, "-e", "party", *args)
        assert line.startswith("Error: the party is not a fight: "), (args, line)
        assert "fracas party heal" in line and "fracas new --party" in line, line


def test_a_ruleset_without_its_own_stat_block_shows_a_monster_s_sheet_field_by_field():
    """The default of `Ruleset.stat_block`: each field of the sheet that says something."""
    from fracas.rules import load

    plain = load("percentile")
    assert plain.stat_block is None
    sheet = {"hp": 7, "cr": 0.25, "skills": ["stealth", "bows"], "notes": "", "speed": {"walk": 30}}
    assert plain.stat_block_of(sheet) == [
        ("hp", "7"), ("cr", "0.25"), ("skills", "stealth, bows"), ("speed", "walk 30")]  # fmt: skip
