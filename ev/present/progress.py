"""The one progress bar of bjev: a line on stderr for long work, shown only on a terminal (or when forced).

The computation never prints: it calls back (``progress(rounds_done)`` in
:func:`ev.analysis.simulation.simulate`, ``progress(label)`` in
:mod:`ev.analysis.sensitivity`), and the command line hands it a bar's
:meth:`Progress.update` or :meth:`Progress.advance`.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from ev.interrupts import raise_if_signalled


class Progress:
    """``with Progress(total, "label") as bar: bar.advance(k, note)`` or ``bar.update(done)``.

    The bar appears only once the work looks longer than ``min_seconds``
    (half a second in, the projected total exceeds it; or ``min_seconds``
    have passed) and only when ``stream`` (default stderr) is a terminal,
    unless ``enabled`` says otherwise.  With ``unit`` (e.g. "rounds") the line
    also shows the count, the rate and the time left.  Redrawn at most ten
    times a second; the last state and a newline are written on exit.
    """

    def __init__(self, total: float, label: str, enabled: bool | None = None, min_seconds: float = 1.0,
                 unit: str | None = None, stream: TextIO | None = None) -> None:
        self.total, self.label, self.unit = max(total, 1), label, unit
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)()) if enabled is None else enabled
        self.min_seconds = min_seconds
        self.done = 0.0
        self.note = ""
        self.start = time.monotonic()
        self.last = 0.0
        self.width = 0
        self.shown = False

    def __enter__(self) -> Progress:
        return self

    def advance(self, amount: float = 1, note: str = "") -> None:
        """``amount`` more units of work are done (``note``: what was just finished)."""
        self.update(self.done + amount, note)

    def update(self, done: float, note: str = "") -> None:
        """``done`` units of work are done in all.  A checkpoint too: an interrupt the command line caught and
        something on the way swallowed is raised again here (``ev.interrupts.signalled``)."""
        raise_if_signalled()
        self.done, self.note = done, note
        if not self.enabled:
            return
        now = time.monotonic()
        elapsed = now - self.start
        if not self.shown:
            projected = elapsed * self.total / done if done > 0 else float("inf")
            if elapsed < 0.5 or (projected < self.min_seconds and elapsed < self.min_seconds) or done >= self.total:
                return
            self.shown = True
        elif now - self.last < 0.1 and done < self.total:
            return
        self._draw(elapsed)
        self.last = now

    def _draw(self, elapsed: float) -> None:
        frac = min(self.done / self.total, 1.0)
        cells = 30
        bar = "#" * int(frac * cells) + "-" * (cells - int(frac * cells))
        line = f"{self.label} [{bar}] {100 * frac:5.1f}% {elapsed:6.1f}s"
        if self.unit:
            rate = self.done / elapsed if elapsed > 0 else 0.0
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            speed = f"{rate / 1e6:.2f} M/s" if rate >= 1e5 else f"{rate:.2f}/s"
            line += f"  {self.done:,.0f}/{self.total:,.0f} {self.unit}  {speed}  eta {eta:.0f} s"
        if self.note:
            line += f" {self.note[:30]}"
        self.stream.write("\r" + line.ljust(self.width))      # blanks cover the end of a longer last line
        self.stream.flush()
        self.width = len(line)

    def __exit__(self, *exc) -> None:
        if self.shown:
            self._draw(time.monotonic() - self.start)
            self.stream.write("\n")
            self.stream.flush()


class Waiting:
    """``with Waiting("label"):`` a line on stderr that says the block is still at work, for one long computation
    that cannot tell how far it has come (a truly optimal split search with resplits): the label, a turning
    mark and the seconds so far, redrawn five times a second by a thread of its own.  As :class:`Progress`: only
    on a terminal unless ``enabled`` says otherwise, only once ``min_seconds`` have passed, and the last state and
    a newline on exit."""

    MARKS = "|/-\\"

    def __init__(self, label: str, enabled: bool | None = None, min_seconds: float = 1.0,
                 stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)()) if enabled is None else enabled
        self.min_seconds = min_seconds
        self.shown = False
        self.width = 0
        self.turns = 0
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Waiting:
        if self.enabled:
            self._thread = threading.Thread(target=self._run, name="bjev-waiting", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            if time.monotonic() - self.start >= self.min_seconds:
                self._draw()

    def _draw(self) -> None:
        line = f"{self.label} {self.MARKS[self.turns % len(self.MARKS)]} {time.monotonic() - self.start:6.1f}s"
        self.turns += 1
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)
        self.shown = True

    def __exit__(self, *exc) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        if self.shown:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
