"""The table driver: one game in progress, its record, and the loop that asks the seats.

Every face plays through it — the terminal, ``simulate``, tournaments, reports, the server and
the RL environments — so the rules of asking are written once:

- who acts is ``state.pending``; after each answer the pending seats are read again (an
  answer can close a reaction window or resolve a commit);
- a decision the game marks as forced (:meth:`Game.forced_action`, e.g. a pass by a seat that
  holds no BLOCK, SB-9) is answered by the driver without asking the seat;
- an action from outside names the move number it answers; an older one is refused as stale;
- every accepted action goes into the record at once, with the events it caused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from racedeck.core.errors import InvalidMessage, InvalidRecord, StaleMove
from racedeck.core.events import Event
from racedeck.core.game import Game, Transition
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import GameRecord, RecordedAction

__all__ = ["Player", "Table", "run"]


class Player(Protocol):
    """Anything that chooses an action from a view: a bot, a person at a terminal."""

    def act(self, view: Any) -> Any:
        """Return one of ``view.legal_actions``."""
        ...


class Table:
    """A game in progress with its record; the one place actions are accepted.

    ``transitions`` lists every accepted transition's events with the move number they led
    to, starting with the deal (move 0), so any seat's feed can be rebuilt after a reconnect.
    """

    def __init__(
        self, game: Game[Any, Any, Any], seed: int, meta: JSONObject | None = None
    ) -> None:
        self.game = game
        self.seed = seed
        start = game.start(seed)
        self.state: Any = start.state
        self.initial_events: tuple[Event, ...] = start.events
        self.meta: JSONObject = dict(meta or {})
        self._actions: list[RecordedAction] = []
        self.history: list[tuple[int, tuple[Event, ...]]] = [(0, start.events)]

    # -- reading ---------------------------------------------------------------------------

    @property
    def move(self) -> int:
        """The move number: how many actions the table has accepted."""
        return int(self.state.move)

    @property
    def pending(self) -> tuple[int, ...]:
        """Seats the game waits for."""
        return tuple(self.state.pending)

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return bool(self.state.is_terminal)

    def view(self, seat: int | None) -> Any:
        """``seat``'s view (``None``: the spectators')."""
        return self.game.observe(self.state, seat)

    @property
    def record(self) -> GameRecord:
        """The record so far."""
        return GameRecord(
            game=self.game.spec.id,
            rules_version=self.game.spec.rules_version,
            config=self.game.config.to_json(),
            seed=self.seed,
            actions=tuple(self._actions),
            meta=dict(self.meta),
        )

    # -- acting ------------------------------------------------------------------------------

    def submit(self, seat: int, action: Any, move: int | None = None) -> Transition[Any]:
        """Check and apply ``action`` by ``seat``; record it; return the transition.

        ``move``, when given, is the move number the action answers: anything else raises
        :class:`~racedeck.core.errors.StaleMove`. Illegal actions raise
        :class:`~racedeck.core.errors.IllegalAction` (with its code) and change nothing.
        """
        self.game.check_seat(seat)
        if move is not None and (type(move) is not int or move != self.move):
            raise StaleMove(move if type(move) is int else -1, self.move)
        transition = self.game.step(self.state, seat, action)
        self.state = transition.state
        self._actions.append(RecordedAction(seat, action.to_json()))
        self.history.append((self.move, transition.events))
        return transition

    def submit_json(self, seat: int, obj: object, move: int | None = None) -> Transition[Any]:
        """:meth:`submit` for an action's JSON form from outside.

        A malformed form raises :class:`~racedeck.core.errors.InvalidMessage`.
        """
        if not isinstance(obj, dict):
            raise InvalidMessage("an action must be a JSON object with a 'type'")
        try:
            action = self.game.action_from_json(obj)
        except InvalidMessage:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise InvalidMessage(f"malformed action {obj!r}: {exc}") from None
        return self.submit(seat, action, move)

    def forced_step(self) -> Transition[Any] | None:
        """Take one forced decision (:meth:`Game.forced_action`) for a pending seat, if any."""
        state = self.state
        for seat in state.pending:
            action = self.game.forced_action(state, seat)
            if action is not None:
                return self.submit(seat, action)
        return None

    # -- records ------------------------------------------------------------------------------

    @classmethod
    def from_record(cls, record: GameRecord) -> Table:
        """Rebuild a table by replaying ``record`` through the checked path.

        Raises :class:`~racedeck.core.errors.InvalidRecord` when the record does not replay.
        """
        table = cls(record.make_game(), record.seed, dict(record.meta))
        for i, rec in enumerate(record.actions):
            try:
                table.submit_json(rec.seat, rec.action)
            except (ValueError, InvalidRecord) as exc:
                raise InvalidRecord(f"record action {i} does not replay: {exc}") from exc
        return table


Observer = Callable[[Table, Transition[Any] | None], None]
"""Called with the table after the deal (``None``) and after every accepted transition."""


def run(
    table: Table,
    players: Sequence[Player | None],
    *,
    observer: Observer | None = None,
    max_decisions: int = 1_000_000,
) -> int:
    """Play ``table`` to the end (or until a seat without a player must act); return the
    number of decisions taken.

    Pending seats are asked one at a time in seat order, and pending is read again after
    every answer. Seats of a simultaneous commit may be asked one after another because a
    view never shows another seat's uncommitted choice. A seat whose player is ``None`` is left for
    the caller to ask: the loop returns when only such seats are pending.
    """
    if observer is not None and not table.history[1:]:
        observer(table, None)
    decisions = 0
    while not table.is_over:
        if not table.pending:
            raise RuntimeError("the game is not over but no seat is pending")
        forced = table.forced_step()
        if forced is not None:
            decisions += 1
            if observer is not None:
                observer(table, forced)
            continue
        asked = [s for s in table.pending if players[s] is not None]
        if not asked:
            return decisions
        seat = asked[0]
        player = players[seat]
        assert player is not None
        transition = table.submit(seat, player.act(table.view(seat)))
        decisions += 1
        if observer is not None:
            observer(table, transition)
        if decisions > max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
    return decisions
