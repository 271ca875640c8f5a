"""Time a full analysis of the default game, cold, in a fresh process.

Work: every decision (stand, hit, double) for every reachable hand of two or
more cards against every up card, the split EV of every pair under CDZ-, CDP1
and CDP, and the round EV under each split strategy.  The figure is the wall
time of a new Python process that imports bjev and does all of that (the best
of ``--repeat`` runs, default 5), so it includes start-up and table building.

    python benchmarks/bench_full_analysis.py [--repeat N] [--set key=value ...]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from ev.analysis.game import Game
from ev.core.rules import make_rules
game = Game(make_rules(None, sys.argv[1:]))
analysis = game.analyse()
t1 = time.perf_counter()
print(json.dumps({"seconds_in_process": t1 - t0, "hands": analysis.size, "splits": len(analysis.split),
                  "ev": analysis.rounds["cdz"].ev}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--set", action="append", default=[], dest="assignments")
    parser.add_argument("--quick", action="store_true", help="one run: checks the script runs (as the test suite "
                                                               "runs it)")
    args = parser.parse_args()
    if args.quick:
        args.repeat = 1
    times, info = [], {}
    for _ in range(args.repeat):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, *args.assignments], capture_output=True, text=True,
                             check=True).stdout
        times.append(time.perf_counter() - start)
        info = json.loads(out)
    print(f"full analysis, cold process: best {min(times):.3f} s, median {sorted(times)[len(times) // 2]:.3f} s "
          f"over {args.repeat} runs (in-process {info['seconds_in_process']:.3f} s)")
    print(f"work: {info['hands']} (up card, hand) pairs x stand/hit/double, {info['splits']} split EVs, "
          f"3 round EVs; CDZ- EV = {100 * info['ev']:+.9f} %")


if __name__ == "__main__":
    main()
