"""The games' rules pages (docs/rules/<game-id>.md)."""

from __future__ import annotations

__all__ = ["available", "brief", "page", "ruling"]


def available() -> tuple[str, ...]:
    """Ids of the games that have a rules page."""
    return ()


def page(game_id: str) -> str:
    """The whole rules page of ``game_id`` as Markdown."""
    raise KeyError(game_id)


def brief(game_id: str) -> str:
    """The "In brief" section of the page."""
    raise KeyError(game_id)


def ruling(game_id: str, ruling_id: str) -> str | None:
    """One ruling's section, or ``None``."""
    return None
