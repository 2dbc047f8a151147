"""What a table reads about a fight says the why (issue 40's outside tester): a duration
names the combatant as the table knows them, never by the id the GM typed; a damage says
how its dice became what was taken, a heal why it gave back less; a replay's roll what it
was for."""

import json
import re

import pytest

from tests.support import SIX, SRD_SAMPLES, member_sheet


def two(run, tmp_path, ruleset: str) -> None:
    """Ada and a goblin ("gob"), each from a sheet of the ruleset, the fight begun."""
    run("new", "-r", ruleset)
    sheet = member_sheet(tmp_path, ruleset)
    run("add", "ada", "--sheet", sheet, "--side", "pc", "--name", "Ada")
    run("add", "gob", "--sheet", sheet, "--side", "npc", "--name", "Goblin")
    run("begin")


@pytest.mark.parametrize("ruleset", SIX)
def test_a_duration_to_a_combatants_turn_names_them_not_their_id(run, tmp_path, ruleset):
    two(run, tmp_path, ruleset)
    said = run("condition", "set", "gob", "dazed", "--until", "end:ada").output
    assert "Goblin is dazed until the end of Ada's next turn" in said, said
    assert "ada's" not in said, said


def test_srd_dodge_lasts_until_the_start_of_the_dodgers_turn_by_name(run, tmp_path):
    two(run, tmp_path, "srd")
    first = json.loads(run("status", "--json").output)["acting"][0]
    name = {"ada": "Ada", "gob": "Goblin"}[first]
    said = run("act", first, "dodge").output
    assert f"{name} is dodging until the start of {name}'s next turn" in said, said


def srd_casters(run) -> None:
    """Ann and Bea (wizards, resistant to fire), Mae (a cleric with a mace) and a skeleton
    (vulnerable to bludgeoning), in that order of initiative."""
    run("new", "-r", "srd")
    for who, sheet, name, side in (
        ("ann", "wizard", "Ann", "pc"),
        ("bea", "wizard", "Bea", "npc"),
        ("mae", "cleric", "Mae", "pc"),
    ):
        run("add", who, "--sheet", f"{SRD_SAMPLES}/{sheet}.toml", "--side", side, "--name", name,
            "--set", "hp=60")  # fmt: skip
    run("add", "sk", "--monster", "skeleton", "--side", "npc", "--set", "hp=60")
    run("begin", "--dice", "19,15,10,2")


def test_srd_damage_says_how_the_dice_became_what_was_taken(run):
    """15 fire, halved for the save and then for resistance: each step and its rule."""
    srd_casters(run)
    spell = "spell=burning hands"
    said = run("act", "ann", "cast", "bea", "-o", spell, "--dice", "18,6,5,4").output
    assert (
        "Bea takes 3 damage: 3d6 [6+5+4] = 15 fire, halved for the save (srd-25) -> 7, "
        "halved for resistance to fire (srd-10) -> 3" in said
    ), said


def test_srd_a_weapons_damage_reads_as_the_table_says_it_and_doubles_on_the_vulnerable(run):
    srd_casters(run)
    run("next")
    run("next")  # Mae's turn
    said = run("act", "mae", "attack", "sk", "-w", "mace", "--dice", "15,4").output
    assert (
        "Skeleton takes 10 damage: 1d6 [4] + 1 Str = 5 bludgeoning, "
        "doubled for vulnerability to bludgeoning (srd-10) -> 10" in said
    ), said


def test_srd_a_heal_on_one_at_full_hit_points_says_why_it_healed_nothing(run, tmp_path):
    srd_casters(run)
    run("next")
    run("next")  # Mae's turn; Ann at full hit points
    said = run("act", "mae", "cast", "ann", "-o", "spell=cure wounds", "--dice", "5").output
    said_as = "Ann regains 0 hit points (cure wounds, cast by Mae): already at full hit points"
    assert f"{said_as} [srd-12]" in said, said
    told = run("export", "--format", "md", "--for", "players").output
    assert "Ann regains 0 hit points: already at full hit points" in told, told


def test_srd_a_heal_past_the_maximum_says_it_stops_there(run):
    srd_casters(run)
    run("harm", "ann", "3")
    run("next")
    run("next")
    said = run("act", "mae", "cast", "ann", "-o", "spell=cure wounds", "--dice", "5").output
    said_as = "Ann regains 3 hit points (cure wounds, cast by Mae): no more than full hit points"
    assert f"{said_as} [srd-12]" in said, said


ROLLED = re.compile(r" rolls (\S+) for (.+?): ")


@pytest.mark.parametrize("ruleset", SIX)
def test_replay_says_what_each_roll_was_for_as_the_log_does(run, tmp_path, ruleset):
    two(run, tmp_path, ruleset)
    first = json.loads(run("status", "--json").output)["acting"][0]
    run("act", first, "attack", "gob" if first == "ada" else "ada", ok=False)
    logged = [m.groups() for m in map(ROLLED.search, run("log").output.splitlines()) if m]
    lines = run("replay").output.splitlines()
    replayed = [m.groups() for m in map(ROLLED.search, lines) if m]
    assert logged and replayed == logged, (lines, logged)


@pytest.mark.parametrize("ruleset", SIX)
def test_replay_names_who_acts_and_who_rolls_not_their_ids(run, tmp_path, ruleset):
    """An outside 5e tester's replay read 'step 22 (round 1, g-2 acting; ...)' and 'roll:
    g-2 d20 for attack on Maelis' where the log named Goblin 2."""
    two(run, tmp_path, ruleset)
    first = json.loads(run("status", "--json").output)["acting"][0]
    run("act", first, "attack", "gob" if first == "ada" else "ada", ok=False)
    replayed = run("replay").output
    name = {"ada": "Ada", "gob": "Goblin"}[first]
    assert f", {name} acting;" in replayed and f", {first} acting;" not in replayed, replayed
    rolls = [line for line in replayed.splitlines() if " rolls " in line]
    assert rolls and all(not line.startswith(("  ada ", "  gob ")) for line in rolls), rolls


def test_srd_the_gms_heal_reads_as_hit_points_regained_one_in_the_singular(run):
    """An outside 5e GM (issue 40): "Wren heals 1 (the GM's ruling)"; the table says
    "Wren regains 1 hit point"."""
    srd_casters(run)
    run("harm", "ann", "3")
    said = run("heal", "ann", "1").output
    assert "Ann regains 1 hit point (the GM's ruling)" in said, said
    told = run("log").output
    assert "Ann regains 1 hit point (the GM's ruling)" in told, told
