"""The ``bjev`` command line (also ``python -m ev``).

Every command prints a plain-text answer, or JSON with ``--json``.  Bad input
(an unknown card, an impossible hand, a bad rule value, an unknown option, an
unwritable path) is answered with one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from ev import __version__
from ev.analysis.game import Game
from ev.analysis.sensitivity import EFFECTS, READINGS
from ev.core.actions import FIXED_SPLIT_STRATEGIES, SPLIT_STRATEGIES
from ev.core.cards import composition_of, face_to_rank, parse_card, parse_faces
from ev.core.rules import make_rules
from ev.errors import BJEVError
from ev.present.progress import Progress

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


class UsageError(BJEVError):
    """A bad command line."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2, with no usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="FILE", help="rule set as a TOML or JSON file (default: the seed game)")
    p.add_argument("--set", metavar="KEY=VALUE", action="append", default=[], dest="assignments",
                   help="change one rule, e.g. --set decks=6 --set hit_soft_17=false (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def parse_count(text: str) -> int:
    """A number of rounds or workers: 1000000, 1_000_000 or 1e6 (argparse type)."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        try:
            f = float(text)
        except ValueError:
            f = math.nan
        if not math.isfinite(f) or f != int(f):
            raise argparse.ArgumentTypeError(f"expected a whole number such as 1000000 or 1e6, got {text!r}") from None
        value = int(f)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def parse_seed(text: str) -> int:
    """A seed: an integer from 0 to 2**64 - 1, decimal or 0x hex (argparse type)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError(f"the seed must be from 0 to 2**64 - 1, got {text!r}")
    return value


def _split_option(p: argparse.ArgumentParser, choices: Sequence[str] = SPLIT_STRATEGIES) -> None:
    extra = (" or optimal (truly optimal: each hand knowing every card seen; one split only, some seconds)"
             if "optimal" in choices else "")
    p.add_argument("--split-strategy", choices=choices, default="cdz",
                   help=f"how split hands are played: cdz (CDZ-, default), cdp1, cdp{extra}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bjev", description="Exact blackjack mathematics: EVs, strategy, RTP.")
    parser.add_argument("--version", action="version", version=f"bjev {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("rtp", help="exact EV and RTP of a round under optimal play",
                       description="Exact EV and RTP of a whole round under optimal composition-dependent play.")
    _rule_options(p)
    _split_option(p)
    p.add_argument("--strategy", choices=("optimal", "basic"), default="optimal",
                   help="optimal composition-dependent play (default) or a player who follows the basic-strategy "
                        "chart exactly")
    p.add_argument("--exact", action="store_true",
                   help="exact rational mode: every value as a fraction p/q and its 20-digit decimal")
    p.set_defaults(run=cmd_rtp)

    p = sub.add_parser("hand", help="exact EV of every decision for one hand",
                       description="Exact EV of every decision for one hand against one up card.")
    p.add_argument("cards", help="the player's cards, e.g. T,6 or T6 or 10,6 (A 2-9 T J Q K)")
    p.add_argument("--up", required=True, help="the dealer's up card")
    p.add_argument("--removed", default="", help="other cards known to be out of the shoe, e.g. 5,5,T")
    _rule_options(p)
    _split_option(p)
    p.add_argument("--exact", action="store_true",
                   help="exact rational mode: every value as a fraction p/q and its 20-digit decimal")
    p.set_defaults(run=cmd_hand)

    p = sub.add_parser("rules-effect", help="RTP under each reading of the peek rule and each one-rule change",
                       description="EV and both RTPs under each reading of the seed rules' peek clause, and the "
                                   "EV change of each one-rule change from the base game (optimal CD play).")
    _rule_options(p)
    _split_option(p, FIXED_SPLIT_STRATEGIES)
    p.set_defaults(run=cmd_rules_effect)

    p = sub.add_parser("simulate", help="Monte Carlo simulation of whole rounds, checked against the exact figures",
                       description="Deal and play real rounds from a freshly shuffled shoe (xoshiro256**), by the "
                                   "optimal or the basic strategy, and compare EV, both RTPs, the net-result "
                                   "distribution and the frequencies with the exact values.")
    p.add_argument("--rounds", required=True, type=parse_count, metavar="N", help="rounds to play, e.g. 1e8")
    p.add_argument("--seed", type=parse_seed, metavar="S", help="seed, 0 to 2**64-1 (default: random, printed)")
    p.add_argument("--workers", type=parse_count, metavar="N", help="processes (default: all cores)")
    p.add_argument("--strategy", choices=("optimal", "basic"), default="optimal",
                   help="optimal composition-dependent play (default) or the basic-strategy chart")
    _rule_options(p)
    p.set_defaults(run=cmd_simulate)

    from ev.present.chart_render import FORMATS
    from ev.present.i18n import LANGUAGES
    p = sub.add_parser("chart", help="the basic-strategy chart (total-dependent), in several formats and languages",
                       description="The total-dependent basic-strategy chart, derived exactly (no single-cell change "
                                   "raises the EV of a player who follows it), with its EV and both RTPs against "
                                   "optimal composition-dependent play.")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default text; png needs --out)")
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of printing")
    _rule_options(p)
    _split_option(p)
    p.set_defaults(run=cmd_chart)

    p = sub.add_parser("regenerate",
                       help="regenerate the committed strategy charts, exceptions and EV tables in tables/",
                       description="Regenerate the committed strategy charts, exceptions and EV tables in tables/ "
                                   "(the default game): the chart in every format and language, the "
                                   "composition-dependent exceptions and the EV tables.")
    p.add_argument("--out", metavar="DIR", default="tables", help="output directory (default: tables)")
    p.set_defaults(run=cmd_regenerate)

    p = sub.add_parser("report", help="the math report for regulators: PDF, HTML, Markdown and JSON",
                       description="Write report.pdf, report.html, report.md and report.json into --out: the "
                                   "game's identification, method, both RTPs, results by up card, decisions, "
                                   "volatility, strategy chart, rule sensitivity and a Monte Carlo check.")
    p.add_argument("--out", metavar="DIR", default="report", help="output directory (default: report)")
    p.add_argument("--lang", choices=("en", "de", "pl"), default="en", help="language (default en)")
    p.add_argument("--simulate-rounds", metavar="N", default="10000000",
                   help="Monte Carlo rounds for the verification section (default 1e7; 0 leaves it out)")
    p.add_argument("--seed", metavar="S", help="simulation seed, 0 to 2**64-1 (default: random, recorded)")
    p.add_argument("--workers", type=int, metavar="N", help=argparse.SUPPRESS)
    p.add_argument("--skip-rules-effect", action="store_true", help=argparse.SUPPRESS)  # tests: saves ~30 s
    _rule_options(p)
    _split_option(p)
    p.set_defaults(run=cmd_report)
    return parser


# ----- commands -------------------------------------------------------------
def cmd_rtp(args: argparse.Namespace) -> tuple[str, Any]:
    from ev.present.command_text import rtp_output
    rules = make_rules(args.rules, args.assignments)
    return rtp_output(rules, args.split_strategy, args.strategy, exact=args.exact)


def cmd_chart(args: argparse.Namespace) -> tuple[str, Any]:
    from ev.analysis.basic_strategy import basic_chart
    from ev.present.chart_render import chart_data, render
    from ev.present.files import write_file
    game = Game(make_rules(args.rules, args.assignments))
    if args.format == "png" and not args.out:
        raise UsageError("--format png needs --out FILE")
    chart = basic_chart(game, args.split_strategy)
    data = chart_data(chart)
    if args.json:
        return "", data
    output = render(chart, args.format, args.lang)
    if args.out:
        write_file(args.out, output)
        return f"wrote {args.out}", data
    return (output.decode("utf-8") if isinstance(output, bytes) else output).rstrip("\n"), data


def cmd_regenerate(args: argparse.Namespace) -> tuple[str, Any]:
    from ev.analysis.basic_strategy import basic_chart
    from ev.present.files import write_tables
    chart = basic_chart()
    paths = write_tables(args.out, chart)
    text = "\n".join([*(f"wrote {p}" for p in paths),
                      f"chart EV {100 * chart.ev:+.6f} %, optimal CD EV {100 * chart.optimal.ev:+.6f} %, "
                      f"{len(chart.exceptions_with(2))} two-card exceptions, derived in {chart.seconds:.1f} s"])
    return text, {"files": paths}


def cmd_rules_effect(args: argparse.Namespace) -> tuple[str, Any]:
    from ev.present.command_text import rules_effect_output
    rules = make_rules(args.rules, args.assignments)
    with Progress(1 + len(READINGS) + len(EFFECTS), "rules-effect") as bar:
        return rules_effect_output(rules, args.split_strategy, progress=lambda label: bar.advance(1, label))


def cmd_hand(args: argparse.Namespace) -> tuple[str, Any]:
    from ev.present.command_text import hand_output
    rules = make_rules(args.rules, args.assignments)
    faces = parse_faces(args.cards)
    up = parse_card(args.up)
    removed_faces = parse_faces(args.removed) if args.removed.strip() else []
    removed = composition_of(face_to_rank(f) for f in removed_faces)
    return hand_output(rules, removed, faces, up, args.split_strategy, exact=args.exact)


def cmd_simulate(args: argparse.Namespace) -> tuple[str, Any]:
    from ev.analysis.simulation import compare, exact_figures, resolve_strategy, simulate
    from ev.present.simulation_text import report_data, report_text
    rules = make_rules(args.rules, args.assignments)
    table = resolve_strategy(rules, args.strategy)
    with Progress(args.rounds, "simulating", unit="rounds", min_seconds=2.0) as bar:
        result = simulate(rules, args.rounds, seed=args.seed, workers=args.workers, strategy=table,
                          progress=bar.update)
    exact = exact_figures(rules, table)
    comparison = compare(result, exact)
    return report_text(result, comparison, exact), report_data(result, comparison, exact)


def cmd_report(args: argparse.Namespace) -> tuple[str, Any]:
    """Build every figure once (ev.present.report.model), render the four files, move them into --out at the end."""
    from ev.present.report import FILES, OutputTarget, build_report, render_all, report_json, total_steps
    rules = make_rules(args.rules, args.assignments)
    try:
        rounds = int(float(args.simulate_rounds.replace("_", "")))
        seed = None if args.seed is None else int(args.seed, 0)
    except ValueError:
        raise UsageError("--simulate-rounds and --seed expect whole numbers (e.g. 1e7, 42)") from None
    if rounds < 0 or (seed is not None and not 0 <= seed < 2 ** 64):
        raise UsageError("--simulate-rounds must be 0 or more and --seed from 0 to 2**64-1")
    target = OutputTarget(args.out)            # an unwritable --out fails now, not after the computation
    try:
        with Progress(total_steps(not args.skip_rules_effect), "report") as bar:
            report = build_report(rules, split_strategy=args.split_strategy, simulate_rounds=rounds, seed=seed,
                                  workers=args.workers, sensitivity=not args.skip_rules_effect,
                                  progress=bar.advance)
            files = render_all(report, args.lang)
    except BaseException:
        target.discard()
        raise
    target.write(files)
    out = target.commit()
    rtp = report.rtp
    text = "\n".join([f"wrote {out / name}" for name in FILES] + [
        f"RTP per total wagered {100 * rtp['rtp_total_wagered']:.6f} %, per initial bet "
        f"{100 * rtp['rtp_initial']:.6f} % ({rules.summary()})"])
    return text, json.loads(report_json(report, args.lang))


# ----- entry point ----------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return EXIT_USAGE
        text, data = args.run(args)
    except BJEVError as exc:
        print(f"bjev: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("bjev: interrupted", file=sys.stderr)
        return 130
    try:
        print(json.dumps(data, indent=2) if getattr(args, "json", False) else text)
        sys.stdout.flush()
    except BrokenPipeError:          # e.g. `bjev rtp | head`: the reader has gone; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
