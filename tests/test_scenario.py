"""A whole fight through the Python API (the demo's script), checked against figures
worked out by hand from the rules."""

from fracas.cli.demo import play
from fracas.projections import Fracas


def test_the_lakeside_motel_fight(tmp_path):
    db = tmp_path / "motel.db"
    encounter_id = play(str(db), echo=lambda _line: None)
    with Fracas(db) as fracas:
        fight = fracas.encounter(encounter_id)
        people = fight.state.fighters
        # Cultist: HP ceil((11+12)/2) = 12; Bishop's fight back 1d4=3 -1 +1 (STR 14) = 3;
        # Alice's aimed shot (45 vs 60+20) 1d10 = 8: 12 - 3 - 8 = 1, unconscious at <= 2.
        assert people["cultist"].hp == 1 and people["cultist"].has("unconscious")
        # Gunman: HP ceil((12+10)/2) = 11; pinned by Bishop (33, a critical, vs a failed
        # dodge 41 against 30); Alice 36 hits for 4 (the misread 96 was undone);
        # Bishop punches at 60+20: 57 hits, 1d4=4 -1 +1 = 4: 11 - 4 - 4 = 3.
        assert people["gunman"].hp == 3
        assert people["gunman"].conditions["pinned"] == {"by": "bishop"}
        # The escape (STR 12 x5 = 60: 48 succeeds) loses to Bishop's attack roll 57.
        assert (people["alice"].hp, people["bishop"].hp) == (12, 14)
        assert (fight.state.round, fight.state.turn) == (4, "alice")
        log = {step.step: step for step in fracas.log(encounter_id)}
        undone = [n for n, step in log.items() if step.undone]
        assert len(undone) == 1 and "96 vs 60%" in " ".join(log[undone[0]].lines)
        assert fracas.audit().ok
