"""Race and series scoring: finish ranks with shared points (SD-9), laps lost (SD-10), the
series winner (SD-11) and the seat order of the next race (SD-11, SD-12)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

__all__ = [
    "finish_places",
    "laps_lost",
    "next_race_players",
    "series_ranks",
    "slipstream_destination",
]


def slipstream_destination(
    start: int, value: int, positions: Sequence[int], mover: int, no_slip: Sequence[int]
) -> tuple[int, int, int]:
    """SD-5: where a card of ``value`` takes ``mover`` from ``start``.

    Returns ``(first, riders_there, destination)``: the first space reached, how many *other*
    riders stand on it, and the final space — ``first + riders_there * value`` unless ``first``
    is a special space in ``no_slip`` (FAHRERWECHSEL, STURZ), where nobody slipstreams.
    """
    first = start + value
    k = 0
    for rider, pos in enumerate(positions):
        if pos == first and rider != mover:
            k += 1
    if k == 0 or first in no_slip:
        return first, k, first
    return first, k, first + k * value


def finish_places(
    positions: Sequence[int], finishers: Sequence[int], line: int, points: Sequence[int]
) -> tuple[list[int], list[Fraction]]:
    """SD-9: each rider's finish place and finish points.

    Riders that crossed the line rank first, in crossing order; the others follow by distance to
    the line. Riders tied on distance share a place (the best of the places they cover) and split
    the points of those places equally, as exact fractions.
    """
    n = len(positions)
    places = [0] * n
    awarded = [Fraction(0)] * n

    def points_of(place: int) -> int:
        return points[place - 1] if place <= len(points) else 0

    for i, rider in enumerate(finishers):
        places[rider] = i + 1
        awarded[rider] = Fraction(points_of(i + 1))
    crossed = set(finishers)
    rest = sorted((r for r in range(n) if r not in crossed), key=lambda r: -positions[r])
    place = len(finishers) + 1
    i = 0
    while i < len(rest):
        group = [rest[i]]
        while i + len(group) < len(rest) and positions[rest[i + len(group)]] == positions[rest[i]]:
            group.append(rest[i + len(group)])
        share = Fraction(sum(points_of(p) for p in range(place, place + len(group))), len(group))
        for rider in group:
            places[rider] = place
            awarded[rider] = share
        place += len(group)
        i += len(group)
    return places, awarded


def sprint_awards(
    sprint_order: Sequence[Sequence[int]], points: Sequence[int]
) -> tuple[tuple[int, ...], ...]:
    """Per sprint line, the points each rider in its crossing order won there (SD-8): the
    k-th to cross wins ``points[k]``, riders beyond the list nothing."""
    # Every view's header (its scores) and body read these: slices, not a loop per rider.
    paid = tuple(points)
    return tuple(paid[: len(order)] + (0,) * (len(order) - len(paid)) for order in sprint_order)


def laps_lost(position: int, crossed: bool, line: int, lap_spaces: int, max_laps: int) -> int:
    """SD-10: one lap per ``lap_spaces`` spaces short of the line, at most ``max_laps``."""
    if crossed:
        return 0
    return min(max_laps, max(0, line - position) // lap_spaces)


def series_ranks(laps: Sequence[int], points: Sequence[Fraction], races: int) -> tuple[int, ...]:
    """SD-11: fewest laps lost, then most points; a one-race game on points alone.

    Ties share a rank (1, 1, 3).
    """
    keys = [(lap if races > 1 else 0, -p) for lap, p in zip(laps, points, strict=True)]
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def next_race_players(
    previous: Sequence[int],
    places: Sequence[int],
    series_laps: Sequence[int],
    players: int,
    rule: str,
) -> list[int]:
    """SD-11: the players in the order they start the next race.

    Whoever finished last goes first; ties go to the player with more laps lost *over the
    series so far* (SD-11 Amended: the races already run, the last one included — within one
    race, riders tied on position always lost the same laps), then keep the previous order.
    ``series_laps`` is indexed by player. A player with two riders (SD-12) is placed by the sum
    (``rule="sum"``) or the best (``"best"``) of its riders' places.
    """
    riders = len(places)
    per_player = riders // players

    def place(p: int) -> int:
        ps = [places[p + k * players] for k in range(per_player)]
        return sum(ps) if rule == "sum" else min(ps)

    seat_of = {p: i for i, p in enumerate(previous)}
    return sorted(previous, key=lambda p: (-place(p), -series_laps[p], seat_of[p]))
