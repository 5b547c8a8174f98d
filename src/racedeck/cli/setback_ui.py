"""*Setback* in the terminal: the board as the table shows it, hands, BLOCK windows, choices.

The board is drawn as the players see it from their chairs: FINISH at the top, the rows from
the last down to row 1, START at the bottom with the tokens waiting there. Lanes are columns;
every card shows its face in the colour of its kind (green plus, red minus, one colour per
action, BLOCK and SKIP on a background) and a token standing on it as its seat number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from racedeck.cli.prompt import Choice, Prompter, Undo, match_choice, normalise
from racedeck.cli.setback_input import Typed, matches, read_typed
from racedeck.cli.terminal_ui import TerminalUI, second_person
from racedeck.core.events import Event
from racedeck.core.frozen import thaw
from racedeck.core.game import Game
from racedeck.games.setback.actions import (
    Block,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    SetbackAction,
    Step,
    action_from_json,
)
from racedeck.games.setback.cards import MOVEMENT_KINDS, parse_card_type
from racedeck.games.setback.preview import landing, protected
from racedeck.games.setback.view import SetbackView

__all__ = ["SetbackUI", "card_style", "typed_form"]

SEAT_COLOURS = ("bright_red", "bright_blue", "bright_green", "yellow", "magenta", "cyan")
"""One colour per seat, for tokens and names."""

ACTION_STYLES = {
    "SHIFT": "bold cyan",
    "TRADE": "bold magenta",
    "CUT": "bold dark_orange",
    "DRAW": "bold bright_blue",
    "REVAMP": "bold bright_white",
    "SKIP": "bold black on yellow",
    "BLOCK": "bold bright_white on blue",
}
"""The colour of each action card; BLOCK and SKIP stand out on a background."""

PHASES = {
    "board": "Board Action",
    "hand": "Hand Action",
    "window": "BLOCK window",
    "step": "a card is resolving",
    "over": "game over",
}
"""The phase of a turn in words."""

LABEL = 7
"""Columns of the row labels on the left of the board (``FINISH``, ``row 6``, ``START``)."""

FACE = 7
"""Columns of the longest card face (``MOVE+1*``)."""

FOLD_AT = 6
"""A card with more choices than this is shown folded by target (``Bot 2 to lane: 1) 1 …``)."""

FREE_LEGEND = "* FREE: playable besides your one card"
"""What the star on a card means, next to a hand that holds one (SB-3)."""

BOARD_FREE_LEGEND = "* = FREE only in a hand"
"""What a star on the board means (SB-3: a FREE card under a token acts as an ordinary one)."""

EVENT_LINES = 3
"""Lines kept free above a menu for what happened since the last question (80×24 in mind)."""


def card_style(face: str) -> str:
    """The colour of a card face: green for plus, red for minus, one per action kind."""
    try:
        card = parse_card_type(face)
    except ValueError:
        return ""
    if card.kind in MOVEMENT_KINDS:
        colour = "green" if card.amount > 0 else "red"
        return f"bold {colour}" if abs(card.amount) > 1 else colour
    return ACTION_STYLES.get(card.kind, "")


_Group = tuple[Text, Sequence[tuple[Any, str, str]]]
"""A heading (a card, a token) and its choices: ``(value, label, sub-heading)``."""


@dataclass(frozen=True)
class _Part:
    """A line of a menu asked in two parts: the card (group) number ``index``, whose own choices
    come next."""

    index: int


def _object_you(line: str) -> str:
    """A player called "You" named after a word, as the object of a sentence, in lower case:
    ``Bot 2 plays SKIP on you``, ``Bot 3 and you trade places`` (the subject keeps its capital)."""
    return re.sub(r"\b([a-z]+) You\b(?!')", r"\1 you", line)


def typed_form(action: object) -> str:
    """How a person would type ``action``: ``TRADE P2 P3``, ``step P2 lane 1``, ``join``."""
    if isinstance(action, Step) and action.lane < 0:
        return f"step P{action.token + 1}"
    return str(action).replace("<>", " ")


def _is_free(face: str) -> bool:
    try:
        return parse_card_type(face).free
    except ValueError:
        return False


class SetbackUI(TerminalUI):
    """Draws the board of lanes and rows and asks for cards, targets, BLOCKs and steps."""

    width = 120
    """Columns available for drawing (set from the console by the caller)."""

    def __init__(self, game: Game[Any, Any, Any], names: Sequence[str]) -> None:
        super().__init__(game, names)
        cfg = getattr(game, "cfg", None)
        self.draw_count = int(getattr(cfg, "draw_count", 2))
        self._answered_block: int | None = None
        """The BLOCKs on the stack when the person here last answered BLOCK, until that window's
        BLOCK is played: theirs, or another's that came first (SB-9 amended again)."""

    # -- small pieces ----------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """The name of ``seat`` at this table."""
        return self.names[seat] if 0 <= seat < len(self.names) else f"P{seat + 1}"

    @staticmethod
    def seat_style(seat: int) -> str:
        """The colour of a seat's name."""
        return f"bold {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}"

    def token(self, seat: int) -> Text:
        """A token as it sits on a card: the seat number, reversed in the seat's colour."""
        return Text(f" {seat + 1} ", style=f"bold reverse {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}")

    def who(self, seat: int) -> Text:
        """Token and name, e.g. `` 2  Bot 2``."""
        text = Text()
        text.append_text(self.token(seat))
        text.append(" ")
        text.append(self.name(seat), style=self.seat_style(seat))
        return text

    def face(self, face: str, width: int = 0) -> Text:
        """A card face in its colour, padded to ``width``."""
        text = Text()
        text.append(face, style=card_style(face))
        if width > len(face):
            text.append(" " * (width - len(face)))
        return text

    @staticmethod
    def where(view: SetbackView, seat: int) -> str:
        """Where a token is, in words: ``START``, ``FINISH``, ``row 3 lane 2``."""
        row, lane = view.tokens[seat]
        if row < 0:
            return "START"
        if row >= view.rows:
            return "FINISH"
        if lane < 0:
            return f"row {row + 1}, off the board"
        return f"row {row + 1} lane {lane + 1}"

    @staticmethod
    def on_block(view: SetbackView, seat: int) -> bool:
        """True when the seat's token stands on a BLOCK card (protected; the view says so)."""
        return protected(view, seat)

    # -- the board -------------------------------------------------------------------------------

    def cell_width(self, lanes: int, width: int | None = None) -> int:
        """Columns of one card on the board: wide enough for face and token, fitting ``width``."""
        width = self.width if width is None else width
        room = (width - LABEL - 1) // max(lanes, 1) - 1
        return max(FACE + 4, min(14, room))

    def render_board(self, view: SetbackView) -> RenderableType:
        """FINISH on top, the rows from the last down to row 1, START (with its tokens) below."""
        lanes, rows = view.lanes, view.rows
        cell = self.cell_width(lanes)
        inner = lanes * (cell + 1) - 1
        on_card: dict[tuple[int, int], int] = {}
        at_start: list[int] = []
        at_finish: list[int] = []
        for seat, (row, lane) in enumerate(view.tokens):
            if row < 0:
                at_start.append(seat)
            elif row >= rows:
                at_finish.append(seat)
            elif lane >= 0:
                on_card[(row, lane)] = seat
        lines: list[Text] = []
        header = Text(" " * (LABEL + 1))
        for lane in range(lanes):
            header.append(f"lane {lane + 1}".center(cell) + " ", style="dim")
        lines.append(header)
        lines.append(self._end_line("FINISH", at_finish, inner, "bold"))
        for row in range(rows - 1, -1, -1):
            line = Text()
            line.append(f"row {row + 1}".ljust(LABEL), style="dim")
            line.append("│", style="dim")
            for lane in range(lanes):
                line.append_text(
                    self._card_cell(view.grid[row][lane], on_card.get((row, lane)), cell)
                )
                line.append("│", style="dim")
            lines.append(line)
        lines.append(self._end_line("START", at_start, inner, "bold"))
        if view.rows_removed:
            # SB-8: said once, beside the lane numbers when there is room for it.
            rows_word = "row" if view.rows_removed == 1 else "rows"
            note = f"START moved up {view.rows_removed} {rows_word}"
            if header.cell_len + len(note) <= self.width:
                header.append(note, style="dim")
            else:
                lines.append(Text(f"{' ' * (LABEL + 1)}{note}", style="dim"))
        if any(face.endswith("*") for row in view.grid for face in row):
            # Where there is room; ? and the Board Action's question say it as well.
            gap = 2 if header.plain.endswith(" ") else 4
            if header.cell_len + gap + len(BOARD_FREE_LEGEND) <= self.width:
                header.append(" " * gap + BOARD_FREE_LEGEND, style="dim")
        return Group(*lines)

    def _card_cell(self, face: str, seat: int | None, cell: int) -> Text:
        body = self.face(face, FACE)
        body.append(" ")
        body.append_text(self.token(seat) if seat is not None else Text("   "))
        pad = cell - body.cell_len
        left = pad // 2
        out = Text(" " * left)
        out.append_text(body)
        out.append(" " * (pad - left))
        return out

    def _end_line(self, label: str, seats: list[int], inner: int, style: str) -> Text:
        """``START ╞══ 1 You  2 Bot 2 ═══╡``: tokens with names, or only numbers when narrow."""
        for named in (True, False):
            bar = Text()
            bar.append("══", style="dim")
            for seat in seats:
                bar.append(" ")
                bar.append_text(self.who(seat) if named else self.token(seat))
            if seats:
                bar.append(" ")
            if bar.cell_len <= inner:
                break
        line = Text()
        line.append(label.ljust(LABEL), style=style)
        line.append("╞", style="dim")
        line.append_text(bar)
        if inner > bar.cell_len:
            line.append("═" * (inner - bar.cell_len), style="dim")
        line.append("╡", style="dim")
        return line

    # -- around the board ------------------------------------------------------------------------

    def player_entry(self, view: SetbackView, seat: int, where: bool = True) -> Text:
        """One player in a line: turn mark, token and name, SKIPs in front, and either where
        the token is (``where``: no board above) or the cards in hand (the board shows where)."""
        text = Text("▶" if seat == view.current and view.phase != "over" else " ", style="bold")
        text.append_text(self.who(seat))
        if where:
            text.append(f" {self.where(view, seat)}")
        if self.on_block(view, seat):
            text.append(" ")
            text.append("on BLOCK", style=ACTION_STYLES["BLOCK"])
        if not where:  # a window's line (``where``) leaves the hands out: it is about the board
            cards = view.hand_sizes[seat]
            text.append(f"  {cards} card{'s' if cards != 1 else ''}", style="dim")
        if view.skips[seat]:
            text.append(" ")
            text.append(f"SKIP×{view.skips[seat]}", style=ACTION_STYLES["SKIP"])
        return text

    def render_players(self, view: SetbackView, where: bool = True) -> RenderableType:
        """The players side by side, as many to a line as the width allows: where each token is
        (without a board above) or the cards in hand (under the board), SKIPs in front."""
        entries = [self.player_entry(view, seat, where) for seat in range(view.players)]
        widest = max(e.cell_len for e in entries)
        across = max(1, min(len(entries), (self.width + 2) // (widest + 2)))
        across = -(-len(entries) // -(-len(entries) // across))  # rows evenly filled: 3+3, not 5+1
        table = Table.grid(padding=(0, 2))
        for _ in range(across):
            table.add_column()
        for first in range(0, len(entries), across):
            row = entries[first : first + across]
            table.add_row(*row, *[Text("")] * (across - len(row)))
        return table

    def render_hand(self, view: SetbackView, beside: Sequence[Text] = ()) -> Text:
        """The viewer's own cards, what the ``*`` of a FREE card means when one is held, and
        ``beside`` (the piles): packed into as few lines as the width allows."""
        text = Text()
        text.append("Your hand: ", style="bold")
        if not view.hand:
            text.append("(empty)", style="dim")
        for i, face in enumerate(view.hand):
            if i:
                text.append("  ")
            text.append(face, style=card_style(face))
        pieces = [text]
        if any(face.endswith("*") for face in view.hand):
            pieces.append(Text(FREE_LEGEND, style="dim"))
        pieces.extend(piece for piece in beside if piece.plain)
        out = pieces[0]
        line = out.cell_len
        for piece in pieces[1:]:
            if line + 4 + piece.cell_len <= self.width:
                out.append("    ")
                line += 4 + piece.cell_len
            else:
                out.append("\n")
                line = piece.cell_len
            out.append_text(piece)
        return out

    def render_status(self, view: SetbackView) -> Text:
        """The piles, and whose turn it is when the question below does not say it (another
        seat's turn, a spectator)."""
        text = Text()
        if view.phase == "over":
            text.append("Game over   ", style="bold")
        elif view.current != view.seat or not view.legal_actions:
            whose = "Your" if view.current == view.seat else f"{self.name(view.current)}'s"
            text.append(f"{whose} turn", style=self.seat_style(view.current))
            text.append(f" · {PHASES.get(view.phase, view.phase)}   ")
        text.append(f"Draw pile {view.draw_size} · discards {len(view.discard)}", style="dim")
        if view.discard:
            text.append(" (top ", style="dim")
            text.append(view.discard[-1], style=card_style(view.discard[-1]))
            text.append(")", style="dim")
        return text

    def declared_text(self, view: SetbackView) -> Text:
        """What was declared in the open window, by whom, and the BLOCKs played so far."""
        text = Text()
        if view.declared is None:
            return text
        by = int(view.declared["player"])
        play = action_from_json(thaw(view.declared["play"]))
        text.append_text(self.declaration(by, view.declared["source"], play))
        if isinstance(play, Play) and (effect := self.effect(view, by, play)):
            text.append(f" {effect}", style="bold" if "FINISH" in effect else "")
        if view.blocks:
            text.append(" — BLOCKed by ")
            for i, seat in enumerate(view.blocks):
                if i:
                    text.append(", then ")
                text.append(self.name(seat), style=self.seat_style(seat))
        return text

    def effect(self, view: SetbackView, seat: int, play: Play) -> str:
        """Where a declared movement card would put its token, as ``→ row 3`` (for a window:
        what a BLOCK would cancel); empty for other cards, whose declaration says it all."""
        kind, amount = play.card.kind, play.card.amount
        if kind == "MOVE":
            return self._dest(view, seat, amount, entry=play.lane >= 0).strip()
        if kind == "FOE" and play.target >= 0 and not self.on_block(view, play.target):
            return self._dest(view, play.target, amount, entry=play.lane >= 0).strip()
        return ""

    def declaration(self, seat: int, source: str, play: Play | Any) -> Text:
        """``Bot 2 plays FOE-2 on You`` or ``Bot 2's Board Action: SHIFT …`` (coloured)."""
        you = self.name(seat) == "You"
        text = Text()
        if source == "board":
            text.append("Your" if you else f"{self.name(seat)}'s", style=self.seat_style(seat))
            text.append(" Board Action: ")
        else:
            text.append(self.name(seat), style=self.seat_style(seat))
            text.append(" play " if you else " plays ")
        described = self.game.describe_action(play, self.names)
        text.append(_object_you(described) if "You" in self.names else described, style="bold")
        return text

    def render(self, view: SetbackView) -> RenderableType:
        """The whole table as the viewer sees it: board, players, piles, own hand.

        When the viewer is asked in a BLOCK window the board is left out: nothing has moved
        since it was last drawn but what the narration says, and a person holding a BLOCK is
        asked after every declaration (SB-9), so a board each time would scroll the game away.
        The players' line says where everyone stands; the question says what was declared.
        """
        if view.window_open and view.legal_actions:
            parts: list[RenderableType] = [self.render_players(view)]
            if view.seat is not None:
                parts.append(self.render_hand(view))
            return Group(*parts)
        parts = [self.render_board(view), self.render_players(view, where=False)]
        status = self.render_status(view)
        if view.window_open and view.declared is not None:
            parts.append(status)
            line = Text()
            line.append("BLOCK window · ", style="bold")
            line.append_text(self.declared_text(view))
            parts.append(line)
            status = Text()
        if view.seat is not None:  # the piles beside the hand when they fit
            parts.append(self.render_hand(view, [status]))
        elif status.plain:
            parts.append(status)
        return Group(*parts)

    def render_sheet(self, view: SetbackView) -> RenderableType | None:
        """None: a race to FINISH keeps no score, and the board's player lines already say
        where everyone stands (:meth:`render_players`)."""
        return None

    # -- events ----------------------------------------------------------------------------------

    def visible_events(self, events: Sequence[Event]) -> list[Event]:
        """Leave out the noise: ``window_opened`` (a window opens after every declaration, SB-9;
        when you may answer, you are asked; BLOCKs are narrated as they come), ``window_closed``
        when nobody BLOCKed or the ``cancelled`` line follows, and what only the record keeps.

        The cards drawn by the player called "You" are named (``You draw ALL+2, BLOCK.``)
        instead of counted; nobody else's are."""
        hidden = ("window_opened", "window_asked", "card_committed")
        me = self.seat
        mine = [e for e in events if e.kind == "cards_received" and e.audience == me]
        drawn = {int(e.data["player"]) for e in mine}
        return [
            e
            for e in events
            if e.kind not in hidden
            and (e.is_public or e in mine)
            and not (e.kind == "window_closed" and (e.data["cancelled"] or not e.data["blocks"]))
            and not (e.kind == "cards_drawn" and e.data["player"] in drawn)
        ]

    def describe_events(self, events: Sequence[Any]) -> list[str]:
        """One line per event, in the second person for a player called "You". Only what the
        table sees: public events, and the private ones of the seat called "You".

        When the person here answered BLOCK and another player's BLOCK is the one played, a
        line says why their own stays in their hand (SB-9 amended again: of several BLOCKs
        answered at once, the first in seating order after the player answered is played)."""
        me = self.seat
        events = [e for e in events if e.visible_to(me)]
        lines: list[str] = []
        for e in events:
            if e.kind == "declared":
                play = action_from_json(e.data["play"])
                line = self.declaration(e.data["player"], e.data["source"], play).append(".").plain
            else:
                line = self.game.describe_event(e, self.names)
            lines.append(_object_you(second_person(line)) if "You" in self.names else line)
            kept = self._kept_block(e)
            if kept:
                lines.append(kept)
        return lines

    def _kept_block(self, event: Event) -> str:
        """The line for a BLOCK the person here answered but another player's came first."""
        answered = self._answered_block
        if answered is None:
            return ""
        if event.kind == "game_over":
            self._answered_block = None
        if event.kind != "block_played" or event.data["blocks"] != answered + 1:
            return ""
        self._answered_block = None
        by = int(event.data["player"])
        if by == self.seat:
            return ""
        return (
            f"{self.name(by)} BLOCKed as well and comes first in seating order: your BLOCK is "
            "not played and stays in your hand."
        )

    # -- asking ----------------------------------------------------------------------------------

    def play_label(self, view: SetbackView, play: Play) -> str:
        """A short description of a Play under its card: the target, lane, and what happens."""
        kind, amount = play.card.kind, play.card.amount
        me = view.seat if view.seat is not None else view.current
        if kind == "MOVE":
            if play.lane >= 0:
                return f"enter lane {play.lane + 1}" + self._dest(view, me, amount, entry=True)
            return "yourself" + self._dest(view, me, amount)
        if kind == "FOE":
            text = self.name(play.target)
            if play.lane >= 0:
                text += f" into lane {play.lane + 1}"
            if self.on_block(view, play.target):
                return text + " (on BLOCK: no effect)"
            return text + self._dest(view, play.target, amount, entry=play.lane >= 0)
        if kind == "ALL":
            return f"every token not on BLOCK moves {amount:+d}"
        if kind == "DRAW":
            return f"draw {self.draw_count} cards"
        if kind == "SKIP":
            text = self.name(play.target)
            return text + (" (on BLOCK: no effect)" if self.on_block(view, play.target) else "")
        if play.target < 0 and play.lane < 0 and not play.mode:
            return "no legal target: played for no effect"
        if kind == "SHIFT":
            return f"{self.name(play.target)} → lane {play.lane + 1}"
        if kind == "TRADE":
            return f"{self.name(play.target)} ⇄ {self.name(play.other)}"
        if kind == "CUT":
            return f"{self.name(play.target)} in front of {self.name(play.other)}"
        if kind == "REVAMP":
            if play.mode == "remove":
                return f"remove lane {play.lane + 1}"
            return f"add a lane on the {play.mode.removeprefix('add-')}"
        return self.game.describe_action(play, self.names)

    @staticmethod
    def _dest(view: SetbackView, seat: int, amount: int, entry: bool = False) -> str:
        land = landing(view, seat, amount, entry)
        if not land.moves:
            return " (on START: no effect)"
        return " → FINISH!" if land.where == "FINISH" else f" → {land.where}"

    def step_label(self, view: SetbackView, step: Step) -> str:
        """A short description of a Step (ALL order, REVAMP placements)."""
        kind = view.context.get("kind")
        if kind == "all":
            if step.lane >= 0:
                return f"lane {step.lane + 1}"
            return "move" + self._dest(view, step.token, int(view.context.get("amount", 0)))
        if kind == "place":
            return f"lane {step.lane + 1}"
        if step.lane >= 0:
            return f"move into lane {step.lane + 1}"
        return "stay where you are"

    def play_split(self, view: SetbackView, play: Play) -> tuple[str, str] | None:
        """A Play as (sub-heading, short label), to fold long menus: ``Bot 2 to lane:`` ``3``."""
        kind, amount = play.card.kind, play.card.amount
        if kind in ("MOVE", "FOE") and play.lane >= 0:
            who = self.name(play.target) if kind == "FOE" else "you"
            verb = "enters" if kind == "FOE" and who != "You" else "enter"
            where = f"row {amount}" if amount <= view.rows else "FINISH (!)"
            return f"{who} {verb} {where} in lane:", str(play.lane + 1)
        if kind == "SHIFT" and play.target >= 0:
            return f"{self.name(play.target)} to lane:", str(play.lane + 1)
        if kind == "CUT" and play.target >= 0:
            return f"{self.name(play.target)} in front of:", self.name(play.other)
        if kind == "TRADE" and play.target >= 0:
            return f"{self.name(play.target)} ⇄", self.name(play.other)
        return None

    def menu(self, view: SetbackView) -> list[tuple[Text, list[tuple[SetbackAction, str, str]]]]:
        """The legal actions grouped under a heading (a card, a token): ``(action, label,
        sub-heading)``. A card with many choices is folded by target under sub-headings."""
        groups: dict[object, tuple[Text, list[tuple[SetbackAction, str, str]]]] = {}
        splits: dict[object, list[tuple[str, str] | None]] = {}
        for action in view.legal_actions:
            key: object
            split = None
            if isinstance(action, Play):
                key, label = action.card, self.play_label(view, action)
                heading = self.face(action.card.name)
                split = self.play_split(view, action)
            elif isinstance(action, Step) and view.context.get("kind") == "join":
                key, label = "join", self.step_label(view, action)
                heading = Text("REVAMP", style=card_style("REVAMP"))
            elif isinstance(action, Step):
                key, label = ("token", action.token), self.step_label(view, action)
                heading = self._step_heading(view, action.token)
            elif isinstance(action, Block | Pass):
                key, label = "window", "BLOCK it" if isinstance(action, Block) else "pass"
                heading = Text()
            elif isinstance(action, DiscardBlock):
                key, label = "other", self.game.describe_action(action, self.names)
                heading = self.face("BLOCK")
            else:
                key, label = "other", self.game.describe_action(action, self.names)
                heading = Text("or", style="dim")
            groups.setdefault(key, (heading, []))[1].append((action, label, ""))
            splits.setdefault(key, []).append(split)
        out = []
        for key, (heading, options) in groups.items():
            parts = splits[key]
            if len(options) > FOLD_AT and all(parts):
                options = [
                    (action, part[1], part[0])
                    for (action, _, _), part in zip(options, parts, strict=True)
                    if part is not None
                ]
            out.append((heading, options))
        return out

    def _step_heading(self, view: SetbackView, seat: int) -> Text:
        text = self.who(seat)
        row, lane = view.tokens[seat]
        where = f"row {row + 1}" if 0 <= row < view.rows and lane < 0 else self.where(view, seat)
        text.append(f" ({where})", style="dim")
        return text

    def question(self, view: SetbackView) -> Text:
        """What is being asked, in words."""
        legal = view.legal_actions
        text = Text()
        if view.window_open:
            own = view.declared is not None and int(view.declared["player"]) == view.seat
            text.append("BLOCK window: ", style="bold")
            text.append_text(self.declared_text(view))
            asked = (
                "BLOCK the BLOCK?"
                if view.blocks
                else "BLOCK your own action?"
                if own
                else "BLOCK it?"
            )
            text.append(f" — {asked}", style="bold")
            # SB-9: the last BLOCK played resolves first, so each BLOCK undoes the one below it.
            cancels = len(view.blocks) % 2 == 0
            text.append("\n  1) ")
            text.append("[b]lock", style="bold")
            text.append(
                ": cancel the action" if cancels else ": cancel that BLOCK (the action stands)"
            )
            text.append("   2) ")
            text.append("[p]ass", style="bold")
            text.append(": let it stand" if cancels else ": the BLOCK stands")
            return text
        if view.phase == "step":
            ctx = view.context
            kind = ctx.get("kind")
            if kind == "all":
                face = f"ALL{int(ctx.get('amount', 0)):+d}"
                text.append(face, style=card_style(face))
                from_start = any(isinstance(a, Step) and a.lane >= 0 for a in legal)
                text.append(
                    ": who moves next"
                    + (", and into which lane from START?" if from_start else "?"),
                    style="bold",
                )
                return text
            text.append("REVAMP", style=card_style("REVAMP"))
            if kind == "place":
                left = [int(q) for q in ctx.get("left", [])]
                seat = left[0] if left else view.current
                row = view.tokens[seat][0]
                text.append(
                    f": the lane is gone — into which lane of row {row + 1} "
                    + ("do you go?" if self.name(seat) == "You" else f"does {self.name(seat)} go?"),
                    style="bold",
                )
            else:
                lane = int(ctx.get("lane", 0))
                text.append(f": a new lane {lane + 1} — move your token into it?", style="bold")
            return text
        if view.phase == "board":
            row, lane = view.tokens[view.seat if view.seat is not None else view.current]
            face = view.grid[row][lane] if 0 <= row < view.rows and lane >= 0 else "?"
            text.append("Board Action: ", style="bold")
            text.append("the ")
            text.append(face, style=card_style(face))
            text.append(" under your token acts as if you played it")
            # SB-3: a FREE card on the board is an ordinary card.
            text.append(" (its * counts for nothing there). How?" if _is_free(face) else ". How?")
            return text
        text.append("Hand Action: ", style="bold")
        if any(isinstance(a, DiscardBlock) for a in legal):
            text.append("you hold only BLOCK cards — discard one.")
        elif any(isinstance(a, EndHand) for a in legal):
            text.append(
                "more FREE cards, or end?"
                if view.nonfree_played
                else "another card, or end? (one non-FREE card, any FREE ones)"
            )
        else:
            text.append("play one card, plus any FREE ones (marked *, and DRAW).")
        return text

    def render_menu(self, view: SetbackView, width: int | None = None) -> tuple[Text, list[Any]]:
        """The numbered menu as text, and the actions in menu order (number ``i`` is ``[i-1]``)."""
        return self.render_groups(self.menu(view), width)

    def render_groups(
        self,
        groups: Sequence[_Group],
        width: int | None = None,
    ) -> tuple[Text, list[Any]]:
        """Groups of ``(value, label, sub-heading)`` under their headings, numbered from 1:
        the text, and the values in number order."""
        width = self.width if width is None else width
        heading_width = max((g[0].cell_len for g in groups), default=0)
        heading_width = min(heading_width, max(width // 3, 8))
        out = Text()
        order: list[Any] = []
        for heading, options in groups:
            room = max(width - heading_width - 3, 20)
            lines: list[Text] = []
            indent = 0
            previous = None
            for action, label, sub in options:
                order.append(action)
                item = Text()
                item.append(f"{len(order)})", style="bold")
                item.append(f" {label}")
                if not lines or sub != previous:
                    lines.append(Text())
                    if sub:
                        lines[-1].append(sub + " ", style="italic")
                    indent = lines[-1].cell_len
                    previous = sub
                current = lines[-1]
                if current.cell_len > indent and current.cell_len + 3 + item.cell_len > room:
                    lines.append(Text(" " * indent))
                    current = lines[-1]
                if current.cell_len > indent:
                    current.append("   ")
                current.append_text(item)
            for i, line in enumerate(lines):
                row = Text("  ")
                if i == 0:
                    head = heading.copy()
                    head.truncate(heading_width)
                    row.append_text(head)
                    row.append(" " * (heading_width - head.cell_len))
                else:
                    row.append(" " * heading_width)
                row.append(" ")
                row.append_text(line)
                if out.cell_len:
                    out.append("\n")
                out.append_text(row)
        return out, order

    def fold(self, groups: Sequence[_Group], width: int, room: int) -> list[_Group]:
        """The first part of a menu too long for ``room`` lines: the cards (or tokens) with the
        most lines are folded, one by one, into a line ``N choices…`` that opens their own
        menu, until the menu fits (or every card with several choices is folded)."""
        out = list(groups)
        while len(self.render_groups(out, width)[0].plain.splitlines()) > room:
            open_ones = [
                i
                for i, (_, options) in enumerate(out)
                if len(options) > 1 and not isinstance(options[0][0], _Part)
            ]
            if not open_ones:
                break
            lines = {
                i: len(self.render_groups([out[i]], width)[0].plain.splitlines()) for i in open_ones
            }
            widest = max(open_ones, key=lambda i: (lines[i], len(out[i][1])))
            heading, options = out[widest]
            out[widest] = (heading, [(_Part(widest), f"{len(options)} choices…", "")])
        return out

    def forms_help(self, view: SetbackView, order: Sequence[Any]) -> str:
        """What the menu prompt accepts (shown by ``?``), for the choices on screen now."""
        examples: dict[str, str] = {}
        me = view.seat if view.seat is not None else view.current
        for action in view.legal_actions:
            if isinstance(action, Play):
                key = action.card.name
            elif isinstance(action, Step):
                key = f"step {action.lane >= 0}"
            else:
                key = type(action).__name__
            examples.setdefault(key, typed_form(action))
        if view.phase == "step" and view.context.get("kind") == "join":
            examples = {"join": "join (into the new lane)", "stay": "stay"}
        players = ", ".join(
            f"P{seat + 1} = {self.name(seat)}"
            + (" (or you)" if seat == me and self.name(seat).lower() != "you" else "")
            for seat in range(view.players)
        )
        lines = [
            f"Type a number from 1 to {len(order)}, or the choice as text, e.g. "
            + " · ".join(examples.values())
            + ".",
            "Leave out a player or lane that only one choice fits (MOVE+1 alone when only one "
            "lane is open); case and spaces do not matter.",
            f"Players: {players} (board label or name). Lanes: lane 1 to lane {view.lanes}, or L1.",
            "* marks a FREE card: any number of FREE cards may be played besides your one "
            "non-FREE card (on the board a * counts for nothing).",
        ]
        return "\n".join(lines)

    def ask_action(self, view: SetbackView, prompter: Prompter) -> Any:
        """Ask by menu number or by the action's text form; a window is a plain block/pass.

        A menu too long for the screen is asked in two parts for its longest cards, the card
        and then its target or lane; ``undo`` at the second part goes back to the first."""
        console = prompter.console
        if view.window_open:
            return self.ask_window(view, prompter)
        console.print(self.question(view))
        groups = self.menu(view)
        first = self.fold(groups, console.width, self.menu_room(view, console))
        return self.ask_in_parts(view, prompter, groups, first)

    def menu_room(self, view: SetbackView, console: Console) -> int:
        """Lines left for the menu under the table and question, keeping a few for events."""
        used = len(console.render_lines(Group(self.render(view), self.question(view))))
        return max(console.height - used - 1 - EVENT_LINES, 4)

    @staticmethod
    def prompt_text(order: Sequence[Any], view: SetbackView | None = None) -> str:
        """``Your choice (1-8, or text like FOE-2 P2): ``; ``join or stay`` after REVAMP."""
        if view is not None and view.phase == "step" and view.context.get("kind") == "join":
            return f"Your choice (1-{len(order)}, or join / stay): "
        example = next((typed_form(a) for a in order if not isinstance(a, _Part)), "")
        return f"Your choice (1-{len(order)}, or text like {example}): "

    def ask_in_parts(
        self,
        view: SetbackView,
        prompter: Prompter,
        groups: Sequence[_Group],
        first: Sequence[_Group],
    ) -> Any:
        """Ask from the menu ``first``; a folded card (``N choices…``) opens the menu of its
        choices, where ``undo`` goes back. Text naming one whole choice is taken at once."""
        console = prompter.console
        while True:
            menu, order = self.render_groups(first, console.width)
            console.print(menu)
            picked = self.read_choice(view, prompter, order, self.prompt_text(order, view))
            if not isinstance(picked, _Part):
                return picked
            heading, options = groups[picked.index]
            sub_menu, sub_order = self.render_groups([(heading, options)], console.width)
            console.print(sub_menu)
            try:
                return self.read_choice(
                    view,
                    prompter,
                    sub_order,
                    f"Which {heading.plain}? (1-{len(sub_order)}, undo for another card): ",
                    undo=True,
                )
            except Undo:
                console.print(self.question(view))

    def read_choice(
        self,
        view: SetbackView,
        prompter: Prompter,
        order: Sequence[Any],
        prompt: str,
        undo: bool = False,
    ) -> Any:
        """Read one of ``order`` (by number) or a legal action (by text) until one is named.

        Text is matched against the choices of ``order`` first (a card's own menu), then
        against every legal action, so a whole choice typed anywhere is taken."""
        console = prompter.console
        shown = [a for a in order if not isinstance(a, _Part)]
        forms = self.forms_help(view, order)
        me = view.seat if view.seat is not None else view.current
        while True:
            answer = prompter.line(prompt, forms, undo)
            key = answer.strip()
            if key.isdigit() and 1 <= int(key) <= len(order):
                return order[int(key) - 1]
            typed = read_typed(answer, self.names, me)
            found: list[Any] = []
            for scope in (shown, view.legal_actions) if undo else (view.legal_actions,):
                found = [a for a in scope if str(a).lower() == " ".join(key.lower().split())]
                if not found and isinstance(typed, Typed) and not typed.empty:
                    found = [a for a in scope if matches(typed, a, me)]
                if found:
                    break
            if len(found) == 1:
                return found[0]
            console.print(self.refusal(view, answer, typed, found, order))

    def refusal(
        self,
        view: SetbackView,
        answer: str,
        typed: Typed | str,
        found: Sequence[Any],
        order: Sequence[Any],
    ) -> Text:
        """Why ``answer`` named no single choice, and what to type instead."""
        count = len(order)
        shown = answer.strip() if len(answer.strip()) <= 30 else answer.strip()[:29] + "…"
        numbers = {a: i for i, a in enumerate(order, 1)}

        advice = f"Type a number from 1 to {count}" if count > 1 else "Type 1"
        if not shown:
            problem = "Please choose."
        elif shown.isdigit():
            problem = f"There is no choice {shown}."
        elif isinstance(typed, str):
            inside = f" (in {shown})" if typed != shown.lower() else ""
            problem = f"Cannot read {typed}{inside} as a card, player or lane."
        elif found:
            problem = f"{shown} could be {self.listing(view, found, numbers)}."
            advice = "Type one of these numbers, or add the player or lane"
        elif bad := [p + 1 for p in typed.players if not 0 <= p < view.players]:
            problem = f"There is no player P{bad[0]}: players are P1 to P{view.players}."
        elif typed.lane is not None and not 0 <= typed.lane < view.lanes:
            problem = f"There is no lane {typed.lane + 1}: lanes are 1 to {view.lanes}."
        else:
            same = (
                [a for a in view.legal_actions if isinstance(a, Play) and a.card.kind == typed.kind]
                if typed.kind
                else []
            )
            if typed.kind and not same:
                problem = f"{shown}: no {typed.kind} card among the choices now."
            elif same:
                problem = (
                    f"{shown} is not possible now; {typed.kind} can be "
                    f"{self.listing(view, same, numbers)}."
                )
            else:
                problem = f"{shown} is not one of the choices."
        return Text.assemble((problem, "red"), " ", advice + " (? for help).")

    def listing(self, view: SetbackView, actions: Sequence[Any], numbers: dict[Any, int]) -> str:
        """``2) enter lane 1, 3) enter lane 2 or 4) enter lane 3``: menu numbers and labels (the
        card named only when they differ); many choices as a range of numbers."""
        nums = [numbers.get(a, 0) for a in actions]
        if len(actions) > 4:
            return f"any of {len(actions)} choices" + (
                f", {min(nums)} to {max(nums)}" if all(nums) else ""
            )
        cards = {a.card for a in actions if isinstance(a, Play)}
        items = [
            (f"{n}) " if n else "")
            + (
                self.play_label(view, a)
                if len(cards) == 1 and isinstance(a, Play)
                else self.short_label(view, a)
            )
            for n, a in zip(nums, actions, strict=True)
        ]
        return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"

    def short_label(self, view: SetbackView, action: Any) -> str:
        """An action as the refusal names it: ``MOVE+1 enter lane 2 → row 1``."""
        if isinstance(action, Play):
            return f"{action.card.name} {self.play_label(view, action)}"
        if isinstance(action, Step):
            return self.step_label(view, action)
        return self.game.describe_action(action, self.names)

    def ask_window(self, view: SetbackView, prompter: Prompter) -> Any:
        """SB-9: BLOCK or pass, by ``b``/``block``, ``p``/``pass`` or 1/2."""
        console = prompter.console
        console.print(self.question(view))
        choices = [
            c
            for c in (
                Choice[SetbackAction](Block(), "BLOCK", ("b", "block")),
                Choice[SetbackAction](Pass(), "pass", ("p", "pass")),
            )
            if c.value in view.legal_actions
        ]
        cancels = len(view.blocks) % 2 == 0
        held = sum(1 for face in view.hand if face == "BLOCK")
        declared = view.declared
        # Whose action this window answers: the last BLOCK's player, else the declarer.
        answered = (
            view.blocks[-1]
            if view.blocks
            else int(declared["player"])
            if declared is not None
            else view.current
        )
        forms = (
            "Type b, block or 1 to play a BLOCK from your hand: it "
            + (
                "cancels the action"
                if cancels
                else "cancels the BLOCK before it, so the action stands"
            )
            + "; another player may BLOCK your BLOCK in turn. Type p, pass or 2 to let "
            + ("it" if cancels else "the BLOCK")
            + f" stand. You hold {held} BLOCK{'s' if held != 1 else ''}; a BLOCK played is "
            "not replaced. Everyone asked answers at once, and nobody sees an answer before "
            "the last is in; if several BLOCK, only the first in seating order after "
            f"{self.name(answered)} plays it, and the others keep theirs (SB-9). "
            "Type board to see the board."
        )
        while True:
            answer = prompter.line("BLOCK or pass (b/p, or board to see it)? ", forms)
            if normalise(answer) == "board":
                console.print(self.render_board(view))
                continue
            found = match_choice(answer, choices)
            if len(found) == 1:
                if isinstance(found[0].value, Block):
                    self._answered_block = len(view.blocks)
                return found[0].value
            console.print(Prompter.refusal(answer, choices, found, "Type b to BLOCK or p to pass"))

    # -- the end ---------------------------------------------------------------------------------

    def render_outcome(self, view: SetbackView, outcome: Any) -> RenderableType:
        """The final board, the winner and how far everyone got."""
        parts: list[RenderableType] = [self.render_board(view)]
        for seat in sorted(outcome.winners):
            line = Text("🏆 ")
            line.append_text(self.who(seat))
            line.append(
                " reaches FINISH and wins!"
                if self.name(seat) != "You"
                else " reach FINISH and win!",
                style="bold",
            )
            parts.append(line)
        # No box: the board above and the result below fit 80×24 with six players.
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right")
        table.add_column()
        table.add_column()
        table.add_row(
            Text("rank", style="dim"), Text("player", style="dim"), Text("reached", style="dim")
        )
        for seat in sorted(range(view.players), key=lambda s: (outcome.ranks[s], s)):
            table.add_row(str(outcome.ranks[seat]), self.who(seat), self.where(view, seat))
        parts.append(table)
        return Group(*parts)


UI = SetbackUI
"""The game's terminal UI (its ``terminal`` plugin)."""
