"""Playing the section's games: the learned policy in one seat against a field of bots, and
the same deals played by the field alone, watching the seat's decisions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from racedeck.bots.base import Bot
from racedeck.bots.learned import has_learned, learned_bot
from racedeck.bots.policy import MLPPolicy, PolicyBot
from racedeck.bots.registry import POLICY_PREFIX, available_bots, make_bot
from racedeck.core.game import Game
from racedeck.core.registry import make
from racedeck.core.rng import derive_seed
from racedeck.plugins import plugin
from racedeck.report.batches import batch_seed
from racedeck.report.lessons.base import GameLesson, LessonGames, SeatGame
from racedeck.sim.play import play_game

__all__ = ["LESSONS", "field_bot", "learned_policy", "play_lessons", "policy_of"]

LESSONS = "learned"
"""The key of the section's games: their seeds are the report seed's for this key."""


def field_bot(game_id: str) -> str:
    """The bot the learned policy plays against: the game's heuristic, else random."""
    return "heuristic" if "heuristic" in available_bots(game_id) else "random"


def learned_policy(game_id: str, config: dict[str, Any], path: Path | None) -> str | None:
    """The bot name of the policy the section studies: ``policy:PATH`` for a saved policy,
    else ``learned`` when a shipped policy fits the configuration, else ``None``."""
    if path is not None:
        return f"{POLICY_PREFIX}{path}"
    if not has_learned(game_id):
        return None
    try:
        learned_bot(make(game_id, **config), 0, 0)
    except ValueError:  # policies ship for other player counts only
        return None
    return "learned"


def policy_of(name: str, game: Game[Any, Any, Any]) -> MLPPolicy:
    """The network behind the bot ``name`` (``policy:PATH`` or ``learned``);
    :class:`ValueError` when the name plays no saved network."""
    bot = make_bot(name, game, 0, 0)
    if not isinstance(bot, PolicyBot) or not isinstance(bot.policy, MLPPolicy):
        raise ValueError(f"{name!r} is not a learned policy")
    return bot.policy


def _relative_names(seats: int, seat: int) -> list[str]:
    """Seat names as the seat itself sees them: at a first decision, who the others are
    matters less than whether a choice helps or hinders oneself."""
    return ["itself" if s == seat else "another player" for s in range(seats)]


class _Watched(Bot):
    """A bot whose decisions are written down: its first choice in words and, for a policy
    with a value head, its value estimate at every decision."""

    def __init__(self, inner: Bot, value: Callable[[Any], float] | None) -> None:
        super().__init__(inner.game, inner.seat, inner.seed)
        self.inner = inner
        self.name = inner.name
        self._value = value
        self._names = _relative_names(inner.game.num_players, inner.seat)
        self.first: str | None = None
        self.values: list[float] = []

    def act(self, view: Any) -> Any:
        """The inner bot's action, noted."""
        action = self.inner.act(view)
        if self.first is None and len(view.legal_actions) > 1:
            self.first = self.game.describe_action(action, self._names)
        if self._value is not None:
            self.values.append(self._value(view))
        return action


def _estimator(policy: MLPPolicy, game: Game[Any, Any, Any]) -> Callable[[Any], float]:
    encode = plugin(game.spec.id, "observation").observer(game).encode

    def value(view: Any) -> float:
        observation = encode(view)[None, :].astype(np.float32, copy=False)
        return float(policy.values(observation)[0])

    return value


def _play(
    game: Game[Any, Any, Any],
    lineup: list[str],
    seat: int,
    seed: int,
    value: Callable[[Any], float] | None,
    lesson: GameLesson | None,
) -> SeatGame:
    """One game; what ``seat`` did in it."""
    bots: list[Bot] = [
        make_bot(name, game, s, derive_seed(seed, s)) for s, name in enumerate(lineup)
    ]
    watched = _Watched(bots[seat], value)
    bots[seat] = watched
    collector = lesson.collector(game) if lesson is not None else None
    result = play_game(
        game, bots, seed, observer=collector.observe if collector is not None else None
    )
    winners = result.outcome.winners
    credit = 1 / len(winners) if seat in winners else 0.0
    extra = collector.finish()[seat] if collector is not None else None
    return SeatGame(seat, watched.first, tuple(watched.values), credit, extra)


def play_lessons(
    game_id: str,
    config: dict[str, Any],
    policy: str,
    games: int,
    seed: int,
    lesson: GameLesson | None = None,
    on_game: Callable[[int], None] | None = None,
) -> LessonGames:
    """Play ``games`` deals twice: the bot ``policy`` in seat ``i mod seats`` of deal ``i``
    against field bots, then field bots alone; ``on_game(1)`` after each deal.

    Every seat's bot is seeded as in a batch (from the deal's seed and the seat), so up to the
    learned seat's first decision both games are the same: the two first choices answer one
    situation.
    """
    game = make(game_id, **config)
    network = policy_of(policy, game)
    value = _estimator(network, game) if network.value_head else None
    field = field_bot(game_id)
    seats = game.num_players
    base = batch_seed(seed, LESSONS)
    learned, fielded = [], []
    for i in range(games):
        seat = i % seats
        deal = derive_seed(base, i)
        lineup = [field] * seats
        fielded.append(_play(game, lineup, seat, deal, None, lesson))
        lineup[seat] = policy
        learned.append(_play(game, lineup, seat, deal, value, lesson))
        if on_game is not None:
            on_game(1)
    return LessonGames(
        game_id=game_id,
        config=dict(config),
        policy=policy,
        field=field,
        value_head=network.value_head,
        seats=seats,
        contestants=len(game.contestant_names()),
        learned=tuple(learned),
        field_games=tuple(fielded),
    )
