"""The events of this ruleset's own; everything else is fracas's core vocabulary."""

from fracas.rules.api import Event, and_list

DEATH_SAVE = "death save"  # the purpose of its roll, which starts a dying creature's turn


def hit_points(count: int, kind: str = "") -> str:
    """'1 hit point', '12 temporary hit points': a number of them, in the table's words."""
    kind = f"{kind} " if kind else ""
    return f"{count} {kind}hit point" + ("" if count == 1 else "s")


class TemporaryHitPoints(Event, tag="srd.temporary-hp"):
    """A creature's temporary hit points are now `amount` (srd-11)."""

    target: str
    amount: int
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target} has {hit_points(self.amount, 'temporary')}: {self.reason}"


class DeathSaves(Event, tag="srd.death-saves"):
    """A dying creature's death saves stand at these counts (srd-14, srd-15)."""

    target: str
    successes: int
    failures: int
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        if self.reason == "a success":  # the roll's line said it and its count (srd-14)
            return f"{self.target} has {self.failures} of 3 death save failures"
        if self.reason in ("a failure", "a natural 1: two failures"):
            return f"{self.target} has {self.successes} of 3 death save successes"
        counts = f"{self.successes} of 3 successes, {self.failures} of 3 failures"
        return f"{self.target}'s death saves: {counts} ({self.reason})"


class SlotsRestored(Event, tag="srd.slots-restored"):
    """Every spell slot of a caster is back (srd-50): a long rest."""

    target: str
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target}'s spell slots are restored: {self.reason}"


class UsesBack(Event, tag="srd.uses-back"):
    """Features used once a short or long rest are ready again (Second Wind)."""

    target: str
    what: list[str]
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target}'s {', '.join(self.what)} ready again: {self.reason}"


class Recharged(Event, tag="srd.recharged"):
    """A monster's used ability is ready again: its d6 at the start of its turn (srd-54)."""

    target: str
    what: str
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target}'s {self.what} is ready again: {self.reason}"


class Restored(Event, tag="srd.restored"):
    """A creature's numbers stand so: as it ended its last fight (the party), or after a
    long rest (srd-59): hit points, temporary ones, death saves, spent slots by level,
    spent Hit Dice, legendary resistances used and innate spells' uses a day."""

    target: str
    hp: int
    temp_hp: int
    successes: int
    failures: int
    slots_spent: list[int]
    hit_dice_spent: int
    resisted: int
    reason: str
    rules: list[str] = []
    used_today: dict[str, int] = {}  # innate spells of so many a day: times cast
    was: int | None = None  # the hit points it had before, said where they differ

    def describe(self) -> str:
        change = ""
        if self.was is not None and self.was != self.hp:
            change = f", {'down' if self.hp < self.was else 'up'} from {self.was}"
        return f"{self.target} stands at {hit_points(self.hp)}{change}: {self.reason}"


class ConcentrationOwed(Event, tag="srd.concentration-owed"):
    """The concentration saves a creature owes stand at these DCs (srd-26): damage by the
    GM's hand rolls no dice, so its save waits for the creature's `save con`."""

    target: str
    owed: list[int]
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target} {self.reason}"


class RollOpen(Event, tag="srd.roll-open"):
    """A creature's ability check or saving throw is open after its roll: an effect it
    holds for a roll of its choosing (guidance, srd-81; resistance, srd-82) may still be
    added to it, until the creature rolls again (`kept`: those effects; `fail`: the
    condition its failure set)."""

    target: str
    rolls: str  # "checks" or "saves"
    purpose: str
    total: int
    dc: int | None
    kept: list[str]
    fail: str = ""
    rules: list[str] = []

    def describe(self) -> str:
        said = {"checks": "ability check", "saves": "saving throw"}.get(self.rolls, "roll")
        kept = " or ".join(self.kept)
        stands = f"{self.total}" if self.dc is None else f"{self.total} vs {self.dc}"
        return f"{self.target} may still spend {kept} on this {said} ({stands})"


class LeftReach(Event, tag="srd.left-reach"):
    """A creature's move on its turn left the reach of these (`of`, ids): they alone may
    answer it with an opportunity attack (srd-18)."""

    target: str
    of: list[str]
    reason: str = ""
    rules: list[str] = []

    def describe(self) -> str:
        return f"{self.target} leaves the reach of {and_list(self.of)}"


class ShookOff(Event, tag="srd.shook-off"):
    """A creature that saved against an effect of `source`'s that says so (a dragon's
    Frightful Presence), or whose fright from it ended, is immune to it for 24 hours: for
    the rest of the fight."""

    target: str
    source: str
    effect: str
    reason: str
    rules: list[str] = []

    def describe(self) -> str:
        return (
            f"{self.target} is immune to {self.source}'s {self.effect} for 24 hours ({self.reason})"
        )
