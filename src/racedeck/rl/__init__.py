"""racedeck for AI research: PettingZoo and Gymnasium environments over the real engine.

>>> from racedeck import rl
>>> env = rl.parallel_env("why-first", players=4)    # every seat commits at once
>>> observations, infos = env.reset(seed=1)
>>> aec = rl.env("setback", players=3)               # one agent at a time
>>> import gymnasium                                 # one learner against bots
>>> single = gymnasium.make("racedeck/WhyFirst-v0", players=4, opponents="heuristic")

Both PettingZoo faces exist for every game; ``parallel_env`` suits *Why First?*'s
simultaneous commits and Setback's BLOCK windows (every agent that may answer answers at once,
SB-9 amended again), ``env`` the turn-based *Six Day Race* and Setback's turns. Importing this
package registers the Gymnasium ids ``racedeck/WhyFirst-v0``, ``racedeck/SixDayRace-v0`` and
``racedeck/Setback-v0`` (one learner against bots; :mod:`racedeck.rl.registration`,
:mod:`racedeck.rl.single`). They need the optional extra ``racedeck[rl]`` (PettingZoo,
Gymnasium); the action encodings
(:mod:`racedeck.core.encoding`, each game's ``encoding`` plugin) and the observation encodings
(:mod:`racedeck.rl.observations`) are shared by every face, and so are the render modes
(:mod:`racedeck.rl.rendering`). Without the extra, each function here raises
:class:`~racedeck.extras.MissingExtra`, one line naming it.

OpenSpiel's face is :mod:`racedeck.rl.openspiel` (importing it registers every game with
``pyspiel``; OpenSpiel is in the same extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from racedeck.extras import needs

if TYPE_CHECKING:
    from racedeck.rl.aec import RacedeckAEC
    from racedeck.rl.parallel import RacedeckParallel
    from racedeck.rl.single import RacedeckGym

__all__ = ["env", "gym_env", "parallel_env"]

try:
    from racedeck.rl.registration import register_envs
except ImportError:  # without the extra racedeck[rl] there is no Gymnasium to register with
    pass
else:
    register_envs()


def env(game_id: str, **config: Any) -> RacedeckAEC:
    """A PettingZoo ``AECEnv`` of ``game_id``; keyword options are the game's configuration
    and the environment's own (``render_mode``, ``illegal``, ``max_actions``)."""
    with needs("racedeck.rl.env (PettingZoo's AEC face)"):
        from racedeck.rl.aec import RacedeckAEC

    return RacedeckAEC(game_id, **config)


def parallel_env(game_id: str, **config: Any) -> RacedeckParallel:
    """A PettingZoo ``ParallelEnv`` of ``game_id``; keyword options as for :func:`env`."""
    with needs("racedeck.rl.parallel_env (PettingZoo's parallel face)"):
        from racedeck.rl.parallel import RacedeckParallel

    return RacedeckParallel(game_id, **config)


def gym_env(game_id: str, **options: Any) -> RacedeckGym:
    """A Gymnasium environment of ``game_id``: one learner against bots (``opponents``,
    ``learner_seat``, the game's configuration …; see :mod:`racedeck.rl.single`)."""
    with needs("racedeck.rl.gym_env (the Gymnasium face)"):
        from racedeck.rl.single import RacedeckGym

    return RacedeckGym(game_id, **options)
