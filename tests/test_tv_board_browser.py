"""What an outside table tester (issue 37, a third table: GM page 1366x768, TV 1920x1080,
phones 390x844) saw on the board as a fight went on: a player character at 0 HP turned red,
the monsters' colour; each dead monster kept its row between the living (five "npc dead"
rows by round 3); "Wolf 1" broke into "Wolf / 1" on the GM's page and the TV in small
type; the TV's "Aa" button said nothing of what it did. Debian's headless Chromium.

FRACAS_SHOTS=DIR keeps the screenshots."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import (
    FIRST_PANEL,
    PHONE,
    TV,
    WAIT,
    chosen,
    duel,
    fracas,
    invited,
    phone_of,
    redrawn,
    sample,
    served,
    shot,
)

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def cave(db: Path) -> None:
    """Wren and Ilse (Ilse at 0 HP, dying), two wolves, an orc-like captain and three
    goblins, the goblins and the captain dead, in initiative order between the living."""
    fracas(db, "new", "-r", "srd", "--id", "cave", "-t", "The goblin cave")
    for who, sheet, init in (("wren", "rogue", 14), ("ilse", "wizard", 6)):
        fracas(db, "add", who, "--sheet", sample(sheet), "--set", f"initiative={init}",
               "--side", "pc")  # fmt: skip
        fracas(db, "rename", who, who.capitalize())
    for n, init in ((1, 16), (2, 7)):
        fracas(db, "add", f"wolf-{n}", "--sheet", sample("wolf"), "--set", f"initiative={init}")
        fracas(db, "rename", f"wolf-{n}", f"Wolf {n}")
    for n, init in ((1, 18), (2, 12), (3, 5), (4, 3)):
        fracas(db, "add", f"goblin-{n}", "--sheet", sample("goblin"), "--set",
               f"initiative={init}")  # fmt: skip
        fracas(db, "rename", f"goblin-{n}", f"Goblin {n}")
    fracas(db, "rename", "goblin-2", "Hobgoblin captain")
    fracas(db, "begin")
    for n in (1, 2, 3):
        fracas(db, "harm", f"goblin-{n}", "200", "-m", "a fireball")
    fracas(db, "harm", "ilse", "20", "-m", "a wolf's bite")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("cave") / "cave.db"
    cave(db)
    with served(db) as served_:
        served_.db = db  # type: ignore[attr-defined]
        yield served_


def page_of(browser: Any, url: str, size: dict[str, Any], small: bool = False) -> Any:
    """URL opened at SIZE once the stream's first screen has come; `small`: the TV's type
    switched to small, as the tester did with Aa."""
    context = browser.new_context(**size)
    context.add_init_script(FIRST_PANEL)
    if small:
        context.add_init_script("localStorage.setItem('fracas-large', '0')")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.fracasScreens >= 1", timeout=WAIT)
    if "/p/" in url:  # a phone: its panel drawn again after that screen
        redrawn(page)
    return page


NAME_COLOUR = """(who) => getComputedStyle(
  document.querySelector(`#screen tr[data-combatant=${who}] td.name`)).color"""


@pytest.mark.parametrize("where", ["tv", "tv-small", "phone"])
def test_a_player_character_at_0_hp_keeps_its_sides_colour(
    where: str, running: Any, browser: Any
) -> None:
    if where == "phone":
        page = page_of(browser, f"{running.root}/p/{invited(running.db, 'wren')}", PHONE)
    else:
        page = page_of(browser, running.players, TV, small=where == "tv-small")
    shot(page, f"down-pc-{where}", full_page=True)
    down, living, foe = (page.evaluate(NAME_COLOUR, who) for who in ("ilse", "wren", "wolf-1"))
    assert down == living != foe, (down, living, foe)
    # down, said by its bar and a word, not by a foe's colour
    row = page.locator("#screen tr[data-combatant=ilse]")
    assert row.locator("[role=progressbar]").count() == 1
    assert "down" in row.inner_text() and "dying" in row.inner_text(), row.inner_text()


def test_the_dead_sink_below_the_living_on_the_tv(running: Any, browser: Any) -> None:
    tv = page_of(browser, running.players, TV)
    shot(tv, "dead-below-tv")
    rows = tv.evaluate(
        """() => [...document.querySelectorAll('#screen tr[data-combatant]')].map((r) => ({
             who: r.dataset.combatant, gone: r.classList.contains('gone'),
             top: r.getBoundingClientRect().top, bottom: r.getBoundingClientRect().bottom}))"""
    )
    living = [r for r in rows if not r["gone"]]
    dead = [r for r in rows if r["gone"]]
    assert len(living) == 5 and len(dead) == 3, rows
    lowest = max(r["bottom"] for r in living)
    assert all(r["top"] >= lowest - 1 for r in dead), rows
    assert all(r["bottom"] <= 1080 for r in rows), rows
    # the living keep the initiative order among themselves
    assert [r["who"] for r in sorted(living, key=lambda r: r["top"])] == [r["who"] for r in living]


# each name's own text, as the lines it is laid out on: a name broken inside has two
NAME_LINES = """() => [...document.querySelectorAll('#screen tr[data-combatant] td.name')]
.map((td) => {
  const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
  const text = walker.nextNode();
  const range = document.createRange();
  range.selectNodeContents(text);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return [text.textContent, tops.size];
})"""


@pytest.mark.parametrize("where", ["gm", "tv-small", "phone"])
def test_a_name_never_breaks_inside_itself(where: str, running: Any, browser: Any) -> None:
    if where == "gm":
        page = page_of(browser, running.gm, LAPTOP)
    elif where == "phone":
        page = page_of(browser, f"{running.root}/p/{invited(running.db, 'wren')}", PHONE)
    else:
        page = page_of(browser, running.players, TV, small=True)
    shot(page, f"names-{where}", full_page=True)
    lines = page.evaluate(NAME_LINES)
    assert len(lines) == 8 and all(count == 1 for _, count in lines), lines


def test_the_tvs_type_button_says_what_it_does(running: Any, browser: Any) -> None:
    tv = page_of(browser, running.players, TV)
    button = tv.locator("#large")
    assert button.inner_text().strip() == "Smaller text"
    assert button.get_attribute("aria-pressed") == "true"
    button.click()
    assert tv.evaluate("document.body.classList.contains('large')") is False
    assert button.inner_text().strip() == "Larger text"
    assert button.get_attribute("aria-pressed") == "false"
    shot(tv, "type-button-small")


# the computed size of each of a phone's small words: a side's tag on the board and on a
# target's pill, the AC and Reaction labels of the board and of the character's own line
SMALL_WORDS = """() => [...document.querySelectorAll(
  '#screen td small, .panel .sheet small, .panel label.tap small.side')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => [e.textContent.trim().slice(0, 20), parseFloat(getComputedStyle(e).fontSize)])"""


def test_a_phones_tags_and_labels_read_at_16_px(tmp_path: Path, browser: Any) -> None:
    """The tester's phone: the board's "npc" and the pills' "foe" at 11 px, "AC" and
    "Reaction" at 12.7 px; a phone's words are 16 px or more."""
    db = tmp_path / "duel.db"
    duel(db, "srd", foe_side="npc")
    with served(db) as here:
        phone = phone_of(browser, here, db, "hero")
        chosen(phone, "attack")
        shot(phone, "small-words-phone", full_page=True)
        sizes = phone.evaluate(SMALL_WORDS)
        said = {words for words, _ in sizes}
        assert {"npc", "foe"} <= said and any(w.startswith("AC") for w in said), sizes
        assert all(size >= 16 for _, size in sizes), sizes


def test_the_gms_console_says_whose_output_it_shows_and_clears_it_as_the_fight_moves_on(
    running: Any, browser: Any
) -> None:
    """The tester's GM page showed an older command's output (step 47's) while the fight
    stood at step 54, saying nothing of whose it was."""
    gm = page_of(browser, running.gm, LAPTOP)
    gm.fill("#line", "status")
    gm.press("#line", "Enter")
    output = gm.locator("#output")
    gm.wait_for_function("document.querySelector('#output').textContent.trim() !== ''")
    steps = int(gm.locator("#scrub").get_attribute("max") or 0)
    caption = gm.locator("#output-of").inner_text()
    assert "status" in caption and f"step {steps}" in caption, caption
    shot(gm, "console-output-gm")
    fracas(running.db, "note", "a torch gutters")
    gm.wait_for_function("document.querySelector('#output').textContent.trim() === ''")
    assert output.inner_text().strip() == "" and gm.locator("#output-of").inner_text() == ""
