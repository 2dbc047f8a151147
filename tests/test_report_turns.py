"""The report files each step under the turn it belongs to, as the ruleset says (issue 40):
an attack a creature makes on its own turn asking for a reaction is that turn's, a
legendary action at the end of another's turn stays at that turn's end (srd-29)."""

import json

import pytest

from fracas.projections import Fracas
from fracas.projections.report import encounter_report
from tests.support import SIX, member_sheet, srd_fight


def filed(run) -> list[tuple[str, int, str]]:
    """Each main-line step's turn heading, round and sentence, as the report files them."""
    with Fracas(run.db) as log:
        found = encounter_report(log.store, log.store.encounters()[-1])
    return [
        (t.title, e.step.round, e.step.sentence)
        for r in found.rounds
        for t in r.turns
        for e in t.entries
    ]


def asked(steps: list[tuple[str, int, str]]) -> list[tuple[str, int]]:
    return [(title, number) for title, number, said in steps if "is asked to react" in said]


def test_an_asked_attack_on_the_attacker_s_own_turn_is_filed_under_that_turn(run) -> None:
    srd_fight(run, "20,15", ("ilse", "wizard", "pc"), ("gob", "goblin", "npc"))
    run("next")  # Ilse's turn ends; the goblin's begins
    run("act", "gob", "attack", "ilse", "--ask", "--dice", "15,3")
    run("answer", "ilse", "none")
    steps = filed(run)
    assert asked(steps) == [("Gob's turn", 1)], steps


def test_the_owlbear_s_round_2_attack_is_filed_under_its_round_2_turn(run) -> None:
    """The first to act in round 2 attacks, asking for a reaction: round 2's, not round 1's."""
    srd_fight(run, "20,5", ("bear", "owlbear", "npc"), ("ilse", "wizard", "pc"))
    run("next")
    run("next")  # round 1 ends with Ilse's turn; the owlbear's round 2 begins
    run("act", "bear", "attack", "ilse", "-w", "claws", "--ask", "--dice", "15,3,3")
    run("answer", "ilse", "none")
    steps = filed(run)
    assert asked(steps) == [("Bear's turn", 2)], steps


def test_a_legendary_attack_asking_at_another_s_turn_end_stays_at_that_turn_end(run) -> None:
    """srd-29: a legendary action comes at the end of another creature's turn: asking for
    a reaction, it is still that turn's, even when its creature acts next."""
    srd_fight(run, "20,15", ("ilse", "wizard", "pc"), ("wyrm", "wyrm", "npc"))
    run("next")  # Ilse's turn ends; the wyrm's is next
    run("act", "wyrm", "legendary", "ilse", "-o", "option=tail attack", "--ask",
        "--dice", "15,3,3")  # fmt: skip
    run("answer", "ilse", "none")
    run("act", "wyrm", "dash")
    steps = filed(run)
    assert asked(steps) == [("Ilse's turn", 1)], steps
    assert [t for t, _n, said in steps if "dash" in said.lower()] == ["Wyrm's turn"], steps


def test_a_critical_hit_asking_for_a_reaction_is_summed_up_with_its_damage(run) -> None:
    """The goblin's natural 20 waits for Ilse's reaction: the summary lists the critical
    once, on Ilse, with the damage it did once answered."""
    srd_fight(run, "20,15", ("ilse", "wizard", "pc"), ("gob", "goblin", "npc"))
    run("next")
    run("act", "gob", "attack", "ilse", "--ask", "--dice", "20,3,4")
    run("answer", "ilse", "none")  # 3 + 4 + 2 Dex: 9 slashing
    with Fracas(run.db) as log:
        found = encounter_report(log.store, log.store.encounters()[-1])
    assert [c.sentence for c in found.summary.criticals] == ["Gob's attack on Ilse: 9 damage"]
    for fmt in ("md", "html"):
        text = run("export", "--format", fmt).output
        assert "Gob's attack on Ilse: 9 damage." in text.replace("&#39;", "'"), fmt


def ilse_shielded_and_gob_held(run) -> None:
    """Ilse's shield answers Gob 2's attack; Maelis holds Gob, whose turn comes next."""
    srd_fight(run, "20,15,10,5", ("gob2", "goblin", "npc"), ("maelis", "cleric", "pc"),
              ("gob", "goblin", "npc"), ("ilse", "wizard", "pc"))  # fmt: skip
    run("act", "gob2", "attack", "ilse", "--ask", "--dice", "10")
    run("answer", "ilse", "shield")
    run("next")
    run("act", "maelis", "cast", "gob", "-o", "spell=hold person", "--dice", "2")
    run("next")


def test_a_shield_ending_as_its_caster_s_turn_begins_is_filed_under_that_turn(run) -> None:
    """Left (issue 40): the `next` that ends held Gob's turn holds Gob's save at that end
    and, as Ilse's turn begins, her shield's end: one step of two turns, filed whole under
    Gob's; the shield's end belongs under Ilse's heading."""
    ilse_shielded_and_gob_held(run)
    run("next", "--dice", "3")  # Gob's save fails; Ilse's turn begins, her shield ends
    steps = filed(run)
    ended = [t for t, _n, said in steps if "no longer under shield" in said]
    saved = [t for t, _n, said in steps if "saving throw against hold person (paralysed" in said]
    assert (ended, saved) == (["Ilse's turn"], ["Gob's turn"]), steps


def test_a_death_save_at_the_start_of_a_turn_is_told_under_that_turn_alone(run) -> None:
    """The `next` that ends Brannoc's turn begins Maelis's with her death save: Brannoc's
    turn ends under his heading; her save, under hers, says nothing of his turn's end."""
    srd_fight(run, "20,15,5", ("brannoc", "fighter", "pc"), ("maelis", "cleric", "pc"),
              ("gob", "goblin", "npc"))  # fmt: skip
    run("harm", "maelis", "30")
    run("next", "--dice", "7")
    steps = [(t, said) for t, _n, said in filed(run)]
    assert steps[-2:] == [
        ("Brannoc's turn", "Brannoc ends the turn"),
        ("Maelis's turn", "Maelis's death save 7 against 10, a failure (1 of 3)"),
    ], steps
    for fmt in ("md", "html"):
        text = run("export", "--format", fmt).output.replace("&#39;", "'")
        assert "Brannoc's turn ends" not in text, fmt
        assert text.count("Maelis's death save 7 against 10") == 1, fmt


@pytest.mark.parametrize("ruleset", SIX)
def test_a_next_ending_one_turn_and_beginning_another_is_split_between_them(
    run, tmp_path, ruleset
) -> None:
    """Each of Ann and Bo glows until the end of their next turn and shines until its start:
    a `next` that ends one's turn as the other's begins tells each expiry under its own
    turn, never a turn's end and a turn's start in one line."""
    run("new", "-r", ruleset, "-t", "a brawl")
    run("add", "ann", "--sheet", member_sheet(tmp_path, ruleset), "--side", "pc", "--name", "Ann")
    run("add", "bo", "--sheet", member_sheet(tmp_path, ruleset), "--name", "Bo")
    run("begin")
    for who in ("ann", "bo"):
        run("condition", "set", who, "glowing", "--until", f"end:{who}")
        run("condition", "set", who, "shining", "--until", f"start:{who}")
    for _ in range(16):
        move_on(run, ruleset)
        if not any(c.startswith(("glowing", "shining")) for w in wounds(run) for c in w):
            break
    with Fracas(run.db) as log:
        found = encounter_report(log.store, log.store.encounters()[-1])
    steps = [(t.title, e.step.step, e.step.sentence)
             for r in found.rounds for t in r.turns for e in t.entries]  # fmt: skip
    expired = [(t, n, said) for t, n, said in steps if "no longer" in said]
    for name in ("Ann", "Bo"):
        for condition in ("glowing", "shining"):
            said = f"{name} is no longer {condition}"
            [(title, _n, _said)] = [e for e in expired if said in e[2]]
            assert title in (f"{name}'s turn", "Ann and Bo"), (name, condition, expired)
    # (shotclock's shot may begin both turns at once: their starts are one part, titled so)
    mixed = [(t, n) for t, n, said in expired if "glowing" in said and "shining" in said]
    assert not mixed, mixed
    numbers = [n for _t, n, _said in steps]
    assert any(numbers.count(n) == 2 for n, _said in {(n, s) for _t, n, s in expired}), steps


def move_on(run, ruleset: str) -> None:
    """The GM moves on; in fudge, once the one to declare has (003-29)."""
    seen = json.loads(run("status", "--json").output)
    if ruleset == "fudge" and seen["acting"] and "declaring" in seen["phase"]:
        run("act", seen["acting"][0], "dodge")
    run("next")


def wounds(run) -> list[list[str]]:
    return [w["conditions"] for w in json.loads(run("status", "--json").output)["wounds"]]


def test_a_secret_save_stays_secret_when_its_next_is_split(run) -> None:
    """The GM keeps held Gob's save at his turn's end secret (`next --secret`): the
    players' report tells nothing of it, in neither turn the step is told under, until
    the GM shows it; Ilse's shield ending is hers."""
    ilse_shielded_and_gob_held(run)
    run("next", "--secret", "--dice", "3")
    for fmt in ("md", "html"):
        text = run("export", "--format", fmt, "--for", "players").output.replace("&#39;", "'")
        assert "against hold person (paralysed" not in text, fmt
        assert "3 -1 = 2" not in text, fmt
    with Fracas(run.db) as log:
        found = encounter_report(log.store, log.store.encounters()[-1], players=True)
    said = [(t.title, e.step.sentence) for r in found.rounds for t in r.turns for e in t.entries]
    assert not any("hold person (paralysed" in s or "no longer under shield" in s
                   for _t, s in said), said  # fmt: skip
    assert said[-1][1].endswith("GM-only until the GM discloses it"), said
    run("disclose", "12")
    with Fracas(run.db) as log:
        found = encounter_report(log.store, log.store.encounters()[-1], players=True)
    said = [(t.title, e.step.sentence) for r in found.rounds for t in r.turns for e in t.entries]
    shown = [(t, s) for t, s in said if "hold person (paralysed" in s or "under shield" in s]
    assert [t for t, _s in shown][-2:] == ["Gob's turn", "Ilse's turn"], said


def test_a_round_s_standings_stand_before_what_the_next_round_s_first_turn_began_with(
    run,
) -> None:
    """Maelis shines until the start of her next turn, the first of round 2: the `next` that
    ends round 1 ends her shine as round 2 begins, so round 1's standings still show it."""
    srd_fight(run, "20,5", ("maelis", "cleric", "pc"), ("gob", "goblin", "npc"))
    run("condition", "set", "maelis", "shining", "--until", "start:maelis")
    run("next")
    run("next")  # Gob's turn ends round 1; Maelis's begins round 2, her shine over
    with Fracas(run.db) as log:
        found = encounter_report(log.store, log.store.encounters()[-1])
    conditions = {r.number: next(w.conditions for w in r.standings if w.name == "Maelis")
                  for r in found.rounds}  # fmt: skip
    assert any(c.startswith("shining") for c in conditions[1]), conditions
    assert not any(c.startswith("shining") for c in conditions[2]), conditions
