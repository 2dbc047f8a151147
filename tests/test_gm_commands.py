"""The GM's everyday commands in every ruleset: each a step, undoable, with the GM's reason,
and each refusal one line with nothing appended."""

import json

import pytest

from fracas.projections import Fracas
from tests.casts import PLAIN


def fight(tmp_path, name: str) -> tuple[Fracas, str]:
    fracas = Fracas(tmp_path / "gm.db")
    live = fracas.new(name, encounter="e1")
    fracas.add("alice", PLAIN[name], "e1", name="Alice Reyes", side="pc")
    fracas.add("bob", PLAIN[name], "e1", name="Bob")
    live.execute(live.ruleset.command({"action": "begin"}))
    return fracas, "e1"


def gm(fracas: Fracas, encounter: str, verb: str, **fields):
    live = fracas.encounter(encounter)
    return live.execute(live.ruleset.command({"action": f"gm.{verb}", **fields}))


def wound(fracas: Fracas, who: str):
    return next(w for w in fracas.view("e1").wounds if w.combatant == who)


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_harm_and_heal_by_hand_change_health_and_undo_restores_it(tmp_path, name):
    fracas, e = fight(tmp_path, name)
    before = wound(fracas, "bob")
    gm(fracas, e, "harm", target="bob", amount=2, reason="falls into a pit")
    hurt = wound(fracas, "bob")
    assert hurt.health != before.health
    step = "taken" if hurt.counts == "taken" else "left"
    assert (hurt.current > before.current) if step == "taken" else (hurt.current < before.current)
    log = fracas.log(e)[-1]
    assert any("falls into a pit" in line for line in log.lines)
    gm(fracas, e, "heal", target="bob", amount=1, reason="a potion")
    healed = wound(fracas, "bob")
    assert healed.current != hurt.current
    assert any("a potion" in line for line in fracas.log(e)[-1].lines)
    live = fracas.encounter(e)
    live.undo()
    live.undo()
    assert wound(fracas, "bob").health == before.health


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_a_removed_combatant_loses_their_turns_until_they_return(tmp_path, name):
    fracas, e = fight(tmp_path, name)
    live = fracas.encounter(e)
    acting = live.view().acting
    assert acting, f"{name}: somebody acts after begin"
    gone = acting[0]
    gm(fracas, e, "remove", target=gone, reason="flees down the stairs")
    view = fracas.view(e)
    assert gone not in view.acting
    row = next(r for r in view.initiative if r.combatant == gone)
    assert row.status == "removed: flees down the stairs"
    live = fracas.encounter(e)
    refused = live.ruleset.command({"action": "next", "actor": gone})
    version = live.version
    with pytest.raises(Exception, match="removed from the fight"):
        live.execute(refused)
    assert live.version == version
    gm(fracas, e, "return", target=gone, reason="comes back")
    assert "removed" not in next(w for w in fracas.view(e).wounds if w.combatant == gone).conditions


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_an_ended_encounter_refuses_the_rules_until_reopened(tmp_path, name):
    fracas, e = fight(tmp_path, name)
    gm(fracas, e, "end", reason="they surrender")
    view = fracas.view(e)
    assert view.phase == "ended" and view.acting == []
    live = fracas.encounter(e)
    with pytest.raises(Exception, match="has ended"):
        live.execute(live.ruleset.command({"action": "next"}))
    with pytest.raises(Exception, match="already ended"):
        gm(fracas, e, "end")
    with pytest.raises(Exception, match="the fight has ended: `fracas reopen` to go on"):
        gm(fracas, e, "harm", target="bob", amount=1, reason="bleeds after the fight")
    gm(fracas, e, "reopen", reason="reinforcements")
    assert fracas.view(e).phase != "ended"
    with pytest.raises(Exception, match="has not ended"):
        gm(fracas, e, "reopen")


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_conditions_and_names_by_hand(tmp_path, name):
    fracas, e = fight(tmp_path, name)
    gm(fracas, e, "condition-set", target="bob", condition="on fire", reason="lamp oil")
    assert "on fire" in wound(fracas, "bob").conditions
    gm(fracas, e, "condition-clear", target="bob", condition="on fire", reason="rolls in mud")
    assert "on fire" not in wound(fracas, "bob").conditions
    gm(fracas, e, "rename", target="bob", name="Bob the Cultist")
    assert wound(fracas, "bob").name == "Bob the Cultist"
    tracked = sorted(fracas.encounter(e).ruleset.conditions)
    if tracked:
        with pytest.raises(Exception, match="track themselves"):
            gm(fracas, e, "condition-set", target="bob", condition=tracked[0])


def test_percentile_harm_by_hand_knocks_out_as_a_wound_would(tmp_path):
    fracas, e = fight(tmp_path, "percentile")
    gm(fracas, e, "harm", target="bob", amount=9, reason="a falling beam")
    bob = wound(fracas, "bob")
    assert bob.current == 1 and "unconscious" in bob.conditions  # 000-M9: HP 2 or less
    gm(fracas, e, "heal", target="bob", amount=5, reason="first aid")
    bob = wound(fracas, "bob")
    assert bob.current == 6 and "unconscious" not in bob.conditions
    with pytest.raises(Exception, match="full HP"):
        gm(fracas, e, "heal", target="alice", amount=1)


def test_pool_harm_by_hand_is_an_injury_and_heal_eases_the_worst(tmp_path):
    fracas, e = fight(tmp_path, "pool")
    gm(fracas, e, "harm", target="bob", amount=2)
    gm(fracas, e, "harm", target="bob", amount=3)
    bob = wound(fracas, "bob")
    assert bob.detail["injuries"] == ["2 Moderate", "3 Threatening"]
    gm(fracas, e, "heal", target="bob", amount=1)
    assert wound(fracas, "bob").detail["injuries"] == ["2 Moderate", "2 Moderate"]


def test_removing_the_acting_combatant_passes_the_turn_on(tmp_path):
    fracas, e = fight(tmp_path, "percentile")
    assert fracas.view(e).acting == ["alice"]
    gm(fracas, e, "remove", target="alice", reason="fled")
    assert fracas.view(e).acting == ["bob"]


REFUSALS = [
    (["harm", "zed", "3"], "no combatant 'zed'"),
    (["harm", "bob", "0"], "AMOUNT 0 is out of range: give harm an AMOUNT from 1 to 10000"),
    (["heal", "bob", "x"], "not a valid integer"),
    (["condition", "clear", "bob", "on fire"], "not 'on fire'"),
    (["condition", "set", "bob", "pinned"], "track themselves"),
    (["return", "bob"], "was not removed"),
    (["reopen"], "has not ended"),
    (["rename", "bob", ""], "name"),
]


@pytest.mark.parametrize(("args", "says"), REFUSALS)
def test_refusals_are_one_line_and_append_nothing(run, args, says):
    run("new", "--id", "e1")
    run("add", "bob", "--set", "dex=10", "--set", "str=10", "--set", "con=10")
    before = json.loads(run("encounters", "--json").output)[0]["events"]
    result = run(*args, ok=False)
    assert result.exit_code != 0 and says in result.output
    assert "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith("Error:")
    assert json.loads(run("encounters", "--json").output)[0]["events"] == before


def test_the_log_shows_the_gm_command_with_its_reason(run):
    run("new", "--id", "e1")
    run("add", "bob", "--set", "dex=10", "--set", "str=10", "--set", "con=10")
    run("harm", "bob", "3", "--reason", "a trap door")
    run("end", "-m", "the cultists flee")
    log = run("log").output
    assert "bob takes 3 damage (+3 a trap door)" in log
    assert "the encounter ends: the cultists flee" in log


@pytest.mark.parametrize("name", sorted(set(PLAIN) - {"srd"}))  # srd's rules have them
def test_temporary_hit_points_by_hand_are_refused_in_one_line_where_the_rules_have_none(run, name):
    run("new", "-r", name)
    for who in ("alice", "bob"):
        sets = [a for key, value in PLAIN[name].items() for a in ("--set", f"{key}={value}")]
        run("add", who, *sets)
    run("begin")
    before = len(json.loads(run("log", "--json").output))
    refused = run("heal", "bob", "5", "--temp", ok=False)
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert refused.output.strip().endswith(
        f"the {name} rules have no temporary hit points: heal without --temp"
    )
    assert len(refused.output.strip().splitlines()) == 1
    assert len(json.loads(run("log", "--json").output)) == before


def test_temporary_hit_points_by_hand_keep_the_larger_in_the_d20_rules(run):
    run("new", "-r", "srd")
    run("add", "wren", "--set", "hp=21", "--set", "temp_hp=5", "--side", "pc")
    run("add", "gob", "--set", "hp=7")
    run("begin")
    assert "+5 temp" in run("status").output  # from the sheet
    out = run("heal", "wren", "3", "--temp").output
    assert "keeps the 5 wren had over 3 (they do not stack)" in out  # a PC is named
    out = run("heal", "wren", "8", "--temp", "--reason", "a draught").output
    assert "wren has 8 temporary hit points: a draught" in out
    report = run("export", "--format", "md").output
    assert "The GM gives wren temporary hit points (a draught)" in report
    assert "+8 temp" in run("status").output
