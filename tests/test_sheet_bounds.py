"""A sheet's numbers stay on its system's scale and its fields take the type they name: an
outside newcomer's sheets (negative wounds, a pool of 500, a name that is a number) are
refused in one line naming the field and what it takes, and nothing is appended."""

import json

import pytest

from fracas.ledger import BadInputError
from fracas.rules.ruleset import load
from tests.support import refused

# (ruleset, --set pair, the field as given, its range): one past an end of each scale
OUT_OF_RANGE = [
    ("percentile", "hp=-3", "hp = -3", "from 1 to 1000000"),
    ("percentile", "skills.firearms=140", "skills.firearms = 140", "from 0 to 99"),
    ("percentile", "armor=-1", "armor = -1", "from 0 to 50"),
    (
        "percentile",
        'weapons=[{name="gun",lethality=150}]',
        "weapons[0].lethality = 150",
        "from 0 to 100",
    ),
    ("shotclock", "toughness=-5", "toughness = -5", "from 0 to 30"),
    ("shotclock", "skills.guns=99", "skills.guns = 99", "from 0 to 30"),
    ("shotclock", 'weapons=[{name="gun",shots=0}]', "weapons[0].shots = 0", "from 1 to 20"),
    ("pool", "brawn=0", "brawn = 0", "from 1 to 10"),
    ("pool", "dexterity=500", "dexterity = 500", "from 1 to 10"),
    ("pool", "abilities.melee=6", "abilities.melee = 6", "from 0 to 5"),
    ("pool", "armor=-2", "armor = -2", "from 0 to 20"),
    ("pool", 'weapons=[{name="axe",difficulty=0}]', "weapons[0].difficulty = 0", "from 2 to 10"),
    ("timeslice", "hp=-4", "hp = -4", "from 1 to 10000"),
    ("timeslice", "dr=-1", "dr = -1", "from 0 to 1000"),
    ("timeslice", "q=99", "q = 99", "from 0 to 30"),
    ("timeslice", 'weapons=[{name="axe",ts=0}]', "weapons[0].ts = 0", "from 1 to 100"),
    ("fudge", "skills.melee=9", "skills.melee = 9", "from 0 to 6"),
    ("fudge", "armor=-1", "armor = -1", "from 0 to 10"),
    ("fudge", 'weapons=[{name="club",damage=-3}]', "weapons[0].damage = -3", "from 0 to 10"),
    ("srd", "hp=-3", "hp = -3", "from 1 to 10000"),
]


@pytest.mark.parametrize(
    ("ruleset", "pair", "field", "scale"),
    OUT_OF_RANGE,
    ids=[f"{r}-{p}" for r, p, *_ in OUT_OF_RANGE],
)
def test_a_number_off_the_systems_scale_is_refused_naming_the_field_and_range(
    run, ruleset, pair, field, scale
):
    run("new", "-r", ruleset)
    line = refused(run, "add", "x", "--set", pair)
    assert f"sheet of x: {field} is not accepted; use a whole number {scale}" in line


# (ruleset, a sheet at both ends of its scales): the bounds take every value the rules use
AT_THE_EDGES = [
    ("percentile", {"str": 3, "hp": 1, "armor": 0, "skills": {"firearms": 99}}),
    ("shotclock", {"toughness": 0, "speed": 30, "skills": {"guns": 30}}),
    ("pool", {"brawn": 1, "dexterity": 10, "abilities": {"melee": 0, "brawl": 5}, "body": 1}),
    ("timeslice", {"q": 0, "v": 30, "hp": 1, "dr": 0, "weapons": [{"name": "axe", "ts": 1}]}),
    ("fudge", {"skills": {"melee": 0, "physique": 6, "ranged": "legendary"}, "armor": 0}),
    ("srd", {"hp": 1, "str": 30}),
]


@pytest.mark.parametrize(("ruleset", "sheet"), AT_THE_EDGES, ids=[r for r, _ in AT_THE_EDGES])
def test_a_sheet_at_the_ends_of_its_scales_is_taken(ruleset, sheet):
    load(ruleset).sheet(sheet, "sheet of x")


RULESETS = ["percentile", "shotclock", "pool", "timeslice", "fudge", "srd"]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"name": 3}, "name = 3 is not accepted; use text"),
        ({"side": 1}, "side = 1 is not accepted; use one of: npc, pc"),
        ({"name": ["Ada"]}, 'name = ["Ada"] is not accepted; use text'),
    ],
    ids=["number-name", "number-side", "list-name"],
)
def test_a_json_sheets_name_and_side_are_text(run, tmp_path, ruleset, given, message):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(given))
    run("new", "-r", ruleset)
    assert message in refused(run, "add", "x", "--sheet", str(sheet))
    assert message in refused(run, "party", "add", "y", "--sheet", str(sheet), "-r", ruleset)


# (ruleset, a JSON sheet giving a number or a flag as text): the field names its type
AS_TEXT = [
    ("percentile", {"str": "12"}, "str = '12' is not accepted; use a whole number"),
    ("percentile", {"human": "true"}, "human = 'true' is not accepted; use true or false"),
    ("shotclock", {"speed": "8"}, "speed = '8' is not accepted"),
    ("pool", {"abilities": {"melee": "2"}}, "abilities.melee = '2' is not accepted"),
    ("timeslice", {"hp": 12.0}, "hp = 12.0 is not accepted"),
    ("fudge", {"armor": "1"}, "armor = '1' is not accepted"),
    ("srd", {"ac": "15"}, "ac = '15' is not accepted"),
]


@pytest.mark.parametrize(("ruleset", "given", "message"), AS_TEXT, ids=[r for r, _, _ in AS_TEXT])
def test_a_json_sheet_giving_a_number_as_text_is_refused(run, tmp_path, ruleset, given, message):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(given))
    run("new", "-r", ruleset)
    assert message in refused(run, "add", "x", "--sheet", str(sheet))


def test_a_sheet_read_in_python_is_strict_too():
    with pytest.raises(BadInputError, match="str = '12' is not accepted"):
        load("percentile").sheet({"str": "12"}, "sheet of x")


def test_a_join_recorded_before_the_bounds_is_read_as_recorded():
    """A log is never rewritten: a sheet a join recorded with numbers now out of range (an
    old log's) still folds, read as it was recorded."""
    from fracas.rules.percentile.sheets import Sheet, Weapon
    from fracas.rules.sheets import recorded

    old = {"hp": -3, "skills": {"firearms": 140}, "weapons": [{"name": "gun", "lethality": 150}]}
    sheet = recorded(old, Sheet)
    assert sheet.hp == -3 and sheet.skills == {"firearms": 140}
    assert sheet.weapons == [Weapon("gun", lethality=150)]
