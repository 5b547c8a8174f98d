"""Properties of *Six Day Race* over random configurations, seeds and legal games (Hypothesis).

Games are kept short (one or two races); half of them run on a 45-space track, where riders
cross the line and the final turns are played (SD-9), some with tiny grey decks that run out and
are refilled from their discards (SD-3).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
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
from racedeck.games.six_day_race import SixDayRace, SixDayRaceState
from racedeck.games.six_day_race.cards import GREEN, HIGH, LOW, card_code, card_pile

FAST = settings(max_examples=scaled(10), deadline=None)
"""Ten whole random games per property in ``make test`` (``RACEDECK_TEST_BUDGET`` scales it:
2.5 gives the 25 this file once ran)."""

seed_st = st.integers(min_value=0, max_value=2**64 - 1)
choices_st = st.integers(min_value=0, max_value=2**32)


@dataclass(frozen=True)
class Setup:
    players: int
    riders: int
    races: int
    short: bool
    small_decks: bool

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {
            "players": self.players,
            "riders": self.riders,
            "races": self.races,
        }
        if self.short:
            options.update(line=45, sprints=(15, 30), rider_change=17, crash=27)
        if self.small_decks:
            options.update(grey_low=(3, 3, 2), grey_high=(2, 1, 2))
        return options


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = draw(st.integers(min_value=2, max_value=8))
    options = [0, 2] if players == 2 else [0, 1, 2] if players <= 4 else [0, 1]
    short = draw(st.booleans())
    return Setup(
        players=players,
        riders=draw(st.sampled_from(options)),
        races=draw(st.integers(min_value=1, max_value=2)),
        short=short,
        small_decks=short and draw(st.booleans()),
    )


def play(setup: Setup, seed: int, choices: int) -> Played:
    """A random legal game, played through a :class:`racedeck.Session` (checked path)."""
    game = racedeck.make("six-day-race", **setup.options())
    assert isinstance(game, SixDayRace)
    return play_random(game, seed, choices)


# -- cards ----------------------------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_cards_are_conserved(setup: Setup, seed: int, choices: int) -> None:
    """SD-2/SD-3/SD-6: every green card of every rider is in its hand or the green discards;
    every grey card is in its deck, its discards or a hand; hands never mix green and grey."""
    p = play(setup, seed, choices)
    g = p.game
    cfg = g.cfg
    green_hand = Counter(
        card_code(GREEN, v) for v, k in enumerate(cfg.green_counts, 1) for _ in range(k)
    )
    greens = Counter({c: k * g.riders for c, k in green_hand.items()})
    lows = Counter({card_code(LOW, v): k for v, k in enumerate(cfg.grey_low, 1) if k})
    highs = Counter({card_code(HIGH, v): k for v, k in enumerate(cfg.grey_high, 4) if k})
    for s in p.states():
        held = Counter(c for h in s.hands for c in h)
        by_pile = {
            pile: Counter({c: k for c, k in held.items() if card_pile(c) == pile})
            for pile in (GREEN, LOW, HIGH)
        }
        assert by_pile[GREEN] + Counter(s.discard_green) == greens
        assert by_pile[LOW] + Counter(s.deck_low) + Counter(s.discard_low) == lows
        assert by_pile[HIGH] + Counter(s.deck_high) + Counter(s.discard_high) == highs
        assert all(len({card_pile(c) == GREEN for c in h}) <= 1 for h in s.hands)
        assert all(h == sorted(h) for h in s.hands)


# -- track ----------------------------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_positions_never_decrease_within_a_race(setup: Setup, seed: int, choices: int) -> None:
    """SD-1/SD-5: riders only move forward, by the card value times the slipstream multiplier."""
    p = play(setup, seed, choices)
    line = p.game.cfg.line
    prev = p.initial
    for (_, action, s), events in zip(p.steps, p.events, strict=True):
        new_race = any(e.kind == "race_started" for e in events)
        if not new_race:
            assert all(b >= a for a, b in zip(prev.positions, s.positions, strict=True))
        moves = [e.data for e in events if e.kind == "card_played"]
        assert len(moves) == 1
        m = moves[0]
        assert m["rider"] == prev.current and m["value"] == action.value
        assert m["from"] == prev.positions[m["rider"]]
        assert m["to"] == m["first"] + (m["multiplier"] - 1) * m["value"]
        assert m["first"] == m["from"] + m["value"]
        if not new_race:
            assert s.positions[m["rider"]] == m["to"]
        assert (m["to"] >= line) == any(
            e.kind == "crossed_line" and e.data["rider"] == m["rider"] for e in events
        )
        prev = s


# -- points ---------------------------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_every_race_awards_exactly_the_points_available(
    setup: Setup, seed: int, choices: int
) -> None:
    """SD-8/SD-9/SD-10: finish points always sum to those of the first ``riders`` places (shared
    points are exact fractions); sprint points to those of the riders that crossed each line;
    places and laps agree with the positions; the series totals are the sums of the races."""
    p = play(setup, seed, choices)
    g = p.game
    cfg = g.cfg
    available = sum(cfg.finish_points[: g.riders])
    races = 0
    sprinted: list[list[int]] = []
    crossed: set[int] = set()
    initial = g.start(p.session.seed).events
    events = [e for step in (initial, *p.events) for e in step]
    for e in events:
        if e.kind == "race_started":
            sprinted, crossed = [[] for _ in cfg.sprints], set()
        elif e.kind == "sprint":
            sprinted[e.data["sprint"] - 1].append(e.data["rider"])
        elif e.kind == "crossed_line":
            crossed.add(e.data["rider"])
        elif e.kind == "race_scored":
            races += 1
            riders = e.data["riders"]
            assert [r["rider"] for r in riders] == list(range(g.riders))
            finish = [Fraction(r["finish"]) for r in riders]
            assert sum(finish) == available
            for i, order in enumerate(sprinted):
                assert len(set(order)) == len(order)
                got = sum(r["sprints"][i] for r in riders)
                assert got == sum(cfg.sprint_points[: len(order)])
            positions = e.data["positions"]
            for rider, r in enumerate(riders):
                if rider in crossed:
                    assert r["laps"] == 0 and positions[rider] >= cfg.line
                    continue
                assert positions[rider] < cfg.line
                short = cfg.line - positions[rider]
                assert r["laps"] == min(cfg.max_laps_lost, short // cfg.lap_spaces)
                ahead = sum(
                    1 for o in range(g.riders) if o in crossed or positions[o] > positions[rider]
                )
                assert r["place"] == ahead + 1
            assert e.data["reason"] == (
                "final turns played" if crossed else "no rider has cards left"
            )
    assert races == setup.races
    final = p.steps[-1][2]
    laps, points = g.standings(final)
    for seat in range(g.num_players):
        own = g.riders_of(seat)
        assert laps[seat] == sum(race[r].laps for race in final.results for r in own)
        assert points[seat] == sum(
            sum(race[r].sprints) + Fraction(race[r].finish) for race in final.results for r in own
        )
    assert sum(points) == setup.races * available + sum(
        Fraction(x) for race in final.results for r in race for x in r.sprints
    )


# -- records, replay and JSON ---------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_replay_reproduces_every_state_and_event(setup: Setup, seed: int, choices: int) -> None:
    assert_replay_reproduces(play(setup, seed, choices))


@FAST
@given(setups(), seed_st, choices_st)
def test_json_round_trips(setup: Setup, seed: int, choices: int) -> None:
    """States, actions (JSON and text), views and outcomes survive ``json.dumps``/``loads``."""
    p = play(setup, seed, choices)
    g = p.game
    prev = p.initial
    for i, (seat, action, s) in enumerate(p.steps):
        assert g.action_from_json(roundtrip(action.to_json())) == action
        assert g.parse_action(str(action), g.observe(prev, seat)) == action
        obj = s.to_json()
        back = g.state_from_json(roundtrip(obj))
        assert back.to_json() == obj
        assert back == s
        assert g.standings(back) == g.standings(s)
        if i % 4 == 0 or s.is_terminal:
            for who in [None, *range(setup.players)]:
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


def _perturb(g: SixDayRace, s: SixDayRaceState, seat: int, rng: random.Random) -> None:
    """Redeal every secret that ``seat`` must not know, keeping its own riders' hands.

    The other riders' green cards are pooled and redealt (same hand sizes); their grey cards are
    pooled with the rest of the same deck and redealt (each hand keeps its number of cards from
    each deck; the decks keep their sizes, in a new order); the RNG (future shuffles) changes.
    """
    mine = set(g.riders_of(seat))
    others = [r for r in range(g.riders) if r not in mine]
    for pile, deck in ((GREEN, None), (LOW, s.deck_low), (HIGH, s.deck_high)):
        counts = {r: sum(1 for c in s.hands[r] if card_pile(c) == pile) for r in others}
        pool = [c for r in others for c in s.hands[r] if card_pile(c) == pile]
        if deck is not None:
            pool += deck
        rng.shuffle(pool)
        for r in others:
            keep = [c for c in s.hands[r] if card_pile(c) != pile]
            s.hands[r] = sorted(keep + pool[: counts[r]])
            del pool[: counts[r]]
        if deck is not None:
            deck[:] = pool
    s.rng.state ^= 0x5DEECE66D


@FAST
@given(setups(), seed_st, choices_st)
def test_views_hide_other_riders_hands_and_the_decks(setup: Setup, seed: int, choices: int) -> None:
    """SD-2: a seat sees its own riders' hands only: redealing the other riders' hands, the deck
    order and the RNG leaves its view unchanged; the spectator sees no hand at all."""
    p = play(setup, seed, choices)
    g = p.game
    rng = random.Random(choices)
    states = p.states()
    for s in states[:: max(1, len(states) // 15)]:
        spectator = g.observe(s, None).to_json()
        assert spectator["my_hands"] == [] and spectator["legal_actions"] == []
        for seat in range(setup.players):
            view = g.observe(s, seat).to_json()
            assert view["my_hands"] == [[r, s.hands[r]] for r in g.riders_of(seat)]
            assert view["hand_sizes"] == [len(h) for h in s.hands]
            assert not {"hands", "deck_low", "deck_high", "rng"} & set(view)
            for _ in range(2):
                t = s.clone()
                _perturb(g, t, seat, rng)
                assert g.observe(t, seat).to_json() == view
                assert g.observe(t, None).to_json() == spectator


def test_perturbation_changes_the_state() -> None:
    """Guard for the secrecy property: the redeal really changes the others' secrets."""
    g = racedeck.make("six-day-race", players=4, riders=1)
    assert isinstance(g, SixDayRace)
    s = g.new_initial_state(2)
    rng = random.Random(0)
    for _ in range(30):  # play until rider 1 holds grey cards and the decks are part-used
        s = g.apply(s, s.pending[0], g.legal_actions(s, s.pending[0])[-1])
    s.hands[1] = sorted(s.deck_low[:7] + s.deck_high[:4])
    del s.deck_low[:7], s.deck_high[:4]
    changed = 0
    for _ in range(10):
        t = s.clone()
        _perturb(g, t, 0, rng)
        assert t.hands[0] == s.hands[0]
        assert [len(h) for h in t.hands] == [len(h) for h in s.hands]
        assert len(t.deck_low) == len(s.deck_low) and len(t.deck_high) == len(s.deck_high)
        changed += t.hands[1] != s.hands[1] and t.deck_low != s.deck_low
    assert changed >= 9


# -- fast path ------------------------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_checked_and_fast_paths_agree(setup: Setup, seed: int, choices: int) -> None:
    assert_fast_path_agrees(play(setup, seed, choices))
