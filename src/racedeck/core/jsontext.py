"""JSON text at C speed: what the server sends and the store writes, made and read by orjson.

A live table turns values into JSON text many times per move (every frame, every stored move
and clock, every view header's copy of the configuration); the standard library's encoder and
decoder cost several times orjson's. The text is compact and, for what racedeck holds (text
keys or integer keys, numbers, text, lists, objects), means the same as the standard library's:
integers beyond 64 bits, which orjson refuses, fall back to it.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["dumps", "loads"]


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (keys that are not text, such as seat numbers, become
    text, as the standard library's encoder makes them)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        # orjson takes integers of 64 bits at most; the standard encoder takes any.
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """The value of JSON ``text``."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        # Integers beyond 64 bits again, or text that is not JSON: the standard decoder
        # reads the first and words the error of the second.
        return json.loads(text)
