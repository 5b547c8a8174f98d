"""Where the commands print, and how a command stops on bad input."""

from __future__ import annotations

import typer
from rich.console import Console

__all__ = ["console", "err_console", "fail"]

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
