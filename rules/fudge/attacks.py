"""Resolving attacks (003-1..003-3, 003-8..003-23, 003-32)."""

from msgspec.structs import replace

from fracas.rules.api import ConditionCleared, Context, Damaged, Event, Modifier, Resolved, and_list

from .commands import AGGRESSIVE, Attack
from .evolve import fold
from .rolls import Check, check, rolled
from .sheets import Shield, Weapon
from .state import Fighter, State


def garrote_weapon(state: State) -> Weapon:
    return Weapon("garrote", "unarmed combat", state.options.garrote_damage, ranged=False)


def situational(state: State, actor: Fighter, target: Fighter, command: Attack, weapon: Weapon):
    """The attack's modifiers, and the armour the target gains from cover and shield."""
    terms: list[Modifier] = []
    armour: list[Modifier] = []
    shield = usable_shield(state, target, actor, command.flank)
    shield_cover = state.options.shield_cover if shield and command.shield == "around" else 0
    cover = command.cover
    if cover > state.options.cover_cap and command.special_measures:
        cover = state.options.cover_cap
    barrier = (
        min(cover + shield_cover, state.options.cover_cap)
        if cover <= state.options.cover_cap
        else cover
    )
    if barrier or command.concealment:
        if command.concealment > barrier:
            terms.append(Modifier(-command.concealment, "concealment", "003-10"))
        else:
            why = and_list(p for p, on in (("cover", cover), ("shield", shield_cover)) if on)
            rules = "003-15" if shield_cover and cover else ("003-14" if shield_cover else "003-9")
            terms.append(Modifier(-barrier, why, rules))
    if command.from_cover:
        terms.append(Modifier(-1, "firing from cover", "003-12"))
    if command.from_concealment:
        terms.append(Modifier(-1, "firing from concealment", "003-12"))
    if (command.burst and weapon.burst) or (command.close and weapon.buckshot):
        terms.append(Modifier(1, "3-round burst" if command.burst else "buckshot", "003-23"))
    aiming = actor.conditions.get("aiming", {})
    if aiming.get("target") == target.id:
        terms.append(Modifier(aiming["bonus"], "aimed", "003-8"))
    if shield and command.shield == "through":
        armour.append(Modifier(-state.options.shield_armor, f"through the {shield.name}", "003-14"))
    if command.cover_armor:
        armour.append(Modifier(-command.cover_armor, "cover as armour", "003-13"))
    return [*terms, *command.modifiers], armour


def usable_shield(state: State, target: Fighter, attacker: Fighter, flank: str) -> Shield | None:
    """003-16, 003-19..003-21: strapped on, facing the attacker, not given to another."""
    shield = target.sheet.shield
    if shield is None or shield.kind == "buckler" or target.shield_at != "arm":
        return None
    if flank not in ("front", shield.arm):
        return None
    engaged = engaged_with(target, shield)
    if engaged and engaged != attacker.id:
        return None
    return shield


def engaged_with(fighter: Fighter, shield: Shield) -> str | None:
    """003-20: parrying or attacking with the shield gives it to that one opponent."""
    for declared in fighter.declared:
        uses = str(declared.get("weapon", "")).lower() == shield.name.lower()
        if uses and declared["action"] in ("parry", "attack") and declared.get("targets"):
            return declared["targets"][0]
    return None


def big_modifier(state: State, terms: list[Modifier]) -> str:
    """003-2: a modifier beyond 3 makes the attempt an automatic success or failure."""
    if state.options.big_modifiers != "automatic":
        return ""
    if any(m.value > 3 for m in terms):
        return "success"
    if any(m.value < -3 for m in terms):
        return "failure"
    return ""


def defence_of(state: State, target: Fighter, attacker: Fighter) -> str:
    """003-30: who declared a non-defensive action cannot dodge; a declared dodge or parry
    defends (against its named attackers); who declared nothing may dodge by default."""
    if not state.able(target) or (target.has("holding") and "release" not in target.kinds()):
        return ""
    if state.holder_of(target):  # held or pinned: only harm the holder or break free (003-24)
        return ""
    for declared in target.declared:
        if declared["action"] in ("dodge", "parry"):
            named = declared.get("targets") or []
            if not named or attacker.id in named:
                return declared["action"]
    if any(k in AGGRESSIVE for k in target.kinds()):
        return ""
    if not target.declared and state.options.undeclared_defence == "dodge":
        return "dodge"
    return ""


def resolve_attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon)
    events: list[Event] = []
    for target_id in command.targets:
        now = fold(state, events)
        target = now.fighters[target_id]
        if now.wound(target).dead:
            events.append(
                Resolved(actor.id, "attack", [target.id], "the target is already dead", ["003-1"])
            )
            continue
        events += attack_one(now, ctx, now.fighters[actor.id], target, weapon, command)
    if actor.has("aiming"):
        events.append(ConditionCleared(actor.id, "aiming", "the aimed attack is made", ["003-8"]))
    return events


def attack_one(
    state: State, ctx: Context, actor: Fighter, target: Fighter, weapon: Weapon, command: Attack
) -> list[Event]:
    if command.cover > state.options.cover_cap and not command.special_measures:
        return [
            Resolved(
                actor.id,
                "attack",
                [target.id],
                f"cover {command.cover} prevents an effective attack",
                ["003-9"],
            )
        ]
    terms, armour = situational(state, actor, target, command, weapon)
    purpose = f"{weapon.name} attack on {target.name}"
    attack = check(state, ctx, actor, weapon.skill, purpose, terms)
    events, defence = defend(state, ctx, target, actor)
    forced = big_modifier(state, terms)
    result, why = outcome(state, attack, defence, forced)
    target_total = defence_value(state, defence) if defence else None
    verdict = f"{'hits' if result > 0 else 'misses'}: {why}"
    events.insert(0, rolled(actor, purpose, attack, target_total, verdict, ["003-1"]))
    if result <= 0:
        return [
            *events,
            Resolved(actor.id, "attack", [target.id], "misses", ["003-1", "003-3"], why),
        ]
    return events + damage(state, actor, target, result, weapon, armour, why)


def defend(
    state: State, ctx: Context, target: Fighter, attacker: Fighter
) -> tuple[list[Event], Check | None]:
    kind = defence_of(state, target, attacker)
    if not kind:
        return [], None
    if kind == "dodge":
        done = check(
            state, ctx, target, state.options.dodge_skill, f"dodge against {attacker.name}", []
        )
        return [
            rolled(
                target,
                f"dodge against {attacker.name}",
                done,
                None,
                f"defence {defence_value(state, done)}",
                ["003-1"],
            )
        ], done
    parry = next(d for d in target.declared if d["action"] == "parry")
    weapon = target.weapon(parry.get("weapon", ""))
    extra = []
    if (
        target.sheet.shield
        and weapon.name == target.sheet.shield.name
        and target.sheet.shield.kind == "buckler"
    ):
        extra.append(Modifier(state.options.buckler_parry, "buckler", "003-21"))
    done = check(state, ctx, target, weapon.skill, f"parry against {attacker.name}", extra)
    return [
        rolled(
            target,
            f"parry against {attacker.name}",
            done,
            None,
            f"defence {defence_value(state, done)}",
            ["003-1", "003-20"],
        )
    ], done


def defence_value(state: State, defence: Check) -> int:
    """A critical failure defends 0; by default a bad roll never helps the attacker."""
    if defence.fumble:
        return 0
    return max(0, defence.total) if state.options.defence_floor else defence.total


def outcome(state: State, attack: Check, defence: Check | None, forced: str) -> tuple[int, str]:
    """003-1, 003-3 and the critical interactions: the final result and why."""
    value = defence_value(state, defence) if defence else 0
    versus = f" - defence {value}" if defence else ""
    if attack.fumble:
        return 0, "critical failure: always a miss"
    if forced == "failure":
        return 0, "a modifier beyond -3: automatic failure"
    if defence and defence.critical:
        return 0, "the defender's critical success" + (
            " beats a critical" if attack.critical else ""
        )
    if attack.critical:
        result = max(1, 5 + sum(m.value for m in attack.terms) - value)
        return result, f"critical success counts 5: result {result}"
    result = attack.total - value
    if forced == "success":
        return max(1, result), f"a modifier beyond +3: automatic success, result {max(1, result)}"
    return result, f"result {attack.total}{versus} = {result}" if defence else f"result {result}"


def damage(
    state: State,
    actor: Fighter,
    target: Fighter,
    result: int,
    weapon: Weapon,
    armour: list[Modifier],
    why: str,
) -> list[Event]:
    """003-32: damage levels = result + Damage Bonus - armour; wound levels add up."""
    breakdown = [
        Modifier(result, why, "003-1"),
        Modifier(weapon.damage, f"{weapon.name} Damage Bonus", "003-32"),
        *([Modifier(-target.sheet.armor, "worn armour", "003-32")] if target.sheet.armor else []),
        *(
            [Modifier(-target.sheet.integral_armor, "integral armour", "003-32")]
            if target.sheet.integral_armor
            else []
        ),
        *armour,
    ]
    levels = sum(m.value for m in breakdown)
    if levels <= 0:
        return [
            Resolved(
                actor.id,
                "attack",
                [target.id],
                "hits, but armour stops it",
                ["003-32"],
                f"{levels}",
            )
        ]
    after = replace(target, levels=target.levels + levels)
    wound = state.wound(after)
    return [
        Resolved(actor.id, "attack", [target.id], f"hits: {levels} levels of damage", ["003-32"]),
        Damaged(target.id, levels, weapon.name, breakdown, ["003-32"]),
        Resolved(
            target.id,
            "wound",
            [],
            f"{after.levels} levels: {wound.name} ({penalty_text(state, after)})",
            ["003-33"],
        ),
    ]


def penalty_text(state: State, fighter: Fighter) -> str:
    wound = state.wound(fighter)
    if not wound.penalty:
        return "no penalty"
    if fighter.sheet.pain_tolerance:
        return f"{wound.penalty} cancelled by Pain Tolerance"
    return f"{wound.penalty} to all rolls"
