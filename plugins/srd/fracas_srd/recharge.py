"""Recharge (srd-54): a monster's ability used once, then ready again only when a d6 at the
start of its turn shows its number or more."""

from fracas.rules.api import Context, Event, RefusedError, Rolled, Spent

from fracas_srd.events import Recharged
from fracas_srd.sheets import Spell
from fracas_srd.state import RECHARGE, Fighter


def used(caster: Fighter, spell: Spell) -> list[Event]:
    """Using it: refused while it waits for its d6; otherwise it now waits (and so does
    every ability recharged with it)."""
    if not spell.recharge:
        return []
    if waits_as(spell) in caster.recharging:
        raise RefusedError(
            f"{caster.name}'s {spell.name} is recharging (recharge {on(spell)}, rolled on a d6 "
            f"at the start of {caster.its} turn; srd-54)"
        )
    return [Spent(caster.id, RECHARGE, 1, waits_as(spell), ["srd-54"])]


def waits_as(spell: Spell) -> str:
    """What waits for the d6: the ability, or the several recharged as one."""
    return spell.recharged_as or spell.name


def on(spell: Spell) -> str:
    return "6" if spell.recharge == 6 else f"{spell.recharge}-6"


def recharges(ctx: Context, fighter: Fighter) -> list[Event]:
    """At the start of its turn, a d6 for each ability waiting: its number or more, ready."""
    events: list[Event] = []
    for name in fighter.recharging:
        spell = next(s for s in fighter.sheet.spells if waits_as(s) == name)
        purpose = f"recharge of {name} ({on(spell)})"
        roll = ctx.dice.roll("d6", purpose)
        ready = roll.total >= spell.recharge
        result = "recharged" if ready else "not yet"
        events.append(Rolled(fighter.id, purpose, roll, spell.recharge, [], result, ["srd-54"]))
        if ready:
            events.append(Recharged(fighter.id, name, f"{roll.total} on the d6", ["srd-54"]))
    return events
