"""Parsing game options given on the command line (``-o key=value``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

__all__ = ["parse_options"]


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """Turn ``["stages=3", "variant=tactical"]`` into ``{"stages": 3, "variant": "tactical"}``.

    Values are read as JSON when they parse (numbers, lists, true/false), else as text.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"option {pair!r} must look like key=value")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip().replace("-", "_")] = value
    return out
