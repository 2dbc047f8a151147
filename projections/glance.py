"""A glance at the log: what `status` shows, read straight from the read models, without
folding an encounter or loading its ruleset (a quick start for a command run as a process).

What a glance cannot tell by itself it says it cannot: who is hidden now, once anyone was
(a fold says who was revealed since), and whether a reaction is awaited, once one was asked.
"""

import msgspec

from fracas.ledger import LogStore, NotFoundError
from fracas.ledger.base import ASKED_KIND, HIDDEN_KIND
from fracas.projections.tables import Current, has_tables, read_current
from fracas.rules.views import PARTY, View


class Glance(msgspec.Struct, frozen=True):
    encounter: str
    ruleset: str
    header: str  # the board's first line, in the ruleset's words
    view: View
    ever_hidden: bool  # someone was hidden in it: who is hidden now takes a fold
    ever_asked: bool  # a reaction was asked in it: whether one waits takes a fold


def latest(store: LogStore) -> str:
    """The fight started last (the party, kept in the log as an encounter, is none)."""
    started = [name for name in store.encounters() if name != PARTY]
    if not started:
        raise NotFoundError(f"no encounters in {store.path} yet: start one with `fracas new`")
    return started[-1]


def glance(store: LogStore, encounter: str | None = None) -> Glance | None:
    """The encounter (default: the latest) as the read models hold it; None when they do
    not (an older file opened read-only, an encounter not in the log), or when the log
    lacks the event that started it (a fold then refuses, saying so)."""
    name = encounter or latest(store)
    found = current(store, name)
    if found is None:
        return None
    ever = store.kinds_ever(name)
    return Glance(
        name, found.ruleset, found.header, found.view, HIDDEN_KIND in ever, ASKED_KIND in ever
    )


def current(store: LogStore, encounter: str) -> Current | None:
    """The encounter as the read models hold it, if they do and the log still has the event
    that started it (else None: a fold says what is missing)."""
    if not has_tables(store) or store.first_event(encounter) is None:
        return None
    return read_current(store.conn, encounter)
