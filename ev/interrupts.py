"""SIGINT and SIGTERM held over a short step that must not be cut in two (a commit, the start of worker processes).

Beside ``ev.errors``: the analysis layer (starting workers) and the presentation
layer (committing files) both use it.
"""
from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block is over, then deliver the first that came.

    A commit is short; letting it finish keeps the files whole.  A pool of
    worker processes started whole is a pool that can be stopped whole.
    Outside the main thread (where handlers cannot be set) the block simply runs.
    """
    pending: list[int] = []
    try:
        previous = {s: signal.signal(s, lambda signum, frame: pending.append(signum))
                    for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        if pending:
            signal.raise_signal(pending[0])
