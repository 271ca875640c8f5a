"""The ``bjev`` command line (also ``python -m ev``).

Every command prints a plain-text answer, or JSON with ``--json``.  Bad input
(an unknown card, an impossible hand, a bad rule value, an unknown option, an
unwritable path) is answered with one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from tabulate import tabulate

from . import __version__
from .cards import ACE, N_RANKS, RANK_SYMBOLS, composition_of, face_to_rank, parse_card, parse_faces
from .engine import SPLIT_STRATEGIES, SPLIT_STRATEGY_NAMES, Game
from .errors import BJEVError
from .rules import make_rules

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
UP_ORDER = [RANK_SYMBOLS.index(s) for s in ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")]


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


def _split_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--split-strategy", choices=SPLIT_STRATEGIES, default="cdz",
                   help="how split hands are played: cdz (CDZ-, default), cdp1 or cdp")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bjev", description="Exact blackjack mathematics: EVs, strategy, RTP.")
    parser.add_argument("--version", action="version", version=f"bjev {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("rtp", help="exact EV and RTP of a round under optimal play",
                       description="Exact EV and RTP of a whole round under optimal composition-dependent play.")
    _rule_options(p)
    _split_option(p)
    p.set_defaults(run=cmd_rtp)

    p = sub.add_parser("hand", help="exact EV of every decision for one hand",
                       description="Exact EV of every decision for one hand against one up card.")
    p.add_argument("cards", help="the player's cards, e.g. T,6 or T6 or 10,6 (A 2-9 T J Q K)")
    p.add_argument("--up", required=True, help="the dealer's up card")
    p.add_argument("--removed", default="", help="other cards known to be out of the shoe, e.g. 5,5,T")
    _rule_options(p)
    _split_option(p)
    p.set_defaults(run=cmd_hand)
    return parser


# ----- commands -------------------------------------------------------------
def cmd_rtp(args: argparse.Namespace) -> tuple[str, Any]:
    rules = make_rules(args.rules, args.assignments)
    result = Game(rules).round(args.split_strategy)
    data = {
        "ev": result.ev,
        "rtp_initial": result.rtp_initial,
        "house_edge": -result.ev,
        "ev_by_upcard": result.ev_by_upcard,
        "p_upcard": result.p_upcard,
        "split_strategy": args.split_strategy,
        "units": "initial bets per round; ev_by_upcard includes initial bets lost to dealer blackjacks",
        "rules": rules.as_dict(),
    }
    rows = [[s, f"{result.p_upcard[s]:.6f}", f"{100 * result.ev_by_upcard[s]:+.6f} %"]
            for s in (RANK_SYMBOLS[u] for u in UP_ORDER) if s in result.ev_by_upcard]
    text = "\n".join([
        f"Rules: {rules.summary()}",
        f"Play: optimal composition-dependent; split hands {SPLIT_STRATEGY_NAMES[args.split_strategy]}",
        "",
        f"EV per initial bet     {100 * result.ev:+.9f} %   (house edge {-100 * result.ev:.9f} %)",
        f"RTP per initial bet    {100 * result.rtp_initial:.9f} %   (1 + EV)",
        "",
        "EV by up card (unconditioned: includes the initial bet lost to a dealer blackjack)",
        tabulate(rows, headers=["up", "P(up)", "EV"], colalign=("left", "right", "right")),
    ])
    return text, data


def cmd_hand(args: argparse.Namespace) -> tuple[str, Any]:
    rules = make_rules(args.rules, args.assignments)
    faces = parse_faces(args.cards)
    up = parse_card(args.up)
    removed_faces = parse_faces(args.removed) if args.removed.strip() else []
    removed = composition_of(face_to_rank(f) for f in removed_faces)
    result = Game(rules, removed).hand(faces, up, args.split_strategy)
    data = result.as_dict()
    data["rules"] = rules.as_dict()
    actions = ("stand", "hit", "double", "split", "surrender", "insurance", "even_money")
    rows = [[a, f"{getattr(result, a):+.9f}", "<- best" if a == result.best else ""]
            for a in actions if getattr(result, a) is not None]
    cond = ("conditioned on no dealer blackjack (the dealer has peeked)" if result.conditioned
            else "unconditioned (no blackjack is settled before play)")
    notes = [f"Hand {result.hand} vs {result.up}: EV in initial bets, {cond}."]
    if result.split is not None:
        notes.append(f"Split hands: {SPLIT_STRATEGY_NAMES[args.split_strategy]}.")
    if result.insurance is not None or result.even_money is not None:
        notes.append(f"Insurance / even money are decided before the peek (unconditioned); "
                     f"P(dealer blackjack) = {result.p_dealer_blackjack:.6f}.")
    text = tabulate(rows, headers=["action", "EV", ""], colalign=("left", "right", "left")) + "\n" + "\n".join(notes)
    return text, data


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
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2))
    else:
        print(text)
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
