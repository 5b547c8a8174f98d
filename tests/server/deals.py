"""Setback deals known in advance, for tests that need BLOCK windows (SB-9).

A test server hands out known server seeds (:class:`server.live.Seeds`), so the deal of a
table is known before it is dealt: a test picks one that gives it the windows it needs
instead of dealing again until such a window comes. :func:`windows` plays a deal offline the
way those tests play it live, and :func:`first` finds a deal; each test asserts that the game
it plays is the one planned here, so a change of the rules that moves a window fails loudly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from racedeck.core.fairness import game_seed
from racedeck.core.registry import get_spec
from racedeck.core.table import Table
from racedeck.server.live import view_json
from server.live import seed

__all__ = ["HELD_THEN_FORCED", "Window", "first", "windows"]


class Window(NamedTuple):
    """A BLOCK window: the move number it opened at, the seats it asks, and those of them
    that hold a BLOCK (the others' passes are forced)."""

    move: int
    asked: tuple[int, ...]
    holders: tuple[int, ...]


def windows(n: int, players: int = 2) -> list[Window]:
    """The BLOCK windows of the Setback deal of server seed ``seed(n)`` (no client seeds),
    in order, when each person takes the first legal action of their view on their turn and
    every window is answered by passes (forced, chosen, or on the window's clock)."""
    spec = get_spec("setback")
    game = spec.factory(spec.make_config(players=players))
    table = Table(game, game_seed(seed(n), [""] * players))
    names = [f"P{i}" for i in range(players)]
    out: list[Window] = []
    while not table.is_over:
        public = set(game.public_acting(table.state))
        asked = tuple(s for s in table.pending if s not in public)
        if asked:
            holders = tuple(s for s in asked if game.forced_action(table.state, s) is None)
            out.append(Window(table.move, asked, holders))
            for s in sorted(asked):
                passed = game.timeout_action(table.state, s)
                assert passed is not None
                table.submit_json(s, passed.to_json())
            continue
        if table.forced_step() is not None:
            continue
        mover = table.pending[0]
        table.submit_json(mover, view_json(table, mover, names)["legal_actions"][0])
    return out


def first(wanted: Callable[[list[Window]], bool], limit: int = 1000) -> int:
    """The smallest ``n`` whose deal's windows are ``wanted`` (how the seeds below were
    found)."""
    for n in range(1, limit):
        if wanted(windows(n)):
            return n
    raise AssertionError(f"no deal among the first {limit} seeds gives such windows")


HELD_THEN_FORCED = 25
"""``seed(25)``: its first BLOCK window (move 1) asks seat 0, who holds a BLOCK; the second
(move 3) asks seat 1, who holds none; the third (move 5) asks seat 0 holding one again, the
fourth (move 7) seat 1 holding none. Found by ``first(lambda w: [bool(x.holders) for x in
w[:4]] == [True, False, True, False])``."""
