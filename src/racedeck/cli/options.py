"""Parsing game options given on the command line (``-o key=value``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from racedeck.core.errors import InvalidConfig
from racedeck.core.registry import get_spec

__all__ = ["game_config", "parse_options"]


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


def game_config(game_id: str, pairs: Sequence[str], **named: Any) -> dict[str, Any]:
    """The options of ``game_id`` from ``-o key=value`` pairs and the options given by their
    own flags (``named``; ``None`` means not given), checked by the game.

    Raises :class:`ValueError` with one line for people: an unknown game, a malformed pair, or
    the game's :class:`~racedeck.core.errors.InvalidConfig` (the option, the value and what is
    allowed).
    """
    try:
        spec = get_spec(game_id)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None
    config = parse_options(pairs)
    config.update({key: value for key, value in named.items() if value is not None})
    try:
        spec.make_config(**config)
    except InvalidConfig as exc:
        raise ValueError(str(exc)) from exc
    return config
