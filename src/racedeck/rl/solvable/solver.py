"""Solving a small configuration with OpenSpiel's CFR+, keeping its NashConv as it goes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from open_spiel.python.algorithms import cfr

from racedeck.rl.solvable.game import SolvableGame
from racedeck.rl.solvable.policies import Gap, gap

__all__ = ["Solution", "solve"]


@dataclass(frozen=True)
class Solution:
    """CFR+'s average policy after some iterations, and how it got there."""

    policy: Any
    """The average policy (an OpenSpiel ``TabularPolicy`` over the information states)."""
    iterations: int
    """CFR+ iterations run."""
    curve: tuple[tuple[int, Gap], ...]
    """NashConv of the average policy after each checkpoint's number of iterations."""

    @property
    def gap(self) -> Gap:
        """How far the final average policy is from an equilibrium."""
        return self.curve[-1][1]


def solve(
    game: SolvableGame,
    checkpoints: Iterable[int],
    on_checkpoint: Callable[[int, Gap], None] | None = None,
) -> Solution:
    """Run CFR+ on ``game`` up to the largest of ``checkpoints`` iterations, measuring the
    average policy's NashConv exactly at each (``on_checkpoint`` hears of each)."""
    marks = sorted(set(checkpoints))
    if not marks or marks[0] < 1:
        raise ValueError("checkpoints must be positive iteration counts")
    solver = cfr.CFRPlusSolver(game)
    curve = []
    done = 0
    for mark in marks:
        while done < mark:
            solver.evaluate_and_update_policy()
            done += 1
        found = gap(game, solver.average_policy())
        curve.append((mark, found))
        if on_checkpoint is not None:
            on_checkpoint(mark, found)
    return Solution(solver.average_policy(), done, tuple(curve))
