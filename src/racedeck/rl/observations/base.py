"""What every observation encoding offers, and the small writer they share.

An :class:`Observer` turns a seat's *view* — never a state — into a NumPy ``float32`` vector of a
length fixed by the configuration (:attr:`Observer.size`), every entry between -1 and 1, so
that what a learner sees is exactly what the seat may know.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

__all__ = ["HIGH", "LOW", "Observer", "Vector"]

LOW = -1.0
"""The smallest value any entry takes."""
HIGH = 1.0
"""The largest value any entry takes."""

V = TypeVar("V")


class Observer(ABC, Generic[V]):
    """Encodes views of one game and configuration as vectors of :attr:`size` entries."""

    size: int
    """The length of every vector."""

    @abstractmethod
    def encode(self, view: V) -> NDArray[np.float32]:
        """The vector of ``view`` (a seat's view; a spectator's works as well)."""


class Vector:
    """A vector written field by field, each entry clipped to ``[-1, 1]``."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[float] = []

    def one_hot(self, index: int | None, size: int) -> None:
        """``size`` entries, a one at ``index`` (none when it is ``None`` or out of range)."""
        row = [0.0] * size
        if index is not None and 0 <= index < size:
            row[index] = 1.0
        self.items += row

    def flags(self, values: Iterable[Any]) -> None:
        """One entry per value: 1 for a true one, else 0."""
        self.items += [1.0 if v else 0.0 for v in values]

    def scaled(self, values: Iterable[float], scale: float) -> None:
        """One entry per value: ``value / scale``, clipped to ``[-1, 1]`` (0 when scale is 0)."""
        if scale <= 0:
            self.items += [0.0 for _ in values]
            return
        self.items += [max(LOW, min(HIGH, v / scale)) for v in values]

    def tally(self, slots: Iterable[int], size: int, scale: float) -> None:
        """``size`` entries: how many of ``slots`` name each slot, divided by ``scale`` and
        clipped."""
        row = [0.0] * size
        for slot in slots:
            row[slot] += 1.0
        self.scaled(row, scale)

    def array(self, size: int) -> NDArray[np.float32]:
        """The vector as a NumPy array; it must hold exactly ``size`` entries."""
        if len(self.items) != size:
            # The layout and the declared size are written side by side: a mismatch is a bug.
            raise RuntimeError(f"an observation of {len(self.items)} entries, expected {size}")
        return np.asarray(self.items, dtype=np.float32)
