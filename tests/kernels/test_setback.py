"""The compiled kernel of Setback against the engine.

Two kinds of agreement. **Bit-exact**: on the engine's own deals (the kernel reproduces ``Rng``,
its shuffle of the deck and of the discards, SB-3, and the random first player), a scripted
player choosing by index — ``choices[k] % len(legal)`` for a random seat, the
``choices[k] % len(best)``-th of the heuristic bot's best actions for a heuristic seat — makes
every decision, with the same legal actions in the same order (ids of the action encoding),
the same seat asked, and the same scores, ranks and winners in both; across every player count
(SB-11) and option: decks full of REVAMP, SHIFT, CUT, TRADE, SKIP and BLOCK cards, FREE cards
(SB-3), ``self_block`` (SB-9), ``edge_bump`` (SB-7), rows removable (SB-8), lanes (SB-1, SB-6)
and ``max_moves``, which ends some games inside a BLOCK window. **In distribution**: under random
play on different seeds (the engine's random choices come from ``random.Random``), the first
seats at FINISH pass a chi-square test, the game lengths and the total progress
Kolmogorov–Smirnov tests; a board of five rows instead of six (SB-1) or rows never removed
(SB-8) fail them. Seeds are fixed, so each test gives the same
answer every run.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from kernels.compiling import compile_once
from racedeck.bots.setback import SetbackHeuristicBot, card_worth
from racedeck.core.rng import derive_seed
from racedeck.games.setback import Setback, SetbackConfig
from racedeck.games.setback.actions import Play
from racedeck.games.setback.cards import CARD_NAMES
from racedeck.games.setback.encoding import action_encoding
from racedeck.kernels import setback as kb
from racedeck.kernels.setback import SetbackBatch

# Action cards in plenty: every REVAMP, SHIFT, CUT, TRADE and SKIP path, FREE forms of cards
# the rulebook's deck has no FREE copy of, and BLOCKs that are blocked in turn (SB-9).
ACTION_DECK = (
    ("MOVE+1", 6), ("MOVE+2*", 3), ("MOVE-1", 3), ("FOE+1", 3), ("FOE+2*", 2), ("FOE-2", 3),
    ("ALL+1", 3), ("ALL+2", 2), ("ALL-1", 2), ("SHIFT", 5), ("SHIFT*", 2), ("TRADE", 4),
    ("CUT", 5), ("CUT*", 1), ("DRAW", 4), ("REVAMP", 8), ("SKIP", 4), ("SKIP*", 1), ("BLOCK", 10),
)  # fmt: skip
# Just enough cards for board and hands: the discards are reshuffled again and again (SB-3).
SMALL_DECK = (("MOVE+1", 8), ("FOE-1", 3), ("ALL+1", 3), ("BLOCK", 4), ("SKIP", 2), ("DRAW", 2))

# Sixty of a kind, the most a deck may hold (SB-2's option).
BIG_DECK = (("MOVE+2", 60), ("FOE-1", 60), ("ALL+1*", 60), ("BLOCK", 60), ("REVAMP", 60),
            ("SKIP*", 30), ("CUT", 30))  # fmt: skip

CONFIGS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 4, "deck": ACTION_DECK, "self_block": "all", "max_lanes": 8, "min_lanes": 1},
    {"players": 3, "deck": ACTION_DECK, "self_block": "none", "edge_bump": "forward",
     "lanes": 5, "rows": 3, "rows_removable": 0},
    {"players": 6, "deck": ACTION_DECK, "rows": 9, "hand_size": 5, "draw_count": 4,
     "rows_removable": 5, "edge_bump": "forward"},
    {"players": 2, "deck": SMALL_DECK, "rows": 4, "lanes": 2, "hand_size": 4, "draw_count": 0,
     "max_lanes": 2},
    {"players": 5, "rows": 1, "hand_size": 1, "lanes": 8, "max_lanes": 8},
    {"players": 4, "deck": ACTION_DECK, "max_moves": 100},  # ends by length, some in a window
    # The largest board, hands and draws, a deck of 360 cards (the shuffles' longest plans).
    {"players": 6, "deck": BIG_DECK, "rows": 20, "lanes": 8, "max_lanes": 8, "hand_size": 10,
     "draw_count": 10, "rows_removable": 20, "max_moves": 3000},
)  # fmt: skip
IDS = [
    "-".join(f"{k}={v}" if k != "deck" else {ACTION_DECK: "actions", SMALL_DECK: "small",
                                              BIG_DECK: "big"}[v] for k, v in c.items())
    for c in CONFIGS
]  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compile the kernel in one test process only: the first to get here compiles it into
    Numba's cache while any other that needs it waits, then loads it from there."""
    compile_once(tmp_path_factory, "setback-kernel", _compile)
    yield


def _compile() -> None:
    batch = SetbackBatch(SetbackConfig(players=2))
    batch.play(2, seed=0)
    states = batch.new_states(1)
    out = np.empty(batch.max_legal, np.int64)
    k = batch.tables
    kb.reset_one(k, states, 0, np.uint64(0))
    kb.legal(k, states, 0, out)
    kb.current_player(k, states, 0)
    kb.apply(k, states, 0, int(out[0]))
    kb.is_over(k, states, 0)


class Fixed:
    """A stand-in for the bot's ``random.Random``: its tie-break takes one scripted choice."""

    def __init__(self, choice: int) -> None:
        self.choice = choice

    def randrange(self, n: int) -> int:
        """The choice, modulo ``n``."""
        return self.choice % n


def scripted(games: int, columns: int, seed: int) -> NDArray[np.uint32]:
    """Choices for ``games`` games."""
    return np.random.default_rng(seed).integers(0, 2**32, (games, columns), dtype=np.uint32)


def engine_game(
    game: Setback, seed: int, policies: tuple[str, ...], choices: NDArray[np.uint32]
) -> tuple[list[int], Any, int, int]:
    """Play one scripted game on the engine's fast path: decisions (index into the legal
    actions of the moment, in asking order), outcome, the seat at FINISH first, moves."""
    bots = [SetbackHeuristicBot(game, seat, 0) for seat in range(game.n)]
    state = game.new_initial_state(seed)
    taken: list[int] = []
    while not state.is_terminal:
        seat = state.pending[0]  # a window's seats in seating order from the player on turn
        legal = game.legal_actions(state, seat)
        choice = int(choices[len(taken)])
        if policies[seat] == "random":
            index = choice % len(legal)
        else:
            bots[seat]._rng = Fixed(choice)  # type: ignore[assignment]
            index = legal.index(bots[seat].act(game.observe(state, seat)))
        taken.append(index)
        game.apply_unchecked(state, seat, legal[index])
    return taken, game.outcome(state), state.winner, state.move


def seeds_for(count: int, salt: int) -> list[int]:
    return [derive_seed(salt, i) for i in range(count)] + [0, 2**64 - 1]


# -- tables and deals ---------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_action_ids_decode_to_the_encodings_actions(config: dict[str, Any]) -> None:
    cfg = SetbackConfig(**config)
    enc = action_encoding(Setback(cfg))
    k = SetbackBatch(cfg).tables
    assert k[kb.K_END_ID] + 4 == k[kb.K_STEP_BASE]
    assert int(kb._most_options(k)) == enc.num_distinct_actions
    base = int(k[kb.K_T_DECODE])
    for i, action in enumerate(enc.actions):
        cls, tid, target, lane, other, mode = k[base + 6 * i : base + 6 * i + 6].tolist()
        if isinstance(action, Play):
            assert (cls, target, lane, other) == (
                kb.A_PLAY,
                action.target,
                action.lane,
                action.other,
            )
            assert kb._MODES[action.mode] == mode
            assert enc.actions[int(k[k[kb.K_T_BASE] + tid])].card == action.card  # type: ignore[union-attr]
        else:
            assert cls == {"EndHand": kb.A_END, "DiscardBlock": kb.A_DISCARD, "Block": kb.A_BLOCK,
                           "Pass": kb.A_PASS, "Step": kb.A_STEP}[type(action).__name__]  # fmt: skip


# The first test of its process: the kernel compiles (``compiled_once``) while others run.
@pytest.mark.first
def test_game_seeds_are_the_simulations() -> None:
    batch = SetbackBatch(SetbackConfig(players=4))
    assert [int(s) for s in batch.seeds(5, 99)] == [derive_seed(99, i) for i in range(5)]
    assert [int(s) for s in batch.seeds(3, -1)] == [derive_seed(-1, i) for i in range(3)]


# -- bit-exact, decision by decision ------------------------------------------------------------


STATE_KEYS = [
    "players",
    "grid",
    "rows_removed",
    "row",
    "lane",
    "hands",
    "draw",
    "discard",
    "skip_cards",
    "skip_spent",
    "current",
    "phase",
    "source",
    "hand_played",
    "nonfree_played",
    "asked",
    "blockers",
    "winner",
    "move",
    "rng",
]
"""What :meth:`SetbackBatch.state_json` gives of ``SetbackState.to_json``."""


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_decision_offers_the_engines_legal_actions(config: dict[str, Any]) -> None:
    """The stepping functions, driven from Python: at every decision the same state (board,
    hands, piles in order, the generator), the same seat asked with the same legal actions
    (encoding ids, engine order); the same scores and ranks at the end."""
    cfg = SetbackConfig(**config)
    game = Setback(cfg)
    enc = action_encoding(game)
    batch = SetbackBatch(cfg)
    k = batch.tables
    states = batch.new_states(3)  # a game in the middle row: rows are independent
    out = np.empty(batch.max_legal, np.int64)
    scores = np.empty(cfg.players, np.int64)
    ranks = np.empty(cfg.players, np.int64)
    seeds = seeds_for(12, len(config))
    choices = scripted(len(seeds), cfg.max_moves, seed=sum(map(ord, str(config))))
    for g, seed in enumerate(seeds):
        state = game.new_initial_state(seed)
        kb.reset_one(k, states, 1, np.uint64(seed))
        d = 0
        while not state.is_terminal:
            seat = state.pending[0]
            legal = game.legal_actions(state, seat)
            count = kb.legal(k, states, 1, out)
            assert kb.current_player(k, states, 1) == seat, f"seed {seed} decision {d}"
            assert out[:count].tolist() == enc.indices(legal), f"seed {seed} decision {d}"
            assert not kb.is_over(k, states, 1)
            whole = state.to_json()  # the whole state: board, hands, piles, generator
            assert batch.state_json(states, 1) == {key: whole[key] for key in STATE_KEYS}
            index = int(choices[g, d]) % len(legal)
            game.apply_unchecked(state, seat, legal[index])
            kb.apply(k, states, 1, int(out[index]))
            d += 1
        assert kb.is_over(k, states, 1) and kb.current_player(k, states, 1) == -1
        whole = state.to_json()  # at the end too: max_moves empties an open window
        assert batch.state_json(states, 1) == {key: whole[key] for key in STATE_KEYS}
        first = kb.returns(k, states, 1, scores, ranks)
        outcome = game.outcome(state)
        assert outcome is not None
        assert scores.tolist() == [int(x) for x in outcome.scores], f"seed {seed}"
        assert ranks.tolist() == list(outcome.ranks), f"seed {seed}"
        assert first == state.winner
    assert not states[0].any() and not states[2].any()


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
def test_whole_games_agree_with_the_engine_decision_by_decision(
    config: dict[str, Any], policy: str
) -> None:
    """``play`` in one compiled loop (a BLOCK window answered at once), scripted: every
    decision, score, rank, winner and the number of moves as the engine's."""
    cfg = SetbackConfig(**config)
    game = Setback(cfg)
    batch = SetbackBatch(cfg)
    n = cfg.players
    if policy == "mixed":  # heuristic and random seats at one table
        policies = tuple("heuristic" if s % 2 == 0 else "random" for s in range(n))
    else:
        policies = (policy,) * n
    seeds = seeds_for(8 if policy == "random" else 3, n)
    choices = scripted(len(seeds), batch.max_decisions, seed=len(IDS) * n)
    result = batch.play(
        np.array(seeds, dtype=np.uint64), policies=policies, choices=choices, record=True
    )
    assert result.decisions is not None
    for i, seed in enumerate(seeds):
        taken, outcome, first, moves = engine_game(game, seed, policies, choices[i])
        assert result.decisions[i, : len(taken)].tolist() == taken, f"seed {seed}"
        assert (result.decisions[i, len(taken) :] == -1).all()
        assert result.scores[i].tolist() == [int(x) for x in outcome.scores]
        assert result.ranks[i].tolist() == list(outcome.ranks)
        assert set(np.flatnonzero(result.winners[i]).tolist()) == outcome.winners
        assert result.first[i] == first and result.moves[i] == moves


@pytest.mark.parametrize("config", CONFIGS[:6], ids=IDS[:6])
def test_the_fast_random_loop_plays_the_general_loops_games(config: dict[str, Any]) -> None:
    """Unscripted random play without records answers a BLOCK window in one pass (only the
    seats holding a BLOCK draw); recorded, every answer is a decision of the general loop: the
    same draws, so the same games."""
    batch = SetbackBatch(SetbackConfig(**config))
    fast = batch.play(300, seed=21)
    general = batch.play(300, seed=21, record=True)
    assert general.decisions is not None
    assert (fast.moves == general.moves).all() and (fast.scores == general.scores).all()
    assert (fast.first == general.first).all()
    assert ((general.decisions >= 0).sum(axis=1) == general.moves).all()


def test_heuristic_scores_are_the_bots() -> None:
    """The kernel's score of every legal action is the bot's own, to the bit."""
    cfg = SetbackConfig(players=4, deck=ACTION_DECK)
    game = Setback(cfg)
    enc = action_encoding(game)
    batch = SetbackBatch(cfg)
    k = batch.tables
    states = batch.new_states(1)
    out = np.empty(batch.max_legal, np.int64)
    values = np.empty(batch.max_legal, np.float64)
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        kb.reset_one(k, states, 0, np.uint64(seed))
        while not state.is_terminal:
            seat = state.pending[0]
            legal = game.legal_actions(state, seat)
            count = kb.legal(k, states, 0, out)
            if state.phase != "window":
                kb.heuristic_scores(k, batch.worth, states, 0, out, count, values)
                bot = SetbackHeuristicBot(game, seat, 0)
                view = game.observe(state, seat)
                assert values[:count].tolist() == [bot._score(view, a) for a in legal]
                checked += 1
            index = rng.randrange(len(legal))
            game.apply_unchecked(state, seat, legal[index])
            kb.apply(k, states, 0, enc.index(legal[index]))
    assert checked > 100


def test_card_worths_are_the_bots() -> None:
    cfg = SetbackConfig(deck=tuple((name, 1) for name in CARD_NAMES))  # every card there is
    assert SetbackBatch(cfg).worth.tolist() == [card_worth(t.name) for t in cfg.card_types()]


def test_heuristic_ties_are_broken_by_the_script() -> None:
    batch = SetbackBatch(SetbackConfig(players=4))
    columns = batch.max_decisions
    one = batch.play(
        20, seed=3, policies="heuristic", choices=scripted(20, columns, 1), record=True
    )
    two = batch.play(
        20, seed=3, policies="heuristic", choices=scripted(20, columns, 2), record=True
    )
    assert one.decisions is not None and two.decisions is not None
    assert (one.decisions != two.decisions).any()


# -- the same distributions under random play ---------------------------------------------------


@functools.cache
def engine_random_games(cfg: SetbackConfig, games: int, seed: int) -> tuple[NDArray[Any], ...]:
    """The seat at FINISH first, the moves and the sum of the seats' progress (the engine's
    scores) of ``games`` uniformly random engine games (``RandomBot``'s choice:
    ``legal[rng.randrange(len(legal))]``)."""
    game = Setback(cfg)
    rng = random.Random(seed)
    firsts, moves, totals = [], [], []
    for i in range(games):
        state = game.new_initial_state(derive_seed(seed, i))
        while not state.is_terminal:
            seat = state.pending[0]
            legal = game.legal_actions(state, seat)
            game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
        firsts.append(state.winner)
        moves.append(state.move)
        totals.append(sum(game.progress(state)))
    return np.array(firsts), np.array(moves), np.array(totals)


def firsts_p(a: NDArray[Any], b: NDArray[Any]) -> float:
    """Chi-square test of homogeneity of two samples of first seats at FINISH."""
    seats = sorted(set(a.tolist()) | set(b.tolist()))
    table = [[int((x == s).sum()) for s in seats] for x in (a, b)]
    from scipy import stats as scipy_stats  # imported where used: it is slow to import

    return float(scipy_stats.chi2_contingency(table).pvalue)


def ks_p(a: NDArray[Any], b: NDArray[Any]) -> float:
    """Two-sample Kolmogorov–Smirnov test."""
    from scipy import stats as scipy_stats

    return float(scipy_stats.ks_2samp(a, b).pvalue)


DISTRIBUTION_CONFIGS = (({"players": 4}, 500), ({"players": 2}, 500))


@pytest.mark.parametrize(
    ("config", "games"), DISTRIBUTION_CONFIGS, ids=[str(c) for c, _ in DISTRIBUTION_CONFIGS]
)
def test_random_play_has_the_engines_distributions(config: dict[str, Any], games: int) -> None:
    cfg = SetbackConfig(**config)
    firsts, moves, totals = engine_random_games(cfg, games, seed=11)
    result = SetbackBatch(cfg).play(20_000, seed=12)
    assert firsts_p(firsts, result.first) > 0.001
    assert ks_p(moves, result.moves) > 0.001
    assert ks_p(totals, result.scores.sum(axis=1)) > 0.001


def test_the_distribution_tests_catch_a_wrong_rule() -> None:
    _, moves, totals = engine_random_games(SetbackConfig(players=4), 500, seed=11)
    # Five rows instead of six (SB-1 misread): the game lengths must show it.
    wrong = SetbackBatch(SetbackConfig(players=4, rows=5)).play(20_000, seed=12)
    assert ks_p(moves, wrong.moves) < 0.001
    # No row ever removed (SB-8 forgotten): the progress at the end must show it.
    wrong = SetbackBatch(SetbackConfig(players=4, rows_removable=0)).play(20_000, seed=12)
    assert ks_p(totals, wrong.scores.sum(axis=1)) < 0.001


# -- the Python face ----------------------------------------------------------------------------


def test_policies_and_choices_are_checked() -> None:
    batch = SetbackBatch(SetbackConfig(players=3, max_moves=100))
    with pytest.raises(ValueError, match="unknown policy clever"):
        batch.play(2, policies="clever")
    with pytest.raises(ValueError, match="one per seat"):
        batch.play(2, policies=("random", "random"))
    with pytest.raises(ValueError, match="at least 100 columns"):
        batch.play(2, choices=np.zeros((2, 10), np.uint32))
    with pytest.raises(ValueError, match="0 or more"):
        batch.play(-1)


def test_a_batch_is_reproducible_and_ends_every_game() -> None:
    batch = SetbackBatch(SetbackConfig(players=5))
    one, two = batch.play(500, seed=4), batch.play(500, seed=4)
    assert (one.scores == two.scores).all() and (one.moves == two.moves).all()
    assert (one.winners.sum(axis=1) >= 1).all()
    assert abs(float(one.win_shares().sum()) - 1.0) < 1e-9
    assert one.decisions is None
    counts = Counter(one.first.tolist())
    assert set(counts) <= set(range(5)) | {-1}
