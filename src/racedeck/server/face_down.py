"""Face-down commitments at a live table: what each accepted action publishes and opens.

The service keeps one :class:`~racedeck.core.commitments.Ledger` per game in play (none for a
table stored before fair deals). :func:`publish` feeds it an accepted action; the
:class:`Published` it returns adds to each socket's ``update`` frame the new commitment
(``commitment``; with its salt only on the acting seat's frame) and the commitments opened
now (``opened``, with their salts). It never causes a frame of its own: a commitment is made
only for a step the game announces to everyone (:func:`~racedeck.core.commitments.is_committed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from racedeck.core.commitments import ActionCommitment, Ledger
from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import GameRecord

__all__ = ["Published", "ledger_for", "publish"]


@dataclass(frozen=True, slots=True)
class Published:
    """What one accepted action publishes: a new commitment and the commitments opened."""

    new: ActionCommitment | None
    opened: tuple[ActionCommitment, ...]

    def frame_part(self, seat: int | None) -> JSONObject:
        """The keys ``seat``'s update frame gets (``None``: a spectator's): the acting seat
        alone sees its salt before the reveal."""
        out: JSONObject = {}
        if self.new is not None:
            new = self.new
            out["commitment"] = new.to_json() if seat == new.seat else new.public_json()
        if self.opened:
            out["opened"] = [e.to_json() for e in self.opened]
        return out


def ledger_for(game: Any, server_seed: str, record: GameRecord | None = None) -> Ledger | None:
    """The ledger of a game dealt from ``server_seed`` (``None`` without one: no fair deal),
    caught up with ``record``'s actions when a stored game is restored."""
    if not server_seed:
        return None
    if record is not None:
        return Ledger.of_record(record, server_seed)
    return Ledger(game, server_seed)


def publish(
    ledger: Ledger | None,
    before: Any,
    seat: int,
    action: JSONObject,
    move: int,
    after: Any,
    events: Sequence[Event],
    concealed: bool | None = None,
) -> Published | None:
    """Note the action ``seat`` took at ``move`` (``concealed``: whether the game conceals it,
    when known); ``None`` when it publishes nothing."""
    if ledger is None:
        return None
    new, opened = ledger.note(before, seat, action, move, after, events, concealed)
    if new is None and not opened:
        return None
    return Published(new, opened)
