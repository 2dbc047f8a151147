"""What an outside 5e GM found at the command line (issue 40): a refused -o field answered
with the -o fields the action takes (and why not, where the ruleset says), a typo of a
party member named as one between fights, and an option typed as a flag pointed to -o."""

import pytest

from fracas.rules.ruleset import load
from tests.support import SIX, SRD_SAMPLES, member_sheet, refused


def begun(run, tmp_path, ruleset: str) -> None:
    run("new", "-r", ruleset, "-t", "a brawl")
    run("add", "ann", "--sheet", member_sheet(tmp_path, ruleset), "--side", "pc")
    run("add", "gob", "--sheet", member_sheet(tmp_path, ruleset))
    run("begin")


def o_fields(ruleset: str, action: str) -> list[str]:
    from fracas.projections import catalog

    rules = load(ruleset)
    return [f.field for f in catalog.action(rules, action, rules.actions[action]).flags
            if f.field not in catalog.FLAGS]  # fmt: skip


@pytest.mark.parametrize("ruleset", SIX)
def test_an_unknown_o_field_is_answered_with_the_o_fields_of_the_action(run, tmp_path, ruleset):
    begun(run, tmp_path, ruleset)
    line = refused(run, "act", "ann", "attack", "gob", "-o", "zzz=true")
    assert line.startswith("Error: attack: -o takes no field 'zzz'; "), line
    listed = line.split("-o takes: ")[1].split(";")[0]
    assert listed.split(", ") == sorted(o_fields(ruleset, "attack")), line
    assert "-w WEAPON" in line.split("flags: ")[1], line


def test_srd_says_only_dash_disengage_and_hide_are_bonus_actions(run) -> None:
    run("new", "-r", "srd", "-t", "a brawl")
    run("add", "wren", "--sheet", str(SRD_SAMPLES / "rogue.toml"), "--side", "pc")
    run("add", "gob", "--monster", "goblin")
    run("begin", "--dice", "20,1")
    line = refused(run, "act", "wren", "dodge", "-o", "bonus=true")
    assert "only dash, disengage and hide take bonus" in line, line
    assert "Cunning Action" in line and "actor" not in line and "modifiers" not in line, line


@pytest.mark.parametrize("ruleset", SIX)
def test_a_party_typo_between_fights_names_the_party_not_an_encounter(run, tmp_path, ruleset):
    run("party", "add", "ilse", "--sheet", member_sheet(tmp_path, ruleset), "-r", ruleset)
    for args in (("heal", "ilsa", "3"), ("condition", "set", "ilsa", "cursed"),
                 ("condition", "clear", "ilsa", "cursed")):  # fmt: skip
        line = refused(run, "party", *args)
        assert "no member 'ilsa' in the party; did you mean ilse?" in line, line
        assert "encounter" not in line, line
    if ruleset == "srd":  # the one ruleset with rests here
        line = refused(run, "party", "rest", "short", "--spend", "ilsa=1")
        assert "no member 'ilsa' in the party; did you mean ilse?" in line, line


@pytest.mark.parametrize("ruleset", SIX)
def test_an_o_field_typed_as_a_flag_is_pointed_to_o(run, tmp_path, ruleset):
    begun(run, tmp_path, ruleset)
    field = o_fields(ruleset, "attack")[0]
    line = refused(run, "act", "ann", "attack", "gob", f"--{field.replace('_', '-')}")
    assert f"did you mean `-o {field}=" in line, line


def test_srd_disadvantage_typed_as_a_flag(run) -> None:
    run("new", "-r", "srd", "-t", "a brawl")
    run("add", "hild", "--sheet", str(SRD_SAMPLES / "fighter.toml"), "--side", "pc")
    run("add", "goblin", "--monster", "goblin", "--count", "2")
    run("begin", "--dice", "20,2,1")
    line = refused(run, "act", "hild", "attack", "goblin-2", "--disadvantage")
    assert "did you mean `-o disadvantage=true`?" in line, line


def test_a_note_on_a_roll_reads_as_a_note_not_a_plus_zero_term(run) -> None:
    """The target's AC bonus (shield, cover) is a note on the attacker's roll, not a +0
    modifier of it; a real term of 0 keeps its number."""
    run("new", "-r", "srd", "-t", "a brawl")
    run("add", "hild", "--sheet", str(SRD_SAMPLES / "fighter.toml"), "--side", "pc")
    run("add", "goblin", "--monster", "goblin")
    run("begin", "--dice", "20,1")
    run("act", "hild", "attack", "goblin", "-o", "cover=half", "--dice", "10")
    for said in (run("log").output, run("replay").output, run("export", "--format", "md").output):
        assert "half cover: +2 AC (srd-22)" in said, said
        assert "+0 half cover" not in said, said


@pytest.mark.parametrize("ruleset", SIX)
def test_the_reports_tally_says_it_counts_health_lost_and_what_it_left_out(
    run, tmp_path, ruleset
) -> None:
    """A GM adding up the log's damage (overkill and all) finds the tally's figure named for
    what it counts, and the damage past a target's last point said under it."""
    begun(run, tmp_path, ruleset)
    run("harm", "gob", "100")
    md = run("export", "--format", "md").output
    assert "| Combatant | Health taken from others | Health lost |" in md, md
    row = next(x for x in md.splitlines() if x.startswith("| gob |"))
    lost = int(row.strip("| ").split("|")[-1])
    html = run("export", "--format", "html").output
    assert "<th>Health taken from others</th><th>Health lost</th>" in html
    under = f"{100 - lost} damage past a target's last point is not counted"
    for text in (md, html):
        assert (under in text) == (lost < 100), (lost, text)
