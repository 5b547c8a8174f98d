"""The batch simulator of Why First? against the engine.

Two kinds of agreement. **Bit-exact**: on the engine's own deals (the batch simulator reproduces
``Rng`` and its shuffle), a scripted player choosing by index — ``choices[k] % len(legal)`` for a
random seat, the ``choices[k] % len(best)``-th of the heuristic bot's best actions for a
heuristic seat — makes every decision, every stage score and the winners equal in both. **In
distribution**: under random play on different seeds (the engine's ``RandomBot`` draws from
``random.Random``, the simulator from its own stream), the winner sets pass a chi-square test of
homogeneity and every figure's totals a two-sample Kolmogorov–Smirnov test; a deck with one card
wrong (WF-2) fails them. Seeds are fixed, so each test gives the same answer every run.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from kernels.compiling import compile_once
from racedeck.bots.why_first import WhyFirstHeuristicBot
from racedeck.core.rng import Rng, derive_seed
from racedeck.games.why_first import WhyFirst, WhyFirstConfig
from racedeck.kernels.why_first import DECK32_PLAN, WhyFirstBatch, shuffle_plan

# A deck of 20 cards with 12 distinct values: the general shuffle and the bit-by-bit hand masks.
ODD_DECK = (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 1, 2, 3, -1, -2, 1, 7, -7)

# The largest deck (64 cards, white numbers up to the last bit of a set) with 32 distinct values.
BIG_DECK = tuple((i % 16 + 1) * (1 if i % 2 else -1) for i in range(64))

CONFIGS: tuple[dict[str, Any], ...] = (
    {"players": 2},  # with Leo (WF-9)
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 2, "variant": "tactical"},  # WF-10, Leo's cards in their slots
    {"players": 4, "variant": "tactical"},
    {"players": 6, "variant": "tactical"},
    {"players": 3, "hand_size": 4, "stages": 3, "track_min": -5, "track_max": 6,
     "card_values": ODD_DECK},
    {"players": 2, "variant": "tactical", "hand_size": 3, "card_values": ODD_DECK},
    {"players": 2, "variant": "tactical", "hand_size": 21, "stages": 2, "card_values": BIG_DECK},
    {"players": 6, "hand_size": 10, "stages": 2, "card_values": BIG_DECK},
)  # fmt: skip
IDS = ["-".join(f"{k}={v}" for k, v in c.items() if k != "card_values") for c in CONFIGS]


@pytest.fixture(scope="module", autouse=True)
def compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compile the kernels in one test process only: the first to get here compiles them into
    Numba's cache while any other (``make test`` runs several) that needs them waits, then
    loads them from it. Every process compiling at once cost a minute of the run on two
    cores."""
    compile_once(
        tmp_path_factory,
        "why-first-batch",
        lambda: WhyFirstBatch(WhyFirstConfig(players=4)).play(2, seed=0),
    )
    yield


@dataclass
class Script:
    """A stand-in for ``random.Random`` whose draws are the scripted choices, in order."""

    choices: NDArray[np.uint32]
    used: int = 0
    taken: list[int] = field(default_factory=list)

    def randrange(self, n: int) -> int:
        """The next choice, modulo ``n``."""
        k = int(self.choices[self.used]) % n
        self.used += 1
        return k


def engine_game(
    game: WhyFirst, seed: int, policies: tuple[str, ...], choices: NDArray[np.uint32]
) -> tuple[list[int], list[list[int]], frozenset[int], list[int]]:
    """Play one scripted game on the engine: totals, stage points, winners, decisions (index
    into the legal actions of the moment)."""
    script = Script(choices)
    bots = []
    for seat in range(game.n):
        bot = WhyFirstHeuristicBot(game, seat, 0)
        bot._rng = script  # type: ignore[assignment] # its tie-break draws the script
        bots.append(bot)
    state = game.new_initial_state(seed)
    taken = []
    while not state.is_terminal:
        seat = state.pending[0]  # seats ascending, then the tactical moves in order
        legal = game.legal_actions(state, seat)
        if policies[seat] == "random":
            action = legal[script.randrange(len(legal))]
        else:
            action = bots[seat].act(game.observe(state, seat))
        taken.append(legal.index(action))
        game.apply_unchecked(state, seat, action)
    outcome = game.outcome(state)
    assert outcome is not None
    return state.totals, state.stage_history, outcome.winners, taken


def scripted(games: int, columns: int, seed: int) -> NDArray[np.uint32]:
    """Choices for ``games`` games."""
    return np.random.default_rng(seed).integers(0, 2**32, (games, columns), dtype=np.uint32)


# -- the same deals --------------------------------------------------------------------------


def test_the_shuffle_plan_is_the_engines() -> None:
    plan = shuffle_plan(32)
    assert [(int(t), int(b), int(limit)) for t, b, limit in zip(*plan, strict=True)] == list(
        DECK32_PLAN
    )
    # The plan's steps, replayed in Python, shuffle as Rng.shuffle does.
    for n in (5, 20, 32, 64):
        top, bottom, limit = shuffle_plan(n)
        for seed in range(20):
            ours, theirs = list(range(n)), list(range(n))
            Rng(seed).shuffle(theirs)
            rng = Rng(seed)
            for g in range(len(top)):
                x = rng.next_u64()
                while x >= int(limit[g]):
                    x = rng.next_u64()
                for i in range(int(top[g]), int(bottom[g]), -1):
                    x, j = divmod(x, i + 1)
                    ours[i], ours[j] = ours[j], ours[i]
            assert ours == theirs


# The first test of the run: its process compiles the kernels (see ``compiled_once``) while the
# others play the browser tests, instead of three processes waiting for one near the end.
@pytest.mark.first
def test_game_seeds_are_the_simulations() -> None:
    batch = WhyFirstBatch(WhyFirstConfig(players=4))
    assert [int(s) for s in batch.seeds(5, 99)] == [derive_seed(99, i) for i in range(5)]
    assert [int(s) for s in batch.seeds(3, -1)] == [derive_seed(-1, i) for i in range(3)]


# -- bit-exact on scripted play -----------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
def test_scripted_games_agree_with_the_engine_decision_by_decision(
    config: dict[str, Any], policy: str
) -> None:
    cfg = WhyFirstConfig(**config)
    game = WhyFirst(cfg)
    batch = WhyFirstBatch(cfg)
    n = cfg.players
    if policy == "mixed":  # heuristic and random seats at one table
        policies = tuple("heuristic" if s % 2 == 0 else "random" for s in range(n))
    else:
        policies = (policy,) * n
    games = 40 if policy == "random" else 12
    seeds = [derive_seed(7, i) for i in range(games)] + [0, 2**64 - 1]
    choices = scripted(len(seeds), batch.max_decisions, seed=len(IDS) * n)
    result = batch.play(
        np.array(seeds, dtype=np.uint64), policies=policies, choices=choices, record=True
    )
    assert result.stage_points is not None and result.decisions is not None
    for i, seed in enumerate(seeds):
        totals, history, winners, taken = engine_game(game, seed, policies, choices[i])
        assert result.decisions[i, : len(taken)].tolist() == taken, f"seed {seed}"
        assert (result.decisions[i, len(taken) :] == -1).all()
        assert result.stage_points[i].tolist() == history, f"seed {seed}"  # WF-6 each stage
        assert result.totals[i].tolist() == totals
        assert set(np.flatnonzero(result.winners[i]).tolist()) == winners  # WF-7


def test_heuristic_ties_are_broken_and_counted_like_the_bots() -> None:
    # Early in a game many actions rate alike: the scripted tie-break must pick among them.
    cfg = WhyFirstConfig(players=4)
    batch = WhyFirstBatch(cfg)
    one = batch.play(50, seed=3, policies="heuristic", choices=scripted(50, 80, 1), record=True)
    other = batch.play(50, seed=3, policies="heuristic", choices=scripted(50, 80, 2), record=True)
    assert one.decisions is not None and other.decisions is not None
    assert (one.decisions != other.decisions).any()


# -- the same distributions under random play ---------------------------------------------------


@functools.cache
def engine_random_games(cfg: WhyFirstConfig, games: int, seed: int) -> tuple[NDArray[Any], ...]:
    """Totals and winner masks of ``games`` uniformly random engine games (``RandomBot``'s
    choice: ``legal[rng.randrange(len(legal))]``)."""
    game = WhyFirst(cfg)
    rng = random.Random(seed)
    totals, masks = [], []
    for i in range(games):
        state = game.new_initial_state(derive_seed(seed, i))
        while not state.is_terminal:
            seat = state.pending[0]
            legal = game.legal_actions(state, seat)
            game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
        outcome = game.outcome(state)
        assert outcome is not None
        totals.append(state.totals)
        masks.append(sum(1 << f for f in outcome.winners))
    return np.array(totals), np.array(masks)


def winner_sets_p(a: NDArray[Any], b: NDArray[Any]) -> float:
    """Chi-square test of homogeneity of two samples of winner sets (as bit masks); sets seen
    fewer than 10 times in all are pooled into one class."""
    seen = Counter(a.tolist()) + Counter(b.tolist())
    common = sorted(m for m, c in seen.items() if c >= 10)
    table = [[int((x == m).sum()) for m in common] for x in (a, b)]
    rare = [len(x) - sum(row) for x, row in zip((a, b), table, strict=True)]
    if sum(rare):
        table = [[*row, r] for row, r in zip(table, rare, strict=True)]
    # SciPy is imported where it is used: every test process collects this module, and
    # importing scipy.stats costs each of them most of a second.
    from scipy import stats as scipy_stats

    return float(scipy_stats.chi2_contingency(table).pvalue)


def totals_p(a: NDArray[Any], b: NDArray[Any]) -> float:
    """The smallest two-sample Kolmogorov–Smirnov p-value over the figures' totals, times the
    number of figures (Bonferroni)."""
    from scipy import stats as scipy_stats  # (see winner_sets_p)

    figures = a.shape[1]
    p = min(float(scipy_stats.ks_2samp(a[:, f], b[:, f]).pvalue) for f in range(figures))
    return float(min(1.0, p * figures))


DISTRIBUTION_CONFIGS = (
    ({"players": 4}, 2000),
    ({"players": 2}, 1500),  # Leo
    ({"players": 3, "variant": "tactical"}, 800),
)


@pytest.mark.parametrize(
    ("config", "games"), DISTRIBUTION_CONFIGS, ids=[str(c) for c, _ in DISTRIBUTION_CONFIGS]
)
def test_random_play_has_the_engines_score_and_winner_distributions(
    config: dict[str, Any], games: int
) -> None:
    cfg = WhyFirstConfig(**config)
    engine_totals, engine_masks = engine_random_games(cfg, games, seed=11)
    result = WhyFirstBatch(cfg).play(20_000, seed=12)
    masks = (result.winners * (1 << np.arange(result.winners.shape[1]))).sum(axis=1)
    assert winner_sets_p(engine_masks, masks) > 0.001
    assert totals_p(engine_totals, result.totals) > 0.001


def test_the_distribution_tests_catch_a_wrong_rule() -> None:
    # Hands of four cards instead of five (WF-3 misread): the totals test must see it.
    engine_totals, _ = engine_random_games(WhyFirstConfig(players=4), 2000, seed=11)
    wrong = WhyFirstBatch(WhyFirstConfig(players=4, hand_size=4)).play(20_000, seed=12)
    assert totals_p(engine_totals, wrong.totals) < 0.001
    # Winners taken as the highest total (WF-7 misread): the winner-set test must see it.
    _, engine_masks = engine_random_games(WhyFirstConfig(players=4), 2000, seed=11)  # cached
    right = WhyFirstBatch(WhyFirstConfig(players=4)).play(20_000, seed=12)
    highest = right.totals == right.totals.max(axis=1, keepdims=True)
    masks = (highest * (1 << np.arange(4))).sum(axis=1)
    assert winner_sets_p(engine_masks, masks) < 0.001


# -- the Python face ----------------------------------------------------------------------------


def test_policies_and_choices_are_checked() -> None:
    batch = WhyFirstBatch(WhyFirstConfig(players=3))
    with pytest.raises(ValueError, match="unknown policy clever"):
        batch.play(2, policies="clever")
    with pytest.raises(ValueError, match="one per seat"):
        batch.play(2, policies=("random", "random"))
    with pytest.raises(ValueError, match="at least 60 columns"):
        batch.play(2, choices=np.zeros((2, 10), np.uint32))
    with pytest.raises(ValueError, match="0 or more"):
        batch.play(-1)


def test_seeds_given_as_numbers_are_dealt_as_the_engine_deals_them() -> None:
    batch = WhyFirstBatch(WhyFirstConfig(players=2))
    game = WhyFirst(WhyFirstConfig(players=2))
    seeds = [-1, 0, 5, 2**64 - 1, 2**70 + 3]  # Rng keeps 64 bits of a seed
    one = batch.play(seeds, choices=np.zeros((5, batch.max_decisions), np.uint32), record=True)
    for i, seed in enumerate(seeds):
        totals, history, _, _ = engine_game(game, seed, ("random",) * 2, np.zeros(40, np.uint32))
        assert one.totals[i].tolist() == totals
        assert one.stage_points is not None and one.stage_points[i].tolist() == history
    assert one.seeds.tolist() == [s % 2**64 for s in seeds]


def test_a_batch_is_reproducible_and_its_win_shares_sum_to_one() -> None:
    batch = WhyFirstBatch(WhyFirstConfig(players=5))
    one, two = batch.play(1000, seed=4), batch.play(1000, seed=4)
    assert (one.totals == two.totals).all() and (one.winners == two.winners).all()
    assert one.winners.any(axis=1).all()  # WF-7: somebody always wins
    assert abs(float(one.win_shares().sum()) - 1.0) < 1e-9
    assert one.stage_points is None and one.decisions is None
