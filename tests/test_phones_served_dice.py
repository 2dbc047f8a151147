"""A roll typed in part and finished by the server (issue 37): a player's phone types the
d8 the dice help asks for, a natural 20 doubles it, and the server rolls the second. The
second d8 is the server's: the log says so, the audit checks it against the revealed seed
as it checks any seeded roll, and the TV and the reports say who rolled what."""

import io
import re
from pathlib import Path

import msgspec
import pytest

from fracas.projections import Fracas
from fracas.projections.describe import describe_roll
from fracas.rules.encounter import Encounter
from fracas.rules.events import Rolled
from tests.support import do, srd_sample
from tests.web import screens

pytestmark = pytest.mark.sqlite_file


def gate(log: Fracas) -> Encounter:
    fight = log.new("srd", title="The Gate", encounter="gate")
    fighter = srd_sample("fighter", initiative=90)
    do(fight, {"action": "join", "combatant": "brannoc", "sheet": fighter, "side": "pc"})
    goblin = srd_sample("goblin", hp=100, ac=5)
    do(fight, {"action": "join", "combatant": "goblin", "sheet": goblin, "side": "npc"})
    do(fight, {"action": "begin"})
    return fight


STEP = "00000000000000aa0000000000000001"  # the phone's command id, decided and recorded


def critical(fight: Encounter) -> list:
    """Brannoc's phone: a natural 20 and one damage d8 typed, the 6."""
    command = fight.ruleset.command(
        {"action": "attack", "actor": "brannoc", "targets": ["goblin"], "weapon": "longsword"}
    )
    return fight.decide(command, dice=[20, 6], entered_by="brannoc", author="brannoc",
                        own="brannoc", command_id=STEP)  # fmt: skip


def damage_of(events: list) -> Rolled:
    return [e for e in events if isinstance(e, Rolled)][-1]


def test_the_servers_faces_in_a_typed_roll_are_said_as_the_servers(tmp_path: Path) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = gate(log)
        events = critical(fight)
        fight.record(events, author="brannoc")
    roll = damage_of(events).roll
    assert (roll.dice, roll.faces[0], roll.source, roll.entered_by) == ("2d8", 6, "manual",
                                                                         "brannoc")  # fmt: skip
    assert roll.served == 1 and roll.seed_epoch == 1 and roll.counter
    line = describe_roll(damage_of(events))
    assert f"typed by brannoc; 1 d8 rolled by the server (seeded #{roll.counter})" in line
    attack = next(e for e in events if isinstance(e, Rolled)).roll
    assert attack.served is msgspec.UNSET  # a roll typed whole is written as it always was
    assert b"served" not in msgspec.json.encode(attack)


def test_the_audit_checks_the_servers_faces_of_a_typed_roll(tmp_path: Path) -> None:
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = gate(log)
        fight.record(critical(fight), author="brannoc", command_id=STEP)
        before = log.audit()
        fight.reveal()
        report = log.audit()
    served = [r for r in before.rolls if r.source == "manual" and r.verdict != "manual"]
    assert [r.verdict for r in served] == ["unverifiable until the seed is revealed"]
    assert report.ok, report
    assert [r.verdict for r in report.rolls if r.source == "manual"] == ["manual", "verified"]


def test_a_typed_rolls_server_face_edited_is_caught_by_the_audit(tmp_path: Path) -> None:
    """A step written with the server's face changed (the chain sound: written as a step,
    not edited in the file) is caught once the seed is revealed, as a seeded roll's is."""
    with Fracas(str(tmp_path / "f.db")) as log:
        fight = gate(log)
        events = critical(fight)
        damage = damage_of(events)
        faces = [damage.roll.faces[0], 9 - damage.roll.faces[1]]  # another face of a d8
        roll = msgspec.structs.replace(damage.roll, faces=faces, total=sum(faces))
        forged = [msgspec.structs.replace(damage, roll=roll) if e is damage else e
                  for e in events]  # fmt: skip
        fight.record(forged, author="brannoc", command_id=STEP)
        fight.reveal()
        report = log.audit()
    assert report.chain_ok and not report.ok
    assert [r.verdict for r in report.rolls if r.source == "manual"] == ["manual", "MISMATCH"]


def test_the_tv_and_the_reports_name_the_typist_and_the_server(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    with Fracas(str(db)) as log:
        fight = gate(log)
        fight.record(critical(fight), author="brannoc", command_id=STEP)
        reports = []
        for fmt in ("md", "html"):
            for players in (False, True):
                out = io.StringIO()
                log.export_text(out, fmt, fight.id, players=players)
                reports.append(out.getvalue())
        name = next(w.name for w in fight.view().wounds if w.combatant == "brannoc")
    said = f"typed by {name}; 1 d8 rolled by the server"
    for audience, html in screens(db).items():
        dice = re.search(r'<section class="dice".*?</section>', html, re.S)
        assert dice and said in dice[0], f"{audience}: {dice}"
        newest = re.search(r'<ol class="log" reversed[^>]*>\s*<li.*?</li>', html, re.S)
        assert newest and f"dice {said}" in newest[0], newest
    for text in reports:
        assert said in text, text


def test_fracas_audit_lists_the_servers_dice_in_typed_rolls_with_their_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fracas.cli import render

    with Fracas(str(tmp_path / "f.db")) as log:
        fight = gate(log)
        fight.record(critical(fight), author="brannoc", command_id=STEP)
        fight.reveal()
        render.audit(log.audit())
    shown = capsys.readouterr().out
    assert "manual rolls typed by brannoc: 2 (encounter gate step 5)" in shown
    assert "the server's dice in typed rolls verified: 1 (encounter gate step 5)" in shown
