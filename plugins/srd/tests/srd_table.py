"""A table for the rules tests: the decider played in memory, with the faces of every die
typed in, as the public API offers it (no store, no CLI)."""

import tomllib
from importlib import resources
from typing import Any

import msgspec
from fracas.rules.api import (
    Context,
    EncounterStarted,
    Event,
    Roll,
    Rolled,
    kept_of,
    parse_terms,
    roster,
    total_of,
)

from fracas_srd.ruleset import RULESET


def sample(name: str, **changed: Any) -> dict[str, Any]:
    """A sample sheet as `fracas add --sheet` reads it (a spell named alone filled in)."""
    text = resources.files("fracas_srd").joinpath(f"samples/{name}.toml").read_text()
    read, _unplayed = RULESET.imported(tomllib.loads(text))
    read = {k: v for k, v in read.items() if k not in ("name", "side")}  # (who it is: `add`'s)
    return {**read, **changed}


class Faces:
    """Typed faces, handed out in the order the rules roll; `left` must end empty."""

    def __init__(self, faces: list[int]) -> None:
        self.left = list(faces)
        self.asked: list[str] = []

    def roll(self, spec: str, purpose: str) -> Roll:
        terms = parse_terms(spec)
        count = sum(t.count for t in terms)
        if len(self.left) < count:
            raise AssertionError(f"no faces left for {spec} ({purpose}); asked: {self.asked}")
        faces, self.left = self.left[:count], self.left[count:]
        values = {v for t in terms for v in t.values}
        assert all(f in values for f in faces), f"{faces} are not faces of {spec} ({purpose})"
        self.asked.append(f"{spec} {purpose}")
        roll = Roll(spec, faces, total_of(spec, faces), "manual", "test")
        kept = kept_of(spec, faces)
        return roll if kept is None else msgspec.structs.replace(roll, kept=kept)


class Middling:
    """Every die at its middle face (a d20 at 11, a d6 at 4): for tests that need the
    rules to run, not particular numbers."""

    def roll(self, spec: str, purpose: str) -> Roll:
        faces = [t.values[len(t.values) // 2] for t in parse_terms(spec) for _ in range(t.count)]
        roll = Roll(spec, faces, total_of(spec, faces), "manual", "test")
        kept = kept_of(spec, faces)
        return roll if kept is None else msgspec.structs.replace(roll, kept=kept)


class Table:
    def __init__(self, **options: Any) -> None:
        self.state = RULESET.initial()
        self.log: list[Event] = []
        self.step = 0
        self.apply([EncounterStarted("srd", "test", options, "0" * 64)])

    def apply(self, events: list[Event]) -> list[Event]:
        self.state = roster.fold(RULESET.evolve, self.state, events)
        self.log += events
        return events

    def do(self, data: dict[str, Any], *faces: int) -> list[Event]:
        """One command, as the CLI gives it, with these faces; every one must be used."""
        dice = Faces(list(faces))
        events = self.decide(data, dice)
        assert not dice.left, f"faces left over: {dice.left}; asked: {dice.asked}"
        return self.apply(events)

    def decide(self, data: dict[str, Any], dice: Any) -> list[Event]:
        self.step += 1
        command = RULESET.command(data)
        return RULESET.decide_step(self.state, command, Context(dice, self.step))

    def join(self, who: str, sheet: dict[str, Any], side: str = "npc") -> None:
        self.do({"action": "join", "combatant": who, "sheet": sheet, "side": side})

    def act(
        self, actor: str, action: str, *targets: str, faces: tuple = (), **fields: Any
    ) -> list[Event]:
        aimed = {"targets": list(targets)} if targets else {}
        return self.do({"action": action, "actor": actor, **aimed, **fields}, *faces)

    def next(self, *faces: int) -> list[Event]:
        return self.do({"action": "next"}, *faces)

    def who(self, fighter: str):
        return self.state.fighters[fighter]

    @property
    def turn(self) -> str | None:
        return self.state.turn


def condition(table: Table, who: str, name: str, **duration: Any) -> None:
    """The GM sets a condition by hand (`fracas condition set`)."""
    table.do({"action": "gm.condition-set", "target": who, "condition": name, **duration})


def rolls(events: list[Event]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled)]


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def fight(*cast: tuple[str, str], begin: bool = True, **options: Any) -> Table:
    """Combatants (id, sample sheet) who act in the order given: the first is a PC, the
    rest NPCs, unless the id starts with "pc-"; initiative faces 20, 16, 12, 8, 4."""
    table = Table(**options)
    for number, (who, sheet) in enumerate(cast):
        side = "pc" if number == 0 or who.startswith("pc-") else "npc"
        table.join(who, sample(sheet), side)
    if begin:
        table.do({"action": "begin"}, *[20 - 4 * i for i in range(len(cast))])
    return table
