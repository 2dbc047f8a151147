"""The clock's own event: a shot reached, and who acts on it."""

from fracas.rules.api import Event


class ShotReached(Event, tag="shot.reached"):
    sequence: int
    shot: int
    acting: list[str]
    rules: list[str] = []

    def describe(self) -> str:
        if not self.acting:
            return f"sequence {self.sequence}: nobody is left able to act"
        return f"sequence {self.sequence}, shot {self.shot}: {', '.join(self.acting)} to act"
