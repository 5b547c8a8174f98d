"""The job runner: same results however the jobs are spread, and a clean stop on Ctrl-C."""

from __future__ import annotations

import multiprocessing
import sys
import time

import pytest

import racedeck
from racedeck.core.record import GameRecord
from racedeck.core.rng import derive_seed
from racedeck.sim.runner import GameJob, PlayedGame, play_job, run_jobs


def _jobs(count: int, start: int = 0) -> list[GameJob]:
    bots = ("heuristic", "random", "random")
    return [
        GameJob(i, "why-first", {"players": 3}, bots[i % 3 :] + bots[: i % 3], derive_seed(7, i))
        for i in range(start, start + count)
    ]


def test_one_and_two_workers_give_the_same_results() -> None:
    jobs = _jobs(40)
    seen: list[int] = []
    one = run_jobs(jobs, play_job, workers=1)
    two = run_jobs(jobs, play_job, workers=2, on_result=lambda job, _r: seen.append(job.index))
    assert one == two
    assert sorted(one) == list(range(40))
    assert sorted(seen) == list(range(40))  # on_result once per job, in the parent
    assert len({p.outcome for p in one.values()}) > 5  # different seeds, different games


def test_results_are_keyed_by_job_index() -> None:
    jobs = _jobs(5, start=100)
    results = run_jobs(jobs, play_job, workers=2)
    assert sorted(results) == [100, 101, 102, 103, 104]
    assert all(results[job.index].index == job.index for job in jobs)
    assert results[103] == play_job(jobs[3])


def test_played_game_replays_to_its_outcome() -> None:
    job = _jobs(1)[0]
    played = play_job(job)
    assert isinstance(played, PlayedGame)
    assert played.seconds > 0 and played.decisions == 3 * 4 * 5
    record = GameRecord.from_json(played.record)
    assert record.seed == job.seed and record.config["players"] == 3
    final = [step.state for step in racedeck.replay(record)][-1]
    assert record.make_game().outcome(final) == played.outcome
    assert played.ranks == played.outcome.ranks and played.scores == played.outcome.scores
    assert set(played.winners) == played.outcome.winners


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupt_from_on_result_keeps_what_was_delivered(workers: int) -> None:
    delivered: list[int] = []

    def on_result(job: GameJob, _result: PlayedGame) -> None:
        delivered.append(job.index)
        if len(delivered) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_jobs(_jobs(200), play_job, workers=workers, on_result=on_result)
    assert len(delivered) == 4  # nothing is delivered after the interrupt
    assert len(set(delivered)) == 4
    assert _no_children_left()  # no worker left behind


def _no_children_left(timeout: float = 5.0) -> bool:
    """True once every worker process has exited (the pool's own thread may still be reaping
    one the moment the run returns)."""
    deadline = time.monotonic() + timeout
    while multiprocessing.active_children():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_duplicate_indices_and_empty_runs() -> None:
    job = _jobs(1)[0]
    with pytest.raises(ValueError, match="unique"):
        run_jobs([job, job], play_job)
    assert run_jobs([], play_job, workers=2) == {}


def test_a_failing_game_stops_the_run() -> None:
    bad = GameJob(0, "why-first", {"players": 3}, ("random", "nobody", "random"), 1)
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        run_jobs([*_jobs(30, start=1), bad], play_job, workers=2)
    assert _no_children_left()


def test_ray_missing_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if ray were not installed
    with pytest.raises(ImportError, match=r"pip install 'racedeck\[ray\]'"):
        run_jobs(_jobs(1), play_job, ray_address="auto")
