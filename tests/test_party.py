"""The party (`fracas party`) in every ruleset: player characters kept in the log, brought
into a new fight as they ended their last one, as events that audit and export like a
fight's; rests as the ruleset recovers, or the GM's heal where it has none."""

import json
import re
from pathlib import Path

import pytest

from fracas.ledger import RefusedError
from fracas.projections import Fracas
from fracas.projections import party as party_of
from tests.support import SRD_SAMPLES as SAMPLES
from tests.support import member_sheet
from tests.support import refused as refused_line

BUILT_IN = ["percentile", "shotclock", "pool", "timeslice", "fudge"]
SIX = [*BUILT_IN, "srd"]


def members(run) -> list[dict]:
    return json.loads(run("party", "--json").output)


def fight_with_party(run, tmp_path: Path, ruleset: str) -> dict:
    """Ann joins the party, is brought into a fight, hurt (3), poisoned (until cured) and on
    fire (3 rounds); the fight ends. Ann as the party stands then."""
    run("party", "add", "ann", "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    run("new", "--party", "-t", "the ambush")
    run("harm", "ann", "3")
    run("condition", "set", "ann", "poisoned")
    run("condition", "set", "ann", "on fire", "--for", "3r")  # rounds, sequences, turns
    run("end")
    [ann] = members(run)
    return ann


@pytest.mark.parametrize("ruleset", SIX)
def test_the_party_comes_into_the_next_fight_as_it_ended_the_last(run, tmp_path, ruleset):
    ann = fight_with_party(run, tmp_path, ruleset)
    assert ann["conditions"] == ["poisoned"]  # between fights: the 3 rounds of fire are over
    assert ann["where"] == ""  # in no fight
    with Fracas(run.db) as log:
        [ambush] = [e["encounter"] for e in log.encounters() if e["encounter"] != "party"]
        hurt = next(w for w in log.view(ambush).wounds if w.combatant == "ann")
    assert ann["health"] == hurt.health  # the hurt carries

    second = run("new", "--party", "-t", "the boss").output.split()[0]
    [ann] = members(run)
    assert ann["where"] == second
    assert ann["conditions"] == ["poisoned"]  # nor do they come into the next fight
    with Fracas(run.db) as log:
        now = next(w for w in log.view(second).wounds if w.combatant == "ann")
        assert (now.current, now.maximum) == (hurt.current, hurt.maximum)
        assert log.view(second).wounds[0].side == "pc"
        carried = json.loads(log.store.last_of_kinds("party", ["party.carried"]) or "{}")
        assert carried["source"] == ambush  # the party's history is events in the log
        assert json.loads(log.store.last_of_kinds(second, ["party.carried"]))["source"] == "party"
    assert "rules drift: none" in run("audit").output


def in_column(listed: str, who: str) -> str:
    """What `fracas party` says in its "In" column for `who`."""
    lines = listed.splitlines()
    at = next(line for line in lines if line.startswith("ID")).index("In")
    return next(line for line in lines if line.startswith(f"{who} "))[at:].split()[0]


@pytest.mark.parametrize("ruleset", SIX)
def test_party_names_the_fight_the_party_is_in_and_says_when_it_is_between_fights(
    run, tmp_path, ruleset
):
    between = "—: between fights; `fracas new --party` brings them into the next fight"
    run("party", "add", "ann", "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    listed = run("party").output
    assert (in_column(listed, "ann"), between in listed) == ("—", True), listed
    assert members(run)[0]["where"] == ""
    run("new", "--party", "--id", "road")
    run("add", "gob", "--side", "npc")
    for then in ("begin", "end"):  # while it is set up, then once it has begun
        listed = run("party").output
        assert (in_column(listed, "ann"), between in listed) == ("road", False), listed
        assert members(run)[0]["where"] == "road"
        run(then)
    listed = run("party").output
    assert (in_column(listed, "ann"), between in listed) == ("—", True), listed
    assert "road" not in listed and members(run)[0]["where"] == ""


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_a_ruleset_without_rests_offers_the_gms_heal_only(run, tmp_path, ruleset):
    fight_with_party(run, tmp_path, ruleset)
    with Fracas(run.db) as log:
        before = log.store.head("party")
    refused = run("party", "rest", "long", ok=False)
    assert refused.exit_code != 0
    assert f"the {ruleset} rules have no rests" in refused.output
    assert "fracas party heal" in refused.output
    with Fracas(run.db) as log:
        assert log.store.head("party") == before  # the refusal appended nothing
    run("party", "heal", "ann", "1", "-m", "a bandage")
    [ann] = members(run)
    assert ann["where"] == ""


@pytest.mark.parametrize("ruleset", SIX)
def test_the_gm_harms_and_heals_a_member_between_fights_in_every_ruleset(run, tmp_path, ruleset):
    """Issue 40: a trap on the road between fights lowers a member's health by the GM's
    hand, in every ruleset (`party harm`), and `party heal` gives it back."""
    run("party", "add", "ann", "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    [fresh] = members(run)
    run("party", "harm", "ann", "2", "-m", "a trap on the road")
    [hurt] = members(run)
    assert hurt["health"] != fresh["health"] and hurt["where"] == ""
    run("new", "--party", "-t", "the ambush")
    with Fracas(run.db) as log:
        ambush = next(e["encounter"] for e in log.encounters() if e["encounter"] != "party")
        there = next(w for w in log.view(ambush).wounds if w.combatant == "ann")
    assert there.health == hurt["health"], "the hurt carries into the next fight"
    run("end")
    run("party", "heal", "ann", "2", "-m", "a healer's kit")
    [healed] = members(run)
    assert healed["health"] == fresh["health"]
    line = refused_line(run, "party", "harm", "bob", "2")
    assert "bob" in line and "party" in line, line
    assert "AMOUNT 0 is out of range" in refused_line(run, "party", "harm", "ann", "0")


def test_the_party_is_not_the_fight_commands_go_to(run, tmp_path):
    run("new", "-t", "the fight")
    run("party", "add", "ann", "--sheet", member_sheet(tmp_path, "percentile"))
    run("add", "gob", "--set", "dex=12")  # into the fight started last, not the party
    with Fracas(run.db) as log:
        assert list(log.encounter("party").state.fighters) == ["ann"]


def test_new_party_needs_a_party_and_its_ruleset(run, tmp_path):
    refused = run("new", "--party", ok=False)
    assert "no party in this log yet" in refused.output
    run("party", "add", "ann", "-r", "pool", "--sheet", member_sheet(tmp_path, "pool"))
    refused = run("new", "--party", "-r", "fudge", ok=False)
    assert "the party plays pool, not fudge" in refused.output
    with Fracas(run.db) as log:
        assert [e["encounter"] for e in log.encounters()] == ["party"]  # no fight started


@pytest.mark.parametrize("ruleset", SIX)
def test_new_party_is_one_transaction_a_failure_leaves_no_half_fight(
    run, tmp_path, monkeypatch, ruleset
):
    """Bob cannot be carried over (a refusal after Ann came in): no fight is started, and
    neither the party nor any fight holds a step of it."""
    for who in ("ann", "bob"):
        run("party", "add", who, "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    run("new", "--party", "--id", "first")
    run("end")
    with Fracas(run.db) as log:
        before = {e["encounter"]: log.store.head(e["encounter"]) for e in log.encounters()}
    carried = party_of.Carry

    def carry(who: str, *rest):
        if who == "bob":
            raise RefusedError("bob cannot come")
        return carried(who, *rest)

    monkeypatch.setattr(party_of, "Carry", carry)
    refused = run("new", "--party", "--id", "second", ok=False)
    assert refused.output.strip() == "Error: bob cannot come"
    with Fracas(run.db) as log:
        after = {e["encounter"]: log.store.head(e["encounter"]) for e in log.encounters()}
    assert after == before  # no "second", and the party not brought home from "first"
    monkeypatch.undo()
    run("new", "--party", "--id", "second")
    assert [m["where"] for m in members(run)] == ["second", "second"]


@pytest.mark.sqlite_file  # the log is named by its path on disk
def test_the_gm_page_adds_from_the_bestiary_and_brings_the_party_in(tmp_path):
    import httpx

    from tests.web import fracas, served

    db = tmp_path / "web.db"
    fracas(db, "party", "add", "brannoc", "-r", "srd", "--sheet", str(SAMPLES / "fighter.toml"))
    fracas(db, "new", "-r", "srd", "--id", "road")
    with (
        served(db) as server,
        httpx.Client(base_url=server.root, cookies={"fracas_gm": server.token}) as client,
    ):
        page = client.get("/gm/e/road").text
        assert '<option value="add goblin --monster goblin" label="Goblin (CR 1/4)">' in page
        assert 'data-line="party bring"' in page
        token = {"X-Fracas-Token": server.token}
        for line in ("party bring", "add gob --monster goblin --count 2"):
            done = client.post("/gm/e/road/command", json={"line": line}, headers=token).json()
            assert done["ok"], done
        again = client.post("/gm/e/road/command", json={"line": "party bring"}, headers=token)
        assert "brannoc already in road: the party is there" in again.json()["refusal"]
    with Fracas(str(db)) as log:
        fighters = log.encounter("road").state.fighters
        assert list(fighters) == ["brannoc", "gob-1", "gob-2"]
        assert fighters["brannoc"].side == "pc"


def test_a_member_out_of_the_fighting_is_said_out_as_the_ruleset_has_it_not_dead(run, tmp_path):
    """Issue 40: a shotclock mook who went down ("out") was said to be dead as the party came
    into the next fight, at the command line and on the GM page's "Bring the party in"."""
    from fracas.cli.serve import Table
    from fracas.cli.shell import split_line

    mook = tmp_path / "mook.toml"
    mook.write_text("mook = true\n")
    run("party", "add", "ann", "-r", "shotclock", "--sheet", str(mook), "--name", "Ann")
    run("party", "add", "bob", "-r", "shotclock", "--sheet", member_sheet(tmp_path, "shotclock"))
    run("new", "--party", "--id", "first")
    run("harm", "ann", "1")  # a mook goes down to any harm (001-M5): out, not dead
    run("end")
    said = run("new", "--party", "--id", "second").output
    assert "Ann is out and stays out of the fight" in said, said
    assert "dead" not in said, said
    run("end")
    run("new", "-r", "shotclock", "--id", "third")
    table = Table(run.db, "token")
    try:
        done = table.command("third", "party bring", split_line("party bring"))
    finally:
        table.reader.close() if table.reader is not None else None
        table.worker.shutdown()
    assert done["ok"], done
    assert "Ann is out and stays out of the fight" in done["output"], done
    assert "dead" not in done["output"], done


def test_a_short_rest_spends_the_hit_dice_the_gm_gives_each_member_and_says_what_they_healed(
    run, tmp_path
):
    for who in ("ann", "bob"):  # 3rd-level fighters: three d10 Hit Dice, Con 14 (+2)
        run("party", "add", who, "-r", "srd", "--sheet", member_sheet(tmp_path, "srd"))
    run("new", "--party")
    run("harm", "ann", "20")  # 8 of 28
    run("harm", "bob", "4")  # 24 of 28
    run("end")
    with Fracas(run.db) as log:
        before = {e["encounter"]: log.store.head(e["encounter"]) for e in log.encounters()}
    for refused, said in [
        (("--spend", "cat=1"), "no member 'cat' in the party; members: ann, bob"),
        (("--spend", "ann=two"), "--spend takes ID=N"),
        (("--spend", "ann=4"), "ann has 3 Hit Dice left of 3: spend at most 3"),
        (("--spend", "ann=2", "--dice", "4"), "--dice gave 1 face for 2 dice spent"),
        (("--spend", "ann=1", "--dice", "11"), "11 is not a face of d10"),
    ]:
        out = run("party", "rest", "short", *refused, ok=False)
        assert out.exit_code != 0 and said in out.output and "Traceback" not in out.output
    out = run("party", "rest", "long", "--spend", "ann=1", ok=False)
    assert "--spend is for a short rest" in out.output
    with Fracas(run.db) as log:  # no refusal appended anything, nor brought the party home
        assert before == {e["encounter"]: log.store.head(e["encounter"]) for e in log.encounters()}
    out = run("party", "rest", "short", "--spend", "ann=2", "--dice", "4,1").output
    assert re.search(r"^ann +ann +HP 17/28, Hit Dice 1/3 +—", out, re.M)  # 8 + (4+2) + (1+2)
    assert "ann regains 6 hit points (a Hit Die)" in out
    assert "ann regains 3 hit points (a Hit Die)" in out
    assert re.search(r"^bob +bob +HP 24/28, Hit Dice 3/3 +—", out, re.M)  # bob spends none
    assert "bob spends no Hit Dice (srd-58)" in out
    [ann, bob] = members(run)
    assert ann["standing"]["hit_dice_spent"] == 2 and bob["standing"]["hit_dice_spent"] == 0
    out = run("party", "rest", "short", "--spend", "ann=1", "--spend", "bob=1").output
    [ann, bob] = members(run)  # rolled here: at least 1+2 each, at most the maximum
    assert 20 <= int(ann["health"].split()[1].split("/")[0]) <= 28
    assert bob["health"].startswith("HP 2") and "bob regains" in out
    assert "rules drift: none" in run("audit").output


def test_party_lists_the_members_in_aligned_columns_that_fold_rather_than_cut(
    run, tmp_path, monkeypatch
):
    sheet = member_sheet(tmp_path, "srd")
    run("party", "add", "ann", "-r", "srd", "--sheet", sheet, "--name", "Ann of the Long Road")
    run("party", "add", "maelis", "--sheet", str(SAMPLES / "cleric.toml"), "--name", "Maelis")
    run("party", "condition", "set", "ann", "cursed by the hag of the fen")
    monkeypatch.setenv("COLUMNS", "160")  # a wide terminal first: each member on one line
    lines = run("party").output.splitlines()
    heading = next(line for line in lines if line.startswith("ID"))
    rows = [line for line in lines if line.startswith(("ann ", "maelis "))]
    assert len(rows) == 2
    for column in ("Name", "Health", "In", "Conditions"):  # each starts under its heading
        at = heading.index(column)
        filled = [row for row in rows if len(row) > at]
        assert filled and all(row[at - 1] == " " != row[at] for row in filled), (column, lines)
    assert "HP 24/24, slots 1st 4/4 · 2nd 2/2" in rows[1]
    assert "cursed by the hag of the fen" in rows[0]
    monkeypatch.setenv("COLUMNS", "50")
    narrow = run("party").output
    assert max(len(line) for line in narrow.splitlines()) <= 50, narrow
    assert "…" not in narrow
    said = (
        "Ann of the Long Road HP 24/24, slots 1st 4/4 · 2nd 2/2, Hit Dice 3/3 cursed by the "
        "hag of the fen"
    )
    for word in said.split():
        assert word in narrow.split(), narrow  # folded onto more lines, each word whole


@pytest.mark.parametrize("ruleset", SIX)
def test_the_party_rests_only_between_fights_never_in_a_fight_that_has_not_ended(
    run, tmp_path, ruleset
):
    """Every ruleset shares the party: a rest (or heal, or condition) in a begun fight would
    carry the party home mid-fight, and the fight's later damage would never reach it."""
    run("party", "add", "ann", "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    run("new", "--party", "--id", "ambush")
    run("add", "gob", "--side", "npc")
    run("begin")
    with Fracas(run.db) as log:
        before = {e["encounter"]: log.store.head(e["encounter"]) for e in log.encounters()}
    for between in (
        ("party", "rest", "long"),
        ("party", "heal", "ann", "1"),
        ("party", "condition", "set", "ann", "cursed"),
        ("party", "add", "bob", "--sheet", member_sheet(tmp_path, ruleset)),
        ("party", "update", "ann", "--sheet", member_sheet(tmp_path, ruleset)),
        ("party", "remove", "ann"),
    ):
        refused = run(*between, ok=False)
        assert refused.exit_code != 0 and "Traceback" not in refused.output
        assert refused.output.strip().endswith("end the fight ambush first"), refused.output
        assert len(refused.output.strip().splitlines()) == 1
    with Fracas(run.db) as log:  # nothing appended, the party still in the fight
        assert before == {e["encounter"]: log.store.head(e["encounter"]) for e in log.encounters()}
    run("harm", "ann", "3")
    with Fracas(run.db) as log:
        hurt = next(w for w in log.view("ambush").wounds if w.combatant == "ann").health
    run("end")
    run("party", "condition", "set", "ann", "cursed")  # the fight has ended: it comes home
    [ann] = members(run)
    assert (ann["where"], ann["health"]) == ("", hurt)  # the damage reached the party


@pytest.mark.parametrize("ruleset", SIX)
def test_a_rest_while_the_fight_is_being_set_up_is_refused_and_keeps_the_party_in_it(
    run, tmp_path, ruleset
):
    """A rest before `begin` carried the party home from the fight it was still in: later
    the fight's damage never reached the party (an outside tester's 5e night)."""
    run("party", "add", "ann", "-r", ruleset, "--sheet", member_sheet(tmp_path, ruleset))
    run("new", "--party", "--id", "ambush")
    refused = run("party", "rest", "long", ok=False)
    assert refused.output.strip().endswith("end the fight ambush first"), refused.output
    [ann] = members(run)
    assert ann["where"] == "ambush"


@pytest.mark.parametrize("ruleset", SIX)
def test_a_member_added_twice_is_refused_as_already_in_the_party(run, tmp_path, ruleset):
    sheet = member_sheet(tmp_path, ruleset)
    run("party", "add", "ann", "-r", ruleset, "--sheet", sheet)
    refused = run("party", "add", "ann", "--sheet", sheet, ok=False)
    assert refused.exit_code == 1, refused.output
    assert refused.output.strip() == (
        "Error: 'ann' is already in the party: `fracas party update ann --sheet FILE` gives "
        "them a new sheet"
    )
    assert [m["combatant"] for m in members(run)] == ["ann"]


# Issue 40, the outside 5e GM: a member could not be corrected, levelled up or dropped.


@pytest.mark.parametrize("ruleset", SIX)
def test_a_member_takes_a_new_sheet_between_fights_and_stands_as_they_stood(
    run, tmp_path, ruleset
):
    """`fracas party update ID --sheet FILE` replaces a member's sheet in one step of the
    party's log (the old one kept there), the member's hurt and lasting conditions kept, and
    the next fight brings them in with it."""
    ann = fight_with_party(run, tmp_path, ruleset)
    done = run("party", "update", "ann", "--sheet", member_sheet(tmp_path, ruleset), "-m", "a fix")
    assert done.output.startswith("ann takes the new sheet\n"), done.output
    [after] = members(run)
    assert (after["health"], after["conditions"]) == (ann["health"], ["poisoned"])
    told = run("log", "-e", "party").output
    assert "ann leaves the party: to join again with a new sheet (a fix)" in told
    assert ": as before" in told  # she stands as she stood: a new sheet ends no fight
    assert "last fight" not in told
    second = run("new", "--party").output.split()[0]
    with Fracas(run.db) as log:
        now = next(w for w in log.view(second).wounds if w.combatant == "ann")
    assert now.health == ann["health"]
    assert "rules drift: none" in run("audit").output


@pytest.mark.parametrize("ruleset", SIX)
def test_a_member_leaves_the_party_joins_no_fight_and_can_join_again(run, tmp_path, ruleset):
    """`fracas party remove ID` is an event, nothing deleted: the member joins no fight after,
    the log keeps them, and `party add` brings them back."""
    sheet = member_sheet(tmp_path, ruleset)
    run("party", "add", "ann", "-r", ruleset, "--sheet", sheet)
    run("party", "add", "bo", "--sheet", sheet)
    done = run("party", "remove", "bo", "-m", "retired")
    assert done.output.strip() == (
        "bo leaves the party: `fracas party add bo --sheet FILE` brings them back"
    )
    assert [m["combatant"] for m in members(run)] == ["ann"]
    assert "bo leaves the party: retired" in run("log", "-e", "party").output
    assert "bo (pc) joins as bo" in run("log", "-e", "party").output  # kept in the log
    fight = run("new", "--party").output.split()[0]
    with Fracas(run.db) as log:
        assert [w.combatant for w in log.view(fight).wounds] == ["ann"]
    run("end")
    run("party", "add", "bo", "--sheet", sheet)
    assert [m["combatant"] for m in members(run)] == ["ann", "bo"]
    assert "rules drift: none" in run("audit").output
    said = refused_line(run, "party", "remove", "bob")
    assert said.startswith("Error: no member 'bob' in the party; did you mean bo?"), said


def test_a_member_levelled_up_keeps_their_wounds_and_spent_hit_dice(run, tmp_path):
    """--set changes one field of the member's sheet; hit points stand as they did, no higher
    than the new sheet's most."""
    run("party", "add", "maelis", "-r", "srd", "--sheet", str(SAMPLES / "cleric.toml"))
    run("party", "condition", "set", "maelis", "cursed")
    run("new", "--party", "--id", "road")
    run("harm", "maelis", "10")
    run("end")
    run("party", "rest", "short", "--spend", "maelis=1", "--dice", "1")  # 1 + 2: 17 of 24
    run("party", "update", "maelis", "--set", "level=4", "--set", "hp=31", "-m", "level 4")
    [maelis] = members(run)
    assert maelis["health"].startswith("HP 17/31, "), maelis
    assert maelis["health"].endswith("Hit Dice 3/4") and maelis["conditions"] == ["cursed"]
    levelled = tmp_path / "cleric-low.toml"
    levelled.write_text((SAMPLES / "cleric.toml").read_text().replace("hp = 24", "hp = 12"))
    run("party", "update", "maelis", "--sheet", str(levelled))
    [maelis] = members(run)
    assert maelis["health"].startswith("HP 12/12, "), maelis
    assert "rules drift: none" in run("audit").output


def test_a_bad_new_sheet_is_refused_in_one_line_with_nothing_appended(run, tmp_path):
    run("party", "add", "maelis", "-r", "srd", "--sheet", str(SAMPLES / "cleric.toml"))
    said = refused_line(run, "party", "update", "maelis", "--set", "ac=banana")
    assert said.startswith("Error: sheet of maelis with --set ac=banana: ac = 'banana'"), said
    said = refused_line(run, "party", "update", "maelis", "--sheet", str(SAMPLES / "cleric.toml"),
                   "--set", "ac=banana")  # fmt: skip
    assert "cleric.toml with --set ac=banana: ac = 'banana'" in said, said
    assert refused_line(run, "party", "update", "maelis", "--set", "nonsense") == (
        "Error: --set takes KEY=VALUE, got 'nonsense'"
    )
    said = refused_line(run, "party", "update", "maelis")
    assert said == "Error: give --sheet FILE (the new sheet) or --set KEY=VALUE (one field)"
    said = refused_line(run, "party", "update", "maelis", "--sheet", str(tmp_path / "nosuch.toml"))
    assert said.endswith("no such sheet file"), said
    said = refused_line(run, "party", "update", "maelys", "--set", "hp=30")
    assert said.startswith("Error: no member 'maelys' in the party; did you mean maelis?"), said


def test_a_spell_missing_from_a_party_members_sheet_says_how_to_give_them_a_new_one(run):
    """A spell srd plays but the caster's sheet lacks: a party member's sheet is replaced with
    `fracas party update`, where the refusal told the GM to `fracas add` them again."""
    run("party", "add", "maelis", "-r", "srd", "--sheet", str(SAMPLES / "cleric.toml"))
    run("new", "--party", "--id", "road")
    run("add", "ilse", "--sheet", str(SAMPLES / "cleric.toml"), "--side", "pc")
    run("begin", "--dice", "20,1")
    said = refused_line(run, "act", "maelis", "cast", "ilse", "-o", "spell=guidance")
    assert said.endswith("given between fights with `fracas party update maelis --sheet FILE`")
    run("next")
    said = refused_line(run, "act", "ilse", "cast", "maelis", "-o", "spell=guidance")
    # issue 40: one already in the fight is never told to `fracas add` them
    assert said.endswith("in their sheet file, read when ilse joins a later fight"), said


def test_a_member_added_twice_is_told_how_to_replace_their_sheet(run, tmp_path):
    sheet = member_sheet(tmp_path, "srd")
    run("party", "add", "ann", "-r", "srd", "--sheet", sheet)
    said = refused_line(run, "party", "add", "ann", "--sheet", sheet)
    assert "`fracas party update ann --sheet FILE`" in said, said


@pytest.mark.parametrize("ruleset", SIX)
def test_the_party_keeps_the_order_members_were_first_added_in(run, tmp_path, ruleset):
    sheet = member_sheet(tmp_path, ruleset)
    for who in ("ann", "bo", "cy"):
        run("party", "add", who, "-r", ruleset, "--sheet", sheet)
    order = ["ann", "bo", "cy"]
    run("party", "update", "ann", "--sheet", sheet)
    assert [m["combatant"] for m in members(run)] == order  # not moved to the end
    run("party", "update", "bo", "--sheet", sheet)
    run("undo", "-e", "party")
    assert [m["combatant"] for m in members(run)] == order  # nor by an undo
    run("party", "update", "cy", "--sheet", sheet)
    run("party", "update", "bo", "--sheet", sheet)
    run("undo", "-e", "party")
    assert [m["combatant"] for m in members(run)] == order
    run("party", "remove", "ann")
    run("party", "add", "ann", "--sheet", sheet)  # added back: where a newcomer goes
    assert [m["combatant"] for m in members(run)] == ["bo", "cy", "ann"]


def test_a_new_sheet_with_fewer_slots_caps_the_spent_ones_and_says_so(run, tmp_path):
    sheet = tmp_path / "ilse.toml"
    wizard = (SAMPLES / "wizard.toml").read_text()
    sheet.write_text(wizard.replace("slots = [4, 2]", "slots = [4, 2]\nslots_spent = [0, 2]"))
    run("party", "add", "ilse", "-r", "srd", "--sheet", str(sheet), "--name", "Ilse")
    assert "2nd 0/2" in run("party").output
    fewer = tmp_path / "fewer.toml"
    fewer.write_text(wizard.replace("slots = [4, 2]", "slots = [1, 0]"))
    said = run("party", "update", "ilse", "--sheet", str(fewer), "--reason", "spent earlier")
    assert "-" not in said.output.split("slots", 1)[1].split(",")[0], said.output
    assert "slots 1st 1/1 · 2nd 0/0" in said.output
    assert "spent slots and Hit Dice capped at the new sheet's" in run("log", "-e", "party").output


def test_party_update_and_remove_say_the_members_name(run, tmp_path):
    sheet = member_sheet(tmp_path, "srd")
    run("party", "add", "brannoc", "-r", "srd", "--sheet", sheet, "--name", "Brannoc")
    assert run("party", "update", "brannoc", "--sheet", sheet).output.startswith(
        "Brannoc takes the new sheet"
    )
    assert run("party", "remove", "brannoc").output.startswith("Brannoc leaves the party: ")


def test_a_gms_set_of_how_a_member_stands_is_what_the_next_fight_starts_from(run, tmp_path):
    """`party update --set` of a field that says how a combatant stands (d20: hp_now,
    temp_hp, slots_spent, hit_dice_spent) is how the member stands after it, in `fracas
    party` and in the next fight: it was taken as the new sheet's and dropped for the
    standing carried from before, so the GM's change passed silently and did nothing."""
    sheet = str(SAMPLES / "cleric.toml")
    run("party", "add", "maelis", "-r", "srd", "--sheet", sheet, "--name", "Maelis")
    run("new", "--party", "--id", "road")
    run("harm", "maelis", "5")
    run("end")
    assert "HP 19/24, slots 1st 4/4 · 2nd 2/2, Hit Dice 3/3" in run("party").output
    sets = ["hp_now=1", "temp_hp=4", "slots_spent=[1, 2]", "hit_dice_spent=2"]
    said = run("party", "update", "maelis", *(f"--set={one}" for one in sets), "-m", "a trap")
    said = said.output
    standing = "HP 1/24 +4 temp, slots 1st 3/4 · 2nd 0/2, Hit Dice 1/3"
    assert standing in said, said
    [maelis] = members(run)
    assert (maelis["health"], maelis["standing"]["temp_hp"]) == (standing, 4)
    run("new", "--party", "--id", "den")
    with Fracas(run.db) as log:
        [row] = log.view("den").wounds
        assert row.health == standing
        assert log.encounter("den").state.fighters["maelis"].temp_hp == 4
    run("end")
    run("party", "update", "maelis", "--set", "level=4", "--set", "hp=31")  # a level: kept
    assert "HP 1/31 +4 temp, slots 1st 3/4 · 2nd 0/2, Hit Dice 2/4" in run("party").output
    run("party", "rest", "long")  # the long rest after it brings back what it brings back
    assert "HP 31/31, slots 1st 4/4 · 2nd 2/2, Hit Dice 4/4" in run("party").output


@pytest.mark.parametrize("ruleset", SIX)
def test_a_lasting_condition_cleared_in_a_fight_stays_cleared_between_fights(
    run, tmp_path, ruleset
):
    """Issue 40: Hild, poisoned until cured in the first fight, was cured in the second and
    charmed there; after it `fracas party` and the next fight showed her poisoned again:
    what carries over is the state the fight ended with, and the party's log says the
    poison ended."""
    fight_with_party(run, tmp_path, ruleset)  # ends poisoned, which lasts
    run("new", "--party", "--id", "cellar")
    run("condition", "clear", "ann", "poisoned")
    run("condition", "set", "ann", "charmed")
    run("end")
    [ann] = members(run)
    assert ann["conditions"] == ["charmed"]
    run("party", "heal", "ann", "1")  # carries her home
    assert members(run)[0]["conditions"] == ["charmed"]
    assert "no longer poisoned" in run("log", "-e", "party").output
    run("new", "--party", "--id", "crypt")
    assert members(run)[0]["conditions"] == ["charmed"]
