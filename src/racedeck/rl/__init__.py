"""racedeck for AI research: PettingZoo environments over the real engine.

>>> from racedeck import rl
>>> env = rl.parallel_env("why-first", players=4)    # every seat commits at once
>>> observations, infos = env.reset(seed=1)
>>> aec = rl.env("setback", players=3)               # one agent at a time

Both faces exist for every game; ``parallel_env`` suits *Why First?*'s simultaneous commits,
``env`` the turn-based *Six Day Race* and Setback (whose BLOCK windows ask every agent that may
answer, SB-9). They need the optional extra ``racedeck[rl]`` (PettingZoo, Gymnasium); the
action encodings (:mod:`racedeck.core.encoding`, each game's ``encoding`` plugin) and the
observation encodings (:mod:`racedeck.rl.observations`) are shared by every face.

OpenSpiel's face is :mod:`racedeck.rl.openspiel` (importing it registers every game with
``pyspiel``; OpenSpiel is in the same extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from racedeck.rl.aec import RacedeckAEC
    from racedeck.rl.parallel import RacedeckParallel

__all__ = ["env", "parallel_env"]


def env(game_id: str, **config: Any) -> RacedeckAEC:
    """A PettingZoo ``AECEnv`` of ``game_id``; keyword options are the game's configuration
    and the environment's own (``render_mode``, ``illegal``, ``max_actions``)."""
    from racedeck.rl.aec import RacedeckAEC  # PettingZoo is an optional extra

    return RacedeckAEC(game_id, **config)


def parallel_env(game_id: str, **config: Any) -> RacedeckParallel:
    """A PettingZoo ``ParallelEnv`` of ``game_id``; keyword options as for :func:`env`."""
    from racedeck.rl.parallel import RacedeckParallel  # PettingZoo is an optional extra

    return RacedeckParallel(game_id, **config)
