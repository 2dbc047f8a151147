"""The code of the author's guide (docs/rulesets.md), read from the guide's own text: each
fenced block with a title (```python title="coin_duel.py"), by its title."""

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

GUIDE = Path(__file__).parent.parent / "docs" / "rulesets.md"
BLOCK = re.compile(r'^```\w+ title="([^"]+)"\n(.*?)^```$', re.M | re.S)


def blocks() -> dict[str, str]:
    return {title: code for title, code in BLOCK.findall(GUIDE.read_text())}


def module(title: str, name: str, where: Path) -> ModuleType:
    """A block of the guide written to WHERE/NAME.py and imported as module NAME."""
    path = where / f"{name}.py"
    path.write_text(blocks()[title])
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    sys.modules[name] = found  # the guide's test module imports coin_duel by name
    spec.loader.exec_module(found)
    return found


def coin_duel(where: Path) -> ModuleType:
    return module("coin_duel.py", "coin_duel", where)
