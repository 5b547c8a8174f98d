"""The small solvable configurations: explicit chance, perfect-recall information states that
keep every other seat's secret, and OpenSpiel's CFR+ and NashConv on them."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from typing import Any

import pyspiel
import pytest
from open_spiel.python import policy as os_policy

from racedeck.rl.solvable import CONFIGS, SolvableConfig, SolvableGame, SolvableState, configs, load
from racedeck.rl.solvable.analysis import mixing, tree_size
from racedeck.rl.solvable.policies import BotPolicy, gap
from racedeck.rl.solvable.setback import setback_deals
from racedeck.rl.solvable.six_day_race_lessons import race_columns
from racedeck.rl.solvable.solver import solve
from racedeck.rl.solvable.why_first_lessons import duel_lessons

DUEL = "why-first-duel-2"


@pytest.fixture(scope="module")
def duel() -> SolvableGame:
    # One game for the module: its tree, once walked, is kept.
    return load(DUEL)


def _deal_of(game: SolvableGame, label: str) -> int:
    return next(i for i, d in enumerate(game.deals) if d.label == label)


def _play(game: SolvableGame, deal: int, *texts: str) -> SolvableState:
    state = game.new_initial_state()
    state.apply_action(deal)
    for text in texts:
        action = game.encoding.index(
            game.engine.parse_action(text, state.view(state.current_player()))
        )
        state.apply_action(action)
    return state


def test_every_configuration_has_a_unique_name() -> None:
    names = [c.name for c in CONFIGS]
    assert len(set(names)) == len(names)


def test_duel_deals_are_the_engines_shuffle_by_value(duel: SolvableGame) -> None:
    # WF-3 and WF-9: every order of the six cards is equally likely; the hands are the first
    # two pairs, Leo's pile the fifth card. Counted card by card, then by value.
    values = duel.engine.config.card_values
    counted: Counter[str] = Counter()
    orders = list(permutations(range(len(values))))
    for order in orders:
        first = sorted(values[c] for c in order[:2])
        second = sorted(values[c] for c in order[2:4])
        words = [" ".join(f"{v:+d}" for v in vs) for vs in (first, second, [values[order[4]]])]
        counted[f"P1 {words[0]} / P2 {words[1]} / Leo {words[2]}"] += 1
    expected = {label: Fraction(k, len(orders)) for label, k in counted.items()}
    assert {d.label: d.probability for d in duel.deals} == expected
    assert sum(p for _, p in duel.new_initial_state().chance_outcomes()) == pytest.approx(1.0)


def test_duel_passes_openspiel_random_simulation(duel: SolvableGame) -> None:
    pyspiel.random_sim_test(duel, num_sims=5, serialize=False, verbose=False)
    assert duel.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_duel_returns_are_the_engines_winners(duel: SolvableGame) -> None:
    # One stage: P1 places +3 on Leo, P2 +2 on itself; WF-5 plays the last cards onto their
    # owners; Leo flips his +1 (WF-9).
    deal = _deal_of(duel, "P1 -1 +3 / P2 +1 +2 / Leo +1")
    state = _play(duel, deal, "+3>Leo", "+2>P2")
    assert state.is_terminal()
    # Positions: P1 -1, P2 +2+1 = 3, Leo 3+1 = 4: the second space, 3, scores 3 for P2 (WF-6);
    # totals 0, 3, 0: the second total, 0, wins (WF-7): P1 and Leo share it.
    assert list(state.engine_state.positions) == [-1, 3, 4]
    assert state.returns() == [0.5, 0.0]


def test_an_information_state_keeps_the_others_hand_secret(duel: SolvableGame) -> None:
    mine = _deal_of(duel, "P1 -1 +3 / P2 +1 +2 / Leo +1")
    theirs = _deal_of(duel, "P1 -1 +3 / P2 -2 +1 / Leo +2")
    a, b = _play(duel, mine), _play(duel, theirs)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_an_information_state_keeps_the_earlier_commit_secret(duel: SolvableGame) -> None:
    # WF-4: P2 commits after P1 here, without seeing P1's face-down card.
    deal = _deal_of(duel, "P1 -1 +3 / P2 +1 +2 / Leo +1")
    a, b = _play(duel, deal, "+3>Leo"), _play(duel, deal, "-1>P2")
    assert a.current_player() == b.current_player() == 1
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)


def test_duel_is_small(duel: SolvableGame) -> None:
    size = tree_size(duel)
    assert size.terminals == sum(
        len(_play(duel, i).legal_actions()) * len(_play(duel, i, _first(duel, i)).legal_actions())
        for i in range(len(duel.deals))
    )
    # One decision each (WF-5 plays the last card): P1 acts on its hand alone, and so does
    # P2, which does not see P1's face-down card (WF-4): one information state per hand.
    hands = [{d.label.split(" / ")[seat] for d in duel.deals} for seat in range(2)]
    assert size.info_states == (len(hands[0]), len(hands[1]))


def _first(game: SolvableGame, deal: int) -> str:
    state = _play(game, deal)
    return str(game.encoding.action(state.legal_actions()[0]))


def _uniform_nash_conv_by_hand(game: SolvableGame) -> float:
    """NashConv of uniform play in the one-decision duel, from the engine's returns: each seat
    best-responds knowing only its own hand (what its information state must hold)."""
    total = 0.0
    for seat in range(2):
        by_hand: dict[str, dict[int, float]] = {}
        on_policy = 0.0
        for deal, p in game.new_initial_state().chance_outcomes():
            root = _play(game, deal)
            hand = " ".join(map(str, root.view(seat).hand_values))
            mine = root.legal_actions()
            for a in mine:
                after = root.child(a)
                theirs = after.legal_actions()
                for b in theirs:
                    value = after.child(b).returns()[seat] * p / len(mine) / len(theirs)
                    on_policy += value
                    own = a if seat == 0 else b
                    row = by_hand.setdefault(hand, {})
                    # The seat's own action fixed, the other uniform: scaled back by its count.
                    row[own] = row.get(own, 0.0) + value * (len(mine) if seat == 0 else len(theirs))
        total += sum(max(row.values()) for row in by_hand.values()) - on_policy
    return total


def test_uniform_play_is_exploitable_exactly(duel: SolvableGame) -> None:
    uniform = gap(duel, os_policy.UniformRandomPolicy(duel))
    assert uniform.nash_conv > 0.1
    assert uniform.nash_conv == pytest.approx(_uniform_nash_conv_by_hand(duel), abs=1e-12)
    assert gap(duel, BotPolicy(duel, "random")).nash_conv == pytest.approx(uniform.nash_conv)


def test_cfr_plus_lowers_nash_conv(duel: SolvableGame) -> None:
    solution = solve(duel, checkpoints=[1, 3])
    assert solution.iterations == 3
    # The average after one iteration is the uniform policy.
    first = solution.curve[0][1].nash_conv
    assert first == pytest.approx(_uniform_nash_conv_by_hand(duel), abs=1e-12)
    assert solution.gap.nash_conv < first / 2


def test_a_bot_policy_plays_its_bots_action(duel: SolvableGame) -> None:
    policy = BotPolicy(duel, "heuristic")
    state = _play(duel, _deal_of(duel, "P1 -1 +3 / P2 +1 +2 / Leo +1"))
    probs = policy.action_probabilities(state)
    assert sorted(probs) == state.legal_actions()
    assert sorted(probs.values())[-1] == 1.0 and sum(probs.values()) == 1.0


def test_duel_lessons_add_up(duel: SolvableGame) -> None:
    lessons = duel_lessons(duel, os_policy.UniformRandomPolicy(duel))
    for seat in range(2):
        assert sum(lessons.targets[seat].values()) == pytest.approx(1.0)
        # Uniform over three targets.
        assert lessons.targets[seat]["Leo"] == pytest.approx(1 / 3)
        assert lessons.scores_positive[seat] + lessons.scores_negative[seat] <= (
            lessons.on_scoring_space[seat] + 1e-12
        )
    assert lessons.wins[0] == pytest.approx(lessons.wins[1])
    assert 0 < lessons.leo_wins < 1


RACE = "six-day-race-sprint"


@pytest.fixture(scope="module")
def race() -> SolvableGame:
    return load(RACE)


def test_race_deals_who_goes_first(race: SolvableGame) -> None:
    # SD-4 with random_first: each player goes first with probability 1/2; SD-12 interleaves
    # the riders A1 B1 A2 B2.
    outcomes = race.new_initial_state().chance_outcomes()
    assert [p for _, p in outcomes] == [0.5, 0.5]
    orders = [d.state.order for d in race.deals]
    assert orders == [[0, 1, 2, 3], [1, 0, 3, 2]]


def test_race_is_constant_sum_and_plays_to_the_end(race: SolvableGame) -> None:
    assert race.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    pyspiel.random_sim_test(race, num_sims=5, serialize=False, verbose=False)
    state = race.new_initial_state()
    state.apply_action(1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])  # every rider plays its highest card
    assert sum(state.returns()) == pytest.approx(1.0)
    outcome = race.engine.outcome(state.engine_state)
    assert outcome is not None
    assert {s for s, r in enumerate(state.returns()) if r > 0} == set(outcome.winners)


def test_a_race_with_grey_chance_is_refused() -> None:
    # SD-3: a grey deck of mixed values would make a rider change (SD-6) a chance event.
    from racedeck.core.registry import make
    from racedeck.rl.solvable.six_day_race import first_player_deals

    engine = make("six-day-race", players=2, races=1, grey_low=(1, 1, 0))
    with pytest.raises(ValueError, match="grey_low"):
        first_player_deals(engine)


class _Highest(os_policy.Policy):  # type: ignore[misc]
    """Every rider plays its highest card."""

    def __init__(self, game: SolvableGame) -> None:
        super().__init__(game, [0, 1])

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        legal = state.legal_actions()
        return {a: float(a == legal[-1]) for a in legal}


def test_race_lessons_follow_the_play(race: SolvableGame) -> None:
    columns = race_columns(race, _Highest(race))
    assert columns["opens with 3"] == (1.0,)
    assert columns["opens with 1"] == columns["opens with 2"] == (0.0,)
    # The two starts, each played out with the highest cards, weighted 1/2.
    shares = [0.0, 0.0]
    first = 0.0
    for deal in range(2):
        state = race.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[-1])
        shares = [s + r / 2 for s, r in zip(shares, state.returns(), strict=True)]
        first += state.returns()[deal] / 2
    assert columns["win share"] == pytest.approx(tuple(shares))
    assert columns["first mover's win share"] == pytest.approx((first,))


SPRINT = "setback-sprint"


@pytest.fixture(scope="module")
def sprint() -> SolvableGame:
    return load(SPRINT)


def test_setback_deals_given_the_board(sprint: SolvableGame) -> None:
    outcomes = sprint.new_initial_state().chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert sum(d.probability for d in sprint.deals) == 1
    # The board is fixed; ten cards are off it, two of them BLOCKs: P1's hand of two is
    # both with probability 1/C(10,2) = 1/45.
    both = sum(d.probability for d in sprint.deals if "P1 BLOCK BLOCK;" in d.label)
    assert both == Fraction(1, 45)
    assert all(d.label.startswith("board MOVE+1 MOVE+1;") for d in sprint.deals)
    # SB-3: each player goes first in half the deals, by probability.
    firsts = Counter()
    for d in sprint.deals:
        firsts[d.state.current] += d.probability
    assert firsts == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_setback_passes_openspiel_random_simulation(sprint: SolvableGame) -> None:
    pyspiel.random_sim_test(sprint, num_sims=10, serialize=False, verbose=False)


def _window_pair(game: SolvableGame) -> tuple[SolvableState, SolvableState]:
    """Two histories of one deal that differ only in seat 0's answer in a BLOCK window that
    asks seat 1 next (SB-9 amended again)."""
    for deal in range(len(game.deals)):
        if "P1 BLOCK" not in game.deals[deal].label:
            continue
        stack = [_play(game, deal)]
        while stack:
            state = stack.pop()
            if state.is_terminal():
                continue
            if state.current_player() == 0:
                named = {str(game.encoding.action(a)): a for a in state.legal_actions()}
                if {"block", "pass"} <= set(named):
                    blocked = state.child(named["block"])
                    passed = state.child(named["pass"])
                    if blocked.current_player() == passed.current_player() == 1:
                        return blocked, passed
            stack.extend(state.child(a) for a in state.legal_actions())
    raise AssertionError("no window asks both seats")


def test_a_block_answer_stays_concealed(sprint: SolvableGame) -> None:
    blocked, passed = _window_pair(sprint)
    assert blocked.information_state_string(1) == passed.information_state_string(1)
    assert blocked.information_state_string(0) != passed.information_state_string(0)


def test_mixing_tells_a_bot_from_uniform_play(duel: SolvableGame) -> None:
    assert mixing(duel, os_policy.UniformRandomPolicy(duel)) == 1.0
    assert mixing(duel, BotPolicy(duel, "heuristic")) == 0.0


def test_chance_after_the_deal_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # SB-3: with a draw pile of two, play soon reshuffles the discards, chance the root's
    # deals do not hold.
    short = SolvableConfig(
        name="setback-short",
        game_id="setback",
        options={"players": 2, "rows": 1, "hand_size": 2, "deck": (("MOVE+1", 6), ("BLOCK", 2))},
        summary="a deck too short to solve",
        deal=setback_deals,
    )
    monkeypatch.setattr(configs, "CONFIGS", (*CONFIGS, short))
    game = pyspiel.load_game("racedeck_solvable", {"config": "setback-short"})

    def walk(state: SolvableState) -> None:
        for action in state.legal_actions():
            walk(state.child(action))

    with pytest.raises(RuntimeError, match="drew chance after the deal"):
        walk(game.new_initial_state())
