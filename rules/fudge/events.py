"""Events of its own: what 4dF records beyond fracas's core events."""

from typing import Literal

from fracas.rules.api import Event


class PhaseStarted(Event, tag="phase.started"):
    """003-29: declaring runs lowest to highest initiative; resolving highest to lowest."""

    turn: int
    phase: Literal["declaring", "resolving", "resolved"]
    order: list[str]
    rules: list[str] = []

    def describe(self) -> str:
        if self.phase == "resolved":
            return f"turn {self.turn}: every declared action is resolved"
        return f"turn {self.turn}: {self.phase} ({', '.join(self.order) or 'nobody'})"


class Withdrawn(Event, tag="declaration.withdrawn"):
    actor: str
    reason: str

    def describe(self) -> str:
        return f"{self.actor} withdraws their declarations: {self.reason}"
