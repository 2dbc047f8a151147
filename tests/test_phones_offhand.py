"""An outside table tester's srd phones (issue 37): a rogue's phone offered Offhand (two-
weapon fighting, a bonus action) at the start of her turn, before she had attacked at all,
and its weapons included her shortbow. srd-19: the off-hand attack comes after the Attack
action made with a light melee weapon, and is made with a light melee weapon."""

import re
from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import phones

pytestmark = pytest.mark.sqlite_file


def rogue_panel(tmp_path: Path, *attacks: str, **sheet: Any) -> str:
    db = tmp_path / "rogue.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The yard", encounter="fight")
        hero = srd_sample("rogue", **sheet)
        do(e, {"action": "join", "combatant": "hero", "sheet": hero, "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(e, {"action": "begin"}, [20, 1])
        for weapon in attacks:
            attack = {"action": "attack", "actor": "hero", "targets": ["gob"], "weapon": weapon}
            do(e, attack, [2])
    with phones(db, ("hero",)) as table:
        return table.panel("hero")


def buttons(panel: str) -> list[str]:
    return re.findall(r'<button type="button" class="action" data-action="([a-z_]+)"', panel)


def weapons_of(panel: str, action: str) -> list[str]:
    chosen_set = rf'<fieldset class="chosen" data-action="{action}".*?</fieldset>'
    found = re.search(chosen_set, panel, re.S)
    assert found, action
    chosen = re.search(r'<select data-field="weapon">(.*?)</select>', found.group(0), re.S)
    assert chosen, action
    return re.findall(r'<option value="([^"]*)"', chosen.group(1))


def test_offhand_is_not_offered_before_the_attack_action(tmp_path: Path) -> None:
    assert "offhand" not in buttons(rogue_panel(tmp_path))


def test_offhand_comes_after_an_attack_with_a_light_melee_weapon_and_offers_only_those(
    tmp_path: Path,
) -> None:
    panel = rogue_panel(tmp_path, "shortsword")
    assert "offhand" in buttons(panel)
    assert weapons_of(panel, "offhand") == ["shortsword", "dagger"]  # no shortbow


def test_offhand_is_not_offered_after_an_attack_with_the_bow(tmp_path: Path) -> None:
    assert "offhand" not in buttons(rogue_panel(tmp_path, "shortbow"))


def test_offhand_comes_after_attack_in_the_order_of_actions(tmp_path: Path) -> None:
    panel = rogue_panel(tmp_path, "shortsword", attacks=2)  # Extra Attack: one more to make
    shown = buttons(panel)
    assert shown.index("attack") < shown.index("offhand"), shown


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


def test_a_rogues_cunning_action_shows_as_her_bonus_action_once_she_attacked(
    tmp_path: Path,
) -> None:
    """srd-60: once the action is taken, a rogue's Dash, Disengage and Hide are her bonus
    action (Cunning Action), and the phone heads them so, after the Attack action's
    off-hand attack; it headed them "Action", below "Bonus action"."""
    shown = headed(rogue_panel(tmp_path, "shortsword"))
    assert {a: shown.get(a) for a in ("offhand", "dash", "disengage", "hide")} == dict.fromkeys(
        ("offhand", "dash", "disengage", "hide"), "Bonus action"
    ), shown


def test_a_rogues_cunning_action_is_offered_as_her_bonus_action_from_the_start_of_her_turn(
    tmp_path: Path,
) -> None:
    """srd-60: a rogue may Dash, Disengage or Hide as her bonus action before she takes
    her action (and then still Attack); her phone offered them under "Action" alone until
    the action was used. Each is now under "Bonus action" too, its form asking for it."""
    panel = rogue_panel(tmp_path)
    shown = headed(panel)
    for form in ("dash", "disengage", "hide"):
        assert shown.get(form) == "Action", shown
        assert shown.get(f"bonus_{form}") == "Bonus action", shown
        chosen = re.search(
            rf'<fieldset class="chosen" data-action="bonus_{form}"[^>]*>', panel
        )
        assert chosen and f'data-sends="{form}"' in chosen[0], chosen
        assert "data-fixed='{\"bonus\": true}'" in chosen[0], chosen
    assert "bonus_attack" not in shown and "bonus_dodge" not in shown, shown


def test_a_fighter_is_offered_no_bonus_dash(tmp_path: Path) -> None:
    db = tmp_path / "fighter.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The yard", encounter="fight")
        do(e, {"action": "join", "combatant": "hero", "sheet": srd_sample("fighter"), "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(e, {"action": "begin"}, [20, 1])
    with phones(db, ("hero",)) as table:
        shown = headed(table.panel("hero"))
    assert shown.get("dash") == "Action" and "bonus_dash" not in shown, shown


def test_a_rogues_phone_dashes_as_her_bonus_action_and_then_attacks(tmp_path: Path) -> None:
    """The bonus form's step (`bonus` set) is the player's to send for these actions alone."""
    db = tmp_path / "rogue.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The yard", encounter="fight")
        do(e, {"action": "join", "combatant": "hero", "sheet": srd_sample("rogue"), "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(e, {"action": "begin"}, [20, 1])
    with phones(db, ("hero",)) as table:
        refused = table.tap("hero", action="attack", targets=["gob"], fields={"bonus": True})
        assert refused.status_code == 403 and "'bonus'" in refused.text, refused.text
        sent = table.tap("hero", action="dash", fields={"bonus": True})
        assert sent.status_code < 300, sent.text
        shown = headed(table.panel("hero"))
        assert shown.get("attack") == "Action" and "bonus_dash" not in shown, shown
        attacked = table.tap("hero", action="attack", targets=["gob"], dice=[2, 3])
        assert attacked.status_code < 300, attacked.text
