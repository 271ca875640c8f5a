"""A small progress bar on stderr for long work (shown only on a terminal, or when forced)."""
from __future__ import annotations

import sys
import time


class Progress:
    """``with Progress(total, "label") as bar: bar.advance(k, note)``; silent when stderr is not a tty."""

    def __init__(self, total: float, label: str, enabled: bool | None = None, min_seconds: float = 1.0) -> None:
        self.total, self.label = max(total, 1), label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.done = 0.0
        self.start = time.monotonic()
        self.min_seconds = min_seconds
        self.shown = False

    def __enter__(self) -> "Progress":
        return self

    def advance(self, amount: float = 1, note: str = "") -> None:
        self.done += amount
        if not self.enabled or time.monotonic() - self.start < self.min_seconds:
            return
        frac = min(self.done / self.total, 1.0)
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        elapsed = time.monotonic() - self.start
        sys.stderr.write(f"\r{self.label} [{bar}] {100 * frac:5.1f}% {elapsed:6.1f}s {note[:30]:<30}")
        sys.stderr.flush()
        self.shown = True

    def __exit__(self, *exc) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
