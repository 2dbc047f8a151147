"""Faces a player typed that an outcome rolled by another made unneeded (issue 37, the
table tester's secret leak): a target's save (or defence) is the server's roll, which the
player sees only once the step lands, so the step lands whatever it showed, saying the
faces were not needed. Faces no outcome could ever use are refused, whatever it showed."""

import re

import pytest

from fracas.ledger import BadInputError
from fracas.projections import Fracas
from fracas.rules import dice
from fracas.rules.encounter import Encounter
from fracas.rules.events import Resolved, Rolled
from tests.casts.fudge import a, declare_turn, fudge_fight
from tests.casts.pool import pool_fight
from tests.casts.shotclock import BOSS, JACK, MOOK, shot_fight
from tests.casts.timeslice import ts_fight
from tests.support import SHEETS as DEMO_SHEETS
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
        "not needed: 5 (typed for a d8 for the damage of sacred flame; unneeded after goblin's "
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
    assert not any(isinstance(e, Resolved) and "not needed" in e.outcome for e in events)


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
    unneeded = [e for e in events if isinstance(e, Resolved) and "not needed" in e.outcome]
    assert damaged != bool(unneeded)


# -- a player's own roll decides whether more dice are rolled (Brannoc at the table) -------


def brannoc(log: Fracas, goblin_ac: int) -> Encounter:
    fight = log.new("srd", title="The Gate", encounter="gate")
    fighter = srd_sample("fighter", initiative=90)
    do(fight, {"action": "join", "combatant": "brannoc", "sheet": fighter, "side": "pc"})
    goblin = srd_sample("goblin", hp=100, ac=goblin_ac)
    do(fight, {"action": "join", "combatant": "goblin", "sheet": goblin, "side": "npc"})
    do(fight, {"action": "begin"})
    return fight


def swing(fight: Encounter, dice: list[int]) -> list:
    command = fight.ruleset.command(
        {"action": "attack", "actor": "brannoc", "targets": ["goblin"], "weapon": "longsword"}
    )
    return fight.decide(command, dice=dice, entered_by="brannoc", author="brannoc", own="brannoc")


MISSED, HIT = 23, 5  # the goblin's AC, which the player never sees: 17 + 5 misses, then hits


def test_damage_typed_with_an_attack_that_misses_lands_shown_not_needed(tmp_path) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = brannoc(log, MISSED)
        events = swing(fight, [17, 6])
        fight.record(events, author="brannoc")
        assert fight.state.fighters["goblin"].hp == 100
    said = [e.outcome for e in events if isinstance(e, Resolved)]
    assert "not needed: 6 (typed for a d8 for the damage of longsword)" in said[-1]
    rolls = [(e.roll.source, e.roll.faces) for e in events if isinstance(e, Rolled)]
    assert rolls == [("manual", [17])]


def test_the_same_dice_on_a_hit_roll_the_damage(tmp_path) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = brannoc(log, HIT)
        events = swing(fight, [17, 6])
        fight.record(events, author="brannoc")
        assert fight.state.fighters["goblin"].hp == 100 - 6 - 3
    assert not any(isinstance(e, Resolved) and "not needed" in e.outcome for e in events)


@pytest.mark.parametrize("ac", [MISSED, HIT], ids=["miss", "hit"])
def test_too_few_faces_are_refused_the_same_whether_the_attack_hits(tmp_path, ac) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = brannoc(log, ac)
        before = fight.history.head_step
        with pytest.raises(BadInputError) as refused:
            swing(fight, [17])
        assert fight.history.head_step == before
    assert str(refused.value) == (
        "too few faces typed (1): this action may roll a d20 for the attack on goblin with "
        "longsword, "
        "a d8 for the damage of longsword; type every one, in that order "
        "(a die the outcome does not need is shown not needed)"
    )


@pytest.mark.parametrize("ac", [MISSED, HIT], ids=["miss", "hit"])
def test_faces_past_the_most_the_attack_could_roll_are_refused_whatever_it_hits(
    tmp_path, ac
) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = brannoc(log, ac)
        with pytest.raises(BadInputError) as refused:
            swing(fight, [17, 6, 3, 2])
    assert str(refused.value) == (
        "1 typed face left over: this action rolls at most a d20 for the attack on goblin "
        "with longsword, "
        "2d8 for the damage of longsword; drop the extra faces from the dice box"
    )


def test_a_criticals_extra_die_is_rolled_by_the_server_and_said(tmp_path) -> None:
    """A natural 20's doubled damage dice: the player typed the d8 the dice help asks for,
    the server rolls the second and the step says so (a critical that rests on a hit, as
    on the unconscious within 5 feet, would otherwise tell the hit by a refusal)."""
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = brannoc(log, HIT)
        events = swing(fight, [20, 6])
        fight.record(events, author="brannoc")
    damage = [e for e in events if isinstance(e, Rolled)][-1]
    assert damage.roll.dice == "2d8" and damage.roll.faces[0] == 6
    said = [e.outcome for e in events if isinstance(e, Resolved)]
    assert "the server rolled 1 more d8 for the damage of longsword" in said[-1]


# -- every ruleset: the faces typed for a player's own rolls never tell how they fell ------


def percentile_cast(log: Fracas) -> tuple[Encounter, str, dict]:
    e = fight(log, ("alice", gunner(14)), ("bob", sheet(10, hp=30)))
    return e, "alice", {"action": "attack", "targets": ["bob"], "weapon": "pistol"}


def pool_cast(log: Fracas) -> tuple[Encounter, str, dict]:
    return pool_fight(log), "ana", {"action": "attack", "targets": ["bob"], "weapon": "sword"}


def shotclock_cast(log: Fracas) -> tuple[Encounter, str, dict]:
    e = shot_fight(log, ("jack", JACK), ("boss", BOSS), ("mook", MOOK), initiative=None)
    do(e, {"action": "begin"})
    actor = e.view().acting[0]
    foe = next(f.id for f in e.state.fighters.values() if f.id != actor and not f.out)
    weapon = "beretta" if actor == "jack" else "punch"
    return e, actor, {"action": "attack", "targets": [foe], "weapon": weapon}


def timeslice_cast(log: Fracas) -> tuple[Encounter, str, dict]:
    e = ts_fight(log)
    actor = e.view().acting[0]
    return e, actor, {"action": "attack", "targets": ["orc" if actor != "orc" else "alice"]}


def fudge_cast(log: Fracas) -> tuple[Encounter, str, dict]:
    e = fudge_fight(log)
    declare_turn(e, ana=[a("attack", "cy", weapon="pistol")])
    actor = e.state.current
    return e, actor, {"action": "next"}


def srd_cast(log: Fracas) -> tuple[Encounter, str, dict]:
    e = brannoc(log, MISSED)
    return e, "brannoc", {"action": "attack", "targets": ["goblin"], "weapon": "longsword"}


CASTS = {
    "percentile": percentile_cast,
    "pool": pool_cast,
    "shotclock": shotclock_cast,
    "timeslice": timeslice_cast,
    "fudge": fudge_cast,
    "srd": srd_cast,
}
# where the player's own roll decides whether their damage is rolled: a miss leaves it
# typed and not needed (pool, shotclock and timeslice read damage off the one roll)
DAMAGE_AFTER = {"percentile", "srd"}
_DIE = re.compile(r"\b(\d*)d(\d+|F)(!?)")


def dice_asked(asked: list[str]) -> list[list[int]]:
    """Each face the dice help asks for, as the faces it may show: "5d10 for ..." is five."""
    found: list[list[int]] = []
    for roll in asked:
        for count, sides, _ in _DIE.findall(roll.split(" for ")[0]):
            values = [-1, 0, 1] if sides == "F" else list(range(1, int(sides) + 1))
            found += [values] * int(count or 1)
    return found


@pytest.mark.parametrize("system", sorted(CASTS))
def test_a_players_own_dice_land_however_they_fall_and_too_few_are_refused_alike(
    tmp_path, system
) -> None:
    """Every face of the dice help typed, each die at its lowest, next to either end or in
    the middle (the top of an exploding die asks for one more, the player's to see): the
    step lands whatever the roll decided, the faces it did not need said so; one face short
    is refused in the same words however the roll would have fallen."""
    with Fracas(str(tmp_path / "f.db")) as log:
        e, actor, asked = CASTS[system](log)
        command = e.ruleset.command({**asked, "actor": actor})
        dice = dice_asked(e.own_rolls(command, actor))
        assert dice, f"{system}: the action asks the player for no dice"
        mine = dict(entered_by=actor, author=actor, own=actor)
        unneeded, refusals = set(), set()
        for at in (0, 1, -2, 0.5):
            faces = [v[int(len(v) * at)] if isinstance(at, float) else v[at] for v in dice]
            events = e.decide(command, dice=faces, **mine)  # never refused
            said = [x.outcome for x in events if isinstance(x, Resolved)]
            unneeded.add(any(line.startswith("not needed: ") for line in said))
            with pytest.raises(BadInputError) as refused:
                e.decide(command, dice=faces[:-1], **mine)
            refusals.add(str(refused.value))
    assert len(refusals) == 1, refusals
    assert refusals.pop().startswith(f"too few faces typed ({len(dice) - 1}): ")
    assert (True in unneeded) == (system in DAMAGE_AFTER)


def test_the_gm_typing_attack_and_damage_at_the_command_line_gets_the_same(run) -> None:
    """`fracas act --dice` (and `play`, which decides through the same check): a miss's
    damage die lands said not needed; a face past the most the attack rolls is refused."""
    run("new")
    run("add", "alice", "--sheet", str(DEMO_SHEETS / "alice.toml"))
    run("add", "bob", "--set", "dex=9")
    run("begin")
    out = run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "90,7").output
    assert "not needed: 7" in out
    assert "not needed: 7" in run("log").output
