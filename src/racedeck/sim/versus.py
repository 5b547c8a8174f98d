"""Head to head: one bot against another on the same deals, with every side in every seat.

Our bot sits in every other seat (seats 0 and 2 of four, then 1 and 3; with an odd number of
players in one seat), in every rotation, and every deal is played once under every seating, so
both sides get the same cards from the same seats. A game scores our seats' shares of the win;
the mean over games comes with a Wilson 95% interval, and each side's wall time per decision is
measured where it had a choice.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from racedeck.bots.base import Bot
from racedeck.bots.registry import make_bot
from racedeck.core.outcome import Outcome
from racedeck.core.registry import make
from racedeck.core.rng import derive_seed
from racedeck.sim.play import make_bots, play_game
from racedeck.sim.runner import GameJob, game_for, run_jobs
from racedeck.sim.stats import Share

__all__ = ["TimedBot", "VersusResult", "head_to_head", "seatings", "side_share"]


def seatings(players: int) -> tuple[tuple[int, ...], ...]:
    """Our seats in each seating: every other seat in every rotation (4 players: ``(0, 2)``
    then ``(1, 3)``); with an odd number of players one seat, each in turn (3 players:
    ``(0,)``, ``(1,)``, ``(2,)``), the other side holding the rest."""
    if players < 2:
        raise ValueError(f"a head to head needs at least two seats, got {players}")
    base = tuple(range(0, players, 2)) if players % 2 == 0 else (0,)
    out: list[tuple[int, ...]] = []
    for k in range(players):
        seats = tuple(sorted((s + k) % players for s in base))
        if seats not in out:
            out.append(seats)
    return tuple(out)


def side_share(outcome: Outcome, ours: Sequence[int], players: int) -> float:
    """Our seats' share of the win in one game: a win shared by ``k`` is worth ``1/k``.

    A win taken by a contestant the engine plays (Leo in two-player *Why First?*) beat both
    sides alike, so it counts as a draw between the seats, split in proportion to their number;
    so does a game nobody won. The two sides' shares always add up to 1.
    """
    winners = outcome.winners
    draw = len(ours) / players
    if not winners:
        return draw
    each = 1.0 / len(winners)
    mine = sum(each for seat in ours if seat in winners)
    engine = sum(each for w in winners if w >= players)
    return mine + engine * draw


class TimedBot(Bot):
    """A bot that measures its own wall time per decision where it had a choice.

    Decisions with a single legal action cost nothing worth measuring and would only dilute the
    mean, so they are not counted. ``last_iterations`` of a searching bot is summed too.
    """

    def __init__(self, inner: Bot, clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(inner.game, inner.seat, inner.seed)
        self.inner = inner
        self.name = inner.name
        self.clock = clock
        self.times: list[float] = []
        """Wall seconds of each counted decision, in order."""
        self.iterations: int | None = None
        """Iterations summed over the counted decisions, for bots that report them."""

    def act(self, view: Any) -> Any:
        """Let the wrapped bot act, timing it."""
        started = self.clock()
        action = self.inner.act(view)
        elapsed = self.clock() - started
        if len(view.legal_actions) > 1:
            self.times.append(elapsed)
            ran = getattr(self.inner, "last_iterations", None)
            if isinstance(ran, int):
                self.iterations = (self.iterations or 0) + ran
        return action


@dataclass(frozen=True, slots=True)
class _Side:
    """One side's cost in one game (or summed over games)."""

    decisions: int = 0
    seconds: float = 0.0
    iterations: int | None = None

    def __add__(self, other: _Side) -> _Side:
        its = None
        if self.iterations is not None or other.iterations is not None:
            its = (self.iterations or 0) + (other.iterations or 0)
        return _Side(self.decisions + other.decisions, self.seconds + other.seconds, its)

    @classmethod
    def of(cls, bots: Sequence[TimedBot]) -> _Side:
        total = cls()
        for bot in bots:
            total += cls(len(bot.times), sum(bot.times), bot.iterations)
        return total

    @property
    def seconds_per_decision(self) -> float:
        return self.seconds / self.decisions if self.decisions else 0.0

    @property
    def iterations_per_decision(self) -> float | None:
        if self.iterations is None:
            return None
        return self.iterations / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class _Played:
    share: float
    ours: _Side
    theirs: _Side
    ours_score: float
    theirs_score: float


def _play(plans: tuple[tuple[int, ...], ...], job: GameJob) -> _Played:
    """Play ``job`` (its seating is ``plans[job.index % len(plans)]``), timing both sides."""
    game = game_for(job)
    ours = plans[job.index % len(plans)]
    # Bots seeded as the runner's own games seed them, so a lineup replays as a plain job.
    bots = [TimedBot(b) for b in make_bots(game, job.bots, derive_seed(job.seed, 1))]
    result = play_game(game, bots, job.seed)
    mine = [b for b in bots if b.seat in ours]
    others = [b for b in bots if b.seat not in ours]
    share = side_share(result.outcome, ours, game.num_players)
    scores = result.outcome.scores
    theirs = [s for s in range(game.num_players) if s not in ours]
    return _Played(
        share,
        _Side.of(mine),
        _Side.of(others),
        sum(scores[s] for s in ours) / len(ours),
        sum(scores[s] for s in theirs) / len(theirs),
    )


@dataclass(frozen=True, slots=True)
class VersusResult:
    """How ``ours`` fared against ``theirs``: our side's mean share of the win with its Wilson
    95% interval, the share equal play gives (``fair``), and each side's cost.

    ``share`` lies in ``[0, 1]``; the other side's is ``1 - share``. The timings are wall time
    and differ between runs, so they take no part in equality.
    """

    game: str
    config: dict[str, Any]
    ours: str
    theirs: str
    players: int
    deals: int
    seed: int
    seatings: tuple[tuple[int, ...], ...]
    share: float
    low: float
    high: float
    games: int
    fair: float
    ours_decisions: int
    theirs_decisions: int
    ours_score: float
    """Our seats' mean final score, over seats and games: the outcome's scores (Why First?'s
    totals — a high total is not a win, WF-8 —, Six Day Race's points, Setback's progress)."""
    theirs_score: float
    ours_seconds_per_decision: float = field(compare=False)
    theirs_seconds_per_decision: float = field(compare=False)
    ours_iterations_per_decision: float | None = field(default=None, compare=False)
    """Search iterations per decision, for a bot that reports them (``last_iterations``)."""
    theirs_iterations_per_decision: float | None = field(default=None, compare=False)

    @property
    def time_ratio(self) -> float:
        """Our time per decision over theirs (infinite when theirs took no measurable time)."""
        if self.theirs_seconds_per_decision > 0:
            return self.ours_seconds_per_decision / self.theirs_seconds_per_decision
        return float("inf") if self.ours_seconds_per_decision > 0 else 1.0

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        ratio = self.time_ratio
        return {
            "game": self.game,
            "config": self.config,
            "ours": self.ours,
            "theirs": self.theirs,
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "seatings": [list(s) for s in self.seatings],
            "games": self.games,
            "share": self.share,
            "ci95": [self.low, self.high],
            "fair": self.fair,
            "ours_decisions": self.ours_decisions,
            "theirs_decisions": self.theirs_decisions,
            "ours_score": self.ours_score,
            "theirs_score": self.theirs_score,
            "ours_seconds_per_decision": self.ours_seconds_per_decision,
            "theirs_seconds_per_decision": self.theirs_seconds_per_decision,
            "ours_iterations_per_decision": self.ours_iterations_per_decision,
            "theirs_iterations_per_decision": self.theirs_iterations_per_decision,
            # JSON has no infinity: a ratio over nothing is left out.
            "time_ratio": ratio if ratio != float("inf") else None,
        }


def head_to_head(
    game_id: str,
    config: dict[str, Any],
    ours: str,
    theirs: str,
    deals: int,
    seed: int = 1,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> VersusResult:
    """Play ``ours`` against ``theirs`` (bot names for ``make_bot``) on ``deals`` deals of
    ``game_id``, each deal once under every seating of :func:`seatings`.

    Deal ``d`` has engine seed ``derive_seed(seed, d)`` under every seating. A game scores our
    seats' share of the win (:func:`side_share`); equal play scores our share of the seats,
    ``fair``: one half with an even number of players, ``1/players`` with an odd number (our
    bot holds one seat, theirs the rest). ``share`` is the mean over games, with the Wilson 95%
    interval of a proportion over ``games`` trials.

    Games run on ``workers`` processes (``None``: every core; ``1``: in this process) through
    :func:`~racedeck.sim.runner.run_jobs`; the shares do not depend on how many. ``progress``
    is called with 1 as each game finishes. Raises :class:`ValueError` for an unusable game,
    configuration, bot or count.
    """
    if deals < 1:
        raise ValueError(f"deals must be at least 1, got {deals}")
    game = make(game_id, **config)
    for name in (ours, theirs):
        make_bot(name, game, 0, 0)  # an unknown bot fails here, before anything is played
    players = game.num_players
    plans = seatings(players)
    jobs = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, deal)
        for k, seats in enumerate(plans):
            lineup = tuple(ours if s in seats else theirs for s in range(players))
            jobs.append(GameJob(deal * len(plans) + k, game_id, dict(config), lineup, deal_seed))

    def delivered(_job: GameJob, _played: _Played) -> None:
        if progress is not None:
            progress(1)

    task = functools.partial(_play, plans)
    results = run_jobs(jobs, task, workers=workers, on_result=delivered)
    played = [results[i] for i in sorted(results)]
    total = sum(p.share for p in played)
    share = Share.of(total, len(played))
    mine = sum((p.ours for p in played), _Side())
    others = sum((p.theirs for p in played), _Side())
    return VersusResult(
        game=game_id,
        config=dict(config),
        ours=ours,
        theirs=theirs,
        players=players,
        deals=deals,
        seed=seed,
        seatings=plans,
        share=share.value,
        low=share.low,
        high=share.high,
        games=len(played),
        fair=len(plans[0]) / players,
        ours_decisions=mine.decisions,
        theirs_decisions=others.decisions,
        ours_score=sum(p.ours_score for p in played) / len(played),
        theirs_score=sum(p.theirs_score for p in played) / len(played),
        ours_seconds_per_decision=mine.seconds_per_decision,
        theirs_seconds_per_decision=others.seconds_per_decision,
        ours_iterations_per_decision=mine.iterations_per_decision,
        theirs_iterations_per_decision=others.iterations_per_decision,
    )
