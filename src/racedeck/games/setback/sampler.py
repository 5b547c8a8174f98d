"""Determinizations of Setback: a full state that one seat's view allows, secrets drawn at random.

A search that must not cheat (information-set MCTS) starts each iteration from such a state. It
is built from the view and the game's configuration alone:

* **Public cards are copied by name**: the board, the discard pile in its order, the SKIPs in
  front of the players (SB-10), the declared card and the BLOCKs of a window (SB-9). Cards of one
  name are interchangeable to the rules, so which deck index stands for which card is no secret:
  indices are handed out in a fixed order (the seat's own hand keeping the view's order).
* **Unseen cards** — every card of the deck not shown — make up the other hands (their sizes are
  public) and the draw pile (its size is public); they are dealt from one uniform shuffle, so
  every split and every pile order is equally likely. A view holds a position, not its history:
  a player who remembers the game may know more (which cards a reshuffle put into the draw pile,
  SB-3, or that nobody answered an earlier declaration); the deal ignores that, it never uses
  more than the view.
* **Chance to come** is reseeded: the state's own RNG is drawn from ``rng``, or the search would
  know how the discards will be reshuffled.

**BLOCK windows (SB-9 amended).** In a window the state's ``pending`` is the seats asked that
have not answered yet, and no view says who they are. Every seat that could answer is asked,
BLOCK in hand or not (not the player of the BLOCK on top, nor the declarer unless
``self_block`` lets it answer), so who is asked says nothing about the hands, and the hands are
dealt as outside a window. The observer knows whether it is still asked itself (its
``legal_actions``) and what it answered (the view's ``answer``) and — the window being open —
that someone is still to answer; it does not know who has answered already, nor how (SB-9
amended again: the answers are simultaneous and concealed, and a BLOCK answered stays in its
owner's hand until the last answer is in). So each other seat that may answer is taken to be
still asked with even odds; when the observer is not asked and the coins leave nobody, they
are drawn again (rejection keeps the draw uniform among the allowed ones). Each other seat
taken to have answered answered BLOCK with even odds if its dealt hand holds a BLOCK, else
pass: the view tells nothing about a choice, so no answer a hand allows is favoured, and a
seat without a BLOCK can only have passed. The move number, which counts the answers, is not
read for any of it: nothing about the answers may show before the window closes, and a face
may hold the number back until then.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import chain
from typing import Any

from racedeck.core.frozen import thaw
from racedeck.core.rng import Rng
from racedeck.games.setback.actions import Play, action_from_json
from racedeck.games.setback.config import SetbackConfig
from racedeck.games.setback.state import OVER, WINDOW, SetbackState
from racedeck.games.setback.view import SetbackView

__all__ = ["SetbackSampler"]


class SetbackSampler:
    """Draws full states from views for one configuration (:meth:`sample`)."""

    __slots__ = ("_blocks", "_ids", "_names", "_players", "_self_block")

    def __init__(self, config: SetbackConfig) -> None:
        types = config.card_types()
        ids: dict[str, list[int]] = {}
        for i, t in enumerate(types):
            ids.setdefault(t.name, []).append(i)
        self._ids = ids  # card name -> its deck indices, ascending
        self._blocks = frozenset(i for i, t in enumerate(types) if t.kind == "BLOCK")
        self._names = tuple(ids)
        self._players = config.players
        self._self_block = config.self_block
        # Nothing else is kept: a sampler is shared, and no view may leave a trace in it.

    def sample(self, view: SetbackView, rng: Rng) -> SetbackState:
        """Return a state whose ``view.seat`` view is ``view``, with the other hands, the draw
        pile's order, who is still asked in a window and what the others answered, and the
        state's RNG drawn from ``rng`` (see the module's notes). Raise :class:`ValueError` if
        no state of this game shows ``view``."""
        n = self._players
        if view.players != n:
            raise ValueError(f"a view of {view.players} players for a game of {n}")
        seat = view.seat
        ids = self._ids
        sizes = view.hand_sizes
        try:
            # The own hand first: its indices must ascend in the view's order (hands are kept
            # sorted), which the smallest fitting index of each name always achieves.
            own: list[int] = []
            last = -1
            for name in view.hand:
                pool = ids[name]
                last = pool[bisect_right(pool, last)]
                own.append(last)
            # Every other card takes the next free index of its name.
            free = dict(zip(self._names, map(iter, ids.values()), strict=True))
            if own:
                held = set(own)
                for name in set(view.hand):
                    free[name] = iter([i for i in ids[name] if i not in held])
            take = next
            grid = [[take(free[name]) for name in r] for r in view.grid]
            discard = [take(free[name]) for name in view.discard]
            skip_cards = [[take(free[name]) for name in k] for k in view.skip_cards]
            rows = [t[0] for t in view.tokens]
            lanes = [t[1] for t in view.tokens]
            stack: list[dict[str, Any]] = []
            declarer = -1
            if view.declared is not None:
                by = declarer = int(view.declared["player"])
                source = str(view.declared["source"])
                parsed = action_from_json(thaw(view.declared["play"]))
                if not isinstance(parsed, Play):
                    raise ValueError("a declared action must be a play")
                play = parsed
                # A Board Action's card stays on the board (SB-3); a hand card left the hand.
                if source == "board":
                    card = grid[rows[by]][lanes[by]]
                else:
                    card = take(free[play.card.name])
                stack.append({"by": by, "source": source, "card": card, "play": play})
                for b, name in zip(view.blocks, view.block_cards, strict=True):
                    stack.append({"by": b, "card": take(free[name])})
        except (KeyError, IndexError, StopIteration, TypeError) as exc:
            raise ValueError(f"the view shows cards this deck does not hold: {exc!r}") from exc
        unseen = list(chain.from_iterable(free.values()))  # what the iterators did not hand out
        others = [q for q in range(n) if q != seat]
        if seat is not None and len(own) != sizes[seat]:
            raise ValueError("the view's hand does not match its hand size")
        if len(unseen) != sum(sizes[q] for q in others) + view.draw_size:
            raise ValueError("the view's hand sizes and draw pile do not add up to the deck")

        window = view.phase == WINDOW
        order: list[int] = []
        exclude = -1
        me_asked = bool(view.legal_actions) and window
        if window:
            order = [(view.current + i) % n for i in range(n)]
            if view.blocks:
                exclude = view.blocks[-1]
            elif stack:
                own_ok = self._self_block == "all" or (
                    self._self_block == "board" and stack[0]["source"] == "board"
                )
                exclude = -1 if own_ok else declarer
            if not me_asked and not any(q != exclude for q in others):
                raise ValueError("a window is open but no other seat may answer it")
            if seat is not None and seat != exclude and me_asked == bool(view.answer):
                raise ValueError("the view's seat must be either asked or have answered")
        if view.answer not in ("", "block", "pass") or (view.answer and not window):
            raise ValueError(f"the view's answer {view.answer!r} is not one of a window")
        if view.answer == "block" and self._blocks.isdisjoint(own):
            raise ValueError("the view's seat answered BLOCK without holding one")

        hands: list[list[int]] = [own if q == seat else [] for q in range(n)]
        rng.shuffle(unseen)
        pos = 0
        for q in others:
            hands[q] = sorted(unseen[pos : pos + sizes[q]])
            pos += sizes[q]
        asked: list[int] = []
        while window:
            # Who is still asked: the observer as its view says; another seat that may answer
            # if its coin (bit q) says it has not answered yet.
            coins = rng.next_u64()
            asked = [
                q for q in order if (me_asked if q == seat else q != exclude and (coins >> q) & 1)
            ]
            if asked:
                break
        blockers: list[int] = []
        if window:
            # What the others who answered answered (SB-9 amended again): BLOCK if their coin
            # (bit q) says so and their hand holds one, else pass; the observer as its view says.
            coins = rng.next_u64()
            blocks = self._blocks
            blockers = [
                q
                for q in range(n)
                if q not in asked
                and q != exclude
                and (
                    view.answer == "block"
                    if q == seat
                    else (coins >> q) & 1 and not blocks.isdisjoint(hands[q])
                )
            ]

        s = SetbackState()
        s.players = n
        s.grid = grid
        s.rows_removed = view.rows_removed
        s.row = rows
        s.lane = lanes
        s.hands = hands
        s.draw = unseen[pos:]
        s.discard = discard
        s.skip_cards = skip_cards
        s.skip_spent = list(view.skip_spent)
        s.current = view.current
        s.phase = view.phase
        s.source = view.source
        s.hand_played = view.hand_played
        s.nonfree_played = view.nonfree_played
        s.stack = stack
        s.asked = asked
        s.blockers = blockers
        s.context = thaw(view.context)
        s.winner = view.winner
        if window:
            s.pending = tuple(asked)
        elif view.phase == OVER or view.to_act is None:
            s.pending = ()
        else:
            s.pending = (view.to_act,)
        s.move = view.header.move
        s.rng = Rng(rng.next_u64())
        return s
