"""SIGINT and SIGTERM held over a short step that must not be cut in two (a commit, the start of worker processes).

Beside ``ev.errors``: the analysis layer (starting workers) and the presentation
layer (committing files) both use it.
"""
from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

#: blocks of signals_deferred open in this process
_holding = 0

#: the signal the command line caught (``ev.cli``), once it has: its KeyboardInterrupt may have been swallowed on
#: the way out (CPython can turn one raised at an unlucky point, inside an import, into another error that a
#: library catches), so long work asks :func:`raise_if_signalled` at its checkpoints, and the command line asks
#: before it writes its output
signalled: int | None = None


def raise_if_signalled() -> None:
    """Raise KeyboardInterrupt again if a signal was caught and the work still goes on."""
    if signalled is not None:
        raise KeyboardInterrupt(signal.Signals(signalled).name)


def worker_signals() -> None:
    """The signals of a bjev worker process: SIGINT is left to the parent (which stops its workers), SIGTERM
    takes its default action (how the parent stops it)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _after_fork_in_child() -> None:
    """A process forked inside a deferred block (a pool's worker) must not keep the holding handlers, which would
    swallow the SIGTERM that stops it: it takes :func:`worker_signals`, as bjev's workers do (``ev.cli``, the
    pools' initializers; hooks run in the order they were registered, and this one may come after ``ev.cli``'s)."""
    global _holding
    if _holding:
        _holding = 0
        worker_signals()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block is over, then deliver the first that came.

    A commit is short; letting it finish keeps the files whole.  A pool of
    worker processes started whole is a pool that can be stopped whole.
    Outside the main thread (where handlers cannot be set) the block simply runs.
    """
    global _holding
    pending: list[int] = []
    try:
        previous = {s: signal.signal(s, lambda signum, frame: pending.append(signum))
                    for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:
        yield
        return
    _holding += 1
    try:
        yield
    finally:
        _holding -= 1
        for s, handler in previous.items():
            signal.signal(s, handler)
        if pending:
            signal.raise_signal(pending[0])
