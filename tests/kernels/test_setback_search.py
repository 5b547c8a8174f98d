"""Setback's search kernel (:mod:`racedeck.kernels.setback_search`) against the engine, on
configurations of 2 to 6 players, ``self_block`` of every kind, decks full of BLOCKs (a window
after every declaration, SB-9 amended twice, BLOCKs blocked in turn), a small deck reshuffled
again and again (SB-3) and ``max_moves`` ending games inside windows:

- **load**: a state loaded at any decision of an engine game is that state to the kernel — the
  seat asked, the legal mask, every seat's observation (the encoder of its view) — and played
  on with the same actions stays so to the end, rewards included;
- **redeal** is the engine's sampler: from a state's row and the stream ``x`` it gives
  ``sample_state(view, Rng(x))`` card for card (cards of one name are interchangeable) and
  leaves the stream where that ``Rng`` ends; it keeps the seat's view, its legal actions and
  the concealed group, and the row plays on to a legal end with every card somewhere; and,
  tested apart from the stream, its frequencies of hidden facts (who is still asked in a
  window, who answered BLOCK, the top of the draw pile, a hand) are the sampler's, by a test
  that a deliberately biased deal fails;
- **group** names each BLOCK window's answers (SB-9) and nothing else;
- **estimate** and **values** are ``SetbackPlayout.estimate`` and ``rewards`` to 1e-9.

Seeds are fixed: each test gives the same answer every run.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numba
import numpy as np
import pytest
from numpy.typing import NDArray

from kernels.compiling import compile_once
from kernels.test_setback import ACTION_DECK, SMALL_DECK, firsts_p
from racedeck.bots import search
from racedeck.bots.search import rewards
from racedeck.bots.setback_playout import SetbackPlayout
from racedeck.core.rng import Rng, derive_seed
from racedeck.games.setback import Setback, SetbackConfig
from racedeck.games.setback.encoding import action_encoding
from racedeck.games.setback.state import SetbackState
from racedeck.kernels import setback as sb
from racedeck.kernels import setback_search
from racedeck.kernels.batch import random_action
from racedeck.kernels.search_kernel import SearchKernel
from racedeck.kernels.setback_search import search_kernel
from racedeck.rl.observations.setback import observer

CONFIGS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3, "self_block": "all"},
    {"players": 5},
    {"players": 6, "deck": ACTION_DECK, "self_block": "none"},
    {"players": 4, "deck": ACTION_DECK, "self_block": "all", "max_lanes": 8, "min_lanes": 1},
    {"players": 2, "deck": SMALL_DECK, "rows": 4, "lanes": 2, "hand_size": 4, "draw_count": 0,
     "max_lanes": 2},
    {"players": 4, "deck": ACTION_DECK, "max_moves": 100},  # ends by length, some in a window
)  # fmt: skip
IDS = [
    "-".join(
        f"{k}={v}" if k != "deck" else {ACTION_DECK: "actions", SMALL_DECK: "small"}[v]
        for k, v in c.items()
    )
    for c in CONFIGS
]


@pytest.fixture(scope="module", autouse=True)
def compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compile the search kernel in one test process only (the others load Numba's cache)."""
    compile_once(tmp_path_factory, "setback-search-kernel", _compile)
    yield


def _compile() -> None:
    cfg = SetbackConfig(players=2)
    kernel = search_kernel(cfg)
    side = Side(kernel, Setback(cfg))
    side.load(Setback(cfg).new_initial_state(0), 0)
    side.redeal(0, 0, 1)
    kernel.group(side.ints, side.bits, 0, side.t)
    kernel.horizon(side.ints, side.bits, 0, side.t)
    kernel.estimate(side.ints, side.bits, 0, side.t, np.zeros(2))
    kernel.values(side.ints, side.bits, 0, side.t, np.zeros(2))
    side.observe(0, 0)
    side.play_out(0)


class Side:
    """Two rows of a search kernel and the calls the tests make on them."""

    def __init__(self, kernel: SearchKernel, game: Setback) -> None:
        self.kernel, self.game, self.step = kernel, game, kernel.step
        self.ints, self.bits, self.t = self.step.arrays(2)
        self.streams = np.zeros(2, np.uint64)
        self.mask = np.zeros(self.step.num_actions, np.bool_)
        self.batch = sb.SetbackBatch(game.cfg)
        self.names = [c.name for c in game.cfg.card_types()]

    def load(self, state: SetbackState, i: int) -> None:
        self.kernel.load(state, self.ints[i], self.bits[i], self.t)

    def redeal(self, i: int, seat: int, stream: int) -> None:
        self.streams[i] = np.uint64(stream)
        self.kernel.redeal(self.ints, self.bits, i, seat, self.t, self.streams)

    def player(self, i: int) -> int:
        return int(self.step.current_player(self.ints, self.bits, i, self.t))

    def legal(self, i: int) -> list[int]:
        self.step.legal(self.ints, self.bits, i, self.t, self.mask)
        return np.flatnonzero(self.mask).tolist()

    def observe(self, i: int, seat: int) -> NDArray[np.float32]:
        out = np.zeros(self.step.observation_size, np.float32)
        self.step.observe(self.ints, self.bits, i, seat, self.t, out)
        return out

    def group(self, i: int) -> int:
        return int(self.kernel.group(self.ints, self.bits, i, self.t))

    def values(self, i: int) -> list[float]:
        out = np.zeros(self.step.players)
        self.kernel.values(self.ints, self.bits, i, self.t, out)
        return out.tolist()

    def estimate(self, i: int) -> list[float]:
        out = np.zeros(self.step.players)
        self.kernel.estimate(self.ints, self.bits, i, self.t, out)
        return out.tolist()

    def named(self, i: int) -> dict[str, Any]:
        """Row ``i`` as ``SetbackState.to_json``'s keys, cards by name."""
        return _named(self.batch.state_json(self.ints, i), self.names)

    def cards(self, i: int) -> list[int]:
        """Every card of row ``i``, wherever it lies (sorted)."""
        k, s = self.batch.tables, self.ints[i]
        js = self.batch.state_json(self.ints, i)
        out = [c for r in js["grid"] for c in r] + js["draw"] + js["discard"]
        out += [c for h in js["hands"] for c in h] + [c for p in js["skip_cards"] for c in p]
        if s[sb.F_PHASE] == sb.WINDOW:
            if s[sb.F_SOURCE] == sb.SRC_HAND:
                out.append(int(s[sb.F_DECL_CARD]))
            out += [int(s[k[sb.S_BLOCK_CARD] + j]) for j in range(s[sb.F_NBLOCKS])]
        return sorted(out)

    def play_out(self, i: int) -> int:
        """Random legal actions (from ``streams[i]``) to the end; every card stays somewhere.
        The number of decisions."""
        decisions = 0
        deck = list(range(len(self.names)))
        while self.player(i) >= 0:
            count = self.step.legal(self.ints, self.bits, i, self.t, self.mask)
            assert count > 0
            self.step.apply(
                self.ints, self.bits, i, random_action(self.streams, i, self.mask, count), self.t
            )
            assert self.cards(i) == deck
            decisions += 1
        return decisions


def _named(js: dict[str, Any], names: list[str]) -> dict[str, Any]:
    out = dict(js)
    for key in ("grid", "hands", "skip_cards"):
        out[key] = [[names[c] for c in r] for r in js[key]]
    for key in ("draw", "discard"):
        out[key] = [names[c] for c in js[key]]
    return out


def engine_game(game: Setback, seed: int, rng: random.Random) -> Iterator[SetbackState]:
    """An engine game of random actions: its state at every decision (the same object, moved
    on after the caller's look)."""
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        yield state
        seat = state.pending[0]
        legal = game.legal_actions(state, seat)
        game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
    yield state


def sides(config: dict[str, Any]) -> tuple[Setback, Side]:
    cfg = SetbackConfig(**config)
    game = Setback(cfg)
    return game, Side(search_kernel(cfg), game)


def play_on(game: Setback, side: Side, state: SetbackState, seed: int) -> None:
    """Load ``state`` into row 1 and play both to the end with the same random actions: the
    same seat asked, legal mask and observation at every decision, each BLOCK window's answers
    one group (SB-9), the same state, observations and rewards at the end."""
    encoding = action_encoding(game)
    encode = observer(game).encode
    rng = np.random.default_rng(seed)
    side.load(state, 1)
    window: tuple[int, list[int]] | None = None  # the open window's group and asked seats
    while not state.is_terminal:
        seat = state.pending[0]
        assert side.player(1) == seat
        legal = sorted(encoding.index(a) for a in game.legal_actions(state, seat))
        assert side.legal(1) == legal
        assert np.array_equal(side.observe(1, seat), encode(game.observe(state, seat)))
        group = side.group(1)
        if state.phase != "window":
            assert group == -1
            window = None
        elif window is not None and window[1] == state.asked:
            assert group == window[0]  # the same window: its answers are one group
        else:
            assert window is None or group > window[0]  # a new window: a new group
            window = (group, state.asked)
        action = legal[rng.integers(len(legal))]
        game.apply_unchecked(state, seat, encoding.action(action))
        side.step.apply(side.ints, side.bits, 1, action, side.t)
        if window is not None:
            window = (window[0], [q for q in window[1] if q != seat])
    assert side.player(1) == -1
    assert side.named(1) == _named({k: state.to_json()[k] for k in side.named(1)}, side.names)
    outcome = game.outcome(state)
    assert outcome is not None
    assert side.values(1) == pytest.approx(rewards(outcome, game.num_players), abs=1e-9)
    for seat in range(game.num_players):
        assert np.array_equal(side.observe(1, seat), encode(game.observe(state, seat)))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_load_is_faithful(config: dict[str, Any]) -> None:
    game, side = sides(config)
    encoding = action_encoding(game)
    encode = observer(game).encode
    rng = random.Random(len(config))
    windows = steps = 0
    for g in range(2):
        for d, state in enumerate(engine_game(game, derive_seed(31, g), rng)):
            side.load(state, 0)
            row = side.batch.state_json(side.ints, 0)
            assert row == {key: state.to_json()[key] for key in row}, f"game {g}, decision {d}"
            if state.is_terminal:
                assert side.player(0) == -1
                continue
            seat = state.pending[0]
            assert side.player(0) == seat
            assert side.legal(0) == sorted(
                encoding.index(a) for a in game.legal_actions(state, seat)
            )
            for q in range(game.num_players):
                want = encode(game.observe(state, q))
                assert np.array_equal(side.observe(0, q), want), f"game {g}, decision {d}"
            windows += state.phase == "window"
            steps += state.phase == "step"
            if (
                (state.phase == "window" and windows <= 2)
                or (state.phase == "step" and steps <= 2)
                or d % 60 == 30
            ):
                play_on(game, side, state.clone(), seed=d)
    assert windows > 0


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_redeal_is_the_samplers_deal(config: dict[str, Any]) -> None:
    """From the stream ``x``, the row of any state a view allows becomes the engine's
    ``sample_state(view, Rng(x))``, cards named, and the stream ends where that Rng ends."""
    game, side = sides(config)
    rng = random.Random(7 + len(config))
    for g in range(2):
        for state in engine_game(game, derive_seed(37, g), rng):
            if state.is_terminal:
                break
            side.load(state, 0)
            for seat in {state.pending[0], rng.randrange(game.num_players)}:
                x = rng.getrandbits(64)
                side.ints[1] = side.ints[0]
                side.redeal(1, seat, x)
                sampler = Rng(x)
                sampled = game.sample_state(game.observe(state, seat), sampler)
                row = side.named(1)
                assert row == _named({k: sampled.to_json()[k] for k in row}, side.names)
                assert int(side.streams[1]) == sampler.state


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_redeal_keeps_the_view(config: dict[str, Any]) -> None:
    game, side = sides(config)
    deck = list(range(len(side.names)))
    rng = random.Random(3 + len(config))
    n = game.num_players
    for d, state in enumerate(engine_game(game, derive_seed(41, 0), rng)):
        if state.is_terminal:
            break
        side.load(state, 0)
        asking = side.player(0)
        for seat in range(n):
            side.ints[1] = side.ints[0]
            side.redeal(1, seat, rng.getrandbits(64))
            assert np.array_equal(side.observe(1, seat), side.observe(0, seat))
            assert side.group(1) == side.group(0)
            assert side.cards(1) == deck
            asked = [(int(side.ints[i][sb.F_ASKED]) >> seat) & 1 for i in (0, 1)]
            assert asked[0] == asked[1]  # still asked in a window exactly when it was (SB-9)
            if state.phase != "window":
                assert side.player(1) == asking
            if side.player(1) == seat:
                want = sorted(
                    action_encoding(game).index(a) for a in game.legal_actions(state, seat)
                )
                assert side.legal(1) == want
            if (d + seat) % 20 == 0:
                assert side.play_out(1) > 0


def _hidden(side: Side, seat: int, other: int) -> tuple[int, int, str, int]:
    """What ``seat``'s view hides, from row 1: who is still asked and who answered BLOCK (bit
    sets), the card on top of the draw pile, and how many BLOCKs ``other`` holds."""
    k, s = side.batch.tables, side.ints[1]
    top = side.names[int(s[k[sb.S_DRAW] + s[sb.F_NDRAW] - 1])]
    hand = side.batch.state_json(side.ints, 1)["hands"][other]
    blocks = sum(side.names[c] == "BLOCK" for c in hand)
    return int(s[sb.F_ASKED]), int(s[sb.F_BLOCKERS]), top, blocks


def _p(a: list[Any], b: list[Any]) -> float:
    """Chi-square test of homogeneity of two samples of a hidden fact."""
    return firsts_p(np.array([str(x) for x in a]), np.array([str(x) for x in b]))


def test_redeal_is_distributed_as_the_sampler() -> None:
    """~2,000 redeals against ~2,000 sampler states loaded into rows, from one view in a BLOCK
    window the observer has answered (who else is still asked and how the others answered are
    drawn, SB-9): the frequencies of every hidden fact agree; a redeal biased against an asked
    seat or a BLOCK on top of the pile is caught."""
    config = {"players": 5, "deck": ACTION_DECK, "self_block": "all"}
    game, side = sides(config)
    rng = random.Random(5)
    for state in engine_game(game, derive_seed(43, 0), rng):
        # A window the observer answered with two others still asked, after some play.
        if state.move > 30 and state.phase == "window" and len(state.asked) >= 2:
            answered = [q for q in range(5) if game.observe(state, q).answer]
            if answered:
                break
    seat = answered[0]
    other = state.asked[0]  # in the samples, asked or answered as its coin says
    view = game.observe(state, seat)
    side.load(state, 0)
    draws = 2000
    redealt, biased, sampled = [], [], []
    for j in range(draws):
        side.ints[1] = side.ints[0]
        side.redeal(1, seat, derive_seed(47, j))
        redealt.append(_hidden(side, seat, other))
        # Biased: dealt again once when `other` is still asked or a BLOCK is on top.
        asked, _, top, _ = redealt[-1]
        if (asked >> other) & 1 or top == "BLOCK":
            side.redeal(1, seat, derive_seed(53, j))
        biased.append(_hidden(side, seat, other))
        side.load(game.sample_state(view, Rng(derive_seed(59, j))), 1)
        sampled.append(_hidden(side, seat, other))
    for fact in range(4):
        a, b = ([x[fact] for x in xs] for xs in (redealt, sampled))
        assert len(set(b)) > 1, f"fact {fact} is not hidden here"
        assert _p(a, b) > 0.001, f"fact {fact}"
    assert _p([x[0] >> other & 1 for x in biased], [x[0] >> other & 1 for x in sampled]) < 0.001
    assert _p([x[2] == "BLOCK" for x in biased], [x[2] == "BLOCK" for x in sampled]) < 0.001


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_estimate_and_values_are_the_playouts(config: dict[str, Any]) -> None:
    game, side = sides(config)
    playout = SetbackPlayout(game)
    rng = random.Random(11)
    ends = Counter[str]()
    for g in range(8):
        for state in engine_game(game, derive_seed(61, g), rng):
            side.load(state, 0)
            if not state.is_terminal:
                assert side.estimate(0) == pytest.approx(playout.estimate(state), abs=1e-9)
                continue
            outcome = game.outcome(state)
            assert outcome is not None
            assert side.values(0) == pytest.approx(rewards(outcome, game.num_players), abs=1e-9)
            ends["finish" if state.winner >= 0 else "length"] += 1
    assert sum(ends.values()) == 8
    if "max_moves" in config:
        assert ends["length"] > 0


def test_the_search_face() -> None:
    cfg = SetbackConfig(players=4, deck=ACTION_DECK)
    game = Setback(cfg)
    kernel = search_kernel(cfg)
    encoding = action_encoding(game)
    assert kernel.depth == 24 and not kernel.playout_heuristic
    # The playout's and the rewards' constants, written out again in the kernel (kernels do not
    # import the bots).
    assert setback_search._SPREAD == SetbackPlayout.SPREAD
    assert setback_search._RANK_WEIGHT == search.RANK_WEIGHT
    for index, action in enumerate(encoding.actions):
        assert kernel.encode(action) == index and kernel.decode(index) == action
    ints, bits, t = kernel.step.arrays(1)
    kernel.step.reset_one(ints, bits, 0, np.uint64(9), t)
    assert kernel.horizon(ints, bits, 0, t) == 0


def test_the_compiled_functions_run_in_a_loop_without_reference_counts() -> None:
    """The compiled search calls them in loops compiled without Numba's reference counts,
    where making an array does not compile: redeal, play, group, estimate, values."""
    cfg = SetbackConfig(players=4, deck=ACTION_DECK)
    kernel = search_kernel(cfg)
    step = kernel.step
    redeal, group, estimate, values = kernel.redeal, kernel.group, kernel.estimate, kernel.values
    current, legal, apply = step.current_player, step.legal, step.apply
    flags: dict[str, Any] = {"_nrt": False}

    @numba.njit(**flags)
    def iterate(ints, bits, t, streams, mask, out, iterations):  # type: ignore[no-untyped-def]
        groups = 0
        for it in range(iterations):
            for j in range(ints.shape[1]):
                ints[1, j] = ints[0, j]
            redeal(ints, bits, 1, it % 4, t, streams)
            for _ in range(24):
                if current(ints, bits, 1, t) < 0:
                    break
                groups += group(ints, bits, 1, t) >= 0
                count = legal(ints, bits, 1, t, mask)
                apply(ints, bits, 1, random_action(streams, 1, mask, count), t)
            if current(ints, bits, 1, t) >= 0:
                estimate(ints, bits, 1, t, out[it])
            else:
                values(ints, bits, 1, t, out[it])
        return groups

    ints, bits, t = step.arrays(2)
    kernel.load(Setback(cfg).new_initial_state(3), ints[0], bits[0], t)
    streams = np.arange(2, dtype=np.uint64)
    out = np.zeros((50, 4))
    mask = np.zeros(step.num_actions, np.bool_)
    assert iterate(ints, bits, t, streams, mask, out, 50) > 0
    assert ((out >= 0) & (out <= 1)).all() and out.sum() > 0
