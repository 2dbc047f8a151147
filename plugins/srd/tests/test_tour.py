"""The docs' goblin ambush (docs/tours/srd.md) runs as written, pasted into bash from the
repository root."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TOUR = ROOT / "docs" / "tours" / "srd.md"


def tour() -> str:
    found = re.search(r"```sh\n(.*?)```", TOUR.read_text(), re.S)
    assert found, f"no shell block in {TOUR}"
    return found.group(1)


def test_the_docs_goblin_ambush_runs_as_written(tmp_path: Path):
    (tmp_path / "plugins").symlink_to(ROOT / "plugins")
    script = tmp_path / "ambush.sh"
    after = ["undo", "redo", "end", "reveal", "audit", "export --format md -o ambush.md"]
    script.write_text("set -e\n" + tour() + "".join(f"fracas {line}\n" for line in after))
    env = {k: v for k, v in os.environ.items() if not k.startswith("FRACAS_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "brannoc is no longer surprised" in done.stdout
    assert "goblin-2 is dead: a monster at 0 HP dies [srd-13]" in done.stdout
    assert "[srd-18] Opportunity attack." in done.stdout
    assert "Creative Commons Attribution 4.0" in done.stdout
    assert "rules drift: none" in done.stdout and "hash chain: ok" in done.stdout
    report = (tmp_path / "ambush.md").read_text()
    assert "**Fell:** goblin 1 to Wren" in report and "Creative Commons" in report
    status = done.stdout[done.stdout.rindex("Round 2") :]
    assert status.startswith("Round 2 · Brannoc to act") and "HP 14/21" in status
