"""A position of a game for a picture: a game, its options, a seed and the moves played from
the deal, and what it claims to show (:mod:`racedeck.server.rules_pictures` draws them; each
game's ``web`` face lists its own in ``PICTURES``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.events import Event
from racedeck.core.table import Table

__all__ = ["Check", "Position", "events_of"]


Check = Callable[[Table, Sequence[Event]], bool]
"""Whether a position shows what it claims: the table after the last action, and that last
action's events."""


@dataclass(frozen=True, slots=True)
class Position:
    """One picture's position: ``game`` with ``config`` dealt from ``seed``, then ``moves``
    played in order, each ``"<seat>:<action text>"`` (``"2:FOE-1 P1"``). ``claim`` says in
    words what the picture shows and ``holds`` checks it."""

    game: str
    seed: int
    moves: tuple[str, ...]
    claim: str
    holds: Check
    config: Mapping[str, Any] = field(default_factory=dict)


def events_of(events: Sequence[Event], kind: str) -> list[Mapping[str, Any]]:
    """The data of the events of ``kind`` among ``events``."""
    return [e.data for e in events if e.kind == kind]
