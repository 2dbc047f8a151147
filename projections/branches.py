"""A what-if branch told as the table reads it: which outcomes differ, step by step and at
the end, and which later commands are no longer legal."""

import msgspec

from fracas.projections.board import shown_names
from fracas.projections.describe import event_lines
from fracas.rules.redecide import Branch, outcome, same_events
from fracas.rules.ruleset import Ruleset
from fracas.rules.views import View


class StepDiff(msgspec.Struct, frozen=True):
    step: int
    status: str  # "same", "changed", "no longer legal", or "kept" (a note, a reveal)
    was: list[str]
    now: list[str]
    refused: str = ""


class StandingDiff(msgspec.Struct, frozen=True):
    combatant: str
    name: str
    was: str
    now: str


class WhatIf(msgspec.Struct, frozen=True):
    encounter: str
    from_step: int
    steps: list[StepDiff]
    standings: list[StandingDiff]
    superseded: list[int]
    changed: bool


def standing(view: View) -> dict[str, tuple[str, str]]:
    """Each combatant's name, and health and conditions (pins included) in one line."""
    return {
        w.combatant: (
            w.name,
            "; ".join(part for part in (w.health, ", ".join(w.conditions)) if part),
        )
        for w in view.wounds
    }


def step_diff(step, ruleset: Ruleset, names: dict[str, str]) -> StepDiff:
    """A step's outcome as recorded and as decided now, each line as the log prints it,
    combatants by name and the dice's source in plain words ("the server's dice")."""

    def lines(events) -> list[str]:
        reads = ruleset.reads_rolls
        spent = ruleset.spent_words
        kept = {id(e) for e in outcome(events)}  # each line said with its step's command
        said = event_lines(
            events, ruleset.round_word, reads, names, True, spent, ruleset.healed_words,
            verb=ruleset.verbs.get, step_verb=ruleset.step_verb_of,
        )
        return [line for e, line in zip(events, said, strict=True) if id(e) in kept]

    was = lines(step.recorded)
    if not step.decision:
        return StepDiff(step.step, "kept", was, was)
    if step.decided is None:
        return StepDiff(step.step, "no longer legal", was, [], step.refused)
    now = lines(step.decided)
    same = same_events(outcome(step.decided), outcome(step.recorded))
    return StepDiff(step.step, "same" if same else "changed", was, now)


def compare(branch: Branch, ruleset: Ruleset) -> WhatIf:
    main_view, alt_view = ruleset.view(branch.main), ruleset.view(branch.state)
    main, alt = standing(main_view), standing(alt_view)
    names = {**shown_names(alt_view), **shown_names(main_view)}
    standings = [
        StandingDiff(who, name, was, alt.get(who, (name, "absent"))[1])
        for who, (name, was) in main.items()
        if alt.get(who, (name, "absent"))[1] != was
    ]
    return WhatIf(
        branch.encounter,
        branch.from_step,
        [step_diff(s, ruleset, names) for s in branch.steps],
        standings,
        branch.superseded,
        branch.changed,
    )
