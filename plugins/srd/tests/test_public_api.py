"""The plugin imports nothing of fracas's but its public API, and ships sheets that read."""

import ast
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
    data = tomllib.loads(resources.files("fracas_srd").joinpath("samples", name).read_text())
    sheet = RULESET.sheet(data, name)
    assert sheet.hp >= 1


def test_a_bad_sheet_is_one_clear_line():
    with pytest.raises(BadInputError, match="unknown skill 'stelth'; did you mean stealth"):
        RULESET.sheet({"skills": ["stelth"]})
    with pytest.raises(BadInputError, match="no weapon 'tail'"):
        RULESET.sheet({"multiattack": ["tail"]})
    with pytest.raises(BadInputError, match="not an amount"):
        RULESET.sheet({"weapons": [{"name": "club", "damage": "d"}]})
