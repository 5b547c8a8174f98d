"""What the whole-game kernels' Python faces share: policy names, the seeds of a batch, the
scripted choices' check and the win shares (:mod:`racedeck.kernels.why_first`,
:mod:`racedeck.kernels.six_day_race`, :mod:`racedeck.kernels.setback`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "HEURISTIC",
    "POLICIES",
    "RANDOM",
    "batch_seeds",
    "policy_codes",
    "script_of",
    "win_shares",
]

RANDOM = 0
"""Policy code: an index uniform among the legal actions."""
HEURISTIC = 1
"""Policy code: the game's heuristic bot's choice."""
POLICIES = {"random": RANDOM, "heuristic": HEURISTIC}
"""Policy names the kernels accept, and their codes."""

_MASK64 = (1 << 64) - 1


def batch_seeds(
    games: int | Sequence[int] | NDArray[np.uint64],
    seed: int,
    derived: Callable[[int, int], NDArray[np.uint64]],
) -> NDArray[np.uint64]:
    """The deal seeds of a batch: ``derived(games, seed)`` (``derive_seed(seed, i)`` for each
    game, as :func:`racedeck.sim.simulate.simulate` deals) for a number of games, else the
    seeds given, kept to 64 bits as ``Rng(seed)`` keeps them."""
    if isinstance(games, int):
        if games < 0:
            raise ValueError(f"games must be 0 or more, not {games}")
        return derived(games, seed)
    if isinstance(games, np.ndarray):
        return games.astype(np.uint64)
    return np.array([s & _MASK64 for s in games], dtype=np.uint64)


def policy_codes(policies: str | Sequence[str], players: int) -> NDArray[np.int64]:
    """The code of every seat's policy: one name for all, or one per seat (:data:`POLICIES`);
    :class:`ValueError` naming what is wrong otherwise."""
    names = [policies] * players if isinstance(policies, str) else list(policies)
    if len(names) != players:
        raise ValueError(
            f"policies must name one policy or one per seat ({players}), not {len(names)}"
        )
    unknown = [p for p in names if p not in POLICIES]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]} (allowed: {', '.join(sorted(POLICIES))})")
    return np.array([POLICIES[p] for p in names], dtype=np.int64)


def script_of(choices: NDArray[np.uint32] | None, games: int, columns: int) -> NDArray[np.uint32]:
    """Scripted choices as the compiled loops take them (one empty row when there are none);
    :class:`ValueError` unless there is a row per game and at least ``columns`` columns."""
    if choices is None:
        return np.zeros((1, 1), dtype=np.uint32)
    script = np.ascontiguousarray(choices, dtype=np.uint32)
    if script.shape[0] != games or script.shape[1] < columns:
        raise ValueError(
            f"choices must have one row per game ({games}) and at least "
            f"{columns} columns, not shape {script.shape}"
        )
    return script


def win_shares(winners: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Each seat's share of the wins over games × seats ``winners``, a shared win split equally
    (as the engine's simulation summaries count them)."""
    w = winners.astype(np.float64)
    shares: NDArray[np.float64] = (w / w.sum(axis=1, keepdims=True)).mean(axis=0)
    return shares
