"""The players' links: one token per invitation, kept beside the log, never in it.

A token is 256 random bits, handed out once (in a link) and stored only as its SHA-256, in a
table of its own outside the hash chain (like the snapshots): it is never exported or
copied, never part of what the audit checks, and on a PostgreSQL server it lives in the
log's own schema, which the players' role cannot read. A revocation stamps the row; the
table keeps who was invited when, and who was revoked when, for the GM to see.
"""

import hashlib
import hmac
import secrets
from typing import Any

import msgspec

from fracas.ledger.base import LogStore, now
from fracas.ledger.errors import BadInputError

# Not append-only: a revocation stamps its row. Dropping the table revokes every link.
INVITES_TABLE = (
    "CREATE TABLE IF NOT EXISTS invites (digest TEXT PRIMARY KEY, encounter TEXT NOT NULL, "
    "combatant TEXT NOT NULL, at TEXT NOT NULL, revoked TEXT)"
)
TOKEN_BYTES = 32  # 256 bits
LONGEST_TOKEN = 64  # characters a token may take in a request (token_urlsafe(32) is 43)


class Invite(msgspec.Struct, frozen=True):
    encounter: str
    combatant: str
    at: str
    revoked: str | None


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def ready(store: LogStore) -> bool:
    return "invites" in store.tables()


def _write(store: LogStore, sql: str, params: tuple[Any, ...]) -> int:
    """One statement in a transaction of its own, the table made first if it is missing."""
    store._begin()
    try:
        store.conn.execute(INVITES_TABLE)
        count = store.conn.execute(sql, params).rowcount
        store._commit()
    except BaseException:
        store._rollback()
        raise
    return count


def invite(store: LogStore, encounter: str, combatant: str) -> str:
    """A new token for the combatant's player: returned once, kept only as its digest."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    _write(
        store,
        "INSERT INTO invites (digest, encounter, combatant, at) VALUES (?, ?, ?, ?)",
        (digest(token), encounter, combatant, now()),
    )
    return token


def revoke(store: LogStore, encounter: str, combatant: str) -> int:
    """Revoke every live link of the combatant's player; how many there were."""
    return _write(
        store,
        "UPDATE invites SET revoked = ? WHERE encounter = ? AND combatant = ? AND revoked IS NULL",
        (now(), encounter, combatant),
    )


def holder(store: LogStore, token: str) -> Invite | None:
    """The live invitation a token opens, or None (unknown, revoked, or malformed)."""
    if not 20 <= len(token) <= LONGEST_TOKEN or not token.isascii():
        return None
    if not ready(store):  # nobody was ever invited
        return None
    wanted = digest(token)
    row = store.conn.execute(
        "SELECT digest, encounter, combatant, at, revoked FROM invites WHERE digest = ?",
        (wanted,),
    ).fetchone()
    if row is None or not hmac.compare_digest(row[0], wanted) or row[4] is not None:
        return None
    return Invite(row[1], row[2], row[3], row[4])


def was_revoked(store: LogStore, token: str) -> bool:
    """Whether TOKEN opened a player's page once, and the GM has since revoked it."""
    if not 20 <= len(token) <= LONGEST_TOKEN or not token.isascii() or not ready(store):
        return False
    row = store.conn.execute(
        "SELECT revoked FROM invites WHERE digest = ?", (digest(token),)
    ).fetchone()
    return row is not None and row[0] is not None


def alive(store: LogStore, digests: list[str]) -> set[str]:
    """Those of `digests` whose link still works."""
    if not digests or not ready(store):
        return set()
    marks = ", ".join("?" * len(digests))
    rows = store.conn.execute(
        f"SELECT digest FROM invites WHERE revoked IS NULL AND digest IN ({marks})",
        tuple(digests),
    )
    return {row[0] for row in rows}


def invites(store: LogStore, encounter: str) -> list[Invite]:
    """Every link given for the encounter, in the order given, revoked ones included."""
    if not ready(store):
        return []
    rows = store.conn.execute(
        "SELECT encounter, combatant, at, revoked FROM invites WHERE encounter = ? ORDER BY at",
        (encounter,),
    )
    return [Invite(*row) for row in rows]


def linked(store: LogStore, encounter: str) -> frozenset[str]:
    """The combatants of the encounter whose players hold a live link."""
    return frozenset(i.combatant for i in invites(store, encounter) if i.revoked is None)


def check_known(combatant: str, known: list[str]) -> None:
    if combatant not in known:
        listed = ", ".join(known) or "none yet"
        raise BadInputError(f"no combatant {combatant!r} in this encounter; combatants: {listed}")
