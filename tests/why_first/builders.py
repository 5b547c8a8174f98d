"""Builders of exact *Why First?* situations, shared by the rule tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from racedeck.core.events import Event
from racedeck.games.why_first import DEFAULT_CARD_VALUES, WhyFirst, WhyFirstState


def card(value: int, nth: int = 0) -> int:
    """The ``nth`` highest white number among the cards of ``value`` (WF-2 table)."""
    numbers = [i + 1 for i, v in enumerate(DEFAULT_CARD_VALUES) if v == value]
    return sorted(numbers, reverse=True)[nth]


def build(
    game: WhyFirst,
    *,
    positions: Sequence[int],
    hands: Sequence[Iterable[int]],
    round_: int = 0,
    stage: int = 0,
    leo_cards: Sequence[int] = (),
    totals: Sequence[int] | None = None,
) -> WhyFirstState:
    """A state at the start of card round ``round_`` (0-based) with exactly these facts."""
    s = game.new_initial_state(0)
    s.positions = list(positions)
    s.hands = [sorted(h) for h in hands]
    s.leo_cards = list(leo_cards)
    s.round = round_
    s.stage = stage
    if totals is not None:
        s.totals = list(totals)
    s.commits = [None] * game.num_players
    s.phase = "commit"
    s.pending = tuple(range(game.num_players))
    s.move_queue = []
    s.last_reveal = []
    return s


def step(
    game: WhyFirst, state: WhyFirstState, seat: Any, action: Any
) -> tuple[WhyFirstState, tuple[Event, ...]]:
    """The checked path (``Game.step``): the new state and the transition's events."""
    transition = game.step(state, seat, action)
    return transition.state, transition.events
