"""Time the analysis as the work grows: 1 to 8 decks, one split against resplits to four hands.

Work, per row: the default game with ``decks`` decks, either as it is (one
split) or with ``max_split_hands=4``; ``Game(rules).analyse(("cdz",))`` (every
decision for every reachable hand against every up card, every split EV and
the round EV under one split strategy) and ``Game(rules).analyse()`` (the
same under CDZ-, CDP1 and CDP), each in a fresh process and timed in-process
around the call (imports done before the clock starts), and then, in the
one-strategy process, ``round_stats(game, "cdz")`` on the analysed game (the
wager accounting and outcome distribution the commands print).  Each figure
is the best of ``--repeat`` fresh processes (default 3).

Size of the work, printed beside the time: the hand-graph states (player
compositions of hard total <= 21 the shoe can hold), the hand states the
solvers valued (unsplit and in split contexts), the dealer evaluations (one
per distinct unseen deck), the dealer's terminal multisets per up card, and
the multisets visited (evaluations x the terminal multisets of their up
card; the compiled sum skips the busting half through its trie, so the trie
nodes summed are printed too).  Peak RSS is the child's ``ru_maxrss`` after
the analysis and after ``round_stats`` (one strategy) and after the analysis
(three strategies).

    python benchmarks/bench_analysis_scale.py [--decks 1 2 4 6 8] [--repeat N] [--no-round-stats] [--quick]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

CHILD = r"""
import json, resource, sys, time
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.core.cards import composition_of, subtract
from ev.core.rules import make_rules
strategies = ("cdz",) if sys.argv[1] == "one" else ("cdz", "cdp1", "cdp")
with_stats = sys.argv[2] == "1"
rules = make_rules(None, sys.argv[3:])
rss_start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
game = Game(rules)
analysis = game.analyse(strategies)
t1 = time.perf_counter()
rss_analysis = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
terminals = visited = nodes = 0
for up in game.upcards():
    evaluations = game.solver(up).work()["dealer_evaluations"]
    caps = subtract(game.caps, composition_of([up]))
    table = game.arithmetic.dealer(up, rules.hit_soft_17, rules.settled_blackjack_rank(up), caps).work()
    terminals += table["terminal_hands"]
    visited += evaluations * table["terminal_hands"]
    nodes += evaluations * table["trie_nodes"]
work = game.work()
stats_seconds = None
if with_stats:
    t2 = time.perf_counter()
    round_stats(game, "cdz")
    stats_seconds = time.perf_counter() - t2
rss_end = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": t1 - t0, "round_stats_seconds": stats_seconds, "graph_states": len(game.graph["hands"]),
                  "pairs": analysis.size, "work": work, "terminals": terminals, "visited": visited,
                  "trie_nodes": nodes, "rss_start_kib": rss_start, "rss_analysis_kib": rss_analysis,
                  "rss_end_kib": rss_end, "ev": analysis.rounds["cdz"].ev}))
"""


def child(mode: str, with_stats: bool, assignments: list[str]) -> dict:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, mode, "1" if with_stats else "0", *assignments],
                         capture_output=True, text=True, check=True).stdout
    info = json.loads(out)
    info["process_seconds"] = time.perf_counter() - start
    return info


def best(runs: list[dict], key: str) -> float:
    return min(run[key] for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2, 4, 6, 8])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-round-stats", action="store_true", help="skip round_stats (the slow part)")
    parser.add_argument("--json", action="store_true", help="also print every row as JSON")
    parser.add_argument("--quick", action="store_true", help="one deck, once: checks the script runs (as the "
                                                               "test suite runs it)")
    args = parser.parse_args()
    if args.quick:
        args.decks, args.repeat = [1], 1
    print(f"analysis scale, best of {args.repeat} fresh processes per figure (in-process time around the call)")
    print(f"{'decks':>5} {'splits':>7} {'1 strat s':>9} {'3 strat s':>9} {'rstats s':>9} {'proc s':>7} "
          f"{'states':>7} {'valued':>7} {'split':>7} {'dealer':>7} {'terms':>6} {'visited':>10} "
          f"{'trie n':>10} {'RSS MiB':>8} {'+rstats':>8} {'3 strat':>8}")
    rows = []
    for decks in args.decks:
        for hands in (2, 4):
            assignments = [f"decks={decks}"] + ([f"max_split_hands={hands}"] if hands != 2 else [])
            one = [child("one", not args.no_round_stats, assignments) for _ in range(args.repeat)]
            three = [child("three", False, assignments) for _ in range(args.repeat)]
            info = one[-1]
            stats = None if args.no_round_stats else best(one, "round_stats_seconds")
            row = {"decks": decks, "max_split_hands": hands, "one_strategy_seconds": best(one, "seconds"),
                   "three_strategies_seconds": best(three, "seconds"), "round_stats_seconds": stats,
                   "process_seconds": best(one, "process_seconds"),
                   "rss_analysis_mib": min(r["rss_analysis_kib"] for r in one) / 1024,
                   "rss_end_mib": min(r["rss_end_kib"] for r in one) / 1024,
                   "rss_three_mib": min(r["rss_analysis_kib"] for r in three) / 1024,
                   **{k: info[k] for k in ("graph_states", "pairs", "terminals", "visited", "trie_nodes", "ev")},
                   **info["work"]}
            rows.append(row)
            stats_text = f"{stats:9.3f}" if stats is not None else f"{'-':>9}"
            print(f"{decks:5d} {'1' if hands == 2 else 'to 4':>7} {row['one_strategy_seconds']:9.3f} "
                  f"{row['three_strategies_seconds']:9.3f} {stats_text} {row['process_seconds']:7.2f} "
                  f"{row['graph_states']:7d} {row['unsplit_hand_states']:7d} {row['split_hand_states']:7d} "
                  f"{row['dealer_evaluations']:7d} {row['terminals']:6d} {row['visited']:10,d} "
                  f"{row['trie_nodes']:10,d} {row['rss_analysis_mib']:8.1f} {row['rss_end_mib']:8.1f} "
                  f"{row['rss_three_mib']:8.1f}", flush=True)
    print("columns: one split strategy (CDZ-) and three (CDZ-, CDP1, CDP), round_stats(game, 'cdz') after the "
          "one-strategy analysis, whole one-strategy process (start-up, imports, analysis, round_stats); work of "
          "the one-strategy analysis: hand-graph states, hand states valued unsplit and in split contexts "
          "(summed over up cards), dealer evaluations, dealer terminal multisets (summed over up cards), multisets "
          "visited (evaluations x terminal multisets) and trie nodes summed; peak RSS after the one-strategy "
          "analysis, after its round_stats, and after the three-strategy analysis")
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
