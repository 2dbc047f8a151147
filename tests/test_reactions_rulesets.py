"""Waiting for a reaction in every ruleset whose rules give the target a choice inside the
attack (fudge's defences are declared before, in its declare phase: it asks nothing; srd's
are the reactions a target's sheet has, shield and the like). Each: asked, answered by the
player, by the GM, timed out; through the API and the CLI."""

import time
from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from fracas.rules.events import Declared, ReactionAsked, ReactionGiven, ReactionTimedOut
from fracas.rules.reactions import Ask
from tests.casts.pool import pool_fight
from tests.casts.shotclock import BOSS, JACK, shot_fight
from tests.casts.timeslice import ts_fight
from tests.support import KNIFE, do, fight, gunner, sheet, srd_sample

PAST = "2020-01-01T00:00:00Z"
KNIFER = gunner(weapons=[KNIFE], holding=["knife"], skills={"melee weapons": 60})


def percentile(fracas: Fracas):
    return fight(fracas, ("alice", KNIFER), ("bob", sheet(10, hp=12)))


def srd(fracas: Fracas):
    """A goblin, then Ilse the wizard (shield, hellish rebuke) in the d20 rules."""
    e = fracas.new("srd", title="test")
    for who, kind, side in (("gob", "goblin", "npc"), ("ilse", "wizard", "pc")):
        read = srd_sample(kind)
        do(e, {"action": "join", "combatant": who, "sheet": read, "side": side})
    do(e, {"action": "begin"}, [20, 5])
    return e


def shotclock(fracas: Fracas):
    return shot_fight(fracas, ("jack", JACK), ("boss", BOSS), initiative=[4, 3])


# ruleset: (the fight, the attacker, the target, the weapon, the options, the default, a choice)
CASES: dict[str, tuple[Any, str, str, str, list[str], str, str]] = {
    "percentile": (percentile, "alice", "bob", "knife", ["dodge", "fight-back", "none"], "none",
                   "fight-back"),
    "shotclock": (shotclock, "jack", "boss", "beretta", ["passive", "dodge", "parry"], "passive",
                  "parry"),
    "pool": (pool_fight, "ana", "bob", "sword", ["dodge", "parry", "clash", "none"], "none",
             "clash"),
    "timeslice": (ts_fight, "alice", "orc", "sword", ["dodge", "parry"], "dodge", "parry"),
    "srd": (srd, "gob", "ilse", "scimitar", ["none", "shield"], "none", "shield"),
}  # fmt: skip
# srd asks once the attack hits (srd-39): its roll comes first, typed here so that it hits,
# and the answer fills the command's field of reactions chosen so
ROLLED_FIRST = {"srd": [10]}  # 10 + 4 = 14 vs AC 12: a hit shield can turn
FIELD = {"srd": "on_hit"}


def attack(case, target: str | None = None) -> dict[str, Any]:
    _make, actor, defender, weapon, *_ = case
    return {"action": "attack", "actor": actor, "targets": [target or defender], "weapon": weapon}


def audit_clean(fracas: Fracas) -> None:
    report = fracas.audit()
    assert report.ok and report.drift_checked and not report.drift, report


@pytest.mark.parametrize("name", sorted(CASES))
def test_ask_answer_gm_answer_and_timeout_through_the_api(fracas, name):
    case = CASES[name]
    make, _actor, target, _weapon, options, default, choice = case
    e = make(fracas)
    asked = e.execute(e.ruleset.command(attack(case)), ask=Ask(PAST), dice=ROLLED_FIRST.get(name))
    field = FIELD.get(name, "defence")
    (question,) = [ev for ev in asked.events if isinstance(ev, ReactionAsked)]
    assert question.choices.options == options and question.choices.default == default
    waiting = e.state
    by_player = fracas.answer(target, choice, e.id, author=f"{target}-player")
    assert ReactionGiven(target, choice, f"{target}-player") in by_player.events
    (declared,) = [ev for ev in by_player.events if isinstance(ev, Declared)]
    assert declared.command[field].get(target, default) == choice
    e.refresh()
    assert e.waiting() is None
    e.undo()
    assert e.state == waiting
    by_gm = fracas.answer(target, choice, e.id)
    assert ReactionGiven(target, choice, "gm") in by_gm.events
    e.refresh()
    e.undo()
    timed = fracas.timeout(e.id, author="screen")
    (out,) = [ev for ev in timed.events if isinstance(ev, ReactionTimedOut)]
    assert (out.choice, out.rule) == (default, question.choices.rule)
    while any(isinstance(ev, ReactionAsked) for ev in timed.events):  # srd: hellish rebuke
        timed = fracas.timeout(e.id, author="screen")  # is asked next, once the damage lands
    (declared,) = [ev for ev in timed.events if isinstance(ev, Declared)]
    assert declared.command[field].get(target, default) == default
    audit_clean(fracas)


@pytest.mark.parametrize("name", sorted(CASES))
def test_ask_answer_and_timeout_through_the_cli(fracas, run, name):
    case = CASES[name]
    make, actor, target, weapon, options, _default, choice = case
    e = make(fracas)
    first = [str(face) for face in ROLLED_FIRST.get(name, [])]
    typed = ["--dice", ",".join(first)] if first else []
    asked = run("-e", e.id, "act", actor, "attack", target, "-w", weapon, "--ask", "--wait", "1",
                *typed)  # fmt: skip
    assert f"({' | '.join(options)})" in asked.output
    refused = run("-e", e.id, "next", ok=False)
    assert refused.exit_code != 0 and f"waits for the reaction of {target}" in refused.output
    run("-e", e.id, "answer", target, choice, "--by", f"{target}-player")
    run("-e", e.id, "undo")
    early = run("-e", e.id, "answer", "--timeout", ok=False)
    if early.exit_code:  # within the second: refused in one line, nothing appended
        assert "not yet" in early.output
        time.sleep(1.1)
        run("-e", e.id, "answer", "--timeout")
    while "no attack waits" not in run("-e", e.id, "answer").output:  # srd: hellish rebuke
        run("-e", e.id, "answer", "--timeout")  # is asked next, once the damage lands
    assert "no attack waits" in run("-e", e.id, "answer").output
    assert "rules drift: none" in run("audit").output


def test_an_attack_that_asks_a_target_with_no_choice_is_decided_at_once_and_says_so(run):
    """Brannoc, a fighter, has no reaction to choose against the goblin's scimitar: --ask
    asks nobody, and the step says the attack was decided at once, whoever holds a link."""
    samples = Path(__file__).parents[1] / "plugins" / "srd" / "fracas_srd" / "samples"
    run("new", "-r", "srd")
    run("add", "gob", "--sheet", str(samples / "goblin.toml"))
    run("add", "brannoc", "--sheet", str(samples / "fighter.toml"), "--side", "pc")
    run("begin", "--dice", "20,5")
    decided = run("act", "gob", "attack", "brannoc", "-w", "scimitar", "--ask").output
    assert "gob attacks brannoc" in decided and "waiting" not in decided
    assert (
        "asked nobody: no target has a choice of reaction to this attack, so it was decided "
        "at once" in decided
    )
    # srd's --ask rolls the attack first (its reactions answer a hit), so takes --dice for
    # it (plugins/srd/tests/test_asked_after_roll.py); elsewhere --ask rolls nothing
    run("new", "-r", "percentile", "--id", "asks")
    run("-e", "asks", "add", "alice", "--sheet", "cli/demo_sheets/alice.toml")
    run("-e", "asks", "add", "bob", "--set", "dex=9", "--set", "skills.dodge=50")
    run("-e", "asks", "begin")
    refused = run("-e", "asks", "act", "alice", "attack", "bob", "--ask", "--dice", "9",
                  ok=False)  # fmt: skip
    assert refused.exit_code != 0
    assert refused.output.strip() == (
        "Error: an attack that asks rolls nothing yet: give --dice to `answer`, or leave "
        "--ask out to decide the attack at once with these dice"
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_asked_line_names_the_choices_as_the_buttons_do(fracas, name):
    """An outside table tester (issue 37): percentile's log said "asked to react: dodge or
    fight-back or none" where the button said "fight back"; each choice is said in words,
    asked and answered, in every ruleset."""
    from fracas.projections.replay import timeline

    case = CASES[name]
    make, _actor, target, _weapon, options, _default, choice = case
    e = make(fracas)
    e.execute(e.ruleset.command(attack(case)), ask=Ask(PAST), dice=ROLLED_FIRST.get(name))
    fracas.answer(target, choice, e.id, author=f"{target}-player")
    said = " ".join(
        f"{m.step.sentence} {m.step.headline}" for m in timeline(fracas.encounter(e.id))
    )
    words = [option.replace("-", " ").replace("_", " ") for option in options]
    assert f"is asked to react: {' or '.join(words)}" in said, said
    assert f"chooses {choice.replace('-', ' ').replace('_', ' ')}" in said, said
    assert f"answers {choice}" not in said or "-" not in choice, said
