"""What `fracas serve` accepts from a request, checked where it is read: a body no larger
than a console line needs (refused from its Content-Length, before it is read), a command
body decoded by msgspec into one typed, bounded line, step numbers in ASCII digits of a
sane length, encounter names that are text. Every refusal is a 4xx with one line."""

import re
from typing import Annotated, Any

import msgspec
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fracas.ledger import FracasError, NotFoundError, UnreachableError
from fracas.projections.phones import Forbidden, Moved

MAX_LINE = 4000  # characters in one console line: any command, a long note
MAX_BODY = 32 * 1024  # bytes: the longest line even if every character is a \\uXXXX escape
MAX_NAME = 200
STEP = re.compile(r"[0-9]{1,9}")  # [0-9], not \d: int() reads "²" and "٣" too
ONE_LINE = r"^[^\x00-\x08\x0a-\x1f\x7f]*\Z"  # no control characters but the tab
NOT_UTF8 = "a command is UTF-8 JSON; that body is not UTF-8"


class ConsoleLine(msgspec.Struct, forbid_unknown_fields=True):
    line: Annotated[str, msgspec.Meta(max_length=MAX_LINE, pattern=ONE_LINE)]
    # the last step the page showed: its `next` and `undo` are for that turn and that step
    seen: Annotated[int, msgspec.Meta(ge=0, le=2**62)] | None = None


LINES = msgspec.json.Decoder(ConsoleLine)


def json_of(decoder: msgspec.json.Decoder, body: bytes) -> Any:
    """A command's body decoded, or a 400 if it is not UTF-8. Checked first: msgspec 0.22
    raises UnicodeDecodeError for such bytes inside a string, 0.23 a DecodeError of its own."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(400, NOT_UTF8) from None
    return decoder.decode(body)


def console_line(content_type: str, body: bytes) -> ConsoleLine:
    """The GM's line from a command's body, or a 415/400 saying what a command looks like."""
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise HTTPException(415, 'a command is sent as application/json: {"line": "undo"}')
    try:
        given = json_of(LINES, body)
        return ConsoleLine(given.line.strip(), given.seen)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise HTTPException(400, why(error)) from None


def why(error: msgspec.MsgspecError) -> str:
    text = str(error)
    if isinstance(error, msgspec.ValidationError) and "length" in text:
        return f"that console line is longer than {MAX_LINE} characters; send a shorter one"
    if isinstance(error, msgspec.ValidationError) and "regex" in text:
        return "a console line holds no control characters (a newline, a NUL); send one line"
    return f'a command is a JSON body like {{"line": "undo"}} ({text})'


def step_number(text: str, where: str) -> int:
    """A step number as a page asks for it; anything else is a 400 with an example."""
    if not STEP.fullmatch(text):
        raise HTTPException(400, f"step must be a step number, like {where}")
    return int(text)


def encounter_name(name: str) -> str:
    """An encounter named in a URL: text no longer than a name, else no such encounter."""
    if len(name) > MAX_NAME or not name.isprintable():
        raise HTTPException(404, "no such encounter in this log; the players' page lists them")
    return name


class TooLarge(Exception):
    pass


class BodyCap:
    """Refuses a request body over `limit` bytes with a 413: at once when its Content-Length
    says so (nothing of it read), else as soon as the bytes received pass the limit."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await self.refuse(send)
            return
        received, started = 0, False

        async def capped() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                raise TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, capped, watched)
        except TooLarge:
            if not started:
                await self.refuse(send)

    async def refuse(self, send: Send) -> None:
        line = f"that request body is too large: at most {self.limit} bytes here\n"
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(line)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": line.encode()})


# A refusal's kind, as HTTP: checked in order, the first that fits; any other is a 400.
STATUS_OF: tuple[tuple[type[FracasError], int], ...] = (
    (Forbidden, 403),
    (Moved, 409),
    (NotFoundError, 404),
    (UnreachableError, 503),
)


async def gone(_request: Request, _error: Exception) -> Response:
    """A client that left before its body arrived: nobody reads the answer, and it is no
    fault of the server's (no traceback in its log); nothing was done."""
    return refused(400, "the client left before its request arrived whole; nothing was done")


def refused(status: int, line: str) -> Response:
    return PlainTextResponse(line + "\n", status_code=status)


def refused_for(error: FracasError, player: bool = False) -> Response:
    """fracas's refusal as one line with the status that says what kind it is; `player`:
    in a player's words where it has them (a phone's: no command to type)."""
    status = next((code for kind, code in STATUS_OF if isinstance(error, kind)), 400)
    return refused(status, (player and error.player) or str(error))
