"""The result of a finished game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from racedeck.core.jsontypes import JSONObject

__all__ = ["Outcome", "competition_ranks"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Scores, finishing ranks and winners of a finished game.

    Index ``i`` is contestant ``i``: the seats first, then any contestant played by the engine
    itself (Leo in two-player *Why First?*), whose names are in ``names``. ``ranks`` is the
    finishing order as the game defines it (1 = won; ties share a rank, competition style
    1, 1, 3), which need not follow the raw score: in *Why First?* the second-highest total wins.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: frozenset[int]
    names: tuple[str, ...] = ()

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": sorted(self.winners),
            "names": list(self.names),
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> Outcome:
        """Parse the JSON form made by :meth:`to_json`."""
        return cls(
            scores=tuple(obj["scores"]),
            ranks=tuple(int(r) for r in obj["ranks"]),
            winners=frozenset(int(w) for w in obj["winners"]),
            names=tuple(obj.get("names", ())),
        )


def competition_ranks(order_keys: Sequence[float]) -> tuple[int, ...]:
    """Rank contestants by ``order_keys`` (lower key = better), ties sharing a rank (1, 1, 3)."""
    return tuple(1 + sum(1 for other in order_keys if other < key) for key in order_keys)
