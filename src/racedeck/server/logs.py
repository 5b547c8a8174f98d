"""The server's log: every line about a table names it, and ``racedeck serve`` writes it.

:func:`table_log` is the logger for one table: its lines start ``table ID:`` under any
formatter, and each record carries the id as its ``table`` attribute as well, for a log
shipper that indexes fields. :func:`logging_config` is what ``racedeck serve`` hands uvicorn:
one format (time, level, logger, message) for the server's lines and uvicorn's alike.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any

__all__ = ["FORMAT", "TableLog", "log", "logging_config", "table_log"]

log = logging.getLogger("racedeck.server")
"""The server's logger (lines about no table in particular)."""

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""A line of ``racedeck serve``'s log: ``2025-05-01 12:00:00,123 WARNING racedeck.server:
table pX3k…: closing a socket that does not read``."""


class TableLog(logging.LoggerAdapter[logging.Logger]):
    """The server's logger for one table (see the module docstring)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(log, {"table": table_id})
        self.table_id = table_id

    def process(
        self, msg: Any, kwargs: MutableMapping[str, Any]
    ) -> tuple[Any, MutableMapping[str, Any]]:
        kwargs["extra"] = {**(kwargs.get("extra") or {}), "table": self.table_id}
        # The id goes into the format string: a "%" in it must not read as a placeholder.
        return f"table {self.table_id.replace('%', '%%')}: {msg}", kwargs


def table_log(table_id: str) -> TableLog:
    """The logger for lines about table ``table_id``."""
    return TableLog(table_id)


def logging_config(level: str) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for ``racedeck serve``: racedeck's lines at ``level``
    and up, on standard error in :data:`FORMAT`, and uvicorn's in the same format, at warnings
    and up unless ``level`` is ``debug`` (at ``info`` uvicorn writes a line per socket opened
    and closed; its access log, a line per request, is off)."""
    level = level.upper()
    uvicorn_level = level if level == "DEBUG" else max(level, "WARNING", key=logging.getLevelName)
    return {
        "version": 1,
        # The application is built (its loggers made) before uvicorn applies this.
        "disable_existing_loggers": False,
        "formatters": {"line": {"format": FORMAT}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "line",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "racedeck": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": uvicorn_level, "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }
