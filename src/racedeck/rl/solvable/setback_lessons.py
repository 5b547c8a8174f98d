"""What a joint policy teaches about *Setback*: how much going first is worth (SB-3), how
often a seat holding a BLOCK plays it when a window asks it (SB-9), and which card it plays
from hand."""

from __future__ import annotations

from typing import Any

from racedeck.games.setback.actions import Block, Play
from racedeck.games.setback.state import HAND
from racedeck.rl.solvable.analysis import walk
from racedeck.rl.solvable.game import SolvableGame, SolvableState

__all__ = ["setback_columns"]


def setback_columns(game: SolvableGame, joint: Any) -> dict[str, tuple[float, ...]]:
    """Named probabilities of ``joint`` on ``game`` (a configuration of
    :func:`~racedeck.rl.solvable.setback.setback_deals`)."""
    engine = game.engine
    n = engine.num_players
    wins = [0.0] * n
    first_mover = [0.0]
    blocks = [0.0, 0.0]  # weight of BLOCK answers, of windows where one could be played
    plays: dict[str, float] = {}

    def decision(state: SolvableState, seat: int, probs: dict[int, float], reach: float) -> None:
        actions = {a: game.encoding.action(a) for a in probs}
        if any(isinstance(x, Block) for x in actions.values()):
            blocks[1] += reach
            blocks[0] += reach * sum(p for a, p in probs.items() if isinstance(actions[a], Block))
        elif state.engine_state.phase == HAND:
            for a, p in probs.items():
                played = actions[a]
                if isinstance(played, Play):
                    name = played.card.name
                    plays[name] = plays.get(name, 0.0) + reach * p

    def terminal(state: SolvableState, reach: float) -> None:
        outcome = engine.outcome(state.engine_state)
        assert outcome is not None  # a terminal state has one
        share = 1.0 / len(outcome.winners)
        assert state.deal is not None  # an end comes after the deal
        first = state.deal.state.current  # the engine's first player (SB-3)
        for seat in outcome.winners:
            wins[seat] += reach * share
            if seat == first:
                first_mover[0] += reach * share

    walk(game, joint, decision, terminal)
    total = sum(plays.values())
    columns: dict[str, tuple[float, ...]] = {
        "win share": tuple(wins),
        "first mover's win share": (first_mover[0],),
        "blocks when able": (blocks[0] / blocks[1] if blocks[1] else 0.0,),
    }
    for name in sorted(plays):
        columns[f"plays {name}"] = (plays[name] / total,)
    return columns
