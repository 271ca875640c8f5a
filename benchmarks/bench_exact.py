"""Time the exact (rational) RTP of the default game, cold, in a fresh process.

Work: the exact round EV under optimal composition-dependent play (RTP per
initial bet) and the exact wager accounting and outcome distribution (E[W],
so RTP per total wagered, and the distribution of the net result), every value
a Fraction.  The figure is the wall time of a new Python process that imports
bjev and does all of that (the best of ``--repeat`` runs, default 3), so it
includes start-up and table building (the dealer's compiled terminal sums).

    python benchmarks/bench_exact.py [--repeat N] [--split-strategy cdz] [--set key=value ...]
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
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.core.rules import make_rules
from ev.present.numbers import decimal_text, fraction_text
strategy = sys.argv[1]
game = Game(make_rules(None, sys.argv[2:]), exact=True)
result = game.round(strategy)
t1 = time.perf_counter()
stats = round_stats(game, strategy)
t2 = time.perf_counter()
assert stats.mean == result.ev and sum(stats.distribution.values()) == 1
print(json.dumps({"seconds_ev": t1 - t0, "seconds_accounting": t2 - t1, "seconds_in_process": t2 - t0,
                  "ev": fraction_text(result.ev), "ev_decimal": decimal_text(result.ev),
                  "rtp_initial": fraction_text(result.rtp_initial),
                  "rtp_total_wagered": fraction_text(stats.rtp_total_wagered),
                  "rtp_total_wagered_decimal": decimal_text(stats.rtp_total_wagered),
                  "work": {**game.work(), **stats.work}, "ties": len(result.ties)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--split-strategy", default="cdz", choices=("cdz", "cdp1", "cdp"))
    parser.add_argument("--set", action="append", default=[], dest="assignments")
    parser.add_argument("--quick", action="store_true", help="one run: checks the script runs (as the test suite "
                                                               "runs it)")
    args = parser.parse_args()
    if args.quick:
        args.repeat = 1
    times, info = [], {}
    for _ in range(args.repeat):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, args.split_strategy, *args.assignments],
                             capture_output=True, text=True, check=True).stdout
        times.append(time.perf_counter() - start)
        info = json.loads(out)
    work = info["work"]
    print(f"exact RTP (both conventions), cold process: best {min(times):.2f} s, "
          f"median {sorted(times)[len(times) // 2]:.2f} s over {args.repeat} runs "
          f"(in-process: EV {info['seconds_ev']:.2f} s + accounting {info['seconds_accounting']:.2f} s)")
    print(f"work: {work['unsplit_hand_states']} unsplit and {work['split_hand_states']} split (up card, hand) "
          f"states valued, {work['dealer_evaluations']} dealer evaluations; {work['split_rounds']} split rounds "
          f"as joint distributions: {work['final_pairs']} pairs of split-hand finals merged into "
          f"{work.get('split_unions', 0)} card unions, one exact dealer sum each (two-hand rounds, in C), and "
          f"{work['split_dealer_evaluations']} more dealer evaluations (rounds of more hands, in Python)")
    print(f"EV = {info['ev']} = {info['ev_decimal']}")
    print(f"RTP per initial bet   = {info['rtp_initial']}")
    print(f"RTP per total wagered = {info['rtp_total_wagered']} = {info['rtp_total_wagered_decimal']}")
    print(f"exact ties: {info['ties']}")


if __name__ == "__main__":
    main()
