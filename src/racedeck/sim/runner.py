"""Running many seeded games: in this process, on all local cores, or on a Ray cluster.

The one runner of every batch of games: ``simulate``, tournaments, reports and the ladder.

A :class:`GameJob` fully defines one game (game, configuration, bots by seat, seed), so a job's
result does not depend on where or when it runs: :func:`run_jobs` returns results keyed by job
index, identical for the same jobs whatever the backend or the number of workers. Jobs travel in
chunks (one process or Ray task per chunk, not per game) to keep the overhead small.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome
from racedeck.core.registry import make
from racedeck.core.rng import derive_seed
from racedeck.sim.play import make_bots, play_game

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["GameJob", "PlayedGame", "game_for", "play_job", "run_jobs"]

R = TypeVar("R")

#: Most jobs in one chunk: small enough for a lively progress display and a prompt Ctrl-C.
MAX_CHUNK = 10
#: Chunks per worker to aim for, so that uneven game lengths still balance out.
_CHUNKS_PER_WORKER = 8
#: Chunks submitted ahead per worker (or per Ray CPU), so that no worker waits for work.
_IN_FLIGHT_PER_WORKER = 2
#: How long one ``ray.wait`` may block, so that Ctrl-C is noticed promptly.
_RAY_POLL_SECONDS = 0.25

RAY_MISSING = "running on Ray needs the ray package: pip install 'racedeck[ray]'"


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: everything needed to play it again identically."""

    index: int
    """Position in the run; results are keyed by it."""
    game_id: str
    config: dict[str, Any]
    """JSON-able game configuration, as for :func:`racedeck.make`."""
    bots: tuple[str, ...]
    """One bot spec per seat, passed to ``make_bot`` unchanged."""
    seed: int
    """The game's seed; the bots are seeded from ``derive_seed(seed, 1)``."""


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """What :func:`play_job` returns: the outcome, the record and the cost of one game.

    ``seconds`` is wall time and so differs between runs; it takes no part in equality, so two
    runs of the same jobs compare equal whatever machine played them.
    """

    index: int
    outcome: Outcome
    decisions: int
    record: JSONObject
    """The game record's JSON form (``GameRecord.to_json()``)."""
    seconds: float = field(compare=False)

    @property
    def scores(self) -> tuple[float, ...]:
        """Scores by contestant (seats, then Leo in two-player *Why First?*)."""
        return self.outcome.scores

    @property
    def ranks(self) -> tuple[int, ...]:
        """Finishing ranks by contestant, 1 = won (ties share a rank)."""
        return self.outcome.ranks

    @property
    def winners(self) -> tuple[int, ...]:
        """Indices of the winners, sorted."""
        return tuple(sorted(self.outcome.winners))


# One game object per configuration and process: games keep caches of what their
# configuration alone determines (legal options), which later games reuse.
_GAMES: dict[str, Game[Any, Any, Any]] = {}


def game_for(job: GameJob) -> Game[Any, Any, Any]:
    """The game ``job`` is played under, made once per configuration in each process."""
    key = json.dumps([job.game_id, job.config], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make(job.game_id, **job.config)
    return game


def play_job(job: GameJob) -> PlayedGame:
    """Play the game ``job`` describes, bots seeded from ``derive_seed(job.seed, 1)``."""
    started = time.perf_counter()
    game = game_for(job)
    result = play_game(game, make_bots(game, job.bots, derive_seed(job.seed, 1)), job.seed)
    return PlayedGame(
        index=job.index,
        outcome=result.outcome,
        decisions=result.decisions,
        record=result.record.to_json(),
        seconds=time.perf_counter() - started,
    )


def _run_chunk(task: Callable[[GameJob], R], chunk: Sequence[GameJob]) -> list[tuple[int, R]]:
    return [(job.index, task(job)) for job in chunk]


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group; only the parent should act on it, so that it
    # alone decides what is kept and what is cancelled.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back while worker processes may be started.

    A worker started meanwhile inherits the hold, so a Ctrl-C cannot hit it before it has
    set itself to ignore Ctrl-C; this process receives the held signal when the hold ends.
    """
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows has no masks
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _chunks(jobs: Sequence[GameJob], workers: int) -> list[list[GameJob]]:
    size = max(1, min(MAX_CHUNK, math.ceil(len(jobs) / (workers * _CHUNKS_PER_WORKER))))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def run_jobs(
    jobs: Sequence[GameJob],
    task: Callable[[GameJob], R],
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    on_result: Callable[[GameJob, R], None] | None = None,
) -> dict[int, R]:
    """Run ``task`` on every job; return results by job index.

    ``task`` must be a picklable module-level function and its results picklable. ``workers``:
    ``None`` uses every local core, ``1`` runs in this process. With ``ray_address`` the jobs
    run as Ray tasks instead: an already initialised Ray is reused, else
    ``ray.init(address=ray_address)`` connects (``"auto"``, ``"ray://host:10001"``, or
    ``"local"`` to start one here). ``on_result`` is called in this process as each job's
    result arrives.

    On KeyboardInterrupt (also when ``on_result`` raises it) this stops, cancels what has not
    started, and re-raises; every result that had reached this process has been passed to
    ``on_result``. Results travel a chunk at a time (at most :data:`MAX_CHUNK` jobs), so the
    games of a chunk still being played when Ctrl-C comes are dropped. On Ray, chunks already
    sent are not cancelled but left to finish, their results dropped: cancelling a chunk at the
    moment it finished aborted the whole driver process (a check in Ray's task manager, ray
    2.60), which lost the interrupt's orderly end. Ray workers need ``racedeck`` importable
    (installed on every node of a remote cluster).
    """
    if len({job.index for job in jobs}) != len(jobs):
        raise ValueError("job indices must be unique")
    results: dict[int, R] = {}
    by_index = {job.index: job for job in jobs}

    def deliver(pairs: list[tuple[int, R]]) -> None:
        for index, result in pairs:
            results[index] = result
            if on_result is not None:
                on_result(by_index[index], result)

    if not jobs:
        return results
    if ray_address is not None:
        _run_on_ray(jobs, task, ray_address, deliver)
        return results
    count = (os.cpu_count() or 1) if workers is None else workers
    chunks = _chunks(jobs, max(1, count))
    if count <= 1 or len(chunks) == 1:
        for job in jobs:
            deliver([(job.index, task(job))])
        return results
    _run_in_processes(chunks, task, min(count, len(chunks)), deliver)
    return results


def _run_in_processes(
    chunks: list[list[GameJob]],
    task: Callable[[GameJob], R],
    workers: int,
    deliver: Callable[[list[tuple[int, R]]], None],
) -> None:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    # Only a few chunks per worker are submitted at a time: waiting on every future of a long
    # run would cost time in proportion to its length at every step, and little is queued to
    # cancel on Ctrl-C.
    queue = iter(chunks)
    pending: set[Future[list[tuple[int, R]]]] = set()
    try:
        for chunk in itertools.islice(queue, workers * _IN_FLIGHT_PER_WORKER):
            with _sigint_held():  # workers start on a submit
                pending.add(pool.submit(_run_chunk, task, chunk))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                following = next(queue, None)
                if following is not None:
                    with _sigint_held():
                        pending.add(pool.submit(_run_chunk, task, following))
                deliver(future.result())
    except BaseException:
        # Interrupted or failed: drop what has not started and stop the chunks being played
        # now rather than wait for them, since their results would be thrown away anyway.
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued chunks and end the worker processes without waiting for them."""
    terminate = getattr(pool, "terminate_workers", None)  # public from Python 3.14
    if terminate is not None:
        terminate()
        return
    # Before 3.14 the workers are only reachable privately; keep the pool's own table before
    # shutdown() forgets it, since a worker may still be starting up (the pool spawns them on
    # submit) and join the table while the first ones are being stopped.
    table = getattr(pool, "_processes", None) or {}
    pool.shutdown(wait=False, cancel_futures=True)
    stopped: set[int] = set()
    while True:
        processes = [p for p in list(table.values()) if id(p) not in stopped]
        if not processes:
            break
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)
            stopped.add(id(process))


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError as exc:
        raise ImportError(RAY_MISSING) from exc
    return ray


def _run_on_ray(
    jobs: Sequence[GameJob],
    task: Callable[[GameJob], R],
    address: str,
    deliver: Callable[[list[tuple[int, R]]], None],
) -> None:
    ray = _import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote_chunk = ray.remote(_run_chunk)
        queue = iter(_chunks(jobs, max(1, cpus)))
        pending = [
            remote_chunk.remote(task, chunk)
            for chunk in itertools.islice(queue, cpus * _IN_FLIGHT_PER_WORKER)
        ]
        # On an interrupt the chunks in flight are left to finish (see run_jobs: not cancelled).
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=_RAY_POLL_SECONDS)
            for ref in done:
                following = next(queue, None)
                if following is not None:
                    pending.append(remote_chunk.remote(task, following))
                deliver(ray.get(ref))
    finally:
        if started_here:
            ray.shutdown()
