"""Parsing game options given on the command line (``-o key=value``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import typer

from racedeck.core.errors import InvalidConfig
from racedeck.core.registry import get_spec

__all__ = [
    "GameArgument",
    "OptionsOption",
    "PlayersOption",
    "game_config",
    "options_shown",
    "parse_options",
]

GameArgument = Annotated[str, typer.Argument(help="game id, see racedeck games", metavar="GAME")]
"""A command's GAME argument."""

PlayersOption = Annotated[int | None, typer.Option("--players", "-p", help="number of players")]
"""A command's ``--players``/``-p`` option."""

OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", metavar="KEY=VALUE", help="any game option, see racedeck games GAME"
    ),
]
"""A command's ``--option``/``-o KEY=VALUE`` options (parsed by :func:`game_config`)."""


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


def game_config(
    game_id: str, pairs: Sequence[str], preset: str | None = None, **named: Any
) -> dict[str, Any]:
    """The options of ``game_id`` from a named ``preset`` (how long to play: ``quick``,
    ``standard``, ``long``; see :attr:`~racedeck.core.spec.GameSpec.presets`), then
    ``-o key=value`` pairs and the options given by their own flags (``named``; ``None`` means
    not given), each overriding the one before, checked by the game.

    Raises :class:`ValueError` with one line for people: an unknown game or preset, a malformed
    pair, or the game's :class:`~racedeck.core.errors.InvalidConfig` (the option, the value and
    what is allowed).
    """
    try:
        spec = get_spec(game_id)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None
    config: dict[str, Any] = {}
    if preset is not None:
        if preset not in spec.presets:
            raise ValueError(
                f"{game_id} has no preset {preset!r}; presets are {', '.join(spec.presets)}"
            )
        config.update(spec.presets[preset])
    config.update(parse_options(pairs))
    config.update({key: value for key, value in named.items() if value is not None})
    try:
        spec.make_config(**config)
    except InvalidConfig as exc:
        raise ValueError(str(exc)) from exc
    return config


def options_shown(game_id: str, config: Mapping[str, Any]) -> str:
    """The options of ``config`` that differ from the game's defaults, as ``key=value``
    (empty when every option keeps its default), for titles such as simulate's."""
    spec = get_spec(game_id)
    defaults = {opt.name: _as_json(opt.default) for opt in spec.options()}
    full = spec.make_config(**config).to_json()
    return ", ".join(
        f"{key}={_word(value)}" for key, value in full.items() if value != defaults.get(key)
    )


def _as_json(value: Any) -> Any:
    """``value`` as its JSON form holds it (tuples become lists)."""
    return json.loads(json.dumps(value))


def _word(value: Any) -> str:
    """A value as it would be typed after ``-o key=``."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
