"""Where the commands print, and how a command stops on bad input."""

from __future__ import annotations

import os

import typer
from rich.console import Console, RenderableType

__all__ = ["console", "err_console", "fail", "print_paged"]

console = Console()
"""Results and tables."""

err_console = Console(stderr=True)
"""Errors, warnings and progress."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``message`` as an error and return the exit to raise (2: bad input).

    The message is printed as it is, on one line, never read as markup: it may quote what a
    stranger typed or wrote into a record.
    """
    err_console.print("[red]error:[/] ", end="")
    err_console.print(message, markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code)


def print_paged(out: Console, shown: RenderableType) -> None:
    """Print ``shown``; on a terminal, page it when it is taller than the screen (as git does),
    so its start does not scroll away."""
    if out.is_terminal and len(out.render_lines(shown, pad=False)) > out.height - 1:
        os.environ.setdefault("LESS", "-R")  # less shows the colours instead of their codes
        with out.pager(styles=True):
            out.print(shown)
        return
    out.print(shown)
