"""Secrets that never lie: players see at once every step a secret does not decide.

A GM-only roll that cannot move the turn (a check, an attack that cannot put its target
down) hides its own dice and what they decided, and nothing else: the public steps after it
reach the players' page, stream and exports at once (projections/secrecy.py, the worlds).
"""

import io
import json
from pathlib import Path

from fracas.cli.serve import Table
from fracas.projections import Fracas
from fracas.projections.exports import export_jsonl
from fracas.projections.screen import PLAYERS
from tests.test_secrecy import on, shut

PISTOL = '--set=weapons=[{name="pistol",kind="firearm",damage="1d10"}]'


def surfaces(db: Path, encounter: str) -> dict[str, str]:
    """What the players are given: the page, the stream, the md and jsonl exports."""
    table = Table(str(db), "token")
    seen = {
        "page": table.render_screen(encounter, PLAYERS),
        "stream": table.update(encounter, PLAYERS),
    }
    shut(table)
    fracas = Fracas(db)
    out = io.StringIO()
    fracas.export_text(out, "md", encounter, players=True)
    seen["md"] = out.getvalue()
    out = io.StringIO()
    export_jsonl(fracas.store, out, players=True)
    seen["jsonl"] = out.getvalue()
    return seen


def test_percentile_a_secret_check_leaves_the_attacks_after_it_public(tmp_path):
    """Issue 38's case: the cultist's secret DEX check, then Bishop shoots the gunman and the
    gunman fires back; in the DEX countdown the next actor does not depend on a check."""
    run = on(tmp_path / "f.db")
    run("new", "--id", "f")
    gun = ["--set", "skills.firearms=60", PISTOL, "--set", 'holding=["pistol"]']
    run("add", "bishop", "--set", "dex=14", "--side", "pc", *gun)
    run("add", "cultist", "--set", "dex=16")
    run("add", "gunman", "--set", "dex=10", *gun)
    run("begin")
    run("act", "cultist", "other", "-o", "what=listens at the door", "-o", "test=dex",
        "--secret", "--dice", "48")  # fmt: skip
    run("act", "bishop", "attack", "gunman", "-w", "pistol", "--dice", "41,4")
    run("act", "gunman", "attack", "bishop", "-w", "pistol", "--dice", "30,7")
    seen = surfaces(tmp_path / "f.db", "f")
    for where in ("page", "stream", "md"):
        assert "gunman takes 4 damage" in seen[where], f"Bishop's shot is not on the {where}"
        assert "bishop takes 7 damage" in seen[where], f"the gunman's is not on the {where}"
        assert "cultist acts: what it decided is GM-only" in seen[where]
        assert "wait on the GM's secret roll" not in seen[where], where
    for where in ("page", "stream"):
        assert "HP 3/10" in seen[where], f"Bishop's own health is stale on the {where}"
    steps = [json.loads(line) for line in seen["jsonl"].splitlines()[1:]]
    rolls = [e for step in steps for e in step.get("events", []) if e["kind"] == "rolled"]
    assert [r["roll"]["faces"] for r in rolls] == [[41], [4], [30], [7]], "the check's hides"
    assert not any("listens" in r["purpose"] for r in rolls)
