"""One loop that plays any registered game with bots, through views only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from racedeck.bots.base import Bot
from racedeck.bots.registry import make_bot
from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.core.outcome import Outcome
from racedeck.core.record import GameRecord, Session
from racedeck.core.rng import derive_seed

__all__ = ["GameResult", "make_bots", "play_game"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: its record, its outcome, how many decisions it took and its last state."""

    record: GameRecord
    outcome: Outcome
    decisions: int
    state: Any


def make_bots(game: Game[Any, Any, Any], names: Sequence[str], seed: int) -> list[Bot]:
    """One bot per seat from ``names``, each seeded from ``seed`` and its seat."""
    if len(names) != game.num_players:
        raise ValueError(f"{game.num_players} seats need {game.num_players} bots, got {len(names)}")
    return [make_bot(name, game, seat, derive_seed(seed, seat)) for seat, name in enumerate(names)]


def play_game(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    seed: int,
    max_decisions: int = 1_000_000,
    observer: Callable[[tuple[Event, ...], Any], None] | None = None,
) -> GameResult:
    """Play a whole game: every pending seat's bot gets its own view and acts (checked path).

    Seats of a simultaneous commit act one after another, which is safe because a seat's view
    never shows another seat's uncommitted choice. ``observer``, if given, is called with the
    events of the deal and of every action, and the state they led to.
    """
    session = Session(game, seed, meta={"bots": [b.name for b in bots]})
    if observer is not None:
        observer(session.initial_events, session.state)
    decisions = 0
    while not session.state.is_terminal:
        pending = session.state.pending
        if not pending:
            raise RuntimeError("the game is not over but no seat is pending")
        for seat in pending:
            if seat not in session.state.pending:
                continue  # an earlier answer changed who is asked (a reaction window)
            view = game.observe(session.state, seat)
            events = session.apply(seat, bots[seat].act(view))
            if observer is not None:
                observer(events, session.state)
            decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
    outcome = game.outcome(session.state)
    assert outcome is not None
    return GameResult(session.record, outcome, decisions, session.state)
