"""fracas.projections: read models, the log, exports and the audit, built from events."""

from fracas.projections.app import AuditReport, Fracas, LogStep
from fracas.projections.describe import describe

__all__ = ["AuditReport", "Fracas", "LogStep", "describe"]
