"""One referee per table: everything a table decides, pure and deterministic.

``Referee.handle(command, now) -> list[Effect]`` is the whole interface (in the shape of
boardgame.io's master): a seat's message, a bot's answer, the table's timer, a socket opened or
closed, another process's moves — each with the time it happens — go in; rows to commit, frames
for sockets, the next timer and bots to ask come out. The referee does no I/O and reads no
clock, so a simulation drives it on simulated time and every run repeats from its seed.

What it decides:

- *who may act and the stale rule*: :meth:`racedeck.core.table.Table.fresh`, the one rule
  of every face;
- *forced moves*: taken for the seat (:meth:`~racedeck.core.game.Game.forced_action`);
- *concealed simultaneous decisions* (the Setback BLOCK window, SB-9): answers are sealed and
  go into the game together when the window closes (:mod:`racedeck.server.referee.window`);
- *clocks, takeover and return* (:mod:`racedeck.server.referee.clock`);
- *face-down commitments and fair deals* (:mod:`racedeck.core.commitments`,
  :mod:`racedeck.core.fairness`), and *play again* with the committed next seed.

Several processes may serve a table from one PostgreSQL database; only the one that
*automates* it (:class:`~racedeck.server.referee.messages.Automate`) takes forced moves, asks
bots, closes windows and keeps the timer. The others take their people's moves and learn the
rest from the store (:class:`~racedeck.server.referee.messages.CatchUp`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racedeck.core.errors import AuthError, InvalidMessage, NotYourTurn, RacedeckError, StaleMove
from racedeck.core.events import RECORD, Event
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.table import Table
from racedeck.server.face_down import Published, publish
from racedeck.server.referee.automation import Automation
from racedeck.server.referee.clock import TableClock
from racedeck.server.referee.frames import table_info, update_frames
from racedeck.server.referee.lifecycle import Lifecycle
from racedeck.server.referee.messages import (
    Act,
    Append,
    Automate,
    Back,
    BotAnswer,
    CatchUp,
    Command,
    Commit,
    Connect,
    Disconnect,
    Effect,
    Everyone,
    Join,
    PlayAgain,
    Presence,
    Reload,
    SaveClock,
    Send,
    TimerFired,
    ToSeat,
)
from racedeck.server.referee.sockets import Sockets
from racedeck.server.referee.window import Window
from racedeck.server.rooms import ServiceError
from racedeck.store.tables import SeatRow

__all__ = ["Referee"]


class Referee(Lifecycle, Automation, Sockets):
    """The referee of one table (see the module docstring). Seats, connections, the game in
    play, its clock and its open window live here and nowhere else."""

    def __init__(
        self,
        *,
        table_id: str,
        game: Game[Any, Any, Any],
        config: JSONObject,
        seats: list[SeatRow],
        status: str,
        game_no: int,
        seed: int,
        server_seed: str,
        client_seeds: list[str],
        next_server_seed: str,
        clock: TableClock,
        entropy: Callable[[], str],
        public_url: str = "",
        origin: JSONObject | None = None,
        created: float = 0.0,
    ) -> None:
        self.id = table_id
        self.game = game
        self.config = config
        self.seats = seats
        self.status = status
        self.game_no = game_no
        self.seed = seed
        self.server_seed = server_seed
        self.client_seeds = client_seeds
        self.next_server_seed = next_server_seed
        self.clock = clock
        self.entropy = entropy
        """Where new server seeds come from (secrets in the service, a seeded RNG in tests)."""
        self.public_url = public_url
        self.origin = origin
        self.created = created
        self.table: Table | None = None
        self.ledger: Any = None
        self.window: Window | None = None
        self.conns: dict[int, int | None] = {}
        """Every socket here and its seat (``None``: a spectator)."""
        self.elsewhere: frozenset[int] = frozenset()
        self.automates = False
        self.asks: dict[int, tuple[int, int, int, str]] = {}
        """Bot questions in flight: ask number → (seat, game number, move number, bot)."""
        self._next_ask = 0
        self._out: list[Effect] = []
        self._timer: float | None = None
        self._carry: tuple[list[Event], dict[int, str]] = ([], {})

    # -- what anyone may read -----------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """The seats' display names (a bot's name says which bot)."""
        out = []
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                out.append(s.name or f"{s.bot} bot")
            else:
                out.append(s.name or f"Player {i + 1}")
        return out

    @property
    def has_people(self) -> bool:
        """True when a person holds a seat (someone who could read a window's timing)."""
        return any(s.kind != "bot" for s in self.seats)

    def connected_seats(self) -> set[int]:
        """Seats with a socket here or on another process."""
        return {s for s in self.conns.values() if s is not None} | set(self.elsewhere)

    def audiences(self) -> list[int | None]:
        """The seats (``None``: spectators) with a socket here, in order."""
        present = set(self.conns.values())
        return [a for a in (None, *range(len(self.seats))) if a in present]

    def bot_of(self, seat: int) -> str | None:
        """The bot that plays ``seat`` now: a bot seat's own, the takeover bot for a person a
        bot took over, else ``None``."""
        row = self.seats[seat]
        if row.kind == "bot":
            return row.bot
        return self.clock.options.bot if self.clock.seats[seat].bot else None

    def hidden_asked(self) -> tuple[int, ...]:
        """Seats asked in a concealed decision: pending, but not known to be (SB-9)."""
        table = self.table
        if table is None or table.is_over:
            return ()
        public = set(self.game.public_acting(table.state))
        return tuple(s for s in table.pending if s not in public)

    def running(self) -> set[int]:
        """The seats whose clocks run: asked in public, played by their person."""
        table = self.table
        if table is None or table.is_over:
            return set()
        public = set(self.game.public_acting(table.state))
        return {
            s
            for s in table.pending
            if s in public and self.seats[s].kind != "bot" and not self.clock.seats[s].bot
        }

    def clock_json(self, now: float) -> JSONObject:
        """The clock as every socket gets it (with the open window's time left)."""
        window = self.window
        left = None
        if window is not None and self.has_people:
            left = window.deadline - now
        return self.clock.json(now, left)

    def clock_store(self) -> JSONObject:
        """The clock as stored, with the open window's sealed answers."""
        out = self.clock.to_store()
        if self.window is not None:
            out["window"] = self.window.to_store()
        return out

    # -- the one entry point --------------------------------------------------------------------

    def handle(self, command: Command, now: float) -> list[Effect]:
        """Take ``command`` at time ``now``; return the effects to carry out, in order.

        Refusals of a socket's message become ``error`` frames to that socket; refusals of the
        other commands (:class:`Join`, :class:`PlayAgain`) are raised, with nothing changed.
        """
        self._out = []
        if self.table is not None and not self.table.is_over:
            # A seat asked in public runs from the first moment the referee sees it asked (a
            # table restored or dealt elsewhere); a running move keeps its start.
            started = self.clock.sync(self.running(), now)
        else:
            started = False
        if isinstance(command, Act):
            self._act(command, now)
        elif isinstance(command, BotAnswer):
            self._bot_answer(command, now)
        elif isinstance(command, TimerFired):
            self._timer_fired(now)
        elif isinstance(command, Connect):
            self._connect(command, now)
        elif isinstance(command, Disconnect):
            self._disconnect(command, now)
        elif isinstance(command, Back):
            self._back(command, now)
        elif isinstance(command, Presence):
            self.elsewhere = command.elsewhere
            self._mark_away(now)
        elif isinstance(command, Automate):
            self.automates = command.on
            self._settle(now)
        elif isinstance(command, Join):
            self._join(command, now)
        elif isinstance(command, PlayAgain):
            self._play_again(command, now)
        elif isinstance(command, CatchUp):
            self._catch_up(command, now)
        elif isinstance(command, Reload):
            self._reload(command.stored, now)
        if started and self.automates and not any(isinstance(e, Commit) for e in self._out):
            self._commit(SaveClock(self.game_no, self.clock_store()))  # its start is kept
        self._arm()
        out, self._out = self._out, []
        return out

    # -- actions ----------------------------------------------------------------------------------

    def _act(self, cmd: Act, now: float) -> None:
        seat = self.conns.get(cmd.conn)
        try:
            if cmd.conn not in self.conns or seat is None:
                raise AuthError("spectators cannot act; join a seat to play")
            if self.table is None:
                raise ServiceError("table/not-started", "the game starts when every seat is taken")
            # Acting is coming back: the person plays this seat again from this move on.
            self._give_back(seat, now)
            self._take(seat, cmd.move, cmd.action, (cmd.conn, cmd.id), now)
        except RacedeckError as exc:
            self._error(cmd.conn, exc, cmd.id)

    def _bot_answer(self, cmd: BotAnswer, now: float) -> None:
        asked = self.asks.pop(cmd.ask, None)
        if asked is None or self.table is None:
            return  # a question of a game or a takeover that is over
        seat, game_no, move, bot = asked
        if game_no != self.game_no or self.bot_of(seat) != bot:
            return  # the person is back: the stand-in bot plays nothing more
        try:
            self._take(seat, move, cmd.action, None, now)
        except RacedeckError:
            # Only a stale answer can happen here (the game moved on): ask again.
            self._settle(now)

    def _take(
        self,
        seat: int,
        move: object,
        action: object,
        ack: tuple[int, str | None] | None,
        now: float,
    ) -> None:
        """A seat's action: sealed in a concealed decision, else stepped, committed and sent."""
        table = self.table
        assert table is not None
        if seat in self.hidden_asked():
            self._seal(seat, move, action, ack, now)
            return
        before = table.state
        transition = table.submit_json(seat, action, move)  # type: ignore[arg-type]
        acks = {ack[0]: ack[1]} if ack is not None and ack[1] is not None else {}
        self._stepped(seat, before, transition.events, now, acks)
        self._settle(now)

    def _seal(
        self, seat: int, move: object, obj: object, ack: tuple[int, str | None] | None, now: float
    ) -> None:
        """SB-9: check an answer to the open window now and keep it until the close."""
        table = self.table
        assert table is not None
        if type(move) is not int:
            raise InvalidMessage(f"a move number must be an integer, got {move!r}")
        if move != table.move:
            raise StaleMove(move, table.move)
        window = self._window(now)
        if seat in window.answered:
            raise NotYourTurn(
                "your answer to this window is in; everyone sees the answers when it closes",
                seat=seat,
            )
        action = table.parse_json(obj)
        if action not in self.game.legal_actions(table.state, seat):
            raise self.game.illegal(table.state, seat, action)
        # A seat whose answer is forced was answered for when the window opened; its
        # person's own answer (the same one) is taken all the same.
        window.seal(seat, action.to_json())
        window.answered.add(seat)
        if ack is not None and ack[1] is not None:
            window.acks.append((ack[0], ack[1]))
        self._commit(SaveClock(self.game_no, self.clock_store()))
        self._settle(now)

    def _stepped(
        self,
        seat: int,
        before: Any,
        events: tuple[Event, ...],
        now: float,
        acks: dict[int, str],
        *,
        local: bool = True,
    ) -> None:
        """The table accepted an action (``local``: here; else another process stored it):
        bring the clock and the window along, commit, and send it — unless it is a sealed
        answer that leaves its window open, which nobody may see (SB-9)."""
        table = self.table
        assert table is not None
        self.status = "over" if table.is_over else "playing"
        if local and table.is_over and self.server_seed:
            # Stored with the last move: every process publishes the same next commitment.
            self.next_server_seed = self.entropy()
        self.clock.sync(self.running(), now, acted=seat)
        hidden = self.hidden_asked()
        inside = (
            self.window is not None
            and self.window.move == table.move - 1
            and bool(hidden)
            and set(hidden) < set(self.window.asked)
            and not any(e.audience != RECORD for e in events)
        )
        if inside:
            assert self.window is not None
            self.window.move = table.move  # the same window, one answer further in
        elif hidden:
            self.window = None
            self._window(now)
        else:
            self.window = None
        # The ledger first (memory only; nothing is sent before the commit): a game's end
        # reads its commitments from it rather than replaying the record.
        published = publish(
            self.ledger,
            before,
            seat,
            table.last_action.action,
            table.move - 1,
            table.state,
            events,
            table.steps[-1].concealed,
        )
        if local:
            self._commit(
                Append(
                    game_no=self.game_no,
                    idx=table.move - 1,
                    seat=seat,
                    action=table.last_action.action,
                    status=self.status,
                    finished=self.finished() if table.is_over else None,
                    next_server_seed=self.next_server_seed if table.is_over else "",
                    clock=self.clock_store(),
                )
            )
        carried, carried_acks = self._carry
        carried.extend(events)
        carried_acks.update(acks)
        if inside:
            return
        self._carry = ([], {})
        self._send_update(carried, carried_acks, now, [published] if published else [])
        if table.is_over:
            self._send_table(now)

    def _send_update(
        self,
        events: list[Event],
        acks: dict[int, str],
        now: float,
        published: list[Published],
    ) -> None:
        for seat, frame in update_frames(self, events, now, published).items():
            mine = {c: i for c, i in acks.items() if self.conns.get(c, -1) == seat}
            self._send(ToSeat(seat), frame, mine)

    # -- effects --------------------------------------------------------------------------------

    def _commit(self, write: Any) -> None:
        self._out.append(Commit(write))

    def _send(self, to: Any, frame: JSONObject, acks: dict[int, str] | None = None) -> None:
        self._out.append(Send(to, frame, dict(acks or {})))

    def _send_table(self, now: float, skip: int | None = None) -> None:
        self._send(Everyone(skip), {"type": "table", "table": self.info(now)})

    def info(self, now: float, seat: int | None = None, commitments: bool = True) -> JSONObject:
        """Public facts about the table (see :func:`racedeck.server.referee.frames.table_info`;
        ``seat``: the welcome of that seat, with the salts of its own face-down commitments;
        ``commitments=False``: without the face-down commitments, as the lobby lists it)."""
        return table_info(self, now, seat, commitments)
