"""What a joint policy teaches about *Why First?*: how often each seat's figure ends on the
scoring space (the second distinct space, WF-6), who wins (the second-best total, WF-7, Leo
included, WF-9) and where the seats place their cards (WF-4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racedeck.games.why_first.scoring import scoring_space
from racedeck.rl.solvable.analysis import walk
from racedeck.rl.solvable.game import SolvableGame, SolvableState

__all__ = ["DuelLessons", "duel_columns", "duel_lessons"]


@dataclass(frozen=True)
class DuelLessons:
    """How a joint policy plays a one-stage two-player game, each number a probability
    (deal and both seats' play weighted), per seat."""

    wins: tuple[float, ...]
    """Each seat's expected share of the win (Leo's is the rest)."""
    leo_wins: float
    """The chance that Leo is among the winners (WF-9)."""
    on_scoring_space: tuple[float, ...]
    """The chance that the seat's figure ends on the stage's scoring space, the second
    distinct space (WF-6)."""
    scores_positive: tuple[float, ...]
    """The chance that it ends there and the space is above 0 (it scores points)."""
    scores_negative: tuple[float, ...]
    """The chance that it ends there and the space is below 0 (it loses points)."""
    targets: tuple[dict[str, float], ...]
    """Where the seat's chosen cards go (``self``, ``opponent``, ``Leo``), as shares of its
    decisions; the automatic last round (WF-5) is not a decision and is left out."""
    plus_on_self: tuple[float, ...]
    """The share of the seat's decisions that place a plus card on its own figure."""


def duel_lessons(game: SolvableGame, joint: Any) -> DuelLessons:
    """What ``joint`` does on ``game`` (a configuration of :func:`why_first_deals`)."""
    engine = game.engine
    n = engine.num_players
    wins = [0.0] * n
    leo = [0.0]
    on = [0.0] * n
    pos = [0.0] * n
    neg = [0.0] * n
    mass = [0.0] * n
    targets: list[dict[str, float]] = [{"self": 0.0, "opponent": 0.0, "Leo": 0.0} for _ in range(n)]
    plus_self = [0.0] * n

    def decision(state: SolvableState, seat: int, probs: dict[int, float], reach: float) -> None:
        for action, p in probs.items():
            w = reach * p
            if w <= 0:
                continue
            placed = game.encoding.action(action)
            where = "self" if placed.target == seat else "Leo" if placed.target == n else "opponent"
            targets[seat][where] += w
            mass[seat] += w
            if placed.target == seat and placed.value > 0:
                plus_self[seat] += w

    def terminal(state: SolvableState, reach: float) -> None:
        s = state.engine_state
        space = scoring_space(s.positions)
        outcome = engine.outcome(s)
        assert outcome is not None  # a terminal state has one
        share = 1.0 / len(outcome.winners)
        if n in outcome.winners:
            leo[0] += reach
        for seat in range(n):
            if seat in outcome.winners:
                wins[seat] += reach * share
            if space is not None and s.positions[seat] == space:
                on[seat] += reach
                if space > 0:
                    pos[seat] += reach
                elif space < 0:
                    neg[seat] += reach

    walk(game, joint, decision, terminal)
    return DuelLessons(
        wins=tuple(wins),
        leo_wins=leo[0],
        on_scoring_space=tuple(on),
        scores_positive=tuple(pos),
        scores_negative=tuple(neg),
        targets=tuple({k: v / mass[i] for k, v in t.items()} for i, t in enumerate(targets)),
        plus_on_self=tuple(plus_self[i] / mass[i] for i in range(n)),
    )


def duel_columns(game: SolvableGame, joint: Any) -> dict[str, tuple[float, ...]]:
    """:func:`duel_lessons` as named columns, each a probability per seat (P1, P2) or one."""
    found = duel_lessons(game, joint)
    return {
        "win share": found.wins,
        "Leo wins": (found.leo_wins,),
        "on the scoring space": found.on_scoring_space,
        "scores +": found.scores_positive,
        "scores −": found.scores_negative,
        "cards on self": tuple(t["self"] for t in found.targets),
        "on the opponent": tuple(t["opponent"] for t in found.targets),
        "on Leo": tuple(t["Leo"] for t in found.targets),
        "plus card on self": found.plus_on_self,
    }
