"""What this process may use of the machine: a module of its own, so that the commands that only need the number of
cores (the accounting's threads) start without importing the executors."""
from __future__ import annotations

import os


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:         # not on Linux
        return os.cpu_count() or 1
