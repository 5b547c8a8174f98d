"""Baselines: what each standard bot scores against each other in each standard configuration,
on fixed evaluation deals that papers can cite.

The evaluation deals are part of the package: deal ``d`` of a configuration has the engine
seed ``derive_seed(EVALUATION_SEED, d)`` (:func:`evaluation_deals`), played once under every
seating of :func:`~racedeck.sim.versus.seatings` (every side in every seat), as
:func:`~racedeck.sim.versus.head_to_head` plays them. A result names
:data:`EVALUATION_VERSION`; the seeds and the configurations of a version never change.

``scripts/baselines.py`` plays every pair and writes ``docs/baselines.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from racedeck.bots.playouts import search_iterations
from racedeck.bots.registry import make_bot
from racedeck.core.registry import available_games, make
from racedeck.core.rng import derive_seed
from racedeck.plugins import optional_plugin
from racedeck.sim.versus import VersusResult, head_to_head

__all__ = [
    "EVALUATION_SEED",
    "EVALUATION_VERSION",
    "STANDARD",
    "Standard",
    "baseline_bots",
    "evaluation_deals",
    "pairs",
    "play_baselines",
]

EVALUATION_VERSION = "racedeck-eval-1"
"""The name of this set of evaluation deals and configurations, to cite with a result."""
EVALUATION_SEED = 20_261_129
"""The seed every evaluation deal is derived from (:func:`evaluation_deals`)."""


def evaluation_deals(count: int) -> tuple[int, ...]:
    """The engine seeds of the first ``count`` evaluation deals: the same in every
    configuration, each played under every seating."""
    return tuple(derive_seed(EVALUATION_SEED, d) for d in range(count))


@dataclass(frozen=True)
class Standard:
    """A standard configuration: a game and its options (the rest at their defaults)."""

    game: str
    options: dict[str, Any] = field(hash=False)
    label: str

    @property
    def players(self) -> int:
        """The number of seats."""
        return int(self.options["players"])


def _standard() -> tuple[Standard, ...]:
    """Each game's standard configurations, as its bots module names them (``BASELINES``)."""
    found: list[Standard] = []
    for game_id in available_games():
        module = optional_plugin(game_id, "bots")
        for options, label in getattr(module, "BASELINES", ()):
            found.append(Standard(game_id, dict(options), label))
    return tuple(found)


STANDARD: tuple[Standard, ...] = _standard()
"""The configurations of :data:`EVALUATION_VERSION`: the usual player counts of each game
(Six Day Race on one race, a series' races being alike)."""


def baseline_bots(standard: Standard) -> tuple[str, ...]:
    """The bots compared in ``standard``: ``random``, ``heuristic``, the search at the plain
    ``search`` bot's budget (the compiled ``fastsearch@N``, which makes the same decisions
    many times faster: ``tests/kernels/test_search.py``), and ``learned`` where a policy of
    that configuration ships."""
    bots = ["random", "heuristic", f"fastsearch@{search_iterations(standard.game)}"]
    game = make(standard.game, **standard.options)
    try:
        make_bot("learned", game, 0, 0)
    except ValueError:
        pass  # no policy of this configuration ships
    else:
        bots.append("learned")
    return tuple(bots)


def pairs(bots: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """Every pair of ``bots`` once, the later (the stronger, in :func:`baseline_bots`'s
    order) first."""
    for weaker, stronger in combinations(bots, 2):
        yield stronger, weaker


def play_baselines(
    standard: Standard,
    deals: int,
    *,
    workers: int | None = None,
    bots: tuple[str, ...] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[VersusResult]:
    """Every pair of ``bots`` (:func:`baseline_bots` by default) head to head on the first
    ``deals`` evaluation deals of ``standard``: for each pair ``(a, b)`` the result of ``a``
    against ``b`` (``b``'s share is one minus ``a``'s)."""
    chosen = bots or baseline_bots(standard)
    return [
        head_to_head(
            standard.game,
            dict(standard.options),
            ours,
            theirs,
            deals,
            seed=EVALUATION_SEED,
            workers=workers,
            progress=progress,
        )
        for ours, theirs in pairs(chosen)
    ]
