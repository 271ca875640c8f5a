"""The ``bjev`` command line (also ``python -m ev``).

Every command prints a plain-text answer, or JSON with ``--json``.  Bad input
(an unknown card, an impossible hand, a bad rule value, an unknown or repeated
option, an option that does not apply, an unwritable path) is answered with one
line on stderr and exit code 2, before any long computation.  SIGINT and
SIGTERM stop a command cleanly (temporary files removed, worker processes
stopped): one line, exit code 130 or 143.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from types import FrameType
from typing import Any

from ev import __version__, interrupts
from ev.analysis import optimal_split
from ev.analysis.game import Game
from ev.analysis.optimal_split import refuse_resplits
from ev.analysis.sensitivity import READINGS, effects_for
from ev.core.actions import FIXED_SPLIT_STRATEGIES, FORMULA_SPLIT_STRATEGIES, SPLIT_STRATEGIES
from ev.core.cards import composition_of, face_to_rank, parse_card, parse_faces
from ev.core.rules import Rules, make_rules
from ev.errors import EXCERPT_CHARS, BJEVError, excerpt
from ev.interrupts import worker_signals
from ev.present.numbers import json_ready
from ev.present.progress import Progress

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
#: the longest error line (characters)
MAX_ERROR_LINE = 300
#: rounds a simulation may play unless --max-rounds lifts the limit, and the most --max-rounds allows
#: (the simulator's 64-bit tallies of squared results stay exact up to about 10^15 rounds)
DEFAULT_MAX_ROUNDS, HARD_MAX_ROUNDS = 10 ** 10, 10 ** 15
#: the most simulation worker processes: four per core
MAX_WORKERS = 4 * (os.cpu_count() or 1)
#: rounds per second of one core, for the time estimate of a refused simulation (docs/benchmarks.md)
ROUNDS_PER_SECOND_PER_CORE = 2e7
HANDLED_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: the rounds of `bjev simulate --certify`
CERTIFY_ROUNDS = 10 ** 9
#: a simulation of at least this many rounds prints its time estimate first (any on a terminal), measured by
#: a pilot of PILOT_ROUNDS rounds
ESTIMATE_ROUNDS, PILOT_ROUNDS = 10 ** 8, 2 ** 20


class UsageError(BJEVError):
    """A bad command line."""


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM during a command, raised in the main thread so that every cleanup path runs."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class _Once(argparse.Action):
    """Store an option's value, refusing the option when it is given twice (the first would be ignored)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given = namespace.__dict__.setdefault("given_options", set())
        if self.dest in given:
            raise UsageError(f"{option_string or self.dest} is given twice; give it once")
        given.add(self.dest)
        setattr(namespace, self.dest, values)


class _OnceFlag(_Once):
    """A switch (``--json``) that is refused when it is given twice, as every other option is."""

    def __init__(self, option_strings: Sequence[str], dest: str, default: Any = False, required: bool = False,
                 help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, const=True, default=default, required=required, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        super().__call__(parser, namespace, True, option_string)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2, with no usage dump, and no option twice."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if args and args[0].startswith("-") and kwargs.get("action") is None and "nargs" not in kwargs:
            kwargs["action"] = _Once
        elif args and args[0].startswith("-") and kwargs.get("action") == "store_true":
            kwargs["action"] = _OnceFlag
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="FILE", help="rule set as a TOML or JSON file (default: the seed game)")
    p.add_argument("--set", metavar="KEY=VALUE", action="append", default=[], dest="assignments",
                   help="change one rule, e.g. --set decks=6 --set hit_soft_17=false (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


#: a count in ASCII digits: 1000000, 1_000_000, 1e6 or 2.5e6
_COUNT = re.compile(r"[0-9]+(?:_[0-9]+)*(?:\.[0-9]+)?(?:[eE]\+?[0-9]{1,3})?", re.ASCII)


def parse_count(text: str, minimum: int = 1, maximum: int = HARD_MAX_ROUNDS) -> int:
    """A number of rounds or workers: 1000000, 1_000_000, 1e6 or 2.5e6 (ASCII digits; a whole number
    from ``minimum`` to ``maximum``).  The one parser of every count option (argparse type)."""
    t = text.strip()
    if not _COUNT.fullmatch(t):
        raise argparse.ArgumentTypeError(f"expected a whole number such as 1000000 or 1e6, got {excerpt(text)}")
    value = Decimal(t.replace("_", ""))
    if value > maximum:
        raise argparse.ArgumentTypeError(f"at most {maximum:,} is allowed, got {excerpt(text)}")
    if value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"expected a whole number such as 1000000 or 1e6, got {excerpt(text)}")
    if value < minimum:
        allowed = "a positive number" if minimum == 1 else f"a number from {minimum} up"
        raise argparse.ArgumentTypeError(f"expected {allowed}, got {excerpt(text)}")
    return int(value)


def count(minimum: int = 1, maximum: int = HARD_MAX_ROUNDS) -> Any:
    """The argparse type of a count option from ``minimum`` to ``maximum`` (see :func:`parse_count`)."""
    def parse(text: str) -> int:
        return parse_count(text, minimum, maximum)
    return parse


def confidence_level(text: str) -> float:
    """A confidence level strictly between 0 and 1, e.g. 0.99 (argparse type)."""
    try:
        if not text.isascii() or len(text) > 40:
            raise ValueError
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a confidence level such as 0.99, got {excerpt(text)}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a confidence level is between 0 and 1 (0.99 is 99 %), not {excerpt(text)}")
    return value


def parse_seed(text: str) -> int:
    """A seed: an integer from 0 to 2**64 - 1, decimal or 0x hex, ASCII digits (argparse type)."""
    try:
        if not text.isascii() or len(text) > 40:
            raise ValueError
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {excerpt(text)}") from None
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError(f"the seed must be from 0 to 2**64 - 1, got {excerpt(text)}")
    return value


def _duration(seconds: float, lang: str = "en") -> str:
    """A time to wait, in words in English ("3.2 minutes"), with unit symbols in German and Polish ("3,2 min")."""
    if lang != "en":
        from ev.present.numbers import localized
        for symbol, size in (("a", 365.25 * 86400), ("d", 86400), ("h", 3600), ("min", 60)):
            if seconds >= 2 * size:
                return f"{localized(f'{seconds / size:.3g}', lang)}\u00a0{symbol}"
        return f"{max(1, round(seconds))}\u00a0s"
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.3g} {unit}"
    if seconds < 0.5:
        return "under a second"
    return "1 second" if seconds < 1.5 else f"{seconds:.0f} seconds"


def check_rounds(rounds: int, limit: int | None, workers: int | None) -> None:
    """Refuse a simulation of more than ``limit`` rounds (default DEFAULT_MAX_ROUNDS), with a time estimate."""
    limit = DEFAULT_MAX_ROUNDS if limit is None else limit
    if rounds > limit:
        cores = min(workers or os.cpu_count() or 1, os.cpu_count() or 1)
        estimate = _duration(rounds / (ROUNDS_PER_SECOND_PER_CORE * cores))
        raise UsageError(f"{rounds:.3g} rounds would take about {estimate} on {cores} core(s); the limit is "
                         f"{limit:.3g} rounds: lift it with --max-rounds N (up to {HARD_MAX_ROUNDS:.0e})")


def simulation_estimate(rounds: int, executor: Any, rules: Rules, table: Any, always: bool = False,
                        lang: str = "en") -> None:
    """Print a simulation's time estimate to stderr when it is long (``ESTIMATE_ROUNDS``), asked for, or on a
    terminal: a pilot of ``PILOT_ROUNDS`` rounds in this process measures the rate of one core now (the
    machine's speed varies by the hour), times the workers (at most the cores, locally)."""
    if rounds < ESTIMATE_ROUNDS and not always and not sys.stderr.isatty():
        return
    from ev.analysis.executors import LocalExecutor
    from ev.analysis.simulation import simulate
    workers = executor.workers
    if isinstance(executor, LocalExecutor):
        workers = min(workers, os.cpu_count() or 1)
    pilot = simulate(rules, min(rounds, PILOT_ROUNDS), seed=1, workers=1, strategy=table)
    rate = pilot.rounds / max(pilot.seconds, 1e-9)
    duration = _duration(rounds / (rate * max(1, workers)), lang)
    if lang == "en":
        print(f"bjev: {rounds:.3g} rounds on {workers} worker(s): about {duration} "
              f"(a pilot of {pilot.rounds:,} rounds ran at {rate / 1e6:.1f} M rounds/s on one core)", file=sys.stderr)
        return
    from ev.present.i18n import t
    from ev.present.numbers import integer, number
    print(t("cli.estimate", lang, rounds=integer(rounds, lang), workers=workers, duration=duration,
            pilot=integer(pilot.rounds, lang), rate=number(rate / 1e6, 1, lang)), file=sys.stderr)


def _executor_options(p: argparse.ArgumentParser) -> None:
    """--workers, --scheduler, --dask-local: where the work units run (ev.analysis.executors)."""
    g = p.add_mutually_exclusive_group()     # (a group's add_argument is argparse's own: _Once by hand)
    g.add_argument("--workers", type=count(1, MAX_WORKERS), metavar="N", action=_Once,
                   help=f"local worker processes (default: all cores; at most {MAX_WORKERS}, four per core)")
    g.add_argument("--scheduler", metavar="tcp://HOST:PORT", action=_Once,
                   help="run on a running dask.distributed scheduler (needs the cluster extra)")
    g.add_argument("--dask-local", type=parse_count, metavar="N", action=_Once,
                   help="start a dask.distributed LocalCluster of N worker processes and run on it")


def _executor(args: argparse.Namespace) -> Any:
    from ev.analysis.executors import executor_for
    return executor_for(args.workers, args.scheduler, args.dask_local)


#: the split strategies of the commands that give EVs only: the playable ones and the per-term CDP
EV_SPLIT_STRATEGIES = (*FIXED_SPLIT_STRATEGIES, *FORMULA_SPLIT_STRATEGIES, "optimal")


def _split_option(p: argparse.ArgumentParser, choices: Sequence[str] = SPLIT_STRATEGIES) -> None:
    terms = (", cdp-terms (each term of the resplit formula played best for its own deck, as Farmer's analyser "
             "defines CDP: an EV, not a strategy)" if "cdp-terms" in choices else "")
    extra = (" or optimal (truly optimal: each hand knowing every card seen; some seconds, with resplits "
             "minutes)"
             if "optimal" in choices else "")
    p.add_argument("--split-strategy", choices=choices,
                   help=f"how split hands are played: cdz (CDZ-, default), cdp1, cdp{terms}{extra}")


def _split(args: argparse.Namespace) -> str:
    return args.split_strategy or "cdz"


@contextlib.contextmanager
def _search_progress(split_strategy: str) -> Iterator[None]:
    """A progress bar (on a terminal) over the truly optimal split searches of the block, one step an up card:
    with resplits they take minutes (``optimal_split.watch``)."""
    if split_strategy != "optimal":
        yield
        return
    with Progress(1, "truly optimal split search") as bar, \
            optimal_split.watch(lambda done, total, note: bar.update(done / total, note)):
        yield


def _resplit_distribution_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--resplit-distribution", choices=("auto", "exact"), default="auto",
                   help="with resplits, how the outcome distribution (SD, P(win), ...) scores the hands of splits "
                        "that make more than two hands: auto (default) exactly for splits to three hands and for "
                        "one deck (seconds), and where the work is small, elsewhere as independent given the "
                        "dealer's outcome (said in the output; the EV and both RTPs stay exact; with --exact only "
                        "where the work is small); exact: every hand against the same dealer hand, always (two "
                        "decks to four hands: about a minute and 2 GiB; six decks: minutes; --exact far longer)")


def _max_rounds_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-rounds", type=count(1), metavar="N",
                   help=f"lift the limit of {DEFAULT_MAX_ROUNDS:.0e} simulated rounds (up to {HARD_MAX_ROUNDS:.0e})")


def _command(sub: Any, name: str) -> argparse.ArgumentParser:
    """The sub-command ``name``, run by ``cmd_<name>``: its docstring's first line is the one-line help, the
    rest (or the first line) the description of ``bjev <name> --help``."""
    run = globals()["cmd_" + name.replace("-", "_")]
    summary, _, rest = (run.__doc__ or "").strip().partition("\n\n")
    details = " ".join(rest.split()) if rest.strip() else summary[:1].upper() + summary[1:] + "."
    p = sub.add_parser(name, help=summary, description=details)
    p.set_defaults(run=run)
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bjev", description="Exact blackjack mathematics: EVs, strategy, RTP.")
    parser.add_argument("--version", action="version", version=f"bjev {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = _command(sub, "rtp")
    _rule_options(p)
    _split_option(p, EV_SPLIT_STRATEGIES)
    p.add_argument("--strategy", choices=("optimal", "basic"), default="optimal",
                   help="optimal composition-dependent play (default) or a player who follows the basic-strategy "
                        "chart exactly")
    p.add_argument("--exact", action="store_true",
                   help="exact rational mode: every value as a fraction p/q and its 20-digit decimal")
    _resplit_distribution_option(p)

    p = _command(sub, "hand")
    p.add_argument("cards", help="the player's cards, e.g. T,6 or T6 or 10,6 (A 2-9 T J Q K)")
    p.add_argument("--up", required=True, help="the dealer's up card")
    p.add_argument("--removed", default="", help="other cards known to be out of the shoe, e.g. 5,5,T")
    _rule_options(p)
    _split_option(p, EV_SPLIT_STRATEGIES)
    p.add_argument("--exact", action="store_true",
                   help="exact rational mode: every value as a fraction p/q and its 20-digit decimal")

    p = _command(sub, "monitor")
    p.add_argument("--rounds", action="append", type=count(1), metavar="N", dest="monitor_rounds",
                   help="rounds played (repeatable; default 1e2, 1e3, ..., 1e9)")
    p.add_argument("--confidence", action="append", type=confidence_level, metavar="C", dest="confidences",
                   help="confidence level, e.g. 0.99 (repeatable; default 0.95, 0.99, 0.999)")
    _rule_options(p)
    _resplit_distribution_option(p)

    p = _command(sub, "rules-effect")
    _rule_options(p)
    _split_option(p, FIXED_SPLIT_STRATEGIES)

    p = _command(sub, "simulate")
    p.add_argument("--rounds", type=count(1), metavar="N",
                   help=f"rounds to play, e.g. 1e8 (at most {DEFAULT_MAX_ROUNDS:.0e} unless --max-rounds says more; "
                        f"needed unless --certify)")
    p.add_argument("--certify", action="store_true",
                   help=f"a certification run: {CERTIFY_ROUNDS:.0e} rounds unless --rounds says otherwise, its time "
                        f"estimate first, and exit status 1 when the verdict of the acceptance rule is FAIL")
    p.add_argument("--seed", type=parse_seed, metavar="S", help="seed, 0 to 2**64-1 (default: random, printed)")
    _executor_options(p)
    _max_rounds_option(p)
    p.add_argument("--strategy", choices=("optimal", "basic"), default="optimal",
                   help="optimal composition-dependent play (default) or the basic-strategy chart")
    _rule_options(p)

    from ev.present import CHART_FORMATS
    from ev.present.i18n import LANGUAGES
    p = _command(sub, "chart")
    p.add_argument("--format", choices=CHART_FORMATS,
                   help="output format (default text; png needs --out; not with --json)")
    p.add_argument("--lang", choices=LANGUAGES, help="language (default en; not with --json)")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of printing (the JSON too, with --json)")
    _rule_options(p)
    _split_option(p)

    p = _command(sub, "regenerate")
    p.add_argument("--out", metavar="DIR", default="tables", help="output directory (default: tables)")

    p = _command(sub, "report")
    p.add_argument("--out", metavar="DIR", default="report", help="output directory (default: report)")
    p.add_argument("--lang", choices=("en", "de", "pl"), default="en", help="language (default en)")
    p.add_argument("--simulate-rounds", metavar="N", type=count(0), default=10_000_000,
                   help="Monte Carlo rounds for the verification section (default 1e7; 0 leaves it out)")
    p.add_argument("--seed", type=parse_seed, metavar="S",
                   help="simulation seed, 0 to 2**64-1 (default: a fixed seed, recorded; the same for every language)")
    _executor_options(p)
    _max_rounds_option(p)
    p.add_argument("--meta", metavar="FILE", help="report metadata as TOML: supplier, game name, game ID and version, "
                                                  "jurisdiction, document ID, revision history, author, reviewer, "
                                                  "approver, table limits (missing fields are printed as blanks)")
    p.add_argument("--skip-rules-effect", action="store_true", help=argparse.SUPPRESS)  # tests: saves ~2 s
    _rule_options(p)
    _split_option(p)
    _resplit_distribution_option(p)

    p = _command(sub, "sweep")
    p.add_argument("grid_file", nargs="?", metavar="GRID.toml",
                   help="the grid: rule = [values] (an axis) or rule = value (fixed), at the top level or "
                        "under [grid]")
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2", dest="axes",
                   help="an axis, e.g. --grid decks=1,2,6,8 --grid hit_soft_17=true,false (repeatable)")
    _rule_options(p)
    _split_option(p)
    p.add_argument("--out", metavar="DIR", default="sweep", help="output directory (default: sweep)")
    p.add_argument("--exact", action="store_true",
                   help="also the exact fractions and the RTP as an exact function of the payout (seconds per "
                        "variant)")
    p.add_argument("--no-distribution", action="store_false", dest="distribution",
                   help="leave the outcome distribution out: E[W] and the RTP per total wagered from the play's "
                        "exact stakes (the same figures), the sd, p_double and p_split columns empty; half the "
                        "time a variant takes, or less")
    p.add_argument("--target-rtp", metavar="X", help="the RTP to reach, e.g. 0.995 (implies the exact figures)")
    p.add_argument("--solve", choices=("blackjack_payout",), help="the rule to solve for --target-rtp "
                                                                  "(blackjack_payout, the default)")
    p.add_argument("--convention", choices=("total_wagered", "initial"), default="total_wagered",
                   help="the RTP convention of --target-rtp (default total_wagered)")
    p.add_argument("--max-variants", type=count(1), metavar="N",
                   help="lift the limit of 10,000 variants a grid may have")
    _executor_options(p)
    return parser


# ----- commands -------------------------------------------------------------
def cmd_rtp(args: argparse.Namespace) -> tuple[str, Any]:
    """exact EV and RTP of a round under optimal play

    Exact EV and both RTPs (per initial bet, per total wagered) of a whole round: optimal
    composition-dependent play with split hands played by --split-strategy (default CDZ-), or the
    basic-strategy chart (--strategy basic); with the wager accounting and the outcome distribution
    (with splits of more than two hands the distribution may be approximate: the output says so).
    """
    from ev.present.command_text import rtp_output
    if args.strategy == "basic" and args.split_strategy:
        raise UsageError("--split-strategy applies to optimal play; the basic-strategy chart plays split hands by "
                         "the chart: leave out one of them")
    rules = make_rules(args.rules, args.assignments)
    with _search_progress(_split(args)):
        return rtp_output(rules, _split(args), args.strategy, exact=args.exact,
                          resplit_distribution=args.resplit_distribution)


def cmd_chart(args: argparse.Namespace) -> tuple[str, Any]:
    """the basic-strategy chart (total-dependent), in several formats and languages

    The total-dependent basic-strategy chart, derived exactly (no single-cell change raises the EV of a player
    who follows it), with its EV and both RTPs against optimal composition-dependent play.
    """
    from ev.analysis.basic_strategy import basic_chart
    from ev.present.chart_render import chart_data, render
    from ev.present.files import FileTarget
    if args.json and (args.format or args.lang):
        raise UsageError("--json gives the chart's cells and figures in no format or language: leave out "
                         + " and ".join(o for o, v in (("--format", args.format), ("--lang", args.lang)) if v))
    if args.format == "png" and args.out is None:
        raise UsageError("--format png needs --out FILE")
    game = Game(make_rules(args.rules, args.assignments))
    target = None if args.out is None else FileTarget(args.out)   # an unwritable --out fails now, not after the work
    with _search_progress(_split(args)):
        chart = basic_chart(game, _split(args))
    data = chart_data(chart)
    output = (json.dumps(json_ready(data), indent=2, allow_nan=False) + "\n" if args.json
              else render(chart, args.format or "text", args.lang or "en"))
    if target is not None:
        target.write(output)
        from ev.present.i18n import t
        return t("cli.wrote", args.lang or "en", path=args.out), None
    if args.json:
        return "", data
    return (output.decode("utf-8") if isinstance(output, bytes) else output).rstrip("\n"), data


def cmd_regenerate(args: argparse.Namespace) -> tuple[str, Any]:
    """regenerate the committed strategy charts, exceptions and EV tables in tables/

    Regenerate the committed strategy charts, exceptions and EV tables in tables/ (the default game): the chart in
    every format and language, the composition-dependent exceptions and the EV tables.
    """
    from ev.present.files import write_tables
    paths, chart = write_tables(args.out)
    text = "\n".join([*(f"wrote {p}" for p in paths),
                      f"chart EV {100 * chart.ev:+.6f} %, optimal CD EV {100 * chart.optimal.ev:+.6f} %, "
                      f"{len(chart.exceptions_with(2))} two-card exceptions, derived in {chart.seconds:.1f} s"])
    return text, {"files": paths}


def cmd_monitor(args: argparse.Namespace) -> tuple[str, Any]:
    """monitoring limits: where a correct game's observed RTP lies after n rounds

    The limits of the observed RTP, per initial bet and per total wagered, after n rounds at a confidence level.
    Per initial bet up to 1e5 rounds: the n-fold convolution of the round's distribution, exact where that
    distribution is (with splits of four hands on more than one deck it is approximate unless
    --resplit-distribution exact; the output says which), so a correct game falls outside them with at most
    the complementary probability;
    above 1e5 rounds Cornish-Fisher, approximate. Per total wagered: the delta method with Cornish-Fisher
    quantiles at every n, approximate.
    """
    from ev.analysis.accounting import round_stats
    from ev.analysis.monitoring import CONFIDENCES, ROUNDS, RoundLaw
    from ev.present.monitor_text import monitor_output
    rounds = sorted(set(args.monitor_rounds or ROUNDS))
    confidences = sorted(set(args.confidences or CONFIDENCES))
    rules = make_rules(args.rules, args.assignments)
    stats = round_stats(Game(rules), "cdz", args.resplit_distribution)
    law = RoundLaw.of(stats)
    return monitor_output(rules, law, rounds, confidences, stats.distribution_method, float(stats.mean_gap))


def cmd_rules_effect(args: argparse.Namespace) -> tuple[str, Any]:
    """RTP under each reading of the peek rule and each one-rule change

    EV and both RTPs under each reading of the seed rules' peek clause, and the EV change of each one-rule
    change from the base game (optimal CD play).
    """
    from ev.present.command_text import rules_effect_output
    rules = make_rules(args.rules, args.assignments)
    with Progress(1 + len(READINGS) + len(effects_for(rules, _split(args))), "rules-effect") as bar:
        return rules_effect_output(rules, _split(args), progress=lambda label: bar.advance(1, label))


def cmd_hand(args: argparse.Namespace) -> tuple[str, Any]:
    """exact EV of every decision for one hand

    Exact EV of every decision for one hand against one up card.
    """
    from ev.present.command_text import hand_output
    rules = make_rules(args.rules, args.assignments)
    faces = parse_faces(args.cards)
    up = parse_card(args.up)
    removed_faces = parse_faces(args.removed) if args.removed.strip() else []
    removed = composition_of(face_to_rank(f) for f in removed_faces)
    if _split(args) != "optimal":
        return hand_output(rules, removed, faces, up, _split(args), exact=args.exact)
    # a pair's truly optimal split is one search, minutes with resplits, that cannot say how far it has come
    from ev.present.progress import Waiting
    with Waiting("truly optimal split search"):
        return hand_output(rules, removed, faces, up, _split(args), exact=args.exact)


def cmd_simulate(args: argparse.Namespace) -> tuple[str, Any]:
    """Monte Carlo simulation of whole rounds, checked against the exact figures

    Deal and play real rounds from a freshly shuffled shoe (xoshiro256**), by the optimal or the basic strategy,
    and compare EV, both RTPs, the net-result distribution and the frequencies with the exact values.
    """
    from ev.analysis.simulation import compare, exact_figures, resolve_strategy, simulate
    from ev.present.simulation_text import report_data, report_text
    if args.rounds is None and not args.certify:
        raise UsageError(f"say how many rounds: --rounds N, or --certify for {CERTIFY_ROUNDS:.0e}")
    rounds = args.rounds if args.rounds is not None else CERTIFY_ROUNDS
    check_rounds(rounds, args.max_rounds, args.workers)
    rules = make_rules(args.rules, args.assignments)
    table = resolve_strategy(rules, args.strategy)
    with _executor(args) as executor, Progress(rounds, "simulating", unit="rounds", min_seconds=2.0) as bar:
        simulation_estimate(rounds, executor, rules, table, args.certify)
        result = simulate(rules, rounds, seed=args.seed, strategy=table, progress=bar.update,
                          executor=executor)
    exact = exact_figures(rules, table)
    comparison = compare(result, exact)
    data = report_data(result, comparison, exact)
    if args.certify and data["acceptance"] is not None and data["acceptance"]["passed"] is False:
        args.failure = "the simulation's verdict is FAIL (see the last line of the output)"
    return report_text(result, comparison, exact), data


def cmd_report(args: argparse.Namespace) -> tuple[str, Any]:
    """the math report for regulators: PDF, HTML, Markdown and JSON

    Write report.pdf, report.html, report.md, report.json, exceptions.csv and the Markdown's images into --out:
    the game's identification, assumptions and rule reading, method, both RTPs under every player strategy,
    results by up card, decisions and maximum exposure, volatility, strategy chart and every
    composition-dependent exception, rule sensitivity, a reproducible Monte Carlo check, and a sign-off block.
    """
    # Build every figure once (ev.present.report.model), render the four files, commit them into --out at the end.
    from ev.present.i18n import t
    from ev.present.report import FILES, build_report, output_target, render_all, report_json, total_steps
    rounds = args.simulate_rounds
    if rounds == 0 and (args.seed is not None or args.workers is not None):
        raise UsageError("--seed and --workers set up the simulation, which --simulate-rounds 0 leaves out")
    check_rounds(rounds, args.max_rounds, args.workers)
    rules = make_rules(args.rules, args.assignments)
    from ev.present.report.meta import load_meta
    meta = load_meta(args.meta) if args.meta else None
    with output_target(args.out) as target:       # an unwritable or busy --out fails now, not after the work
        label = t("cli.progress_report", args.lang)
        with _executor(args) as executor, \
                Progress(total_steps(not args.skip_rules_effect, rules, _split(args)), label) as bar:
            if rounds >= ESTIMATE_ROUNDS:
                from ev.analysis.strategy import optimal_policy
                simulation_estimate(rounds, executor, rules, optimal_policy(Game(rules)), lang=args.lang)
            report = build_report(rules, split_strategy=_split(args), simulate_rounds=rounds, seed=args.seed,
                                  executor=executor, sensitivity=not args.skip_rules_effect,
                                  progress=bar.advance, meta=meta, command=["bjev", *args.argv],
                                  resplits=args.resplit_distribution)
            files = render_all(report, args.lang)
        out = target.commit(files)
    if not report.passed:
        failed = [c["key"] for c in report.self_checks["checks"] if not c["passed"]]
        args.failure = (f"{len(failed)} self-check(s) failed ({', '.join(failed)}): see the appendix "
                        f"'Self-checks' of {out / 'report.pdf'}; do not use these figures")
    rtp = report.rtp
    wrote = [t("cli.wrote", args.lang, path=out / name) for name in FILES]
    if args.lang == "en":        # the short rule summary of every English command
        closing = (f"RTP per total wagered {100 * rtp['rtp_total_wagered']:.6f} %, per initial bet "
                   f"{100 * rtp['rtp_initial']:.6f} % ({rules.summary()})")
    else:                        # every line of a German or Polish run in its language
        from ev.present.i18n import rules_summary
        from ev.present.numbers import percent
        closing = t("cli.report_rtp", args.lang, total_wagered=percent(rtp["rtp_total_wagered"], 6, args.lang),
                    initial=percent(rtp["rtp_initial"], 6, args.lang), rules=rules_summary(rules, args.lang))
    text = "\n".join([*wrote, closing])
    return text, json.loads(report_json(report, args.lang))


def cmd_sweep(args: argparse.Namespace) -> tuple[str, Any]:
    """every combination of listed rule values: EV, RTPs, chart and its cost

    Evaluate every combination of the listed rule values (a grid file and/or --grid): EV, both RTPs, E[W], SD,
    P(double), P(split), the basic-strategy chart's EV, cost and hash; with --exact the fractions and the RTP as
    a function of the payout.  Writes sweep.csv, sweep.json (and sweep.parquet with pyarrow) into --out;
    rerunning into the same --out skips finished variants.
    """
    # Check everything, lock --out, evaluate the unfinished variants (each appended to the journal), then commit
    # the tables as one set.
    from ev.analysis.sweep import (
        SweepOptions,
        check_size,
        check_some_valid,
        estimate_cpu_seconds,
        make_grid,
        run_sweep,
        variants,
    )
    from ev.core.rules import from_mapping, load_rules_file, parse_assignments
    from ev.present.files import DirectoryTarget
    from ev.present.sweep_output import TABLES, Journal, commit_tables, grid_rows, sweep_meta, sweep_text
    fixed = {**(load_rules_file(args.rules) if args.rules else {}), **parse_assignments(args.assignments)}
    grid = make_grid(args.grid_file, args.axes, fixed)
    if args.solve and args.target_rtp is None:
        raise UsageError("--solve needs --target-rtp, e.g. --target-rtp 0.995 --solve blackjack_payout")
    target = None if args.target_rtp is None else _target_rtp(args.target_rtp)
    options = SweepOptions(_split(args), args.exact, target, args.convention, args.distribution)
    check_size(grid, args.max_variants)
    grid_variants = variants(grid, options)
    check_some_valid(grid_variants)
    if options.split_strategy == "optimal":
        for variant in grid_variants:
            if variant.error is None:
                refuse_resplits(from_mapping(variant.values), "optimal", "a sweep variant")
    with DirectoryTarget(args.out, TABLES, "the sweep") as out, _executor(args) as executor:
        journal = Journal(args.out)
        recorded = journal.load()
        todo = [v for v in grid_variants if v.key not in recorded]
        for note in journal.notes():
            print(f"bjev sweep: {note}", file=sys.stderr)
        estimate = estimate_cpu_seconds(todo, options) / max(1, min(executor.workers, len(todo)))
        if estimate >= ESTIMATE_SHOWN or sys.stderr.isatty():
            print(f"bjev sweep: {len(todo):,} variant{'s' if len(todo) != 1 else ''} to compute on "
                  f"{executor.describe()}: about {_duration(estimate)} (an estimate; a busy machine takes longer)",
                  file=sys.stderr)

        def record(row: dict) -> None:
            journal.append(row)
            recorded[row["key"]] = row

        with Progress(len(todo), "sweep", unit="variants") as bar:
            run = run_sweep(todo, options, executor, record, done=len(grid_variants) - len(todo),
                            progress=bar.advance)
        rows = grid_rows(grid_variants, recorded, options)
        meta = {**sweep_meta(grid, options, run, rows), "estimated_seconds": round(estimate, 1),
                "journal": {"damaged_lines": journal.damaged, "other_versions": journal.outdated}}
        paths = commit_tables(out, rows, options, meta)
    return sweep_text(grid, options, run, rows, paths), {**meta, "files": paths, "rows": rows}


#: a sweep's time estimate is printed (to stderr) before the work when it is at least this many seconds
ESTIMATE_SHOWN = 60.0


def _target_rtp(text: str) -> Fraction:
    """--target-rtp: a decimal number above 0 and below 2 (0.995 is 99.5 %), of at most 30 digits."""
    from decimal import Decimal, InvalidOperation
    try:
        value = Decimal(text.strip()) if len(text) <= 40 and text.isascii() else Decimal("NaN")
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or not 0 < value < 2 or len(value.as_tuple().digits) > 30 or value.adjusted() < -6:
        raise UsageError(f"--target-rtp expects a fraction above 0 and below 2 such as 0.995 (99.5 %), got "
                         f"{excerpt(text)}")
    return Fraction(value)


# ----- errors and signals ----------------------------------------------------
_QUOTED = re.compile(rf"'([^'\n]{{{EXCERPT_CHARS - 1},}})'")


def error_line(message: str) -> str:
    """One line of at most MAX_ERROR_LINE characters: quotations of the input cut to excerpts, newlines folded."""
    text = _QUOTED.sub(lambda m: excerpt(m.group(1)), " ".join(str(message).split()))
    line = f"bjev: error: {text}"
    return line if len(line) <= MAX_ERROR_LINE else line[:MAX_ERROR_LINE - 1] + "…"


def _on_signal(signum: int, frame: FrameType | None) -> None:
    for s in HANDLED_SIGNALS:             # the first signal starts the cleanup; a second must not cut it short
        signal.signal(s, signal.SIG_IGN)
    # the signal that interrupted the running command: CPython may turn the KeyboardInterrupt raised at an unlucky
    # point into another error (raised while an import formats its ImportError, it surfaces as "TypeError:
    # expected a message argument"), which the command still ends as, interrupted; or a library may swallow that
    # error, and the work goes on: its progress checkpoints, and the output's, raise it again
    interrupts.signalled = signum
    raise Interrupted(signum)


_running = False


def _after_fork_in_child() -> None:
    """A process forked while a command runs (the simulation's workers) leaves SIGINT to bjev and dies on SIGTERM."""
    if _running:
        worker_signals()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _quiet_unraisable(previous: Any, unraisable: Any) -> None:
    """sys.unraisablehook while a command runs (bound to the hook in force before, ``previous``): an interruption
    raised where CPython cannot propagate it (inside a weakref callback of the import system, a __del__) is not
    printed as "Exception ignored in"; it is recorded in interrupts.signalled, and the command ends as interrupted
    at its next checkpoint. Anything else goes to ``previous``."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt) and interrupts.signalled is not None:
        return
    previous(unraisable)


def _handle_signals() -> dict:
    try:
        return {s: signal.signal(s, _on_signal) for s in HANDLED_SIGNALS}
    except ValueError:                   # not the main thread: leave signals alone
        return {}


# ----- entry point ----------------------------------------------------------
def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:          # named with the command's own help, where its options are listed
            where = f"bjev {args.command}" if getattr(args, "command", None) else "bjev"
            raise UsageError(f"unrecognized arguments: {' '.join(unknown)} (see '{where} --help')")
        args.argv = list(sys.argv[1:] if argv is None else argv)
        if not getattr(args, "command", None):
            raise UsageError("a command is required: bjev COMMAND [options], COMMAND one of rtp, hand, "
                             "monitor, rules-effect, simulate, chart, regenerate, report, sweep (see 'bjev --help')")
        text, data = args.run(args)
    except BJEVError as exc:
        print(error_line(str(exc)), file=sys.stderr)
        return EXIT_USAGE
    interrupts.raise_if_signalled()      # an interrupt swallowed on the way: nothing is written
    try:
        if sys.stdout is not None:       # None: bjev was started with its standard output closed (>&-)
            print(json.dumps(json_ready(data), indent=2, allow_nan=False) if getattr(args, "json", False)
                  and data is not None else text)
            sys.stdout.flush()
    except BrokenPipeError:          # e.g. `bjev rtp | head`: the reader has gone; not an error of ours
        _quiet_stdout()
    except OSError as exc:           # a full disk or device (> /dev/full), an I/O error
        _quiet_stdout()
        print(error_line(f"cannot write to standard output: {exc.strerror or exc}"), file=sys.stderr)
        return EXIT_USAGE
    failure = getattr(args, "failure", None)     # work done and written, but a check of it failed
    if failure:
        print(error_line(failure), file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that what is still buffered does not fail again at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit code: 0, 1 when a report's self-check failed (the report is written),
    2 for bad input, 130 on SIGINT, 143 on SIGTERM."""
    global _running
    previous, previous_hook = _handle_signals(), sys.unraisablehook
    _running, interrupts.signalled = True, None
    sys.unraisablehook = functools.partial(_quiet_unraisable, previous_hook)
    try:
        try:
            return _run(argv)
        except KeyboardInterrupt as exc:
            signum = exc.signum if isinstance(exc, Interrupted) else interrupts.signalled or signal.SIGINT
        except Exception:
            if interrupts.signalled is None:
                raise
            signum = interrupts.signalled     # an error the interruption surfaced as (see _on_signal)
        print(f"bjev: {'terminated' if signum == signal.SIGTERM else 'interrupted'}", file=sys.stderr)
        return 128 + signum
    finally:
        _running, interrupts.signalled, sys.unraisablehook = False, None, previous_hook
        for s, handler in previous.items():
            signal.signal(s, handler)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
