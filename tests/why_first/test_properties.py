"""Properties of *Why First?* over random configurations, seeds and legal games (Hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from budget import scaled
from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import (
    Played,
    assert_fast_path_agrees,
    assert_replay_reproduces,
    play_random,
    roundtrip,
)

import racedeck
from racedeck.core.events import feed
from racedeck.games.why_first import WhyFirst, WhyFirstState

ALL_CARDS = frozenset(range(1, 33))
FAST = settings(max_examples=scaled(12), deadline=None)
"""Twelve whole random games per property in ``make test`` (``RACEDECK_TEST_BUDGET`` scales it:
2.5 gives the 30 this file once ran)."""

players_st = st.integers(min_value=2, max_value=6)
variant_st = st.sampled_from(["base", "tactical"])
seed_st = st.integers(min_value=0, max_value=2**64 - 1)
stages_st = st.integers(min_value=1, max_value=5)


def play(players: int, variant: str, seed: int, choices: int, stages: int = 5) -> Played:
    """A random legal game, played through a :class:`racedeck.Session` (checked path)."""
    game = racedeck.make("why-first", players=players, variant=variant, stages=stages)
    assert isinstance(game, WhyFirst)
    return play_random(game, seed, choices)


# -- cards and track ------------------------------------------------------------------------------


@FAST
@given(players_st, variant_st, seed_st, st.integers(0, 2**32))
def test_cards_are_conserved_each_stage(players: int, variant: str, seed: int, ch: int) -> None:
    """WF-2/WF-3: hands + played this stage + Leo's pile + undealt == the 32 cards, no repeats."""
    p = play(players, variant, seed, ch)
    leo = players == 2
    per_stage = 5 * players + (4 if leo else 0)
    s0 = p.initial
    values = p.game.values
    dealt = [c for h in s0.hands for c in h] + s0.leo_cards
    played: list[int] = []
    finished = 0
    for (_, _, s), events in zip(p.steps, p.events, strict=True):
        for e in events:
            if e.kind == "cards_revealed":
                # Values: the base game's reveals show no white numbers (WF-2); the numbers
                # are checked below through the state's `revealed`.
                played.extend(c["value"] for c in e.data["cards"])
            elif e.kind == "stage_scored":
                # every dealt card played exactly once
                assert Counter(played) == Counter(values[c - 1] for c in dealt)
                assert len(played) == per_stage
                finished += 1
            elif e.kind == "stage_started":
                dealt = [c for h in s.hands for c in h] + s.leo_cards
                played = []
        if s.is_terminal:
            continue
        in_hands = [c for h in s.hands for c in h]
        assert len(dealt) == len(set(dealt)) == per_stage
        undealt = ALL_CARDS - set(dealt)
        assert [values[c - 1] for c in s.revealed] == played
        everything = in_hands + s.revealed + s.leo_cards + sorted(undealt)
        assert len(everything) == 32
        assert set(everything) == ALL_CARDS
        flipped = s.round + (1 if s.phase == "move" and s.round < 4 else 0)
        assert len(s.leo_cards) == (4 - min(flipped, 4) if leo else 0)
    assert finished == 5


@FAST
@given(players_st, variant_st, seed_st, st.integers(0, 2**32))
def test_positions_stay_on_the_track(players: int, variant: str, seed: int, ch: int) -> None:
    """WF-1: every figure is always on −12 … 16 and every move event agrees with positions."""
    p = play(players, variant, seed, ch)
    for (_, _, s), events in zip(p.steps, p.events, strict=True):
        assert all(-12 <= x <= 16 for x in s.positions)
        for e in events:
            if e.kind == "figure_moved":
                d = e.data
                assert -12 <= d["to"] <= 16
                assert d["to"] == max(-12, min(16, d["from"] + d["net"]))
                assert d["clamped"] == (d["to"] != d["from"] + d["net"])
                assert d["net"] == sum(d["values"])
            if e.kind == "stage_scored":
                assert all(-12 <= x <= 16 for x in e.data["positions"])


# -- records, replay and JSON ---------------------------------------------------------------------


@FAST
@given(players_st, variant_st, seed_st, st.integers(0, 2**32), stages_st)
def test_replay_reproduces_every_state_and_event(
    players: int, variant: str, seed: int, ch: int, stages: int
) -> None:
    assert_replay_reproduces(play(players, variant, seed, ch, stages))


@FAST
@given(players_st, variant_st, seed_st, st.integers(0, 2**32))
def test_json_round_trips(players: int, variant: str, seed: int, ch: int) -> None:
    """States, actions (JSON and text), views and outcomes survive ``json.dumps``/``loads``."""
    p = play(players, variant, seed, ch, stages=2)
    g = p.game
    prev = p.initial
    for seat, action, s in p.steps:
        assert g.action_from_json(roundtrip(action.to_json())) == action
        assert g.parse_action(str(action), g.observe(prev, seat)) == action
        obj = s.to_json()
        back = g.state_from_json(roundtrip(obj))
        assert back.to_json() == obj
        assert back == s
        for who in [None, *range(players)]:
            view = g.observe(s, who)
            vobj = view.to_json()
            vback = g.view_from_json(roundtrip(vobj))
            assert vback == view
            assert vback.to_json() == vobj
        prev = s
    outcome = g.outcome(prev)
    assert outcome is not None
    assert racedeck.Outcome.from_json(roundtrip(outcome.to_json())) == outcome


# -- secrecy --------------------------------------------------------------------------------------


def _perturb(s: WhyFirstState, seat: int, rng: random.Random) -> None:
    """Redeal every secret that ``seat`` must not know, keeping its own hand and commit.

    All other cards are shuffled into the other seats' hands and Leo's pile (same sizes); the
    other seats keep having committed or not, but with other cards and targets; the RNG (the
    future deals) changes. Only meant for the commit phase: in the move phase of the tactical
    variant the committed cards are public.
    """
    pool = sorted(ALL_CARDS - set(s.hands[seat]))
    rng.shuffle(pool)
    others = [o for o in range(s.players) if o != seat]
    for o in others:
        k = len(s.hands[o])
        s.hands[o] = sorted(pool[:k])
        del pool[:k]
    s.leo_cards = pool[: len(s.leo_cards)]
    for o in others:
        if s.commits[o] is None:
            continue
        new_card = rng.choice(s.hands[o])
        if isinstance(s.commits[o], tuple):
            s.commits[o] = (new_card, rng.randrange(len(s.positions)))
        else:
            s.commits[o] = new_card
    s.rng.state ^= 0x5DEECE66D


def _cards_named_this_stage(events: list[dict[str, Any]]) -> set[int]:
    """White numbers named by the events since the latest stage start."""
    starts = [i for i, e in enumerate(events) if e["kind"] == "stage_started"]
    found: set[int] = set()
    for e in events[starts[-1] if starts else 0 :]:
        if "card" in e:
            found.add(e["card"])
        for c in e.get("cards", []):
            found.add(c if isinstance(c, int) else c.get("card", 0))
    return found - {0}


@FAST
@given(players_st, variant_st, seed_st, st.integers(0, 2**32))
def test_views_hide_other_seats_secrets(players: int, variant: str, seed: int, ch: int) -> None:
    """A seat sees its own hand and commit only: redealing the others' secrets (hands, commits,
    Leo's pile, the RNG) leaves its view unchanged; the spectator sees no hand at all."""
    p = play(players, variant, seed, ch, stages=2)
    g = p.game
    rng = random.Random(ch)
    for i, (_, _, s) in enumerate(p.steps[:60]):
        spectator = g.observe(s, None).to_json()
        assert spectator["hand"] == [] and spectator["hand_values"] == []
        assert spectator["my_commit"] is None and spectator["legal_actions"] == []
        for seat in range(players):
            view = g.observe(s, seat).to_json()
            hand_values = [g.values[c - 1] for c in s.hands[seat]]
            commit = s.commits[seat]
            if g.tactical:
                assert view["hand"] == s.hands[seat]
                assert view["hand_values"] == hand_values
                assert view["my_commit"] == commit
            else:
                # The base game shows values only (WF-2): no white number, own ones included.
                assert view["hand"] == [] and view["hand_values"] == sorted(hand_values)
                mine = None if commit is None else [g.values[commit[0] - 1], commit[1]]
                assert view["my_commit"] == mine
            assert view["hand_sizes"] == [len(h) for h in s.hands]
            assert view["leo_cards_left"] == len(s.leo_cards)
            assert "leo_cards" not in view and "hands" not in view and "rng" not in view
            if s.phase != "commit":
                continue
            hidden = {c for o in range(players) if o != seat for c in s.hands[o]}
            hidden |= set(s.leo_cards)
            told = [
                e.to_json()
                for t in (p.table.initial_events, *p.events[: i + 1])
                for e in feed(t, seat)
            ]
            assert not hidden & _cards_named_this_stage(told)
            for _ in range(2):
                t = s.clone()
                _perturb(t, seat, rng)
                assert g.observe(t, seat).to_json() == view
                assert g.observe(t, None).to_json() == spectator


def test_perturbation_changes_the_state() -> None:
    """Guard for the secrecy property: the redeal really changes the others' secrets."""
    g = racedeck.make("why-first", players=4)
    s = g.new_initial_state(2)
    s = g.apply(s, 1, g.legal_actions(s, 1)[0])
    changed = 0
    rng = random.Random(0)
    for _ in range(10):
        t = s.clone()
        _perturb(t, 0, rng)
        assert t.hands[0] == s.hands[0] and t.commits[0] == s.commits[0]
        assert [len(h) for h in t.hands] == [len(h) for h in s.hands]
        changed += t.hands[1:] != s.hands[1:]
    assert changed >= 9


# -- fast path ------------------------------------------------------------------------------------


@FAST
@given(players_st, variant_st, seed_st, st.integers(0, 2**32))
def test_checked_and_fast_paths_agree(players: int, variant: str, seed: int, ch: int) -> None:
    assert_fast_path_agrees(play(players, variant, seed, ch))


def test_fast_path_leaves_no_events() -> None:
    g = racedeck.make("why-first", players=3)
    start = g.start(1)
    assert [e.kind for e in feed(start.events, None)] == ["stage_started"]
    s = start.state
    assert not hasattr(s, "events") and "events" not in s.to_json()  # states hold none
    g.apply_unchecked(s, 0, g.legal_actions(s, 0)[0])
    assert not hasattr(s, "events") and "events" not in s.to_json()
