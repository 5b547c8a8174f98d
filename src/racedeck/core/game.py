"""The contract every game implements.

A game is a :class:`Game` object (rules plus a fixed configuration) operating on state values.
The checked path, :meth:`Game.apply`, validates and returns a new state, leaving the old one
untouched; the fast path, :meth:`Game.apply_unchecked`, mutates the state in place, skips
validation and emits no events — for bots and batch simulation that only feed it actions
taken from :meth:`Game.legal_actions`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from racedeck.core.errors import IllegalAction
from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome
from racedeck.core.rng import Rng
from racedeck.core.spec import GameConfig, GameSpec

__all__ = ["Action", "Game", "GameState", "View"]


class Action(Protocol):
    """A player's decision: a small frozen value with a stable text and JSON form."""

    def to_json(self) -> JSONObject:
        """Return the JSON form (an object with a ``"type"`` key)."""
        ...

    def __str__(self) -> str:
        """Return the canonical text form, which the game's ``parse_action`` accepts."""
        ...


class GameState(Protocol):
    """What every state offers, whatever the game."""

    @property
    def pending(self) -> tuple[int, ...]:
        """Seats whose decision the game waits for: one, several (simultaneous), none (over)."""
        ...

    @property
    def events(self) -> tuple[Event, ...]:
        """Events of the most recent checked transition (empty after the fast path)."""
        ...

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        ...

    def clone(self) -> Any:
        """Return an independent copy (fast: used by search)."""
        ...

    def to_json(self) -> JSONObject:
        """Return the full JSON form, secrets and RNG included."""
        ...


class View(Protocol):
    """What one seat (or a spectator, seat ``None``) may know about a state."""

    @property
    def seat(self) -> int | None:
        """The observing seat, ``None`` for a spectator."""
        ...

    @property
    def legal_actions(self) -> tuple[Any, ...]:
        """The observing seat's legal actions now (empty for spectators and waiting seats)."""
        ...

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        ...


S = TypeVar("S", bound=GameState)
A = TypeVar("A")
V = TypeVar("V", bound=View)


class Game(ABC, Generic[S, A, V]):
    """Rules of one game under one configuration. Stateless: all game data lives in states."""

    spec: ClassVar[GameSpec]

    def __init__(self, config: GameConfig) -> None:
        self._config = config

    @property
    def config(self) -> GameConfig:
        """The configuration this game was made with."""
        return self._config

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._config.players

    def seat_names(self) -> tuple[str, ...]:
        """Default display names of the seats (``P1``, ``P2`` …)."""
        return tuple(f"P{i + 1}" for i in range(self.num_players))

    # -- life cycle -------------------------------------------------------------------------

    @abstractmethod
    def new_initial_state(self, seed: int) -> S:
        """Return the state at the start of a game whose chance is driven by ``seed``."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Return the legal actions of ``seat`` (empty when the seat is not pending)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> S:
        """Check and apply ``action`` by ``seat``; return the new state with its events.

        Raises :class:`~racedeck.core.errors.IllegalAction` naming the action, the reason and
        the legal options. The given state is not modified.
        """

    @abstractmethod
    def apply_unchecked(self, state: S, seat: int, action: A) -> None:
        """Apply a legal ``action`` in place, without checks or events (the fast path).

        Feeding it an action not in :meth:`legal_actions` leaves the state undefined.
        """

    @abstractmethod
    def observe(self, state: S, seat: int | None) -> V:
        """Return ``seat``'s view, or the spectator view for ``None``."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Return the outcome of a finished game, ``None`` while it goes on."""

    # -- search ----------------------------------------------------------------------------

    @abstractmethod
    def sample_state(self, view: V, rng: Rng) -> S:
        """Return a full state consistent with everything ``view`` shows (a determinization).

        What the view hides — other hands, deck order, cards committed face down, the state's
        own RNG — is drawn from ``rng``, uniformly among the assignments the view allows, so a
        search that starts from the result cannot learn a secret. The result satisfies
        ``observe(result, view.seat)`` equal to ``view`` (events aside).
        """

    def conceals(self, state: S, seat: int, action: A) -> bool:
        """True when the other seats do not see ``action`` as ``seat`` takes it in ``state``.

        A face-down commit, or a silent pass in a reaction window: the seats still pending
        decide without knowing it, so a search must treat their choices as simultaneous.
        The default, ``False``, suits games where every decision is seen when it is taken.
        """
        return False

    # -- forms -----------------------------------------------------------------------------

    @abstractmethod
    def action_from_json(self, obj: JSONObject) -> A:
        """Parse an action's JSON form; raise :class:`ValueError` if malformed."""

    @abstractmethod
    def parse_action(self, text: str, state: S, seat: int) -> A:
        """Parse an action's text form for ``seat`` in ``state``.

        Raises :class:`~racedeck.core.errors.IllegalAction` listing the legal options when the
        text does not name a legal action.
        """

    @abstractmethod
    def state_from_json(self, obj: JSONObject) -> S:
        """Rebuild a state from :meth:`GameState.to_json`."""

    @abstractmethod
    def view_from_json(self, obj: JSONObject) -> V:
        """Rebuild a view from its JSON form."""

    @abstractmethod
    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        """Return one line of plain words for ``event``."""

    def describe_action(self, action: A, names: Sequence[str] | None = None) -> str:
        """Return the action in words for people (defaults to its text form)."""
        return str(action)

    # -- explanations ----------------------------------------------------------------------

    def illegal(self, state: S, seat: int, action: object, reason: str = "") -> IllegalAction:
        """The :class:`IllegalAction` for ``action``: its reason (``why_illegal`` unless given),
        the situation and the seat's legal options."""
        return IllegalAction(
            reason or self.why_illegal(state, seat, action),
            action=action,
            seat=seat,
            legal=self.legal_actions(state, seat),
            situation=self.describe_situation(state),
        )

    def why_illegal(self, state: S, seat: int, action: object) -> str:
        """Why ``action`` is not legal for ``seat`` now, in words (games say more)."""
        return "not a legal action here"

    def describe_situation(self, state: S) -> str:
        """Where the game stands, in a few words, for error messages."""
        return ""
