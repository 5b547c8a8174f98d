"""A table's life around its games: restored from the store, seats taken, a game dealt, played
again, brought up to what another process stored. Part of :class:`~racedeck.server.referee.Referee`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from racedeck.core import jsontext
from racedeck.core.commitments import commitments_of
from racedeck.core.errors import AuthError, InvalidRecord
from racedeck.core.fairness import fair_meta, game_seed, result_of
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import get_spec
from racedeck.core.table import Table
from racedeck.server.face_down import ledger_for
from racedeck.server.live import view_json
from racedeck.server.referee.clock import TableClock
from racedeck.server.referee.messages import CatchUp, Join, NewGame, PlayAgain, SaveClock, TakeSeat
from racedeck.server.referee.window import Window
from racedeck.server.rooms import ServiceError
from racedeck.store.tables import FinishedGame, SeatRow, StoredTable

if TYPE_CHECKING:
    from racedeck.server.referee.referee import Referee

__all__ = ["Lifecycle", "restore"]


@lru_cache(maxsize=64)
def _game(game_id: str, config_text: str) -> Game[Any, Any, Any]:
    """The game of a stored table's configuration, made once per process: a game holds no
    state of its own (its tables do), and restarting a process restores every table, each
    asking for the same few configurations."""
    spec = get_spec(game_id)
    return spec.factory(spec.make_config(**jsontext.loads(config_text)))


def restore(
    stored: StoredTable,
    *,
    entropy: Callable[[], str],
    public_url: str = "",
    origin: JSONObject | None = None,
    created: float = 0.0,
) -> Referee:
    """The referee of a stored table, its game replayed to where it was: every accepted move,
    the clock with its running moves, the sealed answers of an open window. Raises
    :class:`~racedeck.core.errors.InvalidRecord` (or a ``KeyError``/``InvalidConfig``) when
    the stored table cannot be played on."""
    from racedeck.server.referee.referee import Referee

    game = _game(stored.game, jsontext.dumps(stored.config))
    ref = Referee(
        table_id=stored.id,
        game=game,
        config=stored.config,
        seats=list(stored.seats),
        status=stored.status,
        game_no=stored.game_no,
        seed=stored.seed,
        server_seed=stored.server_seed,
        client_seeds=list(stored.client_seeds) or [""] * len(stored.seats),
        next_server_seed=stored.next_server_seed,
        clock=TableClock.from_store(stored.clock, len(stored.seats)),
        entropy=entropy,
        public_url=public_url,
        origin=origin,
        created=created,
    )
    ref.load_game(stored)
    return ref


class Lifecycle:
    """Seats, deals and catching up (mixed into the referee)."""

    def _self(self) -> Referee:
        return cast("Referee", self)

    def load_game(self, stored: StoredTable) -> None:
        """Replay the stored game (none while the table is open) and restore its window."""
        ref = self._self()
        if stored.status == "open":
            ref.table = None
            return
        table = Table(ref.game, stored.seed, ref.meta())
        for i, (seat, action) in enumerate(stored.actions):
            try:
                table.submit_json(seat, action)
            except ValueError as exc:  # every refusal of a move is a ValueError
                raise InvalidRecord(f"stored action {i} does not replay: {exc}") from exc
        ref.table = table
        ref.ledger = ledger_for(ref.game, ref.server_seed, table.record)
        if table.is_over and ref.server_seed and not ref.next_server_seed:
            ref.next_server_seed = ref.entropy()
        window = (stored.clock or {}).get("window")
        ref.window = None
        if isinstance(window, dict) and int(window.get("move", -1)) == table.move:
            ref.window = Window.from_store(window)

    def meta(self) -> JSONObject:
        """The record's ``meta`` for the current game."""
        ref = self._self()
        return {"table": ref.id, "game_no": ref.game_no, "names": ref.names}

    def finished(self) -> FinishedGame:
        """The row that marks the current game finished (its public outcome, with names)."""
        ref = self._self()
        table = ref.table
        assert table is not None
        header = view_json(table, None, ref.names)["header"]
        fair = None
        if ref.server_seed:
            result = result_of(table.record, table.state)
            # Every commitment of the game is in the ledger, the last action's included.
            opened = (
                [e.to_json() for e in ref.ledger.entries]
                if ref.ledger is not None
                else commitments_of(table.record, ref.server_seed)
            )
            fair = fair_meta(ref.server_seed, ref.client_seeds, result, opened)
        return FinishedGame(
            game_no=ref.game_no, seed=ref.seed, outcome=header["outcome"], fair=fair
        )

    # -- seats -----------------------------------------------------------------------------------

    def free_seat(self, wanted: int | None) -> int:
        """The seat a person asking for ``wanted`` (``None``: any) gets; raises
        :class:`ServiceError` (``table/full``, ``seat/invalid``, ``seat/taken``)."""
        ref = self._self()
        free = [i for i, s in enumerate(ref.seats) if s.kind == "human" and s.token_hash is None]
        if wanted is None:
            if not free:
                raise ServiceError("table/full", "every seat at this table is taken", 409)
            return free[0]
        if not 0 <= wanted < len(ref.seats):
            raise ServiceError(
                "seat/invalid", f"there is no seat {wanted} (0..{len(ref.seats) - 1})", 400
            )
        if wanted not in free:
            raise ServiceError("seat/taken", f"seat {wanted} is taken", 409)
        return wanted

    def _join(self, cmd: Join, now: float) -> None:
        ref = self._self()
        seat = self.free_seat(cmd.seat)
        free = [i for i, s in enumerate(ref.seats) if s.kind == "human" and s.token_hash is None]
        row = SeatRow(
            kind="human",
            name=cmd.name.strip() if cmd.name else None,
            token_hash=cmd.token_hash,
        )
        status = "playing" if len(free) == 1 else "open"
        # The deal is derived from the committed server seed and every seat's client seed.
        client_seeds = list(ref.client_seeds)
        client_seeds[seat] = cmd.client_seed or ""
        seed = game_seed(ref.server_seed, client_seeds) if ref.server_seed else ref.seed
        ref._commit(TakeSeat(seat, row, status, tuple(client_seeds), seed))
        ref.seats[seat] = row
        ref.client_seeds = client_seeds
        ref.seed = seed
        if status == "playing":
            self.start(now)
        else:
            ref._send_table(now)

    def start(self, now: float, *, store_clock: bool = True) -> None:
        """Deal the current game, tell everyone, and let bots and forced moves play."""
        ref = self._self()
        if ref.table is not None:
            ref.clock.new_game()  # play again: full banks, nobody taken over
        ref.status = "playing"
        ref.table = Table(ref.game, ref.seed, self.meta())
        ref.ledger = ledger_for(ref.game, ref.server_seed)
        ref.window = None
        ref.asks.clear()
        ref.clock.sync(ref.running(), now)
        if ref.hidden_asked():
            ref._window(now)
        if store_clock:
            ref._commit(SaveClock(ref.game_no, ref.clock_store()))
        ref._send_table(now)
        ref._send_update(list(ref.table.history[0][1]), {}, now, [])
        ref._settle(now)

    def _play_again(self, cmd: PlayAgain, now: float) -> None:
        ref = self._self()
        if not 0 <= cmd.seat < len(ref.seats) or ref.seats[cmd.seat].kind == "bot":
            raise AuthError("this token holds no seat at this table")
        if ref.table is None or not ref.table.is_over:
            raise ServiceError("game/not-over", "the game at this table is not over", 409)
        if ref.origin is not None:
            # Its next deal's seed could not be committed before the seats' seeds.
            raise ServiceError(
                "fork/again",
                "a what-if game is played once: fork it again from its replay",
                409,
            )
        server_seed = ref.next_server_seed or ref.entropy()
        client_seeds = list(ref.client_seeds)
        if cmd.client_seed is not None:
            client_seeds[cmd.seat] = cmd.client_seed
        seed = game_seed(server_seed, client_seeds)
        ref.game_no += 1
        ref.seed = seed
        ref.server_seed = server_seed
        ref.client_seeds = client_seeds
        ref.next_server_seed = ""
        clock = ref.clock
        clock.new_game()
        ref._commit(NewGame(ref.game_no, seed, server_seed, tuple(client_seeds), clock.to_store()))
        ref.table = None  # the banks are fresh already
        self.start(now)  # stores the clock as the deal starts it

    # -- another process wrote ------------------------------------------------------------------

    def _reload(self, stored: StoredTable, now: float) -> None:
        """Take the stored seats, and the stored game when it is another one than ours."""
        ref = self._self()
        changed = ref.seats != stored.seats
        ref.seats = list(stored.seats)
        ref.client_seeds = list(stored.client_seeds) or [""] * len(stored.seats)
        ref.seed = stored.seed
        if stored.game_no != ref.game_no or (ref.table is None and stored.status != "open"):
            ref.game_no = stored.game_no
            ref.server_seed = stored.server_seed
            ref.next_server_seed = ""
            if stored.status == "open":
                ref.status, ref.table = "open", None
                ref._send_table(now)
                return
            if stored.clock is not None:
                ref.clock.adopt(stored.clock)
            ref.table = None
            self.start(now, store_clock=False)
        elif changed:
            ref._send_table(now)
        table = ref.table
        if table is not None:
            self._catch_up(
                CatchUp(table.move, tuple(stored.actions[table.move :]), stored.clock), now
            )

    def _catch_up(self, cmd: CatchUp, now: float) -> None:
        """Take the moves and the clock another process stored, sending each move out as a
        local one is sent."""
        ref = self._self()
        table = ref.table
        if table is None:
            return
        window = ref.window
        if window is not None and cmd.start + len(cmd.actions) > window.move:
            # Answers sealed here that another process's close takes in: acknowledged with it.
            ref._carry[1].update({conn: cid for conn, cid in window.acks})
        for seat, obj in cmd.actions[table.move - cmd.start :] if cmd.start <= table.move else ():
            before = table.state
            transition = table.submit_json(seat, obj)
            ref._stepped(seat, before, transition.events, now, {}, local=False)
        if cmd.clock is not None:
            changed = ref.clock.adopt(cmd.clock)
            stored_window = cmd.clock.get("window")
            if isinstance(stored_window, dict) and table.move == int(stored_window["move"]):
                window = Window.from_store(stored_window)
                if ref.window is not None and ref.window.move == window.move:
                    window.acks = ref.window.acks
                ref.window = window
            if changed:
                ref._send_table(now)
        ref._settle(now)
