"""A progress display for many games: done/total, games per second, elapsed time and ETA."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

__all__ = ["GamesPerSecondColumn", "game_progress"]


class GamesPerSecondColumn(ProgressColumn):
    """The recent rate of finished games (Rich's moving estimate), e.g. ``312 games/s``."""

    def render(self, task: Task) -> Text:
        """Render the rate, or a dash before there is one."""
        speed = task.finished_speed or task.speed
        shown = "–" if speed is None else f"{speed:,.0f}" if speed >= 10 else f"{speed:.1f}"
        return Text(f"{shown} games/s", style="progress.data.speed")


@contextmanager
def game_progress(
    total: int,
    description: str = "games",
    *,
    completed: int = 0,
    console: Console | None = None,
    transient: bool = False,
) -> Iterator[Callable[[int], None]]:
    """Show progress over ``total`` games while the block runs; yield ``advance(n)``.

    ``completed`` games count as done from the start (a resumed run) without inflating the
    rate. The display goes to ``console`` (standard error by default) and stays silent when
    that is not a terminal, so output captured by a pipe or a test holds no progress frames.
    """
    console = console or Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecondColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=transient,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(description, total=total, completed=completed)

        def advance(n: int) -> None:
            progress.advance(task, n)

        yield advance
