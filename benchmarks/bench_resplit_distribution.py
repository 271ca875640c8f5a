"""Time the exact outcome distribution of a round with resplits (``round_stats(..., resplits="exact")``).

Work: every split round of the default game with more hands allowed (one deck
resplitting to three and to four hands, two and six decks to three), each
hand scored against the same dealer hand, the hands dependent through the deck
(``ev.core._split_round``).  Each table runs in a fresh process: the figure is
the wall time of ``round_stats`` there (the split rounds side by side, one
thread per core, unless ``--threads``), and the process's peak RSS.  The work
printed: split rounds, the last hands' finals met, the distinct final unions
evaluated against the dealer, and the unions whose last hand summed its busts
by difference (docs/how-it-works.md, "Splits").  Each run checks that the
distribution's mean is the round EV to 1e-13.

    python benchmarks/bench_resplit_distribution.py [--repeat N] [--threads N] [--set key=value ...]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys, time
from ev.analysis import accounting
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.core.rules import make_rules
threads = int(sys.argv[1])
accounting.SPLIT_THREADS = threads or None
game = Game(make_rules(None, sys.argv[2:]))
ev = game.round("cdz").ev
start = time.perf_counter()
stats = round_stats(game, "cdz", "exact")
seconds = time.perf_counter() - start
assert stats.distribution_method == "exact" and abs(stats.mean - ev) < 1e-13, stats.mean - ev
print(json.dumps({"seconds": seconds, "work": stats.work, "gap": stats.mean - ev}))
"""

#: (label, assignments): the tables measured by default
TABLES = [("one deck, resplits to 3", ["max_split_hands=3"]),
          ("one deck, resplits to 4", ["max_split_hands=4"]),
          ("two decks, resplits to 3", ["decks=2", "max_split_hands=3"]),
          ("six decks, resplits to 3", ["decks=6", "max_split_hands=3"])]


def peak_mib(threads: int, assignments: list[str]) -> tuple[dict, float]:
    """One fresh process: its result, and its own peak RSS in MiB (read from its exit status, os.wait4)."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(threads), *assignments], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    out = child.stdout.read() if child.stdout else ""
    err = child.stderr.read() if child.stderr else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{' '.join(assignments)} failed: {err[-400:]}")
    return json.loads(out), usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per table (the best is printed)")
    parser.add_argument("--threads", type=int, default=0, help="threads for the split rounds (0: one per core)")
    parser.add_argument("--set", action="append", default=[], dest="assignments",
                        help="one table of your own instead of the default four (key=value, as bjev --set)")
    parser.add_argument("--quick", action="store_true", help="the first table, once (checks the script runs)")
    args = parser.parse_args()
    tables = [("your table", args.assignments)] if args.assignments else TABLES
    if args.quick:
        args.repeat, tables = 1, tables[:1]
    for label, assignments in tables:
        best: tuple[dict, float] | None = None
        for _ in range(args.repeat):
            result, mib = peak_mib(args.threads, assignments)
            if best is None or result["seconds"] < best[0]["seconds"]:
                best = (result, mib)
        assert best is not None
        result, mib = best
        work = result["work"]
        print(f"{label}: {result['seconds']:.2f} s, peak {mib:.0f} MiB; work: {work['split_rounds']} split rounds, "
              f"{work['last_hand_finals']:,} last-hand finals met, {work['unions']:,} final unions against the "
              f"dealer, {work['unions_by_difference']:,} unions' busts by difference "
              f"({work['unions_in_full']:,} in full); mean - EV {result['gap']:.1e}")


if __name__ == "__main__":
    main()
