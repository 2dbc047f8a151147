"""What an outside 5e GM found in the session report, in every ruleset: the players' report
keeps NPCs' health as hidden in its summary as everywhere else."""

import re

import pytest

from tests.support import SIX, member_sheet


def summary_row(text: str, name: str) -> list[str]:
    """The cells of one combatant's row in the Markdown summary's damage table."""
    table = text.split("| Combatant | Damage dealt | Damage taken |", 1)[1].split("\n\n", 1)[0]
    row = next(line for line in table.splitlines() if line.startswith(f"| {name} |"))
    return [cell.strip() for cell in row.strip("|").split("|")]


def html_summary_row(text: str, name: str) -> list[str]:
    row = re.search(rf"<tr><td>{name}</td>(.*?)</tr>", text)
    assert row, text
    return re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))


@pytest.mark.parametrize("ruleset", SIX)
def test_the_players_summary_keeps_an_npcs_damage_taken_as_hidden_as_its_health(
    run, tmp_path, ruleset
) -> None:
    run("new", "-r", ruleset, "-t", "a brawl")
    run("add", "ann", "--sheet", member_sheet(tmp_path, ruleset), "--side", "pc")
    run("add", "gob", "--sheet", member_sheet(tmp_path, ruleset))
    run("begin")
    run("harm", "gob", "1", "--reason", "a falling beam")
    run("harm", "ann", "1", "--reason", "a falling beam")

    def exported(fmt: str, *flags: str) -> str:
        return run("export", "--format", fmt, *flags).output

    players = exported("md", "--for", "players")
    assert summary_row(players, "gob")[2] == "—", "an NPC's damage taken tells its health"
    assert summary_row(players, "ann")[2] == "1", "a PC's health is the players' own"
    assert html_summary_row(exported("html", "--for", "players"), "gob")[1] == "—"
    numbers = exported("md", "--for", "players", "--npc-numbers")
    assert summary_row(numbers, "gob")[2] == "1"
    assert summary_row(exported("md"), "gob")[2] == "1", "the GM's report has the figures"
    assert html_summary_row(exported("html"), "gob")[1] == "1"
