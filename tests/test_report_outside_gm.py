"""What an outside 5e GM found, in every ruleset: the players' report keeps NPCs' health as
hidden in its summary as everywhere else; the summary lists each critical alone; `party add`
takes --set as `add` does."""

import html
import json
import re

import pytest

from fracas.projections import Fracas, party
from fracas.projections.report import encounter_report
from tests.support import SIX, SRD_SAMPLES, member_sheet, srd_fight


def summary_row(text: str, name: str) -> list[str]:
    """The cells of one combatant's row in the Markdown summary's damage table."""
    table = text.split("| Combatant | Health taken from others | Health lost |", 1)[1].split(
        "\n\n", 1
    )[0]
    row = next(line for line in table.splitlines() if line.startswith(f"| {name} |"))
    return [cell.strip() for cell in row.strip("|").split("|")]


def html_summary_row(text: str, name: str) -> list[str]:
    row = re.search(rf"<tr><td>{name}</td>(.*?)</tr>", text)
    assert row, text
    return re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))


@pytest.mark.parametrize("ruleset", SIX)
def test_the_players_summary_keeps_an_npcs_damage_taken_as_hidden_as_its_health(
    run, tmp_path, ruleset
) -> None:
    run("new", "-r", ruleset, "-t", "a brawl")
    run("add", "ann", "--sheet", member_sheet(tmp_path, ruleset), "--side", "pc")
    run("add", "gob", "--sheet", member_sheet(tmp_path, ruleset))
    run("begin")
    run("harm", "gob", "1", "--reason", "a falling beam")
    run("harm", "ann", "1", "--reason", "a falling beam")

    def exported(fmt: str, *flags: str) -> str:
        return run("export", "--format", fmt, *flags).output

    players = exported("md", "--for", "players")
    assert summary_row(players, "gob")[2] == "—", "an NPC's damage taken tells its health"
    assert summary_row(players, "ann")[2] == "1", "a PC's health is the players' own"
    assert html_summary_row(exported("html", "--for", "players"), "gob")[1] == "—"
    numbers = exported("md", "--for", "players", "--npc-numbers")
    assert summary_row(numbers, "gob")[2] == "1"
    assert summary_row(exported("md"), "gob")[2] == "1", "the GM's report has the figures"
    assert html_summary_row(exported("html"), "gob")[1] == "1"


GUNNER = (
    'dex = 14\nhp = 40\nskills.firearms = 60\nholding = ["pistol"]\n'
    'weapons = [{name = "pistol", kind = "firearm", damage = "1d10"}]\n'
)
CRITICAL_HITS = {  # a fight whose last step is a critical hit, Alice's on Bob
    "percentile": [
        ["add", "bob", "--sheet", "gunner.toml", "--set", "dex=10", "--name", "Bob"],
        ["add", "alice", "--sheet", "gunner.toml", "--side", "pc", "--name", "Alice"],
        ["begin"],
        ["act", "alice", "attack", "bob", "-w", "pistol", "--dice", "55,3"],
    ],
    "srd": [
        ["add", "alice", "--sheet", str(SRD_SAMPLES / "fighter.toml"), "--side", "pc",
         "--name", "Alice"],
        ["add", "bob", "--sheet", str(SRD_SAMPLES / "goblin.toml"), "--name", "Bob"],
        ["begin", "--dice", "20,10"],
        ["act", "alice", "attack", "bob", "-w", "longsword", "--dice", "20,6,5"],
    ],
}  # fmt: skip


@pytest.mark.parametrize("ruleset", sorted(CRITICAL_HITS))
def test_the_summary_lists_a_critical_hit_alone_who_on_whom_and_its_damage(
    run, tmp_path, monkeypatch, ruleset
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gunner.toml").write_text(GUNNER)
    run("new", "-r", ruleset, "-t", "a duel")
    for line in CRITICAL_HITS[ruleset]:
        run(*line)
    with Fracas(run.db) as fracas:
        found = encounter_report(fracas.store, fracas.store.encounters()[0])
    [step] = [e.step for r in found.rounds for t in r.turns for e in t.entries][-1:]
    assert "critical" in step.marks
    damage = sum(h.amount + h.past for h in step.harm if h.whom == "bob")  # as rolled
    taken = sum(h.amount for h in step.harm if h.whom == "bob")
    assert damage > 0
    said = f"Alice's attack on Bob: {damage} damage"
    if taken < damage:  # srd's goblin: 7 hit points of the 14
        said += f" ({taken} of it taken, the rest past 0)"
    [critical] = found.summary.criticals
    assert critical.step == step.step
    assert critical.sentence == said
    for fmt in ("md", "html"):
        text = run("export", "--format", fmt).output
        line = html.unescape(next(line for line in text.splitlines() if "Criticals:" in line))
        assert f"step {step.step}, {said}." in line, line
        assert "against" not in line and " vs " not in line, "not every event of the step"


SET_FIELD = {  # a field of each ruleset's sheet, set from the command line, and its value
    "percentile": ("hp", "12", 12),
    "shotclock": ("toughness", "9", 9),
    "pool": ("body", "4", 4),
    "timeslice": ("hp", "12", 12),
    "fudge": ("armor", "1", 1),
    "srd": ("hp", "30", 30),
}


def party_events(run) -> int:
    return sum(e["events"] for e in json.loads(run("encounters", "--json").output))


@pytest.mark.parametrize("ruleset", SIX)
def test_party_add_takes_set_as_add_does_with_its_one_line_refusals(run, tmp_path, ruleset):
    field, typed, value = SET_FIELD[ruleset]
    sheet = member_sheet(tmp_path, ruleset)
    run("party", "add", "ann", "-r", ruleset, "--sheet", sheet, "--set", f"{field}={typed}",
        "--set", 'name="Ann Vale"')  # fmt: skip
    with Fracas(run.db) as log:
        joined = party.joined(party.party(log))["ann"]
    assert joined.sheet[field] == value and joined.name == "Ann Vale"
    before = party_events(run)
    for bad in ("bogus_field=1", f"{field}=banana"):
        refused = run("party", "add", "bo", "--sheet", sheet, "--set", bad, ok=False)
        assert refused.exit_code != 0 and "Traceback" not in refused.output
        [line] = refused.output.strip().splitlines()
        assert f"{sheet} with --set {bad}" in line, line
        assert party_events(run) == before, "a refusal appends nothing"
    assert "bo" not in run("party").output


def main_line_steps(run) -> list:
    with Fracas(run.db) as log:
        found = encounter_report(log.store, log.store.encounters()[-1])
    return [(t.title, e.step) for r in found.rounds for t in r.turns for e in t.entries]


def conditions_of(run, who: str) -> list[str]:
    wounds = json.loads(run("status", "--json").output)["wounds"]
    return next(w["conditions"] for w in wounds if w["combatant"] == who)


@pytest.mark.parametrize("ruleset", SIX)
def test_an_expiry_at_the_start_of_a_turn_is_filed_under_that_turn(run, tmp_path, ruleset):
    run("new", "-r", ruleset, "-t", "a brawl")
    run("add", "ann", "--sheet", member_sheet(tmp_path, ruleset), "--side", "pc", "--name", "Ann")
    run("add", "gob", "--sheet", member_sheet(tmp_path, ruleset), "--name", "Gob")
    run("begin")
    holder = json.loads(run("status", "--json").output)["acting"][0]
    name = {"ann": "Ann", "gob": "Gob"}[holder]
    run("condition", "set", holder, "glowing", "--until", f"start:{holder}")
    if ruleset == "fudge":  # a turn there is the resolution of what one declared (003-29)
        run("act", holder, "dodge")
    for _ in range(12):
        run("next")
        if not any(c.startswith("glowing") for c in conditions_of(run, holder)):
            break
    [(title, step)] = [(t, s) for t, s in main_line_steps(run) if "no longer" in s.sentence]
    assert name in title and holder in step.acting, (title, step.step, step.sentence)


def test_a_death_save_is_filed_under_the_dying_creatures_turn(run) -> None:
    run("new", "-r", "srd", "-t", "a brawl")
    for who, sample in (("brannoc", "fighter"), ("maelis", "cleric"), ("gob", "goblin")):
        side = ["--side", "pc"] if sample != "goblin" else []
        run(
            "add", who, "--sheet", str(SRD_SAMPLES / f"{sample}.toml"), "--name", who.title(), *side
        )
    run("begin", "--dice", "20,15,5")
    run("harm", "maelis", "30")
    run("next", "--dice", "17")  # Brannoc's turn ends; Maelis's begins with her death save
    run("next")
    saves = [(t, s) for t, s in main_line_steps(run) if "death save" in s.sentence]
    assert [t for t, _s in saves] == ["Maelis's turn"], saves
    assert saves[0][1].acting == ["maelis"]
    brannoc = [s.sentence for t, s in main_line_steps(run) if t == "Brannoc's turn"]
    assert not any("death save" in s for s in brannoc)


@pytest.mark.parametrize(
    ("critical", "said"),
    [(False, "one death save failure (1 of 3)"), (True, "two death save failures (2 of 3)")],
)
def test_a_death_save_failure_from_damage_at_0_hp_is_in_the_report(run, critical, said) -> None:
    srd_fight(run, "20,15", ("wren", "rogue", "pc"), ("gob", "goblin", "npc"))
    run("harm", "wren", "30")
    if critical:  # the goblin's natural 20 at 0 HP: two failures (srd-15)
        run("next")
        run("act", "gob", "attack", "wren", "--dice", "20,1,1,1")
    else:
        run("harm", "wren", "1", "--reason", "a kick")
    [last] = [s.sentence for _t, s in main_line_steps(run)][-1:]
    assert f"Wren suffers {said}: damage at 0 HP" in last, last
    assert f"Wren suffers {said}" in run("export", "--format", "md").output


def test_a_sneak_attack_withheld_is_named_in_the_report(run) -> None:
    srd_fight(run, "19,2", ("wren", "rogue", "pc"), ("gob", "goblin", "npc"))
    run("act", "wren", "attack", "gob", "-w", "shortsword", "--dice", "15,3")
    [last] = [s.sentence for _t, s in main_line_steps(run)][-1:]
    assert "sneak attack: not on this hit: no advantage on the roll" in last, last


def test_a_death_save_waiting_on_a_legendary_action_says_it_is_a_death_save(run) -> None:
    """Wren is dying as her turn comes round; the wyrm may still take a legendary action
    at the goblin's turn end (srd-29), so her death save waits: the report says so."""
    srd_fight(run, "20,15,5", ("wyrm", "wyrm", "npc"), ("gob", "goblin", "npc"),
              ("wren", "rogue", "pc"))  # fmt: skip
    run("harm", "wren", "40")
    run("next")
    run("next")  # the goblin's turn ends; Wren's death save waits for the wyrm
    [waits] = [s.sentence for _t, s in main_line_steps(run) if "legendary action" in s.sentence]
    assert "death save" in waits, waits
    assert "Wren: death save at the start" in run("export", "--format", "md").output


def test_second_wind_is_named_once_in_its_sentence(run) -> None:
    srd_fight(run, "20,5", ("brannoc", "fighter", "pc"), ("gob", "goblin", "npc"))
    run("harm", "brannoc", "5")
    run("act", "brannoc", "second_wind", "--dice", "5")
    [said] = [s.sentence for _t, s in main_line_steps(run)][-1:]
    assert said.lower().count("second wind") == 1, said
    assert said.startswith("Brannoc uses Second Wind: 5 +3 = 8"), said


def test_a_spell_s_own_bonus_and_a_spellcasting_modifier_read_plainly(run) -> None:
    """Magic missile's +1 a dart and fire bolt's Int modifier, in the report's words and
    its footnotes: no "magic missile's own", no two parentheses in a row."""
    srd_fight(run, "20,5", ("ilse", "wizard", "pc"), ("gob", "goblin", "npc"))
    run("act", "ilse", "cast", "gob", "-o", "spell=fire bolt", "--dice", "12,1")
    run("next")
    run("next")
    run("act", "ilse", "cast", "gob", "-o", "spell=magic missile", "--dice", "2,2,2")
    for fmt in ("md", "html"):
        text = run("export", "--format", fmt).output
        assert "'s own" not in text.replace("&#39;", "'"), fmt
        assert not re.search(r"\([^()]*\) \(", text), re.search(r".{60}\([^()]*\) \(.{20}", text)
        assert "+3 Int" in text or "+3 spellcasting" in text, fmt


def test_a_report_names_no_internal_command(run, tmp_path) -> None:
    """The party carried into a fight: the report's footnotes tell what happened, not the
    internal command the step recorded ("command: carry (gm)")."""
    run("party", "add", "ann", "-r", "srd", "--sheet", member_sheet(tmp_path, "srd"))
    run("new", "--party", "-t", "the boss")
    run("add", "gob", "--sheet", str(SRD_SAMPLES / "goblin.toml"), "--name", "Gob")
    run("condition", "set", "gob", "glowing")
    run("begin")
    run("next")
    for fmt in ("md", "html"):
        text = run("export", "--format", fmt).output
        assert "carry" not in text and "command: " not in text, fmt
        assert "condition-set" not in text and "join (" not in text, fmt


def test_a_critical_says_the_damage_rolled_and_what_it_did_where_that_differs(run) -> None:
    """Issue 40: the Criticals line showed an overkilling crit's damage as the hit points lost
    ("16 damage" of 19) and a crit on a dying creature with no number at all: it says the
    damage rolled, and what it did where that differs; the players' report, where the
    goblin's health is hidden, does not say what it had left."""
    run("new", "-r", "srd", "-t", "the cellar")
    run("add", "alice", "--sheet", str(SRD_SAMPLES / "fighter.toml"), "--side", "pc",
        "--name", "Alice")  # fmt: skip
    run("add", "bob", "--sheet", str(SRD_SAMPLES / "goblin.toml"), "--name", "Bob")
    run("add", "carl", "--sheet", str(SRD_SAMPLES / "goblin.toml"), "--name", "Carl")
    run("begin", "--dice", "20,10,5")
    run("harm", "bob", "5")  # 2 of 7 left
    run("act", "alice", "attack", "bob", "-w", "longsword", "--dice", "20,6,5")  # 6+5+3 = 14
    run("harm", "alice", "28")  # dying
    run("next")  # Bob is dead: Carl's turn
    run("act", "carl", "attack", "alice", "--dice", "20,1,6,5")  # 6+5+2 = 13, on dying Alice
    texts = {
        who: html.unescape(run("export", "--format", "md", "--for", who).output)
        for who in ("gm", "players")
    }
    lines = {w: next(ln for ln in t.splitlines() if "Criticals:" in ln) for w, t in texts.items()}
    assert "Alice's attack on Bob: 14 damage (2 of it taken, the rest past 0)" in lines["gm"], lines
    assert "Carl's attack on Alice: 13 damage (none taken: at 0 already)" in lines["gm"]
    assert re.search(r"Alice's attack on Bob: 14 damage[.;]", lines["players"]), lines
