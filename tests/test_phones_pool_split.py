"""A pool player splits their attack from the phone (issue 37): the Attack form said "split
the pool over several, keeping dice for a reaction" but had no field for the dice at each
target or kept back (the GM's `-o shares`, `-o keep`), and split 3/2 by itself."""

from pathlib import Path

import pytest

from tests.casts.pool import assert_split_2_3_keeping_1_for_a_dodge, split_fight
from tests.web import phones

pytestmark = pytest.mark.sqlite_file


def test_a_phone_splits_the_pool_as_asked_and_keeps_dice_for_a_dodge(tmp_path: Path) -> None:
    db = tmp_path / "split.db"
    split_fight(db)
    with phones(db, ("ana",)) as table:
        fields = {"weapon": "sword", "shares": [2, 3], "keep": {"dodge": 1}}
        done = table.tap("ana", action="attack", targets=["bob", "thug"], fields=fields)
        assert done.status_code == 200, done.text
    assert_split_2_3_keeping_1_for_a_dodge(db)


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"shares": [4, 3]}, "more than the 6 dice"),
        ({"shares": [2, 3], "keep": {"run": 1}}, "dodge, parry or clash"),
        ({"shares": ["two", 3]}, "shares"),
    ],
)
def test_a_bad_split_from_a_phone_is_refused_in_one_line_and_appends_nothing(
    tmp_path: Path, fields: dict, said: str
) -> None:
    db = tmp_path / "split.db"
    split_fight(db)
    with phones(db, ("ana",)) as table:
        before = table.steps()
        refused = table.tap("ana", action="attack", targets=["bob", "thug"], fields=fields)
        assert refused.status_code == 400, refused.text
        assert said in refused.text and "\n" not in refused.text.strip(), refused.text
        assert table.steps() == before
