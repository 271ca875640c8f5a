"""Independent parts of one analysis, computed in forked processes beside this one.

A report's parts that need nothing but the rules (the exact fractions, each rule
variant's figures, the strategy rows that search) are *jobs*: named calls made
before the work starts.  :class:`Jobs` forks its worker processes when it is
entered; each takes the next job nobody has taken and sends its result back
(only results are pickled: a forked worker inherits the jobs themselves).
:meth:`Jobs.result` gives a job's result; a job nobody has taken yet is taken and
run by this process, so that it never waits for a busy worker while it could
work itself.  :meth:`Jobs.finish` runs the jobs still free here, from the back of
the list while the workers take from the front, then waits for the rest.

A job's result is the same wherever it runs (the same code on the same numbers).
With no worker (``workers`` 0, one core, or no ``fork`` on this system: a spawned
process would import everything again) every job runs here, when it is asked for.
Leaving the block, normally or by an exception (KeyboardInterrupt included),
stops the workers; an exception raised by a job is raised again here.
"""
from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable, Hashable
from multiprocessing.connection import Connection, wait
from typing import Any, cast

from ev.errors import BJEVError
from ev.interrupts import signals_deferred, worker_signals

#: a job's state in the shared claim table: free, or taken by this process (workers are 1, 2, ...)
FREE, HERE = 0, -1


class JobError(BJEVError):
    """A worker process ended without sending a job's result."""


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def background_workers(workers: int | None = None) -> int:
    """The worker processes to fork beside this one: ``workers`` if given, else one less than the cores (this
    process is the other); 0 where ``fork`` is not available."""
    if not fork_available():
        return 0
    if workers is None:
        from ev.analysis.executors import cores
        workers = cores() - 1
    return max(0, workers)


class Jobs:
    """Named calls computed once each, here or in forked workers; see the module docstring."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = background_workers(workers)
        self._names: list[Hashable] = []
        self._calls: list[tuple[Callable[..., Any], tuple]] = []
        self._results: dict[int, Any] = {}
        self._claims: Any = None
        self._processes: list[Any] = []
        self._pipes: list[Connection] = []
        self._workers: dict[Connection, int] = {}      # a worker's pipe -> its number

    def add(self, name: Hashable, fn: Callable[..., Any], *args: Any) -> None:
        """Add the job ``name``: ``fn(*args)``.  Only before the block is entered."""
        if self._claims is not None:
            raise RuntimeError("jobs are added before the workers start")
        if name in self._names:
            raise ValueError(f"job {name!r} added twice")
        self._names.append(name)
        self._calls.append((fn, args))

    def __contains__(self, name: Hashable) -> bool:
        return name in self._names

    # ----- the workers ---------------------------------------------------------------------
    def __enter__(self) -> Jobs:
        n = min(self.workers, len(self._calls))
        ctx = multiprocessing.get_context("fork") if n else None
        if ctx is None:
            self._claims = [FREE] * len(self._calls)
            return self
        self._claims = ctx.Array("i", len(self._calls))
        try:
            with signals_deferred():      # started whole, so that it can be stopped whole
                for worker in range(1, n + 1):
                    receive, send = ctx.Pipe(duplex=False)
                    process = ctx.Process(target=self._work, args=(worker, send), daemon=True)
                    process.start()
                    send.close()
                    self._processes.append(process)
                    self._pipes.append(receive)
                    self._workers[receive] = worker
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (at once: a job still running is not wanted any more)."""
        processes, self._processes = self._processes, []
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
        for pipe in self._pipes:
            pipe.close()
        self._pipes = []

    def _claim(self, index: int, by: int) -> bool:
        """Take job ``index`` for ``by`` if nobody has; True if taken now."""
        lock = getattr(self._claims, "get_lock", None)
        if lock is None:
            if self._claims[index] == FREE:
                self._claims[index] = by
                return True
            return False
        with lock():
            if self._claims[index] == FREE:
                self._claims[index] = by
                return True
        return False

    def _work(self, worker: int, send: Connection) -> None:
        """A worker: take the jobs nobody has taken, from the front, and send each result."""
        worker_signals()
        for pipe in self._pipes:            # the other workers' ends, inherited
            pipe.close()
        try:
            for index, (fn, args) in enumerate(self._calls):
                if not self._claim(index, worker):
                    continue
                try:
                    message: tuple = (index, True, fn(*args))
                except Exception as exc:        # raised again in the parent
                    message = (index, False, _portable(exc))
                try:
                    send.send(message)
                except Exception as exc:        # a result that cannot be pickled
                    send.send((index, False, _portable(exc)))
        finally:
            send.close()
            os._exit(0)                     # no atexit handlers, no flushing of the parent's buffers

    # ----- results -------------------------------------------------------------------------
    def result(self, name: Hashable) -> Any:
        """The result of job ``name``: computed here if nobody has taken it, else the worker's."""
        index = self._names.index(name)
        if index not in self._results:
            if self._claims is None:
                raise RuntimeError("jobs are read inside the block")
            if self._claim(index, HERE):
                self._run_here(index)
            else:
                while index not in self._results:
                    self._receive()
        return self._unpack(index)

    def finish(self, done: Callable[[Hashable], None] | None = None) -> None:
        """Compute every job: those nobody has taken here, from the back; then wait for the workers' own.
        ``done(name)`` is told of each job as its result arrives."""
        for index in reversed(range(len(self._calls))):
            if index not in self._results and self._claim(index, HERE):
                self._run_here(index)
                if done:
                    done(self._names[index])
        while len(self._results) < len(self._calls):
            for index in self._receive():
                if done:
                    done(self._names[index])

    def _run_here(self, index: int) -> None:
        fn, args = self._calls[index]
        self._results[index] = (True, fn(*args))

    def _receive(self) -> list[int]:
        """Wait for the next results from the workers; the indices received."""
        if not self._pipes:
            missing = [self._names[i] for i in range(len(self._calls)) if i not in self._results]
            raise JobError(f"no worker is left to compute {missing[0]!r}")
        got = []
        for ready in wait(self._pipes):
            pipe = cast(Connection, ready)
            worker = self._workers[pipe]
            try:
                index, ok, value = pipe.recv()
            except EOFError:                     # the worker is done, or died: everything it sent is read
                self._pipes.remove(pipe)
                lost = [self._names[i] for i in range(len(self._calls))
                        if self._claims[i] == worker and i not in self._results]
                if lost:
                    raise JobError(f"a worker process ended without the result of {lost[0]!r}") from None
                continue
            self._results[index] = (ok, value)
            got.append(index)
        return got

    def _unpack(self, index: int) -> Any:
        ok, value = self._results[index]
        if not ok:
            raise value
        return value


def _portable(exc: Exception) -> Exception:
    """``exc`` if it survives pickling, else a RuntimeError with its text and traceback."""
    import pickle
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        text = "".join(traceback.format_exception(exc)).strip()
        return RuntimeError(f"{type(exc).__name__}: {exc}\n{text}")


__all__ = ["JobError", "Jobs", "background_workers", "fork_available"]
