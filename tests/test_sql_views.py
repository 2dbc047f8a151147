"""The SQLite file as an API: the views honour undo, redo and supersede, so a query's
figures are the fold's."""

from collections import Counter

import pytest

from fracas.cli.demo import play
from fracas.projections import Fracas
from fracas.rules.events import Damaged, Rolled

pytestmark = pytest.mark.sqlite_file  # the SQLite file itself: its bytes, tools, processes


def folded(table: Fracas, encounter: str) -> tuple[Counter, Counter, int]:
    """Damage taken per combatant, rolls made and criticals, from the steps in effect as
    the encounter's history has them (no SQL)."""
    taken: Counter = Counter()
    rolls, criticals = 0, 0
    live = table.encounter(encounter)
    for record in live.history.steps:
        if record.step in live.history.undone or record.control != "command":
            continue
        for event in live.events_of_step(record.step):
            if isinstance(event, Damaged):
                taken[event.target] += event.amount
            if isinstance(event, Rolled):
                rolls += 1
                criticals += event.result == "critical"
    return taken, Counter({"rolls": rolls}), criticals


def queried(table: Fracas, encounter: str) -> tuple[Counter, Counter, int]:
    db = table.store.db
    taken = Counter(
        {
            row["whom"]: row["taken"]
            for row in db.query(
                "SELECT whom, sum(amount) AS taken FROM harm WHERE encounter = ? GROUP BY whom",
                [encounter],
            )
        }
    )
    rolls = next(db.query("SELECT count(*) AS n FROM rolls WHERE encounter = ?", [encounter]))
    criticals = next(
        db.query(
            "SELECT count(*) AS n FROM rolls WHERE encounter = ? AND result = 'critical'",
            [encounter],
        )
    )
    return taken, Counter({"rolls": rolls["n"]}), criticals["n"]


def test_the_views_count_what_the_fold_counts_through_undo_redo_and_adopt(tmp_path):
    path = str(tmp_path / "table.db")
    encounter = play(path, echo=lambda _line: None)  # the demo undoes a misread step
    with Fracas(path) as table:
        assert queried(table, encounter) == folded(table, encounter)
        live = table.encounter(encounter)
        live.undo()
        live.undo()
        live.redo()
        assert queried(table, encounter) == folded(table, encounter)
        table.adopt(9, encounter, dice=[20, 4, 3])  # supersedes step 9 and what follows
        assert queried(table, encounter) == folded(table, encounter)
        hurt = {row["whom"] for row in table.store.db.query("SELECT whom FROM harm")}
        assert hurt, "the demo fight hurts somebody"


def test_damage_per_attacker_names_the_one_who_struck(tmp_path):
    path = str(tmp_path / "table.db")
    play(path, echo=lambda _line: None)
    with Fracas(path) as table:
        rows = list(table.store.db.query("SELECT step, who, whom, amount FROM harm"))
    # Bishop's fight-back hits the cultist on the cultist's own step: the blow is Bishop's.
    fight_back = [r for r in rows if r["whom"] == "cultist" and r["who"] == "bishop"]
    assert fight_back and all(r["who"] != r["whom"] for r in rows)


def test_a_rebuild_keeps_the_views(tmp_path):
    path = str(tmp_path / "table.db")
    encounter = play(path, echo=lambda _line: None)
    with Fracas(path) as table:
        before = queried(table, encounter)
        table.rebuild()
        assert queried(table, encounter) == before


def readme_queries() -> list[str]:
    from tests.pages import page

    prefix = 'sqlite-utils query table.db "'
    return [
        line.removeprefix(prefix).removesuffix('"')
        for line in page("docs/file.md").splitlines()
        if line.startswith(prefix)
    ]


@pytest.mark.slow
def test_the_readme_queries_give_the_folds_figures_in_sqlite_utils_and_datasette(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path
    from urllib.parse import quote

    from fracas.projections.report import encounter_report

    path = tmp_path / "table.db"
    encounter = play(str(path), echo=lambda _line: None)
    with Fracas(path) as table:
        table.adopt(9, encounter, dice=[20, 4, 3])
        told = encounter_report(table.store, encounter)
    scripts = Path(sys.executable).parent
    answers = []
    for sql in readme_queries():
        cli = subprocess.run(
            [scripts / "sqlite-utils", "query", path, sql], capture_output=True, check=True
        )
        page = f"/table.json?_shape=array&sql={quote(sql)}"
        served = subprocess.run(
            [scripts / "datasette", path, "--get", page], capture_output=True, check=True
        )
        assert json.loads(cli.stdout) == json.loads(served.stdout), sql
        answers.append(json.loads(cli.stdout))
    damage, criticals, alice = answers
    names = {c.combatant: c.name for c in told.cast}
    dealt = Counter()
    for row in damage:
        dealt[names[row["who"]]] += row["dealt"]
    assert dealt == Counter({t.name: t.dealt for t in told.summary.tallies if t.dealt})
    assert [row["step"] for row in criticals] == [c.step for c in told.summary.criticals]
    rolled = [
        (entry.step.step, roll.purpose)
        for block in told.rounds
        for turn in block.turns
        for entry in turn.entries
        for roll in entry.step.rolls
        if roll.actor == "alice"
    ]
    assert [(row["step"], row["purpose"]) for row in alice] == rolled
