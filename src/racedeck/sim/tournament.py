"""Round-robin tournaments between bots: schedule with seat rotation, play, rate, summarise.

Game ``i`` of a tournament is fully defined by the tournament's parameters and ``i``: it seats
``schedule[i % len(schedule)]`` and uses seed ``derive_seed(seed, i)``. So any subset of games
can be played in any order, on any machine, and a stopped tournament resumes exactly by
playing the indices still missing. Results are computed from the games in index order and do
not depend on how they were played.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from racedeck.bots.registry import make_bot
from racedeck.core.outcome import Outcome
from racedeck.core.registry import get_spec, make
from racedeck.core.rng import derive_seed
from racedeck.sim.ratings import Rating, rate_games
from racedeck.sim.runner import GameJob, PlayedGame, play_job, run_jobs
from racedeck.sim.stats import Share

__all__ = [
    "BotStanding",
    "SeatShare",
    "Tournament",
    "TournamentResult",
    "play_tournament",
    "round_robin",
    "summarise",
]


def _rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The distinct cyclic rotations of ``lineup``, starting with itself."""
    out: list[tuple[str, ...]] = []
    for r in range(len(lineup)):
        rotated = lineup[r:] + lineup[:r]
        if rotated not in out:
            out.append(rotated)
    return out


def round_robin(bots: Sequence[str], players: int) -> tuple[tuple[str, ...], ...]:
    """The seatings of a round robin of ``players``-seat games between ``bots``.

    Every multiset of ``players`` bots (``combinations_with_replacement``, in the order of
    ``bots``) that holds at least two different bots — any, when there is only one bot — in
    each of its distinct seat rotations. Over the whole schedule each bot holds every seat
    equally often, so no bot profits from a seat's advantage.
    """
    if players < 1:
        raise ValueError("a game needs at least one seat")
    if not bots:
        raise ValueError("a tournament needs at least one bot")
    if len(set(bots)) != len(bots):
        raise ValueError(f"bots must be different, got {', '.join(bots)}")
    schedule: list[tuple[str, ...]] = []
    for lineup in itertools.combinations_with_replacement(bots, players):
        if len(bots) >= 2 and len(set(lineup)) < 2:
            continue  # a bot alone against itself tells nothing about the others
        schedule.extend(_rotations(lineup))
    return tuple(schedule)


@dataclass(frozen=True, slots=True)
class Tournament:
    """The parameters of a tournament; everything else follows from them.

    ``config`` is the game's complete configuration (every option, ``players`` included), so
    two spellings of the same settings are the same tournament.
    """

    game_id: str
    rules_version: str
    config: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    schedule: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schedule", round_robin(self.bots, self.players))

    @classmethod
    def create(
        cls,
        game_id: str,
        bots: Sequence[str],
        *,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> Tournament:
        """Check the parameters and build the tournament.

        ``players`` defaults to ``config["players"]``, else the number of bots clipped to the
        game's player range. Raises :class:`ValueError` (or :class:`KeyError` for an unknown
        game) with a clear message when the game, configuration or a bot is unusable.
        """
        spec = get_spec(game_id)
        options = dict(config or {})
        if players is None:
            players = options.get("players") or min(
                max(len(bots), spec.min_players), spec.max_players
            )
        options["players"] = players
        full = spec.make_config(**options).to_json()
        names = tuple(b.strip() for b in bots)
        if any(not b for b in names):
            raise ValueError("empty bot name")
        game = make(game_id, **full)
        for name in names:
            make_bot(name, game, 0, 0)  # an unknown bot fails here, before anything is played
        return cls(game_id, spec.rules_version, full, names, seed)

    @property
    def players(self) -> int:
        """Seats per game."""
        return int(self.config["players"])

    def lineup(self, index: int) -> tuple[str, ...]:
        """The bot in each seat of game ``index``."""
        return self.schedule[index % len(self.schedule)]

    def game_seed(self, index: int) -> int:
        """The seed of game ``index``."""
        return derive_seed(self.seed, index)

    def job(self, index: int) -> GameJob:
        """Game ``index`` as a job for the runner."""
        return GameJob(index, self.game_id, self.config, self.lineup(index), self.game_seed(index))

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form of the parameters."""
        return {
            "game": self.game_id,
            "rules_version": self.rules_version,
            "config": self.config,
            "bots": list(self.bots),
            "players": self.players,
            "seed": self.seed,
        }


def play_tournament(
    tournament: Tournament,
    indices: Iterable[int],
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    on_game: Callable[[PlayedGame], None] | None = None,
) -> dict[int, PlayedGame]:
    """Play games ``indices`` of ``tournament`` (see :func:`~racedeck.sim.runner.run_jobs`).

    ``on_game`` gets each game as it finishes, e.g. to store it; on KeyboardInterrupt every
    game that finished has been passed to it before the interrupt is re-raised.
    """
    jobs = [tournament.job(i) for i in sorted(set(indices))]

    def delivered(_job: GameJob, played: PlayedGame) -> None:
        if on_game is not None:
            on_game(played)

    return run_jobs(jobs, play_job, workers=workers, ray_address=ray_address, on_result=delivered)


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One bot's results over a tournament.

    ``win_share`` is wins per seat-game (a win shared by ``k`` counts ``1/k``) with its 95%
    interval; ``mean_rank`` is the mean finishing rank over its seat-games as the outcome
    gives it (in two-player *Why First?* among three, Leo included).
    """

    bot: str
    games: int
    seat_games: int
    wins: float
    win_share: Share
    mean_rank: float
    rating: Rating

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {
            "bot": self.bot,
            "games": self.games,
            "seat_games": self.seat_games,
            "wins": self.wins,
            "win_share": self.win_share.value,
            "ci95": [self.win_share.low, self.win_share.high],
            "mean_rank": self.mean_rank,
            "mu": self.rating.mu,
            "sigma": self.rating.sigma,
            "ordinal": self.rating.ordinal,
        }


@dataclass(frozen=True, slots=True)
class SeatShare:
    """The share of games won from one seat (whoever sat there), or by Leo."""

    index: int
    name: str
    wins: float
    win_share: Share

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {
            "index": self.index,
            "name": self.name,
            "wins": self.wins,
            "win_share": self.win_share.value,
            "ci95": [self.win_share.low, self.win_share.high],
        }


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Standings (best conservative rating first) and per-seat win shares."""

    tournament: Tournament
    games: int
    standings: tuple[BotStanding, ...]
    seats: tuple[SeatShare, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {
            **self.tournament.to_json(),
            "games": self.games,
            "standings": [s.to_json() for s in self.standings],
            "seats": [s.to_json() for s in self.seats],
        }


def summarise(tournament: Tournament, outcomes: Mapping[int, Outcome]) -> TournamentResult:
    """Standings and seat shares from the outcomes of games by index (rated in index order)."""
    players = tournament.players
    order = sorted(outcomes)
    seat_games = dict.fromkeys(tournament.bots, 0)
    games = dict.fromkeys(tournament.bots, 0)
    wins = dict.fromkeys(tournament.bots, 0.0)
    rank_sum = dict.fromkeys(tournament.bots, 0.0)
    contestants = max((len(o.ranks) for o in outcomes.values()), default=players)
    seat_wins = [0.0] * contestants
    names = [f"seat {s + 1}" for s in range(players)]
    rated: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    for index in order:
        outcome = outcomes[index]
        lineup = tournament.lineup(index)
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        for w in outcome.winners:
            seat_wins[w] += share
        for bot in set(lineup):
            games[bot] += 1
        for seat, bot in enumerate(lineup):
            seat_games[bot] += 1
            rank_sum[bot] += outcome.ranks[seat]
            if seat in outcome.winners:
                wins[bot] += share
        # Only the seats are rated: a contestant played by the engine (Leo) is no bot.
        rated.append((lineup, outcome.ranks[:players]))
        for extra in range(players, len(outcome.ranks)):
            if len(names) <= extra:
                names.append(outcome.names[extra] if extra < len(outcome.names) else "engine")
    ratings = rate_games(tournament.bots, rated)
    standings = sorted(
        (
            BotStanding(
                bot=bot,
                games=games[bot],
                seat_games=seat_games[bot],
                wins=wins[bot],
                win_share=Share.of(wins[bot], seat_games[bot]),
                mean_rank=rank_sum[bot] / seat_games[bot] if seat_games[bot] else 0.0,
                rating=ratings[bot],
            )
            for bot in tournament.bots
        ),
        key=lambda s: (-s.rating.ordinal, tournament.bots.index(s.bot)),
    )
    names += [f"contestant {i + 1}" for i in range(len(names), contestants)]
    seats = tuple(
        SeatShare(i, names[i], seat_wins[i], Share.of(seat_wins[i], len(order)))
        for i in range(contestants)
    )
    return TournamentResult(tournament, len(order), tuple(standings), seats)
