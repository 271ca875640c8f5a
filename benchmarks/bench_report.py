"""Time and peak memory of ``bjev report`` for tables of 1 to 8 decks.

Each table is a fresh process running the command as a user types it (the default 10^7 simulated rounds,
English, every part of the report), so that its peak resident memory is its own.  Printed per table: the rules,
the wall time, the CPU time of the process and its children (the analysis's and the simulation's workers), the
peak RSS of the report's own process and the largest peak RSS of its worker processes (MiB).

    python benchmarks/bench_report.py [--quick] [--set key=value ...]

``--quick``: the eight-deck table only, with 10^5 simulated rounds (checks the script runs, as the test suite
runs it: 3.2 s on 2026-12-06, where the whole one-deck seed game, with its truly optimal split searches, took
4.3 s).
``--set``: one extra table, the default game changed as given.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time

#: the tables measured: (label, --set arguments)
TABLES = (
    ("1 deck, the seed game", []),
    ("2 decks, S17, DAS", ["decks=2", "hit_soft_17=false", "double_after_split=true"]),
    ("6 decks, S17, DAS, double any", ["decks=6", "hit_soft_17=false", "double_after_split=true", "double=any"]),
    ("6 decks, resplit to 4, DAS, late surrender", ["decks=6", "max_split_hands=4", "double_after_split=true",
                                                    "late_surrender=true"]),
    ("8 decks, H17, peek A/T", ["decks=8", "peek=ace_ten"]),
)


def run(label: str, assignments: list[str], rounds: str) -> None:
    with tempfile.TemporaryDirectory() as out:
        args = [sys.executable, "-m", "ev", "report", "--out", f"{out}/r", "--simulate-rounds", rounds]
        for item in assignments:
            args += ["--set", item]
        code = ("import resource, runpy, sys; sys.argv = ['bjev'] + sys.argv[1:]\n"
                "try:\n    runpy.run_module('ev', run_name='__main__')\n"
                "finally:\n    print('PEAK_KIB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,\n"
                "          resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, *args[3:]], capture_output=True, text=True)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{label}: bjev report failed: {done.stderr.strip().splitlines()[-2:]}")
    peak, child = next(map(int, line.split()[1:]) for line in done.stderr.splitlines() if line.startswith("PEAK_KIB"))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{label:46s} wall {wall:6.1f} s   CPU {cpu:6.1f} s   peak RSS {peak / 1024:6.0f} MiB "
          f"(largest worker {child / 1024:4.0f} MiB)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the eight-deck table only, 1e5 rounds")
    parser.add_argument("--set", action="append", default=[], dest="assignments")
    args = parser.parse_args()
    tables = TABLES[-1:] if args.quick else TABLES
    if args.assignments:
        tables = (*tables, ("the default game with " + ", ".join(args.assignments), args.assignments))
    rounds = "1e5" if args.quick else "1e7"
    print(f"bjev report, {rounds} simulated rounds, English; {len(tables)} table(s)")
    for label, assignments in tables:
        run(label, assignments, rounds)


if __name__ == "__main__":
    main()
