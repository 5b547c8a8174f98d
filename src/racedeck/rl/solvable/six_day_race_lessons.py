"""What a joint policy teaches about *Six Day Race*: how much going first is worth (SD-4),
and which card a rider opens with."""

from __future__ import annotations

from typing import Any

from racedeck.rl.solvable.analysis import walk
from racedeck.rl.solvable.game import SolvableGame, SolvableState

__all__ = ["race_columns"]


def race_columns(game: SolvableGame, joint: Any) -> dict[str, tuple[float, ...]]:
    """Named probabilities of ``joint`` on ``game`` (a configuration of
    :func:`~racedeck.rl.solvable.six_day_race.first_player_deals`): each seat's win share,
    the share of the player who went first, and how often a rider's first card is each value
    of its hand."""
    engine = game.engine
    n = engine.num_players
    wins = [0.0] * n
    first_mover = [0.0]
    openings: dict[int, float] = {}
    full = len(engine.new_initial_state(0).hands[0])

    def decision(state: SolvableState, seat: int, probs: dict[int, float], reach: float) -> None:
        s = state.engine_state
        if len(s.hands[s.current]) != full:
            return
        for action, p in probs.items():
            value = game.encoding.action(action).value
            openings[value] = openings.get(value, 0.0) + reach * p

    def terminal(state: SolvableState, reach: float) -> None:
        s = state.engine_state
        outcome = engine.outcome(s)
        assert outcome is not None  # a terminal state has one
        share = 1.0 / len(outcome.winners)
        first = s.order[0] % n  # the order is the race's, kept to the end
        for seat in outcome.winners:
            wins[seat] += reach * share
            if seat == first:
                first_mover[0] += reach * share

    walk(game, joint, decision, terminal)
    total = sum(openings.values())
    columns: dict[str, tuple[float, ...]] = {
        "win share": tuple(wins),
        "first mover's win share": (first_mover[0],),
    }
    for value in sorted(openings):
        columns[f"opens with {value}"] = (openings[value] / total,)
    return columns
