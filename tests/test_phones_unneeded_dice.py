"""Faces a player typed that an outcome rolled by another made unneeded (issue 37, the
table tester's secret leak): a target's save (or defence) is the server's roll, which the
player sees only once the step lands, so the step lands whatever it showed, saying the
faces were not needed. Faces no outcome could ever use are refused, whatever it showed."""

import pytest

from fracas.ledger import BadInputError
from fracas.projections import Fracas
from fracas.rules import dice
from fracas.rules.encounter import Encounter
from fracas.rules.events import Resolved, Rolled
from tests.support import do, fight, gunner, sheet, srd_sample

pytestmark = pytest.mark.sqlite_file


def chapel(log: Fracas, cleric: dict, goblin: dict) -> Encounter:
    fight = log.new("srd", title="The Chapel", encounter="chapel")
    do(fight, {"action": "join", "combatant": "cleric", "sheet": cleric, "side": "pc"})
    do(fight, {"action": "join", "combatant": "goblin", "sheet": goblin, "side": "npc"})
    do(fight, {"action": "begin"})
    return fight


def flame(fight: Encounter, dice: list[int]) -> list:
    command = fight.ruleset.command(
        {"action": "cast", "actor": "cleric", "spell": "sacred flame", "targets": ["goblin"]}
    )
    return fight.decide(command, dice=dice, entered_by="cleric", author="cleric", own="cleric")


SHEETS = (srd_sample("cleric", initiative=90), srd_sample("goblin", hp=100))
SAVES, FAILS = 20, 1  # the goblin's d20 against the cleric's DC 13, as the server rolls it


def servers_d20(monkeypatch: pytest.MonkeyPatch, face: int) -> None:
    """The server's seeded dice show `face` on each d20 (the goblin's save)."""
    real = dice.derive_faces

    def derived(seed: str, encounter: str, counter: str, spec: str, most: int | None = None):
        found = real(seed, encounter, counter, spec, most)
        return [face] if spec == "d20" else found

    monkeypatch.setattr(dice, "derive_faces", derived)


def test_a_damage_die_typed_for_a_saved_sacred_flame_lands_not_needed(
    tmp_path, monkeypatch
) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = chapel(log, *SHEETS)
        servers_d20(monkeypatch, SAVES)
        events = flame(fight, [5])
        fight.record(events, author="cleric")
    said = [e.outcome for e in events if isinstance(e, Resolved)]
    assert (
        "5 typed for a d8 for the damage of sacred flame, not rolled: unneeded after goblin's "
        in said[-1]
    )
    rolls = [(e.actor, e.roll.source) for e in events if isinstance(e, Rolled)]
    assert rolls == [("goblin", "seeded")]
    assert fight.state.fighters["goblin"].hp == 100


def test_the_typed_damage_die_is_rolled_when_the_save_fails(tmp_path, monkeypatch) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = chapel(log, *SHEETS)
        servers_d20(monkeypatch, FAILS)
        events = flame(fight, [5])
    rolls = [(e.actor, e.roll.source, e.roll.faces) for e in events if isinstance(e, Rolled)]
    assert ("cleric", "manual", [5]) in rolls
    assert not any(isinstance(e, Resolved) and "not rolled" in e.outcome for e in events)


@pytest.mark.parametrize("face", [SAVES, FAILS], ids=["saved", "failed"])
def test_a_face_no_outcome_could_use_is_refused_the_same_whatever_the_save(
    tmp_path, monkeypatch, face
) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = chapel(log, *SHEETS)
        servers_d20(monkeypatch, face)
        with pytest.raises(BadInputError) as refused:
            flame(fight, [5, 3])
    assert str(refused.value) == (
        "1 typed face left over: this action rolls at most a d8 for the damage of sacred flame; "
        "drop the extra faces from the dice box"
    )


def test_percentile_damage_typed_against_a_server_rolled_dodge_never_tells_it(tmp_path) -> None:
    """Alice's 40 hits; Bob's dodge is the server's: the pistol's 1d10 typed lands, rolled or
    not, and a third face (more than any outcome rolls) is refused before it shows."""
    with Fracas(str(tmp_path / "p.db")) as log:
        alice = gunner(skills={"firearms": 60, "dodge": 40})
        e = fight(log, ("alice", alice), ("bob", sheet(10, skills={"dodge": 50})))
        command = e.ruleset.command(
            {"action": "attack", "actor": "alice", "targets": ["bob"], "weapon": "pistol",
             "defence": {"bob": "dodge"}}
        )  # fmt: skip
        mine = dict(entered_by="alice", author="alice", own="alice")
        with pytest.raises(BadInputError, match="1 typed face"):
            e.decide(command, dice=[40, 5, 3], **mine)
        events = e.decide(command, dice=[40, 5], **mine)
    rolls = [(e.actor, e.roll.source, e.roll.faces) for e in events if isinstance(e, Rolled)]
    assert rolls[:2] == [("alice", "manual", [40]), ("bob", "seeded", rolls[1][2])]
    damaged = ("alice", "manual", [5]) in rolls
    unneeded = [e for e in events if isinstance(e, Resolved) and "not rolled" in e.outcome]
    assert damaged != bool(unneeded)
