"""Random percentile fights for the property tests: three people, hypothesis strategies for
their moves and dice, a fight begun in memory or on a log, one move played, and the
snapshot table read and emptied."""

import contextlib
from typing import Any

from hypothesis import strategies as st

from fracas.ledger import FracasError
from fracas.projections import Fracas
from fracas.rules import Encounter
from fracas.rules.redecide import adopt, whatif
from tests.support import KNIFE, gunner, sheet

PEOPLE = ["alice", "bob", "carol"]


SHEETS = {
    "alice": gunner(),
    "bob": sheet(12, str=14, skills={"melee weapons": 50}, weapons=[KNIFE], holding=["knife"]),
    "carol": sheet(12, skills={"unarmed combat": 55, "dodge": 50}),
}


person = st.sampled_from(PEOPLE)


actor = st.sampled_from(["@turn", "@turn", "@turn", *PEOPLE])  # mostly whoever's turn it is


defence = st.dictionaries(person, st.sampled_from(["dodge", "fight-back"]), max_size=1)


actions = st.one_of(
    st.builds(lambda: {"action": "next"}),
    st.builds(
        lambda a, t, w, c, d: {
            "action": "attack",
            "actor": a,
            "targets": [t],
            "weapon": w,
            "called": c,
            "defence": d,
        },
        actor,
        person,
        st.sampled_from(["pistol", "knife", "unarmed"]),
        st.sampled_from(["none", "partly", "mostly"]),
        defence,
    ),
    st.builds(lambda a: {"action": "aim", "actor": a}, actor),
    st.builds(
        lambda a, p, f, c: {"action": "move", "actor": a, "pace": p, "footing": f, "cover": c},
        actor,
        st.sampled_from(["jog", "run", "sprint"]),
        st.booleans(),
        st.none() | st.integers(0, 5),
    ),
    st.builds(
        lambda a, t, d: {"action": "pin", "actor": a, "targets": [t], "defence": d},
        actor,
        person,
        defence,
    ),
    st.builds(lambda a: {"action": "escape", "actor": a}, actor),
    st.builds(lambda a, t: {"action": "disarm", "actor": a, "targets": [t]}, actor, person),
    st.builds(lambda a: {"action": "wait", "actor": a}, actor),
    st.builds(lambda a: {"action": "stand", "actor": a}, actor),
    st.builds(lambda a: {"action": "other", "actor": a, "what": "reload"}, actor),
    st.just({"action": "undo"}),
    st.just({"action": "redo"}),
)


dice = st.sampled_from([None, None, None]) | st.lists(st.integers(1, 100), max_size=5)


def start() -> tuple[Fracas, Encounter]:
    fracas = Fracas(":memory:")
    encounter = fracas.new("percentile", title="property")
    for name in PEOPLE:
        encounter.execute(
            encounter.ruleset.command({"action": "join", "combatant": name, "sheet": SHEETS[name]})
        )
    encounter.execute(encounter.ruleset.command({"action": "begin"}))
    return fracas, encounter


def play(encounter: Encounter, command: dict[str, Any], faces: list[int] | None) -> int:
    """Run one command; returns how many events it appended (0 when refused)."""
    if command["action"] == "undo":
        encounter.undo()
        return 1
    if command["action"] == "redo":
        encounter.redo()
        return 1
    if command.get("actor") == "@turn":
        command = {**command, "actor": encounter.state.turn or "alice"}
    return len(encounter.execute(encounter.ruleset.command(command), dice=faces).events)


def drop_all(store: Any) -> None:
    store.conn.execute("DELETE FROM snapshots")


def snapshot_rows(store: Any) -> list[tuple]:
    return list(store.conn.execute("SELECT encounter, version, body FROM snapshots"))


def adopt_whatif(encounter: Encounter, step: int, faces: list[int]) -> None:
    with contextlib.suppress(FracasError):
        adopt(encounter, whatif(encounter, step, dice=faces))


def long_fight(fracas: Fracas, attacks: int = 20) -> Encounter:
    _, encounter = start_on(fracas)
    for n in range(attacks):
        actor = encounter.state.turn or "alice"
        target = "carol" if actor != "carol" else "alice"
        command = {"action": "attack", "actor": actor, "targets": [target], "weapon": "unarmed"}
        play(encounter, command, None)
        if n % 7 == 3:
            encounter.undo()
    return encounter


def start_on(fracas: Fracas) -> tuple[Fracas, Encounter]:
    encounter = fracas.new("percentile", title="snapshots")
    for name in PEOPLE:
        sheet = {**SHEETS[name], "hp": 10**6}
        encounter.execute(
            encounter.ruleset.command({"action": "join", "combatant": name, "sheet": sheet})
        )
    encounter.execute(encounter.ruleset.command({"action": "begin"}))
    return fracas, encounter
