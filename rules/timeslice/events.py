"""Events of its own: what the time slices record beyond fracas's core events."""

from fracas.rules.api import Event


class RoundStarted(Event, tag="round.started"):
    """002-2: every combatant's TS back to their maximum; game time moves on."""

    round: int
    clock: int
    ts: dict[str, int]
    reason: str = ""
    rules: list[str] = []

    def describe(self) -> str:
        refills = ", ".join(f"{who} {ts} TS" for who, ts in self.ts.items())
        return f"round {self.round} at {clock_text(self.clock)}: {refills}; {self.reason}".rstrip(
            "; "
        )


class StaggerChanged(Event, tag="stagger.changed"):
    target: str
    points: int
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target} stagger {self.points}: {self.reason} [{', '.join(self.rules)}]"


def clock_text(seconds: int) -> str:
    sign = "-" if seconds < 0 else ""
    return f"{sign}{abs(seconds) // 60}:{abs(seconds) % 60:02d}"
