"""The compiled search (:mod:`racedeck.kernels.search`) and its bot, ``fastsearch``, in every
game with a search kernel: it searches as the Python search does (the root's visit shares of
both agree on fixed positions), it sees its seat's view only, an iteration budget reproduces,
a time budget reads the clock it is given, and its bots play whole games legally.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import racedeck
from racedeck.bots.registry import available_bots, make_bot
from racedeck.bots.search import SearchBot, SearchBudget
from racedeck.kernels.search import KernelSearch, search_kernel_games

# (game, configuration, iterations of the comparison with the Python search, and its bounds:
# total variation of the root's visit shares, difference of the mean reward). The bounds are
# about twice what two Python searches with different seeds differ by at those iterations.
CASES: list[tuple[str, dict[str, Any], int, tuple[float, float]]] = [
    ("why-first", {"players": 4}, 3000, (0.1, 0.01)),
    ("why-first", {"players": 2}, 3000, (0.1, 0.01)),
    ("why-first", {"players": 3, "variant": "tactical"}, 3000, (0.1, 0.01)),
    ("six-day-race", {"players": 4, "races": 1}, 400, (0.3, 0.05)),
    ("six-day-race", {"players": 3, "riders": 2, "races": 2}, 400, (0.3, 0.05)),
    ("setback", {"players": 2}, 1500, (0.3, 0.04)),
    ("setback", {"players": 4, "self_block": "all"}, 1500, (0.3, 0.04)),
]
CASES = [c for c in CASES if c[0] in search_kernel_games()]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in c.items())}" for g, c, _, _ in CASES]


def _position(game: Any, seed: int, opening: int) -> tuple[Any, int]:
    """A state after ``opening`` random decisions where the last pending seat has a choice."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    done = 0
    while True:
        if state.is_terminal:
            state, done, opening = game.new_initial_state(seed + 1), 0, opening // 2
            continue
        seat = state.pending[-1]
        legal = game.legal_actions(state, seat)
        if done >= opening and len(legal) > 1:
            return state, seat
        seat = state.pending[0]
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, legal[rng.randrange(len(legal))])
        done += 1


def _python_root(game: Any, view: Any, seat: int, iterations: int) -> tuple[list[float], float]:
    """The Python search's root visits of ``seat``'s legal actions in ``view``, and the mean
    reward of its iterations."""
    import racedeck.bots.search as python_search

    roots: list[Any] = []
    node_type = python_search._Node

    def node() -> Any:
        made = node_type()
        roots.append(made)
        return made

    python_search._Node = node  # type: ignore[misc,assignment]
    try:
        SearchBot(game, seat, seed=5, budget=SearchBudget(iterations)).act(view)
    finally:
        python_search._Node = node_type  # type: ignore[misc]
    stats = roots[0].stats.get(seat, {})
    visits = [stats.get(a, [0.0])[0] for a in view.legal_actions]
    value = sum(stats[a][1] for a in stats) / sum(stats[a][0] for a in stats)
    return visits, value


def _differences(
    game: Any, search: KernelSearch, iterations: int
) -> list[tuple[int, float, float]]:
    """On fixed positions early, mid-way and late: (opening, total variation distance between
    the two searches' shares of the root's visits, difference of their mean rewards)."""
    out = []
    for k, opening in enumerate((3, 25, 60)):
        state, seat = _position(game, 40 + k, opening)
        view = game.observe(state, seat)
        indices = [search.kernel.encode(a) for a in view.legal_actions]
        search.choose(view, seed=k, iterations=iterations)
        ours = search.root_visits(seat, indices)
        theirs, value = _python_root(game, view, seat, iterations)
        distance = 0.5 * sum(
            abs(a / sum(ours) - b / sum(theirs)) for a, b in zip(ours, theirs, strict=True)
        )
        out.append((opening, distance, abs(search.root_value(seat, indices) - value)))
    return out


@pytest.mark.parametrize(("game_id", "config", "iterations", "bounds"), CASES, ids=IDS)
def test_it_searches_as_the_python_search(
    game_id: str, config: dict[str, Any], iterations: int, bounds: tuple[float, float]
) -> None:
    """The root's visit shares and the mean reward of the iterations are within the case's
    bounds of the Python search's (a search of other values, below, misses the second)."""
    game = racedeck.make(game_id, **config)
    for opening, distance, value in _differences(game, KernelSearch(game), iterations):
        assert distance < bounds[0] and value < bounds[1], (opening, distance, value)


def test_a_search_of_other_values_is_caught() -> None:
    """The same comparison fails for a search whose playouts value a position a little
    differently (each seat's estimate moved a tenth toward one half)."""
    import dataclasses

    import numba

    game = racedeck.make("why-first", players=4)
    right = KernelSearch(game).kernel
    estimate = right.estimate

    @numba.njit
    def shrunk(ints: Any, bits: Any, i: int, t: Any, out: Any) -> None:
        estimate(ints, bits, i, t, out)
        for s in range(out.shape[0]):
            out[s] = 0.9 * out[s] + 0.05

    wrong = KernelSearch(game, kernel=dataclasses.replace(right, estimate=shrunk))
    assert any(value >= 0.01 for _, _, value in _differences(game, wrong, 3000))


@pytest.mark.parametrize(("game_id", "config"), [c[:2] for c in CASES], ids=IDS)
def test_it_sees_the_view_only_and_reproduces(game_id: str, config: dict[str, Any]) -> None:
    """Two worlds that give a seat the same view (the others' hands drawn apart) get the same
    decision and the same root statistics from the same seed; another seed searches apart."""
    game = racedeck.make(game_id, **config)
    state, seat = _position(game, 7, 10)
    view = game.observe(state, seat)
    from racedeck.core.rng import Rng

    other = game.sample_state(view, Rng(99))
    assert game.observe(other, seat) == view
    search = KernelSearch(game)
    indices = [search.kernel.encode(a) for a in view.legal_actions]
    first = search.choose(view, seed=3, iterations=200)
    visits = search.root_visits(seat, indices)
    second = search.choose(game.observe(other, seat), seed=3, iterations=200)
    assert (second, search.root_visits(seat, indices)) == (first, visits)
    search.choose(view, seed=4, iterations=200)
    assert search.root_visits(seat, indices) != visits
    assert search.last_iterations == 200


def test_a_time_budget_reads_the_clock_it_is_given() -> None:
    """A budget of ten ticks on a clock that moves one tick per reading runs ten chunks, however
    busy the machine is (a tick of 1/1024 s: exact in floating point)."""
    game = racedeck.make("why-first", players=4)
    state, seat = _position(game, 3, 5)
    search = KernelSearch(game, chunk=16)
    now = [0.0]

    def clock() -> float:
        now[0] += 1 / 1024
        return now[0]

    search.choose(game.observe(state, seat), seed=1, millis=10 * 1000 / 1024, clock=clock)
    assert search.last_iterations == 16 * 10  # read once to start, then after every chunk


@pytest.mark.parametrize(("game_id", "config"), [c[:2] for c in CASES], ids=IDS)
def test_fastsearch_bots_play_a_whole_game(game_id: str, config: dict[str, Any]) -> None:
    game = racedeck.make(game_id, **config)
    assert "fastsearch" in available_bots(game_id)
    bots = [make_bot("fastsearch@50", game, seat, seed=seat) for seat in range(game.num_players)]
    state = game.new_initial_state(5)
    while not state.is_terminal:
        seat = state.pending[0]
        view = game.observe(state, seat)
        action = bots[seat].act(view)
        assert action in view.legal_actions
        state = game.apply(state, seat, action)
    assert game.outcome(state) is not None


def test_searches_of_one_configuration_share_its_kernel_and_not_their_arrays() -> None:
    # The kernel (the rules' tables) is made once a process; each search works in its own rows.
    game_id = search_kernel_games()[0]
    first = KernelSearch(racedeck.make(game_id, players=2))
    second = KernelSearch(racedeck.make(game_id, players=2))
    assert first.kernel is second.kernel and first.ints is not second.ints
    assert KernelSearch(racedeck.make(game_id, players=4)).kernel is not first.kernel
