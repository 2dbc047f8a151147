"""Bonus-action forms of Dash, Disengage and Hide from a sheet's feature (srd-60): a
goblin's Nimble Escape, a rogue's Cunning Action."""

import pytest
from fracas.rules.api import RefusedError, Spent
from srd_table import fight

from fracas_srd.movement import movement_left


def spent(out) -> list[tuple[str, str]]:
    return [(e.resource, e.reason) for e in out if isinstance(e, Spent)]


def test_srd_60_nimble_escape_disengages_as_a_bonus_action_once_the_action_is_taken():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "dash")
    out = t.act("gob", "disengage")
    assert spent(out) == [("bonus action", "disengage (nimble escape)")]
    assert "srd-60" in next(e for e in out if isinstance(e, Spent)).rules
    assert t.who("gob").has("disengaged") and movement_left(t.who("gob")) == 60
    with pytest.raises(RefusedError, match="already taken a bonus action"):
        t.act("gob", "hide", faces=(10,))


def test_srd_60_a_bonus_hide_first_leaves_the_action_for_an_attack():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    out = t.act("gob", "hide", faces=(15,), bonus=True)
    assert spent(out)[0] == ("bonus action", "hide (nimble escape)")
    out = t.act("gob", "attack", "brannoc", faces=(2, 3), weapon="scimitar")  # hidden: advantage
    assert ("action", "attack") in spent(out)


def test_srd_60_nimble_escape_has_no_dash_and_cunning_action_has():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    with pytest.raises(RefusedError, match=r"no feature .* dash .* bonus action \(srd-60\)"):
        t.act("gob", "dash", bonus=True)
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    t.act("wren", "dash")
    out = t.act("wren", "dash")
    assert spent(out) == [("bonus action", "dash (cunning action)")]
    assert movement_left(t.who("wren")) == 3 * t.who("wren").speed


def test_srd_60_without_the_feature_the_second_is_refused():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "dash")
    with pytest.raises(RefusedError, match=r"already taken their action this turn \(dash\)"):
        t.act("brannoc", "disengage")


@pytest.mark.parametrize("form", ["dash", "disengage", "hide"])
def test_srd_60_a_rogues_cunning_action_takes_each_form_as_her_bonus_action_both_ways(form):
    """Issue 37: what a rogue's phone offers under "Bonus action" the rules take as it:
    asked for (`bonus`) before her action, leaving the action; and after her Attack action,
    on her bonus action."""
    faces = (15,) if form == "hide" else ()
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    first = t.act("wren", form, faces=faces, bonus=True)
    assert spent(first)[0] == ("bonus action", f"{form} (cunning action)")
    assert t.who("wren").action == ""
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    t.act("wren", "attack", "gob", faces=(2,), weapon="shortsword")
    after = t.act("wren", form, faces=faces)
    assert spent(after)[0] == ("bonus action", f"{form} (cunning action)")
