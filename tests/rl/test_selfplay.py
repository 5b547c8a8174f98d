"""Self-play against past selves (:mod:`racedeck.rl.selfplay`): every game of a batch meets
one version of the policy for a whole episode, drawn again when the game is dealt anew, in the
proportions the league asks for."""

from __future__ import annotations

import doctest
from typing import Any

import numpy as np
import pytest

import racedeck.rl.selfplay
from racedeck.rl.selfplay import League
from racedeck.rl.vector import RacedeckVectorEnv


def lowest(observations: Any, masks: Any) -> Any:
    """The lowest legal action of every row."""
    return masks.argmax(axis=1)


def test_each_game_meets_one_version_an_episode() -> None:
    league = League(lowest, latest=0.5, seed=1)
    league.snapshot()  # one past self
    opponents = league.opponents()
    seen: dict[tuple[int, int], set[int]] = {}  # (game, episode) -> versions that played it
    episode = np.zeros(16, np.int64)

    class Spy:
        """The league's opponents, noting which version answered for which game's episode."""

        per_game = True

        def new_episodes(self, which: Any) -> None:
            opponents.new_episodes(which)

        def __call__(self, observations: Any, masks: Any, games: Any = None) -> Any:
            for g in games:
                seen.setdefault((int(g), int(episode[g])), set()).add(int(opponents.versions[g]))
            return opponents(observations, masks, games=games)

    env = RacedeckVectorEnv("why-first", 16, opponents=Spy(), players=3)
    _, info = env.reset(seed=5)
    for _ in range(200):
        _, _, done, _, info = env.step(info["action_mask"].argmax(axis=1))
        episode[done] += 1
    assert all(len(v) == 1 for v in seen.values())  # one version per game and episode
    versions = [next(iter(v)) for v in seen.values()]
    assert {-1, 0} <= set(versions)  # both met, about half and half
    assert 0.3 < versions.count(-1) / len(versions) < 0.7
    assert episode.min() >= 1  # every game went on to a new episode


def test_snapshots_are_copies_and_the_league_keeps_its_size() -> None:
    from racedeck.bots.policy import MLPPolicy

    policy = MLPPolicy.random("why-first", {"players": 3}, hidden=(4,), seed=1)
    league = League(policy, size=2)
    for k in range(3):
        policy.biases[-1][:] = k
        league.snapshot()
    assert [float(p.biases[-1][0]) for p in league.snapshots] == [1.0, 2.0]
    with pytest.raises(ValueError, match="probability"):
        League(policy, latest=2.0)


def test_the_docstring_runs() -> None:
    assert doctest.testmod(racedeck.rl.selfplay).failed == 0
