"""Sweep and simulation throughput through each executor: local processes and a Dask LocalCluster.

    python benchmarks/bench_scale.py sweep [--grid benchmarks/sweep_grid.toml] [--runs local:1,local:2,dask:2]
                                           [--save DIR]
    python benchmarks/bench_scale.py simulate [--rounds 2e8] [--runs local:1,local:2,dask:1,dask:2]

``--quick``: local runs only (the sweep on two processes, of at most the grid's first two variants) and
at most 4e6 rounds, four chunks (the test suite runs it so).

``sweep``: the whole grid (default: 384 variants of the default game) on each
executor in turn, from an empty output each time; prints the total time,
variants per second, the parallel efficiency against the first run (speed-up
/ workers), the mean and largest time per variant, and the load average of
the machine before and after each run (the machine may be shared).
``simulate``: rounds per second of the default game on each executor (the
optimal table built once, not counted), and a check that the tallies agree.
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

from ev.analysis.executors import DaskExecutor, Executor, LocalExecutor
from ev.analysis.simulation import resolve_strategy, simulate
from ev.analysis.sweep import SweepOptions, make_grid, run_sweep, variants
from ev.core.rules import Rules

HERE = os.path.dirname(os.path.abspath(__file__))


def executor(spec: str) -> Executor:
    kind, n = spec.split(":")
    return LocalExecutor(int(n)) if kind == "local" else DaskExecutor(local_workers=int(n))


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def bench_sweep(grid_file: str, runs: list[str], save: str | None = None, most: int | None = None) -> None:
    options = SweepOptions()
    todo = variants(make_grid(grid_file), options)[:most]
    base = None
    print(f"sweep of {len(todo)} variants ({grid_file}), floats, CDZ-")
    for spec in runs:
        before = load()
        with tempfile.TemporaryDirectory(), executor(spec) as ex:
            rows: list[dict] = []
            start = time.perf_counter()
            run_sweep(todo, options, ex, rows.append)
            seconds = time.perf_counter() - start
            workers = ex.workers
        if save:
            with open(os.path.join(save, f"sweep-{spec.replace(':', '-')}.json"), "w") as f:
                json.dump(rows, f)
        per = [r["seconds"] for r in rows]
        cpu = sum(r["cpu_seconds"] for r in rows)
        rate = len(rows) / seconds
        base = base or rate / workers
        print(f"{spec:>8}: {seconds:8.1f} s, {rate:.3f} variants/s, efficiency {rate / (base * workers):.2f}; "
              f"per variant mean {sum(per) / len(per):.2f} s, max {max(per):.2f} s, CPU mean "
              f"{cpu / len(rows):.2f} s (the workers computed {cpu / seconds / workers:.0%} of the time); "
              f"{sum(r['status'] != 'ok' for r in rows)} invalid; load before {before}, after {load()}", flush=True)


def bench_simulate(rounds: int, runs: list[str]) -> None:
    rules = Rules()
    table = resolve_strategy(rules, "optimal")
    print(f"simulate {rounds:,} rounds of the default game, optimal table")
    seen = set()
    for spec in runs:
        before = load()
        with executor(spec) as ex:
            result = simulate(rules, rounds, seed=1, strategy=table, executor=ex)
        seen.add((result.net_tenths, result.net_sq, result.rounds_split))
        print(f"{spec:>8}: {result.seconds:7.2f} s, {result.rounds_per_second / 1e6:6.2f} M rounds/s "
              f"({result.chunks} chunks); load before {before}, after {load()}", flush=True)
    print("tallies identical on every executor:", len(seen) == 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("sweep", "simulate"))
    parser.add_argument("--grid", default=os.path.join(HERE, "sweep_grid.toml"))
    parser.add_argument("--rounds", type=float, default=2e8)
    parser.add_argument("--runs", help="executors, e.g. local:1,local:2,dask:2")
    parser.add_argument("--save", metavar="DIR", help="sweep: also write each run's rows to DIR as JSON")
    parser.add_argument("--quick", action="store_true", help="local runs only, at most two variants or 4e6 rounds: "
                                                               "checks the script runs (as the test suite runs it)")
    args = parser.parse_args()
    if args.quick:
        args.runs = args.runs or ("local:2" if args.what == "sweep" else "local:1,local:2")
        args.rounds = min(args.rounds, 4e6)
    if args.what == "sweep":
        bench_sweep(args.grid, (args.runs or "local:1,local:2,dask:2").split(","), args.save,
                    2 if args.quick else None)
    else:
        bench_simulate(int(args.rounds), (args.runs or "local:1,local:2,dask:1,dask:2").split(","))


if __name__ == "__main__":
    main()
