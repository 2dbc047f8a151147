"""Secrets that never lie: players see at once every step a secret does not decide.

A GM-only roll that cannot move the turn (a check, an attack that cannot put its target
down) hides its own dice and what they decided, and nothing else: the public steps after it
reach the players' page, stream and exports at once (projections/secrecy.py, the worlds).
"""

import io
import json
from pathlib import Path

import msgspec
import pytest

from fracas.cli.serve import Table
from fracas.projections import Fracas
from fracas.projections.exports import export_jsonl
from fracas.projections.screen import PLAYERS
from fracas.projections.secrecy import declared_reach, players_cut, shown_events
from fracas.rules import Encounter
from fracas.rules.events import Rolled
from fracas.rules.timeline import walk
from fracas.testing import start
from tests.casts import CASTS
from tests.casts.fudge import f
from tests.support import srd_sample
from tests.unseen import gm_cli, shut

PISTOL = '--set=weapons=[{name="pistol",kind="firearm",damage="1d10"}]'


def surfaces(db: Path, encounter: str) -> dict[str, str]:
    """What the players are given: the page, the stream, the md and jsonl exports."""
    table = Table(str(db), "token")
    seen = {
        "page": table.render_screen(encounter, PLAYERS),
        "stream": table.update(encounter, PLAYERS),
    }
    shut(table)
    fracas = Fracas(db)
    out = io.StringIO()
    fracas.export_text(out, "md", encounter, players=True)
    seen["md"] = out.getvalue()
    out = io.StringIO()
    export_jsonl(fracas.store, out, players=True)
    seen["jsonl"] = out.getvalue()
    return seen


def test_percentile_a_secret_check_leaves_the_attacks_after_it_public(tmp_path):
    """Issue 38's case: the cultist's secret DEX check, then Bishop shoots the gunman and the
    gunman fires back; in the DEX countdown the next actor does not depend on a check."""
    run = gm_cli(tmp_path / "f.db")
    run("new", "--id", "f")
    gun = ["--set", "skills.firearms=60", PISTOL, "--set", 'holding=["pistol"]']
    run("add", "bishop", "--set", "dex=14", "--side", "pc", *gun)
    run("add", "cultist", "--set", "dex=16")
    run("add", "gunman", "--set", "dex=10", *gun)
    run("begin")
    run("act", "cultist", "other", "-o", "what=listens at the door", "-o", "test=dex",
        "--secret", "--dice", "48")  # fmt: skip
    run("act", "bishop", "attack", "gunman", "-w", "pistol", "--dice", "41,4")
    run("act", "gunman", "attack", "bishop", "-w", "pistol", "--dice", "30,7")
    seen = surfaces(tmp_path / "f.db", "f")
    for where in ("page", "stream", "md"):
        assert "gunman takes 4 damage" in seen[where], f"Bishop's shot is not on the {where}"
        assert "bishop takes 7 damage" in seen[where], f"the gunman's is not on the {where}"
        assert "cultist acts: what it decided is GM-only" in seen[where]
        assert "wait on the GM's secret roll" not in seen[where], where
    for where in ("page", "stream"):
        assert "HP 3/10" in seen[where], f"Bishop's own health is stale on the {where}"
    steps = [json.loads(line) for line in seen["jsonl"].splitlines()[1:]]
    rolls = [e for step in steps for e in step.get("events", []) if e["kind"] == "rolled"]
    assert [r["roll"]["faces"] for r in rolls] == [[41], [4], [30], [7]], "the check's hides"
    assert not any("listens" in r["purpose"] for r in rolls)


# -- every built-in ruleset: a GM-only roll that does not decide the turn -----------------


def fight(system: str, options: dict | None = None, dice: list[int] | None = None) -> Encounter:
    """The conformance cast of `system` (tests/test_conformance.py), begun."""
    cast = CASTS[system]
    _fracas, encounter = start(cast, options or {}, Fracas(":memory:"))
    encounter.execute(encounter.ruleset.command({"action": "begin"}), dice=dice)
    return encounter


def act(encounter: Encounter, command: dict, *, secret: bool = False) -> int:
    """Whoever acts now (`@`) does `command`, at `@named`: the first of the shot clock's
    named combatants (not mooks) who is not them; returns its step."""
    if command.get("actor") == "@":
        command = {**command, "actor": encounter.view().acting[0]}
    if command.get("targets") == ["@named"]:
        named = next(who for who in ("boss", "jack") if who != command["actor"])
        command = {**command, "targets": [named]}
    encounter.execute(encounter.ruleset.command(command), secret=secret)
    return encounter.history.head_step


def shown_at_once(encounter: Encounter, secret: int, public: list[int]) -> None:
    """The secret step shows by its command alone; every public step after it shows at once,
    in the cut, the players' report and the players' export, its rolls with it."""
    frames = list(walk(encounter.store, encounter.id, encounter.ruleset))
    cut = players_cut(frames, encounter.ruleset)
    assert cut.seen[secret].masked
    for step in public:
        assert cut.number(step) == step and not cut.seen[step].masked, f"step {step} waits"
    fracas = Fracas.__new__(Fracas)
    fracas.store = encounter.store
    players, gm = io.StringIO(), io.StringIO()
    fracas.export_text(players, "md", encounter.id, players=True)
    fracas.export_text(gm, "md", encounter.id)
    for step in public:
        line = next(x for x in gm.getvalue().splitlines() if x.startswith(f"- {step}. "))
        assert line in players.getvalue(), f"step {step} is not in the players' report"
    out = io.StringIO()
    export_jsonl(encounter.store, out, players=True)
    steps = {s["step"]: s for s in map(json.loads, out.getvalue().splitlines()[1:])}
    hidden = [e for e in frames[secret - 1].events if isinstance(e, Rolled)]
    assert hidden and "events" not in steps[secret], "the secret step's rolls show"
    for step in public:
        rolled = [e for e in frames[step - 1].events if isinstance(e, Rolled)]
        told = [e for e in steps[step]["events"] if e["kind"] == "rolled"]
        assert len(told) == len(rolled), f"step {step}'s rolls are not in the export"


CHECKS = {
    "percentile": ({}, {"action": "other", "actor": "@", "what": "listen", "test": "dex"}),
    "pool": (
        {},
        {"action": "other", "actor": "@", "attribute": "perception", "ability": "alertness"},
    ),
    "timeslice": ({}, {"action": "check", "actor": "@", "what": "listen", "stat": "q"}),
    # an open roll explodes: its outcomes have no end to try; the GM's closed dice do not
    "shotclock": (
        {"action_dice": "d6-d6"},
        {"action": "attack", "actor": "@", "targets": ["@named"]},
    ),
}


@pytest.mark.parametrize("system", sorted(CHECKS))
def test_a_secret_roll_that_does_not_decide_the_turn_leaves_the_next_turns_public(system):
    """The turn passes, the GM rules on someone the roll did not name, the turn passes
    again: all of it reaches the players at once."""
    encounter, secret, aside = secret_with_a_bystander(system)
    public = [act(encounter, {"action": "next", "actor": "@"})]
    public.append(act(encounter, ruling_on(aside)))
    public.append(act(encounter, {"action": "next", "actor": "@"}))
    shown_at_once(encounter, secret, public)


def secret_with_a_bystander(system: str) -> tuple[Encounter, int, str]:
    """A fight whose secret roll (on random dice) named someone aside: a shot-clock attack
    that takes its target out may start a sequence that names everyone; then another."""
    options, check = CHECKS[system]
    for _ in range(20):
        encounter = fight(system, options)
        secret = act(encounter, check, secret=True)
        if (aside := bystander(encounter, secret)) is not None:
            return encounter, secret, aside
    raise AssertionError(f"20 secret rolls of {system} each named everyone")


def bystander(encounter: Encounter, step: int) -> str | None:
    """A combatant step `step` does not name."""
    named = msgspec.json.encode(encounter.events_of_step(step)).decode()
    unnamed = (w.combatant for w in encounter.view().wounds if f'"{w.combatant}"' not in named)
    return next(unnamed, None)


def ruling_on(who: str) -> dict:
    return {"action": "gm.condition-set", "target": who, "condition": "lit"}


def test_fudge_a_secret_check_resolved_leaves_the_next_resolutions_public():
    """4dF: everyone declares (the lowest initiative first), then the actions resolve from
    the highest down; Ana's check (initiative 5) resolves first, on GM-only dice, then Bo's
    attack on Cy (2) and Bo2's (1): neither reads what Ana's check decided."""
    encounter = fight("fudge", dice=[*f(2), *f(0), *f(-1), *f(0)])
    plans = {
        "ana": {"action": "other", "what": "listen", "skill": "physique", "difficulty": 1},
        "bo": {"action": "attack", "targets": ["cy"]},
        "bo2": {"action": "attack", "targets": ["cy"]},
    }
    while encounter.state.phase == "declaring":
        who = encounter.state.current
        if who in plans:
            act(encounter, {**plans.pop(who), "actor": who})
        act(encounter, {"action": "next"})
    secret = act(encounter, {"action": "next"}, secret=True)
    public = [act(encounter, {"action": "next"})]
    public.append(act(encounter, ruling_on(bystander(encounter, secret))))
    public.append(act(encounter, {"action": "next"}))
    shown_at_once(encounter, secret, public)


def test_a_secret_roll_taken_back_leaves_nothing_waiting(tmp_path):
    """The GM's secret shot undone gives back the fight as it was before it, whatever the
    roll gave: the public shot after it shows at once, Bob's health with it; redone, the
    secret stands again and the rows it could have changed wait for the disclosure."""
    run = gm_cli(tmp_path / "f.db")
    run("new", "--id", "f")
    gun = ["--set", "skills.firearms=60", PISTOL, "--set", 'holding=["pistol"]']
    run("add", "alice", "--set", "dex=14", "--side", "pc", *gun)
    run("add", "bob", "--set", "dex=10", "--set", "hp=30", *gun)
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5", "--secret")
    run("undo")
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,7")
    seen = surfaces(tmp_path / "f.db", "f")
    for where in ("page", "stream", "md"):
        assert "bob takes 7 damage" in seen[where], f"the public shot waits on the {where}"
        assert "wait on the GM's secret roll" not in seen[where], where
    assert "| bob | npc | hurt |" in seen["md"]
    run("undo")
    run("redo")  # the public shot again: it reads nothing the undone secret decided
    assert "bob takes 7 damage" in surfaces(tmp_path / "f.db", "f")["md"]


# -- a secret with too many outcomes to try: what the ruleset declares it can reach --------


def test_pool_a_large_secret_pool_check_leaves_the_next_turns_public():
    """Ana's Dexterity + Athletics is seven d10: ten million outcomes, past what fracas
    tries; the pool ruleset declares that an `other` check changes no one (Ruleset.reach),
    so the turns after it reach the players at once."""
    encounter = fight("pool")
    while encounter.view().acting[0] != "ana":
        act(encounter, {"action": "next", "actor": "@"})
    check = {"action": "other", "actor": "ana", "attribute": "dexterity", "ability": "athletics"}
    secret = act(encounter, check, secret=True)
    pool = next(e.roll for e in encounter.events_of_step(secret) if isinstance(e, Rolled))
    assert len(pool.faces) == 7
    public = [act(encounter, {"action": "next", "actor": "@"}) for _ in range(2)]
    shown_at_once(encounter, secret, public)


def test_shotclock_an_open_secret_attack_keeps_only_its_two_combatants_rows():
    """The shot clock's open roll explodes: no end of outcomes to try. Its ruleset declares
    that an attack reaches the attacker, the target and the clock: the GM's ruling on a
    third combatant after it shows at once (without the declaration everyone would wait)."""
    encounter = fight("shotclock")
    attack = {"action": "attack", "actor": "@", "targets": ["@named"]}
    secret = act(encounter, attack, secret=True)
    named = encounter.events_of_step(secret)
    aimed = {e.actor for e in named if isinstance(e, Rolled)}
    third = next(w for w in ("mook", "mook2") if w not in aimed)
    ruling = act(encounter, {"action": "gm.condition-set", "target": third, "condition": "lit"})
    frames = list(walk(encounter.store, encounter.id, encounter.ruleset))
    cut = players_cut(frames, encounter.ruleset)
    assert cut.seen[secret].masked
    assert cut.number(ruling) is not None and not cut.seen[ruling].masked, "the ruling waits"


def test_fudge_an_opposed_secret_attack_keeps_only_its_two_combatants_rows():
    """Bo's attack on Cy resolves on GM-only dice, 4dF against 4dF: 6,561 outcomes, past
    what fracas tries. 4dF declares that resolving an attack reaches the one resolving, the
    target and the turn: the GM's ruling on Ana after it shows at once."""
    encounter = fight("fudge", dice=[*f(2), *f(0), *f(-1), *f(0)])
    while encounter.state.phase == "declaring":
        if encounter.state.current == "bo":
            act(encounter, {"action": "attack", "actor": "bo", "targets": ["cy"]})
        act(encounter, {"action": "next"})
    while encounter.state.current != "bo":
        act(encounter, {"action": "next"})
    secret = act(encounter, {"action": "next"}, secret=True)
    assert len([e for e in encounter.events_of_step(secret) if isinstance(e, Rolled)]) == 2
    ruling = act(encounter, {"action": "gm.condition-set", "target": "ana", "condition": "lit"})
    frames = list(walk(encounter.store, encounter.id, encounter.ruleset))
    cut = players_cut(frames, encounter.ruleset)
    assert cut.seen[secret].masked
    assert cut.number(ruling) is not None and not cut.seen[ruling].masked, "the ruling waits"


def test_fudge_the_resolutions_after_an_opposed_secret_attack_show_where_it_decides_none():
    """Bo's attack on Cy resolves on GM-only dice, 4dF against 4dF. 4dF is read by its total
    (`reads_totals`): its 81 pairs of totals are tried, not 6,561 faces, and the resolutions
    after it that no outcome changes (Bo2's attack on Ana) reach the players at once; Cy's
    own row waits for the disclosure."""
    encounter = fight("fudge", dice=[*f(2), *f(0), *f(-1), *f(0)])
    plans = {"bo": ["cy"], "bo2": ["ana"]}
    while encounter.state.phase == "declaring":
        who = encounter.state.current
        if who in plans:
            act(encounter, {"action": "attack", "actor": who, "targets": plans.pop(who)})
        act(encounter, {"action": "next"})
    while encounter.state.current != "bo":
        act(encounter, {"action": "next"})
    secret = act(encounter, {"action": "next"}, secret=True)
    public = [act(encounter, {"action": "next"})]
    assert any("ana" in str(e) for e in encounter.events_of_step(public[0]))
    public.append(act(encounter, ruling_on("ana")))
    shown_at_once(encounter, secret, public)
    cut = players_cut(
        list(walk(encounter.store, encounter.id, encounter.ruleset)), encounter.ruleset
    )
    before = {w.combatant: w for w in cut.seen[secret - 1].view.wounds}
    after = {w.combatant: w for w in cut.seen[public[-1]].view.wounds}
    assert after["cy"] == before["cy"], "Cy's row shows what the secret attack did"


# -- the players number the steps as the log does ------------------------------------------

UNSHOWN = "a step the GM has not shown yet"


def test_players_number_the_steps_as_the_log_does_with_a_gap_where_one_waits(tmp_path):
    """Alice's secret shot could drop Bob (3 HP), so the turn passing after it waits for the
    disclosure; the GM's ruling on Carol after that is step 8 at the GM's screen and at the
    players' alike, and step 7 shows to the players as a step the GM has not shown yet."""
    run = gm_cli(tmp_path / "f.db")
    run("new", "--id", "f")
    gun = ["--set", "skills.firearms=60", PISTOL, "--set", 'holding=["pistol"]']
    run("add", "alice", "--set", "dex=14", "--side", "pc", *gun)
    run("add", "bob", "--set", "dex=10", "--set", "hp=3", *gun)
    run("add", "carol", "--set", "dex=8")
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol", "--secret", "--dice", "30,2")  # 6
    run("next")  # 7: waits on the shot
    run("condition", "set", "carol", "lit")  # 8
    seen = surfaces(tmp_path / "f.db", "f")
    assert "- 8. The GM sets a condition on carol: carol is lit" in seen["md"]
    assert "- 7. A step the GM has not shown yet" in seen["md"]
    steps = [json.loads(line) for line in seen["jsonl"].splitlines()[1:]]
    assert [s["step"] for s in steps] == list(range(1, 9))
    assert steps[6] == {"type": "step", "encounter": "f", "step": 7, "unshown": UNSHOWN}
    assert steps[7]["events"][-1]["condition"] == "lit"
    for where in ("page", "stream"):
        assert "step the GM has not shown yet" in seen[where], f"no gap on the {where}"


# -- srd: a secret attack with too many outcomes to try, that cannot fell anyone ----------


def den() -> Encounter:
    """srd: a wolf, Maelis (a cleric of 24 HP), Brannoc (a fighter) and a goblin, begun; the
    order: wolf, brannoc, gob, maelis."""
    fracas = Fracas(":memory:")
    fracas.new("srd", encounter="den")
    for who, sample in (("wolf", "wolf"), ("maelis", "cleric"), ("brannoc", "fighter")):
        fracas.add(who, srd_sample(sample), "den")
    fracas.add("gob", srd_sample("goblin"), "den")
    encounter = fracas.encounter("den")
    encounter.execute(encounter.ruleset.command({"action": "begin"}), dice=[20, 2, 15, 1])
    return encounter


def test_srd_a_secret_bite_that_cannot_fell_its_target_leaves_the_next_turns_public():
    """The wolf's secret bite on Maelis (24 HP): an attack d20, 2d4 (4d4 on a critical) and a
    Strength save against prone are over 7,000 outcomes, past what fracas tries, so srd
    declares what they can reach. At most 18 damage cannot fell Maelis, so the turn is not
    reached: the turn passing to Brannoc, the GM's ruling on the goblin and Brannoc's own
    attack on the goblin reach the players at once; Maelis's row waits for the disclosure."""
    encounter = den()
    assert encounter.view().acting == ["wolf"]  # then brannoc, maelis, gob
    secret = act(
        encounter, {"action": "attack", "actor": "wolf", "targets": ["maelis"]}, secret=True
    )
    public = [
        act(encounter, {"action": "next"}),
        act(encounter, {"action": "gm.condition-set", "target": "gob", "condition": "lit"}),
        act(encounter, {"action": "attack", "actor": "brannoc", "targets": ["gob"]}),
    ]
    frames = list(walk(encounter.store, encounter.id, encounter.ruleset))
    cut = players_cut(frames, encounter.ruleset)
    assert cut.seen[secret].masked
    for step in public:
        assert cut.number(step) == step and not cut.seen[step].masked, f"step {step} waits"
    last = cut.seen[public[-1]]
    assert last.source == secret, "nothing waits on the bite: Maelis's row shows what it did"
    rows = {w.combatant: w for w in last.view.wounds}
    assert rows["maelis"].health.startswith("HP 24/24,"), "Maelis's row shows what it did"


def test_srd_what_is_left_of_a_condition_stands_while_the_round_is_the_secrets():
    """Brannoc's secret swing may kill the goblin, whose turn comes next: the turns after it
    wait, and with them the round. The wolf's 'lit for 3 rounds' reads what is left of it
    against the round, so its row says it as players last saw it, whatever the swing did
    (here it killed the goblin, and round 2 began unseen)."""
    encounter = den()
    act(encounter, {**ruling_on("wolf"), "rounds": 3})  # the order: wolf, brannoc, gob, maelis
    act(encounter, {"action": "next"})
    swing = encounter.ruleset.command({"action": "attack", "actor": "brannoc", "targets": ["gob"]})
    encounter.execute(swing, secret=True, dice=[20, 8, 8])  # a critical: 19 damage
    secret = encounter.history.head_step
    act(encounter, {"action": "next"}), act(encounter, {"action": "next"})  # round 2 begins
    ruling = act(encounter, ruling_on("maelis"))
    assert encounter.view().round == 2
    cut = players_cut(
        list(walk(encounter.store, encounter.id, encounter.ruleset)), encounter.ruleset
    )
    assert cut.shown(ruling) and cut.seen[ruling].view.round == 1
    said = {w.combatant: w.conditions for w in cut.seen[ruling].view.wounds}
    assert said["wolf"] == ["lit (3 rounds left, ending at initiative 22)"]
    assert said["maelis"] == ["lit"], "the ruling after the secret does not show"
    assert cut.seen[secret].masked


def test_a_secret_that_may_move_the_turn_reaches_whoever_holds_a_timed_condition():
    """A roll its ruleset says may move the turn (`Reach.shared`) may end, or keep, a
    condition that lasts to a turn's edge or for rounds, whoever holds it: its holder is
    among what the roll can change, though the ruleset names only the two sides (a shot-clock
    attack that takes its target out moves the clock past a bystander's condition "until the
    end of the target's next turn")."""
    encounter = fight("shotclock", {"action_dice": "d6-d6"})
    actor = encounter.view().acting[0]
    target, bystander, other = [who for who in encounter.state.fighters if who != actor][:3]
    for who, lasting in ((bystander, {"until": f"end:{target}"}), (other, {"rounds": 2})):
        encounter.execute(
            encounter.ruleset.command(
                {"action": "gm.condition-set", "target": who, "condition": "dazed", **lasting}
            )
        )
    act(encounter, {"action": "attack", "actor": actor, "targets": [target]}, secret=True)
    frame = list(walk(encounter.store, encounter.id, encounter.ruleset))[-1]
    declared = declared_reach(frame, encounter.ruleset)
    assert declared is not None and declared[1], "the attack may move the clock"
    assert {actor, target, bystander, other} <= declared[0], "a timed condition is left out"


def bitten_fight(bite_dice: list[int]) -> tuple[Encounter, int, int, int]:
    """srd: the wolf's secret bite on Brannoc (whose turn comes next), on `bite_dice`; the
    GM's `next` into Brannoc's turn; Brannoc's attack on the goblin. (The fight, its three
    steps.)"""
    encounter = den()
    assert encounter.view().upcoming[0] == "brannoc"  # the order: wolf, brannoc, gob, maelis
    bite = encounter.ruleset.command({"action": "attack", "actor": "wolf", "targets": ["brannoc"]})
    encounter.execute(bite, secret=True, dice=bite_dice)
    secret = encounter.history.head_step
    passed = act(encounter, {"action": "next"})
    swing = act(encounter, {"action": "attack", "actor": "brannoc", "targets": ["gob"]})
    return encounter, secret, passed, swing


BITES = {"prone": [18, 4, 4, 2], "hurt": [18, 1, 1, 19], "missed": [2]}  # d20, 2d4, save


def test_srd_the_turn_passes_at_once_to_a_creature_a_secret_bite_touched():
    """The wolf's secret bite on Brannoc cannot fell him: srd declares it reaches Brannoc
    alone, and not the turn. The GM's `next` into Brannoc's own turn is the turn passing as
    it would whatever the bite did: players see it at once, Brannoc acting, his row as they
    last saw it until the disclosure; his own attack, which reads what the bite did to him
    (prone: disadvantage), waits."""
    encounter, secret, passed, swing = bitten_fight(BITES["prone"])
    assert "prone" in {w.combatant: w for w in encounter.view().wounds}["brannoc"].conditions
    cut = players_cut(
        list(walk(encounter.store, encounter.id, encounter.ruleset)), encounter.ruleset
    )
    assert cut.seen[secret].masked
    assert cut.number(passed) == passed and not cut.seen[passed].masked, "the turn waits"
    view = cut.seen[passed].view
    assert view.acting == ["brannoc"] and view.round == 1
    rows = {w.combatant: w for w in view.wounds}
    assert rows["brannoc"] == {w.combatant: w for w in cut.seen[secret].view.wounds}["brannoc"]
    assert "prone" not in rows["brannoc"].conditions, "the bite's outcome shows"
    assert not cut.shown(swing), "Brannoc's attack reads what the bite did to him"


def test_srd_the_turn_passing_after_a_secret_bite_looks_the_same_whatever_it_did():
    """The same fight with the bite missing, hurting, or knocking Brannoc prone: the players
    see the same steps, the same turn passing and the same standings after it."""

    def seen(bite: list[int]) -> list[object]:
        encounter, secret, passed, swing = bitten_fight(bite)
        frames = list(walk(encounter.store, encounter.id, encounter.ruleset))
        cut = players_cut(frames, encounter.ruleset)
        told = []
        for step in (secret, passed, swing):
            shown = cut.shown(step) and not cut.seen[step].masked
            events = shown_events(frames[step - 1], cut) if shown else []
            said = [msgspec.to_builtins(e) for e in events]
            for event in said:
                event.pop("command_id", None)
            told.append((cut.seen[step].number, cut.seen[step].masked, said))
            told.append(msgspec.to_builtins(cut.seen[step].view))
        return told

    views = {name: seen(bite) for name, bite in BITES.items()}
    assert views["prone"] == views["hurt"] == views["missed"]
