"""*Setback*'s small configurations: two players on a short board with a short deck.

The engine shuffles the whole deck once (SB-1, SB-3): the board's cards, the hands, then the
draw pile in the order it is drawn, and it picks the first player. Views name cards by kind
(two ``MOVE+1`` cards cannot be told apart), so a deal is enumerated by kinds: every distinct
sequence of kinds the shuffle can give, with its exact probability, merged where the hands
(kept sorted) make them the same deal, times who goes first. A shuffle of the discards
(an empty draw pile, SB-3) would be chance after the deal: the game refuses a history that
reaches one (see :mod:`racedeck.rl.solvable.game`), so a small configuration's deck must be
long enough that none does.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import partial
from typing import Any

from racedeck.core.game import Game
from racedeck.games.setback.config import SetbackConfig
from racedeck.rl.solvable.configuration import SolvableConfig
from racedeck.rl.solvable.deals import Deal, ordered_by_value

__all__ = ["setback_deals"]

SEEDS = 1000
"""Engine seeds tried for a start with each player first (one in ``players`` has it)."""


def setback_deals(
    engine: Game[Any, Any, Any], board: tuple[tuple[str, ...], ...] | None = None
) -> list[Deal]:
    """Every deal of ``engine`` (Setback) by card kinds, each first player equally likely;
    with ``board`` (kinds row by row), only the deals that lay out that board, each with its
    probability given the board."""
    config = engine.config
    if not isinstance(config, SetbackConfig):
        raise ValueError(f"not a Setback game: {engine.spec.id}")
    names = [t.name for t in engine.types]  # type: ignore[attr-defined]
    ids: dict[str, list[int]] = {}
    for card, name in enumerate(names):
        ids.setdefault(name, []).append(card)
    kinds = Counter(names)
    lanes, rows, h, n = config.start_lanes, config.rows, config.hand_size, engine.num_players
    if board is not None:
        if len(board) != rows or any(len(r) != lanes for r in board):
            raise ValueError(f"the board must be {rows} row(s) of {lanes} cards, got {board}")
        kinds = kinds - Counter(k for r in board for k in r)
    order_of = sorted(kinds)
    # The engine pops from the end of the shuffled deck: the board row by row, then each
    # hand, and the rest is the draw pile, drawn from its end. Every order of the kinds is
    # enumerated as the order the cards are popped.
    merged: dict[tuple[Any, ...], Fraction] = {}
    for order, p in ordered_by_value(_coded(kinds), sum(kinds.values())):
        dealt = [*(k for r in board or () for k in r), *(order_of[k] for k in order)]
        laid_out = tuple(tuple(dealt[r * lanes : (r + 1) * lanes]) for r in range(rows))
        at = rows * lanes
        hands = tuple(tuple(sorted(dealt[at + q * h : at + (q + 1) * h])) for q in range(n))
        pile = tuple(dealt[at + n * h :])
        key = (laid_out, hands, pile)
        merged[key] = merged.get(key, Fraction(0)) + p
    # A start with each player first (the engine picks one at random, SB-3), to lay the
    # deal into.
    starts: dict[int, Any] = {}
    for seed in range(SEEDS):
        state = engine.new_initial_state(seed)
        starts.setdefault(state.current, state.to_json())
        if len(starts) == n:
            break
    deals = []
    for (laid_out, hands, pile), p in merged.items():
        free = {name: list(cards) for name, cards in ids.items()}
        grid = [[free[k].pop() for k in row] for row in laid_out]
        held = [sorted(free[k].pop() for k in hand) for hand in hands]
        draw = [free[k].pop() for k in pile][::-1]  # drawn from the end
        for first in range(n):
            state = engine.state_from_json(
                {**starts[first], "grid": grid, "hands": held, "draw": draw}
            )
            label = (
                f"board {' / '.join(' '.join(r) for r in laid_out)}; "
                + "; ".join(f"P{q + 1} {' '.join(hd)}" for q, hd in enumerate(hands))
                + f"; pile {' '.join(pile)}; P{first + 1} first"
            )
            deals.append(Deal(p / n, label, state))
    return deals


def _coded(kinds: Counter[str]) -> Counter[int]:
    """The deck as counts of kind numbers (kinds in name order), for the enumeration."""
    return Counter({i: kinds[k] for i, k in enumerate(sorted(kinds))})


CONFIGS: tuple[SolvableConfig, ...] = (
    SolvableConfig(
        name="setback-sprint",
        game_id="setback",
        options={
            "players": 2,
            "rows": 1,
            "hand_size": 2,
            "deck": (("MOVE+1", 9), ("MOVE+2", 1), ("BLOCK", 2)),
        },
        summary=(
            "Setback, two players, two lanes of one row, hands of two from a twelve-card deck "
            "(MOVE+1 x9, MOVE+2, BLOCK x2): two cards on the board, four in hand, six in the "
            "draw pile"
        ),
        restriction=(
            "the board is fixed to two MOVE+1 cards (public anyway, SB-1); the hands, the "
            "draw pile's order and the first player are dealt as the engine deals them given "
            "that board. The draw pile is long enough that no history reshuffles the "
            "discards (SB-3), which would be chance after the deal"
        ),
        deal=partial(setback_deals, board=(("MOVE+1", "MOVE+1"),)),
        iterations=100,
    ),
)
"""This game's named small configurations (its ``solvable`` plugin)."""
