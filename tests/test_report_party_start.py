"""The session report's cast reads a party member "at the start" as they came into the
fight, carried over from their last one, not as their sheet reads: in every ruleset, in
the Markdown and HTML reports, the GM's and the players'."""

import re
from pathlib import Path

import pytest

from tests.support import member_sheet

SIX = ["percentile", "shotclock", "pool", "timeslice", "fudge", "srd"]


def party_in_two_fights(run, tmp_path: Path, ruleset: str) -> tuple[str, str]:
    """Ann is hurt in a first fight once it began; the party is brought into a second."""
    run("party", "add", "ann", "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    first = run("new", "--party", "-t", "the ambush").output.split()[0]
    run("-e", first, "begin")
    run("-e", first, "harm", "ann", "3")
    run("-e", first, "end")
    second = run("new", "--party", "-t", "the boss").output.split()[0]
    run("-e", second, "begin")
    return first, second


def cast_row(report: str, markdown: bool) -> list[str]:
    """Ann's row of the cast table: name, side, order, at the start, at the end, weapons."""
    if markdown:
        row = next(line for line in report.splitlines() if re.match(r"\| ann \| pc \|", line))
        return [cell.strip() for cell in row.strip("|").split("|")]
    row = re.search(r"<tr><td>ann</td><td>pc</td>.*?</tr>", report)
    assert row, report
    return re.findall(r"<td>(.*?)</td>", row.group(0))


@pytest.mark.parametrize("ruleset", SIX)
@pytest.mark.parametrize("audience", ["gm", "players"])
@pytest.mark.parametrize("form", ["md", "html"])
def test_the_cast_starts_a_party_member_as_they_came_in(run, tmp_path, ruleset, audience, form):
    first, second = party_in_two_fights(run, tmp_path, ruleset)

    def ann(encounter: str) -> list[str]:
        report = run("-e", encounter, "export", "--format", form, "--for", audience).output
        return cast_row(report, form == "md")

    ambush, boss = ann(first), ann(second)
    assert ambush[3] != ambush[4]  # whole at the ambush's start, hurt at its end
    assert boss[3] == ambush[4] == boss[4]  # and so into the next fight, as the chart has it
