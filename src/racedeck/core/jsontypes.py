"""Type aliases for JSON values."""

from __future__ import annotations

from typing import Any, TypeAlias

__all__ = ["JSONObject", "JSONValue"]

JSONValue: TypeAlias = Any
"""Any value that :func:`json.dumps` accepts (kept loose: mypy cannot express JSON recursively)."""

JSONObject: TypeAlias = dict[str, Any]
"""A JSON object."""
