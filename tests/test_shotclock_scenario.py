"""A three-sequence Feng Shui fight from the command line, checked shot by shot against
figures worked out by hand from RULES.md §001; then undo across a sequence boundary."""

import json

from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.projections import Fracas
from tests.casts.shotclock import BOSS, JACK, MOOK, act, clock, shot_fight

# Jack: Speed 8, Guns 14 (Dodge 14), Toughness 7, beretta damage 10.
# The boss: Speed 7, Martial Arts 15 (Dodge 15), Toughness 8, punch = Strength 6.
# A mook: Speed 5, Guns 8 (Dodge 8). Open roll = (positive die + rerolls) - (negative ...).
SEQUENCES = [
    # (command, dice, (sequence, shot) after, {next shots}, Jack's WP, the boss's WP)
    # Sequence 1 initiative: Jack 4 + 8 = 12, mook 2 + 5 = 7, boss 3 + 7 = 10.
    # Shot 12: 3 - 2 = 1 + 14 = 15 vs 8: the mook is out. Jack 12 - 3 = 9.
    ("act jack attack mook -w beretta", "3,2", (1, 10), {"jack": 9, "boss": 10}, 0, 0),
    # Shot 10: Jack dodges (9 -> 8): (6+2) - 1 = 7 + 15 = 22 vs 14 + 3: outcome 5;
    # 5 + 6 - 7 = 4 WP. The boss 10 - 3 = 7.
    ("act boss attack jack --defence dodge", "6,2,1", (1, 8), {"jack": 8, "boss": 7}, 4, 0),
    # Shot 8: snapshot: 1 - 4 = -3 + 14 - 2 = 9 vs 15, a miss; 8 - 2 = 6.
    ("act jack attack boss -w beretta -o snapshot=1", "1,4", (1, 7), {"jack": 6, "boss": 7}, 4, 0),
    # Shot 7: 2 - 2 = 0 + 15 = 15 vs 14: outcome 1; 1 + 6 - 7 = 0. The boss to 4.
    ("act boss attack jack", "2,2", (1, 6), {"jack": 6, "boss": 4}, 4, 0),
    # Shot 6: 5 - 1 = 4 + 14 = 18 vs 15: outcome 3; 3 + 10 - 8 = 5. Jack to 3.
    ("act jack attack boss -w beretta", "5,1", (1, 4), {"jack": 3, "boss": 4}, 4, 5),
    # Shot 4: a 6-shot ritual on shot 4 carries 2 into sequence 2 (001-17).
    ("act boss other -o shots=6 -o what=ritual", None, (1, 3), {"jack": 3, "boss": 0}, 4, 5),
    # Shot 3: a 1-shot reload (001-8).
    ("act jack other -o shots=1 -o what=reload", None, (1, 2), {"jack": 2, "boss": 0}, 4, 5),
    # Shot 2: a 3-shot attack with 2 shots left, excess dropped (001-10): 4 - 4 = 0 + 14 = 14
    # vs 15, a miss. Sequence 2 initiative: Jack 1 + 8 = 9; boss 5 + 7 = 12 - 2 = 10.
    ("act jack attack boss -w beretta", "4,4,1,5", (2, 10), {"jack": 9, "boss": 10}, 4, 5),
    # Shot 10: boxcars: (6+3) - (6+1) = 2 + 15 = 17 vs 14: outcome 3; 3 + 6 - 7 = 2 WP.
    ("act boss attack jack", "6,3,6,1", (2, 9), {"jack": 9, "boss": 7}, 6, 5),
    # Shot 9: a continuous action costs nothing itself (001-16)...
    ("act jack continuous -o what=balancing", None, (2, 9), {"jack": 9, "boss": 7}, 6, 5),
    # ...and the attack costs 4: 2 - 1 = 1 + 14 = 15 vs 15, outcome 0 hits: 0 + 10 - 8 = 2.
    ("act jack attack boss -w beretta", "2,1", (2, 7), {"jack": 5, "boss": 7}, 6, 7),
    # Shot 7: Jack's dodge costs 2 with the surcharge (5 -> 3): 0 + 15 = 15 vs 17, a miss.
    ("act boss attack jack --defence dodge", "3,3", (2, 4), {"jack": 3, "boss": 4}, 6, 7),
    # Shot 4: 5 - 2 = 3 + 15 = 18 vs 14: outcome 4; 4 + 6 - 7 = 3.
    ("act boss attack jack", "5,2", (2, 3), {"jack": 3, "boss": 1}, 9, 7),
    ("act jack stop -o what=balancing", None, (2, 3), {"jack": 3, "boss": 1}, 9, 7),
    # Shot 3: 4 - 1 = 3 + 14 = 17 vs 15: outcome 2; 2 + 10 - 8 = 4.
    ("act jack attack boss -w beretta", "4,1", (2, 1), {"jack": 0, "boss": 1}, 9, 11),
    # Shot 1: a 5-shot ritual carries 4. Sequence 3: Jack 2 + 8 = 10; boss 1 + 7 = 8 - 4 = 4.
    ("act boss other -o shots=5 -o what=ritual", "2,1", (3, 10), {"jack": 10, "boss": 4}, 9, 11),
    # Shot 10: (6+5) - 2 = 9 + 14 = 23 vs 15: outcome 8; 8 + 10 - 8 = 10.
    ("act jack attack boss -w beretta", "6,5,2", (3, 7), {"jack": 7, "boss": 4}, 9, 21),
    # Shot 7: snapshot 2: 3 - 1 = 2 + 14 - 5 = 11 vs 15, a miss; 7 - 1 = 6.
    ("act jack attack boss -w beretta -o snapshot=2", "3,1", (3, 6), {"jack": 6, "boss": 4}, 9, 21),
    # Shot 6: (6+1) - 1 = 6 + 14 = 20 vs 15: outcome 5; 5 + 10 - 8 = 7: 28 WP, impaired -1.
    ("act jack attack boss -w beretta", "6,1,1", (3, 4), {"jack": 3, "boss": 4}, 9, 28),
    # Shot 4: 3 - 2 = 1 + 15 - 1 = 15 vs 14: outcome 1; 1 + 6 - 7 = 0.
    ("act boss attack jack", "3,2", (3, 3), {"jack": 3, "boss": 1}, 9, 28),
    # Shot 3: 5 - 1 = 4 + 14 = 18 vs 15 - 1 = 14: outcome 4; 4 + 10 - 8 = 6: 34, impaired -2.
    ("act jack attack boss -w beretta", "5,1", (3, 1), {"jack": 0, "boss": 1}, 9, 34),
    # Shot 1: the boss lets it go. Sequence 4: Jack 3 + 8 = 11, boss 2 + 7 = 9.
    ("next boss", "3,2", (4, 11), {"jack": 11, "boss": 9}, 9, 34),
]


def test_three_sequences_shot_by_shot_from_the_command_line(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "warehouse.db")

    def fracas(*args: str) -> str:
        result = runner.invoke(cli, ["--db", db, "-e", "wh", *args])
        assert result.exit_code == 0, f"{args}: {result.output}"
        return result.output

    fracas("new", "-r", "shotclock", "--id", "wh", "-t", "Warehouse")
    fracas(
        "add",
        "jack",
        "--side",
        "pc",
        "--set",
        "speed=8",
        "--set",
        "toughness=7",
        "--set",
        "skills.guns=14",
        "--set",
        'weapons=[{name="beretta", damage=10}]',
    )
    fracas("add", "mook", "--set", "speed=5", "--set", "mook=true", "--set", "skills.guns=8")
    fracas(
        "add",
        "boss",
        "--set",
        "speed=7",
        "--set",
        "toughness=8",
        "--set",
        "strength=6",
        "--set",
        'skills."martial arts"=15',
    )
    fracas("begin", "--dice", "4,2,3")
    for command, dice, at, shots, jack_wp, boss_wp in SEQUENCES:
        fracas(*command.split(), *(["--dice", dice] if dice else []))
        view = json.loads(fracas("status", "--json"))
        wounds = {w["combatant"]: w["detail"] for w in view["wounds"]}
        seen = {
            r["combatant"]: wounds[r["combatant"]]["next_shot"]
            for r in view["initiative"]
            if r["combatant"] != "mook"
        }
        assert (view["round"], view["phase"]) == (at[0], f"sequence {at[0]}, shot {at[1]}"), command
        assert seen == shots, command
        assert (wounds["jack"]["wounds"], wounds["boss"]["wounds"]) == (jack_wp, boss_wp), command
    conditions = {w["combatant"]: w["conditions"] for w in view["wounds"]}
    assert conditions == {"jack": [], "mook": ["out"], "boss": ["impaired -2"]}
    text = fracas("status")
    assert "> " in text and "shot 11" in text and "next shot 9" in text
    log = fracas("log")
    assert "BOXCARS" in log and "(6+3) - (6+1) = 2" in log
    assert "the excess is not carried over (3 shots on shot 2) [001-10]" in log
    assert "ritual needs 4 more shots next sequence" in log


def test_undo_of_an_action_that_crossed_a_sequence_boundary_restores_the_sequence(tmp_path):
    with Fracas(tmp_path / "f.db") as fracas:
        e = shot_fight(fracas, ("jack", JACK), ("boss", BOSS), ("mook", MOOK), initiative=[4, 3, 2])
        act(e, "jack", "other", shots=10)  # to 2
        act(e, "boss", "continuous", what="driving")
        act(e, "boss", "other", shots=5, what="long haul")  # 10 - 6 = 4
        act(e, "mook", "other", shots=7)  # 7 -> 0
        act(e, "boss", "other", shots=3)  # 4 -> 0 with the surcharge
        before_state, before_view = e.state, e.view()
        assert clock(e) == (1, 2)
        crossing = act(e, "jack", "other", shots=7, what="climb", dice=[1, 1, 1])
        # carry 7 - 2 = 5; sequence 2: Jack 1 + 8 = 9 - 5 = 4, boss 8, mook 6
        assert clock(e) == (2, 8) and e.state.fighters["jack"].next_shot == 4
        assert e.undo() == crossing.step
        assert e.state == before_state and e.view() == before_view
        assert fracas.view(e.id) == before_view, "the stored read model is back too"
        assert e.redo() == crossing.step and clock(e) == (2, 8)


def test_a_seeded_fight_from_python_audits_and_exports(tmp_path):
    """Seeded open rolls (exploding, one counter each) verify once the seed is revealed."""
    with Fracas(tmp_path / "f.db") as fracas:
        e = shot_fight(fracas, ("jack", JACK), ("boss", BOSS), ("mook", MOOK), initiative=None)
        e.execute(e.ruleset.command({"action": "begin"}))
        for _ in range(40):  # whoever is on the shot attacks someone still standing
            actor = e.view().acting[0]
            foe = next(f for f in e.state.fighters.values() if f.id != actor and not f.out)
            weapon = "beretta" if actor == "jack" else "punch"
            command = {"action": "attack", "actor": actor, "targets": [foe.id], "weapon": weapon}
            e.execute(e.ruleset.command(command))
            if sum(not f.out for f in e.state.fighters.values()) < 2:
                break
        assert e.state.sequence >= 2, "the clock rolled into new sequences by itself"
        e.reveal()
        report = fracas.audit()
        assert report.ok and {r.verdict for r in report.rolls} == {"verified"}
        exported = tmp_path / "fight.jsonl"
        with exported.open("w") as out:
            header = fracas.export_jsonl(out)
        lines = [json.loads(line) for line in exported.read_text().splitlines()]
        events = [line for line in lines if line["type"] == "event"]
        assert header.events == len(events) == len(list(fracas.store.events(e.id)))
        assert lines[0]["head_hash"] == report.head_hash
        assert "shot.reached" in {line["kind"] for line in events}
