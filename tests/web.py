"""Helpers for the tests of the table's screen: `fracas serve` as a real process, and Debian's
headless Chromium driven by Playwright (never a downloaded browser)."""

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.cli.serve import Table as ServedTable
from fracas.projections import Fracas
from fracas.projections.replay import timeline
from fracas.projections.screen import GM, PLAYERS
from tests.casts import CASTS
from tests.support import SHEETS, do, rolls, srd_sample

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FRACAS = [sys.executable, "-m", "fracas.cli.main"]
# Resolves once the page has drawn twice: what a tap's answer set off has been laid out.
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def need_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        why = "needs Debian's chromium: `sudo apt-get install chromium` (.ci/run does)"
        if os.environ.get("FRACAS_CI"):
            pytest.fail(why)
        pytest.skip(why)


class Served:
    def __init__(self, process: subprocess.Popen[str], players: str, gm: str) -> None:
        self.process, self.players, self.gm = process, players, gm
        self.root = players.rstrip("/")
        self.token = gm.split("token=", 1)[1]


@contextmanager
def served(db: Path, *extra: str) -> Iterator[Served]:
    """`fracas serve --port 0` on DB; the URLs it prints; stopped afterwards."""
    process = subprocess.Popen(
        [*FRACAS, "--db", str(db), "serve", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    printed = []
    try:
        for line in process.stdout:
            printed.append(line)
            if "GM:" in line:
                break
        text = "".join(printed)
        players = re.search(r"players: (\S+)", text)
        gm = re.search(r"GM: +(\S+)", text)
        assert players and gm, text
        yield Served(process, players[1], gm[1])
    finally:
        process.terminate()
        process.wait(10)


def fracas(db: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """The GM's `fracas` command on DB, as the command line runs it but in this process: a
    process each cost a third of a CPU second, most of a browser test's own time in CI. The
    server under test is still another process, following the log as it does the GM's."""
    command = ["--db", str(db), *args]
    result = CliRunner().invoke(cli, command, catch_exceptions=False)
    done = subprocess.CompletedProcess(command, result.exit_code, result.stdout, result.stderr)
    if check:
        done.check_returncode()
    return done


@contextmanager
def chromium() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def motel(db: Path) -> None:
    """Alice (DEX 14) acts first, then the cultist, then Bob."""
    fracas(db, "new", "--id", "motel", "-t", "Lakeside Motel")
    fracas(db, "add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    fracas(db, "add", "cultist", "--sheet", str(SHEETS / "cultist.toml"))
    fracas(db, "add", "bob", "--set", "dex=9", "--set", "skills.dodge=50", "--side", "pc")
    fracas(db, "begin")


def invited(db: Path, who: str) -> str:
    out = fracas(db, "invite", who, "--no-qr", "--url", "http://table.local:8000").stdout
    link = out.splitlines()[0]
    assert link.startswith("http://table.local:8000/p/")
    return link.rsplit("/p/", 1)[1]


class Table:
    def __init__(self, db: Path, running: Served, tokens: dict[str, str]) -> None:
        self.db, self.running, self.tokens = db, running, tokens
        self.client = httpx.Client(base_url=running.root, timeout=10)

    def log(self) -> str:
        return fracas(self.db, "log", "--json").stdout

    def seen(self, who: str) -> int:
        panel = self.client.get(f"/p/{self.tokens[who]}/panel").text
        found = re.search(r'data-seen="(\d+)"', panel)
        assert found, panel
        return int(found[1])

    def tap(self, who: str, token: str | None = None, **step: Any) -> httpx.Response:
        token = token or self.tokens[who]
        body = {"seen": self.seen(who), "command_id": uuid.uuid4().hex, **step}
        return self.client.post(f"/p/{token}/act", json=body, headers={"X-Fracas-Token": token})


SAMPLES = resources.files("fracas_srd").joinpath("samples")


def sample(name: str) -> str:
    return str(SAMPLES.joinpath(f"{name}.toml"))


def crypt(db: Path) -> None:
    """The fighter acts first, then the rogue (players' characters), then the goblin."""
    fracas(db, "new", "-r", "srd", "--id", "crypt", "-t", "The Crypt")
    pc = ("--side", "pc")
    fracas(db, "add", "fighter", "--sheet", sample("fighter"), "--set", "initiative=80", *pc)
    fracas(db, "add", "rogue", "--sheet", sample("rogue"), "--set", "initiative=40", *pc)
    fracas(db, "add", "goblin", "--sheet", sample("goblin"), "--set", "hp=150")
    fracas(db, "begin")


@contextmanager
def served_table(
    db: Path,
    set_up: Callable[[Path], None],
    players: tuple[str, ...],
    revoked: tuple[str, ...] = (),
) -> Iterator[Table]:
    """A fight set up, its players invited (and some of them revoked), served to their phones."""
    tokens = set_up_once(db, set_up, players, revoked)
    with served(db) as running:
        made = Table(db, running, tokens)
        try:
            yield made
        finally:
            made.client.close()


_SET_UP: dict[tuple[str, tuple[str, ...], tuple[str, ...]], tuple[Path, dict[str, str]]] = {}


def set_up_once(
    db: Path, set_up: Callable[[Path], None], players: tuple[str, ...], revoked: tuple[str, ...]
) -> dict[str, str]:
    """`set_up` and the invitations run once a test run (a dozen `fracas` processes); each
    test is given its own copy of the log they made, and the players' tokens."""
    key = (set_up.__qualname__, players, revoked)
    if key not in _SET_UP:
        made = Path(tempfile.mkdtemp(prefix="fracas-set-up-")) / db.name
        atexit.register(shutil.rmtree, made.parent, True)
        set_up(made)
        tokens = {who: invited(made, who) for who in players}
        for who in revoked:
            fracas(made, "invite", "--revoke", who)
        _SET_UP[key] = made, tokens
    made, tokens = _SET_UP[key]
    for file in made.parent.iterdir():
        shutil.copyfile(file, db.with_name(file.name))
    return tokens


def motel_table(tmp_path: Path) -> AbstractContextManager[Table]:
    """The motel fight served: alice and bob invited, the cultist's link revoked."""
    return served_table(tmp_path / "motel.db", motel, ("alice", "bob", "cultist"), ("cultist",))


def crypt_table(tmp_path: Path) -> AbstractContextManager[Table]:
    """The srd crypt fight served, the fighter and the rogue invited."""
    return served_table(tmp_path / "crypt.db", crypt, ("fighter", "rogue"))


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


RULESETS = ("percentile", "fudge", "pool", "shotclock", "timeslice", "srd")


WAIT = 8000


def cast_of(ruleset: str) -> tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]:
    """The hero (a player's character) and the foe (invited too, to react)."""
    if ruleset == "srd":
        return ("hero", srd_sample("rogue")), ("foe", srd_sample("goblin", hp=60))
    sheets = list(CASTS[ruleset].sheets.values())
    if ruleset == "percentile":  # the kit's bob keeps his knife sheathed to pin; the foe holds it
        return ("hero", sheets[0]), ("foe", {**sheets[1], "holding": ["knife"]})
    return ("hero", sheets[0]), ("foe", sheets[1])


def duel(db: Path, ruleset: str, foe_side: str = "pc") -> None:
    """The hero and the foe of `cast_of(ruleset)`, both players' characters, begun; the foe
    on `foe_side` (the hero's, pc, unless a test needs them on opposite sides)."""
    (hero, mine), (foe, theirs) = cast_of(ruleset)
    with Fracas(str(db)) as log:
        encounter = log.new(ruleset, title=f"A {ruleset} fight", encounter="fight")
        do(encounter, {"action": "join", "combatant": hero, "sheet": mine, "side": "pc"})
        do(encounter, {"action": "join", "combatant": foe, "sheet": theirs, "side": foe_side})
        do(encounter, {"action": "begin"})


def duel_attack(encounter: Any) -> dict[str, Any]:
    """In a `duel`, the attack of the one acting on the other."""
    actor = encounter.view().acting[0]
    target = "foe" if actor == "hero" else "hero"
    return {"action": "attack", "actor": actor, "targets": [target]}


def steps(db: Path) -> list[dict[str, Any]]:
    return json.loads(fracas(db, "log", "--json").stdout)


def acting(page: Any) -> bool:
    return page.locator(".me").get_attribute("data-acting") == "yes"


def until_acting(db: Path, page: Any, wanted: bool) -> None:
    """The GM passes turns until the page's character is acting (or is not)."""
    for _ in range(8):
        page.reload()
        if acting(page) == wanted:
            return
        fracas(db, "next")
    raise AssertionError("the turn never came round")


def phone_of(browser: Any, running: Served, db: Path, who: str, acting: bool = True) -> Any:
    """WHO's phone (390x844) on their link, once it is their turn (or, `acting` False, not)."""
    context = browser.new_context(**PHONE)
    context.add_init_script(FIRST_PANEL)
    page = context.new_page()
    page.goto(f"{running.root}/p/{invited(db, who)}")
    until_acting(db, page, acting)
    # the stream's first screen redraws the panel: a tap before that may land on the old one
    redrawn(page)
    return page


def boxes(page: Any, selector: str, timeout: int = 5000) -> list[dict[str, float]]:
    """The boxes of every element `selector` matches, read in one go once one is drawn: a
    stream's redraw between a wait and a measure would otherwise find the old element gone
    (Playwright's `bounding_box()` then gives None)."""
    handle = page.wait_for_function(
        """(selector) => {
          const rects = [...document.querySelectorAll(selector)]
            .map((e) => e.getBoundingClientRect())
            .map((r) => ({x: r.x, y: r.y, width: r.width, height: r.height}));
          return rects.some((r) => r.height > 0) && rects;
        }""",
        arg=selector,
        timeout=timeout,
    )
    return list(handle.json_value())


def redrawn(page: Any) -> None:
    """Waits for the phone's panel drawn after the stream's first screen; a page that got
    neither in 20 s is loaded once more, and a second miss fails saying what the page had."""
    from playwright.sync_api import TimeoutError as Timeout

    for last in (False, True):
        try:
            page.wait_for_function("window.fracasRedrawn >= 1", timeout=20000)
            return
        except Timeout:
            if last:
                had = page.evaluate(PAGE_STATE)
                raise AssertionError(f"no panel drawn after the first screen: {had}") from None
            page.reload()


PAGE_STATE = """() => ({
  screens: window.fracasScreens, redrawn: window.fracasRedrawn,
  lost: (document.querySelector("p.lost") || {}).textContent,
  lostShown: !(document.querySelector("p.lost") || {}).hidden,
  refusal: (document.querySelector("#refusal") || {}).textContent,
})"""


# Counts the stream's screens, and the phone's panels drawn after the first of them.
FIRST_PANEL = """
document.addEventListener("fracas:screen", () => {
  window.fracasScreens = (window.fracasScreens || 0) + 1;
});
document.addEventListener("fracas:panel", () => {
  if (window.fracasScreens) window.fracasRedrawn = (window.fracasRedrawn || 0) + 1;
});
"""


def chosen(page: Any, action: str) -> Any:
    """ACTION's button tapped on a phone: the form it opens."""
    page.click(f"button.action[data-action={action}]")
    return page.locator(f"fieldset.chosen[data-action={action}]")


def secret_fight(db: Path, faces: str) -> None:
    """Alice and Bob; Bob's shot at step 6 is a GM-only roll with FACES."""
    fracas(db, "new", "--id", "duel", "-t", "duel")
    sheet = db.parent / f"{db.stem}.toml"
    sheet.write_text(
        'dex = 14\nhp = 40\nskills.firearms = 60\nholding = ["pistol"]\n'
        'weapons = [{name = "pistol", kind = "firearm", damage = "1d10"}]\n'
    )
    fracas(db, "add", "alice", "--sheet", str(sheet), "--side", "pc")
    fracas(db, "add", "bob", "--sheet", str(sheet), "--set", "dex=10")
    fracas(db, "begin")
    fracas(db, "act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5")
    fracas(db, "act", "bob", "attack", "alice", "-w", "pistol", "--dice", faces, "--secret")


class Phones:
    """A fight served in-process (Starlette's TestClient: no server process, no browser) to
    the phones of its invited combatants: read a phone's panel, tap a step as its page sends
    it."""

    def __init__(self, db: Path, client: Any, tokens: dict[str, str], gm: str) -> None:
        self.db, self.client, self.tokens, self.gm = db, client, tokens, gm

    def panel(self, who: str) -> str:
        return self.client.get(f"/p/{self.tokens[who]}/panel").text

    def seen(self, who: str) -> int:
        found = re.search(r'data-seen="(\d+)"', self.panel(who))
        assert found, self.panel(who)
        return int(found[1])

    def tap(self, who: str, **step: Any) -> Any:
        token = self.tokens[who]
        body = {"seen": self.seen(who), "command_id": uuid.uuid4().hex, **step}
        return self.client.post(f"/p/{token}/act", json=body, headers={"X-Fracas-Token": token})

    def gm_page(self, encounter: str = "fight") -> str:
        return self.client.get(f"/gm/e/{encounter}", headers={"X-Fracas-Token": self.gm}).text

    def steps(self, encounter: str = "fight") -> int:
        with Fracas(str(self.db)) as log:
            return log.encounter(encounter).history.head_step


@contextmanager
def phones(db: Path, players: tuple[str, ...], encounter: str = "fight") -> Iterator[Phones]:
    """The fight in DB served in-process, PLAYERS invited."""
    from starlette.testclient import TestClient

    from fracas.cli.serve import Table as Served
    from fracas.cli.serve import build
    from fracas.ledger.invites import invite

    with Fracas(str(db)) as log:
        tokens = {who: invite(log.store, encounter, who) for who in players}
    table = Served(str(db), "gm-token")
    with TestClient(build(table)) as client:
        yield Phones(db, client, tokens, "gm-token")


def shot(page: Any, name: str, full_page: bool = False) -> None:
    """A screenshot into $FRACAS_SHOTS, when set, for a person to look at."""
    if shots := os.environ.get("FRACAS_SHOTS"):
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png", full_page=full_page)


def no_sideways_scroll(page: Any) -> None:
    """The page never scrolls sideways at its viewport's width: fails naming the first few
    elements that reach past the right edge."""
    edge = page.viewport_size["width"]
    if page.evaluate("document.documentElement.scrollWidth") <= edge:
        return
    past = page.evaluate(
        """(edge) => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > edge)
        .slice(0, 5).map(e => `${e.tagName}.${e.className} ${e.getBoundingClientRect().right}`)""",
        edge,
    )
    raise AssertionError(f"{page.url} scrolls sideways at {edge}px: {past}")


# the worst text contrast on the screen, for the TV's legibility tests (WCAG's formula)
CONTRAST = """() => {
  const lum = (rgb) => rgb.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((c) => {
    c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const worst = [];
  for (const el of document.querySelectorAll("#screen *")) {
    const box = el.getBoundingClientRect();
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || box.bottom > innerHeight || box.height === 0) continue;
    const style = getComputedStyle(el);
    const clear = "rgba(0, 0, 0, 0)";
    let back = el, bg = clear;
    while (back && (bg = getComputedStyle(back).backgroundColor) === clear) {
      back = back.parentElement;
    }
    if (!back) bg = "rgb(255, 255, 255)";
    const [a, b] = [lum(style.color), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05) * Number(style.opacity);
    const text = el.textContent.trim().slice(0, 30);
    worst.push([ratio, parseFloat(style.fontSize), el.className, text]);
  }
  return worst;
}"""


TV = {"viewport": {"width": 1920, "height": 1080}}  # a 1080p TV


def nine(db: Path, ruleset: str) -> None:
    """Four players' characters and five foes, begun, a few steps in, the latest with dice."""
    with Fracas(str(db)) as log:
        encounter = log.new(ruleset, title="Nine at the ford", encounter="ford")
        if ruleset == "srd":
            sheets = [srd_sample(s) for s in ("fighter", "rogue", "wizard", "cleric")]
            foes = [srd_sample("goblin", hp=40)] * 5
        else:
            cast = list(CASTS[ruleset].sheets.values())
            sheets, foes = [cast[n % len(cast)] for n in range(4)], [cast[-1]] * 5
        for n, sheet in enumerate(sheets):
            join = {"action": "join", "combatant": f"hero{n}", "sheet": sheet, "side": "pc"}
            do(encounter, {**join, "name": f"Hero number {n + 1} of the company"})
        for n, sheet in enumerate(foes):
            join = {"action": "join", "combatant": f"foe{n}", "sheet": sheet, "side": "npc"}
            do(encounter, {**join, "name": f"Goblin skirmisher {n + 1}"})
        do(encounter, {"action": "begin"})
        for n in range(5):
            do(encounter, {"action": "gm.harm", "target": f"foe{n}", "amount": 1})
        for n in range(4):
            shaken = {"action": "gm.condition-set", "target": f"hero{n}", "condition": "shaken"}
            do(encounter, shaken)
        current = {"action": "roll", "dice": "4d6", "reason": "the ford's current"}
        do(encounter, {**current, "actor": "hero0"})


def headlines(db: Path) -> list[str]:
    """The players' steps in one short line each, as the TV's log says them."""
    with Fracas(str(db)) as log:
        steps = [m.step for m in timeline(log.encounter("fight"), players=True)]
    return [step.headline or step.sentence for step in steps]


def landed_by(page: Any, db: Path, who: str, count: int) -> None:
    """The page's log shows the `count`th step WHO took: found by its number, as the line
    names no author when it is the one acting."""
    for _ in range(80):
        theirs = [s["step"] for s in steps(db) if s["author"] == who]
        if len(theirs) >= count:
            page.wait_for_selector(f'#screen ol.log li[data-step="{theirs[count - 1]}"]')
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{who} never took step {count}")


# -- a duel's steps the GM takes through the API (the phones' and the TV's tests) ---------


def fight(tmp_path: Path, ruleset: str) -> Path:
    db = tmp_path / f"{ruleset}.db"
    duel(db, ruleset)
    return db


def gm(db: Path, command: dict[str, Any], **how: Any) -> int:
    """A step of the GM's, through the API (secret, hidden, ask as the CLI's flags)."""
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        return encounter.execute(encounter.ruleset.command(command), **how).step


def until_turn(db: Path, who: str) -> None:
    """The GM passes turns until WHO acts (shot by shot in shotclock: many passes)."""
    for _ in range(40):
        with Fracas(str(db)) as log:
            if who in log.encounter("fight").view().acting:
                return
        gm(db, {"action": "next"})
    raise AssertionError(f"{who}'s turn never came")


def armed(db: Path, who: str) -> dict[str, str]:
    """The weapon field of WHO's attack: the first weapon on their sheet, if any."""
    with Fracas(str(db)) as log:
        encounter = log.encounter("fight")
        sheet = encounter.state.fighters[who].sheet
        weapons = encounter.ruleset.weapons_of(sheet)
    return {"weapon": weapons[0]} if weapons else {}


def secret_attack(db: Path) -> int:
    """On the foe's turn, the GM rolls the foe's attack on the hero as a secret: the step
    that rolls it (4dF's declared attack rolls as the GM's next resolves it)."""
    until_turn(db, "foe")
    attack = {"action": "attack", "actor": "foe", "targets": ["hero"], **armed(db, "foe")}
    step = gm(db, attack, secret=True)
    for _ in range(6):
        with Fracas(str(db)) as log:
            if rolls(log.encounter("fight").events_of_step(step)):
                return step
        step = gm(db, {"action": "next"}, secret=True)
    raise AssertionError("the foe's attack never rolled")


def screens(db: Path) -> dict[str, str]:
    """The screen each audience's pages get pushed, as the server renders it."""
    table = ServedTable(str(db), "token")
    try:
        name = table.worker.submit(lambda: table.encounter(None)).result()
        render = lambda audience: table.render_screen(name, audience)  # noqa: E731
        return {a: table.worker.submit(render, a).result() for a in (GM, PLAYERS)}
    finally:
        table.close()
