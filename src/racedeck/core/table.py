"""The table driver: one game in progress, its record, and the loop that asks the seats.

Every face plays through it — the terminal, ``simulate``, tournaments, reports, the server and
the RL environments — so the rules of asking are written once:

- who acts is ``state.pending``; after each answer the pending seats are read again (an
  answer can close a reaction window or resolve a commit), and the first pending seat that
  has a player is asked;
- a decision the game marks as forced (:meth:`Game.forced_action`, e.g. a pass by a seat that
  holds no BLOCK, SB-9) is answered by the driver without asking the seat;
- an action from outside names the move number it answers (the *stale rule*, :meth:`Table.fresh`):
  the current one, or an older one when every action since was another seat's concealed
  action (:meth:`Game.conceals`: a face-down commit) and the answering seat was waited for all
  along — nothing it may know changed, so its answer still holds (simultaneous commits);
- every accepted action goes into the record at once, with the events it caused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from racedeck.core.errors import InvalidMessage, InvalidRecord, StaleMove
from racedeck.core.events import Event, feed
from racedeck.core.game import Game, Transition
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import GameRecord, RecordedAction

__all__ = ["Observer", "Player", "Step", "Table", "run"]


@dataclass(frozen=True, slots=True)
class Step:
    """One accepted action as the stale rule remembers it: who took it, whether the other
    seats saw it taken (``concealed``: :meth:`Game.conceals`) and who was pending after it."""

    seat: int
    concealed: bool
    pending: tuple[int, ...]


class Player(Protocol):
    """Anything that chooses an action from a view: a bot, a person at a terminal."""

    def act(self, view: Any) -> Any:
        """Return one of ``view.legal_actions``."""
        ...


class Table:
    """A game in progress with its record; the one place actions are accepted.

    ``history`` lists every transition's events with the move number it led to, starting
    with the deal (move 0), so any seat's feed can be rebuilt after a reconnect
    (:meth:`feed`).
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
        self.start_pending: tuple[int, ...] = tuple(start.state.pending)
        self.steps: list[Step] = []
        """Every accepted action, for the stale rule (:meth:`fresh`)."""

    # -- reading ---------------------------------------------------------------------------

    @property
    def move(self) -> int:
        """The move number: how many actions the table has accepted (the state's ``move``)."""
        # Counted here rather than read from the state, so that the number a client must
        # answer is the table's own whatever the engine keeps.
        return len(self._actions)

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

    def feed(self, seat: int | None, after: int = -1) -> tuple[Event, ...]:
        """The events ``seat`` (``None``: a spectator) may see, of every transition that led
        to a move number above ``after`` (``-1``: from the deal on), in order."""
        return tuple(e for move, events in self.history if move > after for e in feed(events, seat))

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

        ``seat`` must be a seat of the game (:meth:`Game.check_seat`: a plain ``int``).
        ``move``, when given, is the move number the action answers: another number raises
        :class:`~racedeck.core.errors.StaleMove`. Illegal actions raise
        :class:`~racedeck.core.errors.IllegalAction` (with its code) and change nothing.
        """
        self._check(seat, move)
        before = self.state
        transition = self.game.step(before, seat, action)
        self.state = transition.state
        self._actions.append(RecordedAction(seat, action.to_json()))
        self.history.append((self.move, transition.events))
        concealed = self.game.conceals(before, seat, action)
        self.steps.append(Step(seat, concealed, tuple(transition.state.pending)))
        return transition

    @property
    def last_action(self) -> RecordedAction:
        """The action accepted last (the table has accepted at least one)."""
        return self._actions[-1]

    def fresh(self, seat: int, move: int) -> bool:
        """The stale rule: may ``seat`` answer the view of move number ``move`` now?

        Yes at the current move. At an older one only when ``seat`` was pending then and
        every action since was another seat's concealed one while ``seat`` stayed pending:
        what ``seat`` may know has not changed, so its answer still holds (two players of
        *Why First?* placing at once, WF-4).
        """
        current = self.move
        if move == current:
            return True
        if not 0 <= move < current:
            return False
        pending_then = self.steps[move - 1].pending if move > 0 else self.start_pending
        if seat not in pending_then:
            return False
        return all(
            step.seat != seat and step.concealed and seat in step.pending
            for step in self.steps[move:current]
        )

    def submit_json(self, seat: int, obj: object, move: int | None = None) -> Transition[Any]:
        """:meth:`submit` for an action's JSON form from outside.

        The seat and the move number are checked first, so a foreign or stale message is
        refused as such whatever it holds; a malformed form then raises
        :class:`~racedeck.core.errors.InvalidMessage`.
        """
        self._check(seat, move)
        return self.submit(seat, self.parse_json(obj), move)

    def parse_json(self, obj: object) -> Any:
        """The action whose JSON form is ``obj``, from outside: anything malformed raises
        :class:`~racedeck.core.errors.InvalidMessage` naming what is wrong."""
        if not isinstance(obj, dict):
            raise InvalidMessage("an action must be a JSON object with a 'type'")
        try:
            return self.game.action_from_json(obj)
        except InvalidMessage:
            raise
        # Whatever a parser trips over in a stranger's message, the message is malformed.
        except (ValueError, LookupError, TypeError, AttributeError) as exc:
            raise InvalidMessage(f"malformed action {obj!r}: {exc}") from None

    def _check(self, seat: object, move: object) -> None:
        checked = self.game.check_seat(seat)
        if move is not None:
            if type(move) is not int:
                raise InvalidMessage(f"a move number must be an integer, got {move!r}")
            if not self.fresh(checked, move):
                raise StaleMove(move, self.move)

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
            except ValueError as exc:  # every refusal of a move is a ValueError
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
    """Play ``table`` to the end (or until only seats without a player must act); return the
    number of decisions taken, forced ones included.

    Forced decisions (:meth:`Game.forced_action`) are taken first, without asking. Otherwise
    the first pending seat that has a player is asked, and pending is read again after every
    answer. Seats of a simultaneous commit may be asked one after another because a view
    never shows another seat's uncommitted choice. A seat whose player is ``None`` is left for
    the caller (a person, a remote client): the loop returns when only such seats are pending.
    ``observer`` is called with the table before the first decision of a fresh table
    (transition ``None``) and after every accepted transition.
    """
    if len(players) != table.game.num_players:
        raise ValueError(
            f"{table.game.num_players} seats need {table.game.num_players} players "
            f"(None for a seat nobody here plays), got {len(players)}"
        )
    if observer is not None and table.move == 0:
        observer(table, None)
    decisions = 0
    while not table.is_over:
        if decisions >= max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
        if not table.pending:
            raise RuntimeError("the game is not over but no seat is pending")
        transition = table.forced_step()
        if transition is None:
            asked = [s for s in table.pending if players[s] is not None]
            if not asked:
                return decisions
            player = players[asked[0]]
            assert player is not None
            transition = table.submit(asked[0], player.act(table.view(asked[0])))
        decisions += 1
        if observer is not None:
            observer(table, transition)
    return decisions
