"""One group of tests per ruling WF-1 … WF-11 (``/work/shared/rules/DECISIONS.md``), plus the
:class:`~racedeck.IllegalAction` contract of the checked path."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator

import pytest

import racedeck
from racedeck.core.events import Event, feed
from racedeck.games.why_first import (
    DEFAULT_CARD_VALUES,
    CommitCard,
    MoveFigure,
    PlaceCard,
    WhyFirst,
    WhyFirstConfig,
    WhyFirstState,
)
from racedeck.games.why_first.scoring import final_ranks, scoring_space, stage_points, winners

from .builders import build, card, step

ALL_CARDS = frozenset(range(1, 33))


def make(players: int = 4, **options: object) -> WhyFirst:
    game = racedeck.make("why-first", players=players, **options)
    assert isinstance(game, WhyFirst)
    return game


def random_game(
    game: WhyFirst, seed: int
) -> Iterator[tuple[WhyFirstState, int, object, WhyFirstState, tuple[Event, ...]]]:
    """Play random legal actions to the end; yield (before, seat, action, after, events)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    while not s.is_terminal:
        seat = rng.choice(s.pending)
        action = rng.choice(game.legal_actions(s, seat))
        after, events = step(game, s, seat, action)
        yield s, seat, action, after, events
        s = after


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


# -- WF-1 track -----------------------------------------------------------------------------------


def test_wf1_track_is_minus12_to_16_with_start_0() -> None:
    g = make(4)
    cfg = g.config
    assert isinstance(cfg, WhyFirstConfig)
    assert (cfg.track_min, cfg.track_max) == (-12, 16)
    s = g.new_initial_state(3)
    assert s.positions == [0, 0, 0, 0]
    assert g.observe(s, 0).track == (-12, 16)


@pytest.mark.parametrize(("start", "value", "end"), [(2, 5, 3), (-1, -4, -3), (3, -4, -1)])
def test_wf1_configured_track_ends_stop_figures(start: int, value: int, end: int) -> None:
    g = make(3, track_min=-3, track_max=3)
    s = build(g, positions=[start, 0, 0], hands=[[card(value)], [card(1)], [card(1, 1)]])
    s = g.apply(s, 0, PlaceCard(value, 0))
    s = g.apply(s, 1, PlaceCard(1, 1))
    s = g.apply(s, 2, PlaceCard(1, 2))
    assert s.positions == [end, 1, 1]


def test_wf1_track_must_contain_start() -> None:
    # The bounds of the options say it: the start space 0 lies between the ends.
    with pytest.raises(ValueError, match=r"track_min=1 is not allowed: above 0"):
        make(3, track_min=1)
    with pytest.raises(ValueError, match=r"track_max=-1 is not allowed: below 0"):
        make(3, track_max=-1)


# -- WF-2 deck ------------------------------------------------------------------------------------


def test_wf2_deck_composition() -> None:
    assert len(DEFAULT_CARD_VALUES) == 32
    assert Counter(DEFAULT_CARD_VALUES) == {
        -4: 1,
        -3: 3,
        -2: 4,
        -1: 5,
        1: 6,
        2: 5,
        3: 4,
        4: 3,
        5: 1,
    }
    assert make(4).config.value_counts() == Counter(DEFAULT_CARD_VALUES)


def test_wf2_white_number_table() -> None:
    table = {
        5: [32],
        4: [31, 30, 29],
        -4: [28],
        3: [27, 26, 25, 24],
        -3: [23, 22, 21],
        2: [20, 19, 18, 17, 16],
        -2: [15, 14, 13, 12],
        1: [11, 10, 9, 8, 7, 6],
        -1: [5, 4, 3, 2, 1],
    }
    for value, numbers in table.items():
        for number in numbers:
            assert DEFAULT_CARD_VALUES[number - 1] == value, number
    assert sorted(n for ns in table.values() for n in ns) == list(range(1, 33))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_wf2_dealt_white_numbers_are_unique(players: int) -> None:
    for seed in range(20):
        s = make(players).new_initial_state(seed)
        dealt = [c for h in s.hands for c in h] + s.leo_cards
        assert len(dealt) == len(set(dealt))
        assert set(dealt) <= ALL_CARDS


def test_wf2_base_game_options_name_values_not_white_numbers() -> None:
    """Equal values are interchangeable: two −1 cards give one option per target."""
    g = make(4)
    s = build(g, positions=[0] * 4, hands=[[1, 2, 6, 7, 32], [8], [9], [10]])
    legal = g.legal_actions(s, 0)
    assert legal == tuple(PlaceCard(v, t) for v in (-1, 1, 5) for t in range(4))


def test_wf2_tactical_options_name_white_numbers() -> None:
    g = make(4, variant="tactical")
    s = build(g, positions=[0] * 4, hands=[[1, 2, 6, 7, 32], [8], [9], [10]])
    assert g.legal_actions(s, 0) == tuple(CommitCard(c) for c in (1, 2, 6, 7, 32))


# -- WF-3 stage setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_wf3_stage_setup(players: int, variant: str) -> None:
    g = make(players, variant=variant)
    for seed in range(5):
        start = g.start(seed)
        s, s_events = start.state, start.events
        figures = players + (1 if players == 2 else 0)
        assert s.positions == [0] * figures
        assert s.totals == [0] * figures
        assert [len(h) for h in s.hands] == [5] * players
        assert len(s.leo_cards) == (4 if players == 2 else 0)
        dealt = [c for h in s.hands for c in h] + s.leo_cards
        assert len(set(dealt)) == 5 * players + len(s.leo_cards)
        assert (s.stage, s.round, s.phase) == (0, 0, "commit")
        assert s.pending == tuple(range(players))
        assert kinds(feed(s_events, None)) == ["stage_started"]
        assert s_events[0].data == {"stage": 1}
        # Each seat alone is told its hand (values only in the base game, WF-2).
        for seat in range(players):
            (dealt_to_seat,) = [e for e in s_events if e.audience == seat]
            assert dealt_to_seat.kind == "hand_dealt"
            values = [g.values[c - 1] for c in s.hands[seat]]
            if variant == "tactical":
                assert dealt_to_seat.data["cards"] == tuple(s.hands[seat])
            else:
                assert "cards" not in dealt_to_seat.data
                values.sort()
            assert dealt_to_seat.data["values"] == tuple(values)


@pytest.mark.parametrize("players", [2, 4])
def test_wf3_hands_shrink_and_cards_stay_out(players: int) -> None:
    """During a stage, a dealt card is played once; undealt cards never come in."""
    g = make(players)
    for before, _, _, after, _ in random_game(g, seed=11):
        if after.stage != before.stage or after.is_terminal:
            continue
        dealt_now = {c for h in after.hands for c in h} | set(after.leo_cards)
        dealt_before = {c for h in before.hands for c in h} | set(before.leo_cards)
        assert dealt_now <= dealt_before
        assert [len(h) for h in after.hands] == [5 - after.round] * players


def test_wf3_each_stage_reshuffles_the_whole_deck() -> None:
    """Figures go back to 0 and new hands come from all 32 cards, played ones included."""
    g = make(4)
    reused = 0
    for seed in range(10):
        played: set[int] = set()
        for before, _, _, after, after_events in random_game(g, seed):
            if after.stage == 1 and before.stage == 0:
                # Base-game reveals show values only (WF-2): the state says which cards were
                # revealed in stage 1, and the automatic fifth round plays what is left.
                played = set(before.revealed) | {c for h in before.hands for c in h}
                assert after.positions == [0, 0, 0, 0]
                assert [len(h) for h in after.hands] == [5] * 4
                assert after.round == 0
                assert kinds(feed(after_events, None))[-1] == "stage_started"
                new_hands = {c for h in after.hands for c in h}
                assert len(played) == 20
                reused += len(new_hands & played)
                break
    assert reused > 0


# -- WF-4 card round ------------------------------------------------------------------------------


def test_wf4_commits_are_held_until_all_have_committed() -> None:
    g = make(4)
    s = g.new_initial_state(5)
    before = s.to_json()
    action = g.legal_actions(s, 2)[0]
    s1, s1_events = step(g, s, 2, action)
    assert s.to_json() == before  # the checked path never mutates its input
    assert s1.positions == [0, 0, 0, 0]
    assert s1.pending == (0, 1, 3)
    assert [e.to_json() for e in feed(s1_events, 0)] == [{"kind": "card_committed", "seat": 2}]
    # Only seat 2 is told what it committed.
    assert [e.kind for e in feed(s1_events, 2)] == ["card_committed", "card_chosen"]
    assert feed(s1_events, 2)[1].to_json() == {
        "kind": "card_chosen",
        "seat": 2,
        "value": action.value,
        "target": action.target,
        "audience": 2,
    }
    assert s1.hands == s.hands  # the card leaves the hand only at the reveal
    assert g.observe(s1, 0).committed == (2,)
    assert g.observe(s1, 0).my_commit is None
    assert g.observe(s1, 2).my_commit is not None
    with pytest.raises(racedeck.IllegalAction, match="already committed"):
        g.apply(s1, 2, action)
    s2 = s1
    for seat in (0, 1, 3):
        s2, s2_events = step(g, s2, seat, g.legal_actions(s2, seat)[0])
    assert kinds(feed(s2_events, None))[:2] == ["card_committed", "cards_revealed"]
    assert s2.round == 1 and s2.pending == (0, 1, 2, 3)
    assert [len(h) for h in s2.hands] == [4, 4, 4, 4]


def test_wf4_commit_order_does_not_matter() -> None:
    g = make(4)
    s = g.new_initial_state(9)
    actions = {seat: g.legal_actions(s, seat)[-1 - seat] for seat in range(4)}
    results = []
    for order in ([0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0]):
        t = s
        for seat in order:
            t, t_events = step(g, t, seat, actions[seat])
        obj = t.to_json()
        events = [e.to_json() for e in t_events]
        results.append((obj, events[2:]))  # all but the last card_committed and card_chosen
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize(
    ("start", "values", "end"),
    [(15, [3, -4], 14), (15, [5, 4, -4], 16), (-12, [-3, 1, 1], -12), (14, [5, -4, -3], 12)],
)
def test_wf4_net_sum_is_applied_once_then_clamped(start: int, values: list[int], end: int) -> None:
    """Seats 0..2 place ``values`` on seat 3 (idle seats put a +1 on seat 0)."""
    g = make(4)
    seen: Counter[int] = Counter()
    hands = []
    for v in [*values, 1, 1, 1][:4]:
        hands.append([card(v, seen[v])])
        seen[v] += 1
    s = build(g, positions=[0, 0, 0, start], hands=hands)
    for seat in range(4):
        placed = seat < len(values)
        s, s_events = step(g, s, seat, PlaceCard(values[seat], 3) if placed else PlaceCard(1, 0))
    assert s.positions[3] == end
    moved = {e.data["figure"]: e.data for e in s_events if e.kind == "figure_moved"}
    assert moved[3]["net"] == sum(values)
    assert list(moved[3]["values"]) == values
    assert moved[3]["clamped"] is (start + sum(values) != end)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_wf4_any_figure_may_be_targeted(players: int) -> None:
    g = make(players)
    s = build(g, positions=[0] * g.figures, hands=[[card(2)]] + [[card(1, i)] for i in range(5)])
    targets = {a.target for a in g.legal_actions(s, 0) if isinstance(a, PlaceCard)}
    assert targets == set(range(g.figures))


# -- WF-5 fifth round -----------------------------------------------------------------------------


def test_wf5_base_fifth_round_needs_no_decision() -> None:
    """The last commit of round 4 also plays round 5 (each onto oneself) and scores."""
    g = make(3)
    automatic = 0
    per_seat: Counter[int] = Counter()
    for before, seat, _, after, after_events in random_game(g, seed=4):
        per_seat[seat] += 1
        assert after.round != 4  # nobody is ever asked in round 5
        if "last_round_automatic" not in kinds(after_events):
            continue
        automatic += 1
        assert before.round == 3 and before.pending == (seat,)
        reveals = [e.data for e in after_events if e.kind == "cards_revealed"]
        assert [r["round"] for r in reveals] == [4, 5]
        assert [(c["by"], c["target"]) for c in reveals[1]["cards"]] == [(0, 0), (1, 1), (2, 2)]
        # Reveals show values only (WF-2): round 5 plays what round 4 left in the hands.
        held = Counter(g.values[c - 1] for h in before.hands for c in h)
        held.subtract(c["value"] for c in reveals[0]["cards"])
        assert +held == Counter(c["value"] for c in reveals[1]["cards"])
        assert "stage_scored" in kinds(after_events)
        assert after.round == 0 or after.is_terminal
    assert automatic == 5
    assert per_seat == {0: 20, 1: 20, 2: 20}  # 4 decisions × 5 stages


def test_wf5_base_fifth_round_cards_move_their_owners() -> None:
    g = make(3)
    s = build(
        g,
        positions=[0, 0, 0],
        hands=[[card(1), card(-4)], [card(1, 1), card(5)], [card(1, 2), card(-2)]],
        round_=3,
    )
    for seat in range(3):
        s, s_events = step(g, s, seat, PlaceCard(1, 0))
    scored = next(e for e in s_events if e.kind == "stage_scored")
    assert list(scored.data["positions"]) == [3 - 4, 5, -2]


def test_wf5_tactical_commit_is_automatic_but_move_asks() -> None:
    g = make(3, variant="tactical")
    s = build(g, positions=[0, 0, 0], hands=[[1, 30], [2, 20], [3, 10]], round_=3)
    for seat, c in [(0, 1), (1, 2), (2, 3)]:
        s = g.apply(s, seat, CommitCard(c))
    while s.round == 3:
        s, s_events = step(g, s, s.pending[0], MoveFigure(0))
    assert s.round == 4
    assert s.phase == "move"
    assert "last_round_automatic" in kinds(s_events)
    assert s.hands == [[], [], []]
    assert s.move_queue == [(30, 0), (20, 1), (10, 2)]
    assert s.pending == (0,)
    assert g.legal_actions(s, 0) == (MoveFigure(0), MoveFigure(1), MoveFigure(2))
    s = g.apply(s, 0, MoveFigure(2))
    s = g.apply(s, 1, MoveFigure(2))
    s, s_events = step(g, s, 2, MoveFigure(1))
    scored = next(e for e in s_events if e.kind == "stage_scored")
    assert list(scored.data["positions"]) == [-3, 1, 6]
    assert s.stage == 1 and s.round == 0


# -- WF-6 stage scoring ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("positions", "points"),
    [
        ([10, 10, 8, 2], [0, 0, 8, 0]),  # distinct spaces: two figures ahead, 8 is second
        ([10, 8, 8, 8], [0, 8, 8, 8]),
        ([3, -5, -7], [0, -5, 0]),  # negative points
        ([4, 0, -1], [0, 0, 0]),  # space 0 scores 0
        ([16, -12], [0, -12]),
        ([2, 2, 2, 2], [0, 0, 0, 0]),  # one space: nobody scores
    ],
)
def test_wf6_second_distinct_space_scores(positions: list[int], points: list[int]) -> None:
    assert stage_points(positions) == points


def test_wf6_leo_counts_as_a_figure_and_scores() -> None:
    assert scoring_space([5, 5]) is None
    assert stage_points([5, 5, 3]) == [0, 0, 3]
    g = make(2, stages=2)
    s = build(
        g,
        positions=[4, 4, 2],
        hands=[[card(1), card(-1)], [card(1, 1), card(-1, 1)]],
        round_=3,
        leo_cards=[card(1, 2)],
    )
    s = g.apply(s, 0, PlaceCard(1, 0))
    s, s_events = step(g, s, 1, PlaceCard(1, 1))
    scored = next(e for e in s_events if e.kind == "stage_scored")
    assert list(scored.data["positions"]) == [4, 4, 3]
    assert list(scored.data["scorers"]) == [2]
    assert s.totals == [0, 0, 3]


@pytest.mark.parametrize("players", [2, 4])
def test_wf6_totals_are_sums_of_stage_points(players: int) -> None:
    g = make(players)
    for _, _, _, after, after_events in random_game(g, seed=21):
        for e in after_events:
            if e.kind == "stage_scored":
                assert list(e.data["points"]) == stage_points(e.data["positions"])
                assert after.stage_history[e.data["stage"] - 1] == list(e.data["points"])
        sums = [sum(stage[f] for stage in after.stage_history) for f in range(g.figures)]
        assert after.totals == sums
    assert len(after.stage_history) == 5


# -- WF-7 game end --------------------------------------------------------------------------------


@pytest.mark.parametrize("stages", [1, 3, 5])
def test_wf7_game_ends_after_configured_stages(stages: int) -> None:
    g = make(3, stages=stages)
    scored = 0
    steps = 0
    last = None
    for _, _, _, after, after_events in random_game(g, seed=stages):
        scored += kinds(after_events).count("stage_scored")
        steps += 1
        last, last_events = after, after_events
    assert last is not None and last.is_terminal
    assert scored == stages
    assert len(last.stage_history) == stages
    assert steps == 3 * 4 * stages
    assert kinds(last_events)[-2:] == ["stage_scored", "game_over"]


@pytest.mark.parametrize(
    ("totals", "won"),
    [
        ([10, 7, 3, 1], {1}),
        ([10, 7, 7, 3], {1, 2}),
        ([9, 9, 4, 4], {2, 3}),
        ([6, 6, 6], {0, 1, 2}),
        ([-2, -9, -5], {2}),
        ([0, 12, 0], {0, 2}),
    ],
)
def test_wf7_winners_hold_the_second_distinct_total(totals: list[int], won: set[int]) -> None:
    assert winners(totals) == frozenset(won)


def test_wf7_nothing_is_legal_after_the_end() -> None:
    g = make(3, stages=1)
    last = None
    for _, _, _, after, _ in random_game(g, seed=2):
        last = after
    assert last is not None and last.is_terminal
    assert last.pending == ()
    assert all(g.legal_actions(last, seat) == () for seat in range(3))
    with pytest.raises(racedeck.IllegalAction, match="game is over"):
        g.apply(last, 0, PlaceCard(1, 0))


# -- WF-8 outcome ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "ranks"),
    [
        ([10, 7, 3, 1], (2, 1, 3, 4)),  # winner, then the highest, then descending
        ([10, 7, 7, 3], (3, 1, 1, 4)),
        ([9, 9, 4], (2, 2, 1)),
        ([5, 5, 5], (1, 1, 1)),
        ([0, -2, -2, -5], (3, 1, 1, 4)),
        ([1, 2], (1, 2)),
    ],
)
def test_wf8_final_ranks(totals: list[int], ranks: tuple[int, ...]) -> None:
    assert final_ranks(totals) == ranks
    assert {i for i, r in enumerate(ranks) if r == 1} == set(winners(totals))


@pytest.mark.parametrize(("players", "variant"), [(2, "base"), (4, "tactical")])
def test_wf8_outcome_lists_totals_ranks_and_winners(players: int, variant: str) -> None:
    g = make(players, variant=variant, stages=2)
    last = None
    for before, _, _, after, after_events in random_game(g, seed=8):
        assert g.outcome(before) is None
        last, last_events = after, after_events
    assert last is not None
    outcome = g.outcome(last)
    assert outcome is not None
    assert outcome.scores == tuple(float(t) for t in last.totals)
    assert outcome.ranks == final_ranks(last.totals)
    assert outcome.winners == winners(last.totals)
    assert len(outcome.names) == len(last.totals) == g.figures
    game_over = next(e for e in last_events if e.kind == "game_over")
    assert game_over.to_json() == {"kind": "game_over", **outcome.to_json()}
    assert racedeck.Outcome.from_json(outcome.to_json()) == outcome


# -- WF-9 two players and Leo ---------------------------------------------------------------------


def test_wf9_leo_flips_his_top_card_in_rounds_1_to_4() -> None:
    g = make(2)
    leo_pile = [card(-4), card(5), card(-1), card(2)]  # top card last: +2 first
    hands = [[card(1, i) for i in range(5)], [card(-2, i) for i in range(4)] + [card(3)]]
    s = build(g, positions=[0, 0, 0], hands=hands, leo_cards=leo_pile)
    flipped = []
    for _ in range(4):
        top = s.leo_cards[-1]
        s = g.apply(s, 0, PlaceCard(1, 0))
        s, s_events = step(g, s, 1, g.legal_actions(s, 1)[0])
        reveal = next(e for e in s_events if e.kind == "cards_revealed")
        leo = [c for c in reveal.data["cards"] if c["by"] == 2]
        # The base game shows values only (WF-2), Leo's card too.
        assert leo == [{"by": 2, "value": DEFAULT_CARD_VALUES[top - 1], "target": 2}]
        flipped.append(leo[0]["value"])
    assert flipped == [2, -1, 5, -4]
    assert s.stage == 1 and len(s.leo_cards) == 4  # the next stage deals him a new pile
    # Round 5 is played by the engine right after round 4: Leo plays no card in it.
    round5 = [e for e in s_events if e.kind == "cards_revealed"][-1]
    assert round5.data["round"] == 5
    assert [c["by"] for c in round5.data["cards"]] == [0, 1]
    scored = next(e for e in s_events if e.kind == "stage_scored")
    assert scored.data["positions"][2] == 2 - 1 + 5 - 4


def test_wf9_leo_is_never_pending_and_cannot_act() -> None:
    for variant in ("base", "tactical"):
        g = make(2, variant=variant)
        steps = 0
        for before, _, _, _, _ in random_game(g, seed=3):
            assert 2 not in before.pending
            assert g.legal_actions(before, 2) == ()
            steps += 1
        assert steps == (40 if variant == "base" else 40 + 50)  # commits (+ moves)
        with pytest.raises(racedeck.IllegalAction, match="no seat 2"):
            s = g.new_initial_state(1)
            g.apply(s, 2, g.legal_actions(s, 0)[0])


def test_wf9_leo_can_be_targeted_and_his_pile_is_secret() -> None:
    g = make(2)
    s = g.new_initial_state(6)
    assert {a.target for a in g.legal_actions(s, 0) if isinstance(a, PlaceCard)} == {0, 1, 2}
    view = g.observe(s, 0).to_json()
    assert view["leo_cards_left"] == 4
    assert "leo_cards" not in view
    t = make(2, variant="tactical")
    ts = t.new_initial_state(6)
    ts = t.apply(ts, 0, t.legal_actions(ts, 0)[0])
    ts = t.apply(ts, 1, t.legal_actions(ts, 1)[0])
    assert ts.phase == "move"
    assert MoveFigure(2) in t.legal_actions(ts, ts.pending[0])


def test_wf9_no_leo_with_more_players() -> None:
    g = make(3)
    s = g.new_initial_state(1)
    assert len(s.positions) == 3 and s.leo_cards == []
    assert g.observe(s, 0).leo_cards_left == 0
    with pytest.raises(racedeck.IllegalAction, match="no figure 3"):
        g.apply(s, 0, PlaceCard(g.legal_actions(s, 0)[0].value, 3))


# -- WF-10 tactical variant -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6])
def test_wf10_moves_follow_descending_white_numbers(players: int) -> None:
    g = make(players, variant="tactical")
    moved = 0
    for before, seat, action, _, after_events in random_game(g, seed=players):
        if before.phase == "move":
            assert before.move_queue == sorted(before.move_queue, reverse=True)
            assert before.move_queue[0][1] == seat
            assert before.pending == (seat,)
            assert g.legal_actions(before, seat) == tuple(MoveFigure(t) for t in range(g.figures))
            assert isinstance(action, MoveFigure)
            moved += 1
        for e in after_events:
            if e.kind == "cards_revealed":
                # A commit has no target; Leo's card can only ever move Leo.
                targets = {c["by"]: c["target"] for c in e.data["cards"]}
                assert targets == {by: (by if by == players else -1) for by in targets}
        cards = [e.data["card"] for e in after_events if e.kind == "figure_moved"]
        if len([e for e in after_events if e.kind == "cards_revealed"]) <= 1:
            assert cards == sorted(cards, reverse=True)
    assert moved == players * 5 * 5


def test_wf10_each_move_is_clamped_at_once() -> None:
    """Unlike the base game (WF-4), +5 then −4 from 15 stops on 16 and ends on 12."""
    g = make(3, variant="tactical")
    s = build(g, positions=[15, 0, 0], hands=[[32], [28], [1]])
    for seat, c in [(0, 32), (1, 28), (2, 1)]:
        s = g.apply(s, seat, CommitCard(c))
    s, s_events = step(g, s, 0, MoveFigure(0))
    assert s.positions == [16, 0, 0]
    ev = next(e for e in s_events if e.kind == "figure_moved")
    assert ev.to_json() == {
        "kind": "figure_moved",
        "figure": 0,
        "from": 15,
        "to": 16,
        "net": 5,
        "values": [5],
        "clamped": True,
        "by": 0,
        "card": 32,
    }
    s = g.apply(s, 1, MoveFigure(0))
    assert s.positions == [12, 0, 0]
    s = g.apply(s, 2, MoveFigure(0))  # a figure may be moved several times
    assert s.positions == [11, 0, 0]
    assert [(by, c, t) for by, c, t in s.last_reveal] == [(0, 32, 0), (1, 28, 0), (2, 1, 0)]


def test_wf10_any_figure_including_leo() -> None:
    g = make(2, variant="tactical")
    s = build(g, positions=[0, 0, 0], hands=[[31], [30]], leo_cards=[1])
    s = g.apply(s, 0, CommitCard(31))
    s = g.apply(s, 1, CommitCard(30))
    assert s.pending == (0,)
    s = g.apply(s, 0, MoveFigure(2))
    s = g.apply(s, 1, MoveFigure(2))
    assert s.positions == [0, 0, 4 + 4 - 1]  # Leo's own −1 moved him last, in its slot


def test_wf10_leo_moves_himself_in_his_slot() -> None:
    g = make(2, variant="tactical")
    s = build(g, positions=[0, 0, 0], hands=[[10], [25]], leo_cards=[20])
    s = g.apply(s, 0, CommitCard(10))
    s = g.apply(s, 1, CommitCard(25))
    assert s.pending == (1,)
    assert s.move_queue == [(25, 1), (20, 2), (10, 0)]
    s, s_events = step(g, s, 1, MoveFigure(0))
    # Leo's #20 (+2) moved Leo before seat 0 is asked.
    assert s.positions == [3, 0, 2]
    assert s.pending == (0,)
    assert [e.data["by"] for e in s_events if e.kind == "figure_moved"] == [1, 2]


def test_wf10_tactical_actions_by_phase() -> None:
    g = make(3, variant="tactical")
    s = build(g, positions=[0, 0, 0], hands=[[5, 6], [7, 8], [9, 10]])
    with pytest.raises(racedeck.IllegalAction, match="commit one card"):
        g.apply(s, 0, PlaceCard(-1, 0))
    with pytest.raises(racedeck.IllegalAction, match="commit one card"):
        g.apply(s, 0, MoveFigure(0))
    for seat, c in [(0, 5), (1, 7), (2, 9)]:
        s = g.apply(s, seat, CommitCard(c))
    assert s.pending == (2,)
    with pytest.raises(racedeck.IllegalAction, match="choose the figure"):
        g.apply(s, 2, CommitCard(10))
    with pytest.raises(racedeck.IllegalAction, match="another seat's turn"):
        g.apply(s, 0, MoveFigure(0))


# -- WF-11 player counts --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_wf11_two_to_six_players(players: int) -> None:
    g = make(players)
    assert g.num_players == players
    assert g.figures == players + (1 if players == 2 else 0)
    assert g.figure_names()[-1] == ("Leo" if players == 2 else f"P{players}")
    spec = racedeck.get_spec("why-first")
    assert (spec.min_players, spec.max_players) == (2, 6)


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_wf11_other_counts_are_rejected(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        racedeck.make("why-first", players=players)


def test_wf11_unknown_options_and_variants_are_rejected() -> None:
    with pytest.raises(ValueError, match="variant"):
        racedeck.make("why-first", players=3, variant="chaos")
    with pytest.raises(ValueError, match="unknown option"):
        racedeck.make("why-first", players=3, colour="red")


# -- IllegalAction --------------------------------------------------------------------------------


def _illegal(
    g: WhyFirst, s: WhyFirstState, seat: int, action: object, reason: str
) -> racedeck.IllegalAction:
    before = s.to_json()
    with pytest.raises(racedeck.IllegalAction) as info:
        g.apply(s, seat, action)  # type: ignore[arg-type]
    err = info.value
    assert isinstance(err, ValueError)
    assert s.to_json() == before  # the failed apply left the state alone
    message = str(err)
    assert str(action) in message
    assert reason in message
    assert err.reason and reason in err.reason
    assert err.action == action and err.seat == seat
    legal = g.legal_actions(s, seat)
    assert err.legal == tuple(legal)
    if legal:
        assert "legal: " + ", ".join(str(a) for a in legal[:40]) in message  # first 40 shown
    else:
        assert "no action is legal" in message
    return err


def test_illegal_wrong_seat_and_already_committed() -> None:
    g = make(3)
    s = g.new_initial_state(12)
    _illegal(g, s, 5, g.legal_actions(s, 0)[0], "there is no seat 5")
    _illegal(g, s, -1, g.legal_actions(s, 0)[0], "there is no seat -1")
    s = g.apply(s, 1, g.legal_actions(s, 1)[0])
    _illegal(g, s, 1, g.legal_actions(s, 0)[0], "already committed")


def test_illegal_card_not_in_hand() -> None:
    g = make(3)
    s = build(g, positions=[0, 0, 0], hands=[[1, 2, 6], [7], [8]])
    _illegal(g, s, 0, PlaceCard(5, 0), "you hold no +5 card (your hand: -1, -1, +1)")
    _illegal(g, s, 0, PlaceCard(0, 0), "you hold no +0 card")
    t = make(3, variant="tactical")
    ts = build(t, positions=[0, 0, 0], hands=[[1, 2, 6], [7], [8]])
    _illegal(t, ts, 0, CommitCard(32), "card #32 is not in your hand")
    _illegal(t, ts, 0, CommitCard(7), "card #7 is not in your hand")


@pytest.mark.parametrize("target", [-1, 3, 9])
def test_illegal_target_out_of_range(target: int) -> None:
    g = make(3)
    s = build(g, positions=[0, 0, 0], hands=[[1], [7], [8]])
    _illegal(g, s, 0, PlaceCard(-1, target), f"there is no figure {target}")
    t = make(3, variant="tactical")
    ts = build(t, positions=[0, 0, 0], hands=[[1], [7], [8]])
    for seat, c in [(0, 1), (1, 7), (2, 8)]:
        ts = t.apply(ts, seat, CommitCard(c))
    _illegal(t, ts, ts.pending[0], MoveFigure(target), f"there is no figure {target}")


def test_illegal_wrong_action_type_for_phase() -> None:
    g = make(4)
    s = g.new_initial_state(1)
    _illegal(g, s, 0, CommitCard(s.hands[0][0]), "now you must place a card")
    _illegal(g, s, 0, MoveFigure(1), "now you must place a card")


def test_illegal_after_the_game_is_over() -> None:
    g = make(2, stages=1)
    last = None
    for _, _, _, after, _ in random_game(g, seed=1):
        last = after
    assert last is not None
    err = _illegal(g, last, 0, PlaceCard(1, 0), "the game is over")
    assert "no action is legal" in str(err)


def test_checked_path_returns_a_new_state_and_leaves_the_input_alone() -> None:
    """The contract of ``Game.apply``: a new state; the given state is not modified."""
    g = make(3)
    s = g.new_initial_state(4)
    snapshot = s.to_json()
    t = g.apply(s, 0, g.legal_actions(s, 0)[0])
    assert t is not s
    assert s.to_json() == snapshot


@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_state_from_apply_shares_nothing_with_its_input(variant: str) -> None:
    """Driving the state returned by ``apply`` further in place (fast path, as bots and
    search do) must not reach back into the state it came from."""
    g = make(3, variant=variant)
    s0 = g.new_initial_state(4)
    snapshot = s0.to_json()
    s1 = g.apply(s0, 0, g.legal_actions(s0, 0)[0])  # not the last commit: nothing resolves
    after_first = s1.to_json()
    for seat in (1, 2):
        g.apply_unchecked(s1, seat, g.legal_actions(s1, seat)[0])  # the reveal happens here
    assert s1.round == 1 or s1.phase == "move"
    assert s0.to_json() == snapshot
    assert [len(h) for h in s0.hands] == [5, 5, 5]
    assert s1.to_json() != after_first
    # The other way round: driving the input further leaves the returned state alone.
    s2 = g.apply(s0, 1, g.legal_actions(s0, 1)[0])
    s2_snapshot = s2.to_json()
    s3 = g.apply(s2, 2, g.legal_actions(s2, 2)[0])
    s3_snapshot = s3.to_json()
    for seat in (0, 1, 2):
        g.apply_unchecked(s0, seat, g.legal_actions(s0, seat)[-1])
    assert s0.round == 1 or s0.phase == "move"
    assert s2.to_json() == s2_snapshot
    assert s3.to_json() == s3_snapshot


def test_illegal_message_with_many_options_lists_them_all_in_legal() -> None:
    g = make(6)
    s = build(g, positions=[0] * 6, hands=[[1, 12, 16, 21, 24, 29, 6, 28, 32]] + [[2]] * 5)
    legal = g.legal_actions(s, 0)
    assert len(legal) == 9 * 6
    err = _illegal(g, s, 0, CommitCard(1), "now you must place a card")
    assert err.legal == legal
    assert str(err).endswith(f"… and {len(legal) - 40} more")


def test_parse_action_reads_every_text_form() -> None:
    g = make(2)
    s = build(g, positions=[0, 0, 0], hands=[[card(3), card(-1)], [card(2)]])
    view = g.observe(s, 0)
    assert g.parse_action("+3>P2", view) == PlaceCard(3, 1)
    assert g.parse_action("-1 leo", view) == PlaceCard(-1, 2)
    assert g.parse_action("+3 to 1", view) == PlaceCard(3, 0)
    with pytest.raises(racedeck.IllegalAction, match="cannot read 'hello'") as info:
        g.parse_action("hello", view)
    assert info.value.legal == g.legal_actions(s, 0)


def test_parse_action_rejects_text_naming_an_illegal_action() -> None:
    g = make(3)
    s = build(g, positions=[0, 0, 0], hands=[[card(3)], [card(2)], [card(1)]])
    with pytest.raises(racedeck.IllegalAction):
        g.parse_action("+5>P1", g.observe(s, 0))  # seat 0 holds no +5


# -- WF-3 / WF-5 with another hand size (config) --------------------------------------------------


def test_wf3_wf5_hand_size_sets_rounds_and_leo_pile() -> None:
    g = make(2, hand_size=3, stages=2)
    s = g.new_initial_state(7)
    assert [len(h) for h in s.hands] == [3, 3] and len(s.leo_cards) == 2
    decisions = sum(1 for _ in random_game(g, seed=7))
    assert decisions == 2 * 2 * 2  # (hand_size − 1) rounds × 2 seats × 2 stages


def test_actions_with_bool_or_float_fields_are_refused() -> None:
    """A record could not replay them (JSON forms demand integers)."""
    g = racedeck.make("why-first", players=3)
    s = g.new_initial_state(1)
    value = g.legal_actions(s, 0)[0].value
    for bad in (PlaceCard(value, True), PlaceCard(float(value), 0)):  # type: ignore[arg-type]
        with pytest.raises(racedeck.IllegalAction):
            g.apply(s, 0, bad)
