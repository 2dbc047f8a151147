"""The TV's dice box and the board read as a person would say them: "1d4: 2" with what the
roll is for (each of magic missile's darts its own), no "5 on 1d6" restating the dice, the
sign of the shot clock's subtracted die, what each face of a pool adds to its count, a
duration in words, and combatants by their names (4dF's declarations)."""

import re
from html import unescape
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from fracas.cli.serve import Table, build
from fracas.projections import Fracas
from fracas.rules import Encounter
from fracas.rules.ruleset import Context
from fracas.testing.fights import PickedDice
from tests.casts.fudge import ANA, BO, a
from tests.support import do, srd_sample
from tests.web import duel, duel_attack


def tv(db: Path) -> str:
    with TestClient(build(Table(str(db), "gm-token"))) as client:
        return client.get("/?tv").text


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def rolls(html: str) -> list[str]:
    box = re.search(r'<section class="dice".*?</section>', html, re.S)
    assert box, "no dice box"
    return [words(r) for r in re.findall(r'<div class="roll.*?</div>', box[0], re.S)]


def srd_fight(db: Path) -> Encounter:
    log = Fracas(str(db))
    encounter = log.new("srd", title="Darts", encounter="darts")
    cast = (("wiz", "wizard", "Ilse", "pc"), ("gob", "goblin", "Snik", "npc"))
    for who, sample, name, side in cast:
        sheet = srd_sample(sample, **({"hp": 80} if side == "npc" else {}))
        join = {"action": "join", "combatant": who, "sheet": sheet, "name": name, "side": side}
        do(encounter, join)
    do(encounter, {"action": "begin"})
    while encounter.view().acting != ["wiz"]:
        do(encounter, {"action": "next"})
    return encounter


def test_each_magic_missile_dart_has_its_own_line_read_as_said(tmp_path: Path) -> None:
    db = tmp_path / "srd.db"
    encounter = srd_fight(db)
    cast = {"action": "cast", "actor": "wiz", "targets": ["gob"], "spell": "magic missile"}
    do(encounter, cast, [2, 3, 4])
    lines = rolls(tv(db))
    assert len(lines) == 3
    for dart, (line, face) in enumerate(zip(lines, (2, 3, 4), strict=True), start=1):
        said = f"Ilse , damage of magic missile, dart {dart} (at Snik) : 1d4 : {face} "
        said += "+1 magic missile bonus = "  # each term says what it is (issue 37)
        assert f"{said}{face + 1}" in line, line  # each dart's 1d4 + 1, its whole sum
        assert " on 1d4" not in line


def test_two_dice_read_as_a_list_of_faces(tmp_path: Path) -> None:
    db = tmp_path / "srd.db"
    encounter = srd_fight(db)
    do(encounter, {"action": "gm.harm", "target": "gob", "amount": 1})
    do(encounter, {"action": "roll", "dice": "2d6", "reason": "the bridge", "actor": "wiz"}, [5, 5])
    (line,) = rolls(tv(db))
    text = re.sub(r" ,", ",", line)  # the hidden commas between the dice, as a reader reads
    assert "the bridge : 2d6 : 5, 5 = 10" in text, line


def test_the_shot_clocks_subtracted_die_is_marked(tmp_path: Path) -> None:
    db = tmp_path / "shot.db"
    duel(db, "shotclock")
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        do(encounter, duel_attack(encounter), [4, 2])
    html = tv(db)
    assert re.search(r'class="sign"[^>]*>\+</span><span class="die[^"]*"[^>]*>4', html)
    assert re.search(r'class="sign minus"[^>]*>−</span><span class="die[^"]*"[^>]*>2', html)


def test_a_pools_faces_say_what_each_adds_to_the_count(tmp_path: Path) -> None:
    db = tmp_path / "pool.db"
    duel(db, "pool")
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        attack = encounter.ruleset.command(duel_attack(encounter))
        dry = PickedDice([1] * 12)
        encounter.ruleset.decide_step(encounter.state, attack, Context(dry, 99))
        size = len(dry.rolls[0].faces)
        faces = [10, 6, 1, 2, 3, 4, 5][:size]
        do(encounter, duel_attack(encounter), faces)
    html = tv(db)
    dice = re.findall(r'<span class="die([^"]*)"[^>]*>(\d+)(?:<sup class="adds">([^<]*))?', html)
    worth = {int(face): (kind.strip(), adds) for kind, face, adds in dice}
    assert worth[10] == ("worth counted", "+2")
    assert worth[1] == ("worth lost", "−1")
    assert worth[2] == ("", "")


def test_a_duration_reads_in_words(tmp_path: Path) -> None:
    """srd-28: bless runs 10 rounds from the cleric's count; the table reads when it ends
    as words, not as "to count 16"."""
    log = Fracas(str(tmp_path / "bless.db"))
    encounter = log.new("srd", title="Bless", encounter="bless")
    for who, sample in (("hild", "fighter"), ("maelis", "cleric")):
        do(encounter, {"action": "join", "combatant": who, "sheet": srd_sample(sample)})
    do(encounter, {"action": "begin"})
    while encounter.view().acting != ["maelis"]:
        do(encounter, {"action": "next"})
    do(encounter, {"action": "cast", "actor": "maelis", "targets": ["hild"], "spell": "bless"})
    shown = next(row for row in encounter.view().wounds if row.combatant == "hild")
    durations: dict[str, Any] = shown.detail.get("durations", {})
    texts = [d["text"] for d in durations.values()] + shown.conditions
    assert texts and not any("to count" in t for t in texts), texts


def test_4df_declarations_and_holds_name_combatants_by_their_names(tmp_path: Path) -> None:
    db = tmp_path / "fudge.db"
    with Fracas(str(db)) as log:
        encounter = log.new("fudge", title="Names", encounter="names")
        for who, sheet, name in (("p1", ANA, "Ana Ruiz"), ("p2", BO, "Bo Lund")):
            join = {"action": "join", "combatant": who, "sheet": sheet, "name": name}
            do(encounter, {**join, "side": "pc"})
        do(encounter, {"action": "begin"})
        first = encounter.state.current
        other = "p2" if first == "p1" else "p1"
        do(encounter, {**a("attack", other, weapon="pistol"), "actor": first})
        status = {r.combatant: r.status for r in encounter.view().initiative}
    named = "Bo Lund" if other == "p2" else "Ana Ruiz"
    assert f"declared: attack {named} with the pistol" in status[first], status
    assert f"attack {other}" not in words(tv(db))


def test_a_sneak_attacks_dice_are_named_in_the_log(tmp_path: Path) -> None:
    """The log's line named a hit's damage dice by their dice alone ("4 on 1d6; 3+5 = 8 on
    2d6"): now each says whose dice they are, the weapon's and the sneak attack's."""
    db = tmp_path / "sneak.db"
    with Fracas(str(db)) as log:
        encounter = log.new("srd", title="Sneak", encounter="sneak")
        for who, sample, side in (("gob", "goblin", "npc"), ("wren", "rogue", "pc")):
            sheet = srd_sample(sample, **({"hp": 80} if side == "npc" else {}))
            do(encounter, {"action": "join", "combatant": who, "sheet": sheet, "side": side})
        do(encounter, {"action": "begin"})
        while encounter.view().acting != ["wren"]:
            do(encounter, {"action": "next"})
        stab = {"action": "attack", "actor": "wren", "targets": ["gob"], "ally_near": True}
        do(encounter, {**stab, "weapon": "shortsword"}, [18, 4, 3, 5])
    newest = re.search(r'<ol class="log"[^>]*>\s*<li.*?</li>', tv(db), re.S)
    assert newest
    # the log's line is the step's short headline; its whole sentence, every roll named, is
    # the line's title (and the step's detail)
    title = re.search(r'class="sentence" title="([^"]*)"', newest[0])
    assert title, newest[0]
    line = unescape(title[1])
    assert "damage of shortsword: 4 +3 = 7 on 1d6+3; sneak attack: 3+5 = 8 on 2d6" in line, line
