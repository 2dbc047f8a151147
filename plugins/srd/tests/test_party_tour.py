"""The docs' party tour (docs/tours/party.md) runs as written, pasted into bash from the
repository root: a party from a Foundry export and the samples, four goblins from the
bestiary, a short rest spending a Hit Die, the owlbear's den with the party as the road and
the rest left it, a long rest; Maelis levels up, Wren leaves and joins again."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TOUR = ROOT / "docs" / "tours" / "party.md"


def test_the_docs_party_tour_runs_as_written(tmp_path: Path):
    (tmp_path / "plugins").symlink_to(ROOT / "plugins")
    block = re.search(r"```sh\n(.*?)```", TOUR.read_text(), re.S)
    assert block, f"no shell block in {TOUR}"
    script = tmp_path / "party.sh"
    script.write_text("set -e\n" + block.group(1) + "fracas audit\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FRACAS_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    unread = [line.split(": not read: ")[1] for line in done.stderr.splitlines()
              if "hild.foundry.json: not read" in line]  # fmt: skip
    assert unread == [f"fighter 3: {feature} (the GM plays it)" for feature in (
        "Fighting Style", "Action Surge", "Martial Archetype")]  # her poison immunity is read
    assert "Hild Ashvane joins the party\nBrannoc joins the party" in done.stdout
    assert "goblin                         CR 1/4  small humanoid (goblinoid)" in done.stdout
    rested = done.stdout[done.stdout.index("Hild Ashvane rests") :]
    assert "Hild Ashvane rolls d10 for a Hit Die: 6 +2 = 8" in rested
    assert "Hild Ashvane regains 8 hit points" in rested
    assert re.search(r"^hild +Hild Ashvane +HP 27/28, Hit Dice 2/3 +—", rested, re.M)
    assert re.search(r"^brannoc +Brannoc +HP 25/28, Hit Dice 3/3 +—", rested, re.M)
    assert "Brannoc spends no Hit Dice" in rested
    block = " ".join(done.stdout[done.stdout.index("Owlbear\nlarge monstrosity") :].split())
    assert "Beak Melee: +7 to hit, reach 5 ft. Hit: 1d10 + 5 piercing" in block
    den = done.stdout[done.stdout.index("Setting up · 5 combatants") :]
    assert re.search(r"Hild Ashvane +pc +- +HP 27/28, Hit Dice 2/3 +18", den)
    assert re.search(r"Brannoc +pc +- +HP 25/28", den)
    assert "HP 24/24, slots 1st 3/4 · 2nd 2/2" in den and "Owlbear" in den and "HP 59/59" in den
    assert re.search(r"^hild +Hild Ashvane +HP 27/28, Hit Dice 2/3 +den\n", den, re.M)
    assert "between fights" not in den[: den.index("the encounter ends")]  # in the den
    rested = done.stdout[done.stdout.rindex("Hild Ashvane rests") :]
    assert re.search(r"^hild +Hild Ashvane +HP 28/28, Hit Dice 3/3 +—", rested, re.M)
    maelis = r"^maelis +Maelis +HP 24/24, slots 1st 4/4 · 2nd 2/2, Hit Dice 3/3 +—"
    assert re.search(maelis, rested, re.M)
    levelled = done.stdout[done.stdout.index("Maelis takes the new sheet") :]  # level 4: 24/31
    maelis = r"^maelis +Maelis +HP 24/31, slots 1st 4/4 · 2nd 2/2, Hit Dice 4/4 +—"
    assert re.search(maelis, levelled, re.M)
    left = levelled[levelled.index("Wren leaves the party") : levelled.index("Wren joins")]
    assert re.search(maelis, left, re.M)
    assert not re.search(r"^wren ", left, re.M), left  # no longer listed, until she joins again
    assert re.search(r"^wren +Wren +HP 21/21", levelled[levelled.index("Wren joins") :], re.M)
    assert "rules drift: none" in done.stdout
