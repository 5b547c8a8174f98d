"""*Why First?* in the terminal: the track from −12 to 16, hands, placements and scores."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from racedeck.cli.prompt import Ask, Prompter
from racedeck.cli.terminal_ui import TerminalUI
from racedeck.games.why_first.actions import CommitCard, MoveFigure, PlaceCard
from racedeck.games.why_first.view import WhyFirstView

__all__ = ["WhyFirstUI"]

COLOURS = ("bright_red", "bright_blue", "bright_green", "yellow", "magenta", "cyan", "white")


class WhyFirstUI(TerminalUI):
    """Draws the track with every figure and asks for card and target in two short steps."""

    width = 120
    """Columns available for the track (set from the console by the caller)."""

    def figure_names(self, view: WhyFirstView) -> tuple[str, ...]:
        """Seat names, then Leo."""
        names = self.names[: view.players]
        return names + (("Leo",) if view.has_leo else ())

    def render_track(self, view: WhyFirstView, width: int = 120) -> RenderableType:
        """The track as a grid: space numbers on top, figures stacked below their space.

        Fits the terminal: four columns per space when there is room, else three, else the
        track is drawn in two halves.
        """
        low, high = view.track
        spaces = list(range(low, high + 1))
        cell = 4 if width >= 4 * len(spaces) + 1 else 3
        if cell * len(spaces) + 1 > width:
            cell = 4
            half = (len(spaces) + 1) // 2
            parts = [spaces[:half], spaces[half:]]
        else:
            parts = [spaces]
        by_space: dict[int, list[int]] = {}
        for fig, pos in enumerate(view.positions):
            by_space.setdefault(pos, []).append(fig)
        lines: list[RenderableType] = []
        for part in parts:
            header = Text()
            for space in part:
                header.append(f"{space:>{cell}}", style="bold" if space == 0 else "dim")
            lines.append(header)
            depth = max([len(by_space.get(space, [])) for space in part] + [1])
            for row in range(depth):
                line = Text()
                for space in part:
                    figs = by_space.get(space, [])
                    if row < len(figs):
                        line.append(" " * (cell - 1))
                        line.append(self._letter(figs[row], view), style=self._style(figs[row]))
                    else:
                        line.append(" " * cell if row else " " * (cell - 1) + "·")
                lines.append(line)
        legend = Text("  ")
        for fig, name in enumerate(self.figure_names(view)):
            legend.append(self._letter(fig, view), style=self._style(fig))
            legend.append(f"={name} ({view.positions[fig]:+d})  ")
        lines.append(legend)
        return Group(*lines)

    @staticmethod
    def _letter(fig: int, view: WhyFirstView) -> str:
        return "L" if view.has_leo and fig == view.players else str(fig + 1)

    @staticmethod
    def _style(fig: int) -> str:
        return f"bold {COLOURS[fig % len(COLOURS)]}"

    def render_scores(self, view: WhyFirstView) -> RenderableType:
        """Points per stage and totals."""
        table = Table(title="Score sheet", show_edge=False)
        table.add_column("")
        for i in range(view.stages):
            table.add_column(f"S{i + 1}", justify="right")
        table.add_column("total", justify="right", style="bold")
        for fig, name in enumerate(self.figure_names(view)):
            cells = [
                f"{row[fig]:+d}" if i < len(view.stage_history) else ""
                for i, row in enumerate(
                    list(view.stage_history) + [()] * (view.stages - len(view.stage_history))
                )
            ]
            table.add_row(name, *cells, f"{view.totals[fig]:+d}")
        return table

    def render_sheet(self, view: WhyFirstView) -> RenderableType:
        """The score sheet (points per stage and totals)."""
        return self.render_scores(view)

    def render_hand(self, view: WhyFirstView) -> RenderableType:
        """The seat's own cards: values, with white numbers in the tactical variant only (in
        the base game they mean nothing, WF-2, and the view shows none)."""
        text = Text("Your hand: ")
        numbers: tuple[int | None, ...] = view.hand or (None,) * len(view.hand_values)
        for card, value in zip(numbers, view.hand_values, strict=True):
            text.append(f" {value:+d}", style="bold green" if value > 0 else "bold red")
            if card is not None:
                text.append(f"(#{card})", style="dim")
        return text

    def render(self, view: WhyFirstView) -> RenderableType:
        """Stage and round, the track and the seat's hand."""
        title = Text(
            f"Stage {min(view.stage + 1, view.stages)}/{view.stages} · "
            f"round {min(view.round + 1, view.hand_size)}/{view.hand_size}"
            + (" · tactical variant" if view.variant == "tactical" else ""),
            style="bold",
        )
        parts: list[RenderableType] = [title, self.render_track(view, self.width)]
        if view.hand_values:
            parts.append(self.render_hand(view))
        if view.phase == "move" and view.move_queue:
            order = ", ".join(
                f"{self.figure_names(view)[owner]} {view.card_values[c - 1]:+d} (#{c})"
                for c, owner in view.move_queue
            )
            parts.append(Text(f"Still to move, highest white number first: {order}"))
        return Group(*parts)

    def ask_action(self, view: WhyFirstView, prompter: Prompter) -> Any:
        """Ask for a card, then for a target (base game); or a card, or a figure (tactical)."""
        ask, console = prompter, prompter.console
        legal = list(view.legal_actions)
        names = self.figure_names(view)
        if legal and isinstance(legal[0], MoveFigure):
            card = view.move_queue[0][0]
            console.print(
                f"Your {view.card_values[card - 1]:+d} (#{card}) moves which figure? "
                + "  ".join(f"[bold]{i + 1}[/]={n}" for i, n in enumerate(names))
            )
            fig = self._ask_index("Figure number: ", len(names), ask, console)
            return MoveFigure(fig)
        if legal and isinstance(legal[0], CommitCard):
            cards = list(view.hand)
            console.print(
                "Commit which card? "
                + "  ".join(
                    f"[bold]{i + 1}[/]={view.card_values[c - 1]:+d}(#{c})"
                    for i, c in enumerate(cards)
                )
            )
            idx = self._ask_index("Card number in the list: ", len(cards), ask, console)
            return CommitCard(cards[idx])
        values = sorted({a.value for a in legal if isinstance(a, PlaceCard)})
        while True:
            answer = ask(
                f"Play which card? ({' '.join(f'{v:+d}' for v in values)}; "
                "or e.g. '+3 2' for card and target): "
            ).strip()
            parsed = self._parse_place(answer, values, len(names))
            if isinstance(parsed, str):
                console.print(f"[red]{parsed}[/]")
                continue
            value, target = parsed
            if target is None:
                console.print(
                    "In front of whom? "
                    + "  ".join(f"[bold]{i + 1}[/]={n}" for i, n in enumerate(names))
                )
                target = self._ask_index("Figure number: ", len(names), ask, console)
            return PlaceCard(value, target)

    @staticmethod
    def _parse_place(answer: str, values: list[int], figures: int) -> tuple[int, int | None] | str:
        parts = answer.replace(">", " ").split()
        if not parts:
            return "Type a card value, e.g. " + f"{values[0]:+d}."
        try:
            value = int(parts[0])
        except ValueError:
            return f"{parts[0]!r} is not a card value; your cards: " + " ".join(
                f"{v:+d}" for v in values
            )
        if value not in values:
            # A bare positive number may mean the positive card; try its negative too.
            return f"You hold no {value:+d}; your cards: " + " ".join(f"{v:+d}" for v in values)
        if len(parts) == 1:
            return value, None
        target_text = parts[1].lower().lstrip("p")
        if target_text == "leo" and figures > 0:
            return value, figures - 1
        if target_text.isdigit() and 1 <= int(target_text) <= figures:
            return value, int(target_text) - 1
        return f"{parts[1]!r} is not a figure; type 1 to {figures}."

    @staticmethod
    def _ask_index(prompt: str, count: int, ask: Ask, console: Console) -> int:
        while True:
            answer = ask(prompt).strip()
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer) - 1
            console.print(f"[red]Type a number from 1 to {count}.[/]")

    def render_stage_end(self, view: WhyFirstView, event: Any) -> RenderableType:
        """Where the figures finished the stage, and the score sheet."""
        final = replace(view, positions=tuple(event.data["positions"]))
        return Group(
            Text(f"Stage {event.data['stage']} ended like this:", style="bold"),
            self.render_track(final, self.width),
            self.render_scores(view),
        )

    def render_outcome(self, view: Any, outcome: Any) -> RenderableType:
        """Track, score sheet and the winners (second-highest total)."""
        return Group(self.render_scores(view), super().render_outcome(view, outcome))


UI = WhyFirstUI
"""The game's terminal UI (its ``terminal`` plugin)."""
