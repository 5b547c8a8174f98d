"""Random configurations of each game, for the properties that must hold across all of them:
every player count, and the variants and options that change what a view shows."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st

import racedeck

GAMES = ("why-first", "six-day-race", "setback")


def _riders(players: int) -> tuple[int, ...]:
    """SD-12: two riders each for two players, one from five players on, either between."""
    return (2,) if players == 2 else (1, 2) if players <= 4 else (1,)


CASES: list[tuple[str, dict[str, Any]]] = [
    *(
        ("why-first", {"players": n, "variant": v})
        for n in range(2, 7)
        for v in ("base", "tactical")
    ),
    *(("six-day-race", {"players": n, "riders": r}) for n in range(2, 9) for r in _riders(n)),
    *(("setback", {"players": n}) for n in range(2, 7)),
]
"""Every player count of every game, with what most changes a view: *Why First?*'s base game
and tactical variant (two players play with Leo, WF-9), one or two riders each in *Six Day
Race*. The other options are drawn (:func:`configs`)."""


@st.composite
def _why_first(draw: st.DrawFn) -> dict[str, Any]:
    """Short or long games (WF-7), small or full hands (WF-3)."""
    return {
        "stages": draw(st.integers(min_value=1, max_value=5)),
        "hand_size": draw(st.sampled_from([2, 3, 5])),
    }


@st.composite
def _six_day_race(draw: st.DrawFn) -> dict[str, Any]:
    """One or two races, the full or a short track, and small grey decks (riders run out of
    cards and change)."""
    options: dict[str, Any] = {"races": draw(st.integers(min_value=1, max_value=2))}
    if draw(st.booleans()):
        options.update(line=45, sprints=(15, 30), rider_change=17, crash=27)
        if draw(st.booleans()):
            options.update(grey_low=(3, 3, 2), grey_high=(2, 1, 2))
    return options


@st.composite
def _setback(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly the default options, sometimes others: what a player may BLOCK (SB-9), the
    window's length online, rows, hands and draws."""
    options: dict[str, Any] = {"window_seconds": draw(st.sampled_from([0, 3, 10]))}
    if draw(st.booleans()):
        options.update(
            rows=draw(st.sampled_from([3, 4, 8])),
            hand_size=draw(st.integers(min_value=1, max_value=4)),
            draw_count=draw(st.integers(min_value=0, max_value=3)),
            rows_removable=draw(st.integers(min_value=0, max_value=3)),
            self_block=draw(st.sampled_from(["board", "all", "none"])),
            edge_bump=draw(st.sampled_from(["backward", "forward"])),
        )
    return options


STRATEGIES = {"why-first": _why_first(), "six-day-race": _six_day_race(), "setback": _setback()}


def configs(game_id: str, fixed: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Options of ``game_id`` for :func:`make_game`: ``fixed`` and the rest drawn."""
    return STRATEGIES[game_id].map(lambda drawn: {**fixed, **drawn})


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    """A test id for one of :data:`CASES`."""
    game_id, fixed = case
    return "-".join([game_id, *(f"{k}={v}" for k, v in fixed.items())])


def make_game(game_id: str, options: dict[str, Any]) -> Any:
    """The game of ``options``, made once per configuration (making a Setback costs as much
    as playing a game of it)."""
    return _made(game_id, tuple(sorted(options.items())))


@functools.cache
def _made(game_id: str, options: tuple[tuple[str, Any], ...]) -> Any:
    return racedeck.make(game_id, **dict(options))
