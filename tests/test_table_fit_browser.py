"""What an outside table tester (issue 37) saw on a 1920x1080 TV in an srd fight of ten:
only five or six rows in view, each condition wrapped to four lines, the latest dice below
the screen's edge; a health bar at 0 HP drawn as a full red bar, an unconscious character's
green sliver on red; a phone's board (390 px) broke names and conditions mid-word
("Maeli/s", "Bugbe/ar ambus/her", "concentratin/g"). Debian's headless Chromium.

FRACAS_SHOTS=DIR keeps the screenshots."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.web import PHONE, WAIT, fracas, invited, no_sideways_scroll, sample, served, shot

pytestmark = [pytest.mark.sqlite_file, pytest.mark.browser]
TV = {"viewport": {"width": 1920, "height": 1080}}
PARTY = {"maelis": "cleric", "wren": "rogue", "ilse": "wizard", "brannoc": "fighter"}
NAMES = {"maelis": "Maelis", "wren": "Wren", "ilse": "Ilse", "brannoc": "Brannoc"}


def cave(db: Path) -> None:
    """Four characters and six foes, most of them under a condition or two with what is
    left of it, Ilse at 0 HP and dying, a goblin dead, the latest step an attack."""
    fracas(db, "new", "-r", "srd", "--id", "cave", "-t", "Goblin cave")
    for n, (who, sheet) in enumerate(PARTY.items()):
        fracas(
            db,
            "add",
            who,
            "--sheet",
            sample(sheet),
            "--set",
            f"initiative={20 - n}",
            "--side",
            "pc",
        )
        fracas(db, "rename", who, NAMES[who])
    fracas(db, "add", "wolf", "--sheet", sample("wolf"), "--set", "initiative=200")
    for n in range(1, 6):
        fracas(
            db, "add", f"goblin-{n}", "--sheet", sample("goblin"), "--set", f"initiative={9 - n}"
        )
    fracas(db, "rename", "goblin-4", "Bugbear ambusher")
    fracas(db, "begin")
    for who in ("maelis", "wren", "brannoc", "goblin-1", "goblin-2", "wolf"):
        fracas(db, "condition", "set", who, "under bless", "--for", "10")
    fracas(db, "condition", "set", "maelis", "concentrating on bless", "--for", "10")
    fracas(db, "condition", "set", "goblin-3", "frightened", "--until", "end:maelis")
    fracas(db, "harm", "ilse", "24", "-m", "a bugbear's critical")
    fracas(db, "harm", "goblin-5", "200", "-m", "magic missile")
    fracas(db, "harm", "wren", "4", "-m", "a scratch")
    fracas(db, "condition", "set", "brannoc", "unconscious", "-m", "a sleep spell")
    fracas(db, "act", "wolf", "attack", "wren", "--dice", "15,3,2,5")


@contextmanager
def cave_on_a_tv(tmp_path: Path, browser: Any) -> Iterator[Any]:
    """The `cave` fight's players' page, opened as a 1920x1080 TV opens it."""
    db = tmp_path / "cave.db"
    cave(db)
    with served(db) as running:
        tv = browser.new_context(**TV).new_page()
        tv.goto(running.players)
        tv.locator("#screen .screen").wait_for(timeout=WAIT)
        yield tv


def test_the_tv_shows_a_fight_of_ten_with_its_conditions_and_dice_on_one_screen(
    tmp_path: Path, browser: Any
) -> None:
    with cave_on_a_tv(tmp_path, browser) as tv:
        shot(tv, "tv-ten", full_page=True)
        assert tv.locator("#screen tr[data-combatant]").count() == 10
        assert tv.locator("#screen .condition").count() >= 8
        assert tv.locator("#screen .dice").count() == 1
        height = tv.evaluate("document.documentElement.scrollHeight")
        assert height <= 1080, height
        no_sideways_scroll(tv)
        box = tv.locator("#screen .dice")
        box.wait_for(state="visible", timeout=WAIT)  # the stream may redraw the screen now
        dice = box.bounding_box()
        assert dice and dice["y"] + dice["height"] <= 1080, dice
        rows = tv.locator("#screen tr[data-combatant]")
        bottoms = [rows.nth(i).bounding_box() for i in range(rows.count())]
        assert all(b and b["y"] + b["height"] <= 1080 for b in bottoms), bottoms


DOWN_RED = "rgb(198, 40, 40)"
BAR = """(who) => {
  const bar = document.querySelector(`#screen tr[data-combatant=${who}] .bar`);
  const fill = bar.querySelector("span");
  const colour = (e) => getComputedStyle(e).backgroundColor;
  return {track: colour(bar), fill: colour(fill), filled: fill.getBoundingClientRect().width,
          words: bar.parentElement.innerText};
}"""


def test_a_bar_at_0_hp_is_empty_and_says_down_and_a_bar_is_coloured_by_state(
    tmp_path: Path, browser: Any
) -> None:
    """At 0 HP the bar was a full-length red bar (it read as full from across the room); an
    unconscious character with HP left showed a green sliver on a red bar."""
    with cave_on_a_tv(tmp_path, browser) as tv:
        ilse = tv.evaluate(BAR, "ilse")  # 0 HP, dying
        assert ilse["filled"] < 1 and ilse["track"] != DOWN_RED, ilse
        assert "down" in ilse["words"].split(), ilse
        brannoc = tv.evaluate(BAR, "brannoc")  # 28/28 HP, unconscious
        assert brannoc["fill"] == DOWN_RED and brannoc["track"] != DOWN_RED, brannoc
        assert "down" in brannoc["words"].split(), brannoc
        wren = tv.evaluate(BAR, "wren")  # 10/21: bloodied, not down
        assert wren["fill"] != DOWN_RED and "down" not in wren["words"].split(), wren


BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('#screen td.name, #screen td.status')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


def test_a_phones_board_breaks_names_and_conditions_only_between_words(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "cave.db"
    cave(db)
    token = invited(db, "maelis")
    with served(db) as running:
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{running.root}/p/{token}")
        phone.locator("#screen .screen").wait_for(timeout=WAIT)
        shot(phone, "phone-board", full_page=True)
        assert phone.locator("#screen tr[data-combatant]").count() == 10
        assert phone.evaluate(BROKEN_WORDS) == []
        no_sideways_scroll(phone)
