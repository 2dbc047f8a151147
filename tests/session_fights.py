"""One short fight in every system, played with seeded dice and an undo, a redo, a note
and a revealed seed: what the export, import, replay and audit tests run against."""

from collections.abc import Callable

from fracas.projections import Fracas
from fracas.rules import Encounter
from tests.casts.fudge import a, declare_turn, fudge_fight
from tests.casts.pool import pool_fight
from tests.casts.shotclock import BOSS, JACK, MOOK, shot_fight
from tests.casts.timeslice import ts_fight
from tests.support import do, fight, gunner, sheet, srd_sample


def percentile(fracas: Fracas) -> Encounter:
    e = fight(fracas, ("alice", gunner(14)), ("bob", sheet(10, hp=30)))
    do(e, {"action": "attack", "actor": "alice", "targets": ["bob"], "weapon": "pistol"})
    do(e, {"action": "next"})
    return e


def shotclock(fracas: Fracas) -> Encounter:
    e = shot_fight(fracas, ("jack", JACK), ("boss", BOSS), ("mook", MOOK), initiative=None)
    do(e, {"action": "begin"})
    for _ in range(3):
        actor = e.view().acting[0]
        foe = next(f for f in e.state.fighters.values() if f.id != actor and not f.out)
        weapon = "beretta" if actor == "jack" else "punch"
        do(e, {"action": "attack", "actor": actor, "targets": [foe.id], "weapon": weapon})
    return e


def pool(fracas: Fracas) -> Encounter:
    e = pool_fight(fracas)
    do(e, {"action": "attack", "actor": "ana", "targets": ["bob"], "weapon": "sword"})
    do(e, {"action": "next"})
    return e


def timeslice(fracas: Fracas) -> Encounter:
    e = ts_fight(fracas)
    actor = e.view().acting[0]
    foe = "orc" if actor != "orc" else "alice"
    do(e, {"action": "attack", "actor": actor, "targets": [foe]})
    do(e, {"action": "next"})
    return e


def fudge(fracas: Fracas) -> Encounter:
    e = fudge_fight(fracas)
    declare_turn(e, ana=[a("attack", "cy", weapon="pistol")])
    do(e, {"action": "next"})
    return e


def with_history(play: Callable[[Fracas], Encounter]) -> Callable[[Fracas], Encounter]:
    """The fight, then an undo, a redo, a second undo left standing, a note and a reveal."""

    def played(fracas: Fracas) -> Encounter:
        e = play(fracas)
        e.undo()
        e.redo()
        e.undo()
        e.note("the lights go out")
        e.reveal()
        return e

    return played


SYSTEMS = {
    name: with_history(play)
    for name, play in {
        "percentile": percentile,
        "shotclock": shotclock,
        "pool": pool,
        "timeslice": timeslice,
        "fudge": fudge,
    }.items()
}


def srd(fracas: Fracas) -> Encounter:
    e = fracas.new("srd", encounter="lair", title="The wyrm's lair")
    cast = (("brannoc", "fighter", "pc"), ("maelis", "cleric", "pc"), ("gob", "goblin", "npc"))
    for who, sample, side in cast:
        sheet = srd_sample(sample)
        e.execute(
            e.ruleset.command({"action": "join", "combatant": who, "sheet": sheet, "side": side})
        )
    e.execute(e.ruleset.command({"action": "begin"}))
    return e


# Each ruleset's fight as it stands after its first steps, without the history around it.
FIGHTS: dict[str, Callable[[Fracas], Encounter]] = {
    "percentile": percentile,
    "shotclock": shotclock,
    "pool": pool,
    "timeslice": timeslice,
    "fudge": fudge,
    "srd": srd,
}
