"""The conformance kit finds what it says it finds: the guide's coin-flip duel passes it
(tests/test_guide.py), and each defect planted in a copy of it fails the check meant for it."""

import dataclasses
import itertools
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import Phase

from fracas.ledger import FracasError
from fracas.rules.api import CombatantRevealed, Event, Resolved, Rolled, View, event_union
from fracas.testing import (
    Cast,
    check_declarations,
    check_fight,
    check_hidden_combatant,
    check_secret_roll,
    check_unseen_figures,
)
from fracas.testing.checks import run
from fracas.testing.fights import HIDDEN
from tests.guide import coin_duel

SHEETS = {"ann": {"hp": 3}, "bo": {"hp": 2}, "cy": {"hp": 2}}


@pytest.fixture
def coin(tmp_path: Path):
    return coin_duel(tmp_path)


def planted(coin: Any, **changes: Any) -> Cast:
    """The duel with a defect, under a name of its own."""
    return Cast(dataclasses.replace(coin.RULESET, name="coin-bad", **changes), SHEETS)


def fails(check: Any, cast: Cast, says: str) -> None:
    with pytest.raises(AssertionError, match=says):
        run(check, cast, 30, phases=[Phase.generate])  # found; shrinking it is for authors


def test_a_decide_that_is_not_deterministic_fails(coin):
    drawn = itertools.count()

    def moody(state: Any, command: Any, ctx: Any) -> list[Event]:
        events = coin.decide(state, command, ctx)
        if next(drawn) % 2:  # judged differently when asked again
            events = [e for e in events if not isinstance(e, coin.Damaged)]
        return events

    fails(check_fight, planted(coin, decide=moody), "judged otherwise|other events|drift")


def test_a_roll_drawn_but_not_recorded_fails(coin):
    def peeking(state: Any, command: Any, ctx: Any) -> list[Event]:
        if isinstance(command, coin.Flip):
            ctx.dice.roll("d6", "a peek")
        return coin.decide(state, command, ctx)

    said = r"step \d+ \(flip\) drew d6 for 'a peek' but records no `Rolled` event"
    fails(check_fight, planted(coin, decide=peeking), said)


def test_a_rule_cited_but_not_stated_fails(coin):
    def citing(state: Any, command: Any, ctx: Any) -> list[Event]:
        events = coin.decide(state, command, ctx)
        return [
            msgspec.structs.replace(e, rules=[*e.rules, "coin-9"]) if isinstance(e, Rolled) else e
            for e in events
        ]

    fails(check_fight, planted(coin, decide=citing), r"does not state: \['coin-9'\]")


def test_an_event_of_its_own_without_a_line_for_the_log_fails(coin):
    class Shrugged(Event, tag="coin.shrugged"):
        who: str

    cast = planted(coin, event_type=event_union(Shrugged))
    with pytest.raises(AssertionError, match="Shrugged has no line for the log"):
        check_declarations(cast)


def test_a_view_that_spells_everyone_gives_a_hidden_combatant_away(coin):
    """A name said as itself is masked as someone unseen's; said otherwise (here spelled
    backwards), the check still sees who the hidden one is show through."""

    def gossip(state: Any) -> View:
        seen = coin.RULESET.view(state)
        names = ", ".join(f.name[::-1] for f in state.fighters.values())
        return msgspec.structs.replace(seen, notes=[f"present: {names}"])

    cast = planted(coin, view=gossip)
    fails(check_hidden_combatant, cast, "who the hidden combatant is shows through")


def test_a_secret_move_by_the_hidden_combatant_that_the_rules_reveal_passes(coin):
    """srd's attack gives a hidden attacker away, hit or miss: the check of GM-only rolls
    failed the plugin when its secret move was the hidden combatant's, holding a combatant
    the rules had revealed to never showing (a flake of srd's kit run, one in some 60)."""

    def telling(state: Any, command: Any, ctx: Any) -> list[Event]:
        events = coin.decide(state, command, ctx)
        if isinstance(command, coin.Flip) and command.actor == HIDDEN:
            events.append(CombatantRevealed(HIDDEN, reason="the flip gives it away"))
        return events

    run(check_secret_roll, planted(coin, decide=telling), 40, phases=[Phase.generate])


def test_a_decide_that_draws_from_random_names_the_step_and_the_fields(coin):
    import random

    def rash(state: Any, command: Any, ctx: Any) -> list[Event]:
        events = coin.decide(state, command, ctx)
        return [
            msgspec.structs.replace(e, amount=random.randint(1, 9))
            if isinstance(e, coin.Damaged)
            else e
            for e in events
        ]

    fails(
        check_fight,
        planted(coin, decide=rash),
        r"judged otherwise.*step \d+ \(\w+ flip \w+\)"
        r".*\(damaged\).*amount: was \d, now \d",
    )


def test_an_evolve_that_draws_from_random_names_the_step_and_the_fields(coin):
    import random

    def rash(state: Any, event: Any) -> Any:
        state = coin.evolve(state, event)
        if isinstance(event, coin.Damaged):
            state = coin.hp(state, event.target, -random.randint(0, 9))
        return state

    fails(
        check_fight,
        planted(coin, evolve=rash),
        r"folds to another state.*first after step \d+: fighters\.\w+\.hp: was -?\d+, now -?\d+",
    )


def test_a_failure_in_slow_fights_is_told_within_the_shrinking_bound(coin):
    import time

    def slow_and_broken(cast: Cast, data: Any) -> None:
        check_fight(cast, data)
        time.sleep(0.2)  # a fight of a big ruleset takes this long to play again
        raise AssertionError("a defect in every fight")

    began = time.monotonic()
    with pytest.raises(AssertionError, match="a defect in every fight"):
        run(slow_and_broken, planted(coin), 20, shrinking=2)
    assert time.monotonic() - began < 30  # hypothesis alone shrinks it for 80 s or more


def test_an_action_with_targets_but_no_verb_fails_with_what_to_add(coin):
    cast = planted(coin, verbs={})
    said = r"flip takes targets but has no verb: .*takes the flip action bo.*verbs=\{'flip': "
    with pytest.raises(AssertionError, match=said):
        check_declarations(cast)


def test_a_shrink_cut_short_is_told_in_the_kits_words_not_hypothesiss(coin, capsys):
    def broken(cast: Cast, data: Any) -> None:
        check_fight(cast, data)
        raise AssertionError("a defect in every fight")

    with pytest.raises(AssertionError, match="a defect in every fight"):
        run(broken, planted(coin), 5, shrinking=0)
    said = capsys.readouterr().out
    assert "PLEASE REPORT THIS" not in said and "five minutes" not in said, said
    assert "The kit stopped shrinking this fight after 0 seconds" in said, said


def dealing(coin: Any) -> Any:
    """The duel with a deck: `begin` deals each fighter a card of 52, one of each; a card
    already out goes back in and another is drawn, three times at most."""

    def decide(state: Any, command: Any, ctx: Any) -> list[Event]:
        if not isinstance(command, coin.Begin):
            return coin.decide(state, command, ctx)
        events: list[Event] = []
        dealt: list[int] = []
        for who in state.fighters:
            for _ in range(3):
                roll = ctx.dice.roll("d52", "deal")
                events.append(Rolled(who, "deal", roll, None, [], f"card {roll.total}", ["coin-1"]))
                if roll.total not in dealt:
                    break
            else:
                raise coin.RefusedError(f"card {roll.total} came up three times: one of each")
            dealt.append(roll.total)
        return events + coin.decide(state, command, ctx)

    return decide


DEALT = {"ann": {"hp": 3}, "bo": {"hp": 2}, "cy": {"hp": 2}, "di": {"hp": 2}}


def test_the_kit_fails_when_few_fights_begin_and_a_deck_declares_its_legal_faces(coin, capsys):
    from fracas.testing.checks import honest_fights

    deck = dataclasses.replace(coin.RULESET, name="deck", decide=dealing(coin))
    thin = Cast(deck, DEALT, begun=0.9)
    with pytest.raises(AssertionError, match=r"tested too little of deck: only \d+ of \d+ fights "
                       r"began .*Ruleset\.legal_faces"):  # fmt: skip
        honest_fights(thin, 20, shrinking=0)

    def cards_left(state: Any, purpose: str, drawn: Any) -> list[int]:
        return [card for card in range(1, 53) if card not in drawn]

    declared = dataclasses.replace(deck, legal_faces=cards_left)
    tally = honest_fights(Cast(declared, DEALT, begun=0.9), 20, shrinking=0)
    assert tally.begun == tally.fights > 0
    assert f"conformance coverage of deck: {tally.begun} of {tally.fights} fights began" in (
        capsys.readouterr().out
    )


def test_a_decide_that_crashes_fails_and_is_not_taken_for_a_refusal(coin):
    """The CLI tells a ruleset's crash in one line (RulesetFailedError, a FracasError): the
    kit still finds it as the bug it is."""

    def crashing(state: Any, command: Any, ctx: Any) -> list[Event]:
        if isinstance(command, coin.Flip):
            raise KeyError("hp")
        return coin.decide(state, command, ctx)

    with pytest.raises(Exception, match="'hp'"):
        run(check_fight, planted(coin, decide=crashing), 30, phases=[Phase.generate])


def test_a_figure_of_the_hidden_sheet_in_an_outcome_fails_and_in_its_detail_passes(coin):
    """An outcome that says the one flipping's hit points reads its sheet: a hidden
    combatant's flip would tell the players its hit points. Given as the outcome's detail,
    the figure is the GM's alone and the check passes."""

    def boasting(detailed: bool) -> Any:
        def decide(state: Any, command: Any, ctx: Any) -> list[Event]:
            events = coin.decide(state, command, ctx)
            if not isinstance(command, coin.Flip):
                return events
            hp = state.fighters[command.actor].hp
            said = ("flips", f"{hp} hp") if detailed else (f"flips with {hp} hp", "")
            return [
                *events,
                Resolved(command.actor, "flip", command.targets, said[0], [], *said[1:]),
            ]

        return decide

    fails(
        check_unseen_figures, planted(coin, decide=boasting(False)), "a figure in Resolved.outcome"
    )
    run(check_unseen_figures, planted(coin, decide=boasting(True)), 30, phases=[Phase.generate])


def test_an_unseen_actors_turn_that_ends_by_its_sheet_is_not_taken_for_a_figure(coin):
    """Time slices: a hidden combatant's attack that spent its last TS passes the turn, and
    the next in order may be skipped ("no TS to spend"); with its weapon one TS dearer, the
    turn passed where it did not. The turn moving on is what the step did, and players see
    it: the check read the skip's words as a figure of the hidden sheet. Here a flip by one
    with an even hp keeps the turn; with an odd one it passes, said on the next."""

    def keeping(state: Any, command: Any, ctx: Any) -> list[Event]:
        events = coin.decide(state, command, ctx)
        if not isinstance(command, coin.Flip) or command.actor != HIDDEN:
            return events
        events = [*events, Resolved(HIDDEN, "flip", command.targets, "flips", [])]
        if state.fighters[command.actor].hp % 2 == 0:
            return [e for e in events if not isinstance(e, coin.TurnAdvanced)]
        passed = [e for e in events if isinstance(e, coin.TurnAdvanced)]
        told = [Resolved(e.actor, "turn", [], "takes the turn", []) for e in passed if e.actor]
        return [*events, *told]

    run(check_unseen_figures, planted(coin, decide=keeping), 40, phases=[Phase.generate])


def test_an_action_never_taken_fails_naming_it_and_why_it_was_refused(coin):
    """Every flip refused (a command field the CLI never fills, say): the fights still
    begin and pass, but the kit tested nothing of the flip, and says so."""
    from fracas.testing.checks import honest_fights

    def refusing(state: Any, command: Any, ctx: Any) -> list[Event]:
        if isinstance(command, coin.Flip):
            raise coin.RefusedError("no such target ''")
        return coin.decide(state, command, ctx)

    cast = Cast(
        dataclasses.replace(coin.RULESET, name="coin-bad", decide=refusing), SHEETS, taken=0
    )
    said = (
        r"tested too little of coin-bad: never taken: "
        r"flip \(refused \d+ times in turn, most often: no such target ''"
    )
    with pytest.raises(AssertionError, match=said):
        honest_fights(cast, 10, shrinking=0)


def test_a_command_with_no_action_declared_fails_the_declarations_saying_what_to_declare(coin):
    cast = planted(coin, actions={})
    said = (
        r"^flip is a command of coin-bad but not among its actions: "
        r"give the Ruleset actions=\{'flip': "
    )
    with pytest.raises(AssertionError, match=said):
        check_declarations(cast)


@pytest.mark.parametrize(
    ("field", "wrong", "expected"),
    [
        ("actions", ["flip"], r"actions must be dict\[str, str\], not list \['flip'\]"),
        ("verbs", "flips", r"verbs must be dict\[str, str\], not str 'flips'"),
        ("conditions", {"down"}, r"conditions must be frozenset\[str\], not set"),
        ("actions", {"flip": 3}, r"actions must be dict\[str, str\], not dict"),
        ("view", "view", r"view must be a function"),
    ],
)
def test_a_ruleset_declared_with_a_wrong_type_names_the_field_and_the_type(
    coin, field, wrong, expected
):
    with pytest.raises(TypeError, match=rf"^Ruleset coin-bad: {expected}"):
        dataclasses.replace(coin.RULESET, name="coin-bad", **{field: wrong})


def test_an_option_without_a_default_fails_the_declarations_and_says_the_rule(coin):
    class Options(msgspec.Struct, forbid_unknown_fields=True):
        target: int

    cast = planted(coin, options_type=Options)
    said = r"option target of coin-bad has no default: every option field needs a default"
    with pytest.raises(AssertionError, match=said):
        check_declarations(cast)
    with pytest.raises(FracasError, match=said):
        cast.rules.options({})


class Scene(msgspec.Struct, tag="aim"):
    targets: list[str] = []
    defence: dict[str, str] = {}
    extra: str = ""


def test_a_fields_values_are_drawn_in_every_command_and_a_tables_as_its_entries() -> None:
    """An author's `values` for a table field fill its entries (a string for the whole table
    refused every command that drew it), and a field given values is always drawn."""
    from hypothesis import given, settings

    from fracas.testing.fights import Words, command_strategy

    ruleset = type("R", (), {"command_struct": staticmethod(lambda action: Scene)})()
    words = Words(["ann", "bo"], ["ann"], [], [], {"defence": ("shield",), "extra": ("1d6",)})

    @settings(max_examples=30, database=None)
    @given(command_strategy(ruleset, "aim", words))  # type: ignore[arg-type]
    def drawn(command: dict[str, Any]) -> None:
        assert command["extra"] == "1d6"
        assert set(command["defence"].values()) <= {"shield"}
        assert set(command["defence"]) <= {"ann", "bo"}

    drawn()
