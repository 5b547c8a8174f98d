"""What every observation encoding offers, and the layout they write through.

An :class:`Observer` turns a seat's *view* — never a state — into a NumPy ``float32`` vector of a
length fixed by the configuration (:attr:`Observer.size`), every entry between -1 and 1, so
that what a learner sees is exactly what the seat may know.

An encoder runs at every step of every RL face, so it does little per entry: a
:class:`Layout`, worked out once per configuration, gives each field its offset and each entry
the number it is divided by; the encoder writes only the plain quantities that are not zero
(counts, spaces, places, ones for flags), and the layout divides, clips and rounds them all at
once, in double precision and then to ``float32``, giving the numbers that dividing and
clipping entry by entry would.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from typing import Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

__all__ = ["HIGH", "LOW", "Layout", "Observer"]

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


class Layout:
    """The fields of an encoding, laid one after another as they are declared, each entry with
    the number it is divided by.

    An encoder writes each entry's plain quantity (a count, a space, a place; 1 for a flag)
    into the zeros :meth:`zeros` gives, at the offsets :meth:`field` gave, then :meth:`vector`
    divides them all by the entries' scales and clips them to ``[-1, 1]`` at once.
    """

    __slots__ = ("_blank", "_scales", "size")

    def __init__(self) -> None:
        self.size = 0
        """The entries laid so far: the vector's length once every field is."""
        self._scales = np.ones(0, np.float64)
        self._blank = array("d")

    def field(self, width: int, scale: float = 1.0) -> int:
        """Lay a field of ``width`` entries, each divided by ``scale`` (more than 0), after the
        others; return its first entry's offset."""
        if not scale > 0:
            raise ValueError(f"a field's scale must be more than 0, got {scale}")
        start = self.size
        self.size += width
        self._scales = np.concatenate([self._scales, np.full(width, scale, np.float64)])
        self._blank = array("d", bytes(8 * self.size))
        return start

    def zeros(self) -> array[float]:
        """:attr:`size` zeros for an encoder to write its quantities into."""
        # An array of doubles, not a list: it is copied, written and read by NumPy at C speed,
        # where making an array of a list of floats costs about as much per entry as writing it.
        return self._blank[:]

    def vector(self, quantities: array[float]) -> NDArray[np.float32]:
        """The vector of ``quantities`` (from :meth:`zeros`): each divided by its scale, clipped
        to ``[-1, 1]``, then rounded to ``float32``."""
        # Divided and clipped in double precision, then rounded once: the very numbers that
        # dividing and clipping entry by entry in Python gives.
        out = np.frombuffer(quantities, np.float64) / self._scales
        np.minimum(out, HIGH, out=out)
        np.maximum(out, LOW, out=out)
        return out.astype(np.float32)
