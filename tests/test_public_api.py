"""The public API a ruleset author uses, `fracas.rules.api` (with the modules `gm` and
`roster` it gives) and the kit `fracas.testing`, is kept stable: every name importable,
documented and typed, and `__all__` is exactly the list checked in beside this test
(tests/public_api.txt), so that a name leaves only on purpose."""

import importlib
import inspect
import types
from pathlib import Path

import pytest

LISTED = Path(__file__).with_name("public_api.txt")
MODULES = ("fracas.rules.api", "fracas.rules.gm", "fracas.rules.roster", "fracas.testing")


def checked_in() -> dict[str, list[str]]:
    """tests/public_api.txt: `module name` a line."""
    found: dict[str, list[str]] = {module: [] for module in MODULES}
    for line in LISTED.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            module, name = line.split()
            found[module].append(name)
    return found


def is_function(value: object) -> bool:
    """A function, or one wrapped (a cache keeps the function's name and docstring)."""
    return callable(value) and inspect.isfunction(inspect.unwrap(value))


def documented(module: types.ModuleType, name: str) -> bool:
    """A class, function or module has its own docstring; anything else (a constant, a type
    alias) is described in the module's docstring as `NAME`."""
    value = getattr(module, name)
    if isinstance(value, type):  # its own, not one inherited from a base class
        return bool((value.__dict__.get("__doc__") or "").strip())
    if isinstance(value, types.ModuleType) or is_function(value):
        return bool((value.__doc__ or "").strip())
    return f"`{name}`" in (module.__doc__ or "")


@pytest.mark.parametrize("module_name", MODULES)
def test_all_is_the_checked_in_list(module_name):
    module = importlib.import_module(module_name)
    assert module.__all__ == checked_in()[module_name], (
        f"{module_name}.__all__ changed: a name added or removed from the public API is a "
        "decision; update tests/public_api.txt with it"
    )


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_name_is_importable_and_documented(module_name):
    module = importlib.import_module(module_name)
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.{name} is listed but not there"
    undocumented = [n for n in module.__all__ if not documented(module, n)]
    assert undocumented == [], f"{module_name}: not documented: {undocumented}"


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_function_is_typed(module_name):
    module = importlib.import_module(module_name)
    untyped = []
    for name in module.__all__:
        value = getattr(module, name)
        if not is_function(value):
            continue
        signature = inspect.signature(inspect.unwrap(value))
        params = signature.parameters.items()
        bare = [p for p, v in params if v.annotation is inspect.Parameter.empty]
        if bare or signature.return_annotation is inspect.Signature.empty:
            untyped.append(f"{name}({', '.join(bare)})")
    assert untyped == [], f"{module_name}: public functions without type hints: {untyped}"


def test_the_api_imports_nothing_a_ruleset_should_not_need():
    """The api module is a facade: it reaches only the rules layer and the ledger's errors."""
    source = Path(importlib.import_module("fracas.rules.api").__file__).read_text()
    imported = {line.split()[1] for line in source.splitlines() if line.startswith("from ")}
    assert all(m.startswith(("fracas.rules", "fracas.ledger")) for m in imported), imported


@pytest.mark.parametrize("module_name", ["fracas.rules.gm", "fracas.rules.roster"])
def test_the_modules_the_api_gives_show_only_their_public_members(module_name):
    module = importlib.import_module(module_name)
    assert dir(module) == sorted(module.__all__)
    api = importlib.import_module("fracas.rules.api")
    assert getattr(api, module_name.rsplit(".", 1)[1]) is module
