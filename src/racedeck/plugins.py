"""Loading what a game offers each face (bots, terminal, report, web …) from its registration.

A game's :class:`~racedeck.core.spec.GameSpec` names a module per face in ``plugins``; the
faces call :func:`plugin` instead of switching on game ids, so a new game is one folder, its
face modules and one registration.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from racedeck.core.registry import get_spec

__all__ = ["optional_plugin", "plugin"]


def plugin(game_id: str, face: str) -> ModuleType:
    """Import and return the module ``game_id`` registered for ``face``.

    Raises :class:`KeyError` naming the faces the game offers when it has none for ``face``.
    """
    spec = get_spec(game_id)
    try:
        path = spec.plugins[face]
    except KeyError:
        offered = ", ".join(sorted(spec.plugins)) or "none"
        raise KeyError(f"{game_id} offers no {face!r} plugin (it offers: {offered})") from None
    return importlib.import_module(path)


def optional_plugin(game_id: str, face: str) -> ModuleType | None:
    """The module ``game_id`` registered for ``face``, or ``None`` when it registered none
    (the face then falls back to what it offers every game)."""
    path = get_spec(game_id).plugins.get(face)
    return importlib.import_module(path) if path is not None else None
