"""A ruleset carries its own rules reference (statements, source, licence): `fracas rules`,
the replay's citations, the reports and `serve` read a plugin's exactly as a built-in's."""

import asyncio
import io
import json
from typing import Any

import httpx
import msgspec
import pytest
from msgspec.structs import replace

from fracas.cli.serve import Table, build
from fracas.projections import Fracas, catalog
from fracas.rules import roster
from fracas.rules.commands import Begin, Command, Join, check_can_begin, joined_event
from fracas.rules.events import (
    CombatantJoined,
    Damaged,
    EncounterStarted,
    Event,
    Rolled,
    TurnAdvanced,
    event_union,
)
from fracas.rules.reference import Reference, Source, Statement
from fracas.rules.ruleset import REGISTERED, Context, Ruleset
from fracas.rules.views import InitiativeRow, View, WoundRow

NOTICE = "Includes the Tiny Duel Rules by Ann Author, CC BY 4.0 (creativecommons.org)."


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hp: int = 2


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    hp: int
    conditions: dict[str, dict[str, Any]] = {}


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0


class Poke(Command, tag="poke"):
    actor: str
    targets: list[str] = []


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            sheet = RULESET.newcomer(command, state.fighters)
            return [joined_event(command, sheet)]
        case Begin():
            check_can_begin(state.round > 0, state.fighters)
            return [TurnAdvanced(1, None, "the duel begins", ["tiny-1"])]
        case Poke():
            target = roster.find(state.fighters, command.targets[0])
            roll = ctx.dice.roll("d6", "poke")
            rolled = Rolled(command.actor, "poke", roll, 4, [], None, ["tiny-M1"])
            if roll.total < 4:
                return [rolled]
            return [rolled, Damaged(target.id, 1, command.actor, [], ["tiny-2"])]
    return []


def _joined(state: State, event: CombatantJoined) -> State:
    hp = event.sheet.get("hp", 2)
    return roster.put(state, Fighter(event.combatant, event.name, event.side, hp))


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, hp=f.hp - event.amount))


def _turn(state: State, event: TurnAdvanced) -> State:
    return replace(state, round=event.round)


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        Damaged: _damaged,
        TurnAdvanced: _turn,
    }
)


def view(state: State) -> View:
    fighters = list(state.fighters.values())
    acting = [f.id for f in fighters] if state.round else []
    order = [InitiativeRow(f.id, f.name, i, "-", f.id in acting) for i, f in enumerate(fighters)]
    wounds = [WoundRow(f.id, f.name, f.side, f"HP {f.hp}", [], {}, f.hp, 2, "HP") for f in fighters]
    return View(state.round, "duel" if state.round else "setup", acting, order, wounds, [])


REFERENCE = Reference(
    prefix="tiny",
    source=Source("Tiny Duel Rules", "Ann Author, 2026, tiny.example"),
    rules={
        "tiny-M1": Statement("A poke is a d6: 4 or more hits.", "Basics"),
        "tiny-1": Statement("Everyone acts in every round.", "Rounds"),
        "tiny-2": Statement("A hit takes one hit point off.", "Damage"),
    },
    attribution=NOTICE,
    licence="CC-BY-4.0",
)

RULESET = Ruleset(
    name="tiny",
    title="Tiny duel",
    options_type=Options,
    sheet_type=Sheet,
    command_type=Join | Begin | Poke,
    event_type=event_union(),
    initial=State,
    decide=decide,
    evolve=evolve,
    view=view,
    actions={"poke": "poke a target: a d6, 4 or more hits for 1 (tiny-M1, tiny-2)"},
    reference=REFERENCE,
)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Ruleset:
    monkeypatch.setitem(REGISTERED, "tiny", RULESET)
    return RULESET


def duel(fracas: Fracas) -> str:
    """A duel of the tiny ruleset with one hit (typed dice), cited tiny-1, tiny-M1, tiny-2."""
    encounter = fracas.new("tiny", title="a tiny duel", encounter="duel")
    for who in ("ann", "bo"):
        encounter.execute(RULESET.command({"action": "join", "combatant": who, "sheet": {}}))
    encounter.execute(RULESET.command({"action": "begin"}))
    poke = {"action": "poke", "actor": "ann", "targets": ["bo"]}
    encounter.execute(RULESET.command(poke), dice=[5])
    return encounter.id


async def fetched(db: str, path: str) -> httpx.Response:
    """A page of `fracas serve` on DB, served in this process (where the plugin is)."""
    table = Table(db, "token")
    try:
        transport = httpx.ASGITransport(build(table))
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as client:
            return await client.get(path)
    finally:
        table.close()


def exported(fracas: Fracas, name: str, fmt: str) -> str:
    out = io.StringIO()
    fracas.export_text(out, fmt, name)
    return out.getvalue()


def test_fracas_rules_lists_shows_and_attributes_a_plugins_rules(run, installed):
    listed = run("rules").output
    assert "tiny tiny       Tiny duel, 3 rules" in listed and "000  percentile" in listed
    system = run("rules", "tiny").output.splitlines()
    assert system[0] == "tiny: Tiny Duel Rules, Ann Author, 2026, tiny.example"
    assert system[1] == NOTICE  # the header carries the licence's attribution
    assert system[2:] == [
        "[tiny-M1] A poke is a d6: 4 or more hits.",
        "[tiny-1] Everyone acts in every round.",
        "[tiny-2] A hit takes one hit point off.",
    ]
    one = run("rules", "TINY-m1").output.splitlines()
    poke = "[tiny-M1] A poke is a d6: 4 or more hits."
    assert one == [poke, "From: Tiny Duel Rules: Basics", NOTICE]
    data = json.loads(run("rules", "tiny-2", "--json").output)
    assert data["id"] == "tiny-2" and data["attribution"] == NOTICE
    listing = json.loads(run("rules", "--json").output)
    tiny = next(s for s in listing if s["id"] == "tiny")
    assert tiny["licence"] == "CC-BY-4.0" and tiny["rules"] == 3


def test_a_plugins_unknown_rule_or_prefix_is_one_clear_line(run, installed):
    missing = run("rules", "tiny-9", ok=False)
    assert missing.exit_code == 1
    assert missing.output == (
        "Error: no rule 'tiny-9'; tiny has tiny-M1 … tiny-2: `fracas rules tiny` lists them\n"
    )
    unknown = run("rules", "zzz-3", ok=False)
    assert unknown.exit_code == 1 and "no installed ruleset cites zzz- ids" in unknown.output
    assert len(unknown.output.strip().splitlines()) == 1


def test_without_the_plugin_its_ids_are_unknown(run):
    assert "tiny" not in run("rules").output
    assert "no installed ruleset cites tiny-" in run("rules", "tiny-1", ok=False).output


def test_a_plugins_citations_are_stated_in_replay_report_and_serve(fracas, installed):
    name = duel(fracas)
    steps = fracas.replay(name)
    hit = steps[-1]
    assert hit.rules == ["tiny-M1", "tiny-2"]
    html = exported(fracas, name, "html")
    assert '<abbr title="A hit takes one hit point off.">tiny-2</abbr>' in html
    assert "<dt>tiny-1</dt><dd>Everyone acts in every round.</dd>" in html
    assert f'<footer class="attribution"><p>{NOTICE}</p></footer>' in html
    markdown = exported(fracas, name, "md")
    assert "- **tiny-M1**: A poke is a d6: 4 or more hits." in markdown
    assert markdown.rstrip().endswith(NOTICE)
    detail = asyncio.run(fetched(fracas.store.path, f"/e/{name}/step/{hit.step}"))
    assert detail.status_code == 200
    assert "<dt>tiny-2</dt><dd>A hit takes one hit point off.</dd>" in detail.text
    assert NOTICE in detail.text


def test_the_builtins_carry_no_attribution_and_state_their_rules_as_before(fracas):
    percentile = catalog.system("000")
    assert percentile.attribution == "" and percentile.game.startswith("Delta Green")
    assert catalog.rule("000-m9").id == "000-M9"


def test_a_reference_refuses_ids_not_of_its_prefix():
    with pytest.raises(ValueError, match="look like tiny-1 or tiny-M1, not coin-1, tiny-x"):
        Reference("tiny", Source("t"), {"coin-1": Statement("a"), "tiny-x": Statement("b")})
    with pytest.raises(ValueError, match="lower-case letters and digits"):
        Reference("Tiny-", Source("t"), {})


def test_fracas_rules_names_a_plugins_system_once_and_lists_in_columns(run, installed):
    assert run("rules", "tiny").output.splitlines()[0].startswith("tiny: Tiny Duel Rules")
    titles = [system["title"] for system in json.loads(run("rules", "--json").output)]
    listed = run("rules").output.splitlines()
    starts = {line.index(f" {title}, ") for line, title in zip(listed, titles, strict=False)}
    assert len(starts) == 1, listed  # "tiny" is longer than the built-ins' "000"
