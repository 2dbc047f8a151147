"""What a combatant may do and when (srd-3, srd-4, srd-1, srd-27), and what each use of
its action, bonus action, reaction or attacks costs."""

from typing import NamedTuple

from fracas.rules.api import Event, RefusedError, Spent, and_list

from fracas_srd.castings import bonus_rule_broken
from fracas_srd.commands import Aimed, Targeted
from fracas_srd.effects import effects_on
from fracas_srd.movement import allowance, movement_left
from fracas_srd.recharge import waits_as
from fracas_srd.sheets import BonusForm, Feature, Spell, Weapon
from fracas_srd.slots import slots_left
from fracas_srd.state import INCAPACITATING, Fighter, State, check_begun

OFF_HAND = "off hand"  # of a turn's budget, as the view says it is spent (srd-19)
SECOND_WIND = "bonus second wind"  # of the budget: the phone offers Second Wind until spent
HELD_STILL = ("commanded to halt", "commanded to grovel")  # on its next turn (srd-75)

END_TURN = "End turn"  # the phone's button that ends a turn, where the CLI says `fracas next`


def mistaken_death(dead: Fighter) -> str:
    """How the GM takes back a death that was a mistake, as a refusal ends."""
    return f"if {dead.its} death was a mistake, `fracas undo` the step that killed {dead.them}"


def dead_actor(actor: Fighter) -> RefusedError:
    """The refusal of a dead creature's action or reaction, saying what to do instead."""
    dead = f"{actor.name} is dead: the dead take no actions or reactions"
    return RefusedError(
        f"{dead}; act with another creature, or {mistaken_death(actor)}",
        player=f"{dead}; the GM takes it back if the death was a mistake",
    )


def dead_target(target: Fighter, doing: str = "") -> RefusedError:
    """The refusal of a dead target (`doing`: what at it would do nothing), saying what to
    do instead: a living target, or the death taken back."""
    dead = f"{target.name} is dead{doing}"
    pick = "; pick" if doing else ": pick"
    return RefusedError(
        f"{dead}{pick} a living target, or {mistaken_death(target)}",
        player=f"{dead}{pick} a living target",
    )


def able(state: State, actor: Fighter) -> None:
    """srd-27: the incapacitated (and the dying and the dead) take no actions or reactions."""
    check_begun(state)
    if actor.dead:
        raise dead_actor(actor)
    if actor.incapacitated:
        raise RefusedError(f"{actor.name} is {down_as(actor)}: no actions or reactions (srd-27)")


def down_as(actor: Fighter) -> str:
    """What keeps an incapacitated creature from acting (srd-27): "unconscious", "dying"."""
    return next((c for c in (*INCAPACITATING, "dying", "stable") if actor.has(c)), "down")


def on_turn(state: State, actor: Fighter) -> None:
    able(state, actor)
    if state.turn != actor.id:
        current = state.fighters[state.turn].name if state.turn else "nobody"
        raise RefusedError(
            f"it is {current}'s turn, not {actor.name}'s (srd-2); out of turn a creature may "
            "only react (opportunity, react) or take a legendary action"
        )
    if actor.surprised:
        raise RefusedError(
            f"{actor.name} is surprised: no action on {actor.its} first turn (srd-1)"
        )
    held = next((c for c in HELD_STILL if actor.has(c)), "")
    if held:
        still = f"{actor.name} is {held}: it neither moves nor acts this turn"
        raise RefusedError(
            f"{still}; `fracas next` ends it (srd-75)", player=f"{still}; {END_TURN} ends it"
        )


def one_target(state: State, command: Targeted) -> Fighter:
    if len(command.targets) != 1:
        tag = command.__struct_config__.tag
        weapon = " -w WEAPON" if isinstance(command, Aimed) else ""
        raise RefusedError(
            f"{tag} takes exactly one target: `fracas act {command.actor} {tag} TARGET{weapon}`",
            player=f"{tag} takes exactly one target: pick one",
        )
    return state.fighter(command.targets[0])


class Budget(NamedTuple):
    """What of a creature's turn is left (srd-3, srd-4, srd-52): its action (`attacks`:
    those of its Attack action still to make, once it is taken), its bonus action (None:
    none taken and none its sheet gives it now), its reaction, and its feet of movement
    left of all it has this turn."""

    action: bool
    attacks: int
    bonus: bool | None
    reaction: bool
    feet: int
    of_feet: int


def budget(actor: Fighter) -> Budget:
    attacks = actor.sheet.attacks - actor.attacks if actor.action == "attack" else 0
    bonus = None if not actor.bonus and not bonus_open(actor) else not actor.bonus
    return Budget(
        not actor.action,
        attacks,
        bonus,
        not actor.reaction,
        movement_left(actor),
        allowance(actor),
    )


def left_this_turn(actor: Fighter, player: bool = False) -> str:
    """What a creature may still do this turn, as a refusal ends: "left this turn: a bonus
    action, its reaction, 30 feet of movement, or `fracas next` to end the turn" (`player`:
    the phone's button, End turn, for the command)."""
    ends = END_TURN if player else "`fracas next`"
    left_now = budget(actor)
    left = [
        *([f"{actor.its} action"] if left_now.action else []),
        *(["a bonus action"] if left_now.bonus else []),
        *([f"{actor.its} reaction"] if left_now.reaction else []),
        *([f"{left_now.feet} feet of movement"] if left_now.feet else []),
    ]
    if not left:
        return f"nothing is left this turn: {ends} ends it"
    return f"left this turn: {', '.join(left)}, or {ends} to end the turn"


def turn_parts(actor: Fighter) -> list[tuple[str, bool]]:
    """What is left of its turn as a phone's line says it, each part and whether it is
    used: "Action", "Bonus action", "20 ft of 30 ft to move" (its reaction is another's
    turn's)."""
    left = budget(actor)
    more = "1 more attack" if left.attacks == 1 else f"{left.attacks} more attacks"
    parts = [(f"Action: {more}", False) if left.attacks else ("Action", not left.action)]
    if left.bonus is not None:
        parts.append(("Bonus action", not left.bonus))
    if left.of_feet and not left.feet:
        parts.append(("Movement", True))
    elif left.of_feet:
        parts.append((f"{left.feet} ft of {left.of_feet} ft to move", False))
    else:
        parts.append(("No movement (speed 0)", False))
    return parts


def bonus_open(actor: Fighter) -> bool:
    """Whether its sheet gives it a bonus action it can take now: a feature's bonus-action
    form (srd-60), an off-hand attack with a light melee weapon while the Attack action is
    still to take or taken (srd-19), a Second Wind it can take (`heals_now`), or a
    bonus-action spell or ability it can use."""
    sheet = actor.sheet
    features = any(f.bonus_actions for f in sheet.features)
    return (
        offhand_open(actor)
        or features
        or heals_now(actor)
        or any(usable(actor, s) for s in sheet.spells if s.casting == "bonus")
    )


def healing_feature(actor: Fighter) -> Feature | None:
    """The sheet's feature that heals its bearer with a bonus action (a fighter's Second
    Wind), while it is not used since the last short or long rest; None: none left."""
    feature = next((f for f in actor.sheet.features if f.heals), None)
    return feature if feature is not None and not actor.used(feature.name) else None


def heals_now(actor: Fighter) -> bool:
    """Whether its Second Wind would heal it: the feature unused, and hit points to regain."""
    return healing_feature(actor) is not None and actor.hp < actor.hp_max


def second_wind_open(actor: Fighter) -> bool:
    """Whether it may take its Second Wind now: the bonus action left too."""
    return not actor.bonus and heals_now(actor)


def light_melee(weapon: Weapon) -> bool:
    return weapon.light and not weapon.ranged


def attacked_light(actor: Fighter) -> bool:
    """srd-19: whether an attack of its Attack action this turn was with a light melee
    weapon."""
    return any(light_melee(actor.sheet.wielded(name)) for name in actor.attacked_with)


def in_other_hand(actor: Fighter, name: str) -> bool:
    """srd-19: whether the weapon named may be the other hand's: not the one its Attack action
    was made with, unless the sheet lists two of it, or that action used another light one."""
    used = {n.lower() for n in actor.attacked_with if light_melee(actor.sheet.wielded(n))}
    held = sum(1 for w in actor.sheet.weapons if w.name.lower() == name.lower())
    return name.lower() not in used or held >= 2 or len(used) > 1


def other_hand(actor: Fighter) -> list[str]:
    """srd-19: the light melee weapons of its sheet an off-hand attack may be made with now."""
    names = dict.fromkeys(w.name for w in actor.sheet.weapons if light_melee(w))
    return [name for name in names if in_other_hand(actor, name)]


def offhand_open(actor: Fighter) -> bool:
    """srd-19: whether an off-hand attack can still come this turn: it has a light melee
    weapon, its bonus action is left, and its Attack action is still to take, or was
    taken with a light melee weapon, or has an attack left that may be."""
    if actor.bonus or not any(light_melee(w) for w in actor.sheet.weapons):
        return False
    if actor.action != "attack":
        return not actor.action
    return (attacked_light(actor) and bool(other_hand(actor))) or (
        actor.attacks < actor.sheet.attacks
    )


def offhand_now(actor: Fighter) -> bool:
    """srd-19: whether the off-hand attack may be made now: its bonus action is left and
    it has taken the Attack action with a light melee weapon this turn (what a phone
    offers; `offhand_open` also counts one that may still come)."""
    attacked = actor.action == "attack" and attacked_light(actor)
    return not actor.bonus and attacked and bool(other_hand(actor))


def not_light(actor: Fighter) -> str:
    """What its Attack action was made with, for the refusal of an off-hand attack."""
    names = [f"{'an' if n[:1] in 'aeiou' else 'a'} {n}" for n in dict.fromkeys(actor.attacked_with)]
    if not names:
        return f"{actor.name} made no weapon attack in it"
    return f"{actor.name} attacked with {and_list(names)}"


def usable(actor: Fighter, spell: Spell) -> bool:
    """Whether a spell or ability could be used now for what it costs: not recharging
    (srd-54), an innate one's uses a day left, a slot of its level or higher left (srd-50),
    and a spell within the bonus-action rule (srd-3)."""
    if spell.recharge and waits_as(spell) in actor.recharging:
        return False
    if spell.innate:
        return not spell.per_day or actor.used(spell.name) < spell.per_day
    if not actor.sheet.casts(spell):  # a monster's own ability: its bonus action only
        return True
    slots = range(spell.level, len(actor.sheet.slots) + 1) if spell.level else ()
    has_slot = not spell.level or any(slots_left(actor, n) for n in slots)
    return has_slot and not bonus_rule_broken(actor, spell)


def action(actor: Fighter, name: str, doing: str = "") -> list[Event]:
    """srd-3: one action a turn. `doing`: what the refused one would do, where its name
    alone says too little ("casting magic missile")."""
    if actor.action:
        taken = (
            f"{actor.name} has already taken {actor.its} action this turn ({actor.action}), and "
            f"{doing or name} takes an action (srd-3)"
        )
        raise RefusedError(
            f"{taken}; {left_this_turn(actor)}", player=f"{taken}; {left_this_turn(actor, True)}"
        )
    return [Spent(actor.id, "action", 1, name, ["srd-3"])]


def one_attack(actor: Fighter, special: str = "", rule: str = "") -> list[Event]:
    """One attack of the Attack action: the action the first time, then the rest of its
    attacks (a sheet's `attacks`, for Extra Attack). `special`: a special melee attack made
    in place of one ("grapple", "shove"; its `rule`), as its refusals name it."""
    total = actor.sheet.attacks
    taking = f", and a {special} takes the place of one ({rule}, srd-3)" if special else ""
    if actor.action == "attack" and actor.attacks < total:
        return [Spent(actor.id, "attack", 1, nth_attack(actor, actor.attacks + 1), ["srd-3"])]
    if actor.action == "attack":
        made = "the only attack" if total == 1 else f"all {total} attacks"
        done = f"{actor.name} has made {made} of {actor.its} Attack action"
        way_on = instead(actor) or f"{taking or ' (srd-3)'}; {left_this_turn(actor)}"
        on = instead(actor, True) or f"{taking or ' (srd-3)'}; {left_this_turn(actor, True)}"
        raise RefusedError(f"{done}{way_on}", player=f"{done}{on}")
    doing = f"a {special}, one attack of the Attack action," if special else ""
    return [
        *action(actor, "attack", doing),
        Spent(actor.id, "attack", 1, nth_attack(actor, 1), ["srd-3"]),
    ]


def instead(actor: Fighter, player: bool = False) -> str:
    """srd-29: where a monster's Multiattack would have given it more attacks (`player`:
    as a phone says it, the button to tap)."""
    listed = actor.sheet.multiattack
    if not listed:
        return ""
    attacks = f"{', '.join(listed[:-1])} and {listed[-1]}" if len(listed) > 1 else listed[0]
    said = f"; its Multiattack ({attacks}) is one action, taken instead of Attack on its next turn"
    if player:
        return f"{said}: tap Multiattack then"
    return f"{said}: `fracas act {actor.id} multiattack TARGET` (or a target for each attack)"


def nth_attack(actor: Fighter, number: int) -> str:
    """Which attack of the Attack action, as the log's sentence ends: "X spends 1 attack:
    the only one their Attack action gives", "... the 2nd of the 2 its Attack action gives"
    (a player character's "their", a monster's "its")."""
    total = actor.sheet.attacks
    if total == 1:
        return f"the only one {actor.its} Attack action gives"
    nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")
    return f"the {nth} of the {total} {actor.its} Attack action gives"


def bonus_action(actor: Fighter, name: str, rules: tuple[str, ...] = ()) -> list[Event]:
    if actor.bonus:
        taken = f"{actor.name} has already taken a bonus action this turn ({actor.bonus}; srd-3)"
        raise RefusedError(
            f"{taken}; {left_this_turn(actor)}", player=f"{taken}; {left_this_turn(actor, True)}"
        )
    return [Spent(actor.id, "bonus action", 1, name, ["srd-3", *rules])]


def bonus_form(form: str) -> str:
    """The budget a phone counts for an action's bonus-action form ("bonus dash")."""
    return f"bonus {form}"


def granted(actor: Fighter) -> list[tuple[str, str]]:
    """(action, source) for each action a feature or an effect makes a bonus action (srd-60)."""
    given = [(n, f.name) for f in actor.sheet.features for n in f.bonus_actions]
    return given + [(n, source) for source, e in effects_on(actor) for n in e.bonus_actions]


def bonus_forms(actor: Fighter) -> set[str]:
    """The actions this creature may take as a bonus action: by a feature or an effect
    (srd-60), and a spell if it has one cast with a bonus action."""
    given = {name for name, _ in granted(actor)}
    return given | ({"spell"} if any(s.casting == "bonus" for s in actor.sheet.spells) else set())


def action_or_bonus(actor: Fighter, name: BonusForm, bonus: bool) -> list[Event]:
    """srd-60: a feature's bonus-action form, when asked for or once the action is taken."""
    given = [source for form, source in granted(actor) if form == name]
    if not given and bonus:
        raise RefusedError(f"{actor.name} has no feature that makes {name} a bonus action (srd-60)")
    if given and (bonus or actor.action):
        return bonus_action(actor, f"{name} ({given[0]})", ("srd-60",))
    return action(actor, name)


def reaction(state: State, actor: Fighter, name: str) -> list[Event]:
    """srd-4: one until its next turn, regained at the start of it; srd-1: none while surprised."""
    able(state, actor)
    if actor.surprised:
        raise RefusedError(
            f"{actor.name} is surprised: no reaction until {actor.its} turn ends (srd-1)"
        )
    if actor.reaction:
        raise RefusedError(
            f"{actor.name} has already used {actor.its} reaction since {actor.its} last turn "
            f"began (srd-4): it comes back at the start of {actor.its} next turn"
        )
    return [Spent(actor.id, "reaction", 1, name, ["srd-4"])]
