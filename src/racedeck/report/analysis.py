"""The generic numbers of a batch: wins by seat, by bot and by turn position, scores, length."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from racedeck.report.batches import BatchResult
from racedeck.report.measures import GameMeasures
from racedeck.report.stats import (
    ChiSquareResult,
    ZTestResult,
    equal_shares_test,
    proportion_test,
    seat_gap_test,
)
from racedeck.sim.stats import Share

__all__ = [
    "BotStanding",
    "SeatBalance",
    "bot_standings",
    "position_balance",
    "seat_balance",
    "win_credit",
]


def win_credit(games: Sequence[GameMeasures], contestants: int) -> list[float]:
    """Wins of every contestant over ``games``, shared wins counted fractionally."""
    total = [0.0] * contestants
    for g in games:
        for i, c in enumerate(g.credit()):
            total[i] += c
    return total


@dataclass(frozen=True)
class SeatBalance:
    """Win shares of seats (or turn positions) over the same games, with the tests."""

    labels: tuple[str, ...]
    wins: tuple[float, ...]
    shares: tuple[Share, ...]
    games: int
    fair: float
    test: ChiSquareResult
    gap: tuple[int, int, ZTestResult]

    @property
    def values(self) -> list[float]:
        """The shares as plain numbers."""
        return [s.value for s in self.shares]


def _balance(labels: Sequence[str], wins: Sequence[float], n: int, fair: float) -> SeatBalance:
    shares = tuple(Share.of(w, n) for w in wins)
    return SeatBalance(
        labels=tuple(labels),
        wins=tuple(wins),
        shares=shares,
        games=n,
        fair=fair,
        test=equal_shares_test(wins),
        gap=seat_gap_test([s.value for s in shares], n),
    )


def seat_balance(result: BatchResult) -> SeatBalance:
    """Win shares of every contestant; the tests compare the seats only (not Leo)."""
    contestants = len(result.names)
    wins = win_credit(result.games, contestants)
    seats = result.seats
    balance = _balance(result.names[:seats], wins[:seats], result.n, 1 / contestants)
    if contestants == seats:
        return balance
    all_shares = tuple(Share.of(w, result.n) for w in wins)
    return SeatBalance(
        labels=tuple(result.names),
        wins=tuple(wins),
        shares=all_shares,
        games=result.n,
        fair=1 / contestants,
        test=balance.test,
        gap=balance.gap,
    )


def position_balance(
    result: BatchResult, order_of: Callable[[GameMeasures], Sequence[int]], label: str
) -> SeatBalance:
    """Win shares by turn position: ``order_of(game)`` lists the seats in the order they
    moved first, so position ``j`` is credited with the wins of the ``j``-th seat to move."""
    seats = result.seats
    wins = [0.0] * seats
    n = 0
    for g in result.games:
        order = order_of(g)
        if len(order) != seats:
            continue
        n += 1
        credit = g.credit()
        for position, seat in enumerate(order):
            wins[position] += credit[seat]
    labels = [f"{label} {j + 1}" for j in range(seats)]
    return _balance(labels, wins, n, 1 / len(result.names))


@dataclass(frozen=True)
class BotStanding:
    """How often the seats of one bot won: a share of games, against the fair share of the
    seats it held (seats ÷ contestants)."""

    bot: str
    seats: int
    wins: float
    share: Share
    fair: float
    test: ZTestResult


def bot_standings(result: BatchResult) -> list[BotStanding]:
    """Each bot's share of the games its seats won (a game won by two of its seats counts
    once), with a test against its fair share."""
    lineup = result.batch.lineup
    contestants = len(result.names)
    out = []
    for bot in dict.fromkeys(lineup):
        held = sum(1 for b in lineup if b == bot)
        wins = 0.0
        for g in result.games:
            credit = g.credit()
            wins += sum(c for seat, c in enumerate(credit[: len(g.bots)]) if g.bots[seat] == bot)
        fair = held / contestants
        out.append(
            BotStanding(
                bot=bot,
                seats=held,
                wins=wins,
                share=Share.of(wins, result.n),
                fair=fair,
                test=proportion_test(wins, result.n, fair),
            )
        )
    return out
