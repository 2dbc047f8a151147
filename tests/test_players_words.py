"""What players read speaks in words, never in the GM's commands: the TV's headline and
notes, the log, and a refusal a phone is given. (The GM's own surfaces may name commands.)"""

import re
from pathlib import Path

from starlette.testclient import TestClient

from fracas.cli.serve import Table, build
from fracas.projections import Fracas
from fracas.rules.reactions import Ask
from tests.support import do, srd_sample
from tests.web import duel, duel_attack, phones

COMMAND = re.compile(r"`|\bfracas [a-z]|(?<!\w)--?[a-z]|\b[a-z_]+=[a-z0-9|]")


def players_screen(db: Path) -> str:
    with TestClient(build(Table(str(db), "gm-token"))) as client:
        return client.get("/").text


def words(html: str) -> str:
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(text.split())


def test_the_4df_turn_all_resolved_reads_in_words(tmp_path: Path) -> None:
    db = tmp_path / "fudge.db"
    duel(db, "fudge")
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        while encounter.state.phase != "resolved":
            do(encounter, {"action": "next"})
    shown = words(players_screen(db))
    assert "all resolved" in shown
    assert not COMMAND.search(shown), COMMAND.search(shown)


def test_the_srd_suggestion_to_end_reads_in_words(tmp_path: Path) -> None:
    db = tmp_path / "srd.db"
    with Fracas(str(db)) as log:
        encounter = log.new("srd", title="The end", encounter="fight")
        for who, sample, side in (("hild", "fighter", "pc"), ("gob", "goblin", "npc")):
            join = {"action": "join", "combatant": who, "sheet": srd_sample(sample), "side": side}
            do(encounter, join)
        do(encounter, {"action": "begin"})
        do(encounter, {"action": "gm.harm", "target": "gob", "amount": 30})
    shown = words(players_screen(db))
    assert shown.count("no NPC is left fighting") == 1, shown  # said once, by fracas's line
    said = "no NPC is left fighting; the PCs&#39; side stands: the GM says whether the fight is"
    assert said in shown, shown  # (the page's text as served: its apostrophe escaped)
    assert not COMMAND.search(shown), COMMAND.search(shown)


def test_a_timeslice_interrupt_without_its_trigger_is_refused_in_words(tmp_path: Path) -> None:
    db = tmp_path / "ts.db"
    duel(db, "timeslice")
    with Fracas(str(db)) as log:
        acting = log.encounter("fight").view().acting[0]
    other = "foe" if acting == "hero" else "hero"
    with phones(db, ("hero", "foe")) as table:
        refused = table.tap(other, action="interrupt", targets=[acting], fields={})
    assert refused.status_code >= 400
    said = refused.text
    assert "trigger" in said and not COMMAND.search(said), said


def test_a_refusal_while_an_attack_waits_reads_in_words(tmp_path: Path) -> None:
    db = tmp_path / "asked.db"
    duel(db, "percentile")
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        attack = duel_attack(encounter)
        actor = attack["actor"]
        encounter.execute(encounter.ruleset.command(attack), ask=Ask())
        assert encounter.waiting() is not None
    with phones(db, ("hero", "foe")) as table:
        refused = table.tap(actor, action="aim", targets=[], fields={})
    assert refused.status_code >= 400
    said = refused.text
    assert "waits for the reaction" in said and not COMMAND.search(said), said
