"""Head to head: fair seatings, the share of the win, timing, reproducible results."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import racedeck
from racedeck.bots.base import Bot
from racedeck.core.outcome import Outcome
from racedeck.sim.versus import TimedBot, head_to_head, seatings, side_share


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, ((0,), (1,))),
        (3, ((0,), (1,), (2,))),
        (4, ((0, 2), (1, 3))),
        (5, ((0,), (1,), (2,), (3,), (4,))),
        (6, ((0, 2, 4), (1, 3, 5))),
    ],
)
def test_our_side_holds_every_seat_equally_often(
    players: int, expected: tuple[tuple[int, ...], ...]
) -> None:
    plans = seatings(players)
    assert plans == expected
    held = [sum(seat in seats for seats in plans) for seat in range(players)]
    assert len(set(held)) == 1


def test_a_head_to_head_needs_two_seats() -> None:
    with pytest.raises(ValueError, match="two seats"):
        seatings(1)


def _outcome(winners: set[int], contestants: int) -> Outcome:
    return Outcome((0.0,) * contestants, (1,) * contestants, frozenset(winners))


def test_side_share_splits_shared_wins_and_counts_an_engine_win_as_a_draw() -> None:
    assert side_share(_outcome({2}, 4), (0, 2), 4) == 1.0
    assert side_share(_outcome({1}, 4), (0, 2), 4) == 0.0
    assert side_share(_outcome({0, 1}, 4), (0, 2), 4) == 0.5
    assert side_share(_outcome({0, 1, 2}, 3), (1,), 3) == pytest.approx(1 / 3)
    # Leo (contestant 2 of a two-seat game) beat both sides alike: half each.
    assert side_share(_outcome({2}, 3), (0,), 2) == 0.5
    assert side_share(_outcome({0, 2}, 3), (0,), 2) == 0.75
    assert side_share(_outcome(set(), 3), (1,), 3) == pytest.approx(1 / 3)


class _Counting(Bot):
    """Takes the first legal action; reports one iteration more each time."""

    def __init__(self) -> None:
        super().__init__(racedeck.make("setback", players=2), 0, 0)
        self.last_iterations = 0

    def act(self, view: Any) -> Any:
        self.last_iterations += 1
        return view.legal_actions[0]


class _View:
    def __init__(self, legal: int) -> None:
        self.legal_actions = tuple(range(legal))


def test_timed_bot_counts_only_decisions_with_a_choice() -> None:
    ticks: Iterator[float] = iter([0.0, 0.5, 1.0, 3.0, 10.0, 10.25])
    bot = TimedBot(_Counting(), clock=lambda: next(ticks))
    assert [bot.act(_View(n)) for n in (3, 1, 2)] == [0, 0, 0]
    assert bot.times == [0.5, 0.25]
    assert bot.iterations == 1 + 3  # the forced decision's iteration is not counted


def test_a_small_match_between_equals() -> None:
    result = head_to_head("why-first", {"players": 3}, "random", "random", deals=4, workers=1)
    assert result.games == 4 * 3
    assert result.fair == pytest.approx(1 / 3)
    assert result.low <= result.share <= result.high
    assert result.low >= 0.0 and result.high <= 1.0
    assert result.ours_decisions > 0 and result.theirs_decisions > result.ours_decisions
    assert result.ours_seconds_per_decision > 0 and result.theirs_seconds_per_decision > 0
    assert result.ours_iterations_per_decision is None  # random does not search
    again = head_to_head("why-first", {"players": 3}, "random", "random", deals=4, workers=1)
    assert again == result


def test_the_stronger_bot_wins_more_than_its_share() -> None:
    result = head_to_head("setback", {"players": 2}, "heuristic", "random", deals=40, workers=1)
    assert result.games == 80 and result.fair == 0.5
    assert result.low > result.fair
    # The winning side goes further along the board (Setback's score is the progress).
    assert result.ours_score > result.theirs_score >= 0
    json = result.to_json()
    assert json["share"] == result.share and json["ci95"] == [result.low, result.high]
    assert (json["ours_score"], json["theirs_score"]) == (result.ours_score, result.theirs_score)
    assert json["seatings"] == [[0], [1]]


def test_unusable_input_is_refused_before_playing() -> None:
    with pytest.raises(ValueError, match="no bot"):
        head_to_head("setback", {"players": 2}, "nobody", "random", deals=1, workers=1)
    with pytest.raises(ValueError, match="deals"):
        head_to_head("setback", {"players": 2}, "random", "random", deals=0, workers=1)
