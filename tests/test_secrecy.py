"""What players see of random fights with GM-only rolls and a hidden combatant.

Non-interference: two fights that differ only in the outcome of undisclosed secret steps,
or in what a hidden combatant does, give the players the same page (live and at every
step), the same stream payload, the same step details and the same md, html and jsonl
exports. Liveness: a secret step hides what it decided and what depends on it, not what
follows it: a later step that involves none of it stays on the players' page.

The wall clock, the dice seed and command ids are fixed for the comparison (none depends on
a roll); every roll is given as faces, the public ones the same in both fights.
"""

import contextlib
import difflib
import io
import itertools
import json
import os
import random
import re
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import fracas.ledger.base as ledger_base
import fracas.rules.encounter as encounter_module
from fracas.cli.serve import Table
from fracas.ledger import FracasError
from fracas.projections import Fracas
from fracas.projections.exports import export_jsonl
from fracas.projections.screen import PLAYERS
from fracas.projections.secrecy import players_cut
from fracas.rules import Encounter
from fracas.rules.encounter import recorded_events
from fracas.rules.events import Note, Rolled
from fracas.rules.timeline import walk
from fracas.testing.tiers import examples
from tests.casts.timeslice import ALICE, GOBLIN, ORC, SWORD
from tests.support import KNIFE, gunner, sheet
from tests.unseen import gm_cli, shut

PEOPLE = {
    "percentile": {
        "alice": gunner(),
        "bob": sheet(12, str=14, skills={"melee weapons": 50}, weapons=[KNIFE], holding=["knife"]),
        "carol": gunner(11, hp=30),
        "dave": sheet(9, skills={"unarmed combat": 55, "dodge": 50}),
    },
    "timeslice": {
        "alice": ALICE,
        "orc": ORC,
        "goblin": GOBLIN,
        "troll": {**ORC, "q": 9, "hp": 25, "weapons": [SWORD], "equipped": ["sword"]},
    },
}
HIDDEN = "lurker"
OTHER, OTHER_NAME = "lurkes", "Lurking Thing"  # the hidden one as someone else: sorts alike
HIDDEN_SHEET = {"percentile": gunner(16), "timeslice": {**GOBLIN, "q": 13}}
WEAPONS = {"percentile": ["pistol", "knife", "unarmed"], "timeslice": [""]}


def attacks(system: str) -> st.SearchStrategy[dict[str, Any]]:
    people = st.sampled_from([*PEOPLE[system], HIDDEN])
    return st.builds(
        lambda a, t, w: {"action": "attack", "actor": a, "targets": [t], "weapon": w},
        st.sampled_from(["@turn", "@turn", *PEOPLE[system], HIDDEN]),
        people,
        st.sampled_from(WEAPONS[system]),
    )


def gm_moves(system: str) -> st.SearchStrategy[dict[str, Any]]:
    people = st.sampled_from([*PEOPLE[system], HIDDEN])
    return st.one_of(
        st.builds(
            lambda t: {"action": "gm.condition-set", "target": t, "condition": "lit"}, people
        ),
        st.builds(
            lambda t, n: {"action": "gm.harm", "target": t, "amount": n}, people, st.integers(1, 6)
        ),
        st.just({"action": "note"}),
        st.builds(
            lambda a: {"action": "roll", "dice": "2d20kh1+3", "reason": "a check", "actor": a},
            st.sampled_from(["gm", *PEOPLE[system], HIDDEN]),
        ),
    )


def deeds(system: str) -> st.SearchStrategy[dict[str, Any]]:
    """What a combatant (or the GM's hand on one) does: an attack, a pass, a ruling."""
    rulings = st.sampled_from(["gm.condition-set", "gm.harm"])
    return st.one_of(
        attacks(system),
        attacks(system),
        st.just({"action": "next"}),
        rulings.flatmap(lambda _action: gm_moves(system).filter(lambda m: m["action"] != "note")),
    )


def moves(system: str, undoing: bool = True) -> st.SearchStrategy[dict[str, Any]]:
    taking_back = [st.just({"action": "undo"}), st.just({"action": "redo"})] if undoing else []
    return st.one_of(deeds(system), gm_moves(system), *taking_back)


@dataclass
class Move:
    command: dict[str, Any]
    secret: bool
    other: dict[str, Any] | None  # the hidden combatant's other choice in the second fight
    alternative: int  # picks the second fight's faces for a secret roll


def plans(system: str, undoing: bool = True) -> st.SearchStrategy[list[Move]]:
    """Random moves; `undoing` False leaves out undo and redo (what they take back would
    differ between fights where a hidden combatant did different things)."""
    move = st.builds(
        Move,
        moves(system, undoing),
        st.booleans(),
        st.one_of(st.none(), deeds(system)),
        st.integers(0, 2**16),
    )
    return st.lists(move, min_size=3, max_size=18)


@dataclass
class Fight:
    """One fight of a pair, and what was played in it."""

    path: Path
    fracas: Fracas
    encounter: Encounter
    played: list[dict[str, Any]] = field(default_factory=list)


@contextlib.contextmanager
def fixed_world(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The wall clock, the seed and every generated id fixed; ids restart for each fight."""
    monkeypatch.setattr(encounter_module, "new_seed", lambda: "11" * 32)
    monkeypatch.setattr(ledger_base, "now", lambda: "2026-01-01T00:00:00.000+00:00")
    monkeypatch.setattr(ledger_base.secrets, "token_hex", lambda n: "00" * n)  # chain salts
    yield


def restart_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    ids = itertools.count(1)
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=next(ids)))
    monkeypatch.setattr(encounter_module, "new_command_id", lambda: f"{next(ids):032x}")


def start(path: Path, system: str, hidden: bool, lurker: str = HIDDEN) -> Fight:
    fracas = Fracas(path)
    encounter = fracas.new(system, title="ambush", encounter="fight")
    people = dict(PEOPLE[system])
    for n, (who, data) in enumerate(people.items()):
        join = {"action": "join", "combatant": who, "sheet": data, "side": "pc" if n < 2 else "npc"}
        encounter.execute(encounter.ruleset.command(join), command_id=f"join-{who}")
    if hidden:
        join = {"action": "join", "combatant": lurker, "sheet": HIDDEN_SHEET[system]}
        join["name"] = OTHER_NAME if lurker == OTHER else ""
        encounter.execute(encounter.ruleset.command(join), command_id="join-hidden", hidden=True)
    begin = encounter.ruleset.command({"action": "begin"})
    faces = faces_of(encounter, begin)
    encounter.execute(begin, dice=faces, command_id="begin")
    return Fight(path, fracas, encounter)


def faces_of(encounter: Encounter, command: Any) -> list[int] | None:
    """The faces the seeded dice would show for a command now; None if it is refused."""
    try:
        events = encounter.decide(command, command_id="probe")
    except FracasError:
        return None
    return [f for e in events if isinstance(e, Rolled) for f in e.roll.faces]


def resolved(command: dict[str, Any], encounter: Encounter) -> dict[str, Any]:
    """`@turn`: whoever acts now."""
    if command.get("actor") != "@turn":
        return command
    acting = encounter.view().acting
    return {**command, "actor": acting[0] if acting else "alice"}


def alternatives(faces: list[int], pick: int) -> Iterator[list[int]]:
    """Other faces for a secret roll, of other lengths too: what another fight rolled."""
    rng = random.Random(pick)
    for length in (len(faces), len(faces) - 1, len(faces) + 1, 1, 2, 3):
        if length > 0:
            yield [
                rng.randint(1, 10) if rng.random() < 0.5 else rng.randint(1, 100)
                for _ in range(length)
            ]
            yield [rng.randint(1, 6) for _ in range(length)]


@dataclass
class Played:
    """How the first fight played a move: the command as typed, whether it was the hidden
    combatant's doing, the faces it rolled."""

    command: dict[str, Any]
    hidden: bool
    faces: list[int] | None


def play(fight: Fight, n: int, move: Move, first: Played | None) -> Played:
    """Play one move in one fight. The second fight types what the first typed, gives the
    same faces to every public roll and other faces to a secret one; where the first fight
    had something done to the hidden combatant, the second has something else done to
    them if it can, or the same with other faces. What the hidden combatant does itself is
    played alike in both (other faces where GM-only): players see its effect on those they
    see, done by someone unseen (issue 38)."""
    e = fight.encounter
    if first is None:
        command = resolved(move.command, e)
        deed = command["action"] not in ("note", "undo", "redo")
        doing = deed and done_to_hidden(command)
        return Played(command, doing, run(e, n, [command], move, None))
    tries = [first.command]
    if first.hidden and first.faces is not None and move.other is not None:
        tries = [*variant(first.command, move.other), first.command]
    varied = move.secret or first.hidden
    return Played(
        first.command, first.hidden, run(e, n, tries, move, None if varied else first.faces)
    )


def run(
    e: Encounter, n: int, tries: list[dict[str, Any]], move: Move, given: list[int] | None
) -> list[int] | None:
    """The first of `tries` the fight takes, with `given` faces or ones that fit (other
    ones first for a varied move); returns the faces rolled (None: refused)."""
    action = tries[0]["action"]
    with contextlib.suppress(FracasError):
        if action == "undo":
            e.undo()
        elif action == "redo":
            e.redo()
        elif action == "note":
            e.note(f"note {n}")
    if action in ("undo", "redo", "note"):
        return None
    for command in tries:
        try:
            typed = e.ruleset.command(command)
        except FracasError:
            continue
        faces = given if given is not None else faces_of(e, typed)
        if faces is None:
            continue
        attempts = [faces] if given is not None else [*alternatives(faces, move.alternative), faces]
        for attempt in attempts:
            with contextlib.suppress(FracasError):
                e.execute(typed, dice=attempt, command_id=f"m{n}", secret=move.secret)
                return attempt
    return None


def variant(done: dict[str, Any], other: dict[str, Any]) -> list[dict[str, Any]]:
    """Something else the hidden combatant could do (or have done to them) instead of
    `done`: `other`, made theirs."""
    actor = done.get("actor")
    by_them = actor in (None, HIDDEN) and "target" not in done
    if other["action"] == "next":  # passing a turn stands in only for a turn's own doing:
        return [other] if by_them and done["action"] != "roll" else []  # a roll takes none
    if other["action"].startswith("gm."):
        return [{**other, "target": HIDDEN}]
    if by_them:
        return [{**other, "actor": HIDDEN}]
    return [{**other, "actor": actor, "targets": [HIDDEN]}]


def done_to_hidden(command: dict[str, Any]) -> bool:
    """Names the hidden combatant other than as who acts: withheld whatever it does."""
    named = (command.get("target"), *command.get("targets", []))
    return HIDDEN in named and command.get("actor") != HIDDEN


def players_views(fight: Fight) -> dict[str, str]:
    """Everything the players' audience is given: the page live and at every step, the
    stream's payload, every step's detail, and the three exports."""
    table = Table(str(fight.path), "token")
    name = fight.encounter.id
    seen: dict[str, str] = {"stream": table.update(name, PLAYERS)}
    timeline = table.timeline(name, PLAYERS)
    for step in range(timeline.steps + 1):
        seen[f"screen {step}"] = table.render_screen(name, PLAYERS, step)
    for step in range(1, timeline.steps + 1):
        detail = table.templates.get_template("detail.html")
        seen[f"detail {step}"] = detail.render(detail=timeline.detail(step), audience=PLAYERS)
    for fmt in ("md", "html"):
        out = io.StringIO()
        fight.fracas.export_text(out, fmt, name, players=True)
        seen[fmt] = out.getvalue()
    out = io.StringIO()
    export_jsonl(fight.fracas.store, out, players=True)
    seen["jsonl"] = out.getvalue()
    shut(table)
    return seen


def play_pair(
    system: str, plan: list[Move], hidden: bool, monkeypatch, tmp: Path, who: str = HIDDEN
) -> tuple[Fight, Fight]:
    """The plan played twice; `who`: the hidden combatant's id in the second fight (every
    command naming them names them so; faces alike but for GM-only rolls)."""
    restart_ids(monkeypatch)
    first = start(tmp / "a.db", system, hidden)
    played = [play(first, n, move, None) for n, move in enumerate(plan)]
    restart_ids(monkeypatch)
    second = start(tmp / "b.db", system, hidden, who)
    for n, move in enumerate(plan):
        given = played[n]
        if who != HIDDEN:
            given = Played(renamed(given.command, who), False, given.faces)
        play(second, n, move, given)
    return first, second


def renamed(command: dict[str, Any], who: str) -> dict[str, Any]:
    """The command with the hidden combatant called `who`."""
    return json.loads(json.dumps(command).replace(f'"{HIDDEN}"', f'"{who}"'))


def same(seen: dict[str, str], other: dict[str, str], *fights: Fight) -> None:
    """The two fights' players' views are equal; if not, where they part, briefly, and
    how each fight went step by step."""
    for key in sorted(seen.keys() | other.keys()):
        one, two = seen.get(key, "").splitlines(), other.get(key, "").splitlines()
        if one != two:
            diff = list(difflib.unified_diff(one, two, lineterm="", n=1))[:20]
            stories = ["\n".join(story(f)) for f in fights]
            raise AssertionError(f"the players' {key} differs:\n" + "\n".join([*diff, *stories]))


def story(fight: Fight) -> list[str]:
    """Each step of a fight: what it was, and what players see of it."""
    e = fight.encounter
    frames = list(walk(e.store, e.id, e.ruleset))
    cut = players_cut(frames, e.ruleset)
    lines = [f"-- {fight.path.name}"]
    for frame in frames:
        seen = cut.seen[frame.record.step]
        command = frame.command or {}
        what = " ".join(
            str(command.get(k, "")) for k in ("action", "actor", "target", "targets", "combatant")
        )
        kinds = ",".join(type(x).__name__ for x in frame.events)
        fate = (
            "withheld"
            if seen.number is None
            else f"#{seen.number}{' masked' if seen.masked else ''}"
        )
        lines.append(
            f"{frame.record.step} {frame.record.control} {frame.record.target or ''} {what} "
            f"[{kinds}] -> {fate} (source {seen.source})"
        )
    return lines


def unseen(seen: dict[str, str]) -> None:
    """The hidden combatant is nowhere in what the players are given."""
    for key, value in seen.items():
        at = value.find(HIDDEN)
        assert at < 0, f"the hidden combatant shows in the {key}: {value[at - 200 : at + 60]!r}"


RUNS = settings(
    max_examples=int(os.environ.get("FRACAS_SECRECY_EXAMPLES", examples(full=40, fast=3))),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a fight shrinks too slowly
)


@pytest.mark.parametrize("system", ["percentile", "timeslice"])
@pytest.mark.long
@RUNS
@given(data=st.data())
def test_fights_differing_only_in_secret_outcomes_look_the_same_to_players(
    system, data, monkeypatch
):
    plan = data.draw(plans(system))
    plan = [Move(m.command, m.secret, None, m.alternative) for m in plan]
    hidden = data.draw(st.booleans())
    with fixed_world(monkeypatch), tempfile.TemporaryDirectory() as tmp:
        a, b = play_pair(system, plan, hidden, monkeypatch, Path(tmp))
        seen_a, seen_b = players_views(a), players_views(b)
        same(seen_a, seen_b, a, b)
        if hidden:
            unseen(seen_a)
        following(a, seen_a["jsonl"])


def following(fight: Fight, exported: str) -> None:
    """Liveness: whatever was kept from them, the players keep following every note the GM
    wrote, each where it was written (a ruling after a secret: the table test below)."""
    lines = [json.loads(line) for line in exported.splitlines()]
    lines = [line for line in lines if line["type"] == "step"]
    told = {e["text"] for line in lines for e in line.get("events", []) if e["kind"] == "note"}
    written = {
        e.text
        for _, e in recorded_events(fight.fracas.store, fight.encounter.id, fight.encounter.ruleset)
        if isinstance(e, Note)
    }
    assert told == written, "a note the GM wrote after a secret roll is not on the players' page"


@pytest.mark.parametrize("system", ["percentile", "timeslice"])
@pytest.mark.long
@RUNS
@given(data=st.data())
def test_fights_differing_only_in_who_a_hidden_combatant_is_look_the_same(
    system, data, monkeypatch
):
    """What a hidden combatant does, and what is done to them, players see at once, done by
    or to someone unseen (issue 38); who they are (their id, their name) and the outcome of
    GM-only rolls show nowhere: the same moves with another hidden one look the same."""
    plan = data.draw(plans(system, undoing=False))
    plan = [Move(m.command, m.secret, None, m.alternative) for m in plan]
    with fixed_world(monkeypatch), tempfile.TemporaryDirectory() as tmp:
        a, b = play_pair(system, plan, True, monkeypatch, Path(tmp), OTHER)
        seen_a, seen_b = players_views(a), players_views(b)
        same(seen_a, seen_b, a, b)
        unseen(seen_a)  # and so, as both are the same, neither the other's id nor name


# -- a fight played at the table ---------------------------------------------------------


def table_fight(run, faces: str) -> None:
    """Alice (DEX 14), Bob (DEX 10) and Carol (DEX 8); Alice's shot at Bob, step 6, is a
    GM-only roll with FACES."""
    run("new", "--id", "duel")
    pistol = ['--set=weapons=[{name="pistol",kind="firearm",damage="1d10"}]']
    gun = ["--set", "skills.firearms=60", *pistol, "--set", 'holding=["pistol"]']
    run("add", "alice", "--set", "dex=14", "--side", "pc", *gun)
    run("add", "bob", "--set", "dex=10", "--set", "hp=30")
    run("add", "carol", "--set", "dex=8", "--side", "pc")
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", faces, "--secret")
    run("note", "the lights flicker")
    run("condition", "set", "carol", "on fire")
    run("condition", "set", "bob", "bleeding")
    run("next")


def players_report(run) -> str:
    """The players' report, without the seed's commitment (each log has its own seed)."""
    report = run("export", "--format", "md", "--for", "players").output
    return re.sub(r"sha256:[0-9a-f]+", "sha256:...", report)


def test_a_secret_roll_hides_what_it_touched_and_the_players_follow_the_rest(tmp_path):
    hit, miss = gm_cli(tmp_path / "hit.db"), gm_cli(tmp_path / "miss.db")
    table_fight(hit, "30,5")
    table_fight(miss, "95")
    seen = players_report(hit)
    assert seen == players_report(miss)
    assert "alice attacks bob: what it decided is GM-only" in seen
    assert "- 7. Note: the lights flicker" in seen  # the GM's words follow a secret roll
    assert "Step 8, by the GM" in seen and "carol is on fire" in seen  # so does a ruling
    # the GM's ruling on Bob and the turn passing decide alike whatever the roll gave (a
    # pistol cannot put Bob down): both are shown at once; Bob's health is what it decided
    assert "9. The GM sets a condition on bob: bob is bleeding" in seen
    assert "10. bob ends the turn" in seen  # bob alone was acting, whatever alice's roll gave
    assert "30 against 60%" not in seen and "bob takes" not in seen
    assert "| bob | npc | unhurt |" in seen, "Bob's health as players last saw it"
    hit("disclose", "6")
    shown = players_report(hit)
    assert "30 against 60%" in shown and "| bob | npc | hurt |" in shown
    assert "Step 11" in shown  # the disclosure


def test_a_hidden_combatant_is_nowhere_for_the_players_until_revealed(tmp_path):
    run = gm_cli(tmp_path / "ambush.db")
    run("new", "--id", "ambush")
    run("add", "alice", "--set", "dex=14", "--side", "pc")
    run("add", "bob", "--set", "dex=10", "--side", "pc")
    run("add", "lurker", "--name", "The Lurker", "--set", "dex=12", "--hidden")
    run("begin")
    run("note", "a twig snaps")
    table = Table(str(tmp_path / "ambush.db"), "token")
    page, stream = table.render_screen("ambush", PLAYERS), table.update("ambush", PLAYERS)
    board = table.screen("ambush", PLAYERS).board
    reports = [run("export", "--for", "players", *f).output for f in ([], ["--format", "md"])]
    for seen in (page, stream, *reports):
        assert "lurker" not in seen.lower(), "the hidden combatant shows"
    assert [row.combatant for row in board.rows] == ["alice", "bob"]
    assert "a twig snaps" in page and '"steps": 6' in stream  # numbered as the GM's steps:
    # the hidden join is held back as the GM's secret steps are (issue 37): said, it told
    # the table an ambush was coming
    assert "joins the fight" not in page.replace("(pc) joins the fight", "")
    assert "A step the GM has not shown yet" in page
    assert "not a hidden combatant" in run("reveal-combatant", "bob", ok=False).output
    run("reveal-combatant", "lurker")
    shown = run("export", "--format", "md", "--for", "players").output
    assert "The Lurker (npc) joins the fight" in shown
    assert "The GM reveals The Lurker to the players" in shown
    run("undo")  # the reveal taken back: hidden again
    assert "Lurker" not in run("export", "--format", "md", "--for", "players").output
    shut(table)


def test_an_ambush_audits_clean_before_and_after_the_reveal(run) -> None:
    run("new", "--id", "h", "--title", "H")
    run("add", "a", "--set", "dex=10")
    run("add", "b", "--set", "dex=9", "--hidden")
    run("begin")
    assert run("audit").exit_code == 0
    run("reveal-combatant", "b")
    run("reveal")
    result = run("audit")
    assert "rules drift: none" in result.output
