"""The header common to every game's view: enough for any client to frame the table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from racedeck.core.frozen import thaw
from racedeck.core.jsontypes import JSONObject

__all__ = ["ViewHeader", "header_memo", "shared_headers"]

Memo = dict[int, tuple[Any, "ViewHeader"]]
"""Headers built in a :func:`shared_headers` block, by the ``id`` of their state (kept)."""
_memo: ContextVar[Memo | None] = ContextVar("header_memo", default=None)


@contextmanager
def shared_headers() -> Iterator[None]:
    """Within the block (in this context), the views of one state share one public header.

    A server sends every seat a view of the same state at once, and the header is a third of
    a view's cost. The states seen are held only for the block: a game object keeps nothing
    (it is shared by bots, and a state holds every secret).
    """
    token = _memo.set(_memo.get() or {})
    try:
        yield
    finally:
        _memo.reset(token)


def header_memo() -> Memo | None:
    """The headers built so far in the current :func:`shared_headers` block (by the state's
    ``id``, with the state), or ``None`` outside one."""
    return _memo.get()


@dataclass(frozen=True, slots=True)
class ViewHeader:
    """What every view starts with, whatever the game.

    ``acting`` names the seats the game waits for *in public terms*: everyone may know them
    (the seats still to commit in *Why First?*, the rider on turn); a Setback BLOCK window
    names none (SB-9) and says so in ``waiting``. ``scores`` follow ``score_names`` (the seats,
    then any contestant the engine plays, such as Leo). ``outcome`` is the JSON form of the
    :class:`~racedeck.core.outcome.Outcome` once the game is over.
    """

    game: str
    title: str
    rules_version: str
    config: JSONObject
    seat: int | None
    seat_names: tuple[str, ...]
    move: int
    phase: str
    acting: tuple[int, ...]
    waiting: str
    score_names: tuple[str, ...]
    scores: tuple[float, ...]
    terminal: bool
    outcome: JSONObject | None

    def for_seat(self, seat: int | None, config: JSONObject) -> ViewHeader:
        """This header as ``seat`` gets it, with ``config`` (a copy of its own) and a copy of
        the outcome: everything else is the same for every seat, and immutable."""
        return ViewHeader(
            self.game,
            self.title,
            self.rules_version,
            config,
            seat,
            self.seat_names,
            self.move,
            self.phase,
            self.acting,
            self.waiting,
            self.score_names,
            self.scores,
            self.terminal,
            None if self.outcome is None else thaw(self.outcome),
        )

    def to_json(self) -> JSONObject:
        """Return the JSON form (a fresh object the caller may change)."""
        return {
            "game": self.game,
            "title": self.title,
            "rules_version": self.rules_version,
            "config": thaw(self.config),
            "seat": self.seat,
            "seat_names": list(self.seat_names),
            "move": self.move,
            "phase": self.phase,
            "acting": list(self.acting),
            "waiting": self.waiting,
            "score_names": list(self.score_names),
            "scores": list(self.scores),
            "terminal": self.terminal,
            "outcome": thaw(self.outcome),
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> ViewHeader:
        """Rebuild a header from :meth:`to_json`."""
        return cls(
            game=str(obj["game"]),
            title=str(obj["title"]),
            rules_version=str(obj["rules_version"]),
            config=thaw(obj["config"]),
            seat=obj["seat"],
            seat_names=tuple(obj["seat_names"]),
            move=int(obj["move"]),
            phase=str(obj["phase"]),
            acting=tuple(int(s) for s in obj["acting"]),
            waiting=str(obj["waiting"]),
            score_names=tuple(obj["score_names"]),
            scores=tuple(obj["scores"]),
            terminal=bool(obj["terminal"]),
            outcome=thaw(obj["outcome"]),
        )
