"""Time truly optimal split play: all 100 (pair, up card) cases of a game, float and exact.

Float: the EV of splitting every pair against every up card (one deck, the
default rules: dealer peeks under ace and ten) under truly optimal play
(``--split-strategy optimal``), each up card in its own thread (``--threads``,
default one per core).  Printed: wall and CPU time, and the work (first-hand
states, second-hand node visits, dealer lookups and distinct dealer decks
evaluated).  With ``--exact`` also the exact round EV and both RTPs of the
game under truly optimal split play (every one of the 100 split EVs exact).
Last, the process's peak RSS (each up card's dealer memo is freed once its
pairs are searched: ``optimal_split.prepare``).  With resplits
(``--set max_split_hands=3`` or ``4``) the work is the round states and hands
in play the searches met, and then the outcome distribution of every case is
timed too (the searched play followed forward, each case searched again;
with ``--exact`` the exact round searches each case once more, its play
followed counting drawing orders); ``--quick`` (the pairs against a 6) keeps
such a run to seconds or minutes.

    python benchmarks/bench_optimal_split.py [--threads N] [--exact] [--quick] [--set key=value ...]
"""
from __future__ import annotations

import argparse
import resource
import time

from ev.analysis import optimal_split
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.core.cards import N_RANKS
from ev.core.rules import make_rules


def timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=None, help="threads (default: one per core)")
    parser.add_argument("--exact", action="store_true", help="also the exact round EV and both RTPs")
    parser.add_argument("--set", action="append", default=[], dest="assignments")
    parser.add_argument("--quick", action="store_true", help="the pairs against a 6 only, float only: checks the "
                                                               "script runs (as the test suite runs it)")
    args = parser.parse_args()
    rules = make_rules(None, args.assignments)

    game = Game(rules)
    if args.quick:
        ups = [5]
        _, wall, cpu = timed(lambda: [optimal_split.split_value(game, 5, pair) for pair in range(N_RANKS)
                                      if game.shoe[pair] - (pair == 5) >= 2])
    else:
        ups = list(game.upcards())
        _, wall, cpu = timed(lambda: optimal_split.prepare(game, args.threads))
    work = optimal_split.work(game)
    cases = sum(1 for up in ups for pair in range(N_RANKS) if game.shoe[pair] - (pair == up) >= 2)
    print(f"float, {cases} (pair, up card) cases, {rules.summary()}: {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"(threads: {1 if args.quick else args.threads or 'one per core'})")
    if work["resplit_round_states"]:
        print(f"work: {work['resplit_round_states']:,} round states between hands and "
              f"{work['resplit_hand_states']:,} hands in play searched with resplits, "
              f"{work['first_hand_states']:,} first-hand states of one-split pairs, {work['dealer_lookups']:,} "
              f"dealer lookups, {work['dealer_evaluations']:,} dealer evaluations (distinct decks)")
    else:
        print(f"work: {work['first_hand_states']:,} first-hand states, {work['second_hand_visits']:,} second-hand "
              f"node visits, {work['dealer_lookups']:,} dealer lookups, {work['dealer_evaluations']:,} dealer "
              f"evaluations (distinct decks)")
    if work["resplit_round_states"]:
        cases_of = [(up, pair) for up in ups for pair in range(N_RANKS) if game.shoe[pair] - (pair == up) >= 2]
        cells, wall, cpu = timed(lambda: [optimal_split.split_distribution(game, up, pair)
                                          for up, pair in cases_of])
        print(f"outcome distributions of the {len(cases_of)} cases (searched again, the play followed forward): "
              f"{wall:.2f} s wall, {cpu:.2f} s CPU, {sum(len(c) for c in cells):,} cells")
    if not args.exact or args.quick:
        _peak()
        return
    exact = Game(rules, exact=True)
    result, wall, cpu = timed(lambda: exact.round("optimal"))
    stats, wall2, cpu2 = timed(lambda: round_stats(exact, "optimal"))
    assert stats.mean == result.ev
    work = optimal_split.work(exact)
    print(f"exact round under truly optimal split play: EV {wall:.2f} s wall ({cpu:.2f} s CPU), accounting "
          f"{wall2:.2f} s wall ({cpu2:.2f} s CPU)")
    print(f"work: {work['final_pairs']:,} pairs of finals merged into {work['unions']:,} card unions, "
          f"near ties decided exactly: {work['first_hand_near_ties']} of the first hand, "
          f"{work['second_hand_near_ties']} of the second (with resplits: of the last hand)")
    print(f"EV = {result.ev} = {float(result.ev):.15f}")
    print(f"RTP per initial bet   = {float(result.rtp_initial):.15f}")
    print(f"RTP per total wagered = {float(stats.rtp_total_wagered):.15f}")
    _peak()


def _peak() -> None:
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
