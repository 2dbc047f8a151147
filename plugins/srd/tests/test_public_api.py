"""The plugin imports nothing of fracas's but its public API, and ships sheets that read."""

import ast
import json
import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from fracas.rules.api import BadInputError

import fracas_srd
from fracas_srd.ruleset import RULESET

PACKAGE = Path(fracas_srd.__file__).parent
ALLOWED = {"fracas.rules.api"}


def fracas_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return [name for name in found if name == "fracas" or name.startswith("fracas.")]


def test_every_module_imports_only_the_public_api_of_fracas():
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) > 10
    for path in modules:
        assert set(fracas_imports(path)) <= ALLOWED, path.name


def test_the_guard_catches_a_private_import(tmp_path: Path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import fracas.rules.dice\nfrom fracas.rules import gm\n")
    assert fracas_imports(sneaky) == ["fracas.rules.dice", "fracas.rules"]


def test_the_entry_point_names_the_ruleset():
    from importlib.metadata import entry_points

    found = {ep.name: ep for ep in entry_points(group="fracas.rulesets")}
    assert found["srd"].load() is RULESET


SAMPLES = sorted(p.name for p in resources.files("fracas_srd").joinpath("samples").iterdir())


@pytest.mark.parametrize("name", SAMPLES)
def test_every_sample_sheet_reads(name: str):
    """A TOML sheet, or a Foundry VTT export read as one (`Ruleset.imports`)."""
    text = resources.files("fracas_srd").joinpath("samples", name).read_text()
    if name.endswith(".json"):
        data, _unread = RULESET.imported(json.loads(text))
    else:
        data = tomllib.loads(text)
    data = {k: v for k, v in data.items() if k not in ("name", "side")}  # (who: `add`'s)
    sheet = RULESET.sheet(data, name)
    assert sheet.hp >= 1


def test_a_bad_sheet_is_one_clear_line():
    with pytest.raises(BadInputError, match="unknown skill 'stelth'; did you mean stealth"):
        RULESET.sheet({"skills": ["stelth"]})
    with pytest.raises(BadInputError, match="no weapon 'tail'"):
        RULESET.sheet({"multiattack": ["tail"]})
    with pytest.raises(BadInputError, match="not an amount"):
        RULESET.sheet({"weapons": [{"name": "club", "damage": "d"}]})


def test_the_reference_states_every_rule_with_the_srd_s_attribution():
    reference = RULESET.rules_reference
    ids = [f"srd-M{n}" for n in range(1, 6)] + [f"srd-{n}" for n in range(1, 30)]
    stated = [rule for rule, _ in reference.ordered()]
    assert stated[: len(ids)] == ids
    later = [int(rule.removeprefix("srd-")) for rule in stated[len(ids) :]]
    assert later == sorted(later) and all(n >= 30 for n in later)
    assert all(s.text and s.section for s in reference.rules.values())
    assert reference.licence == "CC-BY-4.0"
    assert reference.attribution.startswith(
        'This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") '
        "by Wizards of the Coast LLC"
    )
    assert "https://creativecommons.org/licenses/by/4.0/legalcode" in reference.attribution


def test_every_rule_the_package_cites_is_in_the_reference():
    cited = set()
    for path in PACKAGE.glob("*.py"):
        if path.name != "reference.py":
            cited |= set(re.findall(r'"(srd-M?\d+)"', path.read_text()))
    assert cited and cited <= set(RULESET.rules_reference.rules)


def test_an_unknown_sheet_field_lists_the_known_ones():
    with pytest.raises(BadInputError) as refused:
        RULESET.sheet({"zzz": 1}, "sheet of x")
    text = str(refused.value)
    assert text.startswith("sheet of x: unknown field 'zzz'; known: ")
    assert all(name in text for name in ("ac", "hp", "legendary_actions", "weapons", "wis"))


def test_every_numbered_rule_is_tested_by_name():
    tests = "".join(path.read_text() for path in Path(__file__).parent.glob("test_*.py"))
    named = set(re.findall(r"def test_srd_(\d+)_", tests))
    numbered = {r.removeprefix("srd-") for r in RULESET.rules_reference.rules if "M" not in r}
    assert numbered - named == set()
