"""What one player, or a spectator, may know about a game of Setback."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from racedeck.core.frozen import freeze, thaw
from racedeck.core.header import ViewHeader
from racedeck.core.jsontypes import JSONObject
from racedeck.games.setback.actions import SetbackAction, action_from_json

__all__ = ["SetbackView", "own_json"]


def own_json(
    seat: int | None, hand: tuple[str, ...], answer: str, legal_actions: tuple[SetbackAction, ...]
) -> JSONObject:
    """The keys of the JSON view (:meth:`SetbackView.to_json`) that only ``seat`` sees."""
    return {
        "seat": seat,
        "hand": list(hand),
        "answer": answer,
        "legal_actions": [a.to_json() for a in legal_actions],
    }


@dataclass(frozen=True, slots=True)
class SetbackView:
    """A player's view: its own hand and the public table, never another hand.

    During a BLOCK window (SB-9) the view says that a window is open, what was declared and who
    has played a BLOCK so far (BLOCKs are played face up), but never who is being asked, who has
    answered or how (SB-9 amended again: the answers are simultaneous and concealed): only the
    viewer's own ``legal_actions`` say what it may answer (``block`` and ``pass``, or only
    ``pass`` without a BLOCK in hand), and its own ``answer`` what it answered (``"block"`` or
    ``"pass"``; ``""`` while it is asked, when it is not asked, outside a window and for a
    spectator). A BLOCK answered stays in the hand until the window's last answer is in, and
    stays there when another player's BLOCK is the one played. ``tokens`` are ``(row, lane)``,
    with ``(-1, -1)`` for
    START and row = number of rows for FINISH; ``protected`` says which tokens stand on a BLOCK
    card (SB-9: others cannot act on them), so that no client needs to work it out.

    Everything the table sees is here, so that a full state can be rebuilt from a view with
    only the hidden cards drawn at random (``Setback.sample_state``): the SKIP cards in front of
    the players and the BLOCKs of a window by name, and where the turn stands (``source``,
    ``hand_played``, ``nonfree_played``, ``skip_spent``), which every player has watched.

    A view is immutable and shares nothing with the state: ``declared`` and ``context`` are
    read-only mappings whose lists are tuples.
    """

    header: ViewHeader
    seat: int | None
    players: int
    grid: tuple[tuple[str, ...], ...]
    rows_removed: int
    tokens: tuple[tuple[int, int], ...]
    protected: tuple[bool, ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int
    discard: tuple[str, ...]
    skips: tuple[int, ...]
    skip_cards: tuple[tuple[str, ...], ...]
    skip_spent: tuple[bool, ...]
    current: int
    phase: str
    source: str
    hand_played: int
    nonfree_played: bool
    window_open: bool
    declared: Mapping[str, Any] | None
    blocks: tuple[int, ...]
    block_cards: tuple[str, ...]
    answer: str
    context: Mapping[str, Any]
    to_act: int | None
    winner: int
    legal_actions: tuple[SetbackAction, ...]

    @property
    def rows(self) -> int:
        """Rows on the board now."""
        return len(self.grid)

    @property
    def lanes(self) -> int:
        """Lanes on the board now."""
        return len(self.grid[0]) if self.grid else 0

    def to_json(self) -> JSONObject:
        """Return the JSON form: ``{"header": {...}, <the game's part>}``."""
        return {
            "header": self.header.to_json(),
            "seat": self.seat,
            "players": self.players,
            "grid": [list(r) for r in self.grid],
            "rows_removed": self.rows_removed,
            "tokens": [list(t) for t in self.tokens],
            "protected": list(self.protected),
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "draw_size": self.draw_size,
            "discard": list(self.discard),
            "skips": list(self.skips),
            "skip_cards": [list(k) for k in self.skip_cards],
            "skip_spent": list(self.skip_spent),
            "current": self.current,
            "phase": self.phase,
            "source": self.source,
            "hand_played": self.hand_played,
            "nonfree_played": self.nonfree_played,
            "window_open": self.window_open,
            "declared": thaw(self.declared),
            "blocks": list(self.blocks),
            "block_cards": list(self.block_cards),
            "answer": self.answer,
            "context": thaw(self.context),
            "to_act": self.to_act,
            "winner": self.winner,
            "legal_actions": [a.to_json() for a in self.legal_actions],
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> SetbackView:
        """Rebuild a view from :meth:`to_json`; raise :class:`ValueError` naming the missing
        field when ``obj`` is not such a form."""
        try:
            return cls(
                header=ViewHeader.from_json(obj["header"]),
                seat=obj["seat"],
                players=int(obj["players"]),
                grid=tuple(tuple(str(c) for c in r) for r in obj["grid"]),
                rows_removed=int(obj["rows_removed"]),
                tokens=tuple((int(t[0]), int(t[1])) for t in obj["tokens"]),
                protected=tuple(bool(x) for x in obj["protected"]),
                hand=tuple(str(c) for c in obj["hand"]),
                hand_sizes=tuple(int(x) for x in obj["hand_sizes"]),
                draw_size=int(obj["draw_size"]),
                discard=tuple(str(c) for c in obj["discard"]),
                skips=tuple(int(x) for x in obj["skips"]),
                skip_cards=tuple(tuple(str(c) for c in k) for k in obj["skip_cards"]),
                skip_spent=tuple(bool(x) for x in obj["skip_spent"]),
                current=int(obj["current"]),
                phase=str(obj["phase"]),
                source=str(obj["source"]),
                hand_played=int(obj["hand_played"]),
                nonfree_played=bool(obj["nonfree_played"]),
                window_open=bool(obj["window_open"]),
                declared=freeze(obj["declared"]),
                blocks=tuple(int(x) for x in obj["blocks"]),
                block_cards=tuple(str(c) for c in obj["block_cards"]),
                answer=str(obj["answer"]),
                context=freeze(obj["context"]),
                to_act=obj["to_act"],
                winner=int(obj["winner"]),
                legal_actions=tuple(action_from_json(a) for a in obj["legal_actions"]),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a Setback view: {exc!r}") from None
