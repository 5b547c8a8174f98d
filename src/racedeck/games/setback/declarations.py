"""What a card may be declared with: its targets, lanes and modes (SB-5, SB-6, SB-10).

A declaration names everything a BLOCK answers to; choices that exist only while the card
resolves (ALL order, REVAMP placements) are asked later as steps.

:func:`list_declarations` states the rules plainly. :class:`Declarations` gives the same lists
fast, as the rules engine asks for them at every decision of every playout of a search: it
reads only what each kind of card depends on and hands out shared tuples of shared
:class:`Play` objects (tests check it against :func:`list_declarations`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from racedeck.games.setback.actions import Play
from racedeck.games.setback.cards import CardType, DeckIndex
from racedeck.games.setback.config import SetbackConfig
from racedeck.games.setback.state import START, SetbackState

__all__ = ["Declarations", "list_declarations", "row_full"]

_Plays = tuple[Play, ...]
_FoeTable = tuple[list[_Plays], list[list[_Plays]]]


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


class Declarations:
    """:func:`list_declarations` for one configuration, as tuples, fast.

    Plays are immutable values, so the same objects serve every state. Each kind reads only
    what its options depend on (SB-5, SB-6, SB-10):

    * MOVE: whether its player stands on START (then the entry lane is chosen) and the lanes;
    * FOE: which opponents stand on START (a token on START never stands on a BLOCK) and the
      lanes;
    * ALL, DRAW: nothing; SKIP: the player only;
    * SHIFT, TRADE, CUT: the tokens and which of them stand on BLOCK, read afresh each time
      from small tables of plays;
    * REVAMP: whether a lane may be added (lanes, pile sizes) or removed (lanes, full rows).

    The memo's keys start with the type id, which fixes the kind and so the meaning of the rest:
    everything that kind's answer depends on, as small numbers (a player, a lane, a bit mask
    of players, the number of lanes). They take a few thousand values at most and are all
    made when the object is, from the configuration alone: the object is shared, and which
    entries a lazily filled memo held would tell which cards the seats have held.
    """

    __slots__ = ("_cfg", "_index", "_list", "_memo", "_n", "_others", "_pairs", "_single", "_two")

    def __init__(self, cfg: SetbackConfig, index: DeckIndex) -> None:
        n = cfg.players
        self._cfg = cfg
        self._index = index
        self._n = n
        self._others = tuple(tuple(q for q in range(n) if q != p) for p in range(n))
        # TRADE: own token with each other, then every pair of others (as list_declarations).
        self._pairs = tuple(
            tuple([(p, q) for q in others] + [(a, b) for a in others for b in others if a < b])
            for p, others in enumerate(self._others)
        )
        self._single = tuple((Play(t),) for t in index.types)
        self._memo: dict[tuple[int, ...], _Plays] = {}
        self._two: dict[int, tuple[tuple[Play, ...], ...]] = {}
        by_kind: dict[str, Callable[[SetbackState, int, int], _Plays]] = {
            "MOVE": self._move,
            "FOE": self._foe,
            "ALL": self._fixed,
            "DRAW": self._fixed,
            "SKIP": self._skip,
            "SHIFT": self._shift,
            "TRADE": self._trade,
            "CUT": self._cut,
            "REVAMP": self._revamp,
        }
        # BLOCK is never declared; it falls to the same "no target" play as list_declarations.
        self._list = tuple(by_kind.get(kind, self._fixed) for kind in index.kind)
        self._prebuild()

    def _prebuild(self) -> None:
        """Every memo entry and table any state can ask for (see the class's notes)."""
        n, index = self._n, self._index
        all_lanes = range(1, self._cfg.max_lanes + 1)
        for tid, kind in enumerate(index.kind):
            amount = index.amount[tid]
            if kind == "MOVE" and amount > 0:
                for lanes in all_lanes:
                    self._memo[(tid, lanes)] = self._build_move(tid, lanes)
            elif kind == "FOE":
                # One table of plays for every entry: with six players there are a thousand
                # entries of a dozen plays each, and making every play afresh took most of the
                # time a game took to make.
                table = self._foe_table(tid, self._cfg.max_lanes)
                for p in range(n):
                    others = self._others[p]
                    masks = {0}
                    if amount > 0:
                        masks = {
                            sum(1 << q for i, q in enumerate(others) if bits >> i & 1)
                            for bits in range(1 << len(others))
                        }
                    for entering in masks:
                        for lanes in all_lanes:
                            self._memo[(tid, p, entering, lanes)] = self._build_foe(
                                tid, p, entering, lanes, table
                            )
            elif kind == "SKIP":
                for p in range(n):
                    t = index.types[tid]
                    self._memo[(tid, p)] = tuple(Play(t, target=q) for q in self._others[p])
            elif kind == "SHIFT":
                t = index.types[tid]
                for q in range(n):
                    for lanes in all_lanes:
                        for ln in range(-1, lanes):
                            self._memo[(tid, q, ln, lanes)] = tuple(
                                Play(t, target=q, lane=x) for x in range(lanes) if x != ln
                            )
            elif kind == "REVAMP":
                for add in (False, True):
                    for remove in (False, True):
                        for lanes in all_lanes:
                            key = (tid, add, remove, lanes)
                            self._memo[key] = self._build_revamp(tid, add, remove, lanes)
            elif kind in ("TRADE", "CUT"):
                t = index.types[tid]
                self._two[tid] = tuple(
                    tuple(Play(t, target=a, other=b) for b in range(n)) for a in range(n)
                )

    def options(self, s: SetbackState, p: int, tid: int) -> _Plays:
        """Every way for player ``p`` to declare a card of type id ``tid`` (see
        :class:`racedeck.games.setback.cards.DeckIndex`), in the order of
        :func:`list_declarations`."""
        return self._list[tid](s, p, tid)

    # -- by kind ---------------------------------------------------------------------------------

    def _fixed(self, s: SetbackState, p: int, tid: int) -> _Plays:
        return self._single[tid]

    def _move(self, s: SetbackState, p: int, tid: int) -> _Plays:
        if s.row[p] != START or self._index.amount[tid] <= 0:
            return self._single[tid]
        lanes = s.lanes
        out = self._memo.get((tid, lanes))
        return out if out is not None else self._build_move(tid, lanes)

    def _build_move(self, tid: int, lanes: int) -> _Plays:
        t = self._index.types[tid]
        return tuple(Play(t, lane=ln) for ln in range(lanes))

    def _foe(self, s: SetbackState, p: int, tid: int) -> _Plays:
        entering = 0  # bit q: opponent q enters from START, its player picks the lane (FAQ 2)
        if self._index.amount[tid] > 0:
            row = s.row
            for q in self._others[p]:
                if row[q] == START:
                    entering |= 1 << q
        lanes = s.lanes
        out = self._memo.get((tid, p, entering, lanes))
        return out if out is not None else self._build_foe(tid, p, entering, lanes)

    def _foe_table(self, tid: int, most_lanes: int) -> _FoeTable:
        """FOE card ``tid``'s plays at each target: aimed at a token (``[q]``), and into each
        lane of a token entering the board (``[q][lanes]``, for up to ``most_lanes`` lanes)."""
        t = self._index.types[tid]
        aimed: list[_Plays] = [(Play(t, target=q),) for q in range(self._n)]
        entered = [
            [tuple(Play(t, target=q, lane=ln) for ln in range(k)) for k in range(most_lanes + 1)]
            for q in range(self._n)
        ]
        return aimed, entered

    def _build_foe(
        self, tid: int, p: int, entering: int, lanes: int, table: _FoeTable | None = None
    ) -> _Plays:
        aimed, entered = table if table is not None else self._foe_table(tid, lanes)
        return tuple(
            play
            for q in self._others[p]
            for play in (entered[q][lanes] if entering >> q & 1 else aimed[q])
        )

    def _skip(self, s: SetbackState, p: int, tid: int) -> _Plays:
        return self._memo[(tid, p)]

    def _shift(self, s: SetbackState, p: int, tid: int) -> _Plays:
        row, lane, grid, is_block = s.row, s.lane, s.grid, self._index.is_block
        rows, lanes = len(grid), s.lanes
        memo = self._memo
        out: list[Play] = []
        for q in range(self._n):
            r, ln = row[q], lane[q]
            if r == START:
                continue
            if q != p and 0 <= r < rows and ln >= 0 and is_block[grid[r][ln]]:
                continue  # SB-9: a token on BLOCK cannot be moved by others
            part = memo.get((tid, q, ln, lanes))
            if part is None:
                t = self._index.types[tid]
                part = tuple(Play(t, target=q, lane=x) for x in range(lanes) if x != ln)
            out += part
        return tuple(out) if out else self._single[tid]

    def _trade(self, s: SetbackState, p: int, tid: int) -> _Plays:
        movable = self._movable(s, p)
        row, lane = s.row, s.lane
        two = self._two_table(tid)
        out = [
            two[a][b]
            for a, b in self._pairs[p]
            if movable[a] and movable[b] and (row[a] != row[b] or lane[a] != lane[b])
        ]  # both on START (or on one card): nothing to trade
        return tuple(out) if out else self._single[tid]

    def _cut(self, s: SetbackState, p: int, tid: int) -> _Plays:
        movable = self._movable(s, p)
        row, lane = s.row, s.lane
        rows = len(s.grid)
        two = self._two_table(tid)
        out: list[Play] = []
        n = self._n
        for q in range(n):
            if not movable[q]:
                continue
            rq, lq, plays = row[q], lane[q], two[q]
            for x in range(n):
                rx = row[x]
                if (
                    x != q
                    and rx != START
                    and rx + 1 < rows
                    and (rq != rx + 1 or lq != lane[x])  # already there
                ):
                    out.append(plays[x])
        return tuple(out) if out else self._single[tid]

    def _revamp(self, s: SetbackState, p: int, tid: int) -> _Plays:
        cfg = self._cfg
        rows, lanes = len(s.grid), s.lanes
        add = lanes < cfg.max_lanes and len(s.draw) + len(s.discard) >= rows
        remove = lanes > cfg.min_lanes and not any(row_full(s, r) for r in range(rows))
        out = self._memo.get((tid, add, remove, lanes))
        return out if out is not None else self._build_revamp(tid, add, remove, lanes)

    def _build_revamp(self, tid: int, add: bool, remove: bool, lanes: int) -> _Plays:
        t = self._index.types[tid]
        plays = [Play(t, mode="add-left"), Play(t, mode="add-right")] if add else []
        if remove:
            plays += [Play(t, mode="remove", lane=ln) for ln in range(lanes)]
        return tuple(plays) if plays else self._single[tid]

    # -- helpers ---------------------------------------------------------------------------------

    def _movable(self, s: SetbackState, p: int) -> list[bool]:
        """Per token: ``p``'s own, or not standing on a BLOCK card (SB-9)."""
        row, lane, grid, is_block = s.row, s.lane, s.grid, self._index.is_block
        rows = len(grid)
        out: list[bool] = []
        for q in range(self._n):
            r, ln = row[q], lane[q]
            out.append(q == p or not (0 <= r < rows and ln >= 0 and is_block[grid[r][ln]]))
        return out

    def _two_table(self, tid: int) -> tuple[tuple[Play, ...], ...]:
        """``[a][b]``: the play of type ``tid`` with ``target=a, other=b`` (TRADE, CUT)."""
        return self._two[tid]
