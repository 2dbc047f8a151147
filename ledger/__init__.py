"""fracas.ledger: the book of record. Knows no ruleset."""

from fracas.ledger.errors import (
    BadInputError,
    ConflictError,
    FracasError,
    IntegrityError,
    NotFoundError,
    RefusedError,
)
from fracas.ledger.history import History, StepRecord
from fracas.ledger.store import (
    CONTROL_KINDS,
    AppendResult,
    NewEvent,
    Store,
    StoredEvent,
    VerifyReport,
)

__all__ = [
    "CONTROL_KINDS",
    "AppendResult",
    "BadInputError",
    "ConflictError",
    "FracasError",
    "History",
    "IntegrityError",
    "NewEvent",
    "NotFoundError",
    "RefusedError",
    "StepRecord",
    "Store",
    "StoredEvent",
    "VerifyReport",
]
