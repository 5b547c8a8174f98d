"""A trained network's strength while it trains: its share of the win against the heuristic
bot, in compiled games.

The trainers call :func:`against_heuristic` after each round for their curves: thousands of
games a second, because the opponents play in compiled code
(:class:`~racedeck.rl.vector.RacedeckVectorEnv`); the final, slower measurements against the
search bot are :mod:`racedeck.sim.versus`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.core.rng import derive_seed
from racedeck.rl.vector import RacedeckVectorEnv
from racedeck.sim.stats import wilson_interval

__all__ = ["EVALUATION_SEED", "Evaluation", "HeuristicEvaluation", "against_heuristic"]

EVALUATION_SEED = 1 << 40
"""Where evaluation deals come from (``derive_seed(seed, EVALUATION_SEED)``): apart from every
training deal, which the trainers derive from small numbers."""

Scores = Callable[[NDArray[np.float32]], NDArray[np.float32]]
"""Rows of observations → a score per action (the highest legal one is played)."""


@dataclass(frozen=True)
class Evaluation:
    """A share of the win against the heuristic bot in every other seat (the learner's seat
    drawn per game), with a Wilson 95% interval over games; ``fair``: a seat's share among
    equals."""

    share: float
    low: float
    high: float
    games: int
    fair: float


class HeuristicEvaluation:
    """:func:`against_heuristic` for one run: its game, configuration, number of games and
    seed, the environment made once and dealt the same deals at every call."""

    def __init__(self, game_id: str, config: dict[str, Any], games: int, seed: int) -> None:
        self.game_id, self.config, self.games, self.seed = game_id, config, games, seed
        self.env = RacedeckVectorEnv(
            game_id, games, opponents="heuristic", learner_seat="random", **config
        )

    def __call__(self, scores: Scores) -> Evaluation:
        """The share of the win of the highest-scoring legal action in the learner's seat."""
        return against_heuristic(self.game_id, self.config, scores, self.games, self.seed, self.env)


def against_heuristic(
    game_id: str,
    config: dict[str, Any],
    scores: Scores,
    games: int = 2000,
    seed: int = 0,
    env: RacedeckVectorEnv | None = None,
) -> Evaluation:
    """``games`` games (one per environment of ``env``, made when not given) with the
    highest-scoring legal action in the learner's seat, dealt from ``seed``."""
    if env is None or env.num_envs != games:
        env = RacedeckVectorEnv(
            game_id, games, opponents="heuristic", learner_seat="random", **config
        )
    obs, info = env.reset(seed=derive_seed(seed, EVALUATION_SEED))
    mask = info["action_mask"].astype(np.bool_)
    result = np.zeros(games, np.float64)
    open_ = np.ones(games, np.bool_)
    while open_.any():
        actions = np.where(mask, scores(obs), -np.inf).argmax(axis=1)
        obs, reward, done, _, info = env.step(actions)
        mask = info["action_mask"].astype(np.bool_)
        first = done & open_
        result[first] = reward[first]
        open_ &= ~done
    share = float(result.mean())
    low, high = wilson_interval(share * games, games)
    return Evaluation(share, low, high, games, 1.0 / env.games.players)
