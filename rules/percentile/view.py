"""The view the table sees: the DEX order, hit points and conditions."""

from typing import Any

from msgspec.structs import replace

from fracas.rules.api import (
    ConditionCleared,
    Event,
    InitiativeRow,
    PinRow,
    RefusedError,
    View,
    WoundRow,
    gm,
)

from .attacks import HP_LINES, harm_consequences
from .evolve import fold
from .state import Fighter, State
from .turn import aim_is_live, still_acts_this_round, waiting_is_live

# How a defence reads on the board, after "defending"; the kind is the rules' token.
DEFENDING = {
    "dodge": "by dodging",
    "fight-back": "by fighting back",
    "block": "by parrying and blocking",
    "escape": "with the escape roll",
}


def live_conditions(state: State, fighter: Fighter) -> list[str]:
    shown = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "aiming" and not (aim_is_live(state, fighter) or detail["round"] == state.round):
            continue
        if name == "waiting" and not waiting_is_live(state, fighter):
            continue
        if (
            name == "defending"
            and detail.get("kind") != "escape"
            and detail["round"] != state.round
        ):
            continue
        if name == "forfeit" and detail["round"] < state.round:
            continue
        if name == "pinned":
            name = f"pinned by {state.fighters[detail['by']].name}"
        if name == "cover":
            name = f"cover (armor {detail['armor']})"
        if name == "defending":
            name = f"defending {DEFENDING[detail['kind']]} (rolled {detail['face']})"
        shown.append(name)
    return shown


def status_of(state: State, fighter: Fighter) -> str:
    if fighter.has("dead"):
        return "dead"
    if fighter.has("unconscious"):
        return "unconscious"
    if state.turn == fighter.id:
        return "acting"
    if waiting_is_live(state, fighter):
        return "waiting"
    if state.round and fighter.acted_round >= state.round:
        return "done"
    return "to act" if state.round else "ready"


def view(state: State) -> View:
    order = state.order()
    acting = [f.id for f in order if state.turn == f.id or waiting_is_live(state, f)]
    initiative = [
        InitiativeRow(f.id, f.name, i, f"DEX {f.sheet.dex}", f.id in acting, status_of(state, f))
        for i, f in enumerate(order, start=1)
    ]
    wounds = [
        WoundRow(
            f.id,
            f.name,
            f.side,
            f"HP {f.hp}/{f.hp_max}",
            live_conditions(state, f),
            {"hp": f.hp, "hp_max": f.hp_max, "armor": f.sheet.armor, "holding": list(f.holding)},
            f.hp,
            f.hp_max,
            "HP",
        )
        for f in sorted(state.fighters.values(), key=lambda f: f.joined)
    ]
    pins = [
        PinRow(f.conditions["pinned"]["by"], f.id, "pinned")
        for f in state.fighters.values()
        if f.has("pinned")
    ]
    phase = "setup" if not state.round else ("over" if state.turn is None else "turn")
    return View(state.round, phase, acting, initiative, wounds, pins, upcoming=upcoming(state))


def upcoming(state: State) -> list[str]:
    """Who the DEX countdown gives the turn to after this one (000-2): those yet to act
    this round (not one whose defence spent the action), then the next round's order."""
    if state.turn is None:
        return []
    order = state.order()
    later = replace(state, round=state.round + 1)
    this_round = [f.id for f in order if f.id != state.turn and still_acts_this_round(state, f)]
    return this_round + [f.id for f in order if still_acts_this_round(later, f)]


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    events = gm.harmed(state, target, amount, reason)
    return events + harm_consequences(state, events)


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """HP back up to the maximum; above the unconscious line (000-M9) they wake."""
    fighter = state.fighter(target)
    if fighter.has("dead"):
        raise RefusedError(f"{fighter.name} is dead; clear the condition 'dead' first to rule")
    if fighter.hp >= fighter.hp_max:
        raise RefusedError(f"{fighter.name} is at full HP ({fighter.hp})")
    amount = min(amount, fighter.hp_max - fighter.hp)
    events = gm.healed(state, target, amount, reason)
    if fighter.has("unconscious") and fold(state, events).fighters[target].hp > (
        state.options.unconscious_at
    ):
        events.append(ConditionCleared(target, "unconscious", "healed above the line", [HP_LINES]))
    return events


TRACKED = frozenset(
    ("aiming", "cover", "dead", "defending", "forfeit", "pinned", "prone", "unconscious", "waiting")
)


def hp_lines_cited(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 cited 000-9 (the parry rule) for falling unconscious or dead, and for
    waking; the rule that says so is 000-M9."""
    if data.get("condition") in ("dead", "unconscious") and "000-9" in data.get("rules", []):
        data = {**data, "rules": [HP_LINES if r == "000-9" else r for r in data["rules"]]}
    return data


def damage_in_steps(data: dict[str, Any]) -> dict[str, Any]:
    """Encounters begun before schema 4 recorded damage by its steps alone ('+3 1d4
    rolled'), with no sum in the table's words; they keep that, so each step stays
    decided as it was recorded."""
    return {**data, "options": {"damage_words": "steps", **data.get("options", {})}}


def inhuman_penalties_ignored(data: dict[str, Any]) -> dict[str, Any]:
    """Encounters begun before schema 3 read 000-M2 as "every roll but 100 succeeds whatever
    the modifiers"; they keep that reading, so each step stays decided as it was recorded."""
    options = {"inhuman_penalties": "ignored", **data.get("options", {})}
    return {**data, "options": options}
