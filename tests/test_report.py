"""The session report: golden files of the tours' fights (GM's and players'), a fight with a
secret roll, an adopted what-if, the user's own template, and the HTML in Chromium at phone
and laptop widths with nothing overflowing.

Regenerate the golden files after a deliberate change with FRACAS_GOLDEN=update.
"""

import gc
import io
import itertools
import os
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.projections import Fracas
from fracas.projections.replay import replay
from tests.pages import ROOT, run_block
from tests.support import attack, do, fight, gunner, sheet
from tests.web import chromium

GOLDEN = Path(__file__).parent / "golden"
FIGHTS = {
    "percentile-tour": "## A short tour",
    "shotclock": "## A shot-clock fight",
    "pool": "## A dice-pool fight",
    "timeslice": "## A time-slice fight",
    "fudge": "## A 4dF fight",
    "disputes-adopted": "# Disputes, audit and exports",
}


@pytest.fixture
def fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """What differs between two recordings of one fight and depends on no roll, fixed: the
    dice seed, the clock, the ids."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    monkeypatch.setattr("fracas.rules.encounter.new_seed", lambda: "11" * 32)
    monkeypatch.setattr("fracas.ledger.base.now", lambda: "2026-01-01T00:00:00.000+00:00")
    ids = itertools.count()
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=next(ids)))
    monkeypatch.setattr("fracas.rules.encounter.new_command_id", lambda: f"{next(ids):032x}")
    return tmp_path


def report(env: dict[str, str], fmt: str, *flags: str) -> str:
    result = CliRunner().invoke(cli, ["export", "--format", fmt, *flags], env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


def golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("FRACAS_GOLDEN") == "update":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"no golden file {name}: run with FRACAS_GOLDEN=update"
    assert text == path.read_text(), f"the report differs from tests/golden/{name}"


@pytest.mark.parametrize("fight", FIGHTS)
def test_the_tours_fights_report_as_their_golden_files(fight: str, fixed: Path) -> None:
    _runner, env = run_block(FIGHTS[fight])
    for fmt in ("md", "html"):
        golden(f"{fight}.gm.{fmt}", report(env, fmt))
        golden(f"{fight}.players.{fmt}", report(env, fmt, "--for", "players"))


def secret_env(fixed: Path, faces: str) -> dict[str, str]:
    env = {"FRACAS_DB": str(fixed / f"secret-{faces}.db")}
    runner = CliRunner()
    sheet = fixed / "gunner.toml"
    sheet.write_text(
        'dex = 14\nhp = 40\nskills.firearms = 60\nholding = ["pistol"]\n'
        'weapons = [{name = "pistol", kind = "firearm", damage = "1d10"}]\n'
    )
    for line in (
        ["new", "--id", "duel", "-t", "A duel in the dark"],
        ["add", "alice", "--sheet", str(sheet), "--side", "pc", "--name", "Alice"],
        ["add", "bob", "--sheet", str(sheet), "--set", "dex=10", "--name", "Bob"],
        ["begin"],
        ["act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5"],
        ["act", "bob", "attack", "alice", "-w", "pistol", "--dice", faces, "--secret"],
        ["act", "alice", "attack", "bob", "-w", "pistol", "--dice", "55,3"],
    ):
        assert runner.invoke(cli, line, env=env).exit_code == 0, line
    return env


def test_a_secret_roll_reports_in_full_to_the_gm_and_not_at_all_to_the_players(
    fixed: Path,
) -> None:
    hit, miss = secret_env(fixed, "12,9"), secret_env(fixed, "95")
    for fmt in ("md", "html"):
        golden(f"secret.gm.{fmt}", report(hit, fmt))
        players = report(hit, fmt, "--for", "players")
        golden(f"secret.players.{fmt}", players)
        assert players == report(miss, fmt, "--for", "players"), "non-interference"
        assert "12 against 60%" not in players and "HP 31/40" not in players
    gm = report(hit, "md")
    assert "Bob attacks Alice: 12 against 60%, success; hit; Alice takes 9 damage" in gm


def test_an_adopted_what_if_reads_where_it_happened_and_rounds_never_restart(
    fixed: Path,
) -> None:
    _runner, env = run_block(FIGHTS["disputes-adopted"])
    text = report(env, "md")
    headings = [line for line in text.splitlines() if line.startswith("## Round")]
    numbers = [int(h.split()[-1]) for h in headings]
    assert numbers == sorted(set(numbers)), f"round headings run {numbers}"
    round_1 = text[text.index("## Round 1") : text.index("## Round 2")]
    assert "set aside here: the table adopted a what-if" in round_1
    assert "Shotgun cultist attacks Alice Reyes: 20 against 40%, success; hit" in round_1
    assert "~~Shotgun cultist attacks Alice Reyes: 67 against 40%, failure; miss~~" in round_1


def test_the_summary_names_the_fallen_the_damage_and_the_criticals(fixed: Path) -> None:
    _runner, env = run_block(FIGHTS["disputes-adopted"])
    text = report(env, "md")
    assert "**Fell:** Knife cultist, unconscious (HP 1) by Alice Reyes (Round 2, step 24)." in text
    assert "**Criticals:** step 25, Marcus Bishop's pin on Shotgun cultist." in text
    assert "**Taken back:** 1 step undone, 6 set aside by an adopted what-if." in text
    assert "| Alice Reyes | 12 | 7 |" in text


def test_a_users_own_template_renders_the_same_document(fixed: Path) -> None:
    _runner, env = run_block(FIGHTS["disputes-adopted"])
    mine = fixed / "mine.html"
    mine.write_text(
        "{% for e in report.encounters %}<h1>{{ e.title }}</h1>"
        "{% for f in e.summary.fallen %}<p>{{ f.name }} fell to {{ f.by }}</p>{% endfor %}"
        "{% endfor %}"
    )
    shown = report(env, "html", "--template", str(mine))
    assert shown == "<h1>Night at the Lakeside Motel</h1><p>Knife cultist fell to Alice Reyes</p>"
    broken = fixed / "broken.md"
    broken.write_text("{% for x in %}")
    result = CliRunner().invoke(
        cli, ["export", "--format", "md", "--template", str(broken)], env=env
    )
    assert result.exit_code != 0 and len(result.output.strip().splitlines()) == 1
    assert "does not parse" in result.output


def test_the_html_report_shows_what_a_name_says_and_typed_dice_as_text(fracas: Fracas) -> None:
    """A name with markup in it reads as those characters wherever the HTML report shows it
    (its sentences, its rolls table, the standings): never as markup."""
    hostile = "<i>\"Bo\" & 'Al'</i>"
    played = fracas.new("percentile", title="test")
    join = {"action": "join", "sheet": gunner(), "side": "pc"}
    do(played, {**join, "combatant": "alice", "name": hostile})
    do(played, {**join, "combatant": "bob", "sheet": sheet(10)})
    do(played, {"action": "begin"})
    attack(played, "alice", "bob", dice=[10, 5])
    escaped = "&lt;i&gt;&#34;Bo&#34; &amp; &#39;Al&#39;&lt;/i&gt;"
    for players in (False, True):
        page = io.StringIO()
        fracas.export_text(page, "html", played.id, players=players)
        rolls = page.getvalue().split('<table class="rolls">')[1].split("</table>")[0]
        assert f"<tr><td>{escaped}</td><td>attack on bob</td><td>d100</td>" in rolls
        assert "<td>typed by the GM</td>" in rolls
        assert f'<span class="sentence">{escaped} ' in page.getvalue()
        assert f"<tr><td>{escaped}</td><td>pc</td>" in page.getvalue()  # the standings
        assert hostile not in page.getvalue()


@pytest.mark.browser
def test_the_html_report_fits_a_phone_and_a_laptop_in_chromium(fixed: Path) -> None:
    _runner, env = run_block(FIGHTS["disputes-adopted"])
    page_file = fixed / "report.html"
    page_file.write_text(report(env, "html"))
    with chromium() as browser:
        for width in (360, 1280):
            page = browser.new_page(viewport={"width": width, "height": 800})
            page.goto(page_file.as_uri())
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, f"the page overflows at {width}px ({scroll}px wide)"
            shot = fixed / f"report-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.read_bytes().startswith(b"\x89PNG")


def test_a_report_and_a_replay_leave_the_cycle_collector_as_they_found_it(fracas: Fracas) -> None:
    """Both pause Python's cycle collector while they walk the fight: it is on again after
    them, and still off if it was off, with nothing left frozen."""
    played = fight(fracas, ("alice", gunner()), ("bob", gunner()))
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            fracas.export_text(io.StringIO(), "html", played.id, players=True)
            replay(played)
            assert gc.isenabled() == enabled
            assert gc.get_freeze_count() == 0
    finally:
        gc.enable()
