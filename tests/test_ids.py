"""Ids a GM types: encounter ids follow the same rule as combatant ids, refused in one line
with nothing written."""

import pytest

from fracas.ledger import BadInputError
from fracas.projections import Fracas


@pytest.mark.parametrize("bad", ["bad id!", "a/b", "x" * 5000, "é"])
def test_an_encounter_id_outside_the_id_rule_is_refused_in_one_line(run, bad):
    result = run("new", "--id", bad, ok=False)
    lines = result.output.strip().splitlines()
    assert result.exit_code != 0 and len(lines) == 1 and lines[0].startswith("Error: ")
    assert "encounter id" in lines[0] and len(lines[0]) < 300
    assert "Traceback" not in result.output
    assert bad not in run("encounters", ok=False).output  # nothing was started


def test_the_python_api_refuses_the_same_encounter_ids(fracas: Fracas):
    with pytest.raises(BadInputError, match="letters, digits"):
        fracas.new("percentile", encounter="bad id!")
    assert fracas.new("percentile", encounter="night-1.b_2").id == "night-1.b_2"
    assert fracas.store.encounters() == ["night-1.b_2"]
