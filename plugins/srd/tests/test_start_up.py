"""A d20 turn typed as its own process starts quickly: `fracas next` and `fracas act` load
the srd ruleset's deciding modules, not the bestiary's converter, the Foundry reader, the
stat block, the web stack, the shell or the other rulesets."""

import json
import subprocess
import sys
from pathlib import Path

from srd_cli import gm_on, ok, sample

UNUSED = (
    "fracas_srd.bestiary",  # `fracas monsters`, `add --monster`
    "fracas_srd.convert",  # the SRD's monsters read into sheets: many patterns compiled
    "fracas_srd.foundry",  # `add --sheet` of a Foundry VTT export
    "fracas_srd.statblock",  # `fracas monsters NAME`, the GM's page
    "fracas.rules.percentile",  # the other rulesets: only the encounter's is loaded
    "fracas.rules.pool",
    "fracas.rules.shotclock",
    "fracas.rules.timeslice",
    "fracas.rules.fudge",
    "starlette",  # `fracas serve`
    "jinja2",
    "uvicorn",
    "segno",  # `fracas invite`
    "prompt_toolkit",  # `fracas play`
    "psycopg",  # a postgresql:// log
    "hypothesis",
    "numpy",
)


def loaded_by(db: Path, *args: str) -> tuple[list[str], str]:
    """What `fracas --db DB ARGS` run as a process imported of UNUSED, and its output."""
    probe = (
        "import sys\n"
        "from fracas.cli.main import cli\n"
        f"try: cli(['--db', {str(db)!r}, *{list(args)!r}])\n"
        "except SystemExit: pass\n"
        f"print(sorted(m for m in {UNUSED!r} if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return json.loads(done.stderr.strip().splitlines()[-1].replace("'", '"')), done.stdout


def test_a_turn_as_a_process_loads_only_what_deciding_it_needs(tmp_path: Path):
    db = tmp_path / "fight.db"
    gm = gm_on(db)
    ok(gm, "new", "--ruleset", "srd")
    ok(gm, *sample("ana", "fighter", "Ana"))
    ok(gm, *sample("bo", "fighter", "Bo", "npc"))
    ok(gm, "begin", "--dice", "15,5")
    acting = json.loads(ok(gm, "status", "--json"))["acting"][0]
    target = "bo" if acting == "ana" else "ana"
    loaded, out = loaded_by(db, "act", acting, "attack", target, "-w", "longsword", "--dice", "2")
    assert loaded == [] and "declares: attacks" in out, (loaded, out)
    loaded, out = loaded_by(db, "next")
    assert loaded == [] and "command: next" in out, (loaded, out)
    loaded, out = loaded_by(db, "status", "--json")
    assert loaded == [] and json.loads(out)["ruleset"] == "srd", (loaded, out)
