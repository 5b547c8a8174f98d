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
    """Print ``message`` as an error and return the exit to raise (2: bad input)."""
    err_console.print(f"[red]error:[/] {message}")
    return typer.Exit(code)
