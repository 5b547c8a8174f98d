"""Six Day Race for the compiled search (:mod:`racedeck.kernels.six_day_race_search`) against
the engine, its sampler, its playout and the search's rewards.

- A state loaded into a row is the engine's: the seat asked, the legal actions and every seat's
  observation, and played on with the same actions it stays the engine's to the end (later
  shuffles and deals included, SD-3, SD-11), reloaded at random decisions on the way.
- A redeal keeps what the seat sees (its observation, the legal actions when it is to act, every
  public field), deals the same cards (SD-3: the grey decks, their discards and the grey hands
  together hold each deck once) and plays to the end; a stream standing at ``k`` deals exactly
  what ``sample_state(view, Rng(k))`` deals, and on other seeds the deals are distributed alike
  (chi-square tests of homogeneity that a skipped shuffle fails).
- The estimate, the finished series' values, the horizon and the groups are the playout's,
  ``rewards``' (SD-11, shared wins included) and the engine's; all of them run inside a loop
  compiled without reference counting, as the search's are.

Configurations: 2 to 8 players, one and two riders (SD-12), one race and series, refilled and
tiny grey decks (SD-3). Seeds are fixed, so every test gives the same answer every run.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import numba
import numpy as np
import pytest
from numpy.typing import NDArray

from kernels.compiling import compile_once
from racedeck.bots.search import rewards
from racedeck.bots.six_day_race_playout import SixDayRacePlayout
from racedeck.core.rng import Rng, derive_seed
from racedeck.games.six_day_race import SixDayRace, SixDayRaceConfig, SixDayRaceState
from racedeck.games.six_day_race.encoding import action_encoding
from racedeck.kernels import six_day_race as sdr
from racedeck.kernels import six_day_race_search as sds
from racedeck.kernels import six_day_race_steps as steps
from racedeck.kernels.batch import StateBatch
from racedeck.kernels.search_kernel import SearchKernel
from racedeck.kernels.six_day_race_search import search_kernel
from racedeck.plugins import plugin

CONFIGS: tuple[dict[str, Any], ...] = (
    {"players": 2, "races": 2},  # two riders each, the only way to play two (SD-12)
    {"players": 3, "races": 1},  # six riders, one race: won on points alone (SD-11)
    {"players": 4, "races": 2},
    {"players": 5, "races": 2},  # one rider each (SD-12)
    {"players": 4, "riders": 1, "races": 3, "random_first": False},
    # Eight riders drawing 11 at a change: deck 1-3 runs out and is refilled (SD-3).
    {"players": 8, "races": 2, "small_field": 8},
    # Tiny grey decks: refilled from discards, and drawing stops when both are empty (SD-3).
    {"players": 4, "races": 2, "grey_low": (2, 1, 1), "grey_high": (1, 1, 0)},
)
IDS = ["-".join(f"{k}={v}" for k, v in c.items()).replace(" ", "") for c in CONFIGS]


@pytest.fixture(scope="module", autouse=True)
def compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compile the search's functions in one test process only (see ``compile_once``)."""

    def compile_all() -> None:
        cfg = SixDayRaceConfig(players=4)
        sk = search_kernel(cfg)
        ints, bits, t = sk.step.arrays(2)
        sk.step.reset_one(ints, bits, 0, np.uint64(1), t)
        out = np.zeros(cfg.players, np.float64)
        streams = np.zeros(2, np.uint64)
        sk.redeal(ints, bits, 0, 0, t, streams)
        sk.estimate(ints, bits, 0, t, out)
        sk.values(ints, bits, 0, t, out)
        sk.horizon(ints, bits, 0, t)
        sk.group(ints, bits, 0, t)
        playouts(ints, bits, t, streams, np.zeros(sdr.ACTIONS, np.bool_), out, 0, 1)

    compile_once(tmp_path_factory, "six-day-race-search", compile_all)
    yield


class Table:
    """One configuration's engine, search kernel and the encoder of a view."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.cfg = SixDayRaceConfig(**config)
        self.game = SixDayRace(self.cfg)
        self.sk: SearchKernel = search_kernel(self.cfg)
        self.encoding = action_encoding(self.game)
        self.encode = plugin(self.game.spec.id, "observation").observer(self.game).encode
        self.n = self.cfg.players

    def batch(self, rows: int) -> StateBatch:
        """A batch of the step kernel."""
        return StateBatch(self.sk.step, rows)

    def load(self, batch: StateBatch, row: int, state: SixDayRaceState) -> None:
        """``state`` into ``batch``'s row."""
        self.sk.load(state, batch.ints[row], batch.bits[row], batch.tables)

    def legal(self, state: SixDayRaceState) -> list[int]:
        """The engine's legal actions as indices, sorted."""
        seat = state.pending[0]
        return sorted(self.encoding.index(a) for a in self.game.legal_actions(state, seat))

    def play(self, state: SixDayRaceState, rng: random.Random) -> None:
        """A random legal action, on the engine."""
        legal = self.legal(state)
        action = self.encoding.action(legal[rng.randrange(len(legal))])
        self.game.apply_unchecked(state, state.pending[0], action)

    def states(self, seed: int, every: int, rng: random.Random) -> Iterator[SixDayRaceState]:
        """Copies of the states of one random series, every ``every``-th decision and the end."""
        state = self.game.new_initial_state(seed)
        k = 0
        while not state.is_terminal:
            if k % every == 0:
                yield state.clone()
            self.play(state, rng)
            k += 1
        yield state


def everyone(table: Table, batch: StateBatch) -> NDArray[np.float32]:
    """Row 0's observation by every seat, the row copied into the batch's first rows."""
    batch.ints[: table.n] = batch.ints[0]
    batch.bits[: table.n] = batch.bits[0]
    seats = np.zeros(batch.batch, np.int64)
    seats[: table.n] = np.arange(table.n)
    return batch.observe(seats)[: table.n]


# -- load ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_loaded_state_plays_on_as_the_engine(config: dict[str, Any]) -> None:
    table = Table(config)
    game, n = table.game, table.n
    rng = random.Random(len(config) * 7 + n)
    # The extreme seed in the one-race configuration only: a series of loads at every
    # decision costs seconds a game.
    for seed in (derive_seed(23, n), 2**64 - 1)[: 2 if config.get("races") == 1 else 1]:
        state = game.new_initial_state(seed)
        going = table.batch(1)  # loaded now and then, played on alongside the engine
        table.load(going, 0, state)
        fresh = table.batch(n)  # loaded at every decision
        reloads = 0
        while not state.is_terminal:
            seat = state.pending[0]
            legal = table.legal(state)
            if rng.random() < 0.1:
                table.load(going, 0, state)
                reloads += 1
            table.load(fresh, 0, state)
            seen = everyone(table, fresh)
            for s in range(n):
                assert np.array_equal(seen[s], table.encode(game.observe(state, s))), s
            for batch in (going, fresh):
                assert batch.current_player()[0] == seat
                assert np.flatnonzero(batch.legal_mask()[0]).tolist() == legal
                assert int(batch.bits[0, 0]) == state.rng.state  # the chance to come
            assert np.array_equal(going.observe(np.array([seat]))[0], seen[seat])
            action = legal[rng.randrange(len(legal))]
            game.apply_unchecked(state, seat, table.encoding.action(action))
            going.apply(np.array([action]))
        assert reloads > 0
        outcome = game.outcome(state)
        assert outcome is not None
        share = 1.0 / len(outcome.winners)
        want = [share if s in outcome.winners else 0.0 for s in range(n)]
        table.load(fresh, 0, state)
        for batch in (going, fresh):  # the series is over alike (SD-11)
            assert batch.current_player()[0] == -1
            assert np.allclose(batch.rewards()[0], want)
        seen = everyone(table, fresh)
        for s in range(n):
            assert np.array_equal(seen[s], table.encode(game.observe(state, s)))


# -- redeal -------------------------------------------------------------------------------------

# Fields a redeal may change: the decks' order, the hidden hands, the generator (and the next
# regular turn, which the sampler sets from the rider on turn).
_DEALT = {"low_deck", "high_deck", "hands"}


def grey_cards(s: sdr.SixDayRaceStates, i: int, riders: int) -> list[int]:
    """How many grey cards of each value 1..6 row ``i`` holds in decks, discards and the
    changed riders' hands (SD-3, SD-6)."""
    sc = s.scalars[i]
    out = [0] * 7
    for deck, left in ((s.low_deck, sdr.LOW_LEFT), (s.high_deck, sdr.HIGH_LEFT)):
        for v in deck[i, : sc[left]]:
            out[v] += 1
    for pile, dis in ((s.low_discards, sdr.LOW_DISCARDS), (s.high_discards, sdr.HIGH_DISCARDS)):
        for v in pile[i, : sc[dis]]:
            out[v] += 1
    for r in range(riders):
        if s.drawn[i, r, 0] >= 0:
            for v in range(1, 7):
                out[v] += int(s.hands[i, r, v])
    return out[1:]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_redeal_keeps_the_view_and_the_cards_and_plays_to_the_end(
    config: dict[str, Any],
) -> None:
    table = Table(config)
    cfg, n = table.cfg, table.n
    riders = cfg.rider_count
    rng = random.Random(n)
    cases = [
        (state, seat)
        for state in table.states(derive_seed(29, n), 9, rng)
        for seat in range(n)
        if not state.is_terminal
    ]
    before, after = table.batch(len(cases)), table.batch(len(cases))
    for i, (state, _) in enumerate(cases):
        table.load(before, i, state)
    after.ints[:] = before.ints
    after.bits[:] = before.bits
    seats = np.array([seat for _, seat in cases], np.int64)
    for i, seat in enumerate(seats):
        after.streams[i] = derive_seed(31, i)
        table.sk.redeal(after.ints, after.bits, i, int(seat), after.tables, after.streams)
    assert np.array_equal(after.observe(seats), before.observe(seats))
    players = before.current_player()
    assert np.array_equal(after.current_player(), players)
    acting = players == seats
    assert acting.any()
    assert np.array_equal(after.legal_mask()[acting], before.legal_mask()[acting])
    a, b = after.tables[1], before.tables[1]
    deck = list(cfg.grey_low) + list(cfg.grey_high)
    changed = 0
    for i, seat in enumerate(seats):
        for name in a._fields:
            if name not in _DEALT | {"ints", "bits", "rng", "scalars"}:
                assert np.array_equal(getattr(a, name)[i], getattr(b, name)[i]), name
        keep = [c for c in range(a.scalars.shape[1]) if c != sdr.TURN]
        assert np.array_equal(a.scalars[i, keep], b.scalars[i, keep])
        for r in range(riders):
            if r % n == seat or a.drawn[i, r, 0] < 0:  # seen, or green (SD-2)
                assert np.array_equal(a.hands[i, r], b.hands[i, r]), r
            assert a.hands[i, r].sum() == a.hand_sizes[i, r]
            for lo, hi in ((1, 4), (4, 7)):  # as many of each deck as drawn less played (SD-6)
                assert a.hands[i, r, lo:hi].sum() == b.hands[i, r, lo:hi].sum()
        changed += int(not np.array_equal(a.ints[i], b.ints[i]))
        assert a.rng[i] != b.rng[i]  # the chance to come drawn afresh
        assert grey_cards(a, i, riders) == grey_cards(b, i, riders) == deck  # SD-3
    assert changed > 0
    # Played on at random, every redealt series reaches its end, each deck whole throughout.
    mask_rng = np.random.default_rng(n)
    most = sdr.SixDayRaceBatch(cfg).max_decisions
    for _ in range(most):
        live = after.current_player() >= 0
        if not live.any():
            break
        masks = after.legal_mask()
        assert masks[live].any(axis=1).all()
        actions = np.array([mask_rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        after.apply(actions)
        for i in range(len(cases)):
            assert grey_cards(a, i, riders) == deck
    assert (after.current_player() == -1).all()
    assert np.allclose(after.rewards().sum(axis=1), 1.0)  # SD-11: the win shared out


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_redeal_from_a_stream_at_k_is_the_samplers_state_from_rng_k(
    config: dict[str, Any],
) -> None:
    table = Table(config)
    game, n = table.game, table.n
    rng = random.Random(3 * n)
    got, want = table.batch(1), table.batch(1)
    checked = 0
    for state in table.states(derive_seed(37, n), 5, rng):
        if state.is_terminal:
            continue
        for seat in range(n):
            k = rng.getrandbits(64)
            table.load(got, 0, state)
            got.streams[0] = k
            table.sk.redeal(got.ints, got.bits, 0, seat, got.tables, got.streams)
            sampled = game.sample_state(game.observe(state, seat), Rng(k))
            table.load(want, 0, sampled)
            assert np.array_equal(got.ints[0], want.ints[0]), (checked, seat)
            assert got.bits[0, 0] == want.bits[0, 0]  # the sampler's reseeded generator
            checked += 1
    assert checked > 10


def statistics(s: sdr.SixDayRaceStates, i: int, rider: int) -> tuple[int, int, int, int]:
    """Hidden facts of a deal: the top card of each grey deck (the next drawn, SD-3), and the
    number of 1s and of 4s in ``rider``'s grey hand (SD-6)."""
    sc = s.scalars[i]
    return (
        int(s.low_deck[i, sc[sdr.LOW_LEFT] - 1]),
        int(s.high_deck[i, sc[sdr.HIGH_LEFT] - 1]),
        int(s.hands[i, rider, 1]),
        int(s.hands[i, rider, 4]),
    )


def homogeneity_p(a: Sequence[tuple[int, ...]], b: Sequence[tuple[int, ...]]) -> float:
    """The smallest p-value of chi-square tests of homogeneity, one per statistic."""
    from scipy import stats as scipy_stats  # imported where used: it costs a second

    worst = 1.0
    for k in range(len(a[0])):
        values = sorted({x[k] for x in a} | {x[k] for x in b})
        if len(values) < 2:
            continue
        table = [[sum(1 for x in side if x[k] == v) for v in values] for side in (a, b)]
        worst = min(worst, float(scipy_stats.chi2_contingency(table).pvalue))
    return worst


def test_redeals_are_distributed_as_the_samplers_states() -> None:
    table = Table({"players": 4, "races": 1})
    game, n = table.game, table.n
    rng = random.Random(5)
    # A view with two of the other seats' riders changed (SD-6): their grey hands are hidden.
    view_state = None
    for state in table.states(derive_seed(41, 0), 1, rng):
        seat = state.pending[0] if not state.is_terminal else 0
        others = [r for r in range(table.cfg.rider_count) if r % n != seat and state.drawn[r]]
        if len(others) >= 2 and len(state.deck_low) > 5 and len(state.deck_high) > 5:
            view_state = state
            break
    assert view_state is not None
    seat, rider = view_state.pending[0], others[0]
    view = game.observe(view_state, seat)
    draws = 2000
    redealt = table.batch(draws)
    sampled = table.batch(draws)
    table.load(redealt, 0, view_state)
    redealt.ints[:] = redealt.ints[0]
    redealt.bits[:] = redealt.bits[0]
    for i in range(draws):
        redealt.streams[i] = derive_seed(43, i)
        table.sk.redeal(redealt.ints, redealt.bits, i, seat, redealt.tables, redealt.streams)
        table.load(sampled, i, game.sample_state(view, Rng(derive_seed(47, i))))
    ours = [statistics(redealt.tables[1], i, rider) for i in range(draws)]
    theirs = [statistics(sampled.tables[1], i, rider) for i in range(draws)]
    assert len(set(ours)) > 10
    assert homogeneity_p(ours, theirs) > 1e-3
    # A redeal that skipped the shuffle of deck 4-6's order leaves it sorted: caught.
    s = redealt.tables[1]
    for i in range(draws):
        left = s.scalars[i, sdr.HIGH_LEFT]
        s.high_deck[i, :left] = np.sort(s.high_deck[i, :left])
    skipped = [statistics(s, i, rider) for i in range(draws)]
    assert homogeneity_p(skipped, theirs) < 1e-9


# -- the playout --------------------------------------------------------------------------------


def tied(state: SixDayRaceState, n: int, rng: random.Random) -> SixDayRaceState:
    """The finished ``state`` with standings made to tie (SD-11: shared ranks and wins)."""
    out = state.clone()
    out.laps = [rng.choice((0, 1)) for _ in range(n)]
    out.points = [rng.choice(("7", "7", "20/3", "3/2")) for _ in range(n)]
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_estimate_values_horizon_and_group_are_the_playouts_and_rewards(
    config: dict[str, Any],
) -> None:
    table = Table(config)
    game, n, sk = table.game, table.n, table.sk
    playout = SixDayRacePlayout(game)
    rng = random.Random(11 * n)
    batch = table.batch(2)  # two rows, as a search's (one row's views have other types)
    ints, bits, t = batch.ints, batch.bits, batch.tables
    out = np.zeros(n, np.float64)
    finished = 0
    for g in range(6):
        for state in table.states(derive_seed(53, g), 3, rng):
            cases = [state] if not state.is_terminal else [state, tied(state, n, rng)]
            for case in cases:
                table.load(batch, 0, case)
                sk.estimate(ints, bits, 0, t, out)
                assert np.allclose(out, playout.estimate(case), rtol=0.0, atol=1e-9)
                assert sk.horizon(ints, bits, 0, t) == playout.horizon(case) == case.race
                if case.is_terminal:
                    outcome = game.outcome(case)
                    assert outcome is not None
                    sk.values(ints, bits, 0, t, out)
                    assert np.allclose(out, rewards(outcome, n), rtol=0.0, atol=1e-9)
                    finished += 1
                else:
                    seat = case.pending[0]
                    assert sk.group(ints, bits, 0, t) == -1
                    assert not any(
                        game.conceals(case, seat, a) for a in game.legal_actions(case, seat)
                    )
    assert finished == 12


def test_the_face_encodes_actions_as_the_step_kernel() -> None:
    table = Table({"players": 3})
    sk = table.sk
    assert sk.depth == -1 and sk.playout_heuristic
    assert sk.step.heuristic_action is not None
    for index, action in enumerate(table.encoding.actions):
        assert sk.encode(action) == index == action.value - 1  # card v is action v - 1
        assert sk.decode(index) == action
    # Before the end a series is worth nothing yet.
    batch = table.batch(2)  # as a search's (one row's views have other types)
    sk.step.reset_one(batch.ints, batch.bits, 0, np.uint64(7), batch.tables)
    out = np.ones(table.n, np.float64)
    sk.values(batch.ints, batch.bits, 0, batch.tables, out)
    assert (out == 0.0).all()


# -- inside the search's loops ----------------------------------------------------------------

_NO_NRT: dict[str, Any] = {"_nrt": False}  # as the search compiles its loops (no arrays made)


@numba.njit(cache=True, **_NO_NRT)
def playouts(  # type: ignore[no-untyped-def]
    ints, bits, t, streams, mask, out, seat, reps
):
    """``reps`` determinizations of row 0 by ``seat`` in row 1, each ridden to the end of the
    race by the heuristic and valued: the mean value of ``seat`` and the decisions taken."""
    total = 0.0
    decisions = 0
    for _ in range(reps):
        for c in range(ints.shape[1]):
            ints[1, c] = ints[0, c]
        bits[1, 0] = bits[0, 0]
        sds.redeal(ints, bits, 1, seat, t, streams)
        race = sds.horizon(ints, bits, 1, t)
        while steps.current_player(ints, bits, 1, t) >= 0 and sds.horizon(ints, bits, 1, t) == race:
            if sds.group(ints, bits, 1, t) != -1:
                return -1.0, -1
            count = steps.legal(ints, bits, 1, t, mask)
            steps.apply(
                ints, bits, 1, steps.heuristic_action(ints, bits, 1, mask, count, t, streams), t
            )
            decisions += 1
        if steps.current_player(ints, bits, 1, t) < 0:
            sds.values(ints, bits, 1, t, out)
        else:
            sds.estimate(ints, bits, 1, t, out)
        total += out[seat]
    return total / reps, decisions


def test_the_functions_run_in_loops_compiled_without_reference_counting() -> None:
    table = Table({"players": 4, "races": 2})
    rng = random.Random(2)
    state = next(s for k, s in enumerate(table.states(derive_seed(59, 0), 1, rng)) if k == 20)
    batch = table.batch(2)
    table.load(batch, 0, state)
    kept = batch.ints[0].copy()
    mask = np.zeros(sdr.ACTIONS, np.bool_)
    out = np.zeros(table.n, np.float64)
    seat = state.pending[0]
    mean, decisions = playouts(
        batch.ints, batch.bits, batch.tables, batch.streams, mask, out, seat, 50
    )
    assert 0.0 <= mean <= 1.0 and decisions > 50
    assert np.array_equal(batch.ints[0], kept)  # the searched position itself is untouched
