"""Three names or more read as a person lists them, "Ilse, Wren and Maelis", never "Ilse and
Wren and Maelis" (issue 37, an outside tester reading the TV): one helper,
`fracas.rules.api.and_list`, lists them everywhere."""

import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.replay import replay
from fracas.rules.api import and_list
from tests.session_fights import FIGHTS, with_history
from tests.support import do, srd_sample


def test_and_list_reads_as_a_person_lists() -> None:
    assert and_list([]) == ""
    assert and_list(["Ilse"]) == "Ilse"
    assert and_list(["Ilse", "Wren"]) == "Ilse and Wren"
    assert and_list(["Ilse", "Wren", "Maelis"]) == "Ilse, Wren and Maelis"


def test_a_spell_on_three_reads_with_commas_on_the_log(tmp_path: Path) -> None:
    with Fracas(tmp_path / "bless.db") as opened:
        e = opened.new("srd", title="Bless", encounter="bless")
        for who, sample in (("maelis", "cleric"), ("ilse", "wizard"), ("wren", "rogue")):
            do(e, {"action": "join", "combatant": who, "name": who.capitalize(), "side": "pc",
                   "sheet": srd_sample(sample)})  # fmt: skip
        do(e, {"action": "join", "combatant": "gob", "name": "Goblin", "side": "npc",
               "sheet": srd_sample("goblin")})  # fmt: skip
        do(e, {"action": "begin"}, dice=[20, 5, 3, 1])
        do(e, {"action": "cast", "actor": "maelis", "targets": ["ilse", "wren", "maelis"],
               "spell": "bless"})  # fmt: skip
        last = list(replay(e))[-1]
    assert last.headline.startswith("Maelis casts bless on Ilse, Wren and Maelis"), last.headline
    assert last.sentence.startswith("Maelis casts bless on Ilse, Wren and Maelis"), last.sentence


@pytest.mark.parametrize("system", list(FIGHTS))
def test_no_line_of_a_fight_lists_names_with_and_twice(system: str, tmp_path: Path) -> None:
    with Fracas(tmp_path / "f.db") as opened:
        e = with_history(FIGHTS[system])(opened)
        for step in replay(e):
            for line in (step.headline, step.sentence, *step.lines):
                assert not re.search(r"\b\w+ and \w+ and \w+", line), line
