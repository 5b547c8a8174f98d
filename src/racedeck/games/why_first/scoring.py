"""Stage scoring (WF-6) and the winner of the game (WF-7, WF-8)."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.outcome import competition_ranks

__all__ = ["clamp", "final_ranks", "scoring_space", "stage_points", "winners"]


def clamp(position: int, low: int, high: int) -> int:
    """Keep a position on the track (WF-1, applied once per net move: WF-4, WF-10)."""
    return low if position < low else high if position > high else position


def scoring_space(positions: Sequence[int]) -> int | None:
    """WF-6: the second farthest *distinct* occupied space, or ``None`` if all share one."""
    first = max(positions)
    below = [p for p in positions if p < first]
    return max(below) if below else None


def stage_points(positions: Sequence[int]) -> list[int]:
    """WF-6: points of every figure for a stage ending on ``positions``."""
    space = scoring_space(positions)
    if space is None:
        return [0] * len(positions)
    return [space if p == space else 0 for p in positions]


def winners(totals: Sequence[float]) -> frozenset[int]:
    """WF-7: everyone whose total equals the second-highest distinct total wins.

    If all totals are equal, everyone shares the win.
    """
    distinct = sorted(set(totals), reverse=True)
    target = distinct[1] if len(distinct) > 1 else distinct[0]
    return frozenset(i for i, t in enumerate(totals) if t == target)


def final_ranks(totals: Sequence[float]) -> tuple[int, ...]:
    """WF-8: finishing order by total under "second wins".

    The winners (second-highest total) rank 1, the highest total ranks next (it was closest to
    winning from above), then the remaining totals in descending order; ties share a rank.
    """
    distinct = sorted(set(totals), reverse=True)
    if len(distinct) == 1:
        return tuple(1 for _ in totals)
    order = [distinct[1], distinct[0], *distinct[2:]]
    place = {total: i for i, total in enumerate(order)}
    return competition_ranks([place[t] for t in totals])
