"""What a game gives the compiled search (:mod:`racedeck.kernels.search`) besides its rules.

The search bot (:class:`racedeck.bots.search.SearchBot`) needs four things from a game: a
*determinization* — a full state its view allows, every hidden card dealt again — the rules to
play it on, where the playout may stop and what a position or a finished game is worth. A
:class:`SearchKernel` gives the same four on a game's step kernel
(:class:`~racedeck.kernels.batch.StepKernel`), so the whole search runs in compiled code:

- :attr:`SearchKernel.load` (Python, once a decision) writes an engine state into a row. The
  search loads ``game.sample_state(view, rng)``, one state the bot's view allows, and from then
  on only :attr:`SearchKernel.redeal` makes new ones, so the compiled search sees nothing but
  what that view holds.
- :attr:`SearchKernel.redeal` (compiled) draws a row's secrets afresh *as the game's sampler
  does*: ``redeal(ints, bits, i, seat, t, streams)`` keeps everything ``seat``'s view shows and
  deals everything it does not (other hands, piles, the others' concealed choices, the chance
  to come) uniformly among what the view allows, from the SplitMix64 stream ``streams[i]``.
  Applied to a row loaded from any state consistent with a view, it gives states distributed
  exactly as ``game.sample_state(view, rng)`` (the tests compare the two).
- :attr:`SearchKernel.group` (compiled) says which decisions are *simultaneous and concealed*
  (:meth:`Game.conceals`): ``group(ints, bits, i, t)`` is -1 when the next decision is seen as it
  is taken, else a number that stays the same for every decision of one concealed group (the
  commits of one round of *Why First?*, WF-4; the answers of one Setback BLOCK window, SB-9)
  and differs from the group before it.
- :attr:`SearchKernel.horizon`, :attr:`SearchKernel.estimate`, :attr:`SearchKernel.values`
  (compiled) are the game's :class:`~racedeck.bots.playouts.Playout` and
  :func:`racedeck.bots.search.rewards`: ``horizon(ints, bits, i, t) -> int`` changes where a
  playout stops (the stage, the race; constant where only :attr:`SearchKernel.depth` cuts);
  ``estimate(ints, bits, i, t, out)`` writes each seat's value of an unfinished position and
  ``values(ints, bits, i, t, out)`` each seat's reward of a finished game (``out``: float64, one
  per seat), the same numbers as the Python playout and ``rewards``.

Like every kernel function these make no array (they run without reference counting): scratch
they need lives in the step kernel's tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.kernels.batch import StepKernel

__all__ = ["SearchKernel"]


@dataclass(frozen=True)
class SearchKernel:
    """One game and configuration as the compiled search needs it (see the module docstring)."""

    step: StepKernel
    """The rules, the legal actions, the heuristic."""
    load: Callable[[Any, NDArray[np.int64], NDArray[np.uint64], tuple[Any, ...]], None]
    """``load(state, ints_row, bits_row, tables)``: the engine state as the step kernel's row."""
    redeal: Any
    group: Any
    horizon: Any
    estimate: Any
    values: Any
    encode: Callable[[Any], int]
    """An engine action's index in the game's action encoding."""
    decode: Callable[[int], Any]
    """The engine action of an index."""
    depth: int = -1
    """At most so many playout decisions before :attr:`estimate` (-1: no limit)."""
    playout_heuristic: bool = False
    """Playouts choose as the step kernel's heuristic (else uniformly at random)."""
