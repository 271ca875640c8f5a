"""The figures a user waits for, row by row, each with the size of its work; beside the first, when given, a
C++ analyser's strategy program on the same game.

Rows (the default game unless a row says otherwise; best and median of ``--repeat`` fresh processes):

* ``analysis``: every decision for every reachable hand against every up card and the round EV under
  CDZ-, CDP1 and CDP (``Game(rules).analyse()``), timed in-process in a fresh process, 1 and 8 decks; with
  ``--cpp-ev PATH``, beside it the same three EVs by the same analyser's library as a whole process
  (``benchmarks/cpp/ev_three_strategies.cpp``, built against its ``src/blackjack.cpp``; how, in the file);
* ``rtp cold``: ``bjev rtp`` as a whole process (start-up, imports, the EV, the exact accounting and the
  outcome distribution); with ``--cpp PATH``, beside it the strategy program of Eric Farmer's analyser
  (``src/strategy.cpp`` of github.com/possibly-wrong/blackjack, built with ``g++ -O2``) on the same rules,
  fed its questions on standard input and timed until it has written its tables and asks for a hand (it
  computes the CDZ- EV, the chart and the outcome distribution);
* ``sweep variant``: CPU seconds of one sweep variant (``evaluate_variant``: the EV, ``round_stats`` and the
  basic chart with its EV), 1 and 8 decks, in this process after a warm-up variant: each alone, and per
  variant as a sweep's worker meets them (eight variants of one dealer rule and shoe one after another,
  sharing the dealer's tables: ``ev.core.arithmetic.shared_dealers``); each also with ``--no-distribution``
  (the EV, E[W] from the play's exact stakes and the chart: ``SweepOptions(distribution=False)``);
* ``rtp --exact``, ``rules-effect``, ``rtp optimal 8 decks`` (``--split-strategy optimal --set decks=8``)
  and ``report 6 decks S17``: whole processes, wall time and the child's peak RSS.

    python benchmarks/bench_commands.py [--repeat N] [--cpp PATH] [--cpp-ev PATH] [--quick]

``--quick``: the analysis at one deck and ``bjev rtp``, once (shows that the script runs).  The package's
bytecode is written first, as an installed package has it.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ANALYSIS = r"""
import json, sys, time
from ev.analysis.game import Game
from ev.core.rules import make_rules
rules = make_rules(None, sys.argv[1:])
t0 = time.perf_counter()
game = Game(rules)
analysis = game.analyse()
seconds = time.perf_counter() - t0
dealer = sum(game.solver(up).work()["dealer_evaluations"] for up in game.upcards())
print(json.dumps({"seconds": seconds, "hands": analysis.size, "splits": len(analysis.split), "dealer": dealer}))
"""
#: the strategy program's questions for the default game: 1 deck, H17, double on 10-11 only (not 9, not
#: soft, not after hitting or splitting), no resplit, CDZ-, no surrender, blackjack pays 1.5
CPP_ANSWERS = "1\ny\nn\nn\nn\nn\nn\nn\ny\nn\n1.5\n{out}\n"
CPP_DONE = b"Enter dealer up card"


def compile_package() -> None:
    """Write the package's bytecode first, as an installed package has it: where PYTHONDONTWRITEBYTECODE is
    set (CI and the 2-core machine set it) and the editable install's sources changed, every fresh process
    would otherwise compile those modules again (11 ms for the chart's module alone, 3 ms from bytecode)."""
    import ev
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.dirname(ev.__file__)], env=env, check=True,
                   stdout=subprocess.DEVNULL)


def median(times: list[float]) -> float:
    return sorted(times)[len(times) // 2]


def spread(times: list[float]) -> str:
    return f"best {min(times):.3f} s, median {median(times):.3f} s"


#: a small process that runs a command and reports its wall seconds, peak RSS (MiB) and exit status.  Peak RSS is
#: read from there, not here: a child started from this process (large after the sweep rows) counts this
#: process's pages in its own peak until it replaces them (206-245 MiB reported for commands of 69-76 MiB).
MEASURE = r"""
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
error = child.stderr.read()
_, status, usage = os.wait4(child.pid, 0)
child.returncode = os.waitstatus_to_exitcode(status)
print(time.perf_counter() - start, usage.ru_maxrss / 1024, child.returncode)
sys.stderr.write(error.decode(errors="replace")[-400:])
"""


def run_child(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process run to the end (its output discarded), measured by
    a small process between (``MEASURE``)."""
    done = subprocess.run([sys.executable, "-c", MEASURE, *argv], capture_output=True, text=True, check=False)
    try:
        seconds, mib, code = done.stdout.split()
    except ValueError:
        raise SystemExit(f"{' '.join(argv)}: not measured: {done.stderr[-400:]}") from None
    if int(code):
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr[-400:]}")
    return float(seconds), float(mib)


def analysis_row(decks: int, repeat: int, cpp_ev: str | None) -> None:
    times, info = [], {}
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", ANALYSIS, f"decks={decks}"], capture_output=True, text=True,
                             check=True).stdout
        info = json.loads(out)
        times.append(info["seconds"])
    print(f"analysis, {decks} deck{'s' if decks > 1 else ''}, 3 split strategies (in-process): {spread(times)}; "
          f"work: {info['hands']:,} (up card, hand) pairs x stand/hit/double, {info['splits']} split EVs, "
          f"{info['dealer']:,} dealer evaluations")
    if cpp_ev:
        other = [run_child([cpp_ev, str(decks)])[0] for _ in range(repeat)]
        print(f"  C++ analyser, the same three EVs, whole process: {spread(other)}; ratio of the medians "
              f"{median(times) / median(other):.2f}")


def cpp_seconds(path: str, repeat: int) -> list[float]:
    """The strategy program's time on the default game, until it asks for a hand."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        answers = CPP_ANSWERS.format(out=os.path.join(tmp, "strategy.txt")).encode()
        for _ in range(repeat):
            start = time.perf_counter()
            with subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0) as child:
                assert child.stdin is not None and child.stdout is not None
                child.stdin.write(answers)
                child.stdin.close()      # at the end of its input it repeats its prompt, flushing it
                seen = b""
                while CPP_DONE not in seen:
                    chunk = child.stdout.read(4096)
                    if not chunk:
                        raise SystemExit(f"{path} ended before asking for a hand")
                    seen = seen[-64:] + chunk
                times.append(time.perf_counter() - start)
                child.kill()
    return times


def rtp_row(repeat: int, cpp: str | None) -> None:
    from ev.analysis.accounting import round_stats
    from ev.analysis.game import Game
    from ev.core.rules import Rules
    times = [run_child([sys.executable, "-m", "ev", "rtp"])[0] for _ in range(repeat)]
    work = round_stats(Game(Rules()), "cdz").work
    print(f"bjev rtp, cold: {spread(times)}; work: the analysis, the exact accounting and the outcome "
          f"distribution ({work['split_rounds']} split rounds, {work['unions']:,} final unions of both hands "
          f"against the dealer)")
    if cpp:
        other = cpp_seconds(cpp, repeat)
        print(f"  C++ strategy program, same game: {spread(other)}; ratio of the medians "
              f"{median(times) / median(other):.2f}")


def sweep_row() -> None:
    import itertools
    import threading

    from ev.analysis.sweep import SweepOptions, _figures
    from ev.core.arithmetic import shared_dealers
    from ev.core.rules import Rules
    _figures(Rules(decks=3), SweepOptions())           # warm-up: imports and first-use costs
    _figures(Rules(decks=3), SweepOptions(distribution=False))
    for decks, options in itertools.product((1, 8), (SweepOptions(), SweepOptions(distribution=False))):
        work = ("the EV, round_stats and the basic chart with its EV" if options.distribution else
                "--no-distribution: the EV, E[W] from the play's stakes and the basic chart with its EV")
        cpu = []
        for hit_soft_17 in (True, False, True):
            start = time.process_time()
            _figures(Rules(decks=decks, hit_soft_17=hit_soft_17), options)
            cpu.append(time.process_time() - start)
        print(f"sweep variant, {decks} deck{'s' if decks > 1 else ''}: CPU best {min(cpu):.3f} s, median "
              f"{sorted(cpu)[1]:.3f} s (H17, S17, H17, each alone); work: {work}")
        # as a sweep's worker meets them: the 8 variants of one dealer rule and shoe (double after split, late
        # surrender, blackjack payout), one after another, sharing the dealer's tables (a fresh thread each
        # time, so that each run starts with no table kept), against the same 8 each alone
        variants = [Rules(decks=decks, double_after_split=das, late_surrender=ls, blackjack_payout=bp)
                    for das, ls, bp in itertools.product((False, True), (False, True), ("3:2", "6:5"))]
        alone: list[float] = []
        shared: list[float] = []

        def run(variants: list = variants, shared: list = shared, options: SweepOptions = options) -> None:
            start = time.process_time()
            with shared_dealers():
                for rules in variants:
                    _figures(rules, options)
            shared.append((time.process_time() - start) / len(variants))

        for _ in range(3):
            start = time.process_time()
            for rules in variants:
                _figures(rules, options)
            alone.append((time.process_time() - start) / len(variants))
            thread = threading.Thread(target=run)
            thread.start()
            thread.join()
        print(f"  the {len(variants)} variants of one dealer rule (double after split, surrender, payout), CPU per "
              f"variant: each alone best {min(alone):.3f} s, median {sorted(alone)[1]:.3f} s; one after another "
              f"as a sweep's worker meets them, sharing the dealer's tables, best {min(shared):.3f} s, median "
              f"{sorted(shared)[1]:.3f} s")


def command_rows(repeat: int) -> None:
    rows = [("bjev rtp --exact", ["rtp", "--exact"], "exact rational EV and accounting"),
            ("bjev rules-effect", ["rules-effect"], "the EV of the default game and of each one-rule change"),
            ("bjev rtp --split-strategy optimal --set decks=8", ["rtp", "--split-strategy", "optimal", "--set",
                                                                 "decks=8"],
             "the 100 (pair, up card) split rounds searched for truly optimal play"),
            ("bjev report, 6 decks S17", ["report", "--set", "decks=6", "--set", "hit_soft_17=false", "--out"],
             "the whole report with its 10^7-round simulation")]
    for name, args, work in rows:
        results = []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                argv = [sys.executable, "-m", "ev", *args] + ([os.path.join(tmp, "report")] if args[-1] == "--out"
                                                               else [])
                results.append(run_child(argv))
        times = [t for t, _ in results]
        print(f"{name}: {spread(times)}, peak RSS {max(m for _, m in results):.0f} MiB; work: {work}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpp", help="path of the C++ analyser's strategy program (built from src/strategy.cpp)")
    parser.add_argument("--cpp-ev", help="path of ev_three_strategies (benchmarks/cpp/ev_three_strategies.cpp, built "
                        "against the same analyser)")
    parser.add_argument("--quick", action="store_true", help="the one-deck analysis and bjev rtp, once")
    args = parser.parse_args()
    for option, path in (("--cpp", args.cpp), ("--cpp-ev", args.cpp_ev)):
        if path and not os.access(path, os.X_OK):
            parser.error(f"{option}: {path} is not an executable file")
    repeat = 1 if args.quick else max(1, args.repeat)
    compile_package()
    analysis_row(1, repeat, args.cpp_ev)
    if not args.quick:
        analysis_row(8, repeat, args.cpp_ev)
    rtp_row(repeat, args.cpp)
    if not args.quick:
        sweep_row()
        command_rows(repeat)


if __name__ == "__main__":
    main()
