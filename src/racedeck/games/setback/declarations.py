"""What a card may be declared with: its targets, lanes and modes (SB-5, SB-6, SB-10).

A declaration names everything a BLOCK answers to; choices that exist only while the card
resolves (ALL order, REVAMP placements) are asked later as steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.games.setback.actions import Play
from racedeck.games.setback.cards import CardType
from racedeck.games.setback.config import SetbackConfig
from racedeck.games.setback.state import START, SetbackState

__all__ = ["list_declarations", "row_full"]


def list_declarations(
    s: SetbackState, p: int, t: CardType, blocked: Sequence[bool], cfg: SetbackConfig
) -> list[Play]:
    """Every way for player ``p`` to declare a card of type ``t`` (SB-5, SB-6, SB-10).

    ``blocked[q]`` says whether ``q``'s token stands on a BLOCK card: other players cannot
    affect it directly (SB-9), though it may still be cut in front of.
    """
    kind = t.kind
    lanes = range(s.lanes)
    others = [q for q in range(s.players) if q != p]
    if kind == "MOVE":
        if s.row[p] == START and t.amount > 0:
            return [Play(t, lane=ln) for ln in lanes]
        return [Play(t)]
    if kind == "FOE":
        out: list[Play] = []
        for q in others:
            if s.row[q] == START and t.amount > 0 and not blocked[q]:
                out.extend(Play(t, target=q, lane=ln) for ln in lanes)  # FAQ 2
            else:
                out.append(Play(t, target=q))
        return out
    if kind in ("ALL", "DRAW"):
        return [Play(t)]
    if kind == "SKIP":
        return [Play(t, target=q) for q in others]
    movable = [q for q in range(s.players) if q == p or not blocked[q]]
    if kind == "SHIFT":
        out = [
            Play(t, target=q, lane=ln)
            for q in movable
            if s.row[q] != START
            for ln in lanes
            if ln != s.lane[q]
        ]
    elif kind == "TRADE":
        pairs = [(p, q) for q in others] + [(a, b) for a in others for b in others if a < b]
        out = [
            Play(t, target=a, other=b)
            for a, b in pairs
            if a in movable
            and b in movable
            and (s.row[a], s.lane[a]) != (s.row[b], s.lane[b])  # both on START: no trade
        ]
    elif kind == "CUT":
        out = [
            Play(t, target=q, other=x)
            for q in movable
            for x in range(s.players)
            if x != q
            and s.row[x] != START
            and s.row[x] + 1 < s.rows
            and (s.row[q], s.lane[q]) != (s.row[x] + 1, s.lane[x])  # already there
        ]
    elif kind == "REVAMP":
        out = []  # filled below
        if s.lanes < cfg.max_lanes and len(s.draw) + len(s.discard) >= s.rows:
            out += [Play(t, mode="add-left"), Play(t, mode="add-right")]
        if s.lanes > cfg.min_lanes and not any(row_full(s, r) for r in range(s.rows)):
            out += [Play(t, mode="remove", lane=ln) for ln in lanes]
    else:  # pragma: no cover - BLOCK is never declared
        out = []
    # SB-6: mandatory when a legal target exists, else played for no effect (FAQ 4).
    return out or [Play(t)]


def row_full(s: SetbackState, r: int) -> bool:
    """True when every card of row ``r`` holds a token (then no lane may be removed, SB-6)."""
    return sum(1 for q in range(s.players) if s.row[q] == r) >= s.lanes
