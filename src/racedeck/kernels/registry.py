"""Which games have a step kernel (:class:`~racedeck.kernels.batch.StepKernel`), and making one
for a game's configuration."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Numba is imported only when a kernel is made
    from racedeck.kernels.batch import StepKernel

__all__ = ["STEP_KERNELS", "step_kernel"]

STEP_KERNELS = ("why-first", "six-day-race")
"""The ids of the games a step kernel plays."""


def step_kernel(game: Any) -> StepKernel:
    """The step kernel of ``game``'s configuration (a game object of :func:`racedeck.make`);
    :class:`LookupError` for a game that has none."""
    game_id = game.spec.id
    if game_id == "why-first":
        from racedeck.kernels.why_first_states import kernel

        return kernel(game.cfg)
    if game_id == "six-day-race":
        from racedeck.kernels.six_day_race_steps import kernel as six_day_race_kernel

        return six_day_race_kernel(game.cfg)
    raise LookupError(
        f"{game_id} has no step kernel yet (games with one: {', '.join(STEP_KERNELS)})"
    )
