"""The docs' goblin ambush (docs/tours/srd.md) runs as written, pasted into bash from the
repository root."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TOUR = ROOT / "docs" / "tours" / "srd.md"


def tour(heading: str = "## A d20 fantasy fight") -> str:
    text = TOUR.read_text()
    found = re.search(r"```sh\n(.*?)```", text[text.index(heading) :], re.S)
    assert found, f"no shell block in {TOUR} after {heading!r}"
    return found.group(1)


def pasted(tmp_path: Path, block: str) -> subprocess.CompletedProcess:
    """A block pasted into bash from the repository root (as a temporary folder sees it)."""
    (tmp_path / "plugins").symlink_to(ROOT / "plugins")
    script = tmp_path / "pasted.sh"
    script.write_text("set -e\n" + block)
    env = {k: v for k, v in os.environ.items() if not k.startswith("FRACAS_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


def test_the_docs_goblin_ambush_runs_as_written(tmp_path: Path):
    after = ["undo", "redo", "end", "reveal", "audit", "export --format md -o ambush.md"]
    done = pasted(tmp_path, tour() + "".join(f"fracas {line}\n" for line in after))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Brannoc is no longer surprised" in done.stdout
    assert "Goblin 2 is dead: a monster at 0 HP dies [srd-13]" in done.stdout
    assert "[srd-18] Opportunity attack." in done.stdout
    assert "Creative Commons Attribution 4.0" in done.stdout
    assert "rules drift: none" in done.stdout and "hash chain: ok" in done.stdout
    report = (tmp_path / "ambush.md").read_text()
    assert "**Fell:** Goblin 1, dead (a monster at 0 HP dies) by Wren" in report
    assert "Creative Commons" in report
    status = done.stdout[done.stdout.rindex("Round 2") :]
    assert status.startswith("Round 2 · Brannoc to act") and "HP 14/21" in status


def test_the_docs_wyrm_s_lair_runs_as_written(tmp_path: Path):
    """Shield of faith, bless, a reaction shield, a save with a rider, slots running out,
    movement and a lair action, with the new samples."""
    done = pasted(tmp_path, tour("## The wyrm's lair"))
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    assert "Ashen Wyrm spends 1 lair action: magma" in out
    assert "Brannoc rolls 1d4 for bless on the attack on Ashen Wyrm" in out
    assert "shield: the hit becomes a miss (16 vs AC 17) [srd-39]" in out
    refused = "Maelis has no 1st-level spell slot left (all 1 spent; srd-50): cast it with a"
    assert f"{refused} 2nd-level slot, -o level=2 (1 left)" in done.stderr
    assert "Maelis spends a 2nd-level spell slot: 0 of 1 left" in out
    assert "Brannoc is prone: bite of Wolf [srd-35, srd-27]" in out
    assert "Brannoc spends 15 feet of movement: stands up, 15 feet left" in out
    assert "becomes a success (2 left today)" in out
    assert "recharge of fire breath (5-6): 3 vs 5 -> not yet" in out
    status = " ".join(out[out.rindex("Round 2 ·") :].split())  # words wrap in their columns
    assert (
        "slots 1st 0/1 · 2nd 0/1" in status
        and "shield of faith (100 rounds left, ending at initiative 20)" in status
    )


def test_the_docs_bestiary_runs_as_written(tmp_path: Path):
    """The SRD's adult red dragon from the bestiary: its bite's fire dealt with it."""
    done = pasted(tmp_path, tour("## The bestiary"))
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    assert "44 of 332 monsters. This work includes material taken from the System" in out
    assert "adult-red-dragon               CR 17   huge dragon" in out
    assert "Adult Red Dragon rolls 2d6 for fire damage of bite: 6+6 -> 12 on 2d6" in out
    assert "Brannoc takes 30 damage" in out and "Brannoc is dying" in out
    assert "HP 256/256, legendary 3/3, legendary resistance 3/3" in out
