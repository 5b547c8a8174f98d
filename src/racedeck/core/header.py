"""The header common to every game's view: enough for any client to frame the table."""

from __future__ import annotations

from dataclasses import dataclass

from racedeck.core.frozen import thaw
from racedeck.core.jsontypes import JSONObject

__all__ = ["NO_HEADER", "ViewHeader"]


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


NO_HEADER = ViewHeader(
    game="",
    title="",
    rules_version="",
    config={},
    seat=None,
    seat_names=(),
    move=-1,
    phase="",
    acting=(),
    waiting="",
    score_names=(),
    scores=(),
    terminal=False,
    outcome=None,
)
"""The header of a view made without one (:meth:`racedeck.core.game.Game.observe_without_header`),
for readers that never read it: nothing in it is true of any game."""
