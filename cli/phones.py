"""`fracas serve`'s players' phones: a page per invitation link (/p/TOKEN), the steps a
player's token may take, the GM's invite, revoke and nod, a rate limit per token.

A token opens its page by the link; every step it takes carries it again in the
X-Fracas-Token header (a page of another site can neither read the token nor set that
header, so a forged form is refused). The token is looked up on every request, so a revoked
link stops at its next request, and its open live stream is closed within half a second.
"""

import asyncio
import hashlib
import hmac
import io
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from fracas.cli.guards import json_of, refused, refused_for, step_number
from fracas.ledger import FracasError, NotFoundError
from fracas.ledger.invites import Invite, digest, holder, invite, invites, linked, revoke
from fracas.projections import Fracas
from fracas.projections.asking import may_wait, pending
from fracas.projections.phones import (
    Moved,
    act,
    gm_chances,
    mark,
    may_act,
    may_answer,
    on_screen,
    own_dice,
    panel,
    player_command,
    same_fight,
    take_back,
    waits_on_secret,
)
from fracas.projections.screen import PLAYERS
from fracas.rules.reactions import ANSWER, TIMEOUT, moment, now

if TYPE_CHECKING:
    from fracas.cli.serve import Table

TOKEN_HEADER = "x-fracas-token"
NOW, NOD = "now", "nod"
CLOCK = "clock"  # the author of the server's own timeout at an attack's deadline
RATE = 20.0  # requests a second a token may keep up
BURST = 40.0  # requests a token may make at once
KEPT_BUCKETS = 4096
REVOKED_EVERY = 0.5  # seconds between two looks for revoked links with streams open
ENDED = "The GM has ended this link: ask the GM for a new one."
UNKNOWN_LINK = "This link does not open a player's page: check it, or ask the GM for a new one."
GONE = f"event: gone\ndata: {ENDED}\n\n".encode()  # a revoked link's stream's last message
COMMAND_ID = r"^[A-Za-z0-9_-]{8,64}\Z"  # \Z: `$` passes a final newline
# A field's name as the rulesets spell them (`within_5ft`); its value is checked by the
# ruleset's own types, and whether it is the player's by the ruleset (`Ruleset.players`).
FIELD = Annotated[str, msgspec.Meta(max_length=64, pattern=r"^[a-z][a-z0-9_]{0,63}\Z")]
NAME = Annotated[str, msgspec.Meta(max_length=200)]
NAMED = Annotated[list[NAME | int], msgspec.Meta(max_length=16)]  # names, or numbers
COUNTS = Annotated[dict[FIELD, int], msgspec.Meta(max_length=16)]  # pool's {"dodge": 1}


class Tap(msgspec.Struct, forbid_unknown_fields=True):
    """A player's step as the phone sends it."""

    seen: int  # the mark of the log the page stood after (its data-seen)
    command_id: Annotated[str, msgspec.Meta(pattern=COMMAND_ID)]
    action: Annotated[str, msgspec.Meta(max_length=64)] = ""
    targets: Annotated[list[NAME], msgspec.Meta(max_length=16)] = []
    # a value: text, a number, true/false, names (srd's move: whose reach it leaves) or
    # numbers (pool's shares, one a target), or how many of each (pool's keep)
    fields: Annotated[
        dict[FIELD, str | int | bool | NAMED | COUNTS], msgspec.Meta(max_length=16)
    ] = {}
    dice: Annotated[list[int], msgspec.Meta(max_length=64)] | None = None


class Draft(msgspec.Struct, forbid_unknown_fields=True):
    """A step as the phone's form stands, before it is sent: what its dice box asks for."""

    action: Annotated[str, msgspec.Meta(max_length=64)] = ""
    targets: Annotated[list[NAME], msgspec.Meta(max_length=16)] = []
    fields: Annotated[
        dict[FIELD, str | int | bool | NAMED | COUNTS], msgspec.Meta(max_length=16)
    ] = {}


class Named(msgspec.Struct, forbid_unknown_fields=True):
    combatant: Annotated[str, msgspec.Meta(max_length=200)]


TAPS = msgspec.json.Decoder(Tap)
DRAFTS = msgspec.json.Decoder(Draft)
NAMES = msgspec.json.Decoder(Named)


def decoded(decoder: msgspec.json.Decoder, content_type: str, body: bytes) -> Any:
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise HTTPException(415, "a step is sent as application/json (the page sends it)")
    try:
        return json_of(decoder, body)
    except msgspec.ValidationError as error:
        raise HTTPException(400, misfit(error, decoder, body)) from None
    except msgspec.DecodeError as error:
        raise HTTPException(400, f"that step is not one the page sends ({error})") from None


# msgspec's type names in a player's words, in the order a list of them reads best
KINDS = {
    "int": "a whole number",
    "bool": "true/false",
    "str": "text",
    "object": "a JSON object",
    "array": "a list",
    "float": "a decimal number",
    "null": "null",
}
EXPECTED = re.compile(r"Expected `(?P<kinds>[^`]+)`(?:, got `(?P<got>[^`]+)`)?(?P<rest>.*)")
WHERE = re.compile(r"(?P<said>.*) - at (?:`key` in )?`\$\.?(?P<path>[^`]*)`")


def misfit(error: msgspec.ValidationError, decoder: msgspec.json.Decoder, body: bytes) -> str:
    """msgspec's complaint in the words of the page's fields, in one line: the field that
    was wrong and what it must be (msgspec names types and JSON paths)."""
    found = WHERE.fullmatch(str(error))
    said, path = (found["said"], found["path"]) if found else (str(error), "")
    if not path:
        return whole_body(said, decoder)
    if path.endswith("[...]"):  # a dict's value: msgspec does not say which key
        path = f"{path[:-5]}.{odd_value(body, path[:-5])}"
    if " in `$" in str(error):
        return f"a name in {path} must be lowercase letters, digits and _"
    expected = EXPECTED.fullmatch(said)
    if expected is None:
        return f"{path} is not as the page sends it"
    if "length <=" in expected["rest"]:
        return f"{path} is too long (at most {expected['rest'].split('<=')[-1].strip()})"
    if "regex" in expected["rest"]:
        return f"{path} is not as the page sends it"
    return f"{path} must be {kinds(expected['kinds'])}"


def whole_body(said: str, decoder: msgspec.json.Decoder) -> str:
    fields = decoder.type.__struct_fields__
    listed = f"{', '.join(fields[:-1])} and {fields[-1]}" if len(fields) > 1 else fields[0]
    if said.startswith("Object contains unknown field"):
        return f"{said.split('`')[1]} is not one the page sends; the body holds {listed}"
    if said.startswith("Object missing required field"):
        return f"the body lacks {said.split('`')[1]}; the body holds {listed}"
    return f"the body must be a JSON object with {listed}"


def kinds(union: str) -> str:
    named = [KINDS[k] for k in KINDS if k in union.split(" | ")] or [union]
    return " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


def odd_value(body: bytes, path: str) -> str:
    """The first key under `path` whose value is not text, a whole number, true/false or a
    list of names."""
    values = msgspec.json.decode(body).get(path, {})
    named = lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v)  # noqa: E731
    odd = (k for k, v in values.items() if not (isinstance(v, str | int | bool) or named(v)))
    return next(odd, "?")


def named(value: Any) -> bool:
    """Whether a field's value is a list of names (whose reach a move leaves)."""
    return isinstance(value, list) and all(isinstance(n, str) for n in value)


class Bucket:
    """A token bucket: `BURST` requests at once, then `RATE` a second."""

    def __init__(self) -> None:
        self.tokens, self.at = BURST, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass
class Pending:
    """A player's step waiting for the GM's nod: not in the log until approved."""

    id: str
    encounter: str
    combatant: str
    tap: Tap
    at: float = field(default_factory=time.time)

    def words(self) -> str:
        parts = [self.combatant, self.tap.action or "next", *self.tap.targets]
        parts += [f"{k}={v}" for k, v in self.tap.fields.items()]
        if self.tap.dice:
            parts.append("dice " + ",".join(map(str, self.tap.dice)))
        return " ".join(parts)


class Phones:
    """What the server keeps about the players' phones: rate buckets, open streams by
    token digest, steps waiting for the GM's nod, and the writer that records invitations."""

    def __init__(
        self, table: "Table", mode: str = NOW, public: str = "", wait: float | None = None
    ) -> None:
        self.table, self.mode, self.public = table, mode, public
        self.wait = wait  # seconds a player has to answer an attack; None: no deadline
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()
        self.streams: dict[str, set[asyncio.Queue[bytes]]] = {}
        self.pending: dict[str, Pending] = {}
        self.panels: dict[tuple[str, str], tuple[tuple[Any, ...], str]] = {}  # the last render
        self._writer: Fracas | None = None

    # -- the database thread ---------------------------------------------------------------

    def writer(self) -> Fracas:
        if self._writer is None:
            self._writer = Fracas(self.table.db, create=False)
        return self._writer

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    def holder(self, token: str) -> Invite | None:
        return holder(self.table.open().store, token)

    def was_revoked(self, token: str) -> bool:
        from fracas.ledger.invites import was_revoked

        return was_revoked(self.table.open().store, token)

    def invite(self, name: str, combatant: str) -> dict[str, Any]:
        known = [w.combatant for w in self.table.open().encounter(name).view().wounds]
        from fracas.ledger.invites import check_known

        check_known(combatant, known)
        token = invite(self.writer().store, name, combatant)
        link = f"{self.public}/p/{token}"
        named = self.table.name_of(name, combatant)
        return {"combatant": combatant, "name": named, "link": link, "svg": qr_svg(link)}

    def revoke(self, name: str, combatant: str) -> dict[str, Any]:
        count = revoke(self.writer().store, name, combatant)
        named = self.table.name_of(name, combatant)
        return {"combatant": combatant, "name": named, "revoked": count}

    def step(self, held: Invite, tap: Tap) -> dict[str, Any]:
        name, combatant = held.encounter, held.combatant
        timeline = self.table.timeline(name, PLAYERS)
        live = self.table.live(name)
        if tap.action == "undo":
            take_back(live, timeline, combatant, seen=tap.seen)
            return {"ok": True, "pending": False}
        data = {"action": tap.action or "next", **tap.fields}
        if tap.targets:
            data["targets"] = tap.targets
        if self.mode == NOD:
            same_fight(timeline, live, tap.seen)
            if tap.action == ANSWER:
                may_answer(live, combatant, tap.dice)
            else:
                player_command(live, combatant, data)
                on_screen(timeline, live, combatant, data)
                may_act(live, timeline, combatant, str(data["action"]))
            for old in self.waiting(name):  # one step waits per player: the last replaces it
                if old.combatant == combatant:
                    del self.pending[old.id]
            waiting = Pending(uuid.uuid4().hex[:12], name, combatant, tap)
            self.pending[waiting.id] = waiting
            return {"ok": True, "pending": True}
        act(
            live,
            timeline,
            combatant,
            data,
            seen=tap.seen,
            dice=tap.dice,
            command_id=tap.command_id,
            linked=linked(self.table.open().store, name),
            wait=self.wait,
        )
        return {"ok": True, "pending": False}

    def dice(self, held: Invite, draft: Draft) -> dict[str, Any]:
        """The rolls of the character's that the step as the form stands would take."""
        name, combatant = held.encounter, held.combatant
        data = {"action": draft.action or "next", **draft.fields}
        if draft.targets:
            data["targets"] = draft.targets
        timeline = self.table.timeline(name, PLAYERS)
        return own_dice(self.table.live(name), timeline, combatant, data)

    def nod(self, name: str, pending_id: str, approve: bool) -> dict[str, Any]:
        waiting = self.pending.get(pending_id)
        if waiting is None or waiting.encounter != name:
            raise NotFoundError("no such step waits for your nod (answered already?)")
        del self.pending[pending_id]
        if not approve:
            return {"ok": True, "refused": waiting.words()}
        tap = waiting.tap
        data = {"action": tap.action or "next", **tap.fields}
        if tap.targets:
            data["targets"] = tap.targets
        timeline = self.table.timeline(name, PLAYERS)
        live = self.table.live(name)
        if tap.seen != mark(timeline):
            raise Moved(
                f"the fight moved on since {waiting.combatant} asked for that step; "
                "it is dropped, and their phone may ask again"
            )
        act(
            live,
            timeline,
            waiting.combatant,
            data,
            seen=tap.seen,  # the fight as the player saw it, which is the fight as it stands
            dice=tap.dice,
            command_id=tap.command_id,
            linked=linked(self.table.open().store, name),
            wait=self.wait,
        )
        return {"ok": True, "approved": waiting.words()}

    def waiting(self, name: str) -> list[Pending]:
        return [p for p in self.pending.values() if p.encounter == name]

    def time_out(self) -> None:
        """Past an attack's deadline, the rules' default for whoever has not answered, as the
        server's own step (author `clock`: nobody typed it). Only encounters with pages open
        that ever asked are looked at."""
        store = self.table.open().store
        for name in {name for name, _ in self.table.watched}:
            if not may_wait(store, name):
                continue
            live = self.table.live(name)
            asked = live.waiting()
            if asked is None or not asked.deadline:
                continue
            if moment(asked.deadline, "deadline") > moment(now(), "now"):
                continue
            try:
                command = live.ruleset.command({"action": TIMEOUT, "at": now()})
                live.execute(command, author=CLOCK, entered_by=CLOCK)
            except FracasError as error:  # answered meanwhile, or the GM withdrew it
                warn(f"a reaction's deadline passed; its timeout was refused: {error}")

    # -- the event loop --------------------------------------------------------------------

    async def watch_deadlines(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            try:
                await self.table.run(self.time_out)
            except FracasError:
                continue

    def allowed(self, token: str) -> bool:
        key = hashlib.sha256(token.encode()).hexdigest()
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket()
            if len(self.buckets) > KEPT_BUCKETS:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take()

    async def watch_revoked(self) -> None:
        """Close the live streams of links revoked since (from any process)."""
        from fracas.ledger.invites import alive

        while True:
            await asyncio.sleep(REVOKED_EVERY)
            open_ = [d for d, queues in self.streams.items() if queues]
            if not open_:
                continue
            try:
                live = await self.table.run(lambda o=open_: alive(self.table.open().store, o))
            except FracasError:
                continue
            for gone in set(open_) - live:
                for queue in list(self.streams.get(gone, ())):
                    end(queue)

    async def stream(self, held: Invite, token: str) -> AsyncIterator[bytes]:
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1)
        key = digest(token)
        self.streams.setdefault(key, set()).add(queue)
        try:
            async for message in self.table.stream(held.encounter, PLAYERS, queue):
                yield message
                if message == GONE:
                    return
        finally:
            self.streams[key].discard(queue)


def warn(line: str) -> None:
    from fracas.cli.serve import warn as say

    say(line)


def end(queue: asyncio.Queue[bytes]) -> None:
    """The revoked link's stream says so (its page stops at once, no retry) and ends."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(GONE)


def qr_svg(link: str) -> str:
    import segno

    return str(segno.make(link, error="m").svg_inline(scale=4, border=2))


def qr_terminal(link: str) -> str:
    import segno

    out = io.StringIO()
    segno.make(link, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def routes(table: "Table", is_gm: Callable[[Request], bool]) -> list[Route]:
    """The players' phones' routes, and the GM's invite, revoke and nod."""
    phones: Phones = table.phones

    async def with_token(
        request: Request, work: Callable[[Invite, str], Awaitable[Response]]
    ) -> Response:
        token = request.path_params["token"]
        if not phones.allowed(token):
            return refused(429, "too many requests from this link; wait a second and tap again")
        try:
            held = await table.run(lambda: phones.holder(token))
            if held is None:
                revoked = await table.run(lambda: phones.was_revoked(token))
                return refused(403, ENDED if revoked else UNKNOWN_LINK)
            return await work(held, token)
        except FracasError as error:
            return refused_for(error, player=True)

    def headed(request: Request, token: str) -> bool:
        given = request.headers.get(TOKEN_HEADER, "")
        return hmac.compare_digest(given.encode(), token.encode())

    def render_page(held: Invite, token: str) -> str:
        name = held.encounter
        return table.templates.get_template("phone.html").render(
            screen=table.screen(name, PLAYERS),
            screen_html=table.render_screen(name, PLAYERS),
            panel_html=render_panel(held),
            token=token,
            base=f"/p/{token}",
        )

    def render_panel(held: Invite) -> str:
        """The character's panel, rendered once per head of the log (and steps waiting
        for the GM's nod): eight phones refetching it after a step cost one render each."""
        name, combatant = held.encounter, held.combatant
        timeline, live = table.timeline(name, PLAYERS), table.live(name)
        waits = [p for p in phones.waiting(name) if p.combatant == combatant]
        key = (timeline.version, live.version, phones.mode, *(p.id for p in waits))
        kept = phones.panels.get((name, combatant))
        if kept is not None and kept[0] == key:
            return kept[1]
        html = table.templates.get_template("panel.html").render(
            panel=panel(timeline, live, combatant), waiting=waits, mode=phones.mode
        )
        phones.panels[(name, combatant)] = (key, html)
        return html

    async def page(request: Request) -> Response:
        async def show(held: Invite, token: str) -> Response:
            html = await table.run(lambda: render_page(held, token))
            return HTMLResponse(html, headers=PRIVATE)

        return await with_token(request, show)

    async def panel_route(request: Request) -> Response:
        async def show(held: Invite, _token: str) -> Response:
            return HTMLResponse(await table.run(lambda: render_panel(held)), headers=PRIVATE)

        return await with_token(request, show)

    async def screen(request: Request) -> Response:
        step = request.query_params.get("step")
        at = None if step is None else step_number(step, "?step=12")

        async def show(held: Invite, _token: str) -> Response:
            html = await table.run(lambda: table.render_screen(held.encounter, PLAYERS, at))
            return HTMLResponse(html, headers=PRIVATE)

        return await with_token(request, show)

    async def detail(request: Request) -> Response:
        step = step_number(request.path_params["step"], "/step/12")

        async def show(held: Invite, _token: str) -> Response:
            return HTMLResponse(
                await table.run(lambda: table.render_detail(held.encounter, PLAYERS, step)),
                headers=PRIVATE,
            )

        return await with_token(request, show)

    async def stream(request: Request) -> Response:
        async def show(held: Invite, token: str) -> Response:
            return StreamingResponse(
                phones.stream(held, token),
                media_type="text/event-stream",
                headers={**PRIVATE, "X-Accel-Buffering": "no"},
            )

        return await with_token(request, show)

    async def step(request: Request) -> Response:
        async def take(held: Invite, token: str) -> Response:
            if not request.headers.get(TOKEN_HEADER):
                return refused(
                    403,
                    "a player's step carries the link's token in the X-Fracas-Token header "
                    "(the page sends it)",
                )
            if not headed(request, token):
                return refused(403, "the X-Fracas-Token header does not match this link's token")
            tap = decoded(TAPS, request.headers.get("content-type", ""), await request.body())
            return JSONResponse(await table.run(lambda: phones.step(held, tap)), headers=PRIVATE)

        return await with_token(request, take)

    async def dice(request: Request) -> Response:
        async def said(held: Invite, token: str) -> Response:
            if not headed(request, token):
                return refused(403, "the X-Fracas-Token header does not match this link's token")
            body = await request.body()
            draft = decoded(DRAFTS, request.headers.get("content-type", ""), body)
            return JSONResponse(await table.run(lambda: phones.dice(held, draft)), headers=PRIVATE)

        return await with_token(request, said)

    async def gm(request: Request, work: Callable[[str], Any], *, post: bool = True) -> Response:
        if not (is_gm(request) and (not post or request.headers.get(TOKEN_HEADER))):
            return refused(
                403, "the GM's own requests carry the GM's token in the X-Fracas-Token header"
            )
        try:
            named = request.path_params["encounter"]
            name = await table.run(lambda: table.encounter(named))
            return await work(name)
        except FracasError as error:
            return refused_for(error)

    async def gm_invite(request: Request) -> Response:
        async def work(name: str) -> Response:
            asked = decoded(NAMES, request.headers.get("content-type", ""), await request.body())
            return JSONResponse(
                await table.run(lambda: phones.invite(name, asked.combatant)), headers=PRIVATE
            )

        return await gm(request, work)

    async def gm_revoke(request: Request) -> Response:
        async def work(name: str) -> Response:
            asked = decoded(NAMES, request.headers.get("content-type", ""), await request.body())
            return JSONResponse(await table.run(lambda: phones.revoke(name, asked.combatant)))

        return await gm(request, work)

    async def gm_links(request: Request) -> Response:
        async def work(name: str) -> Response:
            def render() -> str:
                live = [g.combatant for g in invites(table.open().store, name) if not g.revoked]
                secret = waits_on_secret(table.timeline(name, PLAYERS))
                return table.templates.get_template("links.html").render(
                    given=table.given(name),
                    waiting=phones.waiting(name),
                    mode=phones.mode,
                    secret=secret,
                    rows=table.invitees(name),
                    question=pending(table.live(name), players=False),
                    chances=gm_chances(table.live(name), live, live),
                )

            return HTMLResponse(await table.run(render), headers=PRIVATE)

        return await gm(request, work, post=False)

    async def gm_nod(request: Request) -> Response:
        verdict = request.path_params["verdict"]
        if verdict not in ("approve", "refuse"):
            return refused(404, "a waiting step is answered by approve or refuse")

        async def work(name: str) -> Response:
            pending_id = request.path_params["pending"]
            return JSONResponse(
                await table.run(lambda: phones.nod(name, pending_id, verdict == "approve"))
            )

        return await gm(request, work)

    return [
        Route("/p/{token}", page),
        Route("/p/{token}/panel", panel_route),
        Route("/p/{token}/screen", screen),
        Route("/p/{token}/step/{step}", detail),
        Route("/p/{token}/stream", stream),
        Route("/p/{token}/act", step, methods=["POST"]),
        Route("/p/{token}/dice", dice, methods=["POST"]),
        Route("/gm/e/{encounter}/invite", gm_invite, methods=["POST"]),
        Route("/gm/e/{encounter}/revoke", gm_revoke, methods=["POST"]),
        Route("/gm/e/{encounter}/links", gm_links),
        Route("/gm/e/{encounter}/pending/{pending}/{verdict}", gm_nod, methods=["POST"]),
    ]


# The link is the key: no page of it is cached, and no other site learns it from a Referer.
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
