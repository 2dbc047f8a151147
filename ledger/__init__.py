"""fracas.ledger: the book of record. Knows no ruleset."""

from fracas.ledger.base import (
    CONTROL_KINDS,
    AppendResult,
    LogStore,
    NewEvent,
    Snapshot,
)
from fracas.ledger.chain import StoredEvent, VerifyReport
from fracas.ledger.errors import (
    BadInputError,
    ConflictError,
    FracasError,
    IntegrityError,
    NotFoundError,
    RefusedError,
    UnreachableError,
)
from fracas.ledger.history import History, StepRecord
from fracas.ledger.open import is_server, open_store
from fracas.ledger.store import Store

__all__ = [
    "CONTROL_KINDS",
    "AppendResult",
    "BadInputError",
    "ConflictError",
    "FracasError",
    "History",
    "IntegrityError",
    "LogStore",
    "NewEvent",
    "NotFoundError",
    "RefusedError",
    "Snapshot",
    "StepRecord",
    "Store",
    "StoredEvent",
    "UnreachableError",
    "VerifyReport",
    "is_server",
    "open_store",
]
