"""fracas.projections: read models, the log, exports and the audit, built from events."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.projections.app import Fracas, LogStep
    from fracas.projections.audit import AuditReport

__all__ = ["AuditReport", "Fracas", "LogStep"]  # describe(): fracas.projections.describe
_HOME = {"AuditReport": "audit", "Fracas": "app", "LogStep": "app"}


def __getattr__(name: str) -> Any:
    """Imported when first used, so a quick read (`status --json`) loads only what it needs."""
    if name not in _HOME:
        raise AttributeError(f"module 'fracas.projections' has no attribute {name!r}")
    import importlib

    found = getattr(importlib.import_module(f"fracas.projections.{_HOME[name]}"), name)
    globals()[name] = found  # the next `from fracas.projections import ...` finds it at once
    return found
