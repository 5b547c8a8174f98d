"""The rules engine of Setback: lanes and rows of cards, MOVE/FOE/ALL, SHIFT/TRADE/CUT/DRAW/
REVAMP, SKIP, and BLOCK played out of turn.

A turn is Board Action, Hand Action, Draw Action (SB-3). Every action is first *declared* with
its targets; a reaction window then opens and asks every player who could BLOCK it under
``self_block``, holding a BLOCK or not (SB-9 amended: ``pending`` is that set, and a seat
without a BLOCK can only pass, which a driver may answer for it, see :meth:`forced_action`).
The answers are simultaneous and concealed (SB-9 amended again): an answer only crosses its
seat off and, for a BLOCK, notes the seat in the state's hidden ``blockers``; the BLOCK card
stays in the hand. When the last answer is in, the first BLOCKer in seating order after the
player whose action is answered plays its BLOCK (the others keep theirs, unseen), which opens
a window of its own; when a window closes without a BLOCK the stack resolves from the top: an
odd number of BLOCKs cancels the action. The action then resolves, asking its player for
choices only known then (ALL order and entry lanes, REVAMP placements).

A checked :meth:`Setback.step` returns the events with their audiences: everything on the
table is public; the cards a seat is dealt or draws go to that seat alone; an answer in a
window makes no event anyone at the table sees, so nothing says who was asked, who has
answered or how, only that a window opened and closed and whose BLOCK was played.

Rulings: SB-1 board, SB-2 deck, SB-3 turn, SB-4 movement, SB-5 MOVE/FOE/ALL, SB-6 SHIFT, TRADE,
CUT, DRAW, REVAMP, SB-7 bumps, SB-8 row removal, SB-9 BLOCK, SB-10 SKIP, SB-11 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from racedeck.core.errors import IllegalAction
from racedeck.core.events import RECORD, Event
from racedeck.core.frozen import freeze
from racedeck.core.game import Game, Transition
from racedeck.core.header import NO_HEADER
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome
from racedeck.core.rng import Rng
from racedeck.core.spec import GameSpec
from racedeck.games.setback import narrate
from racedeck.games.setback.actions import (
    Block,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    SetbackAction,
    Step,
    action_from_json,
    is_well_formed,
    parse_text,
)
from racedeck.games.setback.cards import CardType, DeckIndex
from racedeck.games.setback.config import SetbackConfig
from racedeck.games.setback.declarations import Declarations
from racedeck.games.setback.movement import FORWARD, LEFT, RIGHT, move_by, place
from racedeck.games.setback.sampler import SetbackSampler
from racedeck.games.setback.state import (
    BOARD,
    HAND,
    OVER,
    START,
    STEP,
    WINDOW,
    SetbackState,
)
from racedeck.games.setback.view import SetbackView, own_json

__all__ = ["Setback"]

_Events = list[Event] | None

# Actions without fields are values: one object each serves every state.
_WINDOW_OPTIONS: tuple[SetbackAction, ...] = (Block(), Pass())
_PASS = Pass()
_PASS_ONLY: tuple[SetbackAction, ...] = (_PASS,)
_END_HAND = EndHand()
_DISCARD_BLOCK = DiscardBlock()


class Setback(Game[SetbackState, SetbackAction, SetbackView]):
    """Setback under one configuration (see :class:`SetbackConfig`)."""

    spec: ClassVar[GameSpec]

    def __init__(self, config: SetbackConfig) -> None:
        super().__init__(config)
        self.cfg = config
        self.n = config.players
        self.types: tuple[CardType, ...] = tuple(config.card_types())
        # Each card's name, spelled out once: every view names every card on the board.
        self._card_names = tuple(t.name for t in self.types)
        # Everything below depends on the configuration only, never on a state.
        self._index = index = DeckIndex(self.types)
        self._is_block = index.is_block
        self._options = Declarations(config, index).options
        self._orders = tuple(tuple((c + i) % self.n for i in range(self.n)) for c in range(self.n))
        # Steps are values: one object per (token, lane) serves every state. Made here, once,
        # so that which of them a game has used leaves no trace on this shared object.
        self._steps = {
            (token, lane): Step(token, lane)
            for token in range(self.n)
            for lane in range(-1, config.max_lanes)
        }
        self._sampler = SetbackSampler(config)

    # -- small facts -----------------------------------------------------------------------------

    def on_block(self, s: SetbackState, q: int) -> bool:
        """True when ``q``'s token stands on a BLOCK card (SB-5, SB-9: protected)."""
        row, lane = s.row[q], s.lane[q]
        if row < 0 or lane < 0 or row >= len(s.grid):
            return False  # START, FINISH, or lifted off a removed lane for a moment
        return self._is_block[s.grid[row][lane]]

    # -- life cycle ------------------------------------------------------------------------------

    def start(self, seed: int) -> Transition[SetbackState]:
        """Shuffle, lay out the board (SB-1), deal, and pick a random first player (SB-3).

        The events say who goes first (public) and tell each seat its own hand (private).
        """
        cfg = self.cfg
        s = SetbackState()
        s.players = self.n
        s.rng = Rng(seed)
        deck = list(range(len(self.types)))
        s.rng.shuffle(deck)
        lanes = cfg.start_lanes
        s.grid = [[deck.pop() for _ in range(lanes)] for _ in range(cfg.rows)]
        s.hands = [sorted(deck.pop() for _ in range(cfg.hand_size)) for _ in range(self.n)]
        s.draw = deck
        s.row = [START] * self.n
        s.lane = [START] * self.n
        s.skip_cards = [[] for _ in range(self.n)]
        s.skip_spent = [False] * self.n
        s.current = s.rng.below(self.n)
        ev: list[Event] = [Event.fresh("game_started", {"first": s.current, "lanes": lanes})]
        ev += [
            Event.fresh("hand_dealt", {"player": q, "cards": self._names(s.hands[q])}, audience=q)
            for q in range(self.n)
        ]
        self._start_turn(s, ev)
        return Transition(s, tuple(ev))

    def legal_actions(self, state: SetbackState, seat: int) -> tuple[SetbackAction, ...]:
        """Everything ``seat`` may do now; empty unless it is pending."""
        if seat not in state.pending:
            return ()
        if state.phase == WINDOW:
            # SB-9 amended: everyone who could answer is asked; without a BLOCK, only to pass.
            return (
                _PASS_ONLY if self._index.blocks.isdisjoint(state.hands[seat]) else _WINDOW_OPTIONS
            )
        if state.phase == STEP:
            return self._step_options(state)
        if state.phase == BOARD:
            return self._options(state, seat, self._board_id(state, seat))
        return self._hand_options(state, seat)

    def step(
        self, state: SetbackState, seat: int, action: SetbackAction
    ) -> Transition[SetbackState]:
        """Check and apply; return the new state and the events that narrate it.

        Refuses a seat that is not a plain ``int`` of this game, an action whose fields are not
        of their exact types (``lane=0.0`` or ``False`` would compare equal to a legal play)
        and every action not legal now, with the narrowest error code. ``state`` is untouched.
        """
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction(
                f"there is no seat {seat!r} (seats are the integers 0..{self.n - 1})",
                action=action,
                seat=seat if type(seat) is int else None,
                situation=self.describe_situation(state),
            )
        if not is_well_formed(action):
            # Named by repr: its text form assumes the fields it does not have.
            raise self.illegal(
                state,
                seat,
                None,
                f"{action!r} is not a Setback action with integer fields and a card",
            )
        if action not in self.legal_actions(state, seat):
            raise self.illegal(state, seat, action)
        s = state.clone()
        ev: list[Event] = []
        self._step(s, seat, action, ev)
        return Transition(s, tuple(ev))

    def apply_unchecked(self, state: SetbackState, seat: int, action: SetbackAction) -> None:
        """Fast path: apply a legal action in place, without checks or events."""
        self._step(state, seat, action, None)

    def window_minimum(self, state: SetbackState) -> float:
        """SB-9: an open BLOCK window stays open ``window_seconds`` at an online table."""
        return float(self.cfg.window_seconds) if state.phase == WINDOW else 0.0

    def timeout_action(self, state: SetbackState, seat: int) -> SetbackAction | None:
        """SB-9: a seat still asked when a BLOCK window's clock runs out passes."""
        if state.phase == WINDOW and seat in state.pending:
            return _PASS
        return None

    def forced_action(self, state: SetbackState, seat: int) -> SetbackAction | None:
        """SB-9 amended: a seat asked in a BLOCK window without a BLOCK in hand can only pass;
        a driver answers that for it. Nothing anyone sees tells such a pass from a chosen one
        (no answer makes an event, SB-9 amended again), so answering it reveals nothing."""
        if (
            state.phase == WINDOW
            and seat in state.pending
            and self._index.blocks.isdisjoint(state.hands[seat])
        ):
            return _PASS
        return None

    def _step(self, s: SetbackState, seat: int, action: SetbackAction, ev: _Events) -> None:
        s.move += 1
        self._act(s, seat, action, ev)
        if s.move >= self.cfg.max_moves and s.phase != OVER:
            self._end_by_length(s, ev)

    def _end_by_length(self, s: SetbackState, ev: _Events) -> None:
        """The ``max_moves`` bound: the game ends where it stands and ranks by progress.

        Cards on the stack of an open window go to the discards, so every card stays
        somewhere; a token lifted by a removed lane keeps its row.
        """
        s.discard.extend(item["card"] for item in s.stack if item.get("source") != "board")
        s.stack = []
        s.asked = []
        s.blockers = []  # BLOCKs answered but not played stay in their owners' hands
        s.context = {}
        s.phase = OVER
        s.pending = ()
        if ev is not None:
            ev.append(Event.fresh("move_limit", {"moves": s.move}))
            outcome = self.outcome(s)
            assert outcome is not None
            ev.append(Event.fresh("game_over", outcome.to_json()))

    def _act(self, s: SetbackState, seat: int, action: SetbackAction, ev: _Events) -> None:
        if s.phase == WINDOW:
            self._answer(s, seat, isinstance(action, Block), ev)
        elif s.phase == STEP:
            assert isinstance(action, Step)
            self._take_step(s, action, ev)
        elif s.phase == BOARD:
            assert isinstance(action, Play)
            r, ln = s.row[seat], s.lane[seat]
            self._declare(s, seat, action, "board", s.grid[r][ln], ev)
        elif isinstance(action, Play):
            tid, hand_id = self._index.id_of[action.card], self._index.hand_id
            card = next(c for c in s.hands[seat] if hand_id[c] == tid)
            s.hands[seat].remove(card)
            s.hand_played += 1
            if not action.card.free:
                s.nonfree_played = True
            self._declare(s, seat, action, "hand", card, ev)
        elif isinstance(action, DiscardBlock):
            card = s.hands[seat].pop()
            s.discard.append(card)
            if ev is not None:
                ev.append(Event.fresh("block_discarded", {"player": seat}))
            self._end_turn(s, ev, draw=True)
        else:
            assert isinstance(action, EndHand)
            self._end_turn(s, ev, draw=True)

    # -- turn flow -------------------------------------------------------------------------------

    def _start_turn(self, s: SetbackState, ev: _Events) -> None:
        p = s.current
        s.hand_played = 0
        s.nonfree_played = False
        if ev is not None:
            ev.append(Event.fresh("turn_started", {"player": p}))
        if s.skip_cards[p]:
            # SB-10: a SKIP in front of the player: discarding it is the whole turn.
            s.discard.append(s.skip_cards[p].pop(0))
            if ev is not None:
                ev.append(Event.fresh("turn_skipped", {"player": p, "why": "skip card"}))
            self._end_turn(s, ev, draw=False)
            return
        if s.row[p] == START:
            self._begin_hand(s, ev)
            return
        board = self._board_id(s, p)
        kind = self._index.kind[board]
        if kind == "SKIP":
            if not s.skip_spent[p]:
                # SB-10: once per arrival on the card; a Board Action, so it may be BLOCKed.
                s.skip_spent[p] = True
                play = Play(self._index.types[board])
                self._declare(s, p, play, "board", s.grid[s.row[p]][s.lane[p]], ev)
                return
            self._begin_hand(s, ev)
            return
        if kind == "BLOCK":
            self._begin_hand(s, ev)  # a BLOCK under a token only protects it
            return
        options = self._options(s, p, board)
        if len(options) == 1:
            self._declare(s, p, options[0], "board", s.grid[s.row[p]][s.lane[p]], ev)
        else:
            s.phase = BOARD
            s.pending = (p,)

    def _board_id(self, s: SetbackState, p: int) -> int:
        # SB-3: the card under the token acts as if played from hand; FREE is disregarded.
        return self._index.board_id[s.grid[s.row[p]][s.lane[p]]]

    def _begin_hand(self, s: SetbackState, ev: _Events) -> None:
        s.source = ""
        self._continue_hand(s, ev)

    def _continue_hand(self, s: SetbackState, ev: _Events) -> None:
        # Every playable card has at least one declaration, so no need to list them here.
        hand = s.hands[s.current]
        index = self._index
        # SB-3: any card but BLOCK; only FREE ones once the non-FREE card has been played.
        playable = not (index.free_playable if s.nonfree_played else index.playable).isdisjoint(
            hand
        )
        if playable or (hand and not s.hand_played):  # else only "end" (or nothing) is left
            s.phase = HAND
            s.pending = (s.current,)
        else:
            self._end_turn(s, ev, draw=True)

    def _hand_options(self, s: SetbackState, p: int) -> tuple[SetbackAction, ...]:
        hand = s.hands[p]
        if not hand:
            return ()
        index = self._index
        hand_id, kinds, free = index.hand_id, index.kind, index.free
        nonfree_played = s.nonfree_played
        out: list[SetbackAction] = []
        playable = False
        for tid in sorted({hand_id[c] for c in hand}):  # ids sort as the types do
            if kinds[tid] != "BLOCK" and (free[tid] or not nonfree_played):
                out += self._options(s, p, tid)
                playable = True
        if s.hand_played:
            out.append(_END_HAND)
        elif not playable and index.blocks.issuperset(hand):
            out.append(_DISCARD_BLOCK)  # SB-3
        return tuple(out)

    def _end_turn(self, s: SetbackState, ev: _Events, draw: bool) -> None:
        p = s.current
        if draw:
            # SB-3 Draw Action: up to three, or one when already holding three or more.
            count = (
                1 if len(s.hands[p]) >= self.cfg.hand_size else self.cfg.hand_size - len(s.hands[p])
            )
            self._draw_cards(s, p, count, ev)
        s.current = (p + 1) % self.n
        s.source = ""
        self._start_turn(s, ev)

    def _draw_cards(self, s: SetbackState, p: int, count: int, ev: _Events) -> None:
        drawn = 0
        for _ in range(count):
            if not s.draw and not self._refill(s, ev):
                break
            s.hands[p].append(s.draw.pop())
            drawn += 1
        if ev is not None and drawn:
            got = self._names(s.hands[p][-drawn:])
            ev.append(Event.fresh("cards_drawn", {"player": p, "count": drawn}))
            ev.append(Event.fresh("cards_received", {"player": p, "cards": got}, audience=p))
        s.hands[p].sort()

    def _refill(self, s: SetbackState, ev: _Events) -> bool:
        """SB-3: an empty draw pile is the discards, shuffled. False if there are none."""
        if not s.discard:
            return False
        s.draw = s.discard
        s.discard = []
        s.rng.shuffle(s.draw)
        if ev is not None:
            ev.append(Event.fresh("discards_reshuffled", {"cards": len(s.draw)}))
        return True

    # -- declarations and the BLOCK window -------------------------------------------------------

    def _declare(
        self, s: SetbackState, p: int, play: Play, source: str, card: int, ev: _Events
    ) -> None:
        s.source = source
        s.stack = [{"by": p, "source": source, "card": card, "play": play}]
        if ev is not None:
            ev.append(
                Event.fresh("declared", {"player": p, "source": source, "play": play.to_json()})
            )
        self._open_window(s, ev)

    def _window_asked(self, s: SetbackState) -> list[int]:
        """Everyone the window open on the top of ``s.stack`` asks, in seating order from the
        player on turn: not the one whose BLOCK is on top, and the declarer only as
        ``self_block`` allows (SB-9 amended). With two players or more somebody is asked."""
        if len(s.stack) > 1:
            exclude = s.stack[-1]["by"]
        else:
            own = self.cfg.self_block
            source = s.stack[0]["source"]
            may = own == "all" or (own == "board" and source == "board")
            exclude = -1 if may else s.stack[0]["by"]
        return [q for q in self._orders[s.current] if q != exclude]

    def _open_window(self, s: SetbackState, ev: _Events) -> None:
        # SB-9 amended: the window opens after every declaration and asks everyone who could
        # answer, BLOCK in hand or not.
        asked = self._window_asked(s)
        s.phase = WINDOW
        s.asked = asked
        s.blockers = []
        s.pending = tuple(asked)
        if ev is not None:
            ev.append(Event.fresh("window_opened", {"blocks": len(s.stack) - 1}))
            # For the record only (measures): how many of those asked could BLOCK.
            blocks, hands = self._index.blocks, s.hands
            holders = sum(1 for q in asked if not blocks.isdisjoint(hands[q]))
            ev.append(Event.fresh("window_asked", {"holders": holders}, audience=RECORD))

    def _answer(self, s: SetbackState, q: int, block: bool, ev: _Events) -> None:
        """SB-9 amended again: ``q`` answers the open window, BLOCK or pass, at once with the
        others and unseen. The answer is only noted and makes no event: nothing about it shows
        before the window's last answer is in."""
        s.asked.remove(q)
        if block:
            # Kept ascending: the state must not say in what order the answers came.
            s.blockers.append(q)
            s.blockers.sort()
        if s.asked:
            s.pending = tuple(s.asked)
            return
        blockers = s.blockers
        s.blockers = []
        if ev is not None:
            # For the record only (measures): how many answered BLOCK, one of them played.
            ev.append(Event.fresh("window_answered", {"blocks": len(blockers)}, audience=RECORD))
        if not blockers:
            self._close_window(s, ev)
            return
        # Several BLOCKs: the first in seating order after the player whose action is
        # answered plays it (that player itself last, when `self_block` asked it); the other
        # BLOCK cards stay in their owners' hands, unplayed and unseen.
        answered, n = s.stack[-1]["by"], self.n
        self._play_block(s, min(blockers, key=lambda b: (b - answered - 1) % n), ev)

    def _play_block(self, s: SetbackState, q: int, ev: _Events) -> None:
        card = next(c for c in s.hands[q] if c in self._index.blocks)
        s.hands[q].remove(card)  # SB-9: a BLOCK played out of turn is not replaced
        s.stack.append({"by": q, "card": card})
        if ev is not None:
            ev.append(Event.fresh("block_played", {"player": q, "blocks": len(s.stack) - 1}))
        self._open_window(s, ev)  # SB-9: a BLOCK can be blocked in a window of its own

    def _close_window(self, s: SetbackState, ev: _Events) -> None:
        item, blocks = s.stack[0], len(s.stack) - 1
        cancelled = blocks % 2 == 1  # the last played resolves first
        if blocks:
            s.discard.extend([b["card"] for b in s.stack[1:]])
        s.stack = []
        s.asked = []
        if ev is not None:
            # Always, BLOCK or not: when a window closes must not depend on who holds one.
            ev.append(Event.fresh("window_closed", {"blocks": blocks, "cancelled": cancelled}))
        play = item["play"]
        if cancelled:
            if item["source"] == "hand":
                s.discard.append(item["card"])  # a cancelled board card stays on the board
            if ev is not None:
                ev.append(Event.fresh("cancelled", {"player": item["by"], "play": play.to_json()}))
            self._after_effect(s, ev)
            return
        self._resolve(s, item["by"], play, item["source"], item["card"], ev)

    # -- resolution ------------------------------------------------------------------------------

    def _resolve(
        self, s: SetbackState, p: int, play: Play, source: str, card: int, ev: _Events
    ) -> None:
        t = play.card
        kind = t.kind
        from_hand = source == "hand"
        placed_skip = kind == "SKIP" and from_hand and not self.on_block(s, play.target)
        if from_hand and not placed_skip:
            s.discard.append(card)
        if kind == "MOVE":
            move_by(s, p, t.amount, play.lane, ev, "MOVE")
        elif kind == "FOE":
            if self.on_block(s, play.target):
                if ev is not None:
                    ev.append(Event.fresh("no_effect", {"player": play.target, "why": "on BLOCK"}))
            else:
                move_by(s, play.target, t.amount, play.lane, ev, "FOE")
        elif kind == "ALL":
            movers = [
                q
                for q in range(self.n)
                if not self.on_block(s, q) and not (s.row[q] == START and t.amount < 0)
            ]
            s.context = {"kind": "all", "player": p, "amount": t.amount, "left": movers}
            self._next_step(s, ev)
            return
        elif kind == "SHIFT":
            if play.target >= 0:
                q = play.target
                direction = RIGHT if play.lane > s.lane[q] else LEFT
                place(s, q, s.row[q], play.lane, direction, ev, "SHIFT", (), self.cfg.edge_bump)
        elif kind == "TRADE":
            if play.target >= 0:
                a, b = play.target, play.other
                s.row[a], s.row[b] = s.row[b], s.row[a]
                s.lane[a], s.lane[b] = s.lane[b], s.lane[a]
                s.skip_spent[a] = s.skip_spent[b] = False
                if ev is not None:
                    ev.append(Event.fresh("traded", {"a": a, "b": b}))
        elif kind == "CUT":
            if play.target >= 0:
                q, x = play.target, play.other
                # SB-6: an occupant is bumped forward whichever way the cut goes.
                place(s, q, s.row[x] + 1, s.lane[x], FORWARD, ev, "CUT", (), self.cfg.edge_bump)
        elif kind == "DRAW":
            self._draw_cards(s, p, self.cfg.draw_count, ev)
        elif kind == "REVAMP":
            if play.mode.startswith("add"):
                self._add_lane(s, p, play.mode == "add-left", ev)
                return
            if play.mode == "remove":
                self._remove_lane(s, p, play.lane, ev)
                return
        elif kind == "SKIP" and source == "board":
            if ev is not None:
                ev.append(Event.fresh("turn_skipped", {"player": p, "why": "board skip"}))
            s.context = {}
            self._end_turn(s, ev, draw=False)
            return
        elif kind == "SKIP":
            q = play.target
            if self.on_block(s, q):
                if ev is not None:
                    ev.append(Event.fresh("no_effect", {"player": q, "why": "on BLOCK"}))
            else:
                s.skip_cards[q].append(card)
                if ev is not None:
                    ev.append(Event.fresh("skip_placed", {"player": q}))
        self._after_effect(s, ev)

    def _after_effect(self, s: SetbackState, ev: _Events) -> None:
        s.context = {}
        if s.winner >= 0:
            s.phase = OVER
            s.pending = ()
            if ev is not None:
                outcome = self.outcome(s)
                assert outcome is not None
                ev.append(Event.fresh("game_over", outcome.to_json()))
            return
        self._remove_rows(s, ev)
        if s.source == "board":
            self._begin_hand(s, ev)
        else:
            self._continue_hand(s, ev)

    def _remove_rows(self, s: SetbackState, ev: _Events) -> None:
        # SB-8: once every token has passed row 1, it goes (the first two rows only).
        while s.rows_removed < self.cfg.rows_removable and s.rows > 1 and min(s.row) > 0:
            s.discard.extend(s.grid.pop(0))
            s.rows_removed += 1
            for q in range(self.n):
                s.row[q] -= 1
            if ev is not None:
                ev.append(Event.fresh("row_removed", {"removed": s.rows_removed}))

    # -- REVAMP ----------------------------------------------------------------------------------

    def _add_lane(self, s: SetbackState, p: int, left: bool, ev: _Events) -> None:
        column: list[int] = []
        for _ in range(s.rows):
            if not s.draw:
                self._refill(s, ev)  # enough cards was checked when REVAMP was declared
            column.append(s.draw.pop())
        index = 0 if left else s.lanes
        for r, card in enumerate(column):
            s.grid[r].insert(index, card)
        if left:
            for q in range(self.n):
                if s.row[q] >= 0 and s.row[q] < s.rows:
                    s.lane[q] += 1
        if ev is not None:
            ev.append(Event.fresh("lane_added", {"player": p, "lane": index}))
        s.context = {"kind": "join", "player": p, "lane": index}
        self._next_step(s, ev)

    def _remove_lane(self, s: SetbackState, p: int, lane: int, ev: _Events) -> None:
        for r in range(s.rows):
            s.discard.append(s.grid[r].pop(lane))
        displaced = sorted(
            (q for q in range(self.n) if s.row[q] >= 0 and s.lane[q] == lane),
            key=lambda q: s.row[q],
        )
        for q in range(self.n):
            if s.row[q] >= 0 and s.lane[q] > lane:
                s.lane[q] -= 1
        for q in displaced:
            s.lane[q] = START  # off the board until placed; its row is kept
        if ev is not None:
            # A copy: the list itself becomes the context's queue, emptied as tokens are placed.
            moved = {"player": p, "lane": lane, "displaced": displaced[:]}
            ev.append(Event.fresh("lane_removed", moved))
        s.context = {"kind": "place", "player": p, "left": displaced}
        self._next_step(s, ev)

    # -- choices while a card resolves -----------------------------------------------------------

    def _step_options(self, s: SetbackState) -> tuple[Step, ...]:
        ctx = s.context
        kind = ctx["kind"]
        step = self._step_of
        if kind == "all":
            out: list[Step] = []
            for q in ctx["left"]:
                if s.row[q] == START:
                    out += [step(q, ln) for ln in range(s.lanes)]
                else:
                    out.append(step(q))
            return tuple(out)
        if kind == "place":
            q = ctx["left"][0]
            taken = {s.lane[o] for o in range(self.n) if o != q and s.row[o] == s.row[q]}
            return tuple(step(q, ln) for ln in range(s.lanes) if ln not in taken)
        p, lane = ctx["player"], ctx["lane"]
        return (step(p, lane), step(p, -1))

    def _step_of(self, token: int, lane: int = -1) -> Step:
        step = self._steps.get((token, lane))
        return step if step is not None else Step(token, lane)

    def _next_step(self, s: SetbackState, ev: _Events) -> None:
        ctx = s.context
        while True:
            if ctx["kind"] in ("all", "place") and not ctx["left"]:
                self._after_effect(s, ev)
                return
            options = self._step_options(s)
            if len(options) == 1:
                self._take_step(s, options[0], ev)
                return
            s.phase = STEP
            s.pending = (ctx["player"],)
            return

    def _take_step(self, s: SetbackState, step: Step, ev: _Events) -> None:
        ctx = s.context
        kind = ctx["kind"]
        q = step.token
        if kind == "all":
            ctx["left"].remove(q)
            # Tokens still to move are in transit: they cannot be bumped (SB-5).
            move_by(s, q, ctx["amount"], step.lane, ev, "ALL", transit=set(ctx["left"]))
            if s.winner >= 0:
                # SB-5: every token still moves; the first in the order to reach FINISH has won,
                # so the rest move in seat order (entering lane 1) without asking.
                while ctx["left"]:
                    q = ctx["left"].pop(0)
                    move_by(s, q, ctx["amount"], 0, ev, "ALL", transit=set(ctx["left"]))
                self._after_effect(s, ev)
                return
        elif kind == "place":
            ctx["left"].remove(q)
            s.lane[q] = step.lane
            s.skip_spent[q] = False
            if ev is not None:
                ev.append(Event.fresh("token_placed", {"player": q, "to": [s.row[q], step.lane]}))
        else:
            if step.lane >= 0:
                row = 0 if s.row[q] == START else s.row[q]
                place(s, q, row, step.lane, FORWARD, ev, "REVAMP")
            s.context = {}
            self._after_effect(s, ev)
            return
        self._next_step(s, ev)

    # -- outcome and views -----------------------------------------------------------------------

    def _names(self, cards: list[int]) -> list[str]:
        names = self._card_names
        return [names[c] for c in cards]

    def progress(self, state: SetbackState) -> tuple[float, ...]:
        """How far each token got: 0 on START, ``row + 1`` on a card, ``rows + 1`` at FINISH
        (rows as the board has them now, SB-8)."""
        rows = state.rows
        return tuple(
            float(rows + 1) if r >= rows or q == state.winner else float(r + 1)
            for q, r in enumerate(state.row)
        )

    def outcome(self, state: SetbackState) -> Outcome | None:
        """The first to reach FINISH wins; the others rank by how far they got. A game ended by
        ``max_moves`` ranks everyone by progress: the farthest win, together if tied."""
        if state.phase != OVER:
            return None
        progress = self.progress(state)
        if state.winner >= 0:
            keys = [
                0.0 if q == state.winner else 2.0 + state.rows - progress[q] for q in range(self.n)
            ]
            winners = frozenset({state.winner})
        else:
            keys = [-p for p in progress]
            best = min(keys)
            winners = frozenset(q for q in range(self.n) if keys[q] == best)
        ranks = tuple(1 + sum(1 for k in keys if k < key) for key in keys)
        return Outcome(scores=progress, ranks=ranks, winners=winners, names=self.seat_names())

    def scores(self, state: SetbackState) -> tuple[float, ...]:
        """The scoreboard: each token's progress (see :meth:`progress`)."""
        return self.progress(state)

    def phase_name(self, state: SetbackState) -> str:
        """``board``, ``hand``, ``window``, ``step`` or ``over``."""
        return state.phase

    def public_acting(self, state: SetbackState) -> tuple[int, ...]:
        """Who acts, as everyone may know it: nobody during a BLOCK window (SB-9)."""
        return () if state.phase == WINDOW else state.pending

    def describe_waiting(self, state: SetbackState) -> str:
        """Who or what the game waits for, in public words."""
        if state.phase == OVER:
            return "the game is over"
        names = self.seat_names()
        if state.phase == WINDOW:
            return (
                f"a BLOCK window is open on {names[state.current]}'s turn: every player who "
                "may answer is asked"
            )
        what = {BOARD: "Board Action", HAND: "Hand Action", STEP: "a card is resolving"}
        acting = " and ".join(names[q] for q in state.pending)
        return f"waiting for {acting} ({what[state.phase]})"

    def observe(self, state: SetbackState, seat: int | None) -> SetbackView:
        """``seat``'s view (its own hand only) or the spectator view (``None``).

        The view shares nothing with the state: every part is a fresh immutable value.
        """
        return self._view(state, seat, with_header=True)

    def observe_without_header(self, state: SetbackState, seat: int | None) -> SetbackView:
        """:meth:`observe` with :data:`~racedeck.core.header.NO_HEADER` for a header, which it
        does not build (see :meth:`Game.observe_without_header`)."""
        return self._view(state, seat, with_header=False)

    def _view(self, state: SetbackState, seat: int | None, with_header: bool) -> SetbackView:
        if seat is not None:
            seat = self.check_seat(seat)
        window = state.phase == WINDOW
        declared = state.stack[0] if state.stack else None
        names = self._card_names
        return SetbackView(
            header=self.header(state, seat) if with_header else NO_HEADER,
            seat=seat,
            players=self.n,
            grid=tuple(tuple(names[c] for c in r) for r in state.grid),
            rows_removed=state.rows_removed,
            tokens=tuple((state.row[q], state.lane[q]) for q in range(self.n)),
            protected=tuple(self.on_block(state, q) for q in range(self.n)),
            hand=self._hand(state, seat) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in state.hands),
            draw_size=len(state.draw),
            discard=tuple(names[c] for c in state.discard),
            skips=tuple(len(k) for k in state.skip_cards),
            skip_cards=tuple(tuple(names[c] for c in k) for k in state.skip_cards),
            skip_spent=tuple(state.skip_spent),
            current=state.current,
            phase=state.phase,
            source=state.source,
            hand_played=state.hand_played,
            nonfree_played=state.nonfree_played,
            window_open=window,
            declared=None
            if declared is None
            else freeze(
                {
                    "player": declared["by"],
                    "source": declared["source"],
                    "play": declared["play"].to_json(),
                }
            ),
            blocks=tuple(b["by"] for b in state.stack[1:]),
            block_cards=tuple(names[b["card"]] for b in state.stack[1:]),
            answer=self._own_answer(state, seat),
            context=freeze(state.context),
            to_act=None if window or state.phase == OVER else state.pending[0],
            winner=state.winner,
            legal_actions=self.legal_actions(state, seat) if seat is not None else (),
        )

    def seat_view_json(self, state: SetbackState, seat: int) -> JSONObject:
        """The keys of ``seat``'s JSON view that are its own (see :meth:`Game.views_json`):
        ``seat``, ``hand``, ``answer`` (SB-9) and ``legal_actions``."""
        seat = self.check_seat(seat)
        return own_json(
            seat,
            self._hand(state, seat),
            self._own_answer(state, seat),
            self.legal_actions(state, seat),
        )

    def _hand(self, state: SetbackState, seat: int) -> tuple[str, ...]:
        names = self._card_names
        return tuple(names[c] for c in state.hands[seat])

    def _own_answer(self, state: SetbackState, seat: int | None) -> str:
        """What ``seat`` answered in the open window (``block`` or ``pass``); ``""`` while it
        is still asked, when it is not asked, outside a window and for a spectator. A seat
        knows its own answer; nobody else sees it (SB-9 amended again)."""
        if seat is None or state.phase != WINDOW or seat in state.asked:
            return ""
        if seat in state.blockers:
            return "block"
        return "pass" if seat in self._window_asked(state) else ""

    def sample_state(self, view: SetbackView, rng: Rng) -> SetbackState:
        """A full state that ``view`` allows: the other hands, the draw pile's order, who is
        still asked in a BLOCK window and what the others already answered, and the state's
        RNG drawn from ``rng`` (see :mod:`racedeck.games.setback.sampler`)."""
        return self._sampler.sample(view, rng)

    def conceals(self, state: SetbackState, seat: int, action: SetbackAction) -> bool:
        """Every answer in a BLOCK window, BLOCK or pass, is concealed: the asked seats answer
        at once and nobody learns who was asked, who answered or how before the window's last
        answer is in (SB-9 amended again); a BLOCK played then is seen as the window's outcome.
        Every other action is seen as it is taken."""
        return state.phase == WINDOW

    # -- forms -----------------------------------------------------------------------------------

    def action_from_json(self, obj: JSONObject) -> SetbackAction:
        """Parse an action's JSON form; malformed forms raise
        :class:`~racedeck.core.errors.InvalidMessage`."""
        return action_from_json(obj)

    def parse_action(self, text: str, view: SetbackView) -> SetbackAction:
        """Parse the text form of one of ``view``'s legal actions (as ``str(action)`` writes
        it), from the view alone."""
        legal = view.legal_actions
        wanted = " ".join(text.strip().lower().split())
        for action in legal:
            if str(action).lower() == wanted:
                return action
        parsed = parse_text(text)
        if parsed is not None and parsed in legal:
            return parsed
        if view.header.terminal:
            reason = "the game is over"
        elif not legal:
            reason = "this seat is not asked to act now"
        elif parsed is None:
            reason = f"cannot read {text!r} as an action"
        else:
            reason = "not one of the choices offered now"
        raise self.refuse(view, parsed, reason)

    def state_from_json(self, obj: JSONObject) -> SetbackState:
        """Rebuild a state from its JSON form; raise :class:`ValueError` naming what is wrong
        when it is not a state of this game (wrong players, cards not of this deck)."""
        s = SetbackState.from_json(obj)
        if s.players != self.n:
            raise ValueError(f"not a state of this game: {s.players} players, not {self.n}")
        cards = [c for r in s.grid for c in r] + s.draw + s.discard
        cards += [c for h in s.hands for c in h] + [c for k in s.skip_cards for c in k]
        cards += [i["card"] for i in s.stack if i.get("source") != "board"]
        if sorted(cards) != list(range(len(self.types))):
            raise ValueError("not a state of this game: its cards are not this deck, once each")
        if not s.grid or any(len(r) != len(s.grid[0]) for r in s.grid):
            raise ValueError("not a state of this game: the board is not a grid of rows")
        # SB-9 amended again: a BLOCK answered stays in its owner's hand until the window's
        # last answer is in; no answer outlives its window.
        if s.blockers and s.phase != WINDOW:
            raise ValueError("not a state of this game: BLOCKs answered outside a window")
        if any(self._index.blocks.isdisjoint(s.hands[q]) for q in s.blockers):
            raise ValueError("not a state of this game: a seat answered BLOCK without one")
        return s

    def view_from_json(self, obj: JSONObject) -> SetbackView:
        """Rebuild a view from its JSON form."""
        return SetbackView.from_json(obj)

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        """One line of plain words for ``event``."""
        return narrate.describe(event, tuple(names) if names is not None else self.seat_names())

    def describe_action(self, action: SetbackAction, names: Sequence[str] | None = None) -> str:
        """The action in words."""
        return narrate.describe_action(
            action, tuple(names) if names is not None else self.seat_names()
        )

    # -- explanations ----------------------------------------------------------------------------

    def describe_situation(self, s: SetbackState) -> str:
        """Where the game stands, for error messages (in public terms)."""
        if s.phase == OVER:
            return "the game is over"
        what = {
            BOARD: "Board Action",
            HAND: "Hand Action",
            WINDOW: "a BLOCK window is open",
            STEP: "a card is resolving",
        }[s.phase]
        return f"P{s.current + 1}'s turn, {what}"

    def why_illegal(self, s: SetbackState, seat: int, action: object) -> str:
        """Why ``action`` is not legal for ``seat`` now, in words."""
        if s.phase == OVER:
            return "the game is over"
        if seat not in s.pending:
            return "this seat is not asked to act now"
        if isinstance(action, Block) and s.phase == WINDOW:
            return "no BLOCK card in hand"
        if isinstance(action, Play) and s.phase == HAND:
            if not any(self.types[c] == action.card for c in s.hands[seat]):
                return f"no {action.card.name} card in hand"
            if action.card.kind == "BLOCK":
                return "BLOCK is only played to cancel an action, out of turn"
            if s.nonfree_played and not action.card.free:
                return "only FREE cards may follow the one non-FREE card of a Hand Action"
            return "that card cannot be declared with these targets"
        if isinstance(action, EndHand):
            return "at least one card must be played in the Hand Action"
        return "not one of the choices offered now"
