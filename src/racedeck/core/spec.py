"""Game declarations: what a game is, before any state exists."""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from racedeck.core.errors import InvalidConfig

if TYPE_CHECKING:
    from racedeck.core.game import Game

__all__ = ["PRESETS", "RULING", "Dynamics", "GameConfig", "GameSpec", "OptionInfo", "option"]

MAX_ITEMS = 64
"""Most items any list-valued option may hold (bounds what a stranger's config can cost)."""


def option(
    default: Any,
    help: str,
    *,
    min: int | None = None,
    max: int | None = None,
    choices: tuple[Any, ...] | None = None,
    max_items: int = MAX_ITEMS,
    labels: tuple[str, ...] | None = None,
) -> Any:
    """A configuration field: its default, help text and what values are allowed.

    ``min``/``max`` bound an integer (or every integer inside a list option), ``choices``
    lists the allowed values; :meth:`GameSpec.make_config` checks them together with the
    field's type before the game's own :meth:`GameConfig.validate` sees the configuration.
    ``labels`` name what the items of a list option stand for, in any language (``"1"`` …
    ``"7"`` for counts by card value; for a list of ``(name, count)`` pairs, the names it
    may hold), so a form can give each item its own field.
    """
    meta = {
        "help": help,
        "min": min,
        "max": max,
        "choices": choices,
        "max_items": max_items,
        "labels": labels,
    }
    if isinstance(default, list | dict):  # pragma: no cover - configs hold tuples
        raise TypeError("option defaults must be immutable")
    return dataclasses.field(default=default, metadata=meta)


class Dynamics(StrEnum):
    """How seats take their decisions."""

    SEQUENTIAL = "sequential"
    """One seat acts at a time."""
    SIMULTANEOUS = "simultaneous"
    """Several seats commit secretly; the engine resolves when all have committed."""
    REACTIVE = "reactive"
    """Out-of-turn reactions: a window waits on every seat that may respond."""


@dataclass(frozen=True)
class GameConfig:
    """Base class of every game's configuration dataclass.

    Subclasses are frozen dataclasses whose fields all have defaults (the rulings' *(config)*
    values); ``players`` is always present. Field metadata ``help`` documents an option.
    """

    players: int = 3

    def validate(self) -> None:
        """Raise :class:`~racedeck.core.errors.InvalidConfig` with a clear message when the
        options, each valid alone, cannot be played together."""

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form (tuples become lists)."""
        return {f.name: _jsonify(getattr(self, f.name)) for f in dataclasses.fields(self)}


def _tuplify(value: Any) -> Any:
    """JSON lists back to the tuples that frozen configurations hold, at any depth."""
    if isinstance(value, list | tuple):
        return tuple(_tuplify(v) for v in value)
    return value


def _jsonify(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonify(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One configuration option, for listings such as ``racedeck games``: ``allowed`` says in
    words what ``min``, ``max`` (bounds of an integer, or of every integer in a list) and
    ``choices`` say as values (``None``: no such bound)."""

    name: str
    default: Any
    help: str
    allowed: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[Any, ...] | None = None
    length: int | None = None
    """How many items a list option holds when that is fixed (``None``: any number up to
    ``max_items``, or not a list)."""
    max_items: int | None = None
    """Most items a list option may hold (``None``: not a list)."""
    labels: tuple[str, ...] | None = None
    """What each item of a list option stands for (see :func:`option`)."""
    rulings: tuple[str, ...] = ()
    """The rulings (``SD-1``, ``SB-9`` in ``../rules/DECISIONS.md``) that the option
    configures, as its help text cites them."""


RULING = re.compile(r"\b[A-Z]{2}-\d+\b")
"""A ruling's id (``WF-6``, ``SD-12``) as help texts cite it."""

PRESETS = ("quick", "standard", "long")
"""The names of a game's presets, shortest game first."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Declaration of a game: identity, player range, dynamics, configuration and rules version.

    ``rules_version`` changes only when the behaviour of the rules changes, so a record made
    under one version is refused by another instead of replaying to different states.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    dynamics: frozenset[Dynamics]
    config_type: type[GameConfig]
    rules_version: str
    factory: Callable[[Any], Game[Any, Any, Any]]
    summary: str = ""
    presets: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    """Named lengths of game, keyed by names from :data:`PRESETS`: the options each one
    sets (``{"quick": {"stages": 2}, "standard": {}, "long": {"stages": 8}}``), so a player
    picks how long to play without knowing the options. ``standard`` is the rulebook's game
    (no option set); a game offers the lengths that make sense for it."""
    plugins: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Everything else the game offers, by face: module paths such as
    ``{"bots": "racedeck.bots.why_first", "terminal": "racedeck.cli.why_first_ui"}``. Names
    only, so the game layer imports nothing outer; each face loads its own with
    :func:`racedeck.plugins.plugin`, and a new game touches no shared file."""

    def options(self) -> tuple[OptionInfo, ...]:
        """List the configuration options with their defaults, help texts and allowed values
        (``players`` is bounded by the game's player range, whatever its field says)."""
        out = []
        hints = _hints(self.config_type)
        for f in dataclasses.fields(self.config_type):
            if f.default is not dataclasses.MISSING:
                default: Any = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:  # pragma: no cover - every option has a default by contract
                default = None
            meta = dict(f.metadata)
            if f.name == "players":
                # make_config checks the game's range too; the listing says the narrower one.
                lo, hi = meta.get("min"), meta.get("max")
                meta["min"] = self.min_players if lo is None else max(lo, self.min_players)
                meta["max"] = self.max_players if hi is None else min(hi, self.max_players)
            choices = meta.get("choices")
            hint = hints[f.name]
            is_list = typing.get_origin(hint) is tuple
            help_text = str(meta.get("help", ""))
            out.append(
                OptionInfo(
                    f.name,
                    default,
                    help_text,
                    _allowed(hint, meta),
                    meta.get("min"),
                    meta.get("max"),
                    tuple(choices) if choices else None,
                    _length(hint) if is_list else None,
                    int(meta.get("max_items") or MAX_ITEMS) if is_list else None,
                    meta.get("labels"),
                    tuple(dict.fromkeys(RULING.findall(help_text))),
                )
            )
        return tuple(out)

    def make_config(self, **options: Any) -> GameConfig:
        """Build and validate a configuration from keyword options (JSON lists become tuples).

        Every option is checked by its type and allowed values, then the game's own
        :meth:`GameConfig.validate` checks how they fit together. Raises
        :class:`~racedeck.core.errors.InvalidConfig` naming the option, the value and what is
        allowed, so configurations from strangers (a server, a record) fail cleanly.
        """
        fields = {f.name: f for f in dataclasses.fields(self.config_type)}
        unknown = sorted(set(options) - set(fields))
        if unknown:
            raise InvalidConfig(
                f"{self.id}: unknown option(s) {', '.join(map(str, unknown))}; "
                f"options are {', '.join(sorted(fields))}",
                option=str(unknown[0]),
            )
        hints = _hints(self.config_type)
        fixed: dict[str, Any] = {}
        for name, value in options.items():
            value = _tuplify(value)
            problem = _check(value, hints[name], fields[name].metadata)
            if problem:
                allowed = _allowed(hints[name], fields[name].metadata)
                raise InvalidConfig(
                    f"{self.id}: option {name}={_show(value)} is not allowed: {problem}"
                    + (f" (allowed: {allowed})" if allowed else ""),
                    option=name,
                )
            fixed[name] = value
        config = self.config_type(**fixed)
        if not self.min_players <= config.players <= self.max_players:
            raise InvalidConfig(
                f"{self.id}: option players={config.players} is not allowed: "
                f"{self.title} is for {self.min_players} to {self.max_players} players",
                option="players",
            )
        try:
            config.validate()
        except InvalidConfig:
            raise
        except ValueError as exc:
            raise InvalidConfig(f"{self.id}: {exc}") from exc
        return config


def _length(hint: Any) -> int | None:
    """The fixed number of items of a list type (``tuple[int, int]``: 2), else ``None``."""
    args = typing.get_args(hint)
    return None if len(args) == 2 and args[1] is Ellipsis else len(args)


def _hints(config_type: type[GameConfig]) -> dict[str, Any]:
    return typing.get_type_hints(config_type)


def _show(value: Any) -> str:
    # A list as it is typed (JSON, whatever it holds); anything else quoted as Python does.
    text = json.dumps(_jsonify(value)) if isinstance(value, tuple | list) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            if typing.get_origin(args[0]) is tuple:  # "a list of lists [text, integer]"
                return "a list of lists " + _type_name(args[0]).removeprefix("a list ")
            return f"a list of {_type_name(args[0])}s"
        return "a list [" + ", ".join(_type_name(a) for a in args) + "]"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(hint))
    return {int: "integer", bool: "true/false", str: "text", float: "number"}.get(
        hint, getattr(hint, "__name__", str(hint))
    )


def _allowed(hint: Any, meta: Mapping[str, Any]) -> str:
    """What values an option allows, in words (for messages and listings)."""
    choices = meta.get("choices")
    if choices:
        return "one of " + ", ".join(str(c) for c in choices)
    lo, hi = meta.get("min"), meta.get("max")
    what = _type_name(hint)
    if lo is not None and hi is not None:
        return f"{what}, {lo} to {hi}"
    if lo is not None:
        return f"{what}, at least {lo}"
    if hi is not None:
        return f"{what}, at most {hi}"
    return what


def _check(value: Any, hint: Any, meta: Mapping[str, Any]) -> str:
    """Why ``value`` does not fit ``hint`` and the bounds in ``meta``; empty if it does."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        if not isinstance(value, tuple):
            return f"expected {_type_name(hint)}"
        args = typing.get_args(hint)
        max_items = meta.get("max_items") or MAX_ITEMS
        if len(value) > max_items:
            return f"at most {max_items} items"
        if len(args) == 2 and args[1] is Ellipsis:
            item_hints = [args[0]] * len(value)
        elif len(args) != len(value):
            return f"expected {_type_name(hint)}"
        else:
            item_hints = list(args)
        item_meta = {k: v for k, v in meta.items() if k != "choices"}
        for item, item_hint in zip(value, item_hints, strict=True):
            problem = _check(item, item_hint, item_meta)
            if problem:
                return f"item {_show(item)}: {problem}"
        return ""
    if origin in (typing.Union, types.UnionType):
        problems = [_check(value, a, meta) for a in typing.get_args(hint)]
        return "" if any(p == "" for p in problems) else f"expected {_type_name(hint)}"
    # ``type(...) is`` refuses True for an integer and 3.0 for an integer on purpose.
    if hint is int and type(value) is not int:
        return "expected an integer"
    if hint is bool and type(value) is not bool:
        return "expected true or false"
    if hint is str and type(value) is not str:
        return "expected text"
    choices = meta.get("choices")
    if choices and hint in (int, str, bool) and value not in choices:
        return "not one of the choices"
    if hint is int:
        lo, hi = meta.get("min"), meta.get("max")
        if lo is not None and value < lo:
            return f"below {lo}"
        if hi is not None and value > hi:
            return f"above {hi}"
    return ""
