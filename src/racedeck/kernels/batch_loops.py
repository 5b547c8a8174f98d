"""The loops that step a batch of one game's states, a template made per game by
:func:`racedeck.kernels.loops.compiled_loops` (see :mod:`racedeck.kernels.batch`).

The names below the imports stand for one game's step-kernel functions
(:class:`~racedeck.kernels.batch.StepKernel`); each game gets this module's code with its own
functions in their places, compiled and cached under that game's name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from racedeck.kernels.why_first import _ONE, _derive

__all__ = ["LOOPS"]

LOOPS = (
    "deal",
    "reset_all",
    "deal_all",
    "deal_where",
    "players",
    "legal_all",
    "apply_all",
    "observe_all",
    "rewards_all",
    "heuristic_all",
    "step",
    "to_learner",
    "step_learner",
)
"""The functions compiled per game."""

# The game's functions (placeholders: the template is never called as it stands).
reset_one: Any = None
current_player: Any = None
legal: Any = None
apply: Any = None
observe: Any = None
rewards: Any = None
heuristic_action: Any = None
random_action: Any = None


def deal(ints: Any, bits: Any, i: int, seed: Any, t: Any, streams: Any) -> None:
    """Game ``i`` dealt from ``seed``; its stream of random choices seeded from it too."""
    reset_one(ints, bits, i, seed, t)
    streams[i] = _derive(seed, _ONE)


def reset_all(ints, bits, seeds, episodes, t, streams):  # type: ignore[no-untyped-def]
    """Every game dealt its episode ``episodes[i]`` of ``seeds[i]``."""
    for i in range(ints.shape[0]):
        deal(ints, bits, i, _derive(seeds[i], np.uint64(episodes[i])), t, streams)


def deal_all(ints, bits, seeds, t, streams):  # type: ignore[no-untyped-def]
    """Every game dealt from its seed, as ``new_initial_state(seeds[i])``."""
    for i in range(ints.shape[0]):
        deal(ints, bits, i, seeds[i], t, streams)


def deal_where(ints, bits, seeds, episodes, which, t, streams):  # type: ignore[no-untyped-def]
    """The games ``which`` marks start their next episode."""
    # The games ``which`` marks start their next episode.
    for i in range(ints.shape[0]):
        if which[i]:
            episodes[i] += 1
            deal(ints, bits, i, _derive(seeds[i], np.uint64(episodes[i])), t, streams)


def players(ints, bits, t, out):  # type: ignore[no-untyped-def]
    """Every game's seat to act (-1: over) into ``out``."""
    for i in range(ints.shape[0]):
        out[i] = current_player(ints, bits, i, t)


def legal_all(ints, bits, t, out):  # type: ignore[no-untyped-def]
    """Every game's legal mask into its row of ``out``."""
    for i in range(ints.shape[0]):
        legal(ints, bits, i, t, out[i])


def apply_all(ints, bits, actions, t):  # type: ignore[no-untyped-def]
    """Every game that is not over takes its action (a negative one: it waits)."""
    for i in range(ints.shape[0]):
        if actions[i] >= 0 and current_player(ints, bits, i, t) >= 0:
            apply(ints, bits, i, actions[i], t)


def observe_all(ints, bits, seats, t, out):  # type: ignore[no-untyped-def]
    """Every game's observation by ``seats[i]`` into its row of ``out``."""
    for i in range(ints.shape[0]):
        observe(ints, bits, i, seats[i], t, out[i])


def rewards_all(ints, bits, t, out):  # type: ignore[no-untyped-def]
    """Every game's rewards per seat into its row of ``out``."""
    for i in range(ints.shape[0]):
        rewards(ints, bits, i, t, out[i])


def heuristic_all(ints, bits, mask, t, streams, out):  # type: ignore[no-untyped-def]
    """Every game's heuristic action for the seat to act (legal ones in ``mask``, ties from
    ``streams``); -1 where nobody is to act."""
    for i in range(ints.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[i, a]
        if count == 0 or current_player(ints, bits, i, t) < 0:
            out[i] = -1
        else:
            out[i] = heuristic_action(ints, bits, i, mask[i], count, t, streams)


def step(  # type: ignore[no-untyped-def]
    ints, bits, actions, seeds, episodes, t, streams, obs, mask, player, rew, done, final_obs
):
    """The fused multi-agent step of :meth:`racedeck.rl.vector.VectorGame.step`."""
    # Every seat is a learner: the seat to act in each game takes its action.
    for i in range(ints.shape[0]):
        seat = current_player(ints, bits, i, t)
        apply(ints, bits, i, actions[i], t)
        rewards(ints, bits, i, t, rew[i])
        done[i] = current_player(ints, bits, i, t) < 0
        if done[i]:
            observe(ints, bits, i, seat, t, final_obs[i])
            episodes[i] += 1
            deal(ints, bits, i, _derive(seeds[i], np.uint64(episodes[i])), t, streams)
        player[i] = current_player(ints, bits, i, t)
        legal(ints, bits, i, t, mask[i])
        observe(ints, bits, i, player[i], t, obs[i])


def to_learner(
    ints: Any, bits: Any, i: int, learner: int, policy: int, t: Any, streams: Any, mask: Any
) -> None:
    """The other seats play (``policy``) until the learner is asked or the game ends."""
    # The other seats play (POLICIES) until the learner is asked or the game is over.
    while True:
        seat = current_player(ints, bits, i, t)
        if seat < 0 or seat == learner:
            return
        count = legal(ints, bits, i, t, mask)
        if policy == 1:
            action = heuristic_action(ints, bits, i, mask, count, t, streams)
        else:
            action = random_action(streams, i, mask, count)
        apply(ints, bits, i, action, t)


def step_learner(  # type: ignore[no-untyped-def]
    ints,
    bits,
    actions,
    learner,
    policy,
    seeds,
    episodes,
    t,
    streams,
    obs,
    mask,
    rew,
    done,
    final_obs,
    scratch,
):
    """The fused learner step of :class:`racedeck.rl.vector.RacedeckVectorEnv`."""
    for i in range(ints.shape[0]):
        if actions[i] >= 0:
            apply(ints, bits, i, actions[i], t)
        to_learner(ints, bits, i, learner[i], policy, t, streams, mask[i])
        rewards(ints, bits, i, t, scratch)
        rew[i] = scratch[learner[i]]
        done[i] = current_player(ints, bits, i, t) < 0
        if done[i]:
            observe(ints, bits, i, learner[i], t, final_obs[i])
        while current_player(ints, bits, i, t) < 0:  # it may end before the learner acts
            episodes[i] += 1
            deal(ints, bits, i, _derive(seeds[i], np.uint64(episodes[i])), t, streams)
            to_learner(ints, bits, i, learner[i], policy, t, streams, mask[i])
        legal(ints, bits, i, t, mask[i])
        observe(ints, bits, i, learner[i], t, obs[i])
