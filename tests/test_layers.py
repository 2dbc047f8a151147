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
