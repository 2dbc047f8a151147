"""The conformance kit's failures say what to do, in a ruleset author's words: which step,
which surface, which field, and what to add."""

import dataclasses
import json

import pytest

from fracas.rules.events import Roll
from fracas.testing import Cast, every_draw_recorded, installed
from fracas.testing.checks import check_declarations, same_for_the_players
from tests import dealt_deck


def test_a_difference_in_order_names_the_step_the_surface_and_the_rows():
    detail = {"step": 1, "names": {"cy": "cy", "ann": "ann", "bo": "bo"}}
    other = {"step": 1, "names": {"bo": "bo", "cy": "cy", "ann": "ann"}}
    with pytest.raises(AssertionError) as failed:
        same_for_the_players(
            {"detail 1": json.dumps(detail)},
            {"detail 1": json.dumps(other)},
            "a GM-only roll (step 5: next) shows through",
        )
    said = str(failed.value)
    assert "step 5: next" in said
    assert "in the players' detail of their step 1" in said
    assert "the order of the combatants, in the order of the view's health rows" in said
    assert "cy, ann, bo in one fight and bo, cy, ann in the other" in said
    assert "names" not in said.replace("View.wounds", "")


def test_a_difference_in_a_field_names_it_and_its_place_in_the_view():
    one = {"view_after": {"wounds": [{"combatant": "ann", "health": "HP 3"}]}}
    two = {"view_after": {"wounds": [{"combatant": "ann", "health": "HP 1"}]}}
    with pytest.raises(AssertionError) as failed:
        same_for_the_players({"screen 4": json.dumps(one)}, {"screen 4": json.dumps(two)}, "x")
    said = str(failed.value)
    assert "on the players' page, stream and phones at their step 4" in said
    assert "`view_after.wounds.0.health` (a row's health (`WoundRow.health`))" in said
    assert '"HP 3" in one fight and "HP 1" in the other' in said


def test_a_difference_in_an_export_names_the_line_and_its_heading():
    one = "# At dawn\n## Damage\n| ann | 3 |\n| bo | 2 |\n"
    two = "# At dawn\n## Damage\n| bo | 2 |\n| ann | 3 |\n"
    with pytest.raises(AssertionError) as failed:
        same_for_the_players({"md": one}, {"md": two}, "x")
    said = str(failed.value)
    assert "players' Markdown export (`fracas export --for players --format md`)" in said
    assert "line 3 under '## Damage' reads '| ann | 3 |' in one fight and '| bo | 2 |'" in said


def test_an_unrecorded_draw_names_the_step_its_purpose_and_the_event_to_record():
    drawn = [Roll("d6", [4], 4, "manual", "conformance")]
    with pytest.raises(AssertionError) as failed:
        every_draw_recorded(drawn, [], "step 3 (attack)", ["initiative"])
    said = str(failed.value)
    assert "step 3 (attack) drew d6 for 'initiative'" in said
    assert "`Rolled(actor, purpose, roll, ...)` event" in said


def test_a_ruleset_without_a_reference_is_told_what_to_add():
    bare = dataclasses.replace(dealt_deck.RULESET, reference=None)
    cast = Cast(bare, sheets={"ann": {"hp": 3}, "bo": {"hp": 2}})
    with installed(bare), pytest.raises(AssertionError) as failed:
        check_declarations(cast)
    said = str(failed.value)
    assert "deck carries no rules reference" in said
    assert "reference=toml_reference(" in said
