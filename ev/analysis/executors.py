"""Executors: one interface for running independent work units on this machine or on a Dask cluster.

A *work unit* is one call ``fn(shared, unit)``: a rule variant of a sweep, or a
range of chunks of simulated rounds.  ``shared`` is the data every unit needs
(a strategy table, the sweep's options); it is sent to each worker once, not
once per unit.  Results come back to ``on_result(index, result)`` in the order
they finish, in this process, so the caller can save each one at once.

* :class:`LocalExecutor`: processes on this machine (``--workers N``, default
  all cores); one worker runs in this process, with no pool.
* :class:`DaskExecutor`: a running ``dask.distributed`` scheduler
  (``--scheduler tcp://HOST:PORT``), or a ``LocalCluster`` it starts with N
  worker processes (``--dask-local N``).  Needs the ``cluster`` extra
  (``pip install -e ".[cluster]"`` in the source tree, that is ``dask[distributed]``).

The same function runs the same units either way, so the results are the same.
An executor is a context manager: leaving it, normally or by an exception
(KeyboardInterrupt and SystemExit included), stops its worker processes, and an
exception in a unit or in ``on_result`` ends the run at once.  The executors
never print.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import ev
from ev.analysis.machine import cores
from ev.errors import BJEVError, excerpt
from ev.interrupts import signals_deferred, worker_signals

#: the most local worker processes per core (more only adds switching)
WORKERS_PER_CORE = 4
CLUSTER_INSTALL = 'pip install -e ".[cluster]" in the source tree (or: pip install "dask[distributed]")'

UnitFunction = Callable[[Any, Any], Any]
ResultCallback = Callable[[int, Any], None]


class DependencyError(BJEVError):
    """An optional dependency that a chosen option needs is not installed."""


def max_workers() -> int:
    """The most worker processes an executor starts on this machine."""
    return WORKERS_PER_CORE * cores()


def _check_workers(n: Any, option: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise BJEVError(f"{option} must be a positive integer, got {n!r}")
    if n > max_workers():
        raise BJEVError(f"{option} {n} is too many for this machine: at most {max_workers()} "
                        f"({WORKERS_PER_CORE} per core, {cores()} cores); use a Dask cluster for more")
    return n


class Executor:
    """Runs work units; see the module docstring.  Use as a context manager."""

    #: "local" or "dask"
    kind = ""
    #: how many units run at once
    workers = 1

    def describe(self) -> str:
        """One line naming the executor and its workers, e.g. 'local, 2 processes'."""
        raise NotImplementedError

    def run(self, fn: UnitFunction, units: Sequence[Any], on_result: ResultCallback, shared: Any = None) -> None:
        """Call ``fn(shared, unit)`` for every unit; ``on_result(index, result)`` as each finishes."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop every worker process this executor started (idempotent)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ----- local processes ---------------------------------------------------------------------
_shared: Any = None


def _init_local_worker(shared: Any) -> None:
    """In each pool process: keep ``shared``; leave Ctrl-C to the parent, die at once on SIGTERM; compute split
    rounds one at a time (the pool's processes already take the cores)."""
    global _shared
    _shared = shared
    worker_signals()
    from ev.analysis import accounting
    accounting.SPLIT_THREADS = 1


def _call_local(task: tuple[UnitFunction, int, Any]) -> tuple[int, Any]:
    fn, index, unit = task
    return index, fn(_shared, unit)


class LocalExecutor(Executor):
    """Worker processes on this machine (fork where available); one worker runs in this process.

    A worker that dies without answering (killed from outside, as the OOM killer does) is noticed at once: the
    units it had not finished run again in a fresh pool, up to ``RESTARTS`` times; then the run stops with one
    line (the results already passed on are kept by the caller)."""

    kind = "local"
    #: how many times a pool that lost a worker is started again for the units left
    RESTARTS = 2

    def __init__(self, workers: int | None = None) -> None:
        self.workers = cores() if workers is None else _check_workers(workers, "--workers")
        self._pool: Any = None

    def describe(self) -> str:
        if self.workers == 1:
            return "local, 1 process (in process)"
        return f"local, {self.workers} processes"

    def run(self, fn: UnitFunction, units: Sequence[Any], on_result: ResultCallback, shared: Any = None) -> None:
        n = min(self.workers, len(units))
        if n <= 1:
            for index, unit in enumerate(units):
                on_result(index, fn(shared, unit))
            return
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        left = dict(enumerate(units))
        lost = 0
        try:
            while left:
                # a signal while the pool starts would leave it half made (workers forked, no pool to stop them):
                # the pool is made and its workers forked (by the first submit) before a signal is delivered
                with signals_deferred():
                    self._pool = ProcessPoolExecutor(min(n, len(left)), mp_context=ctx,
                                                     initializer=_init_local_worker, initargs=(shared,))
                    futures = [self._pool.submit(_call_local, (fn, i, u)) for i, u in left.items()]
                try:
                    for future in as_completed(futures):
                        index, result = future.result()
                        del left[index]
                        on_result(index, result)
                except BrokenProcessPool:
                    for future in futures:      # what finished before the worker died is kept
                        if future.done() and not future.cancelled() and future.exception() is None:
                            index, result = future.result()
                            if index in left:
                                del left[index]
                                on_result(index, result)
                    lost += 1
                    if lost > self.RESTARTS:
                        raise BJEVError(f"a local worker process died without answering {lost} times (killed from "
                                        f"outside, or out of memory?); {len(units) - len(left)} of {len(units)} "
                                        f"units finished, stopping") from None
                finally:
                    self.close()
        finally:
            self.close()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                with contextlib.suppress(OSError, AttributeError):
                    process.terminate()   # SIGTERM to every worker (they restore its default action)
            pool.shutdown(wait=True, cancel_futures=True)


# ----- Dask ----------------------------------------------------------------------------------
def import_distributed(option: str) -> Any:
    """The ``distributed`` module, or a DependencyError saying in one line what to install."""
    try:
        import distributed
    except ImportError:
        raise DependencyError(f"{option} needs dask.distributed, which is not installed: {CLUSTER_INSTALL}") from None
    return distributed


def bjev_version() -> str:
    """The bjev version of the process that runs this (checked on every Dask worker)."""
    return ev.__version__


@contextlib.contextmanager
def _workers_quiet() -> Any:
    """The LocalCluster's processes, started in this block, log nothing below CRITICAL (Dask reads the level
    from the environment when it starts; a worker stopped by a signal would log its closed connections)."""
    key = "DASK_LOGGING__DISTRIBUTED"
    previous = os.environ.get(key)
    os.environ[key] = "critical"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = previous


@contextlib.contextmanager
def _workers_ignore_sigint() -> Any:
    """Ignore SIGINT while the LocalCluster starts its worker processes: they inherit that (a new Python keeps an
    ignored SIGINT ignored), so a Ctrl-C at the terminal, sent to the whole process group, reaches only bjev,
    which stops the cluster, instead of printing a traceback from every worker.  (A Ctrl-C in those seconds of
    start-up is ignored as well.)"""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:               # not the main thread: signals are not ours to change
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: how often a Dask run looks whether its cluster still has a worker (s); how long it waits for one to come back
#: (s); how many times Dask reruns a unit whose worker died before it gives up on it (Dask's allowed-failures)
WATCH_SECONDS, NO_WORKERS_SECONDS, MAX_UNIT_DEATHS = 2.0, 60.0, 3
#: seconds to connect to a scheduler and to finish Dask's handshake with it (each)
SCHEDULER_TIMEOUT = 5.0


def _connect(distributed: Any, scheduler: str) -> Any:
    """A Client of the scheduler at ``scheduler`` (``tcp://HOST:PORT``), or one BJEVError line: no such address,
    nothing listening, or something that does not answer as a Dask scheduler within SCHEDULER_TIMEOUT seconds
    (Dask's own handshake may wait for ever on a port that accepts and stays silent)."""
    import socket
    import threading
    from urllib.parse import urlsplit
    label = excerpt(scheduler)
    scheme: str | None = None
    host: str | None = None
    port: int | None = None
    try:
        parts = urlsplit(scheduler)
        scheme, host, port = parts.scheme, parts.hostname, parts.port
    except ValueError:
        pass
    if not scheduler.isascii() or scheme != "tcp" or not host or not port or len(host) > 253:
        raise BJEVError(f"--scheduler expects tcp://HOST:PORT, got {label}")
    try:
        socket.create_connection((host, port), timeout=SCHEDULER_TIMEOUT).close()
    except UnicodeError:              # a host name no resolver takes (a label over 63 characters)
        raise BJEVError(f"--scheduler expects tcp://HOST:PORT, got {label}") from None
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise BJEVError(f"cannot reach the Dask scheduler {label}: {reason} "
                        f"(within {SCHEDULER_TIMEOUT:g} s)") from None
    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = distributed.Client(scheduler, timeout=f"{SCHEDULER_TIMEOUT:g}s")
        except BaseException as exc:       # anything: a garbled answer fails in many ways
            made["error"] = exc

    thread = threading.Thread(target=connect, name="bjev-dask-connect", daemon=True)
    thread.start()
    thread.join(SCHEDULER_TIMEOUT + 1)
    if "client" in made:
        return made["client"]
    error = made.get("error")
    why = "no Dask handshake" if error is None else f"{type(error).__name__}: {excerpt(str(error), 80)[1:-1]}"
    raise BJEVError(f"{label} answers, but not as a Dask scheduler ({why}, within {SCHEDULER_TIMEOUT + 1:g} s)")


class DaskExecutor(Executor):
    """Units as Dask tasks on a running scheduler (``scheduler``) or on a LocalCluster of ``local_workers``.

    Each worker runs one unit at a time (one thread per worker process): the
    units hold the GIL most of the time.  A worker that dies has its units run
    again elsewhere (Dask's own recovery); a unit whose workers die three times
    fails the run.  Every worker must run the same bjev version (checked).
    """

    kind = "dask"

    def __init__(self, scheduler: str | None = None, local_workers: int | None = None) -> None:
        if scheduler is not None and not isinstance(scheduler, str):
            raise BJEVError(f"the Dask scheduler is an address such as tcp://HOST:8786, not a "
                            f"{type(scheduler).__name__}")
        if (scheduler is None) == (local_workers is None):
            raise BJEVError("give a Dask scheduler address or a number of local Dask workers (not both)")
        option = "--scheduler" if scheduler is not None else "--dask-local"
        distributed = import_distributed(option)
        self._distributed = distributed
        self._scratch: str | None = None
        self.cluster: Any = None
        self.client: Any = None
        self._log_level: int | None = None
        try:
            if local_workers is not None:
                n = _check_workers(local_workers, "--dask-local")
                # Dask's scratch space (spilled data, worker files) in a directory of its own, removed by close()
                self._scratch = tempfile.mkdtemp(prefix="bjev-dask-")
                # the scheduler and the nannies run in this process: a worker stopped by a signal (Ctrl-C at the
                # terminal reaches the whole process group) makes them log its closed connections, tracebacks
                # included, at INFO; LocalCluster's silence_logs lowers only its handlers, and only until it starts
                # to close.  Its logger stays at CRITICAL until close() has stopped everything.
                distributed_log = logging.getLogger("distributed")
                self._log_level = distributed_log.level
                distributed_log.setLevel(logging.CRITICAL)
                import dask
                with (dask.config.set({"temporary-directory": self._scratch}), _workers_ignore_sigint(),
                      _workers_quiet()):
                    self.cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                            dashboard_address=":0", silence_logs=logging.CRITICAL,
                                                            local_directory=self._scratch)
                self.client = distributed.Client(self.cluster)
                self.client.wait_for_workers(n)
            else:
                self.client = _connect(distributed, str(scheduler))
            versions = set(self.client.run(bjev_version).values())
        except BaseException:
            self.close()
            raise
        if not versions:
            self.close()
            raise BJEVError(f"the Dask scheduler {scheduler} has no workers")
        if versions != {ev.__version__}:
            self.close()
            raise BJEVError(f"the Dask workers run bjev {', '.join(sorted(versions))}, this process "
                            f"{ev.__version__}: install the same version everywhere")
        self.address = self.client.scheduler_info().get("address", scheduler or "")

    @property
    def workers(self) -> int:      # type: ignore[override]
        """Threads across the cluster's workers now (units that can run at once)."""
        info = self.client.scheduler_info()["workers"]
        return max(1, sum(w.get("nthreads", 1) for w in info.values()))

    def describe(self) -> str:
        where = f"LocalCluster at {self.address}" if self.cluster is not None else f"scheduler {self.address}"
        threads = self.workers
        return f"dask, {where}, {threads} worker thread{'' if threads == 1 else 's'}"

    def run(self, fn: UnitFunction, units: Sequence[Any], on_result: ResultCallback, shared: Any = None) -> None:
        if not units:
            return
        client = self.client
        distributed = self._distributed
        futures: list[Any] = []
        try:
            shared_future = client.scatter(shared, broadcast=True, hash=False)
            futures = client.map(fn, [shared_future] * len(units), list(units), pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            pending, alone_since = set(futures), None
            lost = tuple(c for c in (getattr(distributed.client, "FutureCancelledError", None),
                                     getattr(distributed.client, "FuturesCancelledError", None),
                                     asyncio.CancelledError, CancelledError) if c is not None)
            finished = 0
            while pending:
                try:
                    done, pending = distributed.wait(list(pending), timeout=WATCH_SECONDS,
                                                     return_when="FIRST_COMPLETED")
                except (TimeoutError, *lost):     # nothing finished in WATCH_SECONDS (or lost: said below)
                    done = set()
                for future in done:
                    try:
                        result = future.result()
                    except distributed.KilledWorker:
                        raise BJEVError(f"the Dask workers running a unit died {MAX_UNIT_DEATHS} times (out of "
                                        f"memory, or killed?); {finished} of {len(units)} units finished, "
                                        f"stopping") from None
                    except lost:
                        raise BJEVError(f"a Dask worker died with data the units needed (Dask cancelled them); "
                                        f"{finished} of {len(units)} units finished, stopping") from None
                    finished += 1
                    on_result(index[future.key], result)
                if done or not pending or client.scheduler_info().get("workers"):
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > NO_WORKERS_SECONDS:
                    raise BJEVError(f"the Dask scheduler {self.address} has had no worker for "
                                    f"{NO_WORKERS_SECONDS:g} s; {finished} of {len(units)} units finished, stopping")
        finally:
            unfinished = [f for f in futures if not f.done()]
            if unfinished:
                client.cancel(unfinished)

    def close(self) -> None:
        client, self.client = self.client, None
        cluster, self.cluster = self.cluster, None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        scratch, self._scratch = self._scratch, None
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        level, self._log_level = self._log_level, None
        if level is not None:
            logging.getLogger("distributed").setLevel(level)


def executor_for(workers: int | None = None, scheduler: str | None = None,
                 dask_local: int | None = None) -> Executor:
    """The executor the options ask for: ``--scheduler`` or ``--dask-local`` (Dask), else local processes."""
    if sum(x is not None for x in (workers, scheduler, dask_local)) > 1:
        raise BJEVError("choose one of --workers, --scheduler and --dask-local")
    if scheduler is not None or dask_local is not None:
        return DaskExecutor(scheduler, dask_local)
    return LocalExecutor(workers)
