"""Bots by name: ``random`` and ``search`` for every game, ``fastsearch`` for every game with a
compiled search, plus the bots a game registers.

A game offers its own bots (``heuristic``) in the module it names for the ``bots`` face, as
``BOTS = {"heuristic": factory}`` (see :mod:`racedeck.plugins`).

A name may carry a parameter after ``@``: ``search@500`` searches 500 iterations per move,
``search@200ms`` 200 milliseconds (see :class:`~racedeck.bots.search.SearchBudget`); so does
``fastsearch`` (:class:`~racedeck.bots.fast_search.FastSearchBot`). ``policy:PATH`` plays a
policy saved at ``PATH`` (:mod:`racedeck.bots.policy`); ``learned``, the policy trained by
self-play that ships for the game (:mod:`racedeck.bots.learned`).

A level (``beginner``, ``casual``, ``strong``, ``expert``: :mod:`racedeck.bots.levels`) is
accepted wherever a bot name is and plays as the bot the level names in the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racedeck.bots.base import Bot
from racedeck.bots.fast_search import FastSearchBot, has_fast_search
from racedeck.bots.learned import has_learned, learned_bot
from racedeck.bots.levels import find_level, level_bot, level_ids
from racedeck.bots.random_bot import RandomBot
from racedeck.bots.search import SearchBot, SearchBudget
from racedeck.core.game import Game
from racedeck.plugins import optional_plugin

__all__ = ["POLICY_PREFIX", "available_bots", "available_levels", "make_bot"]

BotFactory = Callable[[Game[Any, Any, Any], int, int], Bot]

_GENERIC: dict[str, BotFactory] = {"random": RandomBot, "search": SearchBot}
_PARAMETRIC = frozenset({"search", "fastsearch"})

POLICY_PREFIX = "policy:"
"""A bot named ``policy:PATH`` plays the policy saved at ``PATH``."""


def _generic(game_id: str) -> dict[str, BotFactory]:
    """The bots every game has, ``fastsearch`` where the game has a compiled search and
    ``learned`` where a trained policy ships."""
    bots = dict(_GENERIC)
    if has_fast_search(game_id):
        bots["fastsearch"] = FastSearchBot
    if has_learned(game_id):
        bots["learned"] = learned_bot
    return bots


def _own_bots(game_id: str) -> dict[str, BotFactory]:
    """The bots ``game_id`` registers for itself."""
    module = optional_plugin(game_id, "bots")
    return dict(getattr(module, "BOTS", {})) if module is not None else {}


def available_bots(game_id: str) -> tuple[str, ...]:
    """Names of the bots that can play ``game_id``."""
    return tuple(sorted({*_generic(game_id), *_own_bots(game_id)}))


def available_levels(game_id: str) -> tuple[str, ...]:
    """Ids of the levels ``game_id`` offers, weakest first: those whose bot it has."""
    known = set(available_bots(game_id))
    return tuple(
        level
        for level in level_ids()
        if level_bot(level, game_id).partition("@")[0].lower() in known
    )


def make_bot(name: str, game: Game[Any, Any, Any], seat: int, seed: int) -> Bot:
    """Create bot ``name`` for ``seat`` of ``game``; raise :class:`ValueError` if unknown.

    A level id plays as its bot in this game (:func:`~racedeck.bots.levels.level_bot`);
    ``policy:PATH`` is the policy saved at ``PATH`` (:mod:`racedeck.bots.policy`)."""
    level = find_level(name.partition("@")[0])
    if level is not None:
        if "@" in name:
            raise ValueError(f"level {level.id!r} takes no parameter (got {name!r})")
        return make_bot(level_bot(level.id, game.spec.id), game, seat, seed)
    if name.strip().startswith(POLICY_PREFIX):
        from racedeck.bots.policy import policy_bot  # NumPy inference, loaded when asked

        return policy_bot(name.strip()[len(POLICY_PREFIX) :], game, seat, seed)
    key, _, param = name.strip().lower().partition("@")
    factory = _own_bots(game.spec.id).get(key) or _generic(game.spec.id).get(key)
    if factory is None:
        levels = ", ".join(available_levels(game.spec.id))
        known = ", ".join(available_bots(game.spec.id))
        raise ValueError(f"no bot {name!r} for {game.spec.id}; levels: {levels}; bots: {known}")
    if not param:
        return factory(game, seat, seed)
    if key not in _PARAMETRIC:
        raise ValueError(f"bot {key!r} takes no parameter (got {name!r})")
    if key == "fastsearch":
        return FastSearchBot(game, seat, seed, SearchBudget.parse(param))
    return SearchBot(game, seat, seed, SearchBudget.parse(param))
