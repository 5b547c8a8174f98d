"""*Six Day Race* in the terminal: the lap as rows of spaces, hands, slipstream previews, sheets.

The lap (positions 0 … line − 1) is drawn in a few rows of equal length, one cell per space:
a line of marks (sprint lines ``S1``/``S2``, ``FW`` = FAHRERWECHSEL, ``ST`` = STURZ, ``5L`` …
``1L`` = laps lost by a rider that stops there or behind it, SD-10), a ruler with space
numbers, then the riders stacked under their space. Riders past the line are listed in
crossing order.

Laps lost are written one way everywhere: the words "laps lost" and a plain count (``5``, or
``5L`` where room is short), never a minus sign.

The screen fits the terminal. When the whole picture (the strip with its key, every rider,
the sprints, the hands and the decks) and the card previews do not fit its height, the short
screen is drawn: the lap marks stand in the ruler, a pack of three or more riders shows its
top rider and how many more, the key takes one line (none if even that is too much), the
sprints and decks are left out (the riders' table and the previews say what matters), and
the card prompt shows the moving rider's hand. 80×24 takes the short screen; 160×50 the
whole one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, cast

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from racedeck.cli.prompt import Choice, Prompter
from racedeck.cli.terminal_ui import TerminalUI
from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.games.six_day_race.actions import PlayCard
from racedeck.games.six_day_race.cards import GREEN, card_pile, card_value
from racedeck.games.six_day_race.narrate import ordinal
from racedeck.games.six_day_race.rules import SixDayRace
from racedeck.games.six_day_race.scoring import slipstream_destination
from racedeck.games.six_day_race.view import SixDayRaceView

__all__ = ["SixDayRaceUI", "format_points"]

COLOURS = (
    "bright_red",
    "bright_blue",
    "bright_green",
    "yellow",
    "magenta",
    "cyan",
    "dark_orange",
    "white",
)
SPRINT_STYLE = "bold cyan"
CHANGE_STYLE = "bold black on yellow"
CRASH_STYLE = "bold white on red"
LAP_STYLE = "magenta"

_GLYPHS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def format_points(points: Fraction | str | int) -> str:
    """Points as a person writes them: ``6``, ``6⅔`` (for ``"20/3"``), ``2 2/7``."""
    value = Fraction(str(points))
    whole, part = divmod(value, 1)
    if part == 0:
        return str(whole)
    glyph = _GLYPHS.get(part)
    if glyph is not None:
        return f"{whole}{glyph}" if whole else glyph
    return f"{whole} {part}" if whole else str(part)


class SixDayRaceUI(TerminalUI):
    """Draws the oval as a strip of rows and asks for a card with a preview of every landing."""

    width = 120
    """Columns available for drawing (set from the console by the caller)."""

    short_screen = False
    """Whether the table was last drawn short (then the card prompt shows the hand)."""

    stage_end_kinds = frozenset({"race_scored"})
    """The scoring event after which :meth:`render_stage_end` shows the race's sheet."""

    def __init__(self, game: Game[Any, Any, Any], names: Sequence[str]) -> None:
        super().__init__(game, names)
        self.race_game = cast(SixDayRace, game)
        self.cfg = self.race_game.cfg
        self.rider_labels = self.race_game.rider_names(self.names)
        self._passed: set[int] = set()
        self._positions: dict[int, list[int]] = {}  # where each race ended, for its sheet

    # -- riders ----------------------------------------------------------------------------------

    def marker(self, rider: int) -> str:
        """The short mark of a rider on the strip: the seat number, plus a/b for two riders."""
        seat = self.race_game.owner(rider)
        if self.race_game.per == 1:
            return str(seat + 1)
        return f"{seat + 1}{'ab'[rider // self.race_game.n]}"

    def rider_style(self, rider: int, view: SixDayRaceView) -> str:
        """Seat colour; the viewer's riders underlined, the rider to move in reverse."""
        style = f"bold {COLOURS[self.race_game.owner(rider) % len(COLOURS)]}"
        if view.seat is not None and self.race_game.owner(rider) == view.seat:
            style += " underline"
        if rider == view.current and view.phase == "race":
            style += " reverse"
        return style

    def rider_text(self, rider: int, view: SixDayRaceView) -> Text:
        """Marker and name, e.g. ``1 You``."""
        text = Text()
        text.append(self.marker(rider), style=self.rider_style(rider, view))
        text.append(f" {self.rider_labels[rider]}")
        return text

    def _seat_name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"P{seat + 1}"

    # -- the strip -------------------------------------------------------------------------------

    def marks(self, view: SixDayRaceView) -> dict[int, tuple[str, str]]:
        """Label and style of every marked space: sprints, FAHRERWECHSEL, STURZ, lap marks."""
        found: dict[int, tuple[str, str]] = {}
        for k in range(self.cfg.max_laps_lost, 0, -1):
            pos = view.line - k * self.cfg.lap_spaces
            if 0 < pos < view.line:
                found[pos] = (f"{k}L", LAP_STYLE)
        found[view.crash] = ("ST", CRASH_STYLE)
        found[view.rider_change] = ("FW", CHANGE_STYLE)
        for i, pos in enumerate(view.sprints):
            found[pos] = (f"S{i + 1}", SPRINT_STYLE)
        return found

    def layout(self, line: int, width: int) -> tuple[int, int]:
        """``(cell, per_row)``: columns per space and spaces per row that fit ``width``.

        Three rows of four columns per space when they fit, else three columns per space in
        three rows, then four, five … rows.
        """
        margin = 4  # the finish bar and its " FIN" label after the last space
        rows = 3
        per_row = -(-line // rows)
        if 4 * per_row + margin <= width:
            return 4, per_row
        while rows < line:
            per_row = -(-line // rows)
            if 3 * per_row + margin <= width:
                return 3, per_row
            rows += 1
        return 3, 1

    def render_strip(
        self, view: SixDayRaceView, width: int | None = None, short: bool = False
    ) -> RenderableType:
        """The lap in rows: marks, space numbers, riders stacked under their space; then the
        key to the marks. ``short`` saves lines: no line of marks (the lap marks stand in the
        ruler instead of the space number, FAHRERWECHSEL and STURZ are the coloured numbers,
        sprints the bars) and a key of one line."""
        cell, per_row = self.layout(view.line, width or self.width)
        marks = self.marks(view)
        sprints = set(view.sprints)
        by_space: dict[int, list[int]] = {}
        riders = list(view.order or range(len(view.positions)))
        if short:  # the top of a cut pack: the rider to move, then the viewer's own
            riders.sort(key=lambda r: (r != view.current, self.race_game.owner(r) != view.seat))
        for rider in riders:
            pos = view.positions[rider]
            if pos < view.line:
                by_space.setdefault(pos, []).append(rider)
        lines: list[RenderableType] = []
        waiting = by_space.pop(0, [])
        if waiting and not short:  # a row, not a tall stack, for riders behind the start line
            behind = Text("  at the start: ", style="bold")
            for rider in waiting:
                behind.append(self.marker(rider), style=self.rider_style(rider, view))
                behind.append(" ")
            lines.append(behind)
        for start in range(0, view.line, per_row):
            spaces = range(start, min(start + per_row, view.line))
            last = spaces[-1] == view.line - 1
            top = Text()
            ruler = Text()
            for space in spaces:
                label, style = marks.get(space, ("", ""))
                top.append(" " + f"{label:>{cell - 1}}", style=style if label else "")
                bar = "┃" if space in sprints else " "
                ruler.append(bar, style=SPRINT_STYLE)
                if space in marks and marks[space][1] in (CHANGE_STYLE, CRASH_STYLE):
                    ruler.append(f"{space:>{cell - 1}}", style=marks[space][1])
                elif short and space in marks and marks[space][1] == LAP_STYLE:
                    ruler.append(f"{marks[space][0]:>{cell - 1}}", style=LAP_STYLE)
                elif space % 5 == 0 or space == start:
                    ruler.append(f"{space:>{cell - 1}}", style="bold")
                else:
                    ruler.append(" " * (cell - 2) + "·", style="dim")
            if last:
                top.append(" FIN", style="bold")
                ruler.append("┃", style="bold")
            if top.plain.strip() and not short:
                lines.append(top)
            lines.append(ruler)
            depth = max([len(by_space.get(space, [])) for space in spaces] + [0])
            if short:  # a pack of three or more: its first rider and how many more
                depth = min(depth, 2)
            for row in range(depth):
                text = Text()
                for space in spaces:
                    text.append("┃" if space in sprints else " ", style=SPRINT_STYLE)
                    here = by_space.get(space, [])
                    if short and row == 1 and len(here) > 2:
                        more = f"+{len(here) - 1}"
                        text.append(f"{more:>{cell - 1}}", style="bold")
                    elif row < len(here):
                        mark = self.marker(here[row])
                        text.append(" " * (cell - 1 - len(mark)))
                        text.append(mark, style=self.rider_style(here[row], view))
                    else:
                        text.append(" " * (cell - 1))
                if last:
                    text.append("┃", style="bold")
                lines.append(text)
        if view.finishers and not short:  # the short screen's riders' table says it
            done = Text("  finished: ", style="bold")
            for i, rider in enumerate(view.finishers):
                if i:
                    done.append(", ")
                done.append_text(self.rider_text(rider, view))
                done.append(f" ({ordinal(i + 1)})")
            lines.append(done)
        lines.extend(self.render_key(view, width or self.width, short))
        return Group(*lines)

    def render_key(self, view: SixDayRaceView, width: int, short: bool = False) -> list[Text]:
        """What the marks on the strip mean, in as many lines as ``width`` needs (the short
        key goes with the strip without its line of marks)."""
        most = self.cfg.max_laps_lost
        laps = (f"{most}L…1L" if most > 1 else "1L", LAP_STYLE)
        if short:
            entries = [
                ("┃", SPRINT_STYLE, "sprint " + " ".join(str(s) for s in view.sprints)),
                (str(view.rider_change), CHANGE_STYLE, "FAHRERWECHSEL"),
                (str(view.crash), CRASH_STYLE, "STURZ"),
                (*laps, "laps lost"),
                ("┃", "bold", f"line {view.line}"),
            ]
        else:
            entries = [
                ("┃S1", SPRINT_STYLE, "sprint"),
                ("FW", CHANGE_STYLE, "FAHRERWECHSEL (new grey hand)"),
                ("ST", CRASH_STYLE, "STURZ (lose a turn)"),
                (*laps, "laps lost if the race ends there or behind"),
                ("FIN┃", "bold", f"line at {view.line}"),
            ]
        if not most:
            del entries[3]
        lines: list[Text] = []
        key = Text(" ")
        for label, style, meaning in entries:
            if len(key) + len(label) + len(meaning) + 3 > width:
                lines.append(key)
                key = Text(" ")
            key.append(" ")
            key.append(label, style=style)
            key.append(f" {meaning} ", style="dim")
        lines.append(key)
        return lines

    # -- the rest of the table -------------------------------------------------------------------

    def laps_if_ended(self, view: SixDayRaceView, rider: int) -> int:
        """Laps the rider would lose if the race ended now (SD-10)."""
        if rider in view.finishers:
            return 0
        short = max(0, view.line - view.positions[rider])
        return min(self.cfg.max_laps_lost, short // self.cfg.lap_spaces)

    def render_riders(self, view: SixDayRaceView, short: bool = False) -> RenderableType:
        """One line per rider, leader first: position, cards, sprint points, the laps it would
        lose if the race ended now (SD-10), notes. ``short``: the viewer's own riders show
        their cards instead of how many, and the notes are a word or two."""
        series = short and view.race > 0  # the short title leaves the series out
        heads = ["", "rider", "pos", "cards", "sprint pts", "laps lost now"]
        heads += ["series", ""] if series else [""]
        table = Table.grid(padding=(0, 2))
        for head in heads:
            table.add_column(justify="left" if head in ("rider", "") else "right")
        crossed = {r: i for i, r in enumerate(view.finishers)}
        riders = sorted(
            range(len(view.positions)),
            key=lambda r: (crossed.get(r, len(crossed)), -view.positions[r], r),
        )
        table.add_row(*(Text(h, style="dim") for h in heads))
        for place, rider in enumerate(riders, 1):
            notes: list[str] = []
            if rider in crossed:
                notes.append(f"finished {ordinal(crossed[rider] + 1)}")
            laps = self.laps_if_ended(view, rider)
            if view.crashed[rider]:
                notes.append("crashed" if short else "crashed: sits out its next turn")
            if rider == view.current and view.phase == "race":
                notes.append("to move")
            if not view.hand_sizes[rider] and view.phase == "race":
                notes.append("no cards" if short else "no cards left")
            sprint_points = sum(
                won[order.index(rider)]
                for order, won in zip(view.sprint_order, view.sprint_points, strict=True)
                if rider in order
            )
            table.add_row(
                f"{place}.",
                self.rider_text(rider, view),
                str(view.positions[rider]),
                str(view.hand_sizes[rider]),
                str(sprint_points) if sprint_points else "",
                Text(str(laps), style=LAP_STYLE) if laps else "",
                *([self._series_cell(view, self.race_game.owner(rider))] if series else []),
                ", ".join(notes),
            )
        return table

    def _sprint_points(self, place: int) -> int:
        points = self.cfg.sprint_points
        return points[place - 1] if 0 < place <= len(points) else 0

    def render_sprints(self, view: SixDayRaceView) -> Text:
        """Who crossed each sprint line so far, with points."""
        text = Text()
        for i, (order, won) in enumerate(zip(view.sprint_order, view.sprint_points, strict=True)):
            if i:
                text.append("\n")
            text.append(f"Sprint {i + 1} at {view.sprints[i]}: ", style=SPRINT_STYLE)
            if not order:
                text.append("nobody yet", style="dim")
            for place, (rider, points) in enumerate(zip(order, won, strict=True), 1):
                if place > 1:
                    text.append(", ")
                text.append_text(self.rider_text(rider, view))
                text.append(f" +{points}")
        return text

    def hand_text(self, cards: Sequence[int], short: bool = False) -> Text:
        """Values lowest first, grouped, green cards in green and grey ones in grey; then how
        many and of which kind (``short``: how many)."""
        text = Text()
        previous = None
        for card in sorted(cards, key=card_value):
            value = card_value(card)
            if previous is not None:
                text.append("  " if value != previous else " ")
            text.append(str(value), style="bold green" if card_pile(card) == GREEN else "grey70")
            previous = value
        if not cards:
            text.append("no cards", style="dim")
        else:
            piles = {card_pile(c) for c in cards}
            kind = "green" if piles == {GREEN} else "grey" if GREEN not in piles else "mixed"
            text.append(f"  ({len(cards)}{'' if short else ' ' + kind})", style="dim")
        return text

    def render_hands(self, view: SixDayRaceView) -> RenderableType:
        """The viewer's own riders' hands."""
        table = Table.grid(padding=(0, 1))
        table.add_column()
        table.add_column()
        for rider, cards in view.my_hands:
            label = self.rider_text(rider, view)
            label.append(":")
            table.add_row(label, self.hand_text(cards))
        return table

    def render_decks(self, view: SixDayRaceView) -> Text:
        """Both grey decks and every discard pile (all cards are played face up)."""
        low, high = view.deck_sizes
        return Text(
            f"Grey decks: 1-3 {low} left, 4-6 {high} left · discarded: "
            f"1-3 {len(view.discard_low)}, 4-6 {len(view.discard_high)}, "
            f"green {len(view.discard_green)}",
            style="dim",
        )

    def render_turn(self, view: SixDayRaceView) -> Text:
        """Whose turn it is, and the last turns after someone crossed the line."""
        text = Text()
        if view.phase != "race" or view.current < 0:
            return text
        owner = self.race_game.owner(view.current)
        text.append("To move: ")
        text.append_text(self.rider_text(view.current, view))
        if view.seat == owner:
            text.append(" — your turn", style="bold")
        elif self.race_game.per > 1:
            text.append(f" ({self._seat_name(owner)})")
        if view.final_queue:
            text.append(" · still owed a last turn: ")
            text.append(", ".join(self.rider_labels[r] for r in view.final_queue), style="bold")
        elif view.final_queue is not None:
            text.append(" · the last turn of the race", style="bold")
        return text

    def render(self, view: SixDayRaceView) -> RenderableType:
        """The table as ``view``'s seat sees it, sized to the terminal when it is drawn: the
        whole picture (:meth:`render_full`) if it fits with the card previews below it, else
        the short one (:meth:`render_short`)."""
        return _Fitted(self, view)

    def render_full(self, view: SixDayRaceView, width: int | None = None) -> RenderableType:
        """Race number, the strip, every rider, sprints, whose turn, own hands and decks."""
        parts: list[RenderableType] = [
            self.render_title(view),
            self.render_strip(view, width or self.width),
            self.render_riders(view),
            self.render_sprints(view),
        ]
        turn = self.render_turn(view)
        if turn and (view.final_queue is not None or not self.is_my_turn(view)):
            parts.append(turn)  # else the card prompt says whose turn
        if view.my_hands:
            parts.append(self.render_hands(view))
        parts.append(self.render_decks(view))
        return Group(*parts)

    def render_short(
        self, view: SixDayRaceView, width: int | None = None, key: bool = True
    ) -> RenderableType:
        """What a player needs each turn, for a small terminal: race number, the strip (with
        a one-line key unless ``key`` is false), every rider, whose turn unless it is the
        viewer's, and the hands of the viewer's riders not on turn (:meth:`ask_action` shows
        the moving one's). Sprint crossings show as points in the riders' table; the decks are
        left out."""
        title = self.render_title(view, series=False)
        waiting = [r for r in view.order or range(len(view.positions)) if view.positions[r] == 0]
        if waiting:  # the short strip leaves them to the title
            title.append(" · at the start: ")
            for rider in waiting:
                title.append(self.marker(rider), style=self.rider_style(rider, view))
                title.append(" ")
        parts: list[RenderableType] = [title]
        strip = self.render_strip(view, width or self.width, short=True)
        if not key and isinstance(strip, Group):
            strip = Group(*strip.renderables[:-1])
        parts += [strip, self.render_riders(view, short=True)]
        mine = self.is_my_turn(view)
        turn = self.render_turn(view)
        if turn and not mine:
            parts.append(turn)
        hands = [(r, cards) for r, cards in view.my_hands if not (mine and r == view.current)]
        if hands:
            parts.append(self.render_hands(replace(view, my_hands=tuple(hands))))
        return Group(*parts)

    def render_title(self, view: SixDayRaceView, series: bool = True) -> Text:
        """``Race 2 of 6 · 3 riders``, and the series so far after the first race."""
        title = Text(
            f"Race {min(view.race + 1, view.races)} of {view.races} · {len(view.positions)} riders",
            style="bold",
        )
        if view.race and series:
            title.append(" · series so far: ", style="dim")
            title.append(self._series_line(view), style="dim")
        return title

    def is_my_turn(self, view: SixDayRaceView) -> bool:
        """Whether ``view``'s seat plays the rider on turn."""
        return (
            view.phase == "race"
            and view.current >= 0
            and view.seat is not None
            and self.race_game.owner(view.current) == view.seat
        )

    def asking_lines(self, view: SixDayRaceView, width: int) -> int:
        """Lines :meth:`ask_action` prints up to and including its prompt (0 when it will not
        ask): the rider on turn (with its hand on the short screen), one preview per card
        value and the prompt, at ``width`` columns."""
        if not self.is_my_turn(view):
            return 0
        previews = [
            len(self.preview(view, view.current, a.value, width - 3)) + 3
            for a in view.legal_actions
        ]
        intro = len(self.intro(view, hand=True))
        return 1 + -(-intro // width) + sum(-(-n // width) for n in previews)

    def _series_cell(self, view: SixDayRaceView, seat: int) -> str:
        return f"{view.laps[seat]}L {format_points(view.points[seat])} pts"

    def _series_line(self, view: SixDayRaceView) -> str:
        return ", ".join(
            f"{self._seat_name(p)} {view.laps[p]}L {format_points(view.points[p])} pts"
            for p in range(view.players)
        )

    # -- asking ----------------------------------------------------------------------------------

    def preview(
        self, view: SixDayRaceView, rider: int, value: int, width: int | None = None
    ) -> Text:
        """Where a card of ``value`` takes ``rider``: slipstream, special spaces, lines crossed.

        The line starts with the value, which is also what to type to play it. Longer than
        ``width``, it is said in fewer words."""
        text = self._preview(view, rider, value, short=False)
        if width is not None and len(text) > width:
            return self._preview(view, rider, value, short=True)
        return text

    def _preview(self, view: SixDayRaceView, rider: int, value: int, short: bool) -> Text:
        start = view.positions[rider]
        no_slip = (view.rider_change, view.crash)
        first, others, dest = slipstream_destination(start, value, view.positions, rider, no_slip)
        text = Text()
        text.append(f"{value}", style="bold")
        text.append(f" → {first}")
        if others and dest != first:
            text.append(f" ×{others + 1} → {dest}", style="bold")
            if short:
                text.append(" (slipstream)")
            else:
                text.append(f"  (slipstream behind {others} rider{'s' if others > 1 else ''})")
        elif others:
            text.append(f"  ({others} there, no slipstream)", style="dim")
        notes: list[tuple[str, str]] = []
        for i, line in enumerate(view.sprints):
            if start < line <= dest:
                place = len(view.sprint_order[i]) + 1
                points = self._sprint_points(place)
                words = "sprint" if short else "crosses sprint"
                notes.append((f"{words} {i + 1} {ordinal(place)}: +{points}", SPRINT_STYLE))
        if dest >= view.line:
            place = len(view.finishers) + 1
            won = " and wins the race!" if place == 1 else f" {ordinal(place)}"
            notes.append((f"crosses the line{won}", "bold green"))
        elif dest == view.rider_change:
            change = "new grey hand" if short else "discard your hand, draw grey cards"
            notes.append((f"FAHRERWECHSEL: {change}", CHANGE_STYLE))
        elif dest == view.crash:
            crash = "next turn lost" if short else "you lose your next turn"
            notes.append((f"STURZ: {crash}", CRASH_STYLE))
        else:
            laps = self._laps_at(dest)
            if laps and final_turn(view):
                notes.append((f"{laps} lap{'s' if laps > 1 else ''} lost", LAP_STYLE))
        for note, style in notes:
            text.append("  ")
            text.append(note, style=style)
        return text

    def _laps_at(self, position: int) -> int:
        """Laps lost by a rider that ends the race at ``position`` (SD-10)."""
        short = max(0, self.cfg.line - position) if position < self.cfg.line else 0
        return min(self.cfg.max_laps_lost, short // self.cfg.lap_spaces)

    def card_choices(self, view: SixDayRaceView) -> list[Choice[PlayCard]]:
        """One choice per card value the rider on turn holds, listed under its value.

        Forms: ``5``, ``+5``, ``play 5``; with two riders a player (SD-12) also the moving
        rider's board label or name with the value (``5 1a``, ``1a 5``, ``You-1 5``), though
        the rider is never the player's to choose: riders move in seat order (SD-4).
        """
        rider = view.current
        names = (self.marker(rider), self.rider_labels[rider]) if self.race_game.per > 1 else ()
        choices = []
        for action in view.legal_actions:
            v = action.value
            forms = [f"+{v}", f"play {v}", f"play +{v}"]
            for name in names:
                forms += [f"{v} {name}", f"{name} {v}", f"{name} play {v}"]
            choices.append(Choice(action, str(v), tuple(forms), number=v))
        return choices

    def forms_help(self, view: SixDayRaceView) -> str:
        """What the card prompt accepts (shown by ``?``)."""
        rider = view.current
        values = [a.value for a in view.legal_actions]
        v = values[-1] if values else 3
        who = self.rider_labels[rider] if self.race_game.per > 1 else "your rider"
        text = (
            f"Type the value of the card to play: {v}, +{v} or play {v}. The lines above are "
            "listed by value: each starts with a card's value and shows where it takes "
            f"{who} (slipstream, sprints, special spaces, the line)."
        )
        if self.race_game.per > 1:
            mark, name = self.marker(rider), self.rider_labels[rider]
            text += (
                f" You may name the moving rider too ({v} {mark}, {name} {v}), but riders move "
                f"in seat order (SD-4, SD-12): it is {name}'s turn."
            )
        return text + " A card is a whole move, so there is nothing to undo."

    def intro(self, view: SixDayRaceView, hand: bool) -> Text:
        """The line above the previews: the rider on turn and where it stands, and its hand
        when the short screen left it out."""
        rider = view.current
        intro = Text("Your turn: ", style="bold")
        intro.append_text(self.rider_text(rider, view))
        intro.append(f" at {view.positions[rider]}", style="bold")
        if view.final_queue is not None:
            intro.append(" · its last turn", style="bold")
        if hand:
            intro.append(" · cards ")
            intro.append_text(self.hand_text(view.hand_of(rider), short=True))
        else:
            intro.append(" · each card it holds and where it lands:", style="dim")
        return intro

    def ask_action(self, view: SixDayRaceView, prompter: Prompter) -> PlayCard:
        """Name the moving rider, preview every card value it holds, ask for one value."""
        console = prompter.console
        rider = view.current
        values = " ".join(str(a.value) for a in view.legal_actions)
        console.print(self.intro(view, self.short_screen))
        for action in view.legal_actions:
            line = Text("   ")
            line.append_text(self.preview(view, rider, action.value, console.width - 3))
            console.print(line)
        whose = "your" if self.race_game.per == 1 else f"{self.rider_labels[rider]}'s"
        return prompter.choose(
            f"Play which card? ({values}): ",
            self.card_choices(view),
            forms=self.forms_help(view),
            hint=f"Play one of {whose} cards: {values}",
        )

    # -- events ----------------------------------------------------------------------------------

    def visible_events(self, events: Sequence[Event]) -> list[Event]:
        """Hide hidden commits, every ``passed`` after a rider's first one in a race, and the
        dealt hands (the table shows the player's own)."""
        shown: list[Event] = []
        for event in super().visible_events(events):
            if event.kind == "hands_dealt":
                continue
            if event.kind == "race_started":
                self._passed.clear()
            elif event.kind == "race_scored" and "positions" in event.data:
                self._positions[int(event.data["race"]) - 1] = list(event.data["positions"])
            elif event.kind == "passed":
                rider = int(event.data["rider"])
                if rider in self._passed:
                    continue
                self._passed.add(rider)
            shown.append(event)
        return shown

    # -- sheets ----------------------------------------------------------------------------------

    def render_race_sheet(
        self, view: SixDayRaceView, race: int, positions: Sequence[int] | None = None
    ) -> RenderableType:
        """Race ``race`` (0-based): every rider's sprints, finish points and laps lost."""
        results = view.results[race]
        table = Table(
            title=f"Race {race + 1} of {view.races}",
            title_justify="left",
            box=box.SIMPLE_HEAD,
            show_edge=False,
        )
        table.add_column("place", justify="right")
        table.add_column("rider")
        if positions is not None:
            table.add_column("pos", justify="right")
        for i in range(len(view.sprints)):
            table.add_column(f"sprint {i + 1}", justify="right")
        table.add_column("finish", justify="right")
        table.add_column("points", justify="right", style="bold")
        table.add_column("laps lost", justify="right")
        riders = sorted(range(len(results)), key=lambda r: (results[r].place, r))
        for rider in riders:
            r = results[rider]
            total = sum(r.sprints) + Fraction(r.finish)
            cells: list[RenderableType] = [
                f"{r.place}.",
                self.rider_text(rider, view),
                *([str(positions[rider])] if positions is not None else []),
                *[str(s) if s else "·" for s in r.sprints],
                format_points(r.finish),
                format_points(total),
                str(r.laps) if r.laps else "·",
            ]
            table.add_row(*cells)
        return table

    def _race_totals(self, view: SixDayRaceView, race: int) -> tuple[list[int], list[Fraction]]:
        laps = [0] * view.players
        points = [Fraction(0)] * view.players
        for rider, r in enumerate(view.results[race]):
            p = self.race_game.owner(rider)
            laps[p] += r.laps
            points[p] += sum(r.sprints) + Fraction(r.finish)
        return laps, points

    def render_series(
        self, view: SixDayRaceView, winners: frozenset[int] = frozenset()
    ) -> RenderableType:
        """Per player: points (and laps lost) of every race so far, and the series totals."""
        played = len(view.results)
        title = f"Series after {played} of {view.races} race{'s' if view.races > 1 else ''}: "
        title += (
            "fewest laps lost wins, then most points (SD-11)"
            if view.races > 1
            else "one race, points alone decide (SD-11)"
        )
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1), collapse_padding=True)
        table.add_column("player")
        for race in range(played):
            table.add_column(f"R{race + 1}", justify="right")
        table.add_column("laps lost", justify="right", style="bold")
        table.add_column("points", justify="right", style="bold")
        per_race = [self._race_totals(view, race) for race in range(played)]
        for p in range(view.players):
            name = Text(self._seat_name(p), style=f"bold {COLOURS[p % len(COLOURS)]}")
            if p in winners:
                name.append(" 🏆")
            cells = []
            for laps, points in per_race:
                cell = format_points(points[p])
                if laps[p]:
                    cell += f" {laps[p]}L"
                cells.append(cell)
            table.add_row(name, *cells, str(view.laps[p]), format_points(view.points[p]))
        return Group(Text(title, style="italic"), table)  # a title as wide as the screen

    def render_sheet(self, view: SixDayRaceView) -> RenderableType | None:
        """The series so far once a race is over; during the first race the riders' lines
        of the board (sprint points, laps down) are the whole sheet."""
        return self.render_series(view) if view.results else None

    def render_stage_end(self, view: SixDayRaceView, event: Any) -> RenderableType:
        """After a race: its score sheet (with final positions) and the series so far."""
        race = int(event.data["race"]) - 1
        positions = event.data.get("positions")
        if not 0 <= race < len(view.results):
            return Text("")
        return Group(
            Text(""), self.render_race_sheet(view, race, positions), self.render_series(view)
        )

    def render_outcome(self, view: SixDayRaceView, outcome: Any) -> RenderableType:
        """The last race's sheet, the series sheet and the winners."""
        parts: list[RenderableType] = []
        if view.results:
            last = len(view.results) - 1
            parts.append(self.render_race_sheet(view, last, self._positions.get(last)))
        parts.append(self.render_series(view, frozenset(outcome.winners)))
        won = ", ".join(self._seat_name(w) for w in sorted(outcome.winners))
        plural = "s" if len(outcome.winners) > 1 else ""
        parts.append(Text(f"Series over. Winner{plural}: {won}", style="bold green"))
        return Group(*parts)


def final_turn(view: SixDayRaceView) -> bool:
    """Whether this is the rider on turn's last move of the race: someone has crossed the
    line, so every other rider gets exactly one more turn (SD-9)."""
    return view.final_queue is not None


class _Fitted:
    """The table drawn to fit the console it is printed on (its width and height)."""

    def __init__(self, ui: SixDayRaceUI, view: SixDayRaceView) -> None:
        self.ui = ui
        self.view = view

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Any]:
        width = options.max_width
        room = console.height - self.ui.asking_lines(self.view, width) - 1
        self.ui.short_screen = False
        for screen in (
            self.ui.render_full(self.view, width),
            self.ui.render_short(self.view, width),
            self.ui.render_short(self.view, width, key=False),
        ):
            lines = console.render_lines(screen, options, pad=False)
            if len(lines) <= room:
                break
            self.ui.short_screen = True
        for line in lines:  # the lines measured are the lines shown: drawn once, not twice
            yield from line
            yield Segment.line()


UI = SixDayRaceUI
"""The game's terminal UI (its ``terminal`` plugin)."""
