"""Bots at server tables: which names a table accepts, and the work a bot does in a worker.

A bot decides in a worker (a process pool by default, so a search never holds the event loop)
from its seat's view alone; its answer comes back as action JSON and goes through the same
authoritative path as a person's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from racedeck.bots.levels import find_level, level_bot
from racedeck.bots.registry import available_bots, available_levels, make_bot
from racedeck.core.errors import InvalidConfig
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import make

__all__ = [
    "MAX_SEARCH_ITERATIONS",
    "bot_choices",
    "bot_decision",
    "check_bot_name",
    "level_choices",
]

MAX_SEARCH_ITERATIONS = 2000
"""Largest ``search@N`` budget a table may ask for (a move then takes about a second)."""

DEFAULT_SEARCH_ITERATIONS = 200
"""The budget of a plain ``search`` at a server table."""


NOT_AT_TABLES = frozenset({"learned"})
"""Bots tables do not offer: ``learned`` plays only the configurations it was trained on (a
table may choose any), so a seat given it could be left without a move."""


def _table_bots(game_id: str) -> tuple[str, ...]:
    return tuple(b for b in available_bots(game_id) if b not in NOT_AT_TABLES)


def bot_choices(game_id: str) -> list[JSONObject]:
    """The bots a table of ``game_id`` offers, for ``/api/games``."""
    out: list[JSONObject] = []
    for name in _table_bots(game_id):
        if name == "search":
            out.append(
                {
                    "name": "search",
                    "budget": {
                        "min": 1,
                        "max": MAX_SEARCH_ITERATIONS,
                        "default": DEFAULT_SEARCH_ITERATIONS,
                    },
                    "form": "search@N",
                }
            )
        else:
            out.append({"name": name})
    return out


def level_choices(game_id: str) -> list[JSONObject]:
    """The levels a table of ``game_id`` offers, weakest first, each with the bot that plays
    it, for ``/api/games``."""
    return [{"id": level, "bot": level_bot(level, game_id)} for level in available_levels(game_id)]


def check_bot_name(game_id: str, name: str) -> str:
    """The canonical form of bot ``name`` for ``game_id``; raise :class:`InvalidConfig`
    (``config/invalid``) when the game has no such bot or level, or a search budget is out of
    bounds.

    A level stays a level (``expert``): the seat is shown by it, and its bot is made when it
    moves (:func:`~racedeck.bots.registry.make_bot`). Only iteration budgets are allowed: a
    time budget would make a game unreproducible.
    """
    key, at, param = name.strip().lower().partition("@")
    level = find_level(key)
    if level is not None and level.id in available_levels(game_id):
        if at:
            raise InvalidConfig(f"level {key!r} takes no budget (got {name!r})", "bot")
        return level.id
    known = _table_bots(game_id)
    if key not in known:
        raise InvalidConfig(
            f"no bot {name!r} for {game_id}; levels are {', '.join(available_levels(game_id))}; "
            f"bots are {', '.join(known)}",
            "bot",
        )
    if key != "search":
        if at:
            raise InvalidConfig(f"bot {key!r} takes no budget (got {name!r})", "bot")
        return key
    if not at:
        return f"search@{DEFAULT_SEARCH_ITERATIONS}"
    if not param.isdigit() or not 1 <= int(param) <= MAX_SEARCH_ITERATIONS:
        raise InvalidConfig(
            f"bot {name!r}: a search budget is a number of iterations, "
            f"1 to {MAX_SEARCH_ITERATIONS} (search@200)",
            "bot",
        )
    return f"search@{int(param)}"


@lru_cache(maxsize=64)
def _game(game_id: str, config_key: str) -> Game[Any, Any, Any]:
    import json

    return make(game_id, **json.loads(config_key))


def bot_decision(
    game_id: str, config_key: str, bot: str, seat: int, seed: int, view: JSONObject
) -> JSONObject:
    """Run in a worker: bot ``bot`` at ``seat`` chooses from its view; return the action JSON.

    The view travels as its JSON form, exactly what a person's browser receives, and is
    rebuilt in the worker. ``config_key`` is the table's configuration as canonical JSON (a
    hashable cache key, so a worker builds each game once). The bot is made afresh with
    ``seed`` for every decision: it holds nothing between moves, so a restarted server's bots
    decide the same way.
    """
    game = _game(game_id, config_key)
    chosen = make_bot(bot, game, seat, seed).act(game.view_from_json(view))
    result: JSONObject = chosen.to_json()
    return result
