"""*Dash*, a fourth game that lives in the tests: one folder's worth of rules plus one
registration, to show that a game touches no shared module.

Rules: a deck of 1s, 2s and 3s (eight of each) is shuffled and every player is dealt
``hand_size`` cards, face down. In turn, a player plays one card from hand, face up, and moves
that many spaces, then draws one if the deck has any — except after a 3, which costs the
draw. A player with an empty hand passes (the
driver answers for them: the hand sizes are public). The game ends when a player reaches
``goal`` or every hand is empty; the farthest player wins (ties share the win).

It offers a ``bots`` plugin (this module's :data:`BOTS`) and nothing else, so the other faces
fall back to what they offer every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from racedeck.bots.base import Bot
from racedeck.core.errors import IllegalAction, InvalidMessage
from racedeck.core.events import PUBLIC, RECORD, Event
from racedeck.core.game import Game, Transition
from racedeck.core.header import ViewHeader
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome, competition_ranks
from racedeck.core.rng import Rng
from racedeck.core.spec import Dynamics, GameConfig, GameSpec, option

VALUES = (1, 2, 3)
COPIES = 8


@dataclass(frozen=True)
class DashConfig(GameConfig):
    """Options of *Dash*."""

    players: int = option(3, "number of players", min=2, max=4)
    goal: int = option(10, "spaces to reach", min=3, max=30)
    hand_size: int = option(3, "cards in hand", min=1, max=5)

    def validate(self) -> None:
        """Every player must be dealt a full hand."""
        if self.players * self.hand_size > len(VALUES) * COPIES:
            raise ValueError("not enough cards for every hand")


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card of ``value`` from hand."""

    value: int

    def to_json(self) -> JSONObject:
        """The JSON form."""
        return {"type": "play", "value": self.value}

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass with an empty hand."""

    def to_json(self) -> JSONObject:
        """The JSON form."""
        return {"type": "pass"}

    def __str__(self) -> str:
        return "pass"


DashAction = Play | Pass


class DashState:
    """Positions, hands, deck, whose turn it is and the move number."""

    def __init__(self, players: int) -> None:
        self.positions = [0] * players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.deck: list[int] = []
        self.discards: list[int] = []
        self.turn = 0
        self.move = 0
        self.over = False

    @property
    def pending(self) -> tuple[int, ...]:
        """The seat on turn, none once the game is over."""
        return () if self.over else (self.turn,)

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.over

    def clone(self) -> DashState:
        """An independent copy."""
        return DashState.from_json(self.to_json())

    def to_json(self) -> JSONObject:
        """The full JSON form."""
        return {
            "positions": list(self.positions),
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "discards": list(self.discards),
            "turn": self.turn,
            "move": self.move,
            "over": self.over,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> DashState:
        """Rebuild from :meth:`to_json`."""
        state = cls(len(obj["positions"]))
        state.positions = [int(p) for p in obj["positions"]]
        state.hands = [[int(c) for c in h] for h in obj["hands"]]
        state.deck = [int(c) for c in obj["deck"]]
        state.discards = [int(c) for c in obj["discards"]]
        state.turn = int(obj["turn"])
        state.move = int(obj["move"])
        state.over = bool(obj["over"])
        return state


@dataclass(frozen=True, slots=True)
class DashView:
    """What a seat knows: everything but the other hands' cards and the deck order."""

    header: ViewHeader
    seat: int | None
    positions: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discards: tuple[int, ...]
    legal_actions: tuple[DashAction, ...]

    def to_json(self) -> JSONObject:
        """The JSON form."""
        return {
            "header": self.header.to_json(),
            "seat": self.seat,
            "positions": list(self.positions),
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "deck_size": self.deck_size,
            "discards": list(self.discards),
            "legal_actions": [a.to_json() for a in self.legal_actions],
        }


def action_from_json(obj: JSONObject) -> DashAction:
    """Parse an action's JSON form."""
    kind = obj.get("type")
    if kind == "pass":
        return Pass()
    value = obj.get("value")
    if kind == "play" and type(value) is int and value in VALUES:
        return Play(value)
    raise InvalidMessage(f"not a Dash action: {obj!r}")


class Dash(Game[DashState, DashAction, DashView]):
    """The rules of *Dash*."""

    @property
    def dash(self) -> DashConfig:
        """The configuration, typed."""
        assert isinstance(self.config, DashConfig)
        return self.config

    def start(self, seed: int) -> Transition[DashState]:
        """Shuffle, deal, first player on turn."""
        n = self.num_players
        state = DashState(n)
        deck = [v for v in VALUES for _ in range(COPIES)]
        Rng(seed).shuffle(deck)
        events = [Event("deck", {"order": deck}, RECORD)]
        size = self.dash.hand_size
        for seat in range(n):
            state.hands[seat] = sorted(deck[seat * size : (seat + 1) * size])
            events.append(Event("dealt", {"hand": state.hands[seat]}, seat))
        state.deck = deck[n * size :]
        events.append(Event("started", {"players": n, "goal": self.dash.goal}))
        return Transition(state, tuple(events))

    def legal_actions(self, state: DashState, seat: int) -> Sequence[DashAction]:
        """Each distinct value in hand; a pass with an empty hand."""
        if seat not in state.pending:
            return ()
        hand = state.hands[seat]
        return tuple(Play(v) for v in sorted(set(hand))) if hand else (Pass(),)

    def step(self, state: DashState, seat: int, action: DashAction) -> Transition[DashState]:
        """Check and play ``action``."""
        if action not in self.legal_actions(state, seat):
            raise self.illegal(state, seat, action)
        new = state.clone()
        events = self._play(new, seat, action)
        return Transition(new, tuple(events))

    def apply_unchecked(self, state: DashState, seat: int, action: DashAction) -> None:
        """The fast path."""
        self._play(state, seat, action)

    def _play(self, state: DashState, seat: int, action: DashAction) -> list[Event]:
        events = []
        if isinstance(action, Play):
            state.hands[seat].remove(action.value)
            state.discards.append(action.value)
            state.positions[seat] += action.value
            events.append(
                Event("played", {"seat": seat, "value": action.value, "to": state.positions[seat]})
            )
            if state.deck and action.value != 3:
                card = state.deck.pop(0)
                state.hands[seat].append(card)
                state.hands[seat].sort()
                events.append(Event("drew", {"card": card}, seat))
        else:
            events.append(Event("passed", {"seat": seat}))
        state.move += 1
        if max(state.positions) >= self.dash.goal or not any(state.hands):
            state.over = True
            outcome = self.outcome(state)
            assert outcome is not None
            events.append(Event("game_over", outcome.to_json(), PUBLIC))
        else:
            state.turn = (state.turn + 1) % self.num_players
        return events

    def forced_action(self, state: DashState, seat: int) -> DashAction | None:
        """A seat with an empty hand (public knowledge) can only pass."""
        return Pass() if seat in state.pending and not state.hands[seat] else None

    def observe(self, state: DashState, seat: int | None) -> DashView:
        """``seat``'s view."""
        return DashView(
            header=self.header(state, seat),
            seat=seat,
            positions=tuple(state.positions),
            hand=tuple(state.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in state.hands),
            deck_size=len(state.deck),
            discards=tuple(state.discards),
            legal_actions=tuple(self.legal_actions(state, seat)) if seat is not None else (),
        )

    def scores(self, state: DashState) -> tuple[float, ...]:
        """Spaces moved."""
        return tuple(float(p) for p in state.positions)

    def outcome(self, state: DashState) -> Outcome | None:
        """The farthest wins."""
        if not state.over:
            return None
        ranks = competition_ranks([-p for p in state.positions])
        winners = frozenset(i for i, r in enumerate(ranks) if r == 1)
        return Outcome(self.scores(state), ranks, winners, self.seat_names())

    def sample_state(self, view: DashView, rng: Rng) -> DashState:
        """Re-deal the cards the view does not show."""
        unseen = [v for v in VALUES for _ in range(COPIES)]
        for card in (*view.hand, *view.discards):
            unseen.remove(card)
        rng.shuffle(unseen)
        state = DashState(self.num_players)
        state.positions = list(view.positions)
        state.discards = list(view.discards)
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                state.hands[seat] = list(view.hand)
            else:
                state.hands[seat], unseen = sorted(unseen[:size]), unseen[size:]
        state.deck = unseen
        state.move = view.header.move
        state.over = view.header.terminal
        state.turn = view.header.acting[0] if view.header.acting else 0
        return state

    def action_from_json(self, obj: JSONObject) -> DashAction:
        """Parse an action's JSON form."""
        return action_from_json(obj)

    def parse_action(self, text: str, view: DashView) -> DashAction:
        """``1``, ``2``, ``3`` or ``pass``, from the view alone."""
        word = text.strip().lower()
        action: DashAction | None = None
        if word == "pass":
            action = Pass()
        elif word in {str(v) for v in VALUES}:
            action = Play(int(word))
        if action is None or action not in view.legal_actions:
            raise IllegalAction(
                f"cannot read {text!r} as a legal action", seat=view.seat, legal=view.legal_actions
            )
        return action

    def state_from_json(self, obj: JSONObject) -> DashState:
        """Rebuild a state."""
        return DashState.from_json(obj)

    def view_from_json(self, obj: JSONObject) -> DashView:
        """Rebuild a view."""
        return DashView(
            header=ViewHeader.from_json(obj["header"]),
            seat=obj["seat"],
            positions=tuple(obj["positions"]),
            hand=tuple(obj["hand"]),
            hand_sizes=tuple(obj["hand_sizes"]),
            deck_size=int(obj["deck_size"]),
            discards=tuple(obj["discards"]),
            legal_actions=tuple(action_from_json(a) for a in obj["legal_actions"]),
        )

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        """One line of words."""
        who = tuple(names) if names is not None else self.seat_names()
        d = event.data
        if event.kind == "played":
            return f"{who[d['seat']]} plays {d['value']} and reaches {d['to']}"
        if event.kind == "passed":
            return f"{who[d['seat']]} has no card and passes"
        if event.kind == "drew":
            return f"you draw a {d['card']}"
        if event.kind == "dealt":
            return f"your hand: {', '.join(map(str, d['hand']))}"
        if event.kind == "game_over":
            return "Game over: " + ", ".join(who[w] for w in d["winners"]) + " wins"
        return event.kind


SPEC = GameSpec(
    id="dash",
    title="Dash",
    min_players=2,
    max_players=4,
    dynamics=frozenset({Dynamics.SEQUENTIAL}),
    config_type=DashConfig,
    rules_version="1",
    factory=Dash,
    plugins={"bots": "dash_game"},
    summary="Play 1s, 2s and 3s to reach the goal first.",
)
"""Not registered on import: tests register it for as long as they need it."""
Dash.spec = SPEC


class DashGreedyBot(Bot):
    """Plays its highest card."""

    name = "greedy"

    def act(self, view: Any) -> Any:
        """The last legal action: the highest value (or the pass)."""
        return view.legal_actions[-1]


BOTS = {"greedy": DashGreedyBot}
"""Dash's own bots (its ``bots`` plugin)."""
