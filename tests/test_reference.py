"""Rule ids a player can look up (`fracas rules`), actions listing only flags that exist, and
the options of the encounter at hand."""

import json
import re
from pathlib import Path

import pytest

from fracas.cli.commands.turns import act_
from fracas.projections import catalog
from fracas.projections.catalog import RULE_ID, rules_of, systems
from fracas.rules.ruleset import BUILTIN, available, load
from tests.casts.fudge import fudge_fight

RULESET_SOURCES = sorted((Path(__file__).parent.parent / "rules").glob("*.py"))
EXCERPT_RULES = {"000": 26, "001": 17, "002": 25, "003": 33, "004": 19}
MECHANICS = {"000": 10, "001": 6, "002": 0, "003": 5, "004": 7}


def test_every_rule_id_the_rulesets_cite_has_a_statement():
    known = {r.id for s in builtin_systems() for r in rules_of(s.id)}
    cited = {
        match[0]
        for path in RULESET_SOURCES
        for match in RULE_ID.finditer(path.read_text())
        if match[1] in EXCERPT_RULES
    }
    assert cited, "the rulesets cite rule ids"
    assert cited - known == set()
    assert not re.search(r'"mechanic \d', "".join(p.read_text() for p in RULESET_SOURCES))


def builtin_systems() -> list:
    """The systems of reference.toml: the built-ins (an installed plugin brings its own)."""
    return [s for s in systems() if s.ruleset in BUILTIN]


def test_each_system_has_every_rule_and_mechanic_in_one_id_scheme():
    for system in builtin_systems():
        ids = [r.id for r in rules_of(system.id)]
        expected = [f"{system.id}-M{n}" for n in range(1, MECHANICS[system.id] + 1)]
        expected += [f"{system.id}-{n}" for n in range(1, EXCERPT_RULES[system.id] + 1)]
        assert ids == expected
        assert all(r.text and r.source for r in rules_of(system.id))
    assert {s.id for s in builtin_systems()} == set(MECHANICS)  # every built-in has its own


def test_fracas_rules_lists_shows_and_explains(run):
    listed = run("rules").output
    assert "003 fudge" in listed and "004 pool" in listed
    one = run("rules", "003-25").output
    assert one.startswith("[003-25] A grapple that succeeds on someone already held pins them")
    assert "From: The Contract (early open version)" in one
    data = json.loads(run("rules", "000-m2", "--json").output)
    assert data["id"] == "000-M2" and "inhuman" in data["text"]
    by_name = run("rules", "percentile").output
    assert "[000-25] Waiting keeps the action" in by_name
    missing = run("rules", "003-99", ok=False)
    assert missing.exit_code == 1 and "no rule '003-99'" in missing.output
    assert len(missing.output.strip().splitlines()) == 1


def flags_of_act() -> set[str]:
    return {opt for param in act_.params for opt in getattr(param, "opts", [])}


@pytest.mark.parametrize("name", available())
def test_actions_lists_only_flags_that_exist_and_fields_the_ruleset_takes(name):
    ruleset = load(name)
    flags = flags_of_act()
    for action in catalog.actions(ruleset):
        for flag in action.flags:
            assert flag.flag.split()[0] in flags, (action.name, flag.flag)
            assert flag.field in ruleset.fields_of(action.name), (action.name, flag.field)
            words = ruleset.positional_of(action.name)  # `save dex`: a word it cannot guess
            if flag.flag.startswith("-o") and flag.default is not None and words == "targets":
                command = {"action": action.name, "actor": "a", flag.field: flag.default}
                ruleset.command(command)  # the field -o sets is one the command takes


def test_actions_takes_a_ruleset_without_an_encounter_and_json(run):
    text = run("actions", "-r", "percentile").output
    assert "-o test=VALUE" in text and "--test" not in text and "--cover" not in text
    data = json.loads(run("actions", "-r", "pool", "--json").output)
    assert data["ruleset"] == "pool" and "evade" in [a["name"] for a in data["actions"]]
    refused = run("actions", ok=False)
    assert refused.exit_code == 1 and "`fracas actions -r " in refused.output


@pytest.mark.parametrize("name", available())
def test_every_option_has_a_description(name):
    ruleset = load(name)
    assert all(option.description for option in catalog.options(ruleset))


def test_options_are_the_current_encounters_with_values_and_meanings(run):
    run("new", "-r", "fudge", "-o", "late_changes=true")
    text = run("options").output
    assert text.startswith("fudge: this encounter's options")
    assert "late_changes = true (default false)" in text
    assert "max_targets = 3\n    how many targets single shots and bursts may engage" in text
    data = json.loads(run("options", "--json").output)
    late = next(o for o in data["options"] if o["name"] == "late_changes")
    assert late == {
        "name": "late_changes",
        "value": True,
        "default": False,
        "accepts": "true or false",
        "description": late["description"],
    }
    defaults = json.loads(run("options", "-r", "shotclock", "--json").output)
    assert defaults["ruleset"] == "shotclock"


def test_html_export_shows_each_rule_statement_on_hover(run):
    run("demo", "--db", run.db, "--quiet")
    html = run("export", "--format", "html").output
    hover = '<abbr title="In each turn combatants act from the highest DEX down.">000-2</abbr>'
    assert hover in html


def test_events_recorded_with_the_old_mechanic_labels_read_in_the_one_id_scheme():
    fudge = load("fudge")
    old = (
        '{"kind":"rolled","actor":"ana","purpose":"initiative","roll":{"dice":"4dF",'
        '"faces":[1,0,0,0],"total":1,"source":"typed"},"target":null,"modifiers":'
        '[{"value":3,"reason":"discipline (Professional)","rule":"mechanic 3"}],'
        '"result":"initiative 4","rules":["mechanic 1","003-29"]}'
    )
    event = fudge.decode("rolled", 1, old)
    assert event.rules == ["003-M1", "003-29"] and event.modifiers[0].rule == "003-M3"
    assert event.modifiers[0].reason == "discipline (Professional)"


def test_new_events_are_written_under_the_rulesets_schema(fracas):
    e = fudge_fight(fracas)
    schemas = {schema for schema, _ in e.store.effective_bodies(e.id, set(), None)}
    assert schemas == {2}
