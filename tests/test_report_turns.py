"""The report files each step under the turn it belongs to, as the ruleset says (issue 40):
an attack a creature makes on its own turn asking for a reaction is that turn's, a
legendary action at the end of another's turn stays at that turn's end (srd-29)."""

from fracas.projections import Fracas
from fracas.projections.report import encounter_report
from tests.support import SRD_SAMPLES


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


def srd_fight(run, dice: str, *cast: tuple[str, str, str]) -> None:
    """An srd fight (id, sample sheet or bestiary monster, side) begun with these dice."""
    run("new", "-r", "srd", "-t", "a brawl")
    for who, sample, side in cast:
        sheet = SRD_SAMPLES / f"{sample}.toml"
        source = ["--sheet", str(sheet)] if sheet.exists() else ["--monster", sample]
        run("add", who, *source, "--name", who.title(), "--side", side)
    run("begin", "--dice", dice)


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
