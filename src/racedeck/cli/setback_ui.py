"""*Setback* in the terminal: the board as the table shows it, hands, BLOCK windows, choices.

The board is drawn as the players see it from their chairs: FINISH at the top, the rows from
the last down to row 1, START at the bottom with the tokens waiting there. Lanes are columns;
every card shows its face in the colour of its kind (green plus, red minus, one colour per
action, BLOCK and SKIP on a background) and a token standing on it as its seat number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from racedeck.cli.prompt import Prompter
from racedeck.cli.terminal_ui import TerminalUI, second_person
from racedeck.core.errors import IllegalAction
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

__all__ = ["SetbackUI", "card_style"]

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


def _is_free(face: str) -> bool:
    try:
        return parse_card_type(face).free
    except ValueError:
        return False


_FILLER = frozenset({"lane", "before", "on", "in", "front", "of", "to", "into", "enter"})


def _loose(text: str) -> tuple[str, ...]:
    """A text form reduced to its words and numbers: ``trade p1 p3`` = ``TRADE P1<>P3``."""
    words = re.findall(r"[a-z]+|[+-]\d|\d+|\*", text.lower())
    return tuple(w for w in words if w not in _FILLER)


class SetbackUI(TerminalUI):
    """Draws the board of lanes and rows and asks for cards, targets, BLOCKs and steps."""

    width = 120
    """Columns available for drawing (set from the console by the caller)."""

    def __init__(self, game: Game[Any, Any, Any], names: Sequence[str]) -> None:
        super().__init__(game, names)
        cfg = getattr(game, "cfg", None)
        self.draw_count = int(getattr(cfg, "draw_count", 2))

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
            rows_word = "row" if view.rows_removed == 1 else "rows"
            lines.append(
                Text(
                    f"{' ' * (LABEL + 1)}{view.rows_removed} {rows_word} removed: "
                    "START has moved up",
                    style="dim",
                )
            )
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

    def render_players(self, view: SetbackView) -> RenderableType:
        """One line per player: where the token is, cards in hand, SKIPs lying in front."""
        table = Table.grid(padding=(0, 2))
        table.add_column()
        table.add_column()
        table.add_column()
        table.add_column()
        table.add_column()
        for seat in range(view.players):
            turn = Text("▶", style="bold") if seat == view.current else Text(" ")
            where = Text(self.where(view, seat))
            if self.on_block(view, seat):
                where.append(" on BLOCK", style=ACTION_STYLES["BLOCK"])
            hand = f"{view.hand_sizes[seat]} card{'s' if view.hand_sizes[seat] != 1 else ''}"
            skips = Text()
            if view.skips[seat]:
                skips.append(" SKIP ", style=ACTION_STYLES["SKIP"])
                skips.append(
                    f" ×{view.skips[seat]} in front: loses the next turn"
                    + ("s" if view.skips[seat] > 1 else "")
                )
            table.add_row(turn, self.who(seat), where, Text(hand, style="dim"), skips)
        return table

    def render_hand(self, view: SetbackView) -> Text:
        """The viewer's own cards; FREE ones are marked."""
        text = Text()
        text.append("Your hand: ", style="bold")
        if not view.hand:
            text.append("(empty)", style="dim")
        for i, face in enumerate(view.hand):
            if i:
                text.append("  ")
            text.append(face, style=card_style(face))
            if _is_free(face):
                text.append(" FREE", style="italic dim")
        return text

    def render_status(self, view: SetbackView) -> Text:
        """Whose turn, the phase, the piles."""
        text = Text()
        if view.phase == "over":
            text.append("Game over", style="bold")
        else:
            whose = "Your" if view.current == view.seat else f"{self.name(view.current)}'s"
            text.append(f"{whose} turn", style=self.seat_style(view.current))
            text.append(f" · {PHASES.get(view.phase, view.phase)}")
        text.append(f"   Draw pile {view.draw_size} · discards {len(view.discard)}", style="dim")
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
        if view.blocks:
            text.append(" — BLOCKed by ")
            for i, seat in enumerate(view.blocks):
                if i:
                    text.append(", then ")
                text.append(self.name(seat), style=self.seat_style(seat))
        return text

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
        text.append(self.game.describe_action(play, self.names), style="bold")
        return text

    def render(self, view: SetbackView) -> RenderableType:
        """The whole table as the viewer sees it: board, players, piles, window, own hand."""
        parts: list[RenderableType] = [self.render_board(view), Text(""), self.render_players(view)]
        parts.append(self.render_status(view))
        if view.window_open and view.declared is not None and not view.legal_actions:
            line = Text()
            line.append("BLOCK window · ", style="bold")
            line.append_text(self.declared_text(view))
            parts.append(line)
        if view.seat is not None:
            parts.append(self.render_hand(view))
        return Group(*parts)

    def render_sheet(self, view: SetbackView) -> RenderableType | None:
        """None: a race to FINISH keeps no score, and the board's player lines already say
        where everyone stands (:meth:`render_players`)."""
        return None

    # -- events ----------------------------------------------------------------------------------

    def visible_events(self, events: Sequence[Event]) -> list[Event]:
        """Leave out the noise: ``window_opened`` (a window opens after every declaration, SB-9;
        when you may answer, you are asked; BLOCKs are narrated as they come), ``window_closed``
        when nobody BLOCKed or the ``cancelled`` line follows, and what only the record keeps."""
        hidden = ("window_opened", "window_asked", "card_committed")
        return [
            e
            for e in events
            if e.kind not in hidden
            and e.is_public
            and not (e.kind == "window_closed" and (e.data["cancelled"] or not e.data["blocks"]))
        ]

    def describe_events(self, events: Sequence[Any]) -> list[str]:
        """One line per event, in the second person for a player called "You". Only what the
        table sees: public events, and the private ones of the seat called "You"."""
        me = self.names.index("You") if "You" in self.names else None
        events = [e for e in events if e.visible_to(me)]
        lines = [
            self.declaration(e.data["player"], e.data["source"], action_from_json(e.data["play"]))
            .append(".")
            .plain
            if e.kind == "declared"
            else self.game.describe_event(e, self.names)
            for e in events
        ]
        if "You" not in self.names:
            return lines
        return [second_person(line) for line in lines]

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
            else:
                key, label = "other", self.game.describe_action(action, self.names)
                heading = Text()
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
        text.append(f" ({self.where(view, seat)})", style="dim")
        return text

    def question(self, view: SetbackView) -> Text:
        """What is being asked, in words."""
        legal = view.legal_actions
        text = Text()
        if view.window_open:
            text.append_text(self.declared_text(view))
            own = view.declared is not None and int(view.declared["player"]) == view.seat
            asked = (
                "BLOCK the BLOCK?"
                if view.blocks
                else "BLOCK your own action?"
                if own
                else "BLOCK it?"
            )
            text.append(f" — {asked} ", style="bold")
            text.append("[b]", style="bold")
            text.append("lock / ")
            text.append("[p]", style="bold")
            text.append("ass")
            cancels = (len(view.blocks) + 1) % 2 == 1
            text.append(
                "\n  (your BLOCK would "
                + ("cancel the action)" if cancels else "cancel that BLOCK: the action stands)"),
                style="dim",
            )
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
            text.append(" under your token acts as if you played it. How?")
            return text
        if any(isinstance(a, DiscardBlock) for a in legal):
            text.append("Hand Action: ", style="bold")
            text.append("you hold only BLOCK cards — discard one.")
        elif any(isinstance(a, EndHand) for a in legal):
            text.append("Hand Action: ", style="bold")
            text.append("another card, or end it? (one non-FREE card per turn)")
        else:
            text.append("Hand Action: ", style="bold")
            text.append("play a card (one non-FREE card per turn, FREE cards besides).")
        return text

    def render_menu(self, view: SetbackView, width: int | None = None) -> tuple[Text, list[Any]]:
        """The numbered menu as text, and the actions in menu order (number ``i`` is ``[i-1]``)."""
        width = self.width if width is None else width
        groups = self.menu(view)
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

    def ask_action(self, view: SetbackView, prompter: Prompter) -> Any:
        """Ask by menu number or by the action's text form; a window is a plain block/pass."""
        ask, console = prompter, prompter.console
        legal = list(view.legal_actions)
        console.print(self.question(view))
        if view.window_open:
            prompt = "BLOCK or pass (b/p): "
            words = {"b": Block(), "block": Block(), "p": Pass(), "pass": Pass()}
            order: list[Any] = [a for a in (Block(), Pass()) if a in legal]  # by number too
        else:
            menu, order = self.render_menu(view, console.width)
            console.print(menu)
            example = str(order[0]) if order else ""
            prompt = f"Your choice (number, or text like {example!r}): "
            words = {"e": EndHand(), "end": EndHand()}
        hint = (
            "Type b to BLOCK or p to pass."
            if view.window_open
            else f"Type a number from 1 to {len(order)}."
        )
        while True:
            answer = ask(prompt).strip()
            key = answer.lower()
            if key.isdigit() and 1 <= int(key) <= len(order):
                return order[int(key) - 1]
            if key in words and words[key] in legal:
                return words[key]
            loose = [a for a in legal if _loose(str(a)) == _loose(answer)]
            if _loose(answer) and len(loose) == 1:
                return loose[0]
            if not key:
                problem = "Please choose."
            elif key.isdigit():
                problem = f"There is no choice {key}."
            else:
                try:
                    action = self.game.parse_action(answer, view)
                except IllegalAction as exc:
                    problem = f"{answer!r}: {exc.reason}."
                else:
                    if action in legal:
                        return action
                    problem = f"{answer!r} is not possible now."
            console.print(Text.assemble((problem, "red"), " ", hint))

    # -- the end ---------------------------------------------------------------------------------

    def render_outcome(self, view: SetbackView, outcome: Any) -> RenderableType:
        """The final board, the winner and how far everyone got."""
        parts: list[RenderableType] = [self.render_board(view), Text("")]
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
        table = Table(title="Result", title_justify="left")
        table.add_column("rank", justify="right")
        table.add_column("player")
        table.add_column("reached")
        for seat in sorted(range(view.players), key=lambda s: (outcome.ranks[s], s)):
            table.add_row(str(outcome.ranks[seat]), self.who(seat), self.where(view, seat))
        parts.append(table)
        return Group(*parts)


UI = SetbackUI
"""The game's terminal UI (its ``terminal`` plugin)."""
