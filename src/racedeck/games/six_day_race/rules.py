"""The rules engine of *Six Day Race*: a series of one-lap races with slipstream, rider change,
crash, sprints, finish points and laps lost.

Rulings: SD-1 track, SD-2 hands, SD-3 grey decks, SD-4 turns, SD-5 slipstream, SD-6
FAHRERWECHSEL, SD-7 STURZ, SD-8 sprints, SD-9 finish, SD-10 laps lost, SD-11 series,
SD-12 two riders (SD-11 as amended: reorder ties go to more laps lost over the series).

Transitions return their events: everything at the table is public — cards are played face up
(with the slipstream they take), FAHRERWECHSEL and how many cards come from each deck, STURZ,
sprints, crossings, race and series results — except the hands a seat is dealt (SD-2) and the
grey cards its rider draws (SD-6), which go to that seat alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from racedeck.core.errors import IllegalAction
from racedeck.core.events import Event
from racedeck.core.game import Game, Transition
from racedeck.core.header import NO_HEADER
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome
from racedeck.core.rng import Rng
from racedeck.core.spec import GameSpec
from racedeck.games.six_day_race import narrate
from racedeck.games.six_day_race.actions import PlayCard, action_from_json, parse_text
from racedeck.games.six_day_race.cards import GREEN, HIGH, LOW, card_code, card_pile
from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.games.six_day_race.sampler import SixDayRaceSampler
from racedeck.games.six_day_race.scoring import (
    finish_places,
    laps_lost,
    next_race_players,
    series_ranks,
    slipstream_destination,
    sprint_awards,
)
from racedeck.games.six_day_race.state import OVER, RiderResult, SixDayRaceState
from racedeck.games.six_day_race.view import SixDayRaceView, own_json

__all__ = ["SixDayRace"]

_Events = list[Event] | None


def _fraction_to_float(text: str) -> float:
    """``float(Fraction(text))`` for ``"20/3"`` or ``"6"``, without building the fraction (the
    integer division rounds correctly, as ``Fraction.__float__`` does)."""
    num, _, den = text.partition("/")
    return int(num) / int(den) if den else float(int(num))


class SixDayRace(Game[SixDayRaceState, PlayCard, SixDayRaceView]):
    """*Six Day Race* under one configuration (see :class:`SixDayRaceConfig`)."""

    spec: ClassVar[GameSpec]

    def __init__(self, config: SixDayRaceConfig) -> None:
        super().__init__(config)
        self.cfg = config
        self.n = config.players
        self.per = config.riders_per_player
        self.riders = config.rider_count
        self.line = config.line
        self.no_slip = (config.rider_change, config.crash)
        self._seat_names = super().seat_names()
        self._green = sorted(
            card_code(GREEN, v) for v, k in enumerate(config.green_counts, 1) for _ in range(k)
        )
        self._low = [card_code(LOW, v) for v, k in enumerate(config.grey_low, 1) for _ in range(k)]
        self._high = [
            card_code(HIGH, v) for v, k in enumerate(config.grey_high, 4) for _ in range(k)
        ]
        # The legal plays of every possible hand, by the bit mask of the values it holds. Built
        # from the configuration alone: a cache filled by play would keep, on this shared
        # object, which hands some seat has held.
        play = [PlayCard(v) for v in range(10)]
        self._legal_by_mask = tuple(
            tuple(play[v] for v in range(1, 10) if mask >> v & 1) for mask in range(1 << 10)
        )
        self._sampler = SixDayRaceSampler(config)

    def seat_names(self) -> tuple[str, ...]:
        """Default display names of the seats (``P1``, ``P2`` …), made once: every view's
        header asks for them."""
        return self._seat_names

    # -- riders ----------------------------------------------------------------------------------

    def owner(self, rider: int) -> int:
        """The seat that plays ``rider`` (SD-12: player p owns riders p and p + players)."""
        return rider % self.n

    def riders_of(self, seat: int) -> tuple[int, ...]:
        """The riders a seat plays."""
        return tuple(seat + k * self.n for k in range(self.per))

    def rider_names(self, names: Sequence[str] | None = None) -> tuple[str, ...]:
        """Display names of the riders: the player's name, with 1 and 2 when it has two."""
        seats = tuple(names) if names is not None else self.seat_names()
        if self.per == 1:
            return seats[: self.n]
        return tuple(f"{seats[r % self.n]}-{r // self.n + 1}" for r in range(self.riders))

    # -- life cycle ------------------------------------------------------------------------------

    def start(self, seed: int) -> Transition[SixDayRaceState]:
        """Start the first race; with ``random_first`` a random player goes first (SD-4).

        Events: the race's start (public) and each seat's dealt hand (to that seat, SD-2).
        """
        s = SixDayRaceState()
        s.players = self.n
        s.rng = Rng(seed)
        s.laps = [0] * self.n
        s.points = ["0"] * self.n
        first = s.rng.below(self.n) if self.cfg.random_first else 0
        ev: list[Event] = []
        self._start_race(s, [(first + i) % self.n for i in range(self.n)], ev)
        return Transition(s, tuple(ev))

    def legal_actions(self, state: SixDayRaceState, seat: int) -> tuple[PlayCard, ...]:
        """The distinct card values in the moving rider's hand, if ``seat`` plays it."""
        if type(seat) is not int or seat not in state.pending:
            return ()
        mask = 0
        for c in state.hands[state.current]:
            mask |= 1 << (c % 10)
        return self._legal_by_mask[mask]

    def _is_legal(self, s: SixDayRaceState, seat: int, action: object) -> bool:
        if seat not in s.pending or type(action) is not PlayCard or type(action.value) is not int:
            return False
        value = action.value
        for c in s.hands[s.current]:  # noqa: SIM110 - a plain loop is faster than any(genexpr) here
            if c % 10 == value:
                return True
        return False

    def step(
        self, state: SixDayRaceState, seat: int, action: PlayCard
    ) -> Transition[SixDayRaceState]:
        """Check and apply; the events tell the race, each to whoever may see it."""
        if type(seat) is not int or not 0 <= seat < self.n:
            # Only a plain int is a seat: True, 0.0 or "0" would be written into the record.
            raise IllegalAction(
                f"there is no seat {seat!r} (seats are the integers 0..{self.n - 1})",
                action=action,
                seat=seat if type(seat) is int else None,
                situation=self.describe_situation(state),
            )
        if not self._is_legal(state, seat, action):
            raise self.illegal(state, seat, action)
        s = state.clone()
        s.move += 1
        ev: list[Event] = []
        self._step(s, action.value, ev)
        return Transition(s, tuple(ev))

    def apply_unchecked(self, state: SixDayRaceState, seat: int, action: PlayCard) -> None:
        """Fast path: apply a legal action in place, without checks or events."""
        state.move += 1
        self._step(state, action.value, None)

    # -- a turn ----------------------------------------------------------------------------------

    def _step(self, s: SixDayRaceState, value: int, ev: _Events) -> None:
        rider = s.current
        hand = s.hands[rider]
        for card in hand:
            if card % 10 == value:
                break
        hand.remove(card)
        self._discard(s, card)
        s.played[rider] += (card,)
        start = s.positions[rider]
        first, others, dest = slipstream_destination(start, value, s.positions, rider, self.no_slip)
        s.positions[rider] = dest
        if ev is not None:
            ev.append(
                Event.fresh(
                    "card_played",
                    {
                        "rider": rider,
                        "value": value,
                        "card": card,
                        "from": start,
                        "first": first,
                        "riders_there": others,
                        "multiplier": (others + 1) if dest != first else 1,
                        "special": first in self.no_slip,
                        "to": dest,
                    },
                )
            )
        for i, line in enumerate(self.cfg.sprints):
            if start < line <= dest:  # SD-8: crossing order at each sprint line
                order = s.sprint_order[i]
                order.append(rider)
                if ev is not None:
                    points = self.cfg.sprint_points
                    place = len(order)
                    ev.append(
                        Event.fresh(
                            "sprint",
                            {
                                "sprint": i + 1,
                                "rider": rider,
                                "place": place,
                                "points": points[place - 1] if place <= len(points) else 0,
                            },
                        )
                    )
        if dest >= self.line:
            s.finishers.append(rider)
            if ev is not None:
                ev.append(Event.fresh("crossed_line", {"rider": rider, "place": len(s.finishers)}))
            if s.final_queue is None:
                # SD-9: every other rider gets exactly one more turn, in seat order.
                idx = s.order.index(rider)
                count = len(s.order)
                s.final_queue = [s.order[(idx + j) % count] for j in range(1, count)]
                if ev is not None:
                    ev.append(Event.fresh("final_turns", {"riders": s.final_queue[:]}))
        elif dest == self.cfg.rider_change:
            self._change_rider(s, rider, ev)
        elif dest == self.cfg.crash:
            s.crashed[rider] = True  # SD-7
            if ev is not None:
                ev.append(Event.fresh("crash", {"rider": rider}))
        self._next_turn(s, ev)

    def _discard(self, s: SixDayRaceState, card: int) -> None:
        pile = card_pile(card)
        if pile == GREEN:
            s.discard_green.append(card)
        elif pile == LOW:
            s.discard_low.append(card)
        else:
            s.discard_high.append(card)

    def _change_rider(self, s: SixDayRaceState, rider: int, ev: _Events) -> None:
        # SD-6: discard the whole hand, draw a fresh grey one.
        hand = s.hands[rider]
        discarded = len(hand)
        for card in hand:
            self._discard(s, card)
        hand.clear()
        low, high = self.cfg.change_draw
        drawn_low = self._draw(s, LOW, low, hand, ev)
        drawn_high = self._draw(s, HIGH, high, hand, ev)
        hand.sort()
        s.drawn[rider] = (drawn_low, drawn_high)
        if ev is not None:
            # Everyone sees the hand go and how many cards come from each deck; only the
            # rider's player sees which (SD-3: the decks are face down).
            ev.append(
                Event.fresh(
                    "rider_change",
                    {"rider": rider, "discarded": discarded, "drawn": [drawn_low, drawn_high]},
                )
            )
            ev.append(
                Event.fresh(
                    "cards_drawn", {"rider": rider, "cards": hand[:]}, audience=self.owner(rider)
                )
            )

    def _draw(self, s: SixDayRaceState, pile: int, count: int, hand: list[int], ev: _Events) -> int:
        # SD-3: a grey deck that runs out is refilled from its own discards.
        deck, discard = (
            (s.deck_low, s.discard_low) if pile == LOW else (s.deck_high, s.discard_high)
        )
        drawn = 0
        for _ in range(count):
            if not deck:
                if not discard:
                    break
                deck.extend(discard)
                discard.clear()
                s.rng.shuffle(deck)
                if ev is not None:
                    ev.append(
                        Event.fresh("deck_refilled", {"deck": "1-3" if pile == LOW else "4-6"})
                    )
            hand.append(deck.pop())
            drawn += 1
        return drawn

    def _next_turn(self, s: SixDayRaceState, ev: _Events) -> None:
        hands = s.hands
        while True:
            if s.final_queue is not None:
                if not s.final_queue:
                    self._end_race(s, ev, narrate.FINAL_TURNS_PLAYED)
                    return
                rider = s.final_queue.pop(0)
            else:
                if not any(hands):
                    self._end_race(s, ev, narrate.HANDS_EMPTY)  # SD-9
                    return
                rider = s.order[s.turn]
                s.turn = (s.turn + 1) % len(s.order)
            if s.crashed[rider]:
                s.crashed[rider] = False  # SD-7: this turn is the one lost
                if ev is not None:
                    ev.append(Event.fresh("turn_lost", {"rider": rider}))
                continue
            if not hands[rider]:
                if ev is not None:
                    ev.append(Event.fresh("passed", {"rider": rider}))  # SD-4
                continue
            s.current = rider
            s.pending = (rider % self.n,)
            return

    # -- races -----------------------------------------------------------------------------------

    def _start_race(self, s: SixDayRaceState, player_order: list[int], ev: _Events) -> None:
        s.positions = [0] * self.riders
        s.hands = [self._green[:] for _ in range(self.riders)]
        s.crashed = [False] * self.riders
        # SD-12: seats interleave A1 B1 C1 A2 B2 C2.
        s.order = [p + k * self.n for k in range(self.per) for p in player_order]
        s.turn = 0
        s.current = -1
        s.final_queue = None
        s.deck_low = self._low[:]
        s.deck_high = self._high[:]
        s.rng.shuffle(s.deck_low)
        s.rng.shuffle(s.deck_high)
        s.discard_low = []
        s.discard_high = []
        s.discard_green = []
        s.played = [()] * self.riders
        s.drawn = [None] * self.riders
        s.sprint_order = [[] for _ in self.cfg.sprints]
        s.finishers = []
        if ev is not None:
            ev.append(Event.fresh("race_started", {"race": s.race + 1, "order": s.order[:]}))
            # SD-2: hands are private; each player is told its own riders' hands.
            for seat in range(self.n):
                hands = [[r, s.hands[r][:]] for r in self.riders_of(seat)]
                ev.append(
                    Event.fresh("hands_dealt", {"race": s.race + 1, "hands": hands}, audience=seat)
                )
        self._next_turn(s, ev)

    def _end_race(self, s: SixDayRaceState, ev: _Events, reason: str) -> None:
        cfg = self.cfg
        places, finish = finish_places(s.positions, s.finishers, self.line, cfg.finish_points)
        crossed = set(s.finishers)
        results: list[RiderResult] = []
        for rider in range(self.riders):
            sprints = []
            for order in s.sprint_order:
                place = order.index(rider) + 1 if rider in order else 0
                points = cfg.sprint_points
                sprints.append(points[place - 1] if 0 < place <= len(points) else 0)
            results.append(
                RiderResult(
                    place=places[rider],
                    sprints=tuple(sprints),
                    finish=str(finish[rider]),
                    laps=laps_lost(
                        s.positions[rider],
                        rider in crossed,
                        self.line,
                        cfg.lap_spaces,
                        cfg.max_laps_lost,
                    ),
                )
            )
        s.results = (*s.results, tuple(results))
        for rider, r in enumerate(results):
            p = self.owner(rider)
            s.laps[p] += r.laps
            s.points[p] = str(Fraction(s.points[p]) + sum(r.sprints) + finish[rider])
        s.current = -1
        s.pending = ()
        if ev is not None:
            ev.append(
                Event.fresh(
                    "race_scored",
                    {
                        "race": s.race + 1,
                        "reason": reason,
                        "positions": s.positions[:],
                        "riders": [{**r.to_json(), "rider": i} for i, r in enumerate(results)],
                    },
                )
            )
        s.race += 1
        if s.race == cfg.races:
            s.phase = OVER
            if ev is not None:
                outcome = self.outcome(s)
                assert outcome is not None
                laps, _ = self.standings(s)
                ev.append(Event.fresh("game_over", {**outcome.to_json(), "laps": laps}))
            return
        previous = [self.owner(r) for r in s.order[: self.n]]
        # SD-11 Amended: ties go to more laps lost over the series so far, this race included
        # (s.laps has just been brought up to date).
        order = next_race_players(previous, places, s.laps, self.n, cfg.two_rider_order)
        self._start_race(s, order, ev)

    def standings(self, state: SixDayRaceState) -> tuple[list[int], list[Fraction]]:
        """Laps lost and points of every player over the races so far (SD-11, SD-12)."""
        return state.laps[:], [Fraction(p) for p in state.points]

    def outcome(self, state: SixDayRaceState) -> Outcome | None:
        """SD-11: fewest laps lost, then most points (a one-race game on points)."""
        if state.phase != OVER:
            return None
        laps, points = self.standings(state)
        ranks = series_ranks(laps, points, self.cfg.races)
        return Outcome(
            scores=tuple(float(p) for p in points),
            ranks=ranks,
            winners=frozenset(i for i, r in enumerate(ranks) if r == 1),
            names=self.seat_names(),
        )

    # -- the view header ---------------------------------------------------------------------

    def scores(self, state: SixDayRaceState) -> tuple[float, ...]:
        """Every player's points so far: the finished races' (at the end, the outcome's
        scores) and, during a race, the sprint points its riders have won in it (SD-8), so a
        score grows as points are won. Laps lost, which decide a series first (SD-11), are
        the view's ``laps``."""
        totals = [_fraction_to_float(p) for p in state.points]
        if state.phase != OVER:
            awards = sprint_awards(state.sprint_order, self.cfg.sprint_points)
            for order, won in zip(state.sprint_order, awards, strict=True):
                for rider, points in zip(order, won, strict=True):
                    totals[self.owner(rider)] += points
        return tuple(totals)

    def phase_name(self, state: SixDayRaceState) -> str:
        """``race``, ``final-turns`` once the line is crossed (SD-9), or ``over``."""
        if state.phase == OVER:
            return "over"
        return "race" if state.final_queue is None else "final-turns"

    def public_acting(self, state: SixDayRaceState) -> tuple[int, ...]:
        """The player of the rider on turn (turns are public, SD-4)."""
        return (self.owner(state.current),) if state.current >= 0 else ()

    def describe_waiting(self, state: SixDayRaceState) -> str:
        """Whose rider is to play, in which race."""
        if state.phase == OVER:
            return "the series is over"
        seat = self.owner(state.current)
        name = self.seat_names()[seat]
        # rider_names() spelled out for the one rider: every view's header calls this.
        who = name + (f" (rider {name}-{state.current // self.n + 1})" if self.per > 1 else "")
        return f"race {state.race + 1} of {self.cfg.races}: waiting for {who}"

    # -- views -----------------------------------------------------------------------------------

    def observe(self, state: SixDayRaceState, seat: int | None) -> SixDayRaceView:
        """``seat``'s view (its riders' hands only) or the spectator view (``None``).

        The view is a value: tuples all the way down (race results are frozen), so nothing a
        client does to it can reach the state.
        """
        return self._view(state, seat, with_header=True)

    def observe_without_header(self, state: SixDayRaceState, seat: int | None) -> SixDayRaceView:
        """:meth:`observe` with :data:`~racedeck.core.header.NO_HEADER` for a header, which it
        does not build (see :meth:`Game.observe_without_header`)."""
        return self._view(state, seat, with_header=False)

    def _view(self, state: SixDayRaceState, seat: int | None, with_header: bool) -> SixDayRaceView:
        my_hands: tuple[tuple[int, tuple[int, ...]], ...] = ()
        legal: tuple[PlayCard, ...] = ()
        if seat is not None:
            seat = self.check_seat(seat)
            my_hands, legal = self._own(state, seat)
        return SixDayRaceView(
            header=self.header(state, seat) if with_header else NO_HEADER,
            seat=seat,
            players=self.n,
            riders_per_player=self.per,
            race=state.race,
            races=self.cfg.races,
            phase=state.phase,
            positions=tuple(state.positions),
            crashed=tuple(state.crashed),
            order=tuple(state.order),
            current=state.current,
            final_queue=None if state.final_queue is None else tuple(state.final_queue),
            hand_sizes=tuple(len(h) for h in state.hands),
            my_hands=my_hands,
            deck_sizes=(len(state.deck_low), len(state.deck_high)),
            discard_low=tuple(state.discard_low),
            discard_high=tuple(state.discard_high),
            discard_green=tuple(state.discard_green),
            played=tuple(state.played),
            drawn=tuple(state.drawn),
            sprint_order=tuple(tuple(o) for o in state.sprint_order),
            sprint_points=sprint_awards(state.sprint_order, self.cfg.sprint_points),
            finishers=tuple(state.finishers),
            results=state.results,  # tuples of frozen results: nothing to change
            laps=tuple(state.laps),
            points=tuple(state.points),
            legal_actions=legal,
            line=self.line,
            sprints=tuple(self.cfg.sprints),
            rider_change=self.cfg.rider_change,
            crash=self.cfg.crash,
        )

    def seat_view_json(self, state: SixDayRaceState, seat: int) -> JSONObject:
        """The keys of ``seat``'s JSON view that are its own (see :meth:`Game.views_json`):
        ``seat``, ``my_hands`` (its riders' hands) and ``legal_actions``."""
        seat = self.check_seat(seat)
        return own_json(seat, *self._own(state, seat))

    def _own(
        self, state: SixDayRaceState, seat: int
    ) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[PlayCard, ...]]:
        """What only ``seat`` sees: its riders' hands, and its legal plays."""
        hands = tuple((r, tuple(state.hands[r])) for r in self.riders_of(seat))
        return hands, self.legal_actions(state, seat)

    def sample_state(self, view: SixDayRaceView, rng: Rng) -> SixDayRaceState:
        """A state consistent with ``view``: other riders' grey hands, both decks' order and the
        RNG drawn uniformly from ``rng`` (see :mod:`racedeck.games.six_day_race.sampler`)."""
        return self._sampler(view, rng)

    # -- forms -----------------------------------------------------------------------------------

    def action_from_json(self, obj: JSONObject) -> PlayCard:
        """Parse ``{"type": "play", "value": v}``; raise :class:`InvalidMessage` otherwise."""
        return action_from_json(obj)

    def parse_action(self, text: str, view: SixDayRaceView) -> PlayCard:
        """Parse ``3`` or ``play 3`` for the seat of ``view``; raise :class:`IllegalAction`
        (``action/not-your-turn``, ``action/game-over``) unless it is one of its legal plays."""
        action = parse_text(text)
        legal = view.legal_actions
        if action is not None and action in legal:
            return action
        if view.header.terminal:
            reason = "the series is over"
        elif not legal:
            reason = "it is another player's turn"
        elif action is None:
            reason = f"cannot read {text!r} as a card value"
        else:
            held = " ".join(str(c % 10) for c in view.hand_of(view.current))
            reason = f"the moving rider holds no {action.value} (hand: {held})"
        raise self.refuse(view, action, reason)

    def state_from_json(self, obj: JSONObject) -> SixDayRaceState:
        """Rebuild a state from its JSON form; raise :class:`ValueError` naming what is wrong
        when it is malformed or does not fit this configuration."""
        s = SixDayRaceState.from_json(obj)
        problem = self._misfit(s)
        if problem:
            raise ValueError(f"six-day-race state does not fit this configuration: {problem}")
        return s

    def _misfit(self, s: SixDayRaceState) -> str:
        """What in ``s`` cannot belong to a game of this configuration (empty if nothing)."""
        riders = self.riders
        if s.players != self.n:
            return f"{s.players} players, the configuration has {self.n}"
        per_rider = ("positions", "hands", "crashed", "played", "drawn")
        for name in per_rider:
            if len(getattr(s, name)) != riders:
                return f"{name} must list {riders} riders"
        if len(s.laps) != self.n or len(s.points) != self.n:
            return f"laps and points must list {self.n} players"
        if sorted(s.order) != list(range(riders)):
            return "order must list every rider once"
        if len(s.sprint_order) != len(self.cfg.sprints):
            return f"sprint_order must list {len(self.cfg.sprints)} sprint lines"
        if not 0 <= s.race <= self.cfg.races or len(s.results) != s.race:
            return "race and results do not match the series"
        if s.move < 0 or not 0 <= s.turn < riders:
            return "move and turn must be in range"
        if s.phase == OVER:
            if s.pending or s.race != self.cfg.races:
                return "a finished series waits on nobody"
        elif not 0 <= s.current < riders or s.pending != (self.owner(s.current),):
            return "the rider on turn and the pending seat do not match"
        for seq in (s.final_queue or [], s.finishers, *s.sprint_order):
            if any(not 0 <= r < riders for r in seq):
                return "a rider number is out of range"
        for race in s.results:
            if len(race) != riders:
                return f"each race's results must list {riders} riders"
        return ""

    def view_from_json(self, obj: JSONObject) -> SixDayRaceView:
        """Rebuild a view from its JSON form."""
        return SixDayRaceView.from_json(obj)

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        """One line of plain words for ``event``."""
        seats = tuple(names) if names is not None else self.seat_names()
        return narrate.describe(event, self.rider_names(seats), seats, self.cfg)

    def describe_action(self, action: PlayCard, names: Sequence[str] | None = None) -> str:
        """``play 3``."""
        return f"play {action.value}"

    # -- explanations ----------------------------------------------------------------------------

    def describe_situation(self, s: SixDayRaceState) -> str:
        """Where the game stands, for error messages."""
        if s.phase == OVER:
            return "the series is over"
        who = self.rider_names()[s.current] if s.current >= 0 else "nobody"
        return f"race {s.race + 1}, {who} to move"

    def why_illegal(self, s: SixDayRaceState, seat: int, action: object) -> str:
        """Why ``action`` is not legal for ``seat`` now, in words."""
        if s.phase == OVER:
            return "the series is over"
        if not 0 <= seat < self.n:
            return f"there is no seat {seat} (seats are 0..{self.n - 1})"
        if seat not in s.pending:
            return "it is another player's turn"
        if not isinstance(action, PlayCard):
            return "play a card by its value (e.g. 3)"
        held = " ".join(str(c % 10) for c in s.hands[s.current])
        return f"the moving rider holds no {action.value} (hand: {held})"
