"""An outside table's srd phones (issue 37): the fighter's phone never offered Second Wind
(the feature on his sheet, a bonus action), and once he had attacked "Bonus action" went
from "Left this turn" though unused; after a bonus-action spell the cleric's Cast still
offered every spell, guiding bolt too, which the rules then refused (srd-3: beside a
bonus-action spell, only a cantrip cast with an action)."""

import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import phones

pytestmark = pytest.mark.sqlite_file


def headed(panel: str) -> dict[str, str]:
    """Each action's button by the heading it shows under."""
    found, heading = {}, ""
    for cost, action in re.findall(
        r'<h3 class="cost">([^<]*)</h3>|data-action="([a-z_]+)" aria-pressed', panel
    ):
        heading = cost or heading
        if action:
            found[action] = heading
    return found


def left_line(panel: str) -> str:
    found = re.search(r'<p class="left" id="left"[^>]*>(.*?)</p>', panel, re.S)
    assert found, panel
    return re.sub(r"<[^>]+>", "", found.group(1))


def fight(tmp_path: Path, kind: str, *steps: tuple[dict, list[int]], **sheet) -> str:
    db = tmp_path / f"{kind}.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The yard", encounter="fight")
        hero = srd_sample(kind, **sheet)
        do(e, {"action": "join", "combatant": "hero", "sheet": hero, "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(e, {"action": "begin"}, [20, 1])
        for command, dice in steps:
            do(e, {"actor": "hero", **command}, dice)
    with phones(db, ("hero",)) as table:
        return table.panel("hero")


def hurt(tmp_path: Path, *steps: tuple[dict, list[int]]) -> str:
    return fight(tmp_path, "fighter", *steps, hp_now=13)


def test_a_hurt_fighter_is_offered_second_wind_as_his_bonus_action(tmp_path: Path) -> None:
    shown = headed(hurt(tmp_path))
    assert shown.get("second_wind") == "Bonus action", shown


def test_after_his_attack_the_fighter_still_has_his_bonus_action_and_second_wind(
    tmp_path: Path,
) -> None:
    attack = {"action": "attack", "targets": ["gob"], "weapon": "longsword"}
    panel = hurt(tmp_path, (attack, [2]))
    assert "Bonus action" in left_line(panel) and "Bonus action ✓ used" not in left_line(panel)
    assert headed(panel).get("second_wind") == "Bonus action", headed(panel)


def test_second_wind_once_used_is_offered_no_more_and_the_bonus_action_shows_used(
    tmp_path: Path,
) -> None:
    panel = hurt(tmp_path, ({"action": "second_wind"}, [5]))
    assert "second_wind" not in headed(panel)
    assert "Bonus action ✓ used" in left_line(panel)


def test_a_fighter_at_full_hit_points_is_not_offered_second_wind(tmp_path: Path) -> None:
    assert "second_wind" not in headed(fight(tmp_path, "fighter"))


def spells_offered(panel: str, key: str = "cast") -> list[str]:
    chosen = re.search(rf'<fieldset class="chosen" data-action="{key}".*?</fieldset>', panel, re.S)
    assert chosen, panel
    field = re.search(r'<select data-field="spell">(.*?)</select>', chosen.group(0), re.S)
    assert field, chosen.group(0)
    return re.findall(r'<option value="([^"]*)"', field.group(1))


def test_after_a_bonus_action_spell_cast_offers_only_cantrips(tmp_path: Path) -> None:
    word = {"action": "cast", "spell": "healing word", "targets": ["hero"]}
    panel = fight(tmp_path, "cleric", (word, [3]), hp_now=10)
    assert spells_offered(panel) == ["sacred flame"]


def test_before_any_spell_the_action_and_the_bonus_action_each_cast_their_own(
    tmp_path: Path,
) -> None:
    panel = fight(tmp_path, "cleric")
    assert headed(panel).get("cast") == "Action", headed(panel)
    assert headed(panel).get("bonus_cast") == "Bonus action", headed(panel)
    offered, bonus = spells_offered(panel), spells_offered(panel, "bonus_cast")
    assert "guiding bolt" in offered and "healing word" not in offered, offered
    assert set(bonus) == {"healing word", "shield of faith"}, bonus


def test_after_an_action_spell_no_cast_is_offered_for_nothing_may_be_cast(
    tmp_path: Path,
) -> None:
    bless = {"action": "cast", "spell": "bless", "targets": ["hero"]}
    panel = fight(tmp_path, "cleric", (bless, []))
    shown = headed(panel)
    assert "cast" not in shown and "bonus_cast" not in shown, shown


def helps(panel: str) -> dict[str, str]:
    """Each action's help as its form shows it, by the action's key."""
    return dict(
        re.findall(
            r'<fieldset class="chosen" data-action="([a-z_]+)".*?<p class="help">([^<]*)</p>',
            panel,
            re.S,
        )
    )


def test_the_helps_speak_to_the_player_and_name_no_sheet_field(tmp_path: Path) -> None:
    shown = helps(hurt(tmp_path))
    for key in ("second_wind", "move", "dodge"):
        assert key in shown, shown
    for key, text in shown.items():
        assert "sheet's" not in text and "heals" not in text, (key, text)
        assert not re.search(r"\bits (turn|speed)\b|\bagainst it\b", text), (key, text)
    assert "your speed" in shown["move"] and "against you" in shown["dodge"], shown
