"""The table's words: how a sentence says each action, the headline and the numbers a wound
shows."""

from typing import Any

from fracas.rules.api import View, WoundRow

VERBS = {
    "attack": "attacks",
    "run": "runs",
    "other": "acts",
    "continuous": "keeps at a continuous action",
    "stop": "stops",
}


def headline(view: View) -> str:
    """The shot the sequence has reached: "shot 12"."""
    _, shot, number = view.phase.rpartition(", shot ")
    return f"shot {number}" if shot else ""


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    detail = wound.detail
    return {"Next shot": detail.get("next_shot", 0), "Init": detail.get("initiative", 0)}


def healed_words(amount: int) -> str:
    """Wound points taken away by healing: "is healed of 1 wound point"."""
    return f"is healed of {amount} wound point{'' if amount == 1 else 's'}"
