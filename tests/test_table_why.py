"""What a table reads about a fight says the why (issue 40's outside tester): a duration
names the combatant as the table knows them, never by the id the GM typed."""

import pytest

from tests.support import SIX, member_sheet


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
    import json

    first = json.loads(run("status", "--json").output)["acting"][0]
    name = {"ada": "Ada", "gob": "Goblin"}[first]
    said = run("act", first, "dodge").output
    assert f"{name} is dodging until the start of {name}'s next turn" in said, said
