"""The web screen under an HTTP fuzz: every route of a real `fracas serve` process (started
with `--files DIR`) gets bad JSON, deep JSON, huge and non-ASCII numbers, large and chunked
bodies, wrong methods and content types, bad tokens, and console lines with path tricks.

Counted: HTTP 5xx answers (must be 0), refusals that are not one line, tracebacks in the
server's output, steps appended on a refusal, and files the console wrote outside DIR.
"""

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from bench.reliability.trials import Figures, gunfight
from fracas.ledger import Store
from tests.web import Served, served

DEEP = 20_000
TRACEBACK = "Traceback (most recent call last)"
NUMBERS = [
    "²",
    "٣",
    "１２",
    "9" * 30,
    "9" * 5000,
    "-1",
    "1e9",
    "0x10",
    "1.5",
    "",
    " 3",
    "3 ",
    "%00",
    "nan",
    "∞",
    "0" * 40 + "1",
]
NAMES = ["gunfight", "nope", "%00", "..", "%2e%2e", "a" * 300, "é", "%ff", "%0a", "%20"]
TOKENS = ["", "wrong", "é" * 3, "x" * 5000, "%00"]
ROUTES = [
    "/",
    "/gm",
    "/e/gunfight",
    "/e/gunfight/screen",
    "/e/gunfight/step/2",
    "/e/gunfight/stream",
]
ROUTES += ["/static/table.js", "/gm/e/gunfight", "/gm/e/gunfight/stream"]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
TYPES = ["application/json", "text/plain", "application/x-www-form-urlencoded", "", "json"]
TRICKS = [
    "export -o ../out.md",
    "export -o /tmp/fracas-fuzz-out.md",
    "export -o {outside}/out.md",
    "copy fuzz.db {outside}/copy.db",
    "copy {outside}/files/fuzz.db copy.db",
    "export -o escape/out.md",
    "export -o files/../../out.md",
    "export --format md -o .",
    "export --format md --template ../secret.txt",
    "export --format md --template /etc/passwd",
    "export --format md --template inside.md",
    "export -o fuzz.db",
    "export -o fuzz.db-wal",
    "export -o fuzz.db.keys",
    "copy fuzz.db ../copy.db",
    "copy ../fuzz.db copy.db",
    "copy escape/fuzz.db copy.db",
    "copy x.db postgresql://localhost/x",
    "copy x.db file:///tmp/x.db",
    "add z --sheet ../secret.txt",
    "add z --sheet /etc/passwd",
    "add z --sheet escape/secret.txt",
    "audit --against ../secret.txt",
    "import ../secret.txt",
    "new",
    "demo",
    "serve",
    "note 'unclosed",
    "harm nobody 2",
    "act alice attack nobody",
    "undo --by",
    "\u00e9\u00e9\u00e9",
]


def http_fuzz(workdir: Path, requests: int, seed: int = 11) -> Figures:
    """`requests` hostile requests against one server; a promise holds when every count
    but "requests" and "refused" is 0."""
    figures = Figures("web screen under an HTTP fuzz")
    db = workdir / "files" / "fuzz.db"
    db.parent.mkdir()
    gunfight(db)
    (workdir / "secret.txt").write_text("dex = 99\n")
    (db.parent / "inside.md").write_text("{{ cycler.__init__.__globals__.os.getcwd() }}\n")
    (db.parent / "escape").symlink_to(workdir)
    inside = set(db.parent.iterdir())
    outside = set(workdir.iterdir())
    rng = random.Random(seed)
    with served(db, "--files", str(db.parent)) as server:
        head = steps(db)
        with httpx.Client(base_url=server.root, timeout=30) as client:
            for _ in range(requests):
                case = rng.choice(CASES)(rng, server)
                trick = case.pop("trick", False)
                status, text, ok = send(client, case)
                figures.add("console tricks carried out", int(trick and ok is not False))
                figures.trials += 1
                figures.add("requests")
                figures.add("HTTP 5xx", int(status >= 500))
                refused = 400 <= status < 500 or ok is False
                figures.add("refused", int(refused))
                figures.add("refusals not one line", int(refused and not one_line(text)))
                now = steps(db)
                figures.add("appended on refusal", int(refused and now != head))
                head = now
        server.process.terminate()
        output, _ = server.process.communicate(timeout=10)
    figures.add("tracebacks in the server's output", output.count(TRACEBACK))
    written = set(db.parent.iterdir()) - inside - {db.with_name(f"{db.name}-shm")}
    figures.add("files written in DIR", len(written - {db.with_name(f"{db.name}-wal")}))
    figures.add("files written outside DIR", len(set(workdir.iterdir()) - outside))
    figures.add("files written in /tmp", int(Path("/tmp/fracas-fuzz-out.md").exists()))
    return figures


def steps(db: Path) -> tuple[int, int]:
    store = Store(db, readonly=True)
    try:
        return store.head("gunfight")
    finally:
        store.close()


def one_line(text: str) -> bool:
    return bool(text.strip()) and "\n" not in text.strip()


def send(client: httpx.Client, case: dict[str, Any]) -> tuple[int, str, bool | None]:
    """(status, the refusal's text, the console's ok) of one request; a stream is read no
    further than its first event."""
    method, url = case.pop("method"), case.pop("url")
    with client.stream(method, url, **case) as response:
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            return response.status_code, "", None
        text = response.read().decode("utf-8", "replace") if method != "HEAD" else "x"
    if response.headers.get("content-type", "").startswith("application/json"):
        answer = json.loads(text)
        return response.status_code, answer["refusal"], answer["ok"]
    return response.status_code, text, None


# -- the cases -------------------------------------------------------------------------


def command(server: Served, encounter: str = "gunfight") -> str:
    return f"/gm/e/{encounter}/command"


def token(server: Served) -> dict[str, str]:
    return {"X-Fracas-Token": server.token, "Content-Type": "application/json"}


def bad_json(rng: random.Random, server: Served) -> dict[str, Any]:
    body = rng.choice(
        [
            b"{",
            b'{"line": }',
            b'{"line": "undo"',
            b"\xff\xfe\x00",
            b"",
            b"null",
            b'"undo"',
            b'{"line": "undo", "line": 1}',
            b'{"line": "note a", "extra": 1}',
            b"NaN",
            b'{"line": "\\ud800"}',
        ]
    )
    return {"method": "POST", "url": command(server), "content": body, "headers": token(server)}


def deep_json(rng: random.Random, server: Served) -> dict[str, Any]:
    depth = rng.choice([100, 1000, DEEP])
    body = rng.choice(
        [
            '{"line": ' * depth + '"undo"' + "}" * depth,
            "[" * depth + "]" * depth,
            '{"line": ' + "[" * depth + "]" * depth + "}",
        ]
    )
    return {"method": "POST", "url": command(server), "content": body, "headers": token(server)}


def wrong_types(rng: random.Random, server: Served) -> dict[str, Any]:
    line = rng.choice([1, 10**400, -1.5, None, True, [], {}, ["undo"], {"line": "undo"}])
    body = json.dumps({"line": line}) if line != 10**400 else '{"line": 1' + "0" * 400 + "}"
    return {"method": "POST", "url": command(server), "content": body, "headers": token(server)}


def long_lines(rng: random.Random, server: Served) -> dict[str, Any]:
    line = rng.choice(
        [
            "note " + "x" * 5000,
            "note " + "é" * 4500,
            "note a\u0000b",
            "note a\nundo",
            "note \x1b[31mred",
            "note " + "'" * 3000,
        ]
    )
    body = json.dumps({"line": line})
    return {"method": "POST", "url": command(server), "content": body, "headers": token(server)}


def large_bodies(rng: random.Random, server: Served) -> dict[str, Any]:
    size = rng.choice([40_000, 1_000_000])
    body = json.dumps({"line": "note " + "x" * size}).encode()
    if rng.random() < 0.5:  # no Content-Length: the body arrives chunked
        content: Any = chunks(body)
    else:
        content = body
    url = rng.choice([command(server), "/e/gunfight/screen", "/"])
    method = "POST" if url == command(server) else rng.choice(["GET", "POST"])
    return {"method": method, "url": url, "content": content, "headers": token(server)}


def chunks(body: bytes) -> Iterator[bytes]:
    for at in range(0, len(body), 16_384):
        yield body[at : at + 16_384]


def numbers(rng: random.Random, server: Served) -> dict[str, Any]:
    number = rng.choice(NUMBERS)
    url = rng.choice(
        [
            f"/e/gunfight/screen?step={number}",
            f"/gm/e/gunfight/screen?step={number}&token={server.token}",
            f"/e/gunfight/step/{number}",
            f"/gm/e/gunfight/step/{number}?token={server.token}",
            f"/e/gunfight/screen?step=1&step={number}",
        ]
    )
    return {"method": "GET", "url": url}


def names(rng: random.Random, server: Served) -> dict[str, Any]:
    name = rng.choice(NAMES)
    tail = rng.choice(["", "/screen", "/step/1", "/stream", "/command"])
    prefix = rng.choice(["", "/gm"])
    query = f"?token={server.token}" if prefix else ""
    return {"method": "GET", "url": f"{prefix}/e/{name}{tail}{query}"}


def methods(rng: random.Random, server: Served) -> dict[str, Any]:
    url = rng.choice([*ROUTES, command(server)])
    return {"method": rng.choice(METHODS), "url": url, "headers": token(server)}


def content_types(rng: random.Random, server: Served) -> dict[str, Any]:
    headers = {"X-Fracas-Token": server.token, "Content-Type": rng.choice(TYPES)}
    body = rng.choice([b'{"line": "harm nobody 1"}', b"line=undo", b"undo"])
    return {"method": "POST", "url": command(server), "content": body, "headers": headers}


def bad_tokens(rng: random.Random, server: Served) -> dict[str, Any]:
    given = rng.choice(TOKENS)
    where = rng.choice(["header", "query", "cookie"])
    url = rng.choice([command(server), "/gm", "/gm/e/gunfight/step/2", "/gm/e/gunfight/screen"])
    method = "POST" if url == command(server) else "GET"
    case: dict[str, Any] = {"method": method, "url": url, "json": {"line": "undo"}}
    if where == "header":
        case["headers"] = {"X-Fracas-Token": given.encode()}  # raw UTF-8 bytes
    elif where == "query":
        case["url"] = url + f"?token={given}"
    else:
        case["headers"] = {"Cookie": f"fracas_gm={given}".encode()}
    return case


def path_tricks(rng: random.Random, server: Served) -> dict[str, Any]:
    args = server.process.args
    line = rng.choice(TRICKS).format(outside=Path(args[args.index("--db") + 1]).parent.parent)
    return {
        "method": "POST",
        "url": command(server),
        "json": {"line": line},
        "headers": token(server),
        "trick": True,
    }


def static_paths(rng: random.Random, server: Served) -> dict[str, Any]:
    name = rng.choice(["..%2f..%2fmain.py", "../../cli/main.py", "%00", "table.js%00", "x" * 300])
    return {"method": "GET", "url": f"/static/{name}"}


CASES: list[Callable[[random.Random, Served], dict[str, Any]]] = [
    bad_json,
    deep_json,
    wrong_types,
    long_lines,
    large_bodies,
    numbers,
    names,
    methods,
    content_types,
    bad_tokens,
    path_tricks,
    path_tricks,
    static_paths,
]
