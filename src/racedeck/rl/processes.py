"""Games side by side in a few worker processes: a vector environment whose slices step at once.

The engine's games against a search bot spend nearly all their time in the opponents'
searches, in Python's one thread; a :class:`ProcessVectorEnv` splits ``envs`` games into
``workers`` contiguous slices, each a vector environment of its own in its own process (made
there by ``make_slice(offset, count)``), and steps them all at once, so a run uses every core.
Gymnasium's ``AsyncVectorEnv`` does the same with a process per game — hundreds of processes of
a few hundred MB each at the sizes PPO wants — where this keeps one per core.

The slices are the games one process would have: a slice is made knowing its offset, and
``reset(seed=s)`` seeds slice ``k`` with ``s + offset_k``, as Gymnasium's ``SyncVectorEnv``
seeds game ``i`` with ``s + i``; so the games, and everything learned from them, are the same
for any number of workers. Only ``info["action_mask"]`` crosses between processes (the legal
actions, all PPO reads). A worker ignores Ctrl-C (held back while it starts): the parent
stops, then closes them.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

__all__ = ["ProcessVectorEnv", "slices"]

SliceMaker = Callable[[int, int], Any]
"""``make_slice(offset, count)``: a vector environment of the games ``offset`` to
``offset + count - 1``; picklable (workers are spawned)."""


def slices(envs: int, workers: int) -> list[tuple[int, int]]:
    """``(offset, count)`` of each worker's games: contiguous, as even as can be, none empty."""
    workers = max(1, min(workers, envs))
    base, extra = divmod(envs, workers)
    out, offset = [], 0
    for k in range(workers):
        count = base + (1 if k < extra else 0)
        out.append((offset, count))
        offset += count
    return out


def _serve(conn: Connection, make_slice: SliceMaker, offset: int, count: int) -> None:
    """A worker: make its slice, then answer the parent's reset, step and close."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held while it started
    try:
        env = make_slice(offset, count)
    except Exception as exc:  # sent to the parent, which raises it where the env is made
        conn.send(("error", exc))
        return
    conn.send(("ok", (env.single_observation_space, env.single_action_space)))
    try:
        while True:
            command, argument = conn.recv()
            reply: tuple[str, Any]
            try:
                if command == "reset":
                    seed = None if argument is None else argument + offset
                    obs, info = env.reset(seed=seed)
                    reply = ("ok", (obs, info["action_mask"]))
                elif command == "step":
                    obs, reward, done, cut, info = env.step(argument)
                    reply = ("ok", (obs, reward, done, cut, info["action_mask"]))
                else:
                    env.close()
                    reply = ("ok", None)
            except Exception as exc:  # raised in the parent
                reply = ("error", exc)
            conn.send(reply)
            if command == "close":
                return
    except (EOFError, OSError):  # the parent is gone without closing us (killed)
        return


class ProcessVectorEnv(VectorEnv):
    """``envs`` games in ``workers`` processes (see the module); same-step autoreset, as the
    slices must have."""

    def __init__(self, make_slice: SliceMaker, envs: int, workers: int) -> None:
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self.closed = False
        context = multiprocessing.get_context("spawn")
        self.num_envs = envs
        self._pipes: list[Connection] = []
        self._processes: list[Any] = []
        self._bounds = slices(envs, workers)
        # Ctrl-C is held back while the workers start: a worker inherits the hold, so the
        # signal cannot reach it before it ignores it; this process gets it after.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for offset, count in self._bounds:
                parent, child = context.Pipe()
                process = context.Process(
                    target=_serve, args=(child, make_slice, offset, count), daemon=True
                )
                process.start()
                child.close()
                self._pipes.append(parent)
                self._processes.append(process)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        try:
            spaces = self._gather()
        except BaseException:
            self.close()
            raise
        self.single_observation_space, self.single_action_space = spaces[0]
        self.observation_space = batch_space(self.single_observation_space, envs)
        self.action_space = batch_space(self.single_action_space, envs)

    def _gather(self) -> list[Any]:
        """Every worker's answer, in order; a worker's error raised here (after all answered,
        so none is left mid-message)."""
        answers = [pipe.recv() for pipe in self._pipes]
        for status, value in answers:
            if status == "error":
                raise value
        return [value for _, value in answers]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every game; slice ``k`` from ``seed + offset_k`` (see the module)."""
        for pipe in self._pipes:
            pipe.send(("reset", seed))
        parts = self._gather()
        obs = np.concatenate([p[0] for p in parts])
        return obs, {"action_mask": np.concatenate([p[1] for p in parts])}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step every game with its action, all slices at once."""
        actions = np.asarray(actions)
        for pipe, (offset, count) in zip(self._pipes, self._bounds, strict=True):
            pipe.send(("step", actions[offset : offset + count]))
        parts = self._gather()
        columns = zip(*parts, strict=True)
        obs, reward, done, cut, mask = (np.concatenate(column) for column in columns)
        return obs, reward, done, cut, {"action_mask": mask}

    def close(self, **kwargs: Any) -> None:
        """Stop the workers (those still answering first close their games)."""
        if self.closed:
            return
        self.closed = True
        for pipe, process in zip(self._pipes, self._processes, strict=True):
            try:
                if process.is_alive():
                    pipe.send(("close", None))
                    pipe.recv()
            except (EOFError, OSError):  # gone already (or never started)
                pass
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
            pipe.close()
