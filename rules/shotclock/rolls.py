"""Dice and checks (mechanics 1 and 2): open-ended dice and the action result."""

from fracas.rules.api import Context, Event, Modifier, Rolled, split_faces

from .state import Fighter


def check(
    ctx: Context,
    events: list[Event],
    actor: Fighter,
    purpose: str,
    spec: str,
    av: int,
    difficulty: int,
    modifiers: list[Modifier],
    rules: list[str],
    hit_on_zero: bool = True,
) -> int | None:
    """Action Result = dice + AV + modifiers; returns the Outcome, or None on a failure."""
    roll = ctx.dice.roll(spec, purpose)
    result = roll.total + av + sum(m.value for m in modifiers)
    outcome = result - difficulty
    success = outcome >= 0 if hit_on_zero else outcome > 0
    parts = split_faces(spec, roll.faces)
    boxcars = "!" in spec and len(parts) == 2 and parts[0][0] == 6 and parts[1][0] == 6
    verdict = f"AR {result}, outcome {outcome}: " + ("success" if success else "failure")
    if boxcars:
        verdict += "; BOXCARS: something unusual happens (GM's call)"
    all_modifiers = [Modifier(av, "action value", "001-M2"), *modifiers]
    events.append(
        Rolled(actor.id, purpose, roll, difficulty, all_modifiers, verdict, ["001-M1", *rules])
    )
    return outcome if success else None
