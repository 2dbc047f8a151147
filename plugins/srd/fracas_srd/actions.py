"""The actions in combat (srd-5): attack, two-weapon fighting (srd-19), dash, disengage,
dodge, help, hide, search, use an object, stabilise (srd-16), grapple and shove (srd-20,
srd-21), escape, and standing up from prone (srd-27, in movement.py)."""

import msgspec
from fracas.rules.api import (
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    Spent,
    Until,
    and_list,
)

from fracas_srd.attacks import weapon_attack, weapon_of
from fracas_srd.checks import better_skill, passive_perception, skill_check
from fracas_srd.commands import (
    Attack,
    Dash,
    Disengage,
    Dodge,
    Escape,
    Grapple,
    Help,
    Hide,
    Offhand,
    Search,
    SecondWind,
    Shove,
    Stabilise,
    Use,
)
from fracas_srd.conditions import BREAK_FREE, unseen_by
from fracas_srd.damage import heal, stabilised, summed_roll
from fracas_srd.effects import moving_freely
from fracas_srd.movement import feet, held_at_0, speed_of
from fracas_srd.sheets import SIZES
from fracas_srd.state import MOVEMENT, REMOVED, REST_USE, Fighter, State
from fracas_srd.turn import (
    action,
    action_or_bonus,
    attacked_light,
    bonus_action,
    in_other_hand,
    not_light,
    one_attack,
    one_target,
    other_hand,
)

CONTEST = ("athletics", "acrobatics")


def spell_hold(actor: Fighter) -> str:
    """The condition a spell holds it by that an action's Strength check ends (entangle's
    restraint), or ""."""
    return next((c for c, d in actor.conditions.items() if d.get(BREAK_FREE)), "")


def break_free(ctx: Context, actor: Fighter, condition: str) -> list[Event]:
    """srd-69: its action, a Strength check against the spell's save DC; on a success the
    condition ends."""
    detail = actor.conditions[condition]
    events = action(actor, "escape")
    check = skill_check(ctx, events, actor, "str", int(detail[BREAK_FREE]), ["srd-69"])
    if check.success:
        why = f"breaks free of {detail.get('spell', condition)}"
        return [*events, ConditionCleared(actor.id, condition, why, ["srd-69"])]
    why = f"stays {condition}: {detail.get('spell', condition)} holds"
    return [*events, Resolved(actor.id, "escape", [], why, ["srd-69"])]


def lasting(edge: str, who: str, after: str | None = None) -> dict:
    """A duration to the `edge` of `who`'s next turn (after="": of this very turn, which
    its words say)."""
    if after is None:
        until = Until(edge=edge, of=who)
    else:
        until = Until(edge=edge, of=who, after=after, current=after == "")
    return {"until": msgspec.to_builtins(until)}


def attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    target = one_target(state, command)
    weapon = weapon_of(actor, command.weapon)
    return one_attack(actor) + weapon_attack(state, ctx, actor, target, weapon, command, "attack")


def offhand(state: State, actor: Fighter, command: Offhand, ctx: Context) -> list[Event]:
    """srd-19: after the Attack action with a light melee weapon, a different one in the other
    hand (without -w, the sheet's first that may be)."""
    weapon = weapon_of(actor, command.weapon or next(iter(other_hand(actor)), ""))
    if weapon.ranged or not weapon.light:
        raise RefusedError(f"{weapon.name} is not a light melee weapon (srd-19)")
    if actor.action != "attack":
        raise RefusedError(f"{actor.name} must take the Attack action first (srd-19)")
    if not attacked_light(actor):
        raise RefusedError(
            "two-weapon fighting needs a light melee weapon in the Attack action; "
            f"{not_light(actor)} (srd-19)"
        )
    if not in_other_hand(actor, weapon.name):
        raise RefusedError(same_weapon(actor, weapon.name))
    target = one_target(state, command)
    events = bonus_action(actor, "off-hand attack")
    return events + weapon_attack(state, ctx, actor, target, weapon, command, "offhand", True)


def same_weapon(actor: Fighter, name: str) -> str:
    """The refusal of an off-hand attack with the one weapon the Attack action was made with."""
    others = other_hand(actor)
    if others:
        weapon = others[0]
        flag = f"'{weapon}'" if " " in weapon else weapon
        what = f"make it with the {weapon} (-w {flag})"
    else:
        what = f"{actor.its} sheet lists no other light melee weapon"
    return (
        "two-weapon fighting needs a different light melee weapon in the other hand: "
        f"{actor.name} made {actor.its} Attack action with {actor.its} one {name}; {what} "
        "(srd-19)"
    )


def dash(state: State, actor: Fighter, command: Dash, ctx: Context) -> list[Event]:
    speed = speed_of(actor)
    if not speed:
        raise RefusedError(
            f"{actor.name} is {held_at_0(actor)}: speed 0, a Dash gains nothing (srd-27)"
        )
    events = action_or_bonus(actor, "dash", command.bonus)
    more = f"moves up to {feet(speed)} more"
    if aggressive := toward_foe(actor, events):
        foe_in_sight(state, actor, aggressive)
        more += f" toward a hostile creature {actor.it} can see ({aggressive})"
    return [*events, Resolved(actor.id, "dash", [], more, ["srd-5", "srd-52"])]


def toward_foe(actor: Fighter, events: list[Event]) -> str:
    """The feature whose bonus action this dash is, where it moves only toward a foe (an
    orc's Aggressive, srd-60), or ""."""
    spent = [e.reason for e in events if isinstance(e, Spent) and e.resource == "bonus action"]
    features = [f.name for f in actor.sheet.features if f.toward_foe]
    return next((name for name in features for said in spent if said == f"dash ({name})"), "")


def foe_in_sight(state: State, actor: Fighter, feature: str) -> None:
    """srd-60: a move toward a hostile creature it can see (an orc's Aggressive): refused
    when no foe in the fight is one it can see (blinded, or every foe hidden from it)."""
    foes = [f for f in state.fighters.values()
            if actor.hostile_to(f) and not f.dead and not f.has(REMOVED)]  # fmt: skip
    if not any(not unseen_by(actor, foe) for foe in foes):
        why = unseen_by(actor, foes[0]) if foes else "no foe is in the fight"
        raise RefusedError(
            f"{feature} moves {actor.name} toward a hostile creature {actor.it} can see, and "
            f"{actor.it} sees none ({why}); a Dash as {actor.its} action moves {actor.it} "
            "anywhere (srd-60)"
        )


def disengage(state: State, actor: Fighter, command: Disengage, ctx: Context) -> list[Event]:
    detail = lasting("end", actor.id, after="")  # the end of this very turn
    set_ = ConditionSet(actor.id, "disengaged", "", detail, ["srd-5", "srd-18"])
    return [*action_or_bonus(actor, "disengage", command.bonus), set_]


def dodge(state: State, actor: Fighter, command: Dodge, ctx: Context) -> list[Event]:
    set_ = ConditionSet(actor.id, "dodging", "", lasting("start", actor.id), ["srd-5"])
    return [*action(actor, "dodge"), set_]


def help_(state: State, actor: Fighter, command: Help, ctx: Context) -> list[Event]:
    """srd-5: the ally's next attack on the named creature, before the helper's next turn."""
    ally = one_target(state, command)
    against = state.fighter(command.against) if command.against else None
    detail = {"by": actor.id, "by_name": actor.name, **lasting("start", actor.id)}
    if against is not None:
        detail["against"] = against.id
    why = f"{actor.name} helps" + (f" against {against.name}" if against else "")
    return [*action(actor, "help"), ConditionSet(ally.id, "helped", why, detail, ["srd-5"])]


def hide(state: State, actor: Fighter, command: Hide, ctx: Context) -> list[Event]:
    """srd-5, srd-85: a Stealth check; a foe whose passive Perception meets it notices the
    creature, which is not hidden."""
    events = action_or_bonus(actor, "hide", command.bonus)
    check = skill_check(ctx, events, actor, "stealth", None, ["srd-5"])
    if (watcher := noticing(state, actor, check.total)) is not None:
        seen = passive_perception(watcher)
        why = f"not hidden: {watcher.name} notices (passive Perception {seen} vs {check.total})"
        return [*events, Resolved(actor.id, "hide", [], why, ["srd-85"])]
    detail = {"stealth": check.total}
    return [*events, ConditionSet(actor.id, "hidden", f"hides ({check.total})", detail, ["srd-5"])]


def noticing(state: State, actor: Fighter, stealth: int) -> Fighter | None:
    """The foe most alert to the creature hiding whose passive Perception meets its Stealth
    (srd-85), or None: a foe that is dead or incapacitated notices nothing."""
    foes = [
        f
        for f in state.fighters.values()
        if f.hostile_to(actor) and not f.dead and not f.incapacitated and not f.has(REMOVED)
    ]
    alert = max(foes, key=passive_perception, default=None)
    return alert if alert is not None and passive_perception(alert) >= stealth else None


def search(state: State, actor: Fighter, command: Search, ctx: Context) -> list[Event]:
    """srd-5: a Wisdom (Perception) check, or an Intelligence (Investigation) one as the GM
    says what is searched, finds every hidden foe whose Stealth it meets, and says whom it
    found (each is hidden no more), or that it found no one."""
    events = action(actor, "search")
    check = skill_check(ctx, events, actor, command.using, None, ["srd-5"])
    found, missed, cleared = [], [], []
    for foe in state.fighters.values():
        hidden = foe.conditions.get("hidden")
        if not foe.hostile_to(actor) or hidden is None:
            continue
        stealth = hidden.get("stealth", 0)
        (found if stealth <= check.total else missed).append(f"{foe.name} (Stealth {stealth})")
        if stealth <= check.total:
            why = f"found by {actor.name}"
            cleared.append(ConditionCleared(foe.id, "hidden", why, ["srd-5"]))
    said = f"{command.using.capitalize()} {check.total}: finds " + (
        and_list(found) if found else "no one"
    )
    if missed:
        stay = "stays" if len(missed) == 1 else "stay"
        said += f"; {and_list(missed)} {stay} hidden"
    elif not found:
        said += " hidden"
    return [*events, Resolved(actor.id, "search", [], said, ["srd-5"]), *cleared]


def second_wind(state: State, actor: Fighter, command: SecondWind, ctx: Context) -> list[Event]:
    """A feature that heals its bearer with a bonus action (Second Wind): its dice plus the
    character's level, once until a short or long rest (`fracas party rest short`). At
    full hit points it is spent all the same and heals 0: the rules do not forbid it."""
    feature = next((f for f in actor.sheet.features if f.heals), None)
    if feature is None:
        raise RefusedError(
            f"{actor.name} has no Second Wind on the sheet (a fighter's: [[features]] name = "
            '"second wind", heals = "1d10")'
        )
    if actor.used(feature.name):
        raise RefusedError(
            f"{actor.name} has used {feature.name}: a short or long rest gives it back "
            "(fracas party rest short)"
        )
    events = bonus_action(actor, feature.name)
    level = [Modifier(actor.sheet.level, "fighter level", "srd-12")] if actor.sheet.level else []
    roll = ctx.dice.roll(feature.heals, feature.name)
    amount = max(0, roll.total + sum(m.value for m in level))
    events.append(summed_roll(actor.id, feature.name, roll, level, ["srd-12"]))
    events.append(Spent(actor.id, REST_USE, 1, feature.name))
    return events + heal(actor, amount, feature.name, ("srd-12",))


def use(state: State, actor: Fighter, command: Use, ctx: Context) -> list[Event]:
    return [*action(actor, "use"), Resolved(actor.id, "use", [], f"uses {command.what}", ["srd-5"])]


def stabilise(state: State, actor: Fighter, command: Stabilise, ctx: Context) -> list[Event]:
    """srd-16: an action and a DC 10 Wisdom (Medicine) check."""
    target = one_target(state, command)
    if not target.has("dying"):
        raise RefusedError(f"{target.name} is not dying")
    events = action(actor, "stabilise")
    if skill_check(ctx, events, actor, "medicine", 10, ["srd-16"]).success:
        return events + stabilised(target, f"stabilised by {actor.name}", "srd-16")
    return [*events, Resolved(actor.id, "stabilise", [target.id], "fails", ["srd-16"])]


def contest(
    ctx: Context,
    events: list[Event],
    mover: Fighter,
    skill: str,
    resister: Fighter,
    resisted: str | None,
    rules: list[str],
    verb: str,
) -> bool:
    """srd-20: the one who tries must beat the other's check; a tie changes nothing. Each
    check says which it is: `verb` ("escape"), the mover's "to escape", the other's "against
    the escape" (a refusal for a die not typed names the one it wants)."""
    made = skill_check(ctx, events, mover, skill, None, rules, aim=f"to {verb}")
    resisting = resisted or better_skill(resister, CONTEST)
    held = skill_check(ctx, events, resister, resisting, None, rules, aim=f"against the {verb}")
    return made.total > held.total


def in_reach_of_size(actor: Fighter, target: Fighter, rule: str, verb: str) -> None:
    """srd-20, srd-21: a grapple or a shove takes a target at most one size larger; one
    larger is refused naming both sizes, the largest the actor can take, and what else."""
    own = SIZES.index(actor.sheet.size)
    if SIZES.index(target.sheet.size) - own > 1:
        raise RefusedError(
            f"{target.name} ({target.sheet.size}) is more than one size larger than "
            f"{actor.name} ({actor.sheet.size}) ({rule}): {actor.name} can {verb} a creature "
            f"of {SIZES[own + 1]} size or smaller; attack {target.them} instead"
        )


def check_free_hand(actor: Fighter, free: bool | None) -> None:
    """srd-20: a grapple takes at least one free hand. The sheet knows of a shield and the
    weapons, not which is in hand: a shield with a weapon fills both, unless the GM says a
    hand is free (the weapon dropped or stowed); the GM may say none is, too."""
    weapons = [w.name for w in actor.sheet.weapons]
    full = actor.sheet.holds_shield and weapons
    if free or (free is None and not full):
        return
    hands = f": {actor.its} shield and {weapons[0]} fill them" if full else ""
    none = f"{actor.name} has no free hand to grapple with{hands} (srd-20)"
    raise RefusedError(
        f"{none}; once a hand is free (a weapon dropped or stowed), say so: -o free_hand=true",
        player=f"{none}; drop or stow a weapon, and the GM marks a hand free",
    )


def grapple(state: State, actor: Fighter, command: Grapple, ctx: Context) -> list[Event]:
    target = one_target(state, command)
    in_reach_of_size(actor, target, "srd-20", "grapple")
    if target.immune_to("grappled"):
        raise RefusedError(f"{target.name} is immune to being grappled (srd-61)")
    events = one_attack(actor, "grapple", "srd-20")  # first: a spent action says more
    check_free_hand(actor, command.free_hand)
    if contest(ctx, events, actor, "athletics", target, command.defend_with, ["srd-20"], "grapple"):
        detail = {"by": actor.id}
        return [
            *events,
            ConditionSet(target.id, "grappled", f"by {actor.name}", detail, ["srd-20"]),
        ]
    return [*events, Resolved(actor.id, "grapple", [target.id], "fails to grapple", ["srd-20"])]


def shove(state: State, actor: Fighter, command: Shove, ctx: Context) -> list[Event]:
    target = one_target(state, command)
    in_reach_of_size(actor, target, "srd-21", "shove")
    if target.immune_to("prone") and not command.push:
        immune = f"{target.name} is immune to being knocked prone (srd-61): push it"
        raise RefusedError(f"{immune} (-o push=true)", player=immune)
    if target.has("prone") and not command.push:
        down = f"{target.name} is already prone (srd-21): push it"
        raise RefusedError(f"{down} (-o push=true)", player=down)
    events = one_attack(actor, "shove", "srd-21")
    rules = ["srd-21"]
    if not contest(ctx, events, actor, "athletics", target, command.defend_with, rules, "shove"):
        return [*events, Resolved(actor.id, "shove", [target.id], "fails to shove", ["srd-21"])]
    if command.push:
        return [*events, Resolved(actor.id, "shove", [target.id], "pushes 5 feet away", ["srd-21"])]
    return [*events, ConditionSet(target.id, "prone", f"shoved by {actor.name}", {}, ["srd-21"])]


def escape(state: State, actor: Fighter, command: Escape, ctx: Context) -> list[Event]:
    held = actor.conditions.get("grappled")
    if held is None and (bound := spell_hold(actor)):
        return break_free(ctx, actor, bound)
    if held is None:
        raise RefusedError(
            f"{actor.name} is not grappled, nor held by a spell it can break free of"
        )
    if freedom := moving_freely(actor):  # srd-80: 5 feet of movement, no action, no check
        why = f"slips the grapple by {freedom}, for 5 feet of movement"
        return [
            Spent(actor.id, MOVEMENT, 5, why, ["srd-80"]),
            ConditionCleared(actor.id, "grappled", why, ["srd-80"]),
        ]
    events = action(actor, "escape")
    grappler = state.fighters.get(held.get("by", ""))
    if grappler is None:  # grappled by the GM's ruling: the GM clears it
        raise RefusedError(f"{actor.name} was grappled by a ruling; the GM clears it")
    skill = command.using or better_skill(actor, CONTEST)
    if held.get("escape"):  # a monster's stated escape DC (a roper's tendril: 15)
        freed = skill_check(ctx, events, actor, skill, int(held["escape"]), ["srd-20"]).success
    else:
        freed = contest(ctx, events, actor, skill, grappler, "athletics", ["srd-20"], "escape")
    if freed:
        return [*events, ConditionCleared(actor.id, "grappled", "breaks free", ["srd-20"])]
    return [*events, Resolved(actor.id, "escape", [grappler.id], "stays grappled", ["srd-20"])]
