"""What a GM's first night with the party found (issue 40), in every ruleset: an ended fight
refuses changes in one line and the party is changed between fights instead; a misspelt
condition or monster is answered with a did-you-mean; a mid-fight joiner's typed roll."""

import json

import pytest

from tests.support import member_sheet

SIX = ["percentile", "shotclock", "pool", "timeslice", "fudge", "srd"]


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
