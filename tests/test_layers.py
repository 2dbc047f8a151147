"""The house's layers: imports flow `cli -> projections -> rules -> ledger`, never back
(docs/house.md). Every import is read, the lazy ones inside functions too."""

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent
LAYERS = ("ledger", "rules", "projections", "cli")  # each may import those before it


def imported(path: Path) -> set[str]:
    """The fracas layers a module imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "fracas" and len(parts) > 1 and parts[1] in LAYERS:
                found.add(parts[1])
    return found


def upward_imports() -> list[str]:
    wrong = []
    for rank, layer in enumerate(LAYERS):
        above = set(LAYERS[rank + 1 :])
        for path in sorted((ROOT / layer).rglob("*.py")):
            for name in sorted(imported(path) & above):
                wrong.append(f"{path.relative_to(ROOT)} imports fracas.{name}")
    return wrong


def test_imports_flow_down_the_layers_only() -> None:
    assert upward_imports() == [], "an import against the layers:\n" + "\n".join(upward_imports())


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from fracas.projections.board import board\n")
    assert imported(module) == {"projections"}


def test_no_test_module_imports_another() -> None:
    """Shared helpers live in tests/support.py and its themed neighbours (web, terminal,
    pages, unseen, random_fights, session_fights), casts in tests/casts/, fixtures in
    conftest.py: a test module is never imported by another."""
    wrong = []
    for path in sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "plugins").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            wrong += [
                f"{path.relative_to(ROOT)} imports {name}"
                for name in names
                if name.split(".")[-1].startswith("test_") and name.split(".")[0] == "tests"
            ]
    assert wrong == [], "\n".join(wrong)
