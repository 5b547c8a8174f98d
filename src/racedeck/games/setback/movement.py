"""Moving tokens: destinations, jumps, START and FINISH, and chains of bumps (SB-4, SB-7).

Functions here change a :class:`SetbackState` in place and append events when given a list.
The first token to reach FINISH wins: ``state.winner`` is set and the game ends once the
current effect has finished (an ALL still moves its remaining tokens, SB-5).
"""

from __future__ import annotations

from collections.abc import Collection

from racedeck.core.events import Event
from racedeck.games.setback.state import START, SetbackState

__all__ = ["BACKWARD", "FORWARD", "LEFT", "RIGHT", "move_by", "occupant", "place", "to_start"]

FORWARD = "forward"
BACKWARD = "backward"
LEFT = "left"
RIGHT = "right"

_Events = list[Event] | None


def occupant(s: SetbackState, row: int, lane: int, mover: int, transit: Collection[int]) -> int:
    """The token on card ``(row, lane)`` other than ``mover``, or -1.

    Tokens in ``transit`` (an ALL card has yet to move them) do not count: a token must be
    moved before it can receive a bump (SB-5).
    """
    for q in range(s.players):
        if q != mover and s.row[q] == row and s.lane[q] == lane and q not in transit:
            return q
    return -1


def _where(s: SetbackState, q: int) -> list[int]:
    return [s.row[q], s.lane[q]]


def to_start(s: SetbackState, q: int, ev: _Events, why: str) -> None:
    """Send ``q`` back to START (SB-4: below row 1)."""
    before = _where(s, q)
    s.row[q] = START
    s.lane[q] = START
    if ev is not None:
        ev.append(
            Event.fresh("token_moved", {"player": q, "from": before, "to": "START", "why": why})
        )


def finish(s: SetbackState, q: int, ev: _Events, why: str) -> None:
    """``q`` reached FINISH (SB-4, SB-7); the first to get there is the winner."""
    before = _where(s, q)
    s.row[q] = s.rows
    s.lane[q] = START
    first = s.winner < 0
    if first:
        s.winner = q  # SB-5: when several reach FINISH, the first wins
    if ev is not None:
        ev.append(
            Event.fresh("token_moved", {"player": q, "from": before, "to": "FINISH", "why": why})
        )
        ev.append(Event.fresh("finished", {"player": q, "wins": first}))


def place(
    s: SetbackState,
    q: int,
    row: int,
    lane: int,
    direction: str,
    ev: _Events,
    why: str,
    transit: Collection[int] = (),
    edge_bump: str = BACKWARD,
) -> None:
    """Put ``q`` on card ``(row, lane)``; an earlier occupant is bumped one card in
    ``direction`` (SB-7), which may chain, reach FINISH (a win) or fall back to START."""
    other = occupant(s, row, lane, q, transit)
    before = _where(s, q)
    s.row[q] = row
    s.lane[q] = lane
    s.skip_spent[q] = False  # SB-10: a new arrival arms a board SKIP again
    if ev is not None:
        ev.append(
            Event.fresh("token_moved", {"player": q, "from": before, "to": [row, lane], "why": why})
        )
    if other >= 0:
        bump(s, other, direction, ev, transit, edge_bump)


def bump(
    s: SetbackState,
    q: int,
    direction: str,
    ev: _Events,
    transit: Collection[int] = (),
    edge_bump: str = BACKWARD,
) -> None:
    """Bump ``q`` one card in ``direction`` (SB-7)."""
    row, lane = s.row[q], s.lane[q]
    if direction in (LEFT, RIGHT):
        lane += -1 if direction == LEFT else 1
        if not 0 <= lane < s.lanes:
            # Off the side of the board: the rulebook is silent; configurable (edge_bump),
            # backward or forward one row in the same lane.
            lane = s.lane[q]
            direction = edge_bump
    if direction == FORWARD:
        row += 1
    elif direction == BACKWARD:
        row -= 1
    if row >= s.rows:
        finish(s, q, ev, "bumped")
    elif row < 0:
        to_start(s, q, ev, "bumped")
    else:
        place(s, q, row, lane, direction, ev, "bumped", transit, edge_bump)


def move_by(
    s: SetbackState,
    q: int,
    amount: int,
    entry_lane: int,
    ev: _Events,
    why: str,
    transit: Collection[int] = (),
) -> None:
    """Move ``q`` by ``amount`` rows (SB-4): only the destination matters (±2 jumps); past the
    last row is FINISH, below row 1 is START; a plus move from START enters ``entry_lane``; a
    minus move on START does nothing."""
    if s.row[q] == START:
        if amount <= 0:
            if ev is not None:
                ev.append(Event.fresh("no_effect", {"player": q, "why": "on START"}))
            return
        row, lane = amount - 1, entry_lane
    else:
        row, lane = s.row[q] + amount, s.lane[q]
    if row >= s.rows:
        finish(s, q, ev, why)
    elif row < 0:
        to_start(s, q, ev, why)
    else:
        place(s, q, row, lane, FORWARD if amount > 0 else BACKWARD, ev, why, transit)
