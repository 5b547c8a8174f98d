"""Gymnasium ids for the games: ``racedeck/<Title>-v0``, one per registered game.

The name is the game's title in CamelCase, punctuation dropped (*Why First?* gives
``racedeck/WhyFirst-v0``, *Six Day Race* ``racedeck/SixDayRace-v0``). ``import racedeck.rl``
registers them, which is what Gymnasium 1.x expects of a package (it no longer loads entry
points); ``gymnasium.make("racedeck.rl:racedeck/WhyFirst-v0")`` imports the package itself.
"""

from __future__ import annotations

import re

import gymnasium

from racedeck.core.registry import available_games, get_spec

__all__ = ["ENTRY_POINT", "NAMESPACE", "VECTOR_ENTRY_POINT", "env_id", "register_envs"]

NAMESPACE = "racedeck"
"""The namespace of every id."""

ENTRY_POINT = "racedeck.rl.single:RacedeckGym"
"""What Gymnasium builds for each id (the game id is passed as a keyword)."""

VECTOR_ENTRY_POINT = "racedeck.rl.vector:RacedeckVectorEnv"
"""What ``gymnasium.make_vec(id, num_envs, vectorization_mode="vector_entry_point")`` builds
for the ids of games with a step kernel (a ``kernel`` plugin, :mod:`racedeck.kernels.registry`)."""


def env_id(game_id: str) -> str:
    """The Gymnasium id of ``game_id``: ``racedeck/<Title in CamelCase>-v0``."""
    words = re.findall(r"[A-Za-z0-9]+", get_spec(game_id).title)
    return f"{NAMESPACE}/{''.join(w[:1].upper() + w[1:] for w in words)}-v0"


def register_envs() -> tuple[str, ...]:
    """Register the id of every game that has an action and an observation encoding (once:
    ids already registered are left alone); return the ids."""
    ids = []
    for game_id in available_games():
        plugins = get_spec(game_id).plugins
        if "encoding" not in plugins or "observation" not in plugins:
            continue
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point=ENTRY_POINT,
                vector_entry_point=VECTOR_ENTRY_POINT if "kernel" in plugins else None,
                kwargs={"game_id": game_id},
            )
        ids.append(name)
    return tuple(ids)
