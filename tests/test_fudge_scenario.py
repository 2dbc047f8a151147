"""The seed's worked example of combat played through the CLI with the seed's dice, a
grapple -> pin -> break-hold sequence, and undo in the middle of the resolution phase."""

import json

from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.projections import Fracas
from fracas.rules.encounter import recorded_events
from fracas.rules.events import Damaged
from tests.casts.fudge import INITIATIVE, a, declare_turn, f, fudge_fight, resolve, rolled, terms

PLAYERS = [
    # Player 1: Discipline +3, Ranged Professional (+3), a pistol (Damage Bonus +3).
    (
        "p1",
        "skills.discipline=3",
        "skills.ranged=professional",
        'weapons=[{name="pistol", damage=3}]',
    ),
    # Player 2: Discipline +2, a Competent Physique.
    ("p2", "skills.discipline=2", "skills.physique=competent"),
    # Player 3: Discipline +3, 1 point of armour, Pain Tolerance, a pistol.
    (
        "p3",
        "skills.discipline=3",
        "skills.ranged=competent",
        "armor=1",
        'traits=["pain tolerance"]',
        'weapons=[{name="pistol", damage=3}]',
    ),
]


def cli_table(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "game.db")

    def fracas(*args: str) -> str:
        result = runner.invoke(cli, ["--db", db, "-e", "prize", *args])
        assert result.exit_code == 0, f"{args}: {result.output}"
        return result.output

    return fracas, db


def play_to_resolution(fracas) -> None:
    fracas("new", "-r", "fudge", "--id", "prize", "-t", "The prize on the pedestal")
    for who, *fields in PLAYERS:
        fracas("add", who, "--side", "pc", *(arg for field in fields for arg in ("--set", field)))
    # "Player 1 rolls a 2 ... Player 2 rolls a 2 ... Player 3 rolls a terrible -2".
    fracas("begin", "--dice", "1,1,0,0,1,0,1,0,-1,0,-1,0")
    fracas("act", "p3", "attack", "p1", "-w", "pistol")  # declares first: the lowest
    fracas("next")
    fracas("act", "p2", "flee", "-o", "what=bolts out of the room")
    fracas("next")
    fracas("act", "p1", "draw", "-w", "pistol")  # drawing a ready weapon is free
    fracas("act", "p1", "attack", "p3", "-w", "pistol")
    fracas("next")


def test_the_seeds_worked_example_gives_the_seeds_figures(tmp_path):
    fracas, db = cli_table(tmp_path)
    play_to_resolution(fracas)
    view = json.loads(fracas("status", "--json"))
    assert [(r["combatant"], r["key"]) for r in view["initiative"]] == [
        ("p1", "init 5"),
        ("p2", "init 4"),
        ("p3", "init 1"),
    ]
    assert view["phase"] == "turn 1: resolving" and view["acting"] == ["p1"]
    fracas("next")  # the draw: free, no roll
    fracas("next", "--dice", "0,0,0,0")  # "Player 1 rolls a 0"
    with Fracas(db) as table:
        e = table.encounter("prize")
        steps = [(step, ev) for step, ev in recorded_events(e.store, e.id, e.ruleset)]
    shot = [ev for step, ev in steps if step == steps[-1][0]]
    roll = rolled(shot)[0]
    assert len(rolled(shot)) == 1, "Player 3 declared firing: no dodge"
    assert terms(roll) == [(3, "Professional ranged combat")], "no aim, no modifiers"
    assert roll.result == "hits: result 3"
    damage = next(ev for ev in shot if isinstance(ev, Damaged))
    assert [m.value for m in damage.breakdown] == [3, 3, -1] and damage.amount == 5
    wounds = {w["combatant"]: w for w in json.loads(fracas("status", "--json"))["wounds"]}
    assert wounds["p3"]["health"] == "Critically Wounded (5)"
    assert wounds["p3"]["conditions"] == ["cannot walk", "Pain Tolerance: no penalty"]
    assert wounds["p3"]["detail"]["penalty"] == 0
    fracas("next")  # Player 2 runs out: no one opposes it
    assert "bolts out of the room: nobody opposes it, it succeeds [003-31]" in fracas("log")


def test_undo_during_resolution_returns_to_that_phase_and_declaration(tmp_path):
    fracas, _ = cli_table(tmp_path)
    play_to_resolution(fracas)
    fracas("next")
    before = fracas("status", "--json")
    fracas("next", "--dice", "0,0,0,0")
    assert json.loads(fracas("status", "--json"))["acting"] == ["p2"]
    fracas("undo")
    assert fracas("status", "--json") == before
    view = json.loads(before)
    assert view["phase"] == "turn 1: resolving" and view["acting"] == ["p1"]
    assert "declared: attack p3 with the pistol" in view["initiative"][0]["status"]
    fracas("undo")  # the free draw
    fracas("undo")  # the close of declarations: back to Player 1 declaring
    view = json.loads(fracas("status", "--json"))
    assert view["phase"] == "turn 1: declaring" and view["acting"] == ["p1"]
    fracas("act", "p1", "withdraw")  # declarations change until resolution opens
    fracas("act", "p1", "dodge")
    fracas("next")
    assert "declared: dodge" in json.loads(fracas("status", "--json"))["initiative"][0]["status"]


def test_grapple_then_pin_then_break_the_hold(fracas):
    e = fudge_fight(fracas)
    busy = [a("other", what="shouts")]
    declare_turn(e, cy=busy, bo=busy, ana=[a("grapple", "cy")])
    resolve(e, f(1), f(0))  # 1 + 2 = 3 against Cy's Physique 0 + 1 = 1: held
    assert [(p.holder, p.kind, p.target) for p in e.view().pins] == [("ana", "holds", "cy")]
    resolve(e)
    resolve(e)
    resolve(e, INITIATIVE)
    declare_turn(e, cy=[a("break")], bo=busy, ana=[a("grapple", "cy")])
    # Ana keeps the hold (an action) and grapples again: 4 + 2 - 2 = 4 against 0 + 1 = 1.
    resolve(e, f(4), f(0))
    assert [(p.holder, p.kind, p.target) for p in e.view().pins] == [("ana", "pins", "cy")]
    resolve(e)
    # Cy: 1 + 1 = 2 against Ana's Unarmed 0 + 2 - 2 = 0: free.
    out = resolve(e, f(1), f(0))
    assert rolled(out)[0].result == "breaks free" and e.view().pins == []
    assert "holding" not in e.state.fighters["ana"].conditions
