"""Waiting for a reaction (rules/reactions.py): an attack that gives its target a choice waits
for the answer of the target's player, the GM, or the clock; then it is decided, in the
answering step, with the answer filled into its command."""

import contextlib
import time

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.ledger import BadInputError, FracasError, RefusedError
from fracas.projections import Fracas
from fracas.projections.secrecy import players_cut
from fracas.rules import snapshots
from fracas.rules.events import Declared, ReactionAsked, ReactionGiven, ReactionTimedOut, Rolled
from fracas.rules.reactions import Ask
from fracas.rules.timeline import walk
from fracas.testing.tiers import examples
from tests.support import KNIFE, cli_gunfight, do, fight, gunner, hp, rolls, sheet

PAST = "2020-01-01T00:00:00Z"
LATER = "2020-01-01T00:01:00Z"
KNIFER = gunner(weapons=[KNIFE], holding=["knife"], skills={"melee weapons": 60})


def knife_fight(fracas: Fracas, **options):
    return fight(fracas, ("alice", KNIFER), ("bob", sheet(10, hp=12)), options=options)


def ask_attack(e, deadline: str = "", target: str = "bob", **fields):
    command = e.ruleset.command(
        {"action": "attack", "actor": "alice", "targets": [target], **fields}
    )
    return e.execute(command, ask=Ask(deadline))


def audit_clean(fracas: Fracas) -> None:
    report = fracas.audit()
    assert report.ok and report.drift_checked and not report.drift, report


def test_000_13_an_asked_attack_waits_with_no_dice_rolled(fracas):
    e = knife_fight(fracas)
    asked = ask_attack(e, PAST)
    assert not rolls(asked.events)
    (question,) = [ev for ev in asked.events if isinstance(ev, ReactionAsked)]
    assert question.target == "bob" and question.deadline == PAST
    assert question.choices.options == ["dodge", "fight-back", "none"]
    assert (question.choices.default, question.choices.rule) == ("none", "000-13")
    pending = fracas.pending(e.id)
    assert pending is not None and pending.waiting_on == ["bob"] and pending.attacker == "alice"
    assert hp(e, "bob") == 12
    audit_clean(fracas)


def test_000_17_a_ranged_attack_offers_no_fight_back(fracas):
    e = fight(fracas, ("alice", gunner()), ("bob", sheet(10)))
    asked = ask_attack(e)
    (question,) = [ev for ev in asked.events if isinstance(ev, ReactionAsked)]
    assert question.choices.options == ["dodge", "none"]


def test_the_players_answer_decides_the_attack_in_the_answering_step(fracas):
    e = knife_fight(fracas)
    ask_attack(e)
    answered = fracas.answer("bob", "dodge", e.id, author="bob-player", dice=[40, 70, 3])
    given = [ev for ev in answered.events if isinstance(ev, ReactionGiven)]
    assert given == [ReactionGiven("bob", "dodge", "bob-player")]
    assert [r.purpose for r in rolls(answered.events)] == ["attack on bob", "dodge", "knife damage"]
    assert all(r.roll.entered_by == "bob-player" for r in rolls(answered.events))
    e.refresh()
    assert hp(e, "bob") == 9 and e.waiting() is None
    assert (e.state.round, e.state.turn) == (2, "alice")  # the dodge was bob's action (000-13)
    assert fracas.log(e.id)[-1].author == "bob-player"
    audit_clean(fracas)


def test_the_gm_answers_for_them(fracas):
    e = knife_fight(fracas)
    ask_attack(e)
    answered = fracas.answer("bob", "fight-back", e.id, dice=[70, 20, 2])
    assert ReactionGiven("bob", "fight-back", "gm") in answered.events
    e.refresh()
    assert hp(e, "alice") == 9 and hp(e, "bob") == 12  # a winning fight back: 1d4-1 back
    audit_clean(fracas)


def test_after_the_deadline_the_rules_default_applies(fracas):
    e = knife_fight(fracas)
    ask_attack(e, LATER)
    with pytest.raises(RefusedError, match=f"not yet: the answer is due by {LATER}"):
        fracas.timeout(e.id, at=PAST)
    timed = fracas.timeout(e.id, at=LATER, author="screen", dice=[40, 4])
    assert ReactionTimedOut("bob", "none", "000-13", LATER, "screen") in timed.events
    e.refresh()
    assert hp(e, "bob") == 8  # no defence: the hit lands
    audit_clean(fracas)


def test_no_deadline_no_timeout(fracas):
    e = knife_fight(fracas)
    ask_attack(e)
    with pytest.raises(RefusedError, match="no deadline"):
        fracas.timeout(e.id)


def test_while_it_waits_other_actions_are_refused_naming_who_is_waited_on(fracas):
    e = knife_fight(fracas)
    ask_attack(e)
    version = e.version
    for command in ({"action": "next"}, {"action": "aim", "actor": "bob"}):
        with pytest.raises(RefusedError, match="waits for the reaction of bob"):
            do(e, command)
    assert e.version == version
    do(e, {"action": "gm.harm", "target": "bob", "amount": 1})  # the GM's commands go on
    e.note("Bob hesitates")  # a note is no command: nothing to refuse
    fracas.answer("bob", "none", e.id, dice=[40, 1])
    e.refresh()
    assert hp(e, "bob") == 10
    audit_clean(fracas)


def test_bad_answers_are_one_line_and_append_nothing(fracas):
    e = knife_fight(fracas)
    ask_attack(e)
    version = e.version
    with pytest.raises(BadInputError, match="'parry' is not a reaction bob may choose"):
        fracas.answer("bob", "parry", e.id)
    with pytest.raises(RefusedError, match="alice is not asked to react"):
        fracas.answer("alice", "dodge", e.id)
    e.refresh()
    assert e.version == version
    fracas.withdraw(e.id, reason="changed her mind")
    with pytest.raises(RefusedError, match="no attack is waiting"):
        fracas.answer("bob", "dodge", e.id)


def test_undo_of_the_answer_returns_to_waiting_and_of_the_ask_takes_it_back(fracas):
    e = knife_fight(fracas)
    before = e.state
    ask_attack(e)
    waiting = e.state
    fracas.answer("bob", "dodge", e.id, dice=[40, 70, 3])
    e.refresh()
    answered = e.state
    e.undo()
    assert e.state == waiting and e.waiting() is not None
    e.undo()
    assert e.state == before and e.waiting() is None
    e.redo()
    e.redo()
    assert e.state == answered
    audit_clean(fracas)


def test_withdrawn_the_attack_never_happened_and_the_actor_acts_again(fracas):
    e = knife_fight(fracas)
    ask_attack(e)
    fracas.withdraw(e.id)
    e.refresh()
    assert e.waiting() is None and e.state.turn == "alice"
    do(e, {"action": "attack", "actor": "alice", "targets": ["bob"]}, [90])
    audit_clean(fracas)


def test_nobody_with_a_choice_means_no_waiting(fracas):
    e = knife_fight(fracas)
    decided = ask_attack(e, unaware=["bob"])
    assert rolls(decided.events) and e.waiting() is None
    given = knife_fight(fracas)  # a defence the command gives already is not asked again
    assert rolls(ask_attack(given, defence={"bob": "dodge"}).events)


def test_an_illegal_attack_is_refused_when_asked_not_when_answered(fracas):
    e = knife_fight(fracas)
    version = e.version
    with pytest.raises(RefusedError, match="it is alice's turn"):
        e.execute(
            e.ruleset.command({"action": "attack", "actor": "bob", "targets": ["alice"]}),
            ask=Ask(),
        )
    assert e.version == version


def test_an_answer_the_state_no_longer_allows_is_refused_and_the_gm_can_withdraw(fracas):
    e = knife_fight(fracas)
    ask_attack(e)
    do(e, {"action": "gm.remove", "target": "alice"})
    with pytest.raises(RefusedError):
        fracas.answer("bob", "dodge", e.id, dice=[40, 70, 3])
    fracas.withdraw(e.id, reason="alice fled")
    audit_clean(fracas)


def test_the_player_and_the_gm_answering_at_once_one_lands(fracas, log_location):
    e = knife_fight(fracas)
    ask_attack(e)
    with Fracas(log_location) as other:
        gm_side = other.encounter(e.id)  # folded now: it too sees the attack waiting
        assert gm_side.waiting() is not None
        fracas.answer("bob", "dodge", e.id, author="bob-player", dice=[40, 70, 3])
        command = gm_side.ruleset.command(
            {"action": "answer", "combatant": "bob", "choice": "none"}
        )
        with pytest.raises(RefusedError, match="no attack is waiting for a reaction"):
            gm_side.execute(command, dice=[40, 3])
        assert gm_side.waiting() is None and hp(gm_side, "bob") == 9  # the fresh state
    audit_clean(fracas)


def test_a_secret_attack_decides_gm_only_when_answered(fracas):
    e = knife_fight(fracas)
    command = e.ruleset.command({"action": "attack", "actor": "alice", "targets": ["bob"]})
    e.execute(command, ask=Ask(), secret=True)
    question = fracas.pending(e.id, players=True)
    assert question is not None and question.command["actor"] == "alice"
    answered = fracas.answer("bob", "dodge", e.id, dice=[40, 70, 3])
    assert all(isinstance(r, Rolled) and r.secret for r in rolls(answered.events))
    audit_clean(fracas)


def test_a_hidden_attackers_question_reaches_the_players_asked_by_someone_unseen(fracas):
    """Issue 38: the players see the question (Bob's player answers it), never who asks."""
    e = knife_fight(fracas)
    fracas.add("lurker", KNIFER, e.id, hidden=True)
    do(e, {"action": "gm.remove", "target": "alice"})  # the lurker's turn comes
    while e.state.turn != "lurker":
        do(e, {"action": "next"})
    command = e.ruleset.command({"action": "attack", "actor": "lurker", "targets": ["bob"]})
    e.execute(command, ask=Ask())
    assert fracas.pending(e.id) is not None
    asked = fracas.pending(e.id, players=True)
    assert asked is not None and asked.attacker_name == "Someone unseen"
    assert [r.target for r in asked.reactions] == ["bob"]
    assert "lurker" not in msgspec.json.encode(asked).decode().lower()
    fracas.answer("bob", "none", e.id, dice=[90])
    audit_clean(fracas)


# -- through the CLI -------------------------------------------------------------------------


def test_cli_ask_status_refusal_answer_undo_timeout_and_audit(run):
    cli_gunfight(run, 12)
    asked = run("act", "alice", "attack", "bob", "--ask", "--wait", "1")
    assert "bob is asked" not in asked.output and "waiting: alice's attack" in asked.output
    assert "(dodge | none)" in run("status").output
    refused = run("next", ok=False)
    assert refused.exit_code != 0 and "waits for the reaction of bob" in refused.output
    assert "Traceback" not in refused.output
    run("answer", "bob", "dodge", "--by", "bob", "--dice", "30,90,5")
    assert "HP 7/12" in run("status").output
    run("undo")
    assert "waiting:" in run("answer").output
    time.sleep(1.1)
    run("answer", "--timeout", "--dice", "30,5")
    assert "no attack waits" in run("answer").output
    assert "rules drift: none" in run("audit").output


def test_cli_refuses_answer_misuse_in_one_line(run):
    cli_gunfight(run, 12)
    for args in (("answer", "bob"), ("answer", "bob", "dodge", "--timeout")):
        result = run(*args, ok=False)
        assert result.exit_code != 0 and "answer takes TARGET CHOICE" in result.output
    result = run("act", "alice", "attack", "bob", "--wait", "5", ok=False)
    assert "--wait goes with --ask" in result.output
    result = run("answer", "bob", "dodge", ok=False)
    assert "no attack is waiting" in result.output


# -- any mix of asks, answers, undos ---------------------------------------------------------


@pytest.mark.long
@settings(
    max_examples=examples(full=15, fast=5),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.sampled_from(
            ["ask", "answer", "gm-answer", "timeout", "withdraw", "undo", "redo", "harm", "next"]
        ),
        max_size=14,
    )
)
def test_any_mix_of_asks_answers_and_undos_folds_and_audits_as_live(log_location, moves):
    with Fracas(log_location, create=True) as fracas:
        e = knife_fight(fracas)
        for move in moves:
            with contextlib.suppress(FracasError):
                play_move(fracas, e, move)
            e.refresh()
        assert e.fold() == e.state
        audit_clean(fracas)


def play_move(fracas: Fracas, e, move: str) -> None:
    waiting = e.waiting()
    target = waiting.unanswered[0] if waiting else "bob"
    match move:
        case "ask":
            actor = e.state.turn or "alice"
            other = "bob" if actor == "alice" else "alice"
            command = {"action": "attack", "actor": actor, "targets": [other]}
            e.execute(e.ruleset.command(command), ask=Ask(PAST))
        case "answer" | "gm-answer":
            choice = waiting.asked[target].options[0] if waiting else "dodge"
            author = "gm" if move == "gm-answer" else f"{target}-player"
            fracas.answer(target, choice, e.id, author=author)
        case "timeout":
            fracas.timeout(e.id, at=LATER)
        case "withdraw":
            fracas.withdraw(e.id)
        case "undo":
            e.undo()
        case "redo":
            e.redo()
        case "harm":
            do(e, {"action": "gm.harm", "target": "bob", "amount": 1})
        case "next":
            do(e, {"action": "next"})


def test_000_4_an_automatic_burst_waits_for_every_target(fracas):
    e = fight(fracas, ("alice", gunner()), ("bob", sheet(10)), ("carol", sheet(9)))
    command = {"action": "attack", "actor": "alice", "targets": ["bob", "carol"]}
    e.execute(e.ruleset.command(command), ask=Ask(PAST))
    first = fracas.answer("carol", "dodge", e.id, author="carol-player")
    assert not rolls(first.events)
    question = fracas.pending(e.id)
    assert question is not None and question.waiting_on == ["bob"]
    assert [r.answered for r in question.reactions] == [None, "dodge"]
    timed = fracas.timeout(e.id, at=LATER)
    assert [ev.target for ev in timed.events if isinstance(ev, ReactionTimedOut)] == ["bob"]
    (declared,) = [ev for ev in timed.events if isinstance(ev, Declared)]
    assert declared.command["defence"] == {"carol": "dodge"}  # bob's default: none
    audit_clean(fracas)


def test_a_snapshot_taken_while_waiting_resumes_waiting(fracas, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 2)
    e = knife_fight(fracas)
    ask_attack(e)
    e.note("one")
    e.note("two")
    resumed = fracas.encounter(e.id)
    assert resumed.waiting() == e.waiting() is not None
    fracas.answer("bob", "none", e.id, dice=[40, 1])
    report = fracas.audit()
    assert report.ok and report.snapshots_checked and not report.snapshots


def test_a_secret_attacks_answer_is_masked_for_the_players(fracas):
    e = knife_fight(fracas)
    command = e.ruleset.command({"action": "attack", "actor": "alice", "targets": ["bob"]})
    asking = e.execute(command, ask=Ask(), secret=True).step
    answering = fracas.answer("bob", "dodge", e.id, dice=[40, 70, 3]).step
    cut = players_cut(list(walk(e.store, e.id, e.ruleset)), e.ruleset)
    assert cut.shown(asking) and not cut.seen[asking].masked  # the question: the command only
    assert cut.seen[answering].masked  # what the answer decided is the GM's
    assert cut.seen[answering].view.wounds == cut.seen[asking].view.wounds  # bob's HP unseen


@pytest.mark.sqlite_file
def test_play_shows_who_is_waited_on_and_takes_the_answer(tmp_path):
    from fracas.cli.main import App, cli
    from fracas.cli.shell import Session
    from tests.terminal import set_up

    db = tmp_path / "fight.db"
    set_up(db)
    app = App(str(db), None)
    session = Session(app, cli)
    session.run("attack bob --ask")
    assert "waiting for bob (dodge | none)" in session.toolbar()
    session.run("next")
    assert session.last.startswith("refused: not now")
    session.run("answer bob dodge --dice 30,90,5")
    assert "waiting" not in session.toolbar()
    # its headline, with what the dodge did to the attack (issue 37)
    assert (
        session.last
        == "bob answers dodge: bob's dodge (failure); Alice Reyes attacks bob: hit; bob takes 5"
    )
    app.close()
