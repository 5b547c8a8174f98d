"""The job runner on a real (local) Ray: the same results as on local processes."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

from racedeck.sim.runner import GameJob, PlayedGame, play_job, run_jobs
from racedeck.sim.tournament import Tournament, play_tournament, summarise

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    os.environ["RAY_AUTH_MODE"] = "disabled"  # or Ray writes a token file in the home folder
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths have a limit
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)


def test_a_tournament_on_ray_equals_the_local_run(local_ray: None) -> None:
    t = Tournament.create("why-first", ["random"], players=3, seed=9)
    jobs = [t.job(i) for i in range(6)]
    seen: list[int] = []
    on_ray = run_jobs(
        jobs, play_job, ray_address="auto", on_result=lambda job, _r: seen.append(job.index)
    )
    local = run_jobs(jobs, play_job, workers=2)
    assert on_ray == local
    assert sorted(seen) == list(range(6))
    assert all(isinstance(p, PlayedGame) and p.seconds > 0 for p in on_ray.values())

    mixed = Tournament.create("why-first", ["random", "heuristic"], players=3, seed=9)
    on_ray_games = play_tournament(mixed, range(6), ray_address="auto")
    local_games = play_tournament(mixed, range(6), workers=1)
    ray_result = summarise(mixed, {i: p.outcome for i, p in on_ray_games.items()})
    local_result = summarise(mixed, {i: p.outcome for i, p in local_games.items()})
    assert ray_result.to_json() == local_result.to_json()


def test_interrupt_on_ray_stops_delivering(local_ray: None) -> None:
    jobs = [GameJob(i, "why-first", {"players": 3}, ("random",) * 3, seed=i) for i in range(40)]
    delivered: list[int] = []

    def on_result(job: GameJob, _result: PlayedGame) -> None:
        delivered.append(job.index)
        if len(delivered) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_jobs(jobs, play_job, ray_address="auto", on_result=on_result)
    assert len(delivered) == 2
