"""ev.analysis.jobs: named calls computed once each, in forked workers or here, with the same results."""
from __future__ import annotations

import os
import signal
import time

import pytest

from ev.analysis.jobs import JobError, Jobs, fork_available

needs_fork = pytest.mark.skipif(not fork_available(), reason="workers are forked")


def where(x: int, pause: float = 0.0) -> tuple[int, int]:
    time.sleep(pause)
    return x * x, os.getpid()


def fails() -> None:
    raise ValueError("this job fails")


def unpicklable() -> object:
    return lambda: None


def dies() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("workers", [0, 1, 2])
def test_every_result_is_the_call_s_wherever_it_runs(workers):
    jobs = Jobs(workers)
    for i in range(6):
        jobs.add(("square", i), where, i, 0.05)
    told = []
    with jobs:
        jobs.finish(told.append)
        results = [jobs.result(("square", i)) for i in range(6)]
    assert [r for r, _ in results] == [i * i for i in range(6)]
    assert sorted(told) == [("square", i) for i in range(6)]
    pids = {pid for _, pid in results}
    if workers and fork_available():
        assert pids - {os.getpid()}          # some ran in a worker
    else:
        assert pids == {os.getpid()}


@needs_fork
@pytest.mark.slow
def test_this_process_takes_a_job_no_worker_has_taken():
    """The worker is busy with the first job; the last is asked for at once: it runs here, not after."""
    jobs = Jobs(1)
    jobs.add("slow", where, 1, 1.0)
    jobs.add("quick", where, 2)
    with jobs:
        time.sleep(0.2)                       # the worker has taken "slow"
        start = time.perf_counter()
        assert jobs.result("quick") == (4, os.getpid())
        assert time.perf_counter() - start < 0.5
        assert jobs.result("slow")[0] == 1


@pytest.mark.parametrize("workers", [0, 1])
def test_a_job_s_exception_is_raised_here(workers):
    jobs = Jobs(workers)
    jobs.add("bad", fails)
    jobs.add("good", where, 3)
    with jobs:
        with pytest.raises(ValueError, match="this job fails"):
            jobs.result("bad")
        assert jobs.result("good")[0] == 9


@needs_fork
def test_a_result_that_cannot_be_sent_is_an_error_here():
    jobs = Jobs(1)
    jobs.add("lambda", unpicklable)
    jobs.add("later", where, 1, 0.5)          # keeps this process from taking the first job itself
    with jobs:
        time.sleep(0.2)
        with pytest.raises(Exception, match=r"pickle|lambda"):
            jobs.result("lambda")


@needs_fork
def test_a_worker_that_dies_is_an_error_not_a_hang():
    jobs = Jobs(1)
    jobs.add("dies", dies)
    jobs.add("later", where, 1, 0.5)
    with jobs:
        time.sleep(0.2)
        with pytest.raises(JobError, match="ended without the result of 'dies'"):
            jobs.result("dies")


@needs_fork
def test_leaving_the_block_stops_the_workers():
    jobs = Jobs(1)
    jobs.add("long", where, 1, 30.0)
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt), jobs:
        processes = list(jobs._processes)
        time.sleep(0.2)
        raise KeyboardInterrupt
    assert time.perf_counter() - start < 5
    assert processes and not any(p.is_alive() for p in processes)


def test_jobs_are_added_before_the_block_and_once():
    jobs = Jobs(0)
    jobs.add("a", where, 1)
    with pytest.raises(ValueError, match="added twice"):
        jobs.add("a", where, 1)
    with jobs, pytest.raises(RuntimeError, match="before the workers start"):
        jobs.add("b", where, 2)
