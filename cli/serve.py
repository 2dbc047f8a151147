"""`fracas serve`: the table's screen. A players' page and a GM's page per encounter, pushed
live by Server-Sent Events whenever any process appends to the log.

One thread owns every SQLite connection (the reader that watches and folds, the GM's writer),
so the event loop never blocks on the disk and sqlite3 never sees a connection cross threads.
The watcher asks SQLite's `PRAGMA data_version` (a counter in shared memory, no disk read)
every few milliseconds; only when it moves does it read the heads, fold the encounters that
changed, render each audience's screen once, part by part (the headline, each row, each line
of the log), and hand every open page of that audience the parts that changed. A page opens
with the whole screen, and is sent it whole again if it fell behind.
"""

import asyncio
import contextlib
import functools
import hmac
import io
import json
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import click
import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from fracas.cli import render
from fracas.cli.confine import confined, log_files
from fracas.cli.guards import (
    BodyCap,
    console_line,
    encounter_name,
    gone,
    refused,
    refused_for,
    step_number,
)
from fracas.cli.phones import NOW, Phones
from fracas.cli.phones import routes as phone_routes
from fracas.cli.shell import split_line
from fracas.ledger import BadInputError, FracasError, NotFoundError, UnreachableError, is_server
from fracas.ledger.base import LogStore
from fracas.projections import Fracas
from fracas.projections.board import BoardRow, invitable
from fracas.projections.glance import latest
from fracas.projections.party import has_party
from fracas.projections.screen import GM, PLAYERS, Screen, Timeline, chip
from fracas.rules import Encounter
from fracas.rules.encounter import started_event
from fracas.rules.party import PARTY

GM_TOKEN = "serve.gm-token"  # the GM's token, by its name among the log's sealed secrets
STATIC = ("table.js", "table.css", "phone.js", "phone.css", "gm.js")
COOKIE = "fracas_gm"
TOKEN_HEADER = "x-fracas-token"
WATCH_EVERY = 0.01  # seconds between two looks at data_version
KEEPALIVE = 15.0
NOT_ON_THE_WEB = {
    "import": "it reads a file; import with `fracas import`",
    "new": "start encounters with `fracas new`; the server shows them as they appear",
    "demo": "it plays its own file",
    "play": "this page is the console",
    "serve": "you are on it",
}
T = TypeVar("T")


@dataclass
class Shown:
    """A screen as its parts: each part's HTML by its key ("turn", "row:alice", "step:12"),
    the keys of the board's rows and of the log's lines in order ("rows", "log"), and the
    screen they were rendered from."""

    screen: Screen
    parts: dict[str, str]
    lists: dict[str, list[str]]


@dataclass
class Audience:
    """The open pages of one audience of one encounter, its timeline as last folded, and
    the screen its pages were last sent (what the next push is a change from)."""

    queues: set[asyncio.Queue[bytes]] = field(default_factory=set)
    timeline: Timeline | None = None
    shown: Shown | None = None
    whole: str = ""  # `shown` as one message: a page opening, or one that fell behind


@dataclass(frozen=True)
class Given:
    """A link given, as the GM's page lists it."""

    name: str
    combatant: str
    at: str
    revoked: str | None


def when(at: str) -> str:
    """A stored time (ISO, UTC) as the GM's page says it: "17:04 UTC", the day first when
    it is not today's ("28 Nov 17:04 UTC")."""
    moment = datetime.fromisoformat(at).astimezone(UTC)
    clock = moment.strftime("%H:%M UTC")
    if moment.date() == datetime.now(UTC).date():
        return clock
    return f"{moment.day} {moment:%b} {clock}"


class Table:
    """The log the server was started on, and everything it keeps in memory about it."""

    def __init__(
        self, db: str, token: str, *, npc_numbers: bool = False, files: Path | None = None
    ) -> None:
        self.db, self.token, self.npc_numbers = db, token, npc_numbers
        self.files = files  # the only directory the console reads or writes files in
        self.console: click.Group | None = None
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="fracas-db")
        self.reader: Fracas | None = None
        self.watched: dict[tuple[str, str], Audience] = {}
        self.heads: dict[str, int] = {}
        self.data_version = -1
        self.consoles: dict[str, Any] = {}
        self.unreachable = ""  # the log server's URL while it cannot be reached
        self.default: str | None = None  # the encounter a page that names none shows
        # the streams of pages that name no encounter, and the one each shows: told when
        # the file's current encounter is another (`fracas new`), they move over
        self.followers: dict[asyncio.Queue[bytes], str] = {}
        self.now: str | None = None  # the file's current encounter, read while some follow
        self.templates = jinja2.Environment(
            loader=jinja2.PackageLoader("fracas.cli", "templates"),
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.templates.globals["not_shown"] = render.NOT_SHOWN
        self.templates.filters["chip"] = chip
        self.templates.filters["when"] = when
        static = resources.files("fracas.cli") / "static"
        self.static = {name: (static / name).read_text() for name in STATIC}
        self.phones = Phones(self)

    # -- the database thread -------------------------------------------------------------

    async def run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.worker, work)

    def open(self) -> Fracas:
        if self.reader is None:
            self.reader = Fracas(self.db, readonly=True, create=False)
        return self.reader

    def close(self) -> None:
        def shut() -> None:
            for app in self.consoles.values():
                app.close()
            self.phones.close()
            if self.reader is not None:
                self.reader.close()

        self.worker.submit(shut).result()
        self.worker.shutdown()

    def encounter(self, name: str | None) -> str:
        """The encounter a page names, else the one the server was started on (-e,
        FRACAS_ENCOUNTER), else the latest started."""
        fracas = self.open()
        name = name or self.default
        return fracas.encounter(name).id if name is None else self._known(fracas, name)

    @staticmethod
    def _known(fracas: Fracas, name: str) -> str:
        if not fracas.store.exists(name):
            raise NotFoundError(f"no encounter {name!r} in this log")
        return name

    def players_encounter(self, name: str | None) -> str:
        """The encounter a players' page names, refused as if it were not in the log when it
        is the GM's alone: one not begun (the ambush being prepared), unless it is the one
        the server shows by default."""
        found = self.encounter(name)
        if name is not None and not self.shown_to_players(found):
            raise NotFoundError(f"no encounter {name!r} in this log")
        return found

    def shown_to_players(self, name: str) -> bool:
        """Begun, or the encounter a page that names none shows (the GM's current)."""
        return name == self.encounter(None) or self.open().begun(name)

    def timeline(self, name: str, audience: str) -> Timeline:
        """The audience's timeline of the encounter, folded again only if the head moved."""
        fracas = self.open()
        watched = self.watched.setdefault((name, audience), Audience())
        version = fracas.store.head(name).version
        if watched.timeline is None or watched.timeline.version != version:
            live = Encounter(fracas.store, name)
            title = started_event(fracas.store, name).title or name
            watched.timeline = Timeline(
                live,
                title,
                audience,
                lambda step: fracas.store.head_code(name, step),
                watched.timeline,
            )
        return watched.timeline

    def live(self, name: str) -> Encounter:
        """The encounter as the GM's console and the players' phones write to it: one
        writer, folded once and kept."""
        from fracas.cli.main import App

        app = self.consoles.get(name)
        if app is None:
            app = self.consoles[name] = App(self.db, name)
        return app.encounter(write=True)

    def render_detail(self, name: str, audience: str, step: int) -> str:
        timeline = self.timeline(name, audience)
        if not 1 <= step <= timeline.steps:
            raise NotFoundError(f"no step {step}: this fight has steps 1 to {timeline.steps}")
        return self.templates.get_template("detail.html").render(
            detail=timeline.detail(step), audience=audience
        )

    def bestiary(self, name: str) -> list[tuple[str, str]]:
        """The GM console's suggestions from the ruleset's bestiary: (line, label)."""
        found = self.live(name).ruleset.monsters.monsters
        return [(f"add {m.slug} --monster {m.slug}", f"{m.name} (CR {m.challenge})") for m in found]

    def invitees(self, name: str) -> list[BoardRow]:
        """The GM page's Invite list: the living player characters (`invitable`)."""
        return invitable(self.screen(name, GM).board.rows, self.live(name).ruleset)

    def given(self, name: str) -> list[Given]:
        """The GM page's list of the links given, in the order given, by the character's
        name; never a combatant hidden from the players (nor one no longer on the board)."""
        from fracas.ledger.invites import invites

        rows = {row.combatant: row for row in self.screen(name, GM).board.rows}
        return [
            Given(row.name, g.combatant, g.at, g.revoked)
            for g in invites(self.open().store, name)
            if (row := rows.get(g.combatant)) is not None and not row.hidden
        ]

    def name_of(self, name: str, combatant: str) -> str:
        """The combatant's name as the GM's board shows it."""
        rows = self.screen(name, GM).board.rows
        return next((row.name for row in rows if row.combatant == combatant), combatant)

    def screen(self, name: str, audience: str, step: int | None = None) -> Screen:
        return self.timeline(name, audience).screen(step, npc_numbers=self.npc_numbers)

    def render_screen(self, name: str, audience: str, step: int | None = None) -> str:
        return self.assembled(self.parts(self.screen(name, audience, step)))

    def parts(self, screen: Screen) -> Shown:
        """The screen's parts, each rendered once (screen_parts.html)."""
        part: Any = self.templates.get_template("screen_parts.html").module  # its macros
        b = screen.board
        parts = {
            "turn": part.turn(b, screen.deadline),
            "withheld": part.withheld(screen),
            "extras": part.extras(b),
            "dice": part.dice_part(screen),
            "head": part.head(screen),
        }
        rows = [f"row:{row.combatant}" for row in b.rows]
        parts |= {key: part.row(row) for key, row in zip(rows, b.rows, strict=True)}
        log = [f"step:{entry.step}" for entry in screen.log]
        parts |= {
            key: part.entry(entry, screen.audience)
            for key, entry in zip(log, screen.log, strict=True)
        }
        return Shown(screen, parts, {"rows": rows, "log": log})

    def assembled(self, shown: Shown) -> str:
        """The whole screen from its parts."""
        return self.templates.get_template("screen.html").render(
            screen=shown.screen, parts=shown.parts, lists=shown.lists
        )

    def changed(self) -> list[str]:
        """The watched encounters whose head moved since the last look (cheap when none):
        a SQLite file says when anyone committed; on a server, the watched heads are read."""
        store = self.open().store
        version = store.data_version()
        if version is not None and version == self.data_version:
            return []
        self.data_version = -1 if version is None else version
        if self.followers:
            self.now = self.current(store)
        heads = store.heads(sorted({name for name, _ in self.watched}))
        moved = [name for name, head in heads.items() if self.heads.get(name) != head]
        self.heads.update(heads)
        return moved

    def current(self, store: Any) -> str | None:
        """The encounter a page naming none shows now: the one the server was started on,
        else the file's latest started (None while it has none)."""
        try:
            return self.default or latest(store)
        except NotFoundError:
            return None

    def tell_followers(self) -> None:
        """Each page following the file's current encounter that shows another is told
        which it is now, once (it loads it: the stream's `encounter` event)."""
        now = self.now
        if now is None:
            return
        for queue, shown in list(self.followers.items()):
            if shown != now:
                self.followers[queue] = now
                if queue.full():
                    queue.get_nowait()  # (a screen it had not read: the page reloads)
                queue.put_nowait(f"event: encounter\ndata: {json.dumps(now)}\n\n".encode())

    def update(self, name: str, audience: str) -> str:
        """The live screen as one event-stream message: its step count and its HTML."""
        shown = self.parts(self.screen(name, audience))
        return whole(shown.screen.steps, self.assembled(shown))

    def messages(self, names: list[str]) -> list[tuple[Audience, bytes, bytes]]:
        """Per changed encounter and audience with pages open, the parts of its screen that
        changed since its pages were last sent it (and the whole screen, for a page that
        fell behind), each encoded once for all its pages; nothing when no part changed (a
        step players may not see moves nothing on their page)."""
        found = []
        for (name, audience), watched in self.watched.items():
            if name in names and watched.queues:
                before = watched.shown
                shown = self.remember(watched, self.parts(self.screen(name, audience)))
                change = changes(before, shown)
                if change is not None:
                    found.append((watched, sse(change), sse(watched.whole)))
        return found

    def remember(self, watched: Audience, shown: Shown) -> Shown:
        """What the audience's pages are sent now: the change from it is the next push."""
        watched.shown, watched.whole = shown, whole(shown.screen.steps, self.assembled(shown))
        return shown

    def command(
        self, name: str, line: str, words: list[str] | None = None, seen: int | None = None
    ) -> dict[str, Any]:
        """A GM's line (its `words`, when split off this thread), run as `fracas play` runs
        it, its file parameters confined to the GM's directory: its output, or its refusal.
        `seen`: the last step the page showed, whose turn a `next` ends and whose latest
        step an `undo` takes back (refused if another command got there first)."""
        from fracas.cli.main import App, cli
        from fracas.cli.shell import Session, Sight

        try:
            words = split_line(line) if words is None else words
        except BadInputError as error:
            return said(str(error))
        word = words[0] if words else ""
        if word in NOT_ON_THE_WEB:
            return said(f"`{word}` is not for the web page: {NOT_ON_THE_WEB[word]}")
        if self.console is None:
            console = confined(cli, self.files, log_files(self.db))
            assert isinstance(console, click.Group)
            self.console = console
        app = self.consoles.get(name)
        if app is None:
            app = self.consoles[name] = App(self.db, name)
        session = Session(app, self.console)
        if seen is not None and word == "undo" and (landed := self.landed_since(name, seen)):
            return {**said(f"the fight moved on: step {landed} landed"), "status": 409}
        if seen is not None:
            try:
                session.seen = Sight.of(session.live, seen)
            except FracasError as error:
                return said(str(error))
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            session.run(line, words)
        if session.last.startswith("refused: "):
            return said(session.last.removeprefix("refused: "))
        live = self.live(name)
        live.refresh()  # the step the fight stands at after it: whose output the page shows
        return {"ok": True, "output": out.getvalue(), "refusal": "", "step": live.history.head_step}

    def subscribe(self, name: str, audience: str, queue: asyncio.Queue[bytes]) -> bytes:
        """A page's queue joins its audience; the screen it opens with: the one the
        audience's other pages were last sent (the next push is a change from it), or, the
        first page, the screen as it stands."""
        watched = self.watched.setdefault((name, audience), Audience())
        # the head before the screen (a step between them is pushed, not missed), and the
        # queue joins last: a read the server cut off leaves no page half joined
        head = self.open().store.head(name).version
        if not watched.queues or watched.shown is None:  # nobody kept it fresh meanwhile
            self.remember(watched, self.parts(self.screen(name, audience)))
        self.heads.setdefault(name, head)
        watched.queues.add(queue)
        return sse(watched.whole)

    async def joined(self, name: str, audience: str, queue: asyncio.Queue[bytes]) -> bytes:
        """`subscribe`, tried again while the log server is unreachable (the one line the
        watcher says, said once): the page's stream stays open and opens with the screen as
        it stands once the server answers, with the steps that landed meanwhile."""
        pause = 0.05
        while True:
            try:
                first = await self.run(lambda: self.subscribe(name, audience, queue))
            except UnreachableError as error:
                self.lost(error.server)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 1.0)
                continue
            self.reached()
            return first

    def landed_since(self, name: str, seen: int) -> int | None:
        """The log's last step when it is past the one a GM page showed (`seen`); else None."""
        live = self.live(name)
        live.refresh()
        head = live.history.head_step
        return head if head > seen else None

    def undo_button(self, name: str) -> dict[str, Any]:
        """What the GM page's Undo would take back now: its step and its sentence."""
        live = self.live(name)
        live.refresh()
        try:
            step = live.history.undo_target()
        except FracasError:
            return {"step": None, "label": "Undo (nothing to take back)"}
        sentence = self.timeline(name, GM).moment(step).step.sentence
        return {"step": step, "label": f"Undo step {step}: {sentence}".rstrip(": ")}

    # -- the event loop ------------------------------------------------------------------

    async def watch(self) -> None:
        while True:
            try:
                names = await self.run(self.changed)
                self.reached()
                self.tell_followers()
                if names:
                    for watched, change, entire in await self.run(lambda n=names: self.messages(n)):
                        for queue in list(watched.queues):
                            offer(queue, change, entire)
            except UnreachableError as error:
                self.lost(error.server)
            except FracasError:
                pass  # the log is being created or migrated by another process: look again
            await asyncio.sleep(WATCH_EVERY)

    def lost(self, server: str) -> None:
        """One line when the log server stops answering (the watcher keeps asking)."""
        if not self.unreachable:
            warn(f"the log server at {server} is unreachable; retrying")
        self.unreachable = server

    def reached(self) -> None:
        if self.unreachable:
            warn(f"the log server at {self.unreachable} answers again")
            self.unreachable = ""

    async def stream(
        self,
        name: str,
        audience: str,
        queue: asyncio.Queue[bytes] | None = None,
        follows: bool = False,
    ) -> AsyncIterator[bytes]:
        """The audience's screen as it changes; an empty message queued ends it. `follows`:
        the page named no encounter, and is told when the file's current one is another."""
        queue = asyncio.Queue(maxsize=1) if queue is None else queue
        try:
            yield await self.joined(name, audience, queue)
            if follows:
                self.followers[queue] = name
            while True:
                try:
                    message = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    yield b": keepalive\n\n"
                    continue
                if not message:
                    return
                yield message
        finally:
            self.watched[(name, audience)].queues.discard(queue)
            self.followers.pop(queue, None)


def warn(line: str) -> None:
    click.echo(f"fracas serve: {line}", err=True)


def said(refusal: str) -> dict[str, Any]:
    """A GM's command refused: one line, nothing appended."""
    return {"ok": False, "output": "", "refusal": refusal}


def offer(queue: asyncio.Queue[bytes], change: bytes, entire: bytes) -> None:
    """A page is sent the change; one that fell behind (the last still unread) skips to the
    whole screen as it stands, since the change is from what it has not read yet."""
    if queue.full():
        queue.get_nowait()
        queue.put_nowait(entire)
    else:
        queue.put_nowait(change)


def whole(steps: int, html: str) -> str:
    """The whole screen as one message: its step count and its HTML."""
    return json.dumps({"steps": steps, "html": html})


def changes(before: Shown | None, after: Shown) -> str | None:
    """The message a page holding `before` needs to show `after`: the parts that differ
    (each part's HTML replaces the element of its data-part) and the lists whose keys
    differ (their elements put in that order, the new ones from the parts sent); None when
    nothing differs. A page with nothing yet is sent the whole screen."""
    if before is None:
        return None
    parts = {k: v for k, v in after.parts.items() if before.parts.get(k) != v}
    lists = {k: v for k, v in after.lists.items() if before.lists.get(k) != v}
    moved = (before.screen.steps, before.screen.step) != (after.screen.steps, after.screen.step)
    if not (parts or lists or moved):
        return None
    steps, step = after.screen.steps, after.screen.step
    return json.dumps({"steps": steps, "step": step, "parts": parts, "lists": lists})


def sse(data: str) -> bytes:
    return f"event: screen\ndata: {data}\n\n".encode()


# -- the web app -----------------------------------------------------------------------


def is_gm(table: Table, request: Request) -> bool:
    """The GM's token, by the header, the link (newer than any cookie: a restarted server's
    link wins over the cookie its predecessor set), or the cookie."""
    given = (
        request.headers.get(TOKEN_HEADER)
        or request.query_params.get("token")
        or request.cookies.get(COOKIE)
        or ""
    )
    return hmac.compare_digest(given.encode(), table.token.encode())


def build(table: Table) -> Starlette:
    """The routes: the players' under /, the GM's under /gm (token required)."""

    def audience_of(request: Request) -> str | None:
        gm = request.url.path.startswith("/gm")
        if gm and not is_gm(table, request):
            return None
        return GM if gm else PLAYERS

    async def guarded(request: Request, work: Callable[[str, str], Any]) -> Response:
        audience = audience_of(request)
        if audience is None:
            return refused(403, "the GM's pages need the token printed when the server started")
        named = request.path_params.get("encounter")
        named = None if named is None else encounter_name(named)
        try:
            pick = table.players_encounter if audience == PLAYERS else table.encounter
            name = await table.run(lambda: pick(named))
            return await work(name, audience)
        except FracasError as error:
            return refused_for(error)

    async def page(request: Request) -> Response:
        if request.url.path.startswith("/gm") and "token" in request.query_params:
            if not is_gm(table, request):
                return refused(403, "that GM token is not this server's")
            response = RedirectResponse(request.url.path, status_code=303)
            secure = request.url.scheme == "https"  # over TLS, never sent in the clear
            response.set_cookie(
                COOKIE, table.token, httponly=True, samesite="strict", secure=secure
            )
            return response

        async def show(name: str, audience: str) -> Response:
            def render() -> str:
                fracas = table.open()
                listed = [e["encounter"] for e in fracas.encounters()]
                if audience == PLAYERS:
                    listed = [e for e in listed if table.shown_to_players(e)]
                return table.templates.get_template("page.html").render(
                    screen=table.screen(name, audience),
                    screen_html=table.render_screen(name, audience),
                    encounters=listed,
                    token=table.token if audience == GM else "",
                    mode=table.phones.mode,
                    base=("/gm" if audience == GM else "") + f"/e/{name}",
                    follows="encounter" not in request.path_params,
                    monsters=table.bestiary(name) if audience == GM else [],
                    party=audience == GM and has_party(fracas) and name != PARTY,
                    invitees=table.invitees(name) if audience == GM else [],
                    given=table.given(name) if audience == GM else [],
                )

            return HTMLResponse(await table.run(render))

        return await guarded(request, show)

    async def screen(request: Request) -> Response:
        step = request.query_params.get("step")
        at = None if step is None else step_number(step, "?step=12")

        async def show(name: str, audience: str) -> Response:
            return HTMLResponse(await table.run(lambda: table.render_screen(name, audience, at)))

        return await guarded(request, show)

    async def detail(request: Request) -> Response:
        step = step_number(request.path_params["step"], "/step/12")

        async def show(name: str, audience: str) -> Response:
            return HTMLResponse(await table.run(lambda: table.render_detail(name, audience, step)))

        return await guarded(request, show)

    async def stream(request: Request) -> Response:
        follows = "follow" in request.query_params  # a page that named no encounter

        async def show(name: str, audience: str) -> Response:
            return StreamingResponse(
                table.stream(name, audience, follows=follows),
                media_type="text/event-stream",
                headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
            )

        return await guarded(request, show)

    async def command(request: Request) -> Response:
        given = request.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode(), table.token.encode()):
            return refused(
                403,
                "refused: a command needs the GM's token in the X-Fracas-Token "
                "header (the GM page sends it)",
            )
        given = console_line(request.headers.get("content-type", ""), await request.body())
        line = given.line
        try:  # split off the event loop and off the database thread every screen waits on
            words = await run_in_threadpool(split_line, line)
        except BadInputError as error:
            return JSONResponse(said(str(error)))

        async def act(name: str, _audience: str) -> Response:
            work = functools.partial(table.command, name, line, words, given.seen)
            result = await table.run(work)
            if result.pop("status", 200) == 409:
                return refused(409, result["refusal"])
            return JSONResponse(result)

        return await guarded(request, act)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in table.static:  # served from memory: no path from a URL reaches the disk
            return refused(404, f"no file {name!r} here")
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return Response(table.static[name], media_type=kind, headers={"Cache-Control": "no-cache"})

    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        watcher = asyncio.create_task(table.watch())
        revoked = asyncio.create_task(table.phones.watch_revoked())
        deadlines = asyncio.create_task(table.phones.watch_deadlines())
        yield
        for task in (watcher, revoked, deadlines):
            task.cancel()

    routes = [Route("/static/{name}", static)]
    for prefix in ("", "/gm"):
        routes += [
            Route(f"{prefix}/" if prefix else "/", page),
            Route(f"{prefix}/e/{{encounter}}", page),
            Route(f"{prefix}/e/{{encounter}}/screen", screen),
            Route(f"{prefix}/e/{{encounter}}/step/{{step}}", detail),
            Route(f"{prefix}/e/{{encounter}}/stream", stream),
        ]

    async def undo_button(request: Request) -> Response:
        async def show(name: str, _audience: str) -> Response:  # /gm: the GM's alone
            return JSONResponse(await table.run(lambda: table.undo_button(name)))

        return await guarded(request, show)

    routes.append(Route("/gm/e/{encounter}/command", command, methods=["POST"]))
    routes.append(Route("/gm/e/{encounter}/undo", undo_button))
    routes.append(Route("/gm", page))
    routes += phone_routes(table, lambda request: is_gm(table, request))

    async def one_line(_request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return refused(error.status_code, error.detail)

    return Starlette(
        routes=routes,
        middleware=[Middleware(BodyCap)],
        exception_handlers={HTTPException: one_line, ClientDisconnect: gone},
        lifespan=contextlib.asynccontextmanager(lifespan),
    )


# -- starting it -------------------------------------------------------------------------


def lan_address() -> str:
    """This machine's address on the table's network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def check_tls(certfile: Path | None, keyfile: Path | None) -> None:
    """Both or neither, and a pair that loads, refused in one line before listening."""
    import ssl

    if (certfile is None) != (keyfile is None):
        raise click.UsageError("--certfile and --keyfile go together: give both, or neither")
    if certfile is None or keyfile is None:
        return
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError) as error:
        raise click.ClickException(
            f"cannot serve TLS with {certfile.name} and {keyfile.name} "
            f"({getattr(error, 'reason', None) or error.strerror}); "
            "give a PEM certificate and its key"
        ) from None


def gm_token(store: LogStore) -> str:
    """The GM's token of this log, drawn at its first serve and kept with its sealed
    secrets (the GM's key file beside it, or its keys schema on a server), never in the
    log: the GM's bookmarked link and cookie keep working after a restart, as the
    players' links do."""
    found = store.unseal(GM_TOKEN)
    if found is None:
        store.seal(GM_TOKEN, secrets.token_urlsafe(18))  # two first serves: the first sealed wins
        found = store.unseal(GM_TOKEN)
    assert found is not None
    return found


def serve(
    db: str,
    host: str,
    port: int,
    *,
    npc_numbers: bool = False,
    files: Path | None = None,
    encounter: str | None = None,
    player_steps: str = NOW,
    reaction_wait: float | None = None,
    certfile: Path | None = None,
    keyfile: Path | None = None,
) -> None:
    import uvicorn

    if is_server(db):  # the reader and every console borrow from one pool of connections
        from fracas.ledger.postgres import use_pool

        use_pool(db)
    table = Table(db, "", npc_numbers=npc_numbers, files=files)
    table.token = table.worker.submit(lambda: gm_token(table.phones.writer().store)).result()
    table.default = encounter
    first = table.worker.submit(lambda: table.encounter(None)).result()
    where = table.worker.submit(lambda: table.open().store.path).result()
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port} ({error.strerror}); pick another --port"
        ) from None
    listener.listen(128)  # from here a page opened early waits in the queue, not refused
    bound = listener.getsockname()[1]
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    scheme = "https" if certfile else "http"
    table.phones.mode = player_steps
    table.phones.wait = reaction_wait
    table.phones.public = f"{scheme}://{shown}:{bound}"
    click.echo(f"fracas serve: {where}, encounter {first}")
    click.echo(f"  players: {scheme}://{shown}:{bound}/")
    click.echo(
        f"  GM:      {scheme}://{shown}:{bound}/gm?token={table.token}  (keep it to yourself)"
    )
    click.echo(f"  players' steps: {player_steps} (phones: `fracas invite ID`)")
    click.echo(f"  console files: {files or 'none (--files DIR lets the GM page use DIR)'}")
    if host in ("127.0.0.1", "localhost", "::1"):
        click.echo("  only this machine can open it; --host 0.0.0.0 shares it on your network")
    click.echo("Ctrl-C stops the server.", nl=True)
    tls = {"ssl_certfile": str(certfile), "ssl_keyfile": str(keyfile)} if certfile else {}
    config = uvicorn.Config(
        build(table), log_level="warning", timeout_graceful_shutdown=1, lifespan="on", **tls
    )
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down cleanly and hands Ctrl-C back
    finally:
        table.close()
        if is_server(db):
            from fracas.ledger.postgres import close_pools

            close_pools()
    click.echo("fracas serve: stopped")
