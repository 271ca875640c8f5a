"""Rounds per second of the Monte Carlo simulator on one core (one worker, in process).

Work: ``--rounds`` (default 2*10^7) complete rounds of the game (default: the
seed game) played by the optimal composition-dependent table: each round a
lazy Fisher-Yates shuffle of the full shoe, insurance / even money, the peek,
the player's whole play (doubles, splits, resplits, surrender) and the
dealer's.  The figure is the best of ``--repeat`` runs (default 3); building
the strategy table (the exact engine, once) is timed separately and is not in
the rate.

    python benchmarks/bench_simulate.py [--rounds N] [--repeat N] [--set key=value ...]
"""
from __future__ import annotations

import argparse
import time

from ev.analysis.simulation import GENERATOR, resolve_strategy, simulate
from ev.core.rules import make_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--set", action="append", default=[], dest="assignments")
    parser.add_argument("--quick", action="store_true", help="2e6 rounds, once: checks the script runs (as the "
                                                               "test suite runs it)")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.repeat = 2_000_000, 1
    rules = make_rules(None, args.assignments)
    start = time.perf_counter()
    table = resolve_strategy(rules, "optimal")
    build = time.perf_counter() - start
    rates, result = [], None
    for i in range(args.repeat):
        result = simulate(rules, args.rounds, seed=i + 1, workers=1, strategy=table)
        rates.append(result.rounds / result.seconds)
    assert result is not None
    cards = 52 * rules.decks
    print(f"simulate, one worker: best {max(rates) / 1e6:.2f} M rounds/s, median "
          f"{sorted(rates)[len(rates) // 2] / 1e6:.2f} M rounds/s over {args.repeat} runs "
          f"(strategy table built once in {build:.2f} s, not counted)")
    print(f"work: {args.rounds:,} rounds per run, {rules.summary()}; {cards}-card shoe reshuffled every round "
          f"({GENERATOR}); {len(table.hands)} hand states; last run EV {100 * result.ev:+.4f} % "
          f"+/- {100 * result.ev_se:.4f} %")


if __name__ == "__main__":
    main()
