"""Bots playing any registered game through the table driver, through views only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from racedeck.bots.base import Bot
from racedeck.bots.registry import make_bot
from racedeck.core.events import Event
from racedeck.core.game import Game, Transition
from racedeck.core.outcome import Outcome
from racedeck.core.record import GameRecord
from racedeck.core.rng import derive_seed
from racedeck.core.table import Table, run

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
    """Play a whole game on a :class:`~racedeck.core.table.Table`: every pending seat's bot gets
    its own view and acts (checked path), forced decisions are taken by the table.

    ``observer``, if given, is called with the events of the deal and of every transition (all
    of them, whoever may see them: reports measure the whole game) and the state they led to.
    """
    table = Table(game, seed, meta={"bots": [b.name for b in bots]})

    def follow(table: Table, transition: Transition[Any] | None) -> None:
        assert observer is not None
        events = table.history[0][1] if transition is None else transition.events
        observer(events, table.state)

    decisions = run(
        table, bots, observer=follow if observer is not None else None, max_decisions=max_decisions
    )
    outcome = game.outcome(table.state)
    assert outcome is not None
    return GameResult(table.record, outcome, decisions, table.state)
