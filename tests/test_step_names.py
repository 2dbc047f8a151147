"""The GM's step lines name combatants as the table knows them ("Goblin 1 attack -> Wren
Ashe"), not by the ids typed to add them: after `act`, `next` and the GM's commands, and in
`play`'s line of the last step. Ids stay where they are typed ("joins as gob1")."""

import re

import pytest

from fracas.projections import Fracas
from tests.support import SIX, SRD_SAMPLES

IDS = re.compile(r"\b(gob1|wren)\b")
WEAPON = {"gob1": "scimitar", "wren": "longsword"}  # srd: the goblin's, the fighter's


def add_pair(run, ruleset: str) -> None:
    """Wren Ashe (wren) and Goblin 1 (gob1), as a GM adds them; srd with sheets to attack."""
    run("new", "-r", ruleset, "--id", "names")
    wren = ["--sheet", str(SRD_SAMPLES / "fighter.toml")] if ruleset == "srd" else []
    gob = ["--monster", "goblin"] if ruleset == "srd" else []
    run("add", "wren", "--name", "Wren Ashe", *wren)
    run("add", "gob1", "--name", "Goblin 1", *gob)


def acting(db: str) -> str:
    with Fracas(db) as log:
        return log.encounter("names").view().acting[0]


def without_ids(output: str) -> list[str]:
    """The step lines that name a combatant by id."""
    return [line for line in output.splitlines() if IDS.search(line)]


@pytest.mark.parametrize("ruleset", SIX)
def test_step_lines_name_combatants_by_name(run, ruleset):
    add_pair(run, ruleset)
    begun = run("begin").output
    assert without_ids(begun) == [] and "Wren Ashe" in begun and "Goblin 1" in begun
    actor = acting(run.db)
    target = "gob1" if actor == "wren" else "wren"
    weapon = ["-w", WEAPON[actor]] if ruleset == "srd" else []
    attacked = run("act", actor, "attack", target, *weapon).output
    assert without_ids(attacked) == [], attacked
    names = {"wren": "Wren Ashe", "gob1": "Goblin 1"}
    assert f"{names[actor]} declares: attacks {names[target]}" in attacked
    passed = run("next").output
    assert without_ids(passed) == [], passed
    harmed = run("harm", target, "1").output
    assert without_ids(harmed) == [] and f"{names[target]} takes 1 damage" in harmed


def test_a_join_still_says_the_id_to_type(run):
    run("new", "--id", "names")
    joined = run("add", "gob1", "--name", "Goblin 1").output
    assert "Goblin 1 (npc) joins as gob1" in joined


TIED = {  # typed faces: both roll the same initiative, then a d100 each breaks the tie
    "fudge": "0,0,0,0,0,0,0,0,50,40",
    "pool": "1,1,1,1,1,1,1,1,50,40",
    "timeslice": "1,1,1,1,50,40",
}


@pytest.mark.parametrize("ruleset", sorted(TIED))
def test_an_initiative_tie_roll_names_no_id(run, ruleset):
    """The tie roll's purpose said "initiative tie of wren": an id in the rules' own words,
    in the GM's lines and the players' sentences alike."""
    add_pair(run, ruleset)
    begun = run("begin", "--dice", TIED[ruleset]).output
    assert "Wren Ashe rolls d100 for initiative tie: 50" in begun
    assert without_ids(begun) == [], begun
