"""``racedeck replay``: step through a saved game, forward and back, with the board and the
score sheet at every step; or print every step when nobody is there to press keys.

A replay shows one seat's view (its hand included) or the spectator's: the events it narrates
are that viewer's feed, and an action the game conceals from the others (a face-down commit,
an answer in a BLOCK window) is not named to them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from racedeck.cli.console import console, fail
from racedeck.cli.records import load_record
from racedeck.cli.terminal_ui import Ask, TerminalUI, ui_for
from racedeck.core.errors import InvalidRecord, RacedeckError
from racedeck.core.events import Event, feed
from racedeck.core.game import Game
from racedeck.core.outcome import Outcome
from racedeck.core.record import CLOCK_KEY, ClockNote, GameRecord
from racedeck.core.record import replay as replay_record

__all__ = [
    "KEYS",
    "Command",
    "Frame",
    "Stepper",
    "build_frames",
    "parse_key",
    "print_steps",
    "replay_cmd",
    "seat_names",
]

KEYS: tuple[tuple[str, str], ...] = (
    ("Enter or n", "next step"),
    ("b or p", "previous step"),
    ("a number", "go to that step (0 is the deal)"),
    ("s / e", "the start / the end"),
    ("t", "the score sheet in place of the board, and back"),
    ("a", "this step whole: every event, board and sheet, even if it scrolls"),
    ("?", "this help"),
    ("q", "quit"),
)
"""The stepper's keys and what they do (shown by ``?`` and in the README)."""

PROMPT = "Enter next · b back · 12 go to · s/e start/end{sheet} · ? help · q quit: "
"""The prompt under every step; ``{sheet}`` names the ``t`` key where a sheet exists."""


def seat_names(record: GameRecord, game: Game[Any, Any, Any]) -> list[str]:
    """The seat names a record's ``meta`` gives (``racedeck play`` saves them), else the game's.

    Raises :class:`InvalidRecord` when ``meta`` names the seats wrongly.
    """
    names = record.meta.get("names")
    if names is None:
        return list(game.seat_names())
    if (
        not isinstance(names, list)
        or len(names) != game.num_players
        or not all(isinstance(n, str) and n for n in names)
    ):
        raise InvalidRecord(
            f"record field meta.names must list {game.num_players} seat names, got {names!r}"[:200]
        )
    return names


def _default_viewer(record: GameRecord, players: int) -> int | None:
    """The seat of the person who played the record (``meta.human_seat``), else a spectator."""
    seat = record.meta.get("human_seat")
    return seat if type(seat) is int and 0 <= seat < players else None


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay as its viewer sees it: step 0 is the deal, step k follows the
    k-th action."""

    index: int
    action: str
    """Who did what, in words (empty for the deal)."""
    events: tuple[str, ...]
    """The viewer's share of the step's events, one line each."""
    state: Any
    scored: Event | None = None
    """The event that scored a stage (a race) in this step, if one did."""


def build_frames(
    game: Game[Any, Any, Any],
    record: GameRecord,
    steps: Sequence[Any],
    ui: TerminalUI,
    viewer: int | None,
) -> list[Frame]:
    """Every step of ``record`` in the viewer's words, worked out in order once (some UIs
    thin the events by what they have already said, so going back must not narrate anew)."""
    names = ui.names
    start = game.start(record.seed)

    def lines(events: Sequence[Event]) -> tuple[str, ...]:
        return tuple(ui.describe_events(ui.visible_events(feed(events, viewer))))

    def scored(events: Sequence[Event]) -> Event | None:
        return next((e for e in reversed(events) if e.kind in ui.stage_end_kinds), None)

    notes = _clock_notes_by_move(record, names)
    frames = [Frame(0, "", lines(start.events), start.state)]
    before = start.state
    for step in steps:
        who = names[step.seat]
        # A face-down commit (WF-4), a BLOCK window's answer, BLOCK or pass (SB-9): the others
        # only learn that the seat decided.
        if step.seat != viewer and game.conceals(before, step.seat, step.action):
            said = f"{who} {'decide' if who == 'You' else 'decides'} in secret."
        else:
            said = f"{who}: {game.describe_action(step.action, names)}"
        # What the table's clock did before this action (a timeout, a takeover, a return).
        told = notes.get(step.index, ())
        frames.append(
            Frame(
                step.index + 1,
                said,
                told + lines(step.events),
                step.state,
                scored(step.events),
            )
        )
        before = step.state
    after = notes.get(len(steps), ())
    if after:
        last = frames[-1]
        frames[-1] = Frame(last.index, last.action, last.events + after, last.state, last.scored)
    return frames


def _clock_notes_by_move(record: GameRecord, names: Sequence[str]) -> dict[int, tuple[str, ...]]:
    """The record's clock notes in words, by the number of actions taken before them."""
    from racedeck.bots.levels import find_level  # the bots package loads the search machinery

    clock = record.meta.get(CLOCK_KEY)
    bot = str(clock.get("bot", "stand-in")) if isinstance(clock, dict) else "stand-in"
    level = find_level(bot)
    if level is not None:  # a level reads as in the form that chose it: "the Casual bot"
        bot = level.title
    out: dict[int, tuple[str, ...]] = {}
    for note in record.clock_notes:
        out[note.move] = (*out.get(note.move, ()), clock_words(note, names, bot))
    return out


def clock_words(note: ClockNote, names: Sequence[str], bot: str) -> str:
    """One clock note as a line of the replay."""
    who = names[note.seat] if 0 <= note.seat < len(names) else f"seat {note.seat + 1}"
    if note.kind == "timeout":
        return f"{who} ran out of time: the {bot} bot plays for them."
    if note.kind == "away":
        return f"{who} left: the {bot} bot plays for them."
    if note.kind == "back":
        return f"{who} is back."
    return f"The window's clock ran out for {who}: they pass."


@dataclass(frozen=True, slots=True)
class Command:
    """What a key asks the stepper to do: go to ``target``, or one of the other ``kind``s."""

    kind: str
    """``go``, ``sheet``, ``all``, ``help``, ``quit`` or ``bad``."""
    target: int = 0
    message: str = ""


def parse_key(answer: str, current: int, last: int) -> Command:
    """The command a typed line means at step ``current`` of ``0..last``."""
    key = answer.strip().lower()
    if key in ("", "n"):
        if current == last:
            return Command("bad", message="That is the last step: b goes back, q quits.")
        return Command("go", current + 1)
    if key in ("b", "p"):
        if current == 0:
            return Command("bad", message="That is the deal, the first step: Enter goes on.")
        return Command("go", current - 1)
    if key == "s":
        return Command("go", 0)
    if key == "e":
        return Command("go", last)
    if key.isdigit():
        if int(key) > last:
            return Command("bad", message=f"There is no step {int(key)}: steps go 0 to {last}.")
        return Command("go", int(key))
    if key in ("q", "quit"):
        return Command("quit")
    if key in ("?", "h", "help"):
        return Command("help")
    if key == "t":
        return Command("sheet")
    if key == "a":
        return Command("all")
    shown = answer.strip()[:20]
    return Command("bad", message=f"{shown} is not a key here; ? lists them.")


Lines = list[list[Segment]]


class Stepper:
    """Shows one frame at a time, fitted to the console, and reads keys until ``q``."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        frames: Sequence[Frame],
        ui: TerminalUI,
        viewer: int | None,
        title: str,
        console: Console,
        ask: Ask,
    ) -> None:
        self.game = game
        self.frames = list(frames)
        self.ui = ui
        self.viewer = viewer
        self.title = title
        self.console = console
        self.ask = ask
        self.sheet_first = False
        """``t`` shows the score sheet where the board goes."""

    @property
    def last(self) -> int:
        """The number of the last step."""
        return len(self.frames) - 1

    def view(self, frame: Frame) -> Any:
        """The viewer's view after ``frame``'s step."""
        return self.game.observe(frame.state, self.viewer)

    def outcome(self, frame: Frame) -> Outcome | None:
        """The outcome when ``frame`` ends the game."""
        return self.game.outcome(frame.state)

    def heading(self, frame: Frame) -> Text:
        """``Step 12/80 Bot 2: +3 in front of You``, then the game, seed and whose view
        on the same line when it fits (a line saved for the board on a small screen)."""
        text = Text()
        text.append(f"Step {frame.index}/{self.last}", style="bold reverse")
        text.append(" ")
        text.append(frame.action or "The deal.", style="bold")
        for title in (self.title, self.title.rpartition(" · ")[2]):
            room = self.console.width - text.cell_len - len(title) - 3
            if room >= 0:
                text.append(" " * (room + 3) + title, style="dim")
                break
        return text

    @staticmethod
    def events(frame: Frame, indent: int = 2) -> RenderableType:
        """The step's events, one indented paragraph each."""
        return Group(*(Padding(Text(e), (0, 0, 0, indent), expand=False) for e in frame.events))

    def board(self, frame: Frame) -> RenderableType:
        """The table after the step; at the end, the result in its place."""
        view = self.view(frame)
        outcome = self.outcome(frame)
        if outcome is not None:
            return self.ui.render_outcome(view, outcome)
        return self.ui.render(view)

    def sheet(self, frame: Frame) -> RenderableType | None:
        """The score sheet after the step: where a stage (race) was scored, how it ended
        and the sheet, as the game shows it then; none at the end (the result holds it)."""
        if self.outcome(frame) is not None:
            return None
        if frame.scored is not None:
            return self.ui.render_stage_end(self.view(frame), frame.scored)
        return self.ui.render_sheet(self.view(frame))

    def _lines(self, renderable: RenderableType) -> Lines:
        options = self.console.options.update(width=self.console.width, height=None)
        return self.console.render_lines(renderable, options, pad=False)

    def _note(self, words: str) -> list[Segment]:
        return [Segment(words, self.console.get_style("dim"))]

    def screen(self, frame: Frame, message: str = "") -> Lines:
        """The frame fitted to the console's height, the prompt's line left free: heading,
        events (at least three lines), the board (cut with a note if it must be) and the
        sheet when there is room for it whole."""
        self.ui.width = self.console.width  # the window may have changed since the last step
        height = self.console.height - 1 - (1 if message else 0)
        heading = self._lines(self.heading(frame))
        events = self._lines(self.events(frame)) if frame.events else []
        board = self._lines(self.board(frame))
        sheet_renderable = self.sheet(frame)
        sheet = self._lines(sheet_renderable) if sheet_renderable is not None else []
        if self.sheet_first and sheet:
            board, sheet = sheet, board
        room = height - len(heading)
        fits = bool(sheet) and len(events) + len(board) + len(sheet) <= room
        note = bool(sheet) and not fits  # a line saying that t shows what did not fit
        room -= 1 if note else 0
        shown = min(len(events), max(3, room - len(board)))
        if shown < len(events):
            more = len(events) - shown + 1
            events = [*events[: shown - 1], self._note(f"  … {more} more lines: a shows all")]
        room -= len(events)
        if len(board) > room:
            cut = len(board) - room + 1
            board = [*board[: max(room - 1, 0)], self._note(f"… {cut} more lines: a shows all")]
        room -= len(board) + (len(sheet) if fits else 0)
        gap: Lines = [[]] if room > 0 else []  # a blank line where it costs nothing
        out = [*heading, *events, *gap, *board]
        if fits:
            out.extend([[]] if room > 1 else [])
            out.extend(sheet)
        elif note:
            what = "the board" if self.sheet_first else "the score sheet"
            out.append(self._note(f"t shows {what}"))
        return out

    def whole(self, frame: Frame) -> RenderableType:
        """The frame uncut: heading, every event, the board and the sheet."""
        parts: list[RenderableType] = [self.heading(frame)]
        parts.append(self.events(frame))
        parts.append(self.board(frame))
        sheet = self.sheet(frame)
        if sheet is not None:
            parts.append(sheet)
        return Group(*parts)

    def show(self, lines: Lines) -> None:
        """Clear the screen (on a terminal) and draw ``lines``."""
        self.console.clear()
        segments: list[Segment] = []
        for line in lines:
            segments.extend(line)
            segments.append(Segment.line())
        self.console.print(Segments(segments), end="")

    def help(self) -> Table:
        """The keys and what they do."""
        table = Table(title="Replay keys", title_justify="left", show_edge=False)
        table.add_column("key", style="bold")
        table.add_column("does")
        for key, does in KEYS:
            table.add_row(key, does)
        return table

    def run(self, start: int = 0) -> None:
        """Show frames and read keys until ``q`` (or the end of input)."""
        current = start
        message = ""
        extra: RenderableType | None = None
        while True:
            frame = self.frames[current]
            if extra is not None:
                self.console.clear()
                self.console.print(extra)
            else:
                self.show(self.screen(frame, message))
                if message:
                    self.console.print(message, style="yellow", markup=False, highlight=False)
            message = ""
            has_sheet = self.sheet(frame) is not None
            if extra is not None:
                answer = self.ask(f"Enter goes back to step {current}, or type a key: ")
            else:
                answer = self.ask(PROMPT.format(sheet=" · t sheet" if has_sheet else ""))
            if extra is not None and not answer.strip():
                extra = None  # Enter leaves the help (or the whole step) for the step itself
                continue
            extra = None
            command = parse_key(answer, current, self.last)
            if command.kind == "go":
                current = command.target
            elif command.kind == "quit":
                return
            elif command.kind == "help":
                extra = self.help()
            elif command.kind == "all":
                extra = self.whole(frame)
            elif command.kind == "sheet" and has_sheet:
                self.sheet_first = not self.sheet_first
            elif command.kind == "sheet":
                message = "No score sheet at this step: the board shows where everyone stands."
            else:
                message = command.message


def print_steps(frames: Sequence[Frame], stepper: Stepper, console: Console) -> None:
    """Every step one after the other, without waiting: who did what and the events, then
    the final board and result."""
    for frame in frames:
        if frame.index:
            console.print(f"[dim]#{frame.index}[/] ", end="")
            console.print(frame.action, style="bold", markup=False, highlight=False)
        if frame.events:
            console.print(stepper.events(frame, 3 if frame.index else 0))
    end = frames[-1]
    if stepper.outcome(end) is None:
        console.print(stepper.ui.render(stepper.view(end)))
        console.print("[yellow]The record ends before the game does.[/]")
    else:
        console.print(stepper.board(end))


def _is_terminal() -> bool:
    """True when a person can press keys and watch the screen."""
    return sys.stdin.isatty() and console.is_terminal


def replay_cmd(
    path: Annotated[Path, typer.Argument(help="a record saved by `racedeck play`", exists=True)],
    seat: Annotated[
        int | None,
        typer.Option(
            help="whose view to show, 1-based (their hand included); default: the seat of the "
            "person who played, else a spectator's"
        ),
    ] = None,
    spectator: Annotated[
        bool, typer.Option("--spectator", help="show the spectator's view (no hands)")
    ] = False,
    step: Annotated[
        bool | None,
        typer.Option(
            "--step/--print",
            help="step through with keys, or print every step at once; default: step on a "
            "terminal, print into a pipe",
        ),
    ] = None,
) -> None:
    """Step through a saved game: the board and score sheet at every step, forward and back
    (Enter next, b back, a number to jump, q to quit, ? for the keys)."""
    try:
        record = load_record(path)
        game = record.make_game()
        names = seat_names(record, game)
        steps = list(replay_record(record))  # the whole record replays before any is shown
    except (ValueError, RacedeckError) as exc:
        raise fail(f"{path}: {exc}") from exc
    n = game.num_players
    if seat is not None and not 1 <= seat <= n:
        raise fail(f"--seat must be between 1 and {n}, got {seat}")
    if seat is not None and spectator:
        raise fail("--seat and --spectator each choose the view: give one of them")
    viewer = None if spectator else seat - 1 if seat is not None else _default_viewer(record, n)
    ui = ui_for(game, names)
    ui.seat = viewer
    ui.width = console.width
    frames = build_frames(game, record, steps, ui, viewer)
    whose = (
        "spectator's view"
        if viewer is None
        else "your view"
        if names[viewer] == "You"
        else f"{names[viewer]}'s view"
    )
    title = f"{game.spec.title} · seed {record.seed} · {whose}"
    stepper = Stepper(game, frames, ui, viewer, title, console, console.input)
    if not (_is_terminal() if step is None else step):
        console.print(
            f"[bold]{game.spec.title}[/] · seed {record.seed} · {len(steps)} actions · {whose}"
        )
        print_steps(frames, stepper, console)
        return
    try:
        stepper.run()
    except EOFError:  # the end of the input ends the replay as q does
        console.print()
    except KeyboardInterrupt:
        console.print()
        raise typer.Exit(130) from None
