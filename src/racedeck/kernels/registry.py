"""Which games have a step kernel (:class:`~racedeck.kernels.batch.StepKernel`), and making one
for a game's configuration.

A game offers one by naming a module in its ``kernel`` plugin (:mod:`racedeck.plugins`) whose
``kernel(config)`` makes the step kernel of a configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from racedeck.core.registry import available_games, get_spec
from racedeck.plugins import optional_plugin

if TYPE_CHECKING:  # Numba is imported only when a kernel is made
    from racedeck.kernels.batch import StepKernel

__all__ = ["step_kernel", "step_kernel_games"]


def step_kernel_games() -> tuple[str, ...]:
    """The ids of the games that have a step kernel."""
    return tuple(g for g in available_games() if "kernel" in get_spec(g).plugins)


def step_kernel(game: Any) -> StepKernel:
    """The step kernel of ``game``'s configuration (a game object of :func:`racedeck.make`);
    :class:`LookupError` for a game that has none."""
    module = optional_plugin(game.spec.id, "kernel")
    if module is None:
        raise LookupError(
            f"{game.spec.id} has no step kernel yet "
            f"(games with one: {', '.join(step_kernel_games())})"
        )
    made: StepKernel = module.kernel(game.cfg)
    return made
