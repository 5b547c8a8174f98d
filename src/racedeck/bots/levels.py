"""Levels: the bots offered to people by how well they play, not by how they work.

Four levels, weakest first — *Beginner*, *Casual*, *Strong*, *Expert* — each played by the
bot :data:`LEVEL_BOTS` names for it (a bot name as :func:`~racedeck.bots.registry.make_bot`
takes it, budget included: ``fastsearch@20000``). That table is the one place to change which
bot plays a level; a game whose measurements call for another bot at some level names it in
its own ``bots`` plugin (``LEVELS = {"expert": "fastsearch@30000"}``). Each level is meant to
beat the one below it head to head, which ``benchmarks/levels.py`` measures and
``docs/levels.md`` reports.

A level id is accepted wherever a bot name is (``make_bot("expert", ...)``); it takes no
parameter of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from racedeck.plugins import optional_plugin

__all__ = ["LEVELS", "LEVEL_BOTS", "Level", "find_level", "level_bot", "level_ids"]


@dataclass(frozen=True, slots=True)
class Level:
    """A level people choose: its ``id`` (``"casual"``), its ``title`` in English and what it
    plays like (``about``)."""

    id: str
    title: str
    about: str


LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner", "plays any legal move: for a first game"),
    Level("casual", "Casual", "plays by rules of thumb, one move at a time"),
    Level("strong", "Strong", "thinks ahead, trying many ways the game could go"),
    Level("expert", "Expert", "thinks ahead far more, trying tens of times as many"),
)
"""The levels, weakest first."""

LEVEL_BOTS: dict[str, str] = {
    "beginner": "random",
    "casual": "heuristic",
    "strong": "search",
    "expert": "fastsearch",
}
"""The bot that plays each level in every game, unless the game's ``bots`` plugin names
another for it in its own ``LEVELS`` (as it names its own bots in ``BOTS``: the game's rules
and measurements live with the game, and no shared module names a game)."""


def level_ids() -> tuple[str, ...]:
    """The level ids, weakest first."""
    return tuple(level.id for level in LEVELS)


def find_level(name: str) -> Level | None:
    """The level ``name`` is the id of (any case, spaces around ignored), else ``None``."""
    key = name.strip().lower()
    return next((level for level in LEVELS if level.id == key), None)


def level_bot(level_id: str, game_id: str) -> str:
    """The bot that plays level ``level_id`` in ``game_id``: the game's own choice
    (``LEVELS`` in its ``bots`` plugin), else :data:`LEVEL_BOTS`; raise :class:`ValueError`
    naming the levels when there is no such level."""
    level = find_level(level_id)
    if level is None:
        raise ValueError(f"no level {level_id!r}; levels are {', '.join(level_ids())}")
    module = optional_plugin(game_id, "bots")
    own: dict[str, str] = getattr(module, "LEVELS", {}) if module is not None else {}
    return own.get(level.id, LEVEL_BOTS[level.id])
