"""Attacks and defences: hitting, dodging and fighting back, lethality and damage."""

import re
from collections.abc import Mapping
from typing import Any

from fracas.rules.api import (
    BadInputError,
    Choices,
    ConditionCleared,
    ConditionSet,
    Context,
    Damaged,
    EquipmentChanged,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    Rolled,
    Spent,
    parse_dice,
)

from .commands import Act, Attack, Disarm, Escape, Opposable, Pin
from .evolve import fold
from .rolls import Test, checked_rating, defender_wins, judge, roll_test, target_of
from .sheets import BASE_SKILLS, HAND_TO_HAND, UNARMED, Sheet, Weapon
from .state import Fighter, State
from .turn import aim_is_live, waiting_is_live

HP_LINES = "000-M9"  # the unconscious and dead thresholds


def parse_damage(expression: str, where: str = "") -> tuple[str, int]:
    """A weapon's damage as its dice and bonus; `where`: what a refusal names (the sheet)."""
    match = re.fullmatch(r"\s*(\d*d\d+)\s*(?:([+-])\s*(\d+))?\s*", expression, re.ASCII)
    if not match:
        raise BadInputError(
            f"{where + ': ' if where else ''}damage {expression!r} is not of the form NdS or NdS+K"
        )
    bonus = int(match.group(3) or 0) * (-1 if match.group(2) == "-" else 1)
    parse_dice(match.group(1))
    return match.group(1), bonus


def strength_bonus(strength: int) -> int:
    """Mechanic 6: melee and unarmed damage modifier by STR."""
    if strength <= 4:
        return -2
    if strength <= 8:
        return -1
    if strength <= 12:
        return 0
    if strength <= 16:
        return 1
    return 2


def standing_defence(state: State, defender: Fighter, hand_to_hand: bool) -> dict | None:
    """A block, dodge, fight back or escape roll already made that opposes this attack."""
    defending = defender.conditions.get("defending")
    if defending is None:
        return None
    if defending["kind"] == "escape":
        return defending if state.options.escape_defends else None
    if defending["round"] != state.round or not hand_to_hand:
        return None
    if defending["kind"] != "block" and state.options.defence_covers == "one":
        return None
    return defending


def attack_modifiers(
    state: State, actor: Fighter, target: Fighter, weapon: Weapon, command: Opposable, first: bool
) -> list[Modifier]:
    options = state.options
    modifiers = list(command.modifiers)
    if isinstance(command, Attack):
        if aim_is_live(state, actor):
            modifiers.append(Modifier(options.aim_bonus, "aimed last turn", "000-6"))
        if command.called != "none" and first:
            penalty = {"uncovered": options.uncovered_called_shot, "partly": -20, "mostly": -40}
            reason = f"called shot, target {command.called} covered".replace(
                "uncovered covered", "uncovered"
            )
            modifiers.append(Modifier(penalty[command.called], reason, "000-10"))
    if weapon.kind in HAND_TO_HAND and target.has("pinned"):
        modifiers.append(Modifier(options.pinned_bonus, f"{target.name} is pinned", "000-22"))
    return modifiers


def defend(
    state: State,
    ctx: Context,
    events: list[Event],
    attack: Test,
    attacker: Fighter,
    defender: Fighter,
    command: Opposable,
    hand_to_hand: bool,
) -> tuple[bool, Fighter | None, Weapon | None]:
    """Returns (defended, fought-back defender, their weapon) for one target."""
    options = state.options
    asked = command.defence.get(defender.id)
    if defender.id in command.unaware or defender.has("pinned") or defender.out:
        if asked:
            why = (
                "unaware of the attack"
                if defender.id in command.unaware
                else ("pinned (000-16)" if defender.has("pinned") else "out of the fight")
            )
            raise RefusedError(f"{defender.name} cannot {asked}: {why}")
        return False, None, None
    standing = standing_defence(state, defender, hand_to_hand)
    if standing is not None:
        test = Test(
            defender.id, standing["skill"], standing["face"], standing["target"], standing["result"]
        )
        rule = {"block": "000-9", "escape": "000-15"}.get(standing["kind"], "000-13")
        events.append(
            Resolved(
                defender.id,
                "defence",
                [attacker.id],
                f"{standing['kind']} roll stands against this attack",
                [rule],
                f"rolled {test.face}",
            )
        )
        return defender_wins(attack, test, options), None, None
    if asked is None:
        return False, None, None
    if asked == "fight-back" and not hand_to_hand:
        raise RefusedError(
            f"{defender.name} cannot fight back against a ranged or explosive attack (000-17)"
        )
    if defender.acted_round >= state.round and not waiting_is_live(state, defender):
        if options.defence_after_acting == "refuse":
            raise RefusedError(
                f"{defender.name} has already acted this turn and a {asked} uses the turn's "
                "action; set option defence_after_acting=forfeit_next to allow it"
            )
        events.append(
            ConditionSet(
                defender.id,
                "forfeit",
                f"{asked} after acting",
                {"round": state.round + 1},
                ["000-13"],
            )
        )
    elif waiting_is_live(state, defender):
        events.append(ConditionCleared(defender.id, "waiting", f"spent on a {asked}", ["000-25"]))
    else:
        events.append(Spent(defender.id, "action", 1, asked, ["000-13", "000-17"]))
    weapon = defender.weapon(command.defence_weapon.get(defender.id, melee_in_hand(defender)))
    skill = "dodge" if asked == "dodge" else weapon.skill_name
    rules = ["000-13"] if asked == "dodge" else ["000-17"]
    test = roll_test(ctx, events, defender, skill, asked, [], options, rules)
    events.append(
        ConditionSet(
            defender.id,
            "defending",
            f"declared {asked}",
            {
                "kind": asked,
                "round": state.round,
                "skill": skill,
                "face": test.face,
                "target": test.target,
                "result": test.result,
            },
            rules,
        )
    )
    won = defender_wins(attack, test, options)
    return won, (defender if won and asked == "fight-back" else None), weapon


NO_DEFENCE = "none"


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """Who an attack, a disarm or a pin lets choose a defence now, and which: a Dodge test,
    or against hand-to-hand a fight back (000-13, 000-17); no answer, no defence. Nobody
    unaware, pinned or out of the fight (000-M10), nobody a roll already made stands for
    (000-9, 000-15), nobody who has acted when a defence after acting is refused."""
    actor = state.fighters.get(getattr(command, "actor", ""))
    if not isinstance(command, Opposable) or actor is None or not state.round:
        return {}
    try:
        hand_to_hand = not isinstance(command, Attack) or (
            actor.weapon(command.weapon).kind in HAND_TO_HAND
        )
    except RefusedError:  # an unknown weapon: deciding the attack says so
        return {}
    found = {}
    for target in command.targets:
        defender = state.fighters.get(target)
        if defender is None or target in command.defence or target == actor.id:
            continue
        if target in command.unaware or defender.has("pinned") or defender.out:
            continue
        if standing_defence(state, defender, hand_to_hand) is not None:
            continue
        acted = defender.acted_round >= state.round and not waiting_is_live(state, defender)
        if acted and state.options.defence_after_acting == "refuse":
            continue
        fight_back = ["fight-back"] if hand_to_hand else []
        found[target] = Choices(
            ["dodge", *fight_back, NO_DEFENCE],
            NO_DEFENCE,
            "000-13",
            "no defence declared: nothing opposes the attack roll",
        )
    return found


def melee_in_hand(fighter: Fighter) -> str:
    for weapon in fighter.sheet.weapons:
        if weapon.kind == "melee" and weapon.name in fighter.holding:
            return weapon.name
    return "unarmed"


def roll_damage(
    ctx: Context,
    events: list[Event],
    state: State,
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    critical: bool,
    command: Attack | None,
) -> None:
    """Mechanics 3, 6, 7, 8: dice (+STR), lethality, criticals, armor and AP."""
    options = state.options
    multiplier = options.critical_multiplier if critical else 1
    breakdown: list[Modifier] = []
    rules = ["000-8", "000-5"]
    summed = ""  # the dice's sum as the table says it (a lethality roll has its own words)
    if weapon.lethality:
        rating = min(options.lethality_max, weapon.lethality * multiplier)
        roll = ctx.dice.roll("d100", f"lethality of {weapon.name}")
        kills = roll.total <= rating and (target.sheet.human or options.lethality_kills_nonhuman)
        result = "success" if roll.total <= rating else "failure"
        mods = [Modifier(weapon.lethality, "lethality rating")]
        if critical:
            mods.append(Modifier(rating - weapon.lethality, "critical doubles lethality"))
        events.append(
            Rolled(
                attacker.id, f"lethality of {weapon.name}", roll, rating, mods, result, ["000-8"]
            )
        )
        if kills:
            breakdown.append(Modifier(target.hp, "lethality roll succeeded: killed outright"))
            events.append(Damaged(target.id, target.hp, attacker.id, breakdown, ["000-8"]))
            return
        tens, units = (roll.total % 100) // 10 or 10, roll.total % 10 or 10
        raw = (tens + units) * multiplier
        why = "lethality failed" if roll.total > rating else "not human, so no outright kill"
        breakdown.append(Modifier(tens + units, f"{why}: {tens}+{units} from the d10s"))
    else:
        dice, bonus = parse_damage(weapon.damage)
        roll = ctx.dice.roll(dice, f"{weapon.name} damage")
        raw = roll.total + bonus
        breakdown.append(Modifier(roll.total, f"{dice} rolled"))
        if bonus:
            breakdown.append(Modifier(bonus, f"{weapon.name} bonus"))
        if weapon.kind in HAND_TO_HAND:
            raw += strength_bonus(attacker.sheet.strength)
            breakdown.append(
                Modifier(
                    strength_bonus(attacker.sheet.strength),
                    f"STR {attacker.sheet.strength}",
                    "000-8",
                )
            )
        events.append(Rolled(attacker.id, f"{weapon.name} damage", roll, None, [], None, rules))
        faces = f"{dice} [{'+'.join(str(f) for f in roll.faces)}]"
        summed = said_of(faces, breakdown[1:], max(0, raw))
        raw = max(0, raw) * multiplier
    if critical:
        breakdown.append(Modifier(raw - raw // multiplier, "critical hit doubles damage"))
    armor = armor_against(target, weapon, command)
    breakdown += armor
    amount = max(0, raw + sum(m.value for m in armor))
    said = summed and then_said(summed, multiplier if critical else 1, raw, armor)
    if options.damage_words == "steps":  # as encounters begun before schema 4 recorded it
        said = ""
    events.append(Damaged(target.id, amount, attacker.id, breakdown, rules, said))


def said_of(faces: str, added: list[Modifier], summed: int) -> str:
    """The damage as the table says it: the dice by their faces, what is added to them, and
    the sum ("1d4 [3] - 1 unarmed bonus + 1 STR 14 = 3")."""
    terms = [f" {'-' if m.value < 0 else '+'} {abs(m.value)} {m.reason}" for m in added if m.value]
    return faces + "".join(terms) + (f" = {summed}" if terms else "")


def then_said(said: str, multiplier: int, raw: int, armor: list[Modifier]) -> str:
    """After the sum, each change with what it leaves: a critical's multiplier, body armor,
    cover and armor piercing ("..., x2 for a critical hit -> 8, body armor -2 -> 6")."""
    if multiplier > 1:
        said += f", x{multiplier} for a critical hit -> {raw}"
    left = raw
    for term in armor:
        if not term.value:
            said += f" ({term.reason})"
            continue
        left += term.value
        said += f", {term.reason} {term.value:+d} -> {max(0, left)}"
    return said


def armor_against(target: Fighter, weapon: Weapon, command: Attack | None) -> list[Modifier]:
    """Mechanic 7 and 000-20: body armor and cover, less armor piercing, never below 0."""
    avoid_armor = bool(command and command.called != "none" and command.avoid_armor)
    avoid_cover = bool(command and command.called != "none" and command.avoid_cover)
    terms: list[Modifier] = []
    if target.sheet.armor and not avoid_armor:
        terms.append(Modifier(-target.sheet.armor, "body armor"))
    elif target.sheet.armor:
        terms.append(Modifier(0, "called shot avoids body armor", "000-10", note=True))
    cover = target.conditions.get("cover")
    if cover and weapon.kind in ("firearm", "explosive") and not avoid_cover:
        terms.append(Modifier(-cover["armor"], "behind cover", "000-20"))
    total = -sum(t.value for t in terms)
    if weapon.armor_piercing and total:
        terms.append(Modifier(min(weapon.armor_piercing, total), "armor piercing"))
    return terms


def harm_consequences(state: State, events: list[Event]) -> list[Event]:
    """HP thresholds (mechanic 9), lost aim (000-7), pins released when the pinner drops."""
    options, after = state.options, fold(state, events)
    consequences: list[Event] = []
    for event in events:
        if not isinstance(event, Damaged):
            continue
        before, now = state.fighters[event.target], after.fighters[event.target]
        stamp = {"round": state.round, "slot_dex": state.slot_dex}
        if now.hp <= options.dead_at and not before.has("dead"):
            consequences.append(ConditionSet(now.id, "dead", f"HP {now.hp}", stamp, [HP_LINES]))
        elif now.hp <= options.unconscious_at and not before.out:
            consequences.append(
                ConditionSet(now.id, "unconscious", f"HP {now.hp}", stamp, [HP_LINES])
            )
        if event.amount > 0 and before.has("aiming"):
            consequences.append(ConditionCleared(now.id, "aiming", "took damage", ["000-7"]))
        if now.hp <= options.unconscious_at:
            consequences += pins_released(after, now)
    return consequences


def pins_released(after: State, out: Fighter) -> list[Event]:
    """A pin ends when either end of it is out of the fight: the pinner lets go, and one
    unconscious or dead is pinned no longer (000-21)."""
    reason = f"{out.name} is out of the fight"
    return [
        ConditionCleared(other.id, "pinned", reason, ["000-21"])
        for other in after.fighters.values()
        if other.has("pinned")
        and (other.id == out.id or other.conditions["pinned"].get("by") == out.id)
    ]


def attack_one(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    command: Attack,
    first: bool,
    face: int | None,
) -> Test:
    modifiers = attack_modifiers(state, attacker, target, weapon, command, first)
    rating = checked_rating(attacker, weapon.skill_name)
    target_pct = target_of(rating, modifiers, state.options)
    rules = ["000-8", "000-4"] + (["000-10"] if command.called != "none" and first else [])
    if face is None:
        test = roll_test(
            ctx,
            events,
            attacker,
            weapon.skill_name,
            f"attack on {target.name}",
            modifiers,
            state.options,
            rules,
        )
    else:  # 000-4: one attack roll for every target, judged against each target's number
        result = judge(face, target_pct, rating.stat)
        test = Test(attacker.id, weapon.skill_name, face, target_pct, result)
        events.append(
            Resolved(
                attacker.id,
                "attack",
                [target.id],
                f"the same roll is a {test.result}",
                ["000-4"],
                f"{face} against {target_pct}%",
            )
        )
    hand_to_hand = weapon.kind in HAND_TO_HAND
    defended, fighter_back, back_weapon = defend(
        state, ctx, events, test, attacker, target, command, hand_to_hand
    )
    if fighter_back is not None and back_weapon is not None:
        events.append(
            Resolved(
                target.id,
                "fight-back",
                [attacker.id],
                f"{target.name} blocks and strikes back",
                ["000-17"],
            )
        )
        roll_damage(ctx, events, state, fighter_back, attacker, back_weapon, False, None)
    elif defended:
        events.append(
            Resolved(
                attacker.id, "attack", [target.id], f"{target.name} avoids the attack", ["000-13"]
            )
        )
    elif test.success:
        outcome = "critical hit" if test.result == "critical" else "hit"
        events.append(Resolved(attacker.id, "attack", [target.id], outcome, rules))
        roll_damage(
            ctx, events, state, attacker, target, weapon, test.result == "critical", command
        )
    else:
        outcome = "fumble: a miss, the Handler may add more" if test.result == "fumble" else "miss"
        events.append(Resolved(attacker.id, "attack", [target.id], outcome, rules))
    return test


def require_targets(state: State, command: Act, count: int | None = None) -> list[Fighter]:
    if not command.targets:
        raise BadInputError(f"{command.__struct_config__.tag} needs a target")
    if count is not None and len(command.targets) != count:
        raise BadInputError(f"{command.__struct_config__.tag} takes exactly {count} target")
    targets = [state.fighter(t) for t in command.targets]
    for target in targets:
        if target.has("dead"):
            raise RefusedError(
                f"{target.name} is already dead: pick a living target, or if the death was a "
                "mistake, `fracas undo` the step that killed them"
            )
        if target.id == command.actor:
            raise RefusedError("a combatant cannot target themselves")
    if len(set(command.targets)) != len(command.targets):
        raise BadInputError("name each target once")
    return targets


def resolve_attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon)
    if weapon is not UNARMED and weapon.name not in actor.holding:
        first = f"{actor.name} is not holding the {weapon.name}: ready it first"
        raise RefusedError(
            f"{first} (act {actor.id} ready --item {weapon.name!r}, 000-26)",
            player=f"{first} (Ready, then the {weapon.name})",
        )
    targets = require_targets(state, command)
    if len(targets) > 1 and weapon.kind not in ("firearm", "explosive"):
        raise RefusedError(
            "only automatic fire or explosives hit several targets in one attack (000-4)"
        )
    events: list[Event] = []
    face = None
    for index, target in enumerate(targets):
        test = attack_one(state, ctx, events, actor, target, weapon, command, index == 0, face)
        face = test.face
        if index == 0 and weapon.kind in HAND_TO_HAND:
            rule = "000-11" if command.called != "none" else "000-9"
            events.append(block_from(state, actor, test, target.id, rule))
    if actor.has("aiming"):
        events.append(ConditionCleared(actor.id, "aiming", "attacked", ["000-7"]))
    return events + harm_consequences(state, events)


def block_from(state: State, actor: Fighter, test: Test, against: str, rule: str) -> ConditionSet:
    """000-9, 000-11, 000-12, 000-21: a hand-to-hand action is also a parry and block."""
    return ConditionSet(
        actor.id,
        "defending",
        "parrying and blocking while engaged",
        {
            "kind": "block",
            "round": state.round,
            "skill": test.skill,
            "face": test.face,
            "target": test.target,
            "result": test.result,
            "against": against,
        },
        [rule],
    )


def hands_free(actor: Fighter, rule: str) -> None:
    if actor.holding:
        raise RefusedError(
            f"{actor.name} needs both hands free ({rule}) but holds {', '.join(actor.holding)}"
        )


def unarmed_contest(
    state: State, actor: Fighter, command: Opposable, ctx: Context, rule: str, purpose: str
) -> tuple[list[Event], Fighter, bool]:
    hands_free(actor, rule)
    (target,) = require_targets(state, command, 1)
    events: list[Event] = []
    modifiers = attack_modifiers(state, actor, target, UNARMED, command, True)
    test = roll_test(
        ctx,
        events,
        actor,
        "unarmed combat",
        f"{purpose} {target.name}",
        modifiers,
        state.options,
        [rule],
    )
    events.append(block_from(state, actor, test, target.id, rule))
    defended, _, _ = defend(state, ctx, events, test, actor, target, command, True)
    return events, target, test.success and not defended


def resolve_disarm(state: State, actor: Fighter, command: Disarm, ctx: Context) -> list[Event]:
    events, target, success = unarmed_contest(state, actor, command, ctx, "000-12", "disarm")
    item = command.item or (target.holding[0] if target.holding else None)
    if success and item in target.holding:
        kept = [h for h in target.holding if h != item]
        events.append(
            Resolved(actor.id, "disarm", [target.id], f"{target.name} drops the {item}", ["000-12"])
        )
        events.append(EquipmentChanged(target.id, kept, f"disarmed of the {item}", ["000-12"]))
    else:
        outcome = "fails to disarm" if not success else f"{target.name} holds nothing to drop"
        events.append(Resolved(actor.id, "disarm", [target.id], outcome, ["000-12"]))
    return events


def resolve_pin(state: State, actor: Fighter, command: Pin, ctx: Context) -> list[Event]:
    events, target, success = unarmed_contest(state, actor, command, ctx, "000-21", "pin")
    if success:
        events.append(
            Resolved(actor.id, "pin", [target.id], f"{target.name} is pinned", ["000-21"])
        )
        events.append(
            ConditionSet(
                target.id, "pinned", f"pinned by {actor.name}", {"by": actor.id}, ["000-21"]
            )
        )
    else:
        events.append(Resolved(actor.id, "pin", [target.id], "the pin fails", ["000-21"]))
    return events


def resolve_escape(state: State, actor: Fighter, command: Escape, ctx: Context) -> list[Event]:
    """000-14, 000-15, 000-16: the better of STR×5 and Unarmed Combat, opposed by the pinner."""
    if not actor.has("pinned"):
        raise RefusedError(f"{actor.name} is not pinned, so there is nothing to escape (000-14)")
    pinner = state.fighter(actor.conditions["pinned"]["by"])
    events: list[Event] = []
    skill = max(("strx5", "unarmed combat"), key=actor.skill)
    test = roll_test(
        ctx, events, actor, skill, "escape", list(command.modifiers), state.options, ["000-14"]
    )
    attack = last_attack_roll(state, pinner, actor)
    if attack is not None:
        opposing = attack
        events.append(
            Resolved(
                pinner.id,
                "opposes escape",
                [actor.id],
                f"{pinner.name}'s attack roll {attack.face} opposes it",
                ["000-14"],
            )
        )
    else:
        pinner_skill = max(("strx5", "unarmed combat"), key=pinner.skill)
        opposing = roll_test(
            ctx, events, pinner, pinner_skill, "hold the pin", [], state.options, ["000-14"]
        )
    if defender_wins(opposing, test, state.options):
        events.append(Resolved(actor.id, "escape", [pinner.id], "breaks free", ["000-15"]))
        events.append(ConditionCleared(actor.id, "pinned", "escaped", ["000-15"]))
        if state.options.escape_defends:
            events.append(
                ConditionSet(
                    actor.id,
                    "defending",
                    "the escape roll defends",
                    {
                        "kind": "escape",
                        "round": state.round,
                        "skill": skill,
                        "face": test.face,
                        "target": test.target,
                        "result": test.result,
                    },
                    ["000-15"],
                )
            )
    else:
        events.append(
            Resolved(actor.id, "escape", [pinner.id], "stays pinned and cannot defend", ["000-16"])
        )
    return events


def last_attack_roll(state: State, pinner: Fighter, target: Fighter) -> Test | None:
    """The pinner's block roll this turn stands for their attack on the pinned (000-14)."""
    block = pinner.conditions.get("defending")
    if (
        block
        and block["kind"] == "block"
        and block["round"] == state.round
        and block.get("against") == target.id
    ):
        return Test(pinner.id, block["skill"], block["face"], block["target"], block["result"])
    return None


def reaction_figures(sheet: Sheet, option: str, own: Mapping[str, Any]) -> str:
    """A defence's figures from the defender's sheet (000-13, 000-17): the Dodge rating, or
    the hand-to-hand skills a fight back rolls with."""

    def rating(skill: str) -> int:
        return sheet.skills.get(skill, BASE_SKILLS.get(skill, 0))

    if option == "dodge":
        return f"Dodge {rating('dodge')}%{SPENDS}"
    if option == "fight-back":
        return (
            f"Melee Weapons {rating('melee weapons')}%, "
            f"Unarmed Combat {rating('unarmed combat')}%{SPENDS}"
        )
    return ""


SPENDS = "; uses your next action"  # a defence costs the defender's action (000-M10)
