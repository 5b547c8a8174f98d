"""Self-play against past selves: a policy's league of earlier versions as the opponents of
the vector environment.

A :class:`League` keeps the policy being trained and snapshots of it taken along the way; its
:meth:`League.opponents` is a policy for :class:`~racedeck.rl.vector.RacedeckVectorEnv`'s
``opponents`` that gives each game one version for a whole episode — the current policy with
probability ``latest``, else a snapshot drawn uniformly — and draws again when the game is dealt
anew (the environment tells it: :meth:`LeagueOpponents.new_episodes`). Playing only the latest
self lets a policy chase its own tail; a pool of past selves is the usual remedy (AlphaStar's
league, OpenAI Five's past-self play).

>>> import numpy as np
>>> from racedeck.bots.policy import MLPPolicy
>>> from racedeck.rl.vector import RacedeckVectorEnv
>>> policy = MLPPolicy.random("why-first", {"players": 3}, hidden=(16,), seed=1)
>>> league = League(policy, seed=2)
>>> league.snapshot()
>>> env = RacedeckVectorEnv("why-first", 8, opponents=league.opponents(), players=3)
>>> observations, info = env.reset(seed=3)
>>> chosen = policy(observations, info["action_mask"].astype(bool))
>>> _ = env.step(chosen)
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.bots.policy import Policy

__all__ = ["League", "LeagueOpponents"]


class League:
    """``policy`` (the one being trained, used as it changes) and at most ``size`` snapshots
    of it; ``latest``: how often a game's opponents are the current policy."""

    def __init__(self, policy: Policy, size: int = 8, latest: float = 0.5, seed: int = 0) -> None:
        if size < 1 or not 0.0 <= latest <= 1.0:
            raise ValueError("a league keeps 1 snapshot or more; latest is a probability")
        self.policy = policy
        self.size = size
        self.latest = latest
        self.snapshots: list[Policy] = []
        """Earlier versions, oldest first."""
        self.rng = np.random.default_rng(seed)

    def snapshot(self) -> None:
        """Keep a copy of the policy as it is now (the oldest goes when the league is full)."""
        self.snapshots.append(copy.deepcopy(self.policy))
        del self.snapshots[: -self.size]

    def opponents(self) -> LeagueOpponents:
        """A policy for the vector environment's ``opponents`` (see the module)."""
        return LeagueOpponents(self)


class LeagueOpponents:
    """The league as the opponents of a batch of games: one version per game and episode.

    The vector environment calls it with the rows' games (``games=``) and tells it which games
    start a new episode; version ``-1`` is the current policy, ``k`` the ``k``-th snapshot.
    """

    per_game = True
    """Asks for the games of the rows (the vector environment's protocol)."""

    def __init__(self, league: League) -> None:
        self.league = league
        self.versions = np.zeros(0, np.int64)
        """Each game's version in its current episode."""

    def new_episodes(self, which: NDArray[np.bool_]) -> None:
        """Draw a version for the games ``which`` marks (all, the first time)."""
        if self.versions.shape != which.shape:
            self.versions = np.full(which.shape, -1, np.int64)
            which = np.ones(which.shape, np.bool_)
        league = self.league
        count = int(which.sum())
        past = len(league.snapshots)
        drawn = np.full(count, -1, np.int64)
        if past:
            older = league.rng.random(count) >= league.latest
            drawn[older] = league.rng.integers(past, size=int(older.sum()))
        self.versions[which] = drawn

    def __call__(
        self, observations: NDArray[np.float32], masks: NDArray[np.bool_], games: Any = None
    ) -> NDArray[np.int64]:
        """The actions of the rows, each by its game's version."""
        n = observations.shape[0]
        rows = np.arange(n) if games is None else np.asarray(games)
        if self.versions.shape[0] <= rows.max(initial=0):
            self.new_episodes(np.ones(rows.max(initial=0) + 1, np.bool_))
        chosen = np.zeros(n, np.int64)
        versions = self.versions[rows]
        for version in np.unique(versions):
            policy = self.league.policy if version < 0 else self.league.snapshots[version]
            mine = versions == version
            chosen[mine] = np.asarray(policy(observations[mine], masks[mine]))
        return chosen
