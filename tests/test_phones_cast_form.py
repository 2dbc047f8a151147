"""An outside table tester's srd phones (issue 37): the Cast form's slot level showed "—"
(no slot) first for cure wounds, a spell that cannot be cast without one, and a cleric's
Cast asked for the target before the spell where a wizard's asked after it. A levelled
spell's slot choices start at the spell's own level (srd-51), among the levels with a slot
left (srd-50), and every caster's Cast asks in one order: the spell, its slot, then whom."""

import json
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.support import SIX, do, srd_sample
from tests.web import Phones, phones

pytestmark = pytest.mark.sqlite_file


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Phones]:
    db = tmp_path / "srd.db"
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="Casters", encounter="fight")
        # initiative is a bonus to a d20: the cleric, then the wizard, then the goblin
        for who, initiative in (("cleric", 90), ("wizard", 50)):
            sheet = srd_sample(who, initiative=initiative)
            do(fight, {"action": "join", "combatant": who, "sheet": sheet, "side": "pc"})
        goblin = srd_sample("goblin", hp=60, initiative=-10)
        do(fight, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(fight, {"action": "begin"})
    with phones(db, ("cleric", "wizard")) as made:
        yield made


def cast_form(panel: str) -> str:
    found = re.search(r'<fieldset class="chosen" data-action="cast".*?</fieldset>', panel, re.S)
    assert found, panel
    return found[0]


def slot_select(panel: str) -> str:
    found = re.search(r'<select data-field="level"[^>]*>.*?</select>', cast_form(panel), re.S)
    assert found, panel
    return found[0]


def test_a_levelled_spells_slot_is_never_offered_as_none(table: Phones) -> None:
    select = slot_select(table.panel("cleric"))
    assert re.findall(r'<option value="([^"]*)"', select) == ["1", "2"]
    assert "—" not in select


def test_each_spell_says_the_least_slot_it_takes(table: Phones) -> None:
    """The phone shows a spell's choices alone: cure wounds 1st and up, hold person 2nd."""
    least = re.search(r"data-least='([^']*)'", slot_select(table.panel("cleric")))
    assert least, slot_select(table.panel("cleric"))
    by_spell = json.loads(unescape(least[1]))
    assert by_spell["cure wounds"] == 1
    assert by_spell["hold person"] == 2
    assert "sacred flame" not in by_spell  # a cantrip spends no slot: no slot field at all


def test_a_slot_below_the_spells_level_is_refused_in_one_line(table: Phones) -> None:
    before = table.steps()
    fields = {"spell": "hold person", "level": 1}
    sent = table.tap("cleric", action="cast", targets=["gob"], fields=fields)
    assert sent.status_code == 400, sent.text
    assert sent.text.count("\n") <= 1 and "a 2nd-level slot or higher" in sent.text, sent.text
    assert table.steps() == before


def controls_in_order(form: str) -> list[str]:
    """The labels of a form's parts, top to bottom (the target's "Target" among them)."""
    return re.findall(r'<span class="label">([^<]+?)\s*(?:<small|</span>)', form)


def test_every_casters_cast_asks_in_one_order(table: Phones) -> None:
    clerics = controls_in_order(cast_form(table.panel("cleric")))
    do_next(table)
    wizards = controls_in_order(cast_form(table.panel("wizard")))
    assert clerics[:2] == ["Spell", "Slot level"], clerics
    common = [c for c in clerics if c in wizards]
    assert common == [c for c in wizards if c in clerics], (clerics, wizards)
    assert "Target" in common and common.index("Target") > common.index("Slot level"), common


def do_next(table: Phones) -> None:
    with Fracas(str(table.db)) as log:
        do(log.encounter("fight"), {"action": "next"})


def test_the_within_5_feet_choice_of_a_spell_attack_is_in_a_players_words(table: Phones) -> None:
    """The tester read "Within 5 feet: as the rules say / yes / no" on Cast, rules jargon.
    srd words it for a player, each choice saying what it means; left alone it still
    sends nothing, a ranged spell attack made from farther off than 5 feet (srd-30)."""
    form = cast_form(table.panel("cleric"))
    group = re.search(
        r'<div class="pick" role="radiogroup" aria-label="([^"]*)">(.*?)</div>', form, re.S
    )
    assert group, form
    assert group[1] == "Within 5 feet of your target?"
    choices = re.findall(
        r'value="([^"]*)" data-field="within_5ft"[^>]*>\s*<span>([^<]*)<', group[2]
    )
    assert choices == [("", "No, farther off"), ("yes", "Yes, within 5 feet")], group[2]
    assert re.search(r'value="" data-field="within_5ft" data-kind="maybe" checked', group[2])
    assert "as the rules say" not in form


def attack_form(panel: str) -> str:
    found = re.search(r'<fieldset class="chosen" data-action="attack".*?</fieldset>', panel, re.S)
    assert found, panel
    return found[0]


def test_the_within_5_feet_choice_of_an_attack_is_in_a_players_words(table: Phones) -> None:
    """The tester read Attack's "Within 5 feet: as the rules say / yes / no" after Cast's
    was worded. Each choice says what it means: left alone, a melee attack is made from
    within 5 feet and a ranged one from farther off (srd-30); yes or no says otherwise (a
    reach weapon at 10 feet, a weapon thrown, a shot at a prone foe from beside it)."""
    form = attack_form(table.panel("cleric"))
    group = re.search(
        r'<div class="pick" role="radiogroup" aria-label="([^"]*)">(.*?)</div>', form, re.S
    )
    assert group, form
    assert group[1] == "Within 5 feet of your target?"
    choices = re.findall(
        r'value="([^"]*)" data-field="within_5ft"[^>]*>\s*<span>([^<]*)<', group[2]
    )
    assert choices == [
        ("", "By your weapon: melee yes, ranged no"),
        ("yes", "Yes, within 5 feet"),
        ("no", "No, farther off"),
    ], group[2]
    assert re.search(r'value="" data-field="within_5ft" data-kind="maybe" checked', group[2])
    assert "as the rules say" not in form


@pytest.mark.parametrize("ruleset", SIX)
def test_no_players_yes_or_no_reads_as_the_rules_say(ruleset: str) -> None:
    """Every field a phone asks as unsaid / yes / no (a true-or-false field the rules decide
    when unsaid) has its choices in the ruleset's words, in every ruleset: srd's Attack,
    off-hand attack and readied attack read "as the rules say / yes / no"."""
    from fracas.projections.phones import player_flags
    from fracas.rules.ruleset import load

    rules = load(ruleset)
    raw = []
    for name, playable in (rules.players or {}).items():
        flags = {f.field: f for f in player_flags(rules, name)}
        for field, said in playable.fields.items():
            flag = flags.get(field)
            maybe = flag and flag.accepts.startswith("true or false") and flag.default is None
            if maybe and not said.said:
                raw.append(f"{name}.{field}")
    assert raw == [], raw


def test_a_spell_attack_offers_no_range_a_spell_has_one(table: Phones) -> None:
    """Long range is a weapon's (srd-17): a spell has one range, and the server refuses
    `range=long` on a spell attack, so Cast never offers Range (guiding bolt, fire bolt);
    the wizard's Attack still does, for a dagger thrown (20/60 feet)."""
    form = cast_form(table.panel("cleric"))
    assert 'data-field="range"' not in form and "Range" not in form, form
    assert 'data-field="range"' not in attack_form(table.panel("cleric"))  # a mace alone
    do_next(table)  # the wizard's turn
    form = cast_form(table.panel("wizard"))
    assert 'data-field="range"' not in form and "Range" not in form, form
    assert 'data-field="range"' in attack_form(table.panel("wizard"))
