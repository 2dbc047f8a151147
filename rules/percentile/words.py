"""The table's words: how a sentence says each action, and which rules a roll's line cites."""

from fracas.rules.api import Event, Rolled

VERBS = {
    "attack": "attacks",
    "aim": "aims",
    "disarm": "tries to disarm",
    "pin": "tries to pin",
    "escape": "tries to escape",
    "move": "moves",
    "wait": "waits",
    "stand": "stands up",
    "ready": "readies",
    "other": "acts",
}


def facts(event: Event) -> frozenset[str]:
    """Mechanic 3's criticals and fumbles, as the test's result names them."""
    if isinstance(event, Rolled) and event.result in ("critical", "fumble"):
        return frozenset((event.result,))
    return frozenset()
