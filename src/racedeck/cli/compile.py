"""``racedeck compile``: compile every game's kernels into Numba's cache before they are needed.

Numba compiles a kernel the first time a process calls it and keeps the machine code on disk
(``cache=True``), so every later process loads it in a fraction of a second. On a fresh
checkout nothing is cached yet, and processes that start at once (a test run's workers, a pool
of simulators or environments) each compile the same kernels side by side. This module does it
once, one game per process, all games at once::

    racedeck compile              # every game with a kernel
    racedeck compile setback      # one game

It plays a few games of each through everything compiled that a game has — whole games by
every policy, its step kernel through the vectorised environments, its compiled search, and the
loops made for the game around them (:mod:`racedeck.kernels.loops`) — and prints the seconds
each game took.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated, Any

import typer

from racedeck.cli.console import console, fail
from racedeck.plugins import optional_plugin

__all__ = ["compile_cmd", "warm"]


def warm(game_id: str) -> float:
    """Run everything compiled that ``game_id`` has on a few small games; the seconds taken."""
    import numpy as np

    import racedeck
    from racedeck.kernels.registry import step_kernel_games
    from racedeck.kernels.search import KernelSearch, search_kernel_games
    from racedeck.rl.vector import RacedeckVectorEnv, VectorGame

    start = time.perf_counter()
    game = racedeck.make(game_id)
    kernels = optional_plugin(game_id, "kernel")
    whole_games = getattr(kernels, "WHOLE_GAMES", None)
    if whole_games is not None:
        batch = whole_games(game.cfg)  # type: ignore[attr-defined]
        for policies in ("random", "heuristic"):
            batch.play(4, seed=1, policies=policies, record=True)
        choices = np.zeros((2, batch.max_decisions), np.uint32)
        batch.play(2, seed=1, choices=choices)
        stepping = getattr(batch, "compile_stepping", None)
        if stepping is not None:  # functions that step one state at a time, called from Python
            stepping()
    if game_id in step_kernel_games():
        games = VectorGame(game_id, 4)
        out = games.reset(seed=1)
        for _ in range(3):
            out = games.step(out.action_mask.argmax(axis=1))
        games.random_actions()
        if games.kernel.heuristic_action is not None:
            games.heuristic_actions()  # imitation's teacher
        games.states.deal(np.arange(4, dtype=np.uint64))
        for opponents in ("random", "heuristic"):
            env = RacedeckVectorEnv(game_id, 4, opponents=opponents)
            _, info = env.reset(seed=1)
            env.step(info["action_mask"].argmax(axis=1))
        # Against a policy the batch's loops run one at a time, games dealt again as they end.
        env = RacedeckVectorEnv(game_id, 4, opponents=_first_legal)
        _, info = env.reset(seed=1)
        done = np.zeros(4, np.bool_)
        while not done.any():
            _, _, done, _, info = env.step(info["action_mask"].argmax(axis=1))
    if game_id in search_kernel_games():
        search = KernelSearch(game)
        state = game.new_initial_state(1)
        seat = state.pending[-1]
        search.choose(game.observe(state, seat), seed=1, iterations=64)
        # Each of the search's game functions called from Python too, on its own tables (as
        # its tests call them): Numba compiles such calls apart from the compiled loop's.
        sk, step = search.kernel, search.kernel.step
        ints, bits, t = step.arrays(2)  # rows as a search's (one row: other array types)
        sk.load(state, ints[0], bits[0], t)
        sk.redeal(ints, bits, 0, seat, t, np.ones(1, np.uint64))
        sk.group(ints, bits, 0, t)
        sk.horizon(ints, bits, 0, t)
        sk.estimate(ints, bits, 0, t, np.zeros(step.players))
        mask = np.zeros(step.num_actions, np.bool_)
        step.observe(ints, bits, 0, seat, t, np.zeros(step.observation_size, np.float32))
        while step.current_player(ints, bits, 0, t) >= 0:
            step.legal(ints, bits, 0, t, mask)
            step.apply(ints, bits, 0, int(mask.argmax()), t)
        sk.values(ints, bits, 0, t, np.zeros(step.players))
    return time.perf_counter() - start


def _first_legal(observations: Any, masks: Any) -> Any:
    """A policy: each game's first legal action."""
    return masks.argmax(axis=1)


def compile_cmd(
    games: Annotated[
        list[str] | None, typer.Argument(help="game ids (default: every game with a kernel)")
    ] = None,
    workers: Annotated[
        int, typer.Option(help="processes, one game each (default: one per core)")
    ] = 0,
) -> None:
    """Compile the games' kernels (simulation, vectorised environments, search) into Numba's
    cache now, one game per process, so that later processes load them at once."""
    from racedeck.kernels.registry import step_kernel_games

    known = sorted(step_kernel_games())
    chosen = games or known
    unknown = [g for g in chosen if g not in known]
    if unknown:
        raise fail(f"no kernels for {', '.join(unknown)}; games with kernels: {', '.join(known)}")
    start = time.perf_counter()
    processes = max(1, min(workers or os.cpu_count() or 1, len(chosen)))
    with ProcessPoolExecutor(processes) as pool:
        for game_id, seconds in zip(chosen, pool.map(warm, chosen), strict=True):
            console.print(f"kernels of {game_id} compiled in {seconds:.1f} s")
    console.print(f"kernels ready in {time.perf_counter() - start:.1f} s")
