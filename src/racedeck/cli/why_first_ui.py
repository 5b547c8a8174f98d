"""*Why First?* in the terminal: the track from −12 to 16, hands, placements and scores.

Every prompt shows a numbered list and reads the same forms (see :mod:`racedeck.cli.prompt`):
a bare number is always a list number; a card is also named by its signed value (``+3``,
``−2``) and, in the tactical variant only, by its white number (``#32``, WF-10); a figure by
its number on the board (``1``…, ``L`` for Leo) or its name (``you``, ``bot 3``, ``leo``).
In the base game the card and the figure may be typed on one line, card first: ``+3 2``,
``+3 leo``, ``2 L`` (the second card of the list in front of Leo).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from racedeck.cli.prompt import Choice, Prompter, Undo, match_choice, normalise
from racedeck.cli.terminal_ui import TerminalUI
from racedeck.core.events import Event
from racedeck.games.why_first.actions import CommitCard, MoveFigure, PlaceCard
from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.games.why_first.view import WhyFirstView

__all__ = ["WhyFirstUI"]

COLOURS = ("bright_red", "bright_blue", "bright_green", "yellow", "magenta", "cyan", "white")

_WHITE_NUMBERS_BASE = (
    "White numbers (#32) only count in the tactical variant (WF-10); in this game a card is "
    "just its value (WF-2)."
)


class WhyFirstUI(TerminalUI):
    """Draws the track with every figure and asks for card and figure in two short steps.

    While a game is played (once :meth:`ask_action` has asked), :meth:`render` draws only what
    changed since the last prompt: when the person moves a figure in the round in which they
    committed (tactical variant), the stage line and the hand are not drawn again, and the
    track only when a figure has moved since. A UI that never asked (a replay) draws it all.
    """

    width = 120
    """Columns available for the track (set from the console by the caller)."""

    _asked: WhyFirstView | None = None
    """The view of the latest prompt (what the person has on screen)."""
    _listed: WhyFirstView | None = None
    """The view whose numbered hand :meth:`render` has just drawn above the card prompt."""

    # -- names and labels --------------------------------------------------------------------

    def figure_names(self, view: WhyFirstView) -> tuple[str, ...]:
        """Seat names, then Leo."""
        names = self.names[: view.players]
        return names + (("Leo",) if view.has_leo else ())

    @staticmethod
    def _letter(fig: int, view: WhyFirstView) -> str:
        """A figure's label on the board: its seat number, ``L`` for Leo."""
        return "L" if view.has_leo and fig == view.players else str(fig + 1)

    @staticmethod
    def _style(fig: int) -> str:
        return f"bold {COLOURS[fig % len(COLOURS)]}"

    def figure_choices(self, view: WhyFirstView) -> list[Choice[int]]:
        """Every figure, in board order (Leo last): by board label, name, ``you`` for the
        person's own figure and the record's ``P2`` form."""
        choices = []
        for fig, name in enumerate(self.figure_names(view)):
            forms = [self._letter(fig, view), f"P{fig + 1}"]
            if fig == view.seat:
                forms.append("you")
            choices.append(Choice(fig, name, tuple(forms)))
        return choices

    def _figure_list(self, view: WhyFirstView, choices: list[Choice[int]]) -> Text:
        text = Text()
        for choice in choices:
            text.append("  ")
            text.append(self._letter(choice.value, view), style=self._style(choice.value))
            text.append(f" {choice.label}")
        return text

    def _figure_range(self, view: WhyFirstView) -> str:
        """The board labels, as a prompt names them: ``1–4``; ``1, 2, L`` with Leo."""
        if view.has_leo or view.players < 3:
            return ", ".join(self._letter(f, view) for f in range(len(view.positions)))
        return f"1–{view.players}"

    # -- drawing -----------------------------------------------------------------------------

    def render_track(
        self, view: WhyFirstView, width: int = 120, legend: bool = True
    ) -> RenderableType:
        """The track as a grid: space numbers on top, figures stacked below their space.

        Fits the terminal: four or three columns per space when there is room; else two, with
        every other space numbered (80 columns hold the track of WF-1 that way); else the track
        is drawn in parts. The legend under it says where each figure stands.
        """
        low, high = view.track
        spaces = list(range(low, high + 1))
        label_every = 1
        if width >= 4 * len(spaces) + 1:
            cell, parts = 4, [spaces]
        elif width >= 3 * len(spaces) + 1:
            cell, parts = 3, [spaces]
        elif width >= 2 * len(spaces) + 2:
            cell, parts, label_every = 2, [spaces], 2
        else:
            cell = 4
            size = max(1, (width - 1) // cell)
            parts = [spaces[i : i + size] for i in range(0, len(spaces), size)]
        by_space: dict[int, list[int]] = {}
        for fig, pos in enumerate(view.positions):
            by_space.setdefault(pos, []).append(fig)
        lines: list[RenderableType] = []
        for part in parts:
            lines.append(self._ruler(part, cell, label_every))
            depth = max([len(by_space.get(space, [])) for space in part] + [1])
            for row in range(depth):
                line = Text(" " if label_every == 2 else "")
                for space in part:
                    figs = by_space.get(space, [])
                    line.append(" " * (cell - 1))
                    if row < len(figs):
                        line.append(self._letter(figs[row], view), style=self._style(figs[row]))
                    elif row == 0:
                        line.append("·", style="bold" if space == 0 else "dim")
                    else:
                        line.append(" ")
                line.rstrip()
                lines.append(line)
        if legend:
            lines.extend(self.render_legend(view, width))
        return Group(*lines)

    @staticmethod
    def _ruler(part: list[int], cell: int, label_every: int) -> Text:
        """Space numbers, right-aligned over each space's column (every other one if asked)."""
        if label_every == 1:
            ruler = Text()
            for space in part:
                ruler.append(f"{space:>{cell}}", style="bold" if space == 0 else "dim")
            return ruler
        # Two columns a space: a number may reach into the unnumbered space before it.
        chars = [" "] * (cell * len(part) + 1)
        bold: list[int] = []
        for i, space in enumerate(part):
            if space % label_every:
                continue
            label = str(space)
            end = cell * i + cell  # the column of the space's mark (one margin column first)
            start = end - len(label) + 1
            chars[max(0, start) : end + 1] = list(label[-(end + 1) :])
            if space == 0:
                bold.append(end)
        ruler = Text("".join(chars).rstrip(), style="dim")
        for col in bold:
            ruler.stylize("bold", col, col + 1)
        return ruler

    def render_legend(self, view: WhyFirstView, width: int = 120) -> list[Text]:
        """Who is who and on which space: ``1 You on 9   2 Bot 2 on -4``, packed into lines."""
        entries = []
        for fig, name in enumerate(self.figure_names(view)):
            entry = Text()
            entry.append(self._letter(fig, view), style=self._style(fig))
            entry.append(f" {name} on {view.positions[fig]}")
            entries.append(entry)
        return _packed(entries, width, "   ")

    def render_scores(
        self, view: WhyFirstView, positions: tuple[int, ...] = (), outcome: Any = None
    ) -> Table:
        """Points per stage and totals; with ``positions``, the space each figure finished on;
        with ``outcome``, each figure's rank and a trophy for the winners."""
        table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 2, 0, 0))
        table.add_column("")
        table.add_column("Score sheet", header_style="bold")
        if positions:
            table.add_column("space", justify="right")
        for i in range(view.stages):
            table.add_column(f"S{i + 1}", justify="right")
        table.add_column("total", justify="right", style="bold")
        if outcome is not None:
            table.add_column("rank", justify="right")
        history = list(view.stage_history)
        for fig, name in enumerate(self.figure_names(view)):
            cells = [f"{row[fig]:+d}" for row in history] + [""] * (view.stages - len(history))
            where = [str(positions[fig])] if positions else []
            label = Text(self._letter(fig, view), style=self._style(fig))
            ranked = []
            if outcome is not None:
                won = " 🏆" if fig in outcome.winners else ""
                ranked = [f"{outcome.ranks[fig]}{won}"]
            table.add_row(label, name, *where, *cells, f"{view.totals[fig]:+d}", *ranked)
        return table

    def render_sheet(self, view: WhyFirstView) -> RenderableType:
        """The score sheet (points per stage and totals)."""
        return self.render_scores(view)

    def render_hand(self, view: WhyFirstView, numbered: bool = False) -> Text:
        """The seat's own cards: values, with white numbers in the tactical variant only (in
        the base game they mean nothing, WF-2, and the view shows none). ``numbered`` shows
        the list numbers the card prompt reads."""
        if numbered:
            text = Text("Your cards:")
            for i, choice in enumerate(self.card_choices(view), 1):
                text.append(f"   {i}) ", style="bold")
                text.append_text(self._card_text(choice.value, view))
            return text
        text = Text("Your hand:")
        numbers: tuple[int | None, ...] = view.hand or (None,) * len(view.hand_values)
        for card, value in zip(numbers, view.hand_values, strict=True):
            text.append(f" {value:+d}", style="bold green" if value > 0 else "bold red")
            if card is not None:
                text.append(f" #{card}", style="dim")
        return text

    def _card_text(self, value_or_card: int, view: WhyFirstView) -> Text:
        """One entry of the card list: ``+3`` (base, ``+3 ×2`` for two alike) or ``+3 #25``."""
        text = Text()
        if view.tactical:
            value = view.card_values[value_or_card - 1]
            text.append(f"{value:+d}", style="bold green" if value > 0 else "bold red")
            text.append(f" #{value_or_card}", style="dim")
            return text
        value = value_or_card
        text.append(f"{value:+d}", style="bold green" if value > 0 else "bold red")
        count = view.hand_values.count(value)
        if count > 1:
            text.append(f" ×{count}", style="dim")
        return text

    def render(self, view: WhyFirstView) -> RenderableType:
        """Stage and round, the track and the seat's hand; in play, only what changed since
        the latest prompt (see the class docstring)."""
        last = self._asked
        again = last is not None and (last.stage, last.round) == (view.stage, view.round)
        parts: list[RenderableType] = []
        if not again:
            parts.append(
                Text(
                    f"Stage {min(view.stage + 1, view.stages)}/{view.stages} · "
                    f"round {min(view.round + 1, view.hand_size)}/{view.hand_size}"
                    + (" · tactical variant" if view.tactical else ""),
                    style="bold",
                )
            )
        if last is None or not again or last.positions != view.positions:
            parts.append(self.render_track(view, self.width))
        if not again and view.hand_values:
            asks_card = any(isinstance(a, PlaceCard | CommitCard) for a in view.legal_actions)
            parts.append(self.render_hand(view, numbered=asks_card))
            self._listed = view if asks_card else None
        if view.phase == "move" and view.move_queue:
            names = self.figure_names(view)
            order = ", ".join(
                f"{names[owner]} {view.card_values[c - 1]:+d} #{c}" for c, owner in view.move_queue
            )
            parts.append(Text(f"To move (highest # first): {order}"))
        return Group(*parts)

    def render_stage_end(self, view: WhyFirstView, event: Any) -> RenderableType:
        """Where the figures finished the stage, and the score sheet with the final spaces."""
        positions = tuple(event.data["positions"])
        final = replace(view, positions=positions)
        return Group(
            Text(""),
            Text(f"Stage {event.data['stage']} ended like this:", style="bold"),
            self.render_track(final, self.width, legend=False),
            self.render_scores(view, positions),
        )

    def render_outcome(self, view: Any, outcome: Any) -> RenderableType:
        """The score sheet with ranks; the second-highest total wins (WF-7)."""
        names = self.figure_names(view)
        won = " and ".join(names[w] for w in sorted(outcome.winners))
        return Group(
            self.render_scores(view, outcome=outcome),
            Text(f"Second-highest total wins (WF-7): {won}.", style="bold"),
        )

    # -- events ------------------------------------------------------------------------------

    @property
    def tactical(self) -> bool:
        """True in the tactical variant (WF-10)."""
        config = self.game.config
        return isinstance(config, WhyFirstConfig) and config.variant == "tactical"

    def pause_before(self, event: Event) -> str | None:
        """Wait before the automatic last round of the base game (WF-5): the round before it
        and the stage's end would not fit one screen together."""
        if event.kind == "last_round_automatic" and not self.tactical:
            return f"Press Enter for round {event.data['round']}, played automatically"
        return None

    def visible_events(self, events: Sequence[Event]) -> list[Event]:
        """As the base class, without the new hand (the next screen lists it) and the game's
        end (the final score sheet says it); in the base game the automatic last round's
        reveal is left out too: every card goes in front of its owner (WF-5) and the moves
        show each one."""
        said_elsewhere = {"hand_dealt", "game_over"}
        shown = [e for e in super().visible_events(events) if e.kind not in said_elsewhere]
        if self.tactical:
            return shown
        return [
            e
            for before, e in zip([None, *shown], shown, strict=False)
            if not (
                e.kind == "cards_revealed"
                and before is not None
                and before.kind == "last_round_automatic"
            )
        ]

    def describe_events(self, events: Sequence[Any]) -> list[str]:
        """As the base class, with the automatic last round said as it is played here."""
        lines = []
        for event in events:
            if event.kind == "last_round_automatic":
                r = event.data["round"]
                lines.append(
                    f"Round {r}: the last cards are committed automatically (WF-5); the moves "
                    "are still chosen."
                    if self.tactical
                    else f"Round {r}: everyone's last card goes in front of their own figure "
                    "(WF-5)."
                )
            else:
                lines.extend(super().describe_events([event]))
        return lines

    # -- asking ------------------------------------------------------------------------------

    def card_choices(self, view: WhyFirstView) -> list[Choice[int]]:
        """The cards the seat may play now: values in the base game (equal cards are alike,
        WF-2), white numbers in the tactical variant (``+3`` and ``#25`` both name one)."""
        legal = view.legal_actions
        if view.tactical:
            cards = sorted(
                (a.card for a in legal if isinstance(a, CommitCard)),
                key=lambda c: (view.card_values[c - 1], c),
            )
            return [
                Choice(
                    c,
                    f"{view.card_values[c - 1]:+d} #{c}",
                    (f"{view.card_values[c - 1]:+d}", f"#{c}"),
                )
                for c in cards
            ]
        values = sorted({a.value for a in legal if isinstance(a, PlaceCard)})
        return [Choice(v, f"{v:+d}") for v in values]

    def ask_action(self, view: WhyFirstView, prompter: Prompter) -> Any:
        """Ask for a card and a figure (base game), a card to commit or a figure to move
        (tactical variant, WF-10)."""
        listed, self._listed = self._listed is view, None
        self._asked = view
        legal = view.legal_actions
        if legal and isinstance(legal[0], MoveFigure):
            return self._ask_move(view, prompter)
        if not listed:
            prompter.console.print(self.render_hand(view, numbered=True))
        while True:
            card, figure = self._ask_card(view, prompter)
            if view.tactical:
                return CommitCard(card)
            if figure is None:
                try:
                    figure = self._ask_target(view, prompter, card)
                except Undo:
                    prompter.console.print(self.render_hand(view, numbered=True))
                    continue
            action = PlaceCard(card, figure)
            if action in legal:
                return action
            allowed = [
                self.figure_names(view)[a.target]
                for a in legal
                if isinstance(a, PlaceCard) and a.value == card
            ]
            prompter.console.print(
                Text(
                    f"{card:+d} may go only in front of {' or '.join(allowed)} now (WF-5).",
                    style="red",
                )
            )

    def _card_forms(self, view: WhyFirstView) -> str:
        count = len(self.card_choices(view))
        if view.tactical:
            return (
                f"Commit a card, face down: its number in the list (1–{count}), its value (+3, "
                "-2) or its white number (#32). A bare number is always a list number. The "
                "figure it moves is chosen after the reveal, when its white number's turn "
                "comes (WF-10)."
            )
        return (
            f"Play a card: its number in the list (1–{count}) or its value (+3, -2). Then say "
            "in front of whose figure, or name it on the same line, card first: +3 2, +3 leo, "
            f"2 you (figures: {self._figure_range(view)} as on the board, or a name). A bare "
            "number is always a list number."
        )

    def _ask_card(self, view: WhyFirstView, prompter: Prompter) -> tuple[int, int | None]:
        """Read a card (and in the base game perhaps a figure after it) until one is named."""
        choices = self.card_choices(view)
        figures = self.figure_choices(view)
        forms = self._card_forms(view)
        count = len(choices)
        # Examples from the person's own hand: the last card of the list.
        value = choices[-1].label.split()[0]
        if view.tactical:
            white = f"#{choices[-1].value}"
            prompt = f"Commit which card? (1–{count}, a value like {value}, or {white}): "
            hint = f"Type 1 to {count}, a value like {value} or a white number like {white}"
        else:
            prompt = (
                f"Which card? (1–{count} or a value like {value}; {value} 2 names the figure too): "
            )
            hint = f"Type 1 to {count} or a value like {value}"
        while True:
            answer = prompter.line(prompt, forms)
            head, _, rest = answer.replace(">", " ").partition(" ")
            if normalise(answer).startswith("#") and not view.tactical:
                prompter.console.print(
                    Text.assemble((_WHITE_NUMBERS_BASE, "red"), " ", hint + " (? for help).")
                )
                continue
            whole = match_choice(answer, choices)
            if len(whole) == 1:
                return whole[0].value, None
            first = match_choice(head, choices)
            target = match_choice(rest, figures) if rest.strip() else []
            if len(first) == 1 and len(target) == 1:
                if view.tactical:
                    prompter.console.print(
                        Text(
                            "In the tactical variant the figure is chosen after the reveal, "
                            "when your card's white number comes up (WF-10): type the card "
                            "alone.",
                            style="red",
                        )
                    )
                    continue
                return first[0].value, target[0].value
            if len(first) == 1 and rest.strip():
                prompter.console.print(
                    Text.assemble(
                        (f"{rest.strip()} is not a figure.", "red"),
                        f" Figures: {self._figure_range(view)} or a name (? for help).",
                    )
                )
                continue
            typed = normalise(head if rest.strip() else answer)
            if re.fullmatch(r"[+-]\d+|#\d+", typed) and not first and not whole:
                card = typed if typed.startswith("#") else f"{int(typed):+d}"
                held = "  ".join(c.label for c in choices)
                prompter.console.print(
                    Text.assemble((f"You hold no {card}.", "red"), f" Your cards: {held}.")
                )
                continue
            found = first if rest.strip() else whole
            which = hint
            if len(found) > 1:  # two cards of one value (tactical): the white number tells
                which = "Say which by its list number or white number"
            prompter.console.print(prompter.refusal(answer, choices, found, which))

    def _ask_target(self, view: WhyFirstView, prompter: Prompter, value: int) -> int:
        """In front of whose figure ``value`` goes; ``undo`` raises :class:`Undo`."""
        choices = self.figure_choices(view)
        prompter.console.print(
            Text(f"{value:+d} in front of whom?") + self._figure_list(view, choices)
        )
        span = self._figure_range(view)
        return prompter.choose(
            f"Figure ({span} or a name; undo to change the card): ",
            choices,
            forms=(
                f"Choose whose figure your {value:+d} goes in front of: its number on the board "
                f"({span}) or its name ({self._name_examples(view)}). undo goes back to the "
                "card: the move is not final until the figure is chosen."
            ),
            undo=True,
            hint=f"Type {span} or a name",
        )

    def _ask_move(self, view: WhyFirstView, prompter: Prompter) -> MoveFigure:
        """Which figure the seat's revealed card moves (tactical variant, WF-10)."""
        card = view.move_queue[0][0]
        value = view.card_values[card - 1]
        choices = self.figure_choices(view)
        prompter.console.print(
            Text(f"Your {value:+d} #{card} moves whom?") + self._figure_list(view, choices)
        )
        span = self._figure_range(view)
        figure = prompter.choose(
            f"Figure ({span} or a name): ",
            choices,
            forms=(
                f"Choose the figure your {value:+d} #{card} moves: its number on the board "
                f"({span}) or its name ({self._name_examples(view)}). Any figure, yours or "
                + ("another's, Leo's too (WF-10)." if view.has_leo else "another's (WF-10).")
            ),
            hint=f"Type {span} or a name",
        )
        return MoveFigure(figure)

    def _name_examples(self, view: WhyFirstView) -> str:
        names = [n.lower() for n in self.figure_names(view)]
        if view.seat is not None and names[view.seat] != "you":
            names.insert(0, "you")
        return ", ".join(names)


def _packed(entries: list[Text], width: int, gap: str) -> list[Text]:
    """``entries`` on as few lines of ``width`` columns as they fit, ``gap`` between them."""
    lines: list[Text] = []
    line = Text()
    for entry in entries:
        if line.cell_len and line.cell_len + len(gap) + entry.cell_len > width:
            lines.append(line)
            line = Text()
        if line.cell_len:
            line.append(gap)
        line.append_text(entry)
    lines.append(line)
    return lines


UI = WhyFirstUI
"""The game's terminal UI (its ``terminal`` plugin)."""
