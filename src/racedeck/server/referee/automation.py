"""What a table does by itself: forced moves, concealed windows, bots, clocks and takeovers.

Part of :class:`~racedeck.server.referee.Referee`; only the process that automates a table runs
it (:class:`~racedeck.server.referee.messages.Automate`). A window (SB-9) is opened wherever its
answers may come in, since a seat answers on whichever process holds its socket.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, cast

from racedeck.server.live import views_json
from racedeck.server.referee.messages import AskBot, SaveClock, SetTimer
from racedeck.server.referee.window import UNTIMED_WINDOW, Window

if TYPE_CHECKING:
    from racedeck.server.referee.referee import Referee

__all__ = ["Automation", "bot_seed"]


def bot_seed(seed: int, game_no: int, seat: int, move: int) -> int:
    """The seed of a bot's decision: fixed by the game's seed and where it decides."""
    digest = hashlib.sha256(f"{seed}:{game_no}:{seat}:{move}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Automation:
    """Forced moves, windows, bots and clocks (mixed into the referee)."""

    def _window(self, now: float) -> Window:
        """The ballot box of the concealed decision open now, opened at ``now`` if new."""
        ref = cast("Referee", self)
        table = ref.table
        assert table is not None
        window = ref.window
        if window is not None and window.move == table.move:
            return window
        state = table.state
        asked = ref.hidden_asked()
        minimum = ref.game.window_minimum(state) if ref.has_people else 0.0
        per_move = ref.clock.options.move
        window = Window(
            move=table.move,
            opened=now,
            minimum=minimum,
            length=UNTIMED_WINDOW if per_move is None else per_move,
            asked=asked,
        )
        for seat in asked:
            forced = ref.game.forced_action(state, seat)
            if forced is not None:
                window.seal(seat, forced.to_json())
        ref.window = window
        return window

    def _close(self, window: Window, now: float) -> None:
        """SB-9: every answer is in and the minimum passed (or the window's clock ran out):
        the sealed answers go into the game in seat order, and everyone sees the close."""
        ref = cast("Referee", self)
        table = ref.table
        assert table is not None
        ref._carry[1].update({conn: cid for conn, cid in window.acks})
        for seat, obj in window.in_order():
            if seat in window.timed_out:
                ref.clock.notes.append({"move": table.move, "seat": seat, "kind": "window"})
            before = table.state
            transition = table.submit_json(seat, obj)
            ref._stepped(seat, before, transition.events, now, {})

    def _settle(self, now: float) -> None:
        """Take forced moves, close a window that may close, then ask the bots on turn.

        Only the process that automates the table does; a window opens everywhere (its answers
        are taken wherever the seats' sockets are)."""
        ref = cast("Referee", self)
        table = ref.table
        if table is None or table.is_over or not ref.automates:
            return
        while not table.is_over:
            if ref.hidden_asked():
                window = ref._window(now)
                if not window.complete and now >= window.deadline:
                    for seat in window.asked:
                        if seat not in window.sealed:
                            action = ref.game.timeout_action(table.state, seat)
                            if action is not None:
                                window.seal(seat, action.to_json())
                                window.timed_out.append(seat)
                if window.ready(now):
                    ref._close(window, now)
                    continue
                break
            before = table.state
            transition = table.forced_step()
            if transition is None:
                break
            ref._stepped(table.last_action.seat, before, transition.events, now, {})
        ref._ask_bots()

    def _ask_bots(self) -> None:
        ref = cast("Referee", self)
        table = ref.table
        assert table is not None
        if table.is_over:
            return
        seats = [s for s in table.pending if ref.window is None or s not in ref.window.sealed]
        asked: dict[int, str] = {}
        for seat in seats:
            bot = ref.bot_of(seat)
            if bot is None:
                continue
            if any(
                s == seat and g == ref.game_no and table.fresh(seat, m)
                for s, g, m, _ in ref.asks.values()
            ):
                continue  # its answer to an earlier move still holds (WF-4)
            asked[seat] = bot
        if not asked:
            return
        # Bots asked at once (a simultaneous commit, WF-4) see one state: its public part is
        # made once for all of them.
        views = views_json(table, asked, ref.names)
        for seat, bot in asked.items():
            ref._next_ask += 1
            ref.asks[ref._next_ask] = (seat, ref.game_no, table.move, bot)
            ref._out.append(
                AskBot(
                    ask=ref._next_ask,
                    seat=seat,
                    bot=bot,
                    view=views[seat],
                    seed=bot_seed(ref.seed, ref.game_no, seat, table.move),
                )
            )

    def _timer_fired(self, now: float) -> None:
        ref = cast("Referee", self)
        table = ref.table
        if table is None or table.is_over or not ref.automates:
            return
        taken = False
        for seat in sorted(ref.running()):
            timeout, away = ref.clock.timeout_at(seat), ref.clock.away_at(seat)
            if timeout is not None and timeout <= now:
                ref.clock.take_over(seat, "timeout", table.move, now)
            elif away is not None and away <= now:
                ref.clock.take_over(seat, "away", table.move, now)
            else:
                continue
            taken = True
        if taken:
            ref._commit(SaveClock(ref.game_no, ref.clock_store()))
            ref._send_table(now)
        ref._settle(now)

    def _give_back(self, seat: int, now: float, announce: bool = True) -> None:
        """The person of ``seat`` is back: no bot plays it from now on, and its move (if it is
        asked) starts afresh with what is left of its bank."""
        ref = cast("Referee", self)
        table = ref.table
        if table is None or table.is_over:
            return
        if not ref.clock.give_back(seat, table.move):
            return
        for ask, (s, _g, _m, _b) in list(ref.asks.items()):
            if s == seat:
                del ref.asks[ask]  # the stand-in's answer, if it comes, is not taken
        ref.clock.sync(ref.running(), now)
        ref._commit(SaveClock(ref.game_no, ref.clock_store()))
        if announce:
            ref._send_table(now)  # else the welcome that follows says it

    def _arm(self) -> None:
        """Set the table's one timer for the next thing its clocks or window must do."""
        ref = cast("Referee", self)
        due: list[float] = []
        table = ref.table
        if ref.automates and table is not None and not table.is_over:
            for seat in ref.running():
                for t in (ref.clock.timeout_at(seat), ref.clock.away_at(seat)):
                    if t is not None:
                        due.append(t)
            if ref.window is not None and ref.hidden_asked():
                due.append(ref.window.due())
        at = min(due) if due else None
        if at != ref._timer:
            ref._timer = at
            ref._out.append(SetTimer(at))
