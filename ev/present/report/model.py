"""Every figure of the math report, computed once into one :class:`Report` object.

``build_report(rules, ...)`` runs the exact engine, the wager accounting, the
exact rational mode, the rule-sensitivity study, the strategy chart and the
Monte Carlo check, and keeps their results as plain numbers, strings, lists
and dicts.  The renderers (``render_md``, ``render_html``, ``render_pdf``)
only format this object; ``Report.as_dict()`` is ``report.json``.

A part that was skipped (``--skip-rules-effect``, ``--simulate-rounds 0``)
or whose computation failed (the exact fractions, the strategy chart) is kept
as ``{"available": False, "reason": ...}`` so that every renderer can say so
in one line.

Units: EVs, stakes and net results are in initial bets; probabilities and
RTPs are fractions (0.9959 is 99.59 %).
"""
from __future__ import annotations

import datetime as _dt
import math
import os
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ev import __version__
from ev.analysis import monitoring, optimal_split
from ev.analysis.accounting import Figures, RoundStats, round_stats
from ev.analysis.disclosure import all_exceptions
from ev.analysis.executors import Executor
from ev.analysis.game import Game
from ev.analysis.jobs import Jobs
from ev.analysis.sensitivity import (
    PUBLISHED_RTP,
    READINGS,
    effects_for,
    effects_left_out,
    figures,
    rule_effects,
    rule_readings,
)
from ev.analysis.simulation import acceptance, compare, simulate
from ev.analysis.strategies import (
    SCOPE_ALL,
    minimum_row,
    minimum_scope,
    policy_figures,
    rows_from_rules,
    split_strategy_figures,
    strategy_row,
    strategy_table,
)
from ev.analysis.strategy import optimal_policy
from ev.core.actions import DEALER_OUTCOMES, SPLIT_STRATEGY_NAMES
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, UP_ORDER
from ev.core.rules import FIELD_NAMES, Rules
from ev.present.numbers import decimal_text, fraction_text, net_text
from ev.present.report import lab
from ev.present.report.chart_adapter import strategy_section
from ev.present.report.meta import build_commit, empty_meta

#: up cards in the order of a printed chart, as the report's keys write them: 2 ... 9, T, A
UP_SYMBOLS = tuple(RANK_SYMBOLS[u] for u in UP_ORDER)
#: z for a two-sided 95 % interval, as written in the report's formula
Z95_REPORT = 1.96
#: the most decks for which the report makes the truly optimal split searches (the optimal and minimum rows):
#: about 4 s of CPU each on one deck, 16 s on two, 25 s on six (measured 2026-12-02 on the 2-core machine)
SEARCH_DECKS = 1
#: half-width of the RTP confidence interval the "rounds needed" figure is for
CI_HALF_WIDTH = 0.001
GAME_NAME = "Blackjack Touch – Single Deck"
CUSTOM_NAME = "custom rule set"
SEED_DIR = Path(__file__).with_name("seeds")



def _unavailable(reason: str) -> dict:
    return {"available": False, "reason": reason}


@dataclass
class Report:
    """All figures of one report.  Each section is a JSON-ready dict (see the module docstring)."""

    identification: dict
    method: dict
    rtp: dict
    upcards: dict
    decisions: dict
    volatility: dict
    strategy: dict
    sensitivity: dict
    verification: dict
    strategies: dict = field(default_factory=dict)       # item 1: RTP by player strategy, the minimum
    exposure: dict = field(default_factory=dict)         # item 2: maximum stake, loss and win
    reproducibility: dict = field(default_factory=dict)  # item 3: software, platform, command, hashes, seed
    assumptions: dict = field(default_factory=dict)      # item 4
    peek_reading: dict = field(default_factory=dict)     # item 5
    disclosure: dict = field(default_factory=dict)       # item 6: every composition-dependent exception
    charts: dict = field(default_factory=dict)   # exact series the plots draw (copies of figures above)
    self_checks: dict = field(default_factory=dict)   # appendix: figures computed two ways, each with a verdict

    @property
    def passed(self) -> bool:
        """Did every self-check pass?  (``bjev report`` exits non-zero otherwise.)"""
        return all(c["passed"] for c in self.self_checks.get("checks", []))

    def as_dict(self) -> dict[str, Any]:
        return {
            "report": "bjev math report",
            "units": "EV, stakes and net results in initial bets; probabilities and RTPs as fractions",
            "identification": self.identification, "method": self.method, "assumptions": self.assumptions,
            "peek_reading": self.peek_reading, "rtp": self.rtp, "strategies": self.strategies,
            "upcards": self.upcards, "decisions": self.decisions, "exposure": self.exposure,
            "volatility": self.volatility,
            "strategy": {k: v for k, v in self.strategy.items() if not k.startswith("_")},
            "disclosure": self.disclosure,
            "sensitivity": self.sensitivity, "verification": self.verification,
            "self_checks": self.self_checks, "reproducibility": self.reproducibility,
        }


# ----- building ---------------------------------------------------------------------------
#: progress steps of build_report's own work besides its jobs (``_plan``): the exact round, the wager
#: accounting, the strategy chart, the simulation, the strategy table and the end
STEPS = 6


def build_report(rules: Rules | None = None, *, split_strategy: str = "cdz",
                 simulate_rounds: int = 10_000_000, seed: int | None = None, workers: int | None = None,
                 executor: Executor | None = None,
                 sensitivity: bool = True, progress: Callable[[float, str], None] | None = None,
                 simulation_progress: Callable[[int], None] | None = None,
                 today: _dt.datetime | None = None, meta: dict | None = None,
                 command: list[str] | None = None, analysis_workers: int | None = None,
                 resplits: str = "auto") -> Report:
    """Compute every figure of the report for ``rules`` (default: the seed game).

    ``simulate_rounds`` 0 skips the Monte Carlo check; ``seed`` None is the fixed
    default seed (``lab.DEFAULT_SEED``); ``sensitivity`` False skips the rule
    readings and rule effects (about 2 s).  ``meta``: the metadata file's fields
    (``ev.present.report.meta``); ``command``: the command line to record.
    ``progress(k, note)`` is told of each finished step (``k`` 1), and of the truly optimal split searches
    within a step as their up cards end (``k`` a share of the step; a step's shares and its end add up to
    1): the ``k`` add up to :func:`total_steps`.  ``simulation_progress(rounds_done)`` is told of the Monte
    Carlo check's progress.

    The parts that need nothing but the rules (the exact fractions, the strategy rows made by
    name, each rule variant's figures, the removal check: :func:`_plan`) are computed by
    ``analysis_workers`` processes forked beside this one (default: one less than the cores;
    ``ev.analysis.jobs``) while this one makes the rest, then takes what is left.  The
    figures are the same with any number of workers.  ``resplits``: how the outcome distribution of section 6
    (and the monitoring limits drawn from it) scores three- and four-hand splits
    (``ev.analysis.accounting.round_stats``: "auto" or "exact").
    """
    rules = rules or Rules()
    meta = meta or empty_meta()
    published = published_figure(rules, meta)
    stake = meta.get("even_money_stake") or 1
    seed = lab.DEFAULT_SEED if seed is None else seed
    step = (lambda k, note: progress(k, note)) if progress else (lambda k, note: None)
    search = _search_decks(split_strategy)
    jobs = Jobs(analysis_workers)
    labels = {}
    for name, label, fn, args in _plan(rules, split_strategy, sensitivity):
        jobs.add(name, fn, *args)
        labels[name] = label
    with jobs:
        game = Game(rules)
        with _moving(step, "exact round"):
            result = game.round(split_strategy)
        with _moving(step, "wager accounting"):
            stats = round_stats(game, split_strategy, resplits)
        # the figures of section 3: with resplits under CDZ-, E[W] of the policy (exact), else the accounting's
        headline: Any = stats
        policy = None
        if _resplit_cdz(rules, split_strategy):
            policy = split_strategy_figures(game, "cdz")
            headline = Figures(result.ev, policy.expected_wager, policy.p_even_money)
        with _moving(step, "strategy chart"):
            strategy = _strategy(game, stats)
            computed: dict[str, Any] = {f"optimal-{split_strategy}": stats}
            basic = None
            disclosure = _unavailable(strategy.get("reason", ""))
            if strategy.get("available"):
                computed["basic"] = strategy["_stats"]
                chart = strategy["_chart"]
                basic = chart.table
                hands = {(row.up, *sorted(row.cards)): row.result for row in chart.ev_rows}
                disclosure = lab.disclosure(all_exceptions(game, chart.table, optimal_policy(game), hands),
                                            chart.ev_gap)
        with _moving(step, "simulation"):
            # the rows of the split searches, here while the workers take the jobs (see _plan)
            searched = _searched(rules, search)
            if searched:        # the best and the worst split play in one pass (they share the dealer's decks)
                optimal_split.prepare(game, sense=(optimal_split.BEST, optimal_split.WORST))
            made = {key: strategy_row(game, key, search) for key in sorted(searched)}
            face_minimum = None
            if sensitivity and rules == Rules() and "face-minimum" not in jobs:
                face_minimum = _face_minimum(rules)
            verification = _unavailable("skipped (--simulate-rounds 0)")
            if simulate_rounds:
                played = round_stats(game, "cdz", resplits)   # the simulation plays CDZ- after splits
                verification = _verification(game, rules, played, simulate_rounds, seed, workers,
                                             simulation_progress, executor)
                verification["distinguishing"] = lab.distinguishing(
                    played.sd, played.expected_wager, played.rtp_initial, played.rtp_total_wagered,
                    simulate_rounds, published)
        jobs.finish(lambda name: step(1, labels[name]))
        exact, exact_stats = jobs.result("exact")
        made.update({name[1]: jobs.result(name) for name in labels if isinstance(name, tuple) and name[0] == "row"})

        rows = strategy_table(game, basic, computed, search_decks=search, rows=made)
        step(1, "strategies")
        identification = _identification(rules, meta)
        report = Report(
            identification=identification,
            method=_method(rules, split_strategy, today),
            rtp=_rtp(result, headline, exact, published, stake),
            upcards=_upcards(game, result),
            decisions=_decisions(rules, result, stats),
            volatility=_volatility(stats, result.ev),
            strategy=strategy,
            disclosure=disclosure,
            sensitivity=_unavailable("skipped (--skip-rules-effect)"),
            verification=verification,
            strategies=lab.strategies(rows, f"optimal-{split_strategy}", stake, (rules.decks, SEARCH_DECKS)),
            exposure=lab.exposure(rules, meta, stats.distribution),
            assumptions=lab.assumptions(rules, result, stats),
            reproducibility=lab.reproducibility(rules, identification["rule_text"], seed if simulate_rounds else None,
                                                workers, command),
        )
        report.volatility.update(lab.volatility_index(stats.sd, stats.rtp_initial))
        report.strategies["compliance"] = lab.compliance(report.strategies, meta.get("requirement") or [])
        if sensitivity:
            if "face-minimum" in jobs:
                face_minimum = jobs.result("face-minimum")
            report.sensitivity = _sensitivity(rules, split_strategy, stats, published, stake, jobs, face_minimum)
        report.peek_reading = lab.readings(report.sensitivity, rules, stats.rtp_total_wagered)
        report.self_checks = _self_checks(game, result.ev, stats, exact_stats, rows, jobs.result("removal"), policy)
    report.charts = {"distribution": report.volatility["distribution"],
                     "ev_by_upcard": {u: report.upcards["ev_by_upcard"][u] for u in UP_SYMBOLS
                                      if u in report.upcards["ev_by_upcard"]}}
    step(1, "done")
    return report


def _search_decks(split_strategy: str) -> int | None:
    """The most decks for which the report makes the truly optimal split searches (None: any, when the report's
    own split strategy is the search)."""
    return None if split_strategy == "optimal" else SEARCH_DECKS


def _plan(rules: Rules, split_strategy: str, sensitivity: bool) -> list[tuple[Hashable, str, Callable, tuple]]:
    """The report's parts that need nothing but the rules, as jobs (``ev.analysis.jobs``): (name, progress label,
    function, arguments), the largest first (the workers take from the front, this process from the back)."""
    search = _search_decks(split_strategy)
    plan: list[tuple[Hashable, str, Callable, tuple]] = [
        ("exact", "exact fractions", _exact, (rules, split_strategy))]
    # the split searches stay in this process: what they find (kept by the process: ev.analysis.optimal_split)
    # serves the optimal row, the minimum, the minimum of the other face-value reading and the self-checks
    searched = _searched(rules, search)
    for key in rows_from_rules(rules, {f"optimal-{split_strategy}"} | searched, search_decks=search):
        plan.append((("row", key), f"strategy: {key}", _row, (rules, key, search)))
    if sensitivity and rules == Rules() and not searched:
        plan.append(("face-minimum", "tens split by rank: the minimum", _face_minimum, (rules,)))
    plan.append(("removal", "removal check", _removal_check, (rules,)))
    if sensitivity:
        seen = {rules}
        for label, changes in (READINGS if rules == Rules() else ()) + tuple(effects_for(rules, split_strategy)):
            variant = rules.replace(**changes)
            if variant not in seen:
                seen.add(variant)
                plan.append((("figures", variant), label, figures, (variant, split_strategy)))
    return plan


def _searched(rules: Rules, search_decks: int | None) -> set[str]:
    """The strategy rows made by searching split play with every card seen (the truly optimal row, the true
    minimum), where the report searches."""
    if rules.may_split and minimum_scope(rules)[0] == SCOPE_ALL and (search_decks is None
                                                                     or rules.decks <= search_decks):
        return {"optimal-optimal", "minimum"}
    return set()


def _row(rules: Rules, key: str, search_decks: int | None) -> Any:
    return strategy_row(Game(rules), key, search_decks)


def _face_minimum(rules: Rules) -> Any:
    """The minimum's row under the other reading of "the same face value" (tens split by rank)."""
    return minimum_row(Game(rules.replace(split_tens="rank")), search_decks=SEARCH_DECKS)


def _removal_check(rules: Rules) -> Any:
    from ev.analysis import selfchecks
    return selfchecks.removal_check(Game(rules))


@contextmanager
def _moving(step: Callable[[float, str], None], label: str) -> Iterator[None]:
    """The block is one progress step, ``label``; the truly optimal split searches in it (minutes with resplits)
    move it along as each up card's searches end (``optimal_split.watch``), up to nine tenths of the step (what
    follows the searches takes the rest)."""
    told = 0.0

    def searched(done: int, total: int, note: str) -> None:
        nonlocal told
        share = 0.9 * done / total
        if share > told:        # a second search in the block starts again from none: the bar waits for it
            step(share - told, f"split search, {note}")
            told = share
    with optimal_split.watch(searched):
        yield
    step(1 - told, label)


def total_steps(sensitivity: bool, rules: Rules | None = None, split_strategy: str = "cdz") -> int:
    """Number of progress steps ``build_report`` reports for ``rules`` (default: the seed game)."""
    return STEPS + len(_plan(rules or Rules(), split_strategy, sensitivity))


# ----- the published figure ------------------------------------------------------------------
#: the seed game's published RTP, as its rules print it ("calculated as total win/total bet with optimal strategy")
SEED_PUBLISHED = {"percent": "99.59", "decimals": 2, "value": PUBLISHED_RTP, "convention": "total_wagered",
                  "source": "seed"}


def published_figure(rules: Rules, meta: dict) -> dict | None:
    """The RTP the game publishes, to compare with: the metadata's ``published_rtp`` (with its convention), else
    the seed game's 99.59 % for the seed rules, else None (no comparison is made)."""
    given = meta.get("published_rtp")
    if given:
        return {**given, "convention": meta.get("published_rtp_convention") or "total_wagered", "source": "metadata"}
    return dict(SEED_PUBLISHED) if rules == Rules() else None


def matches_published(published: dict | None, rtp_initial: Any, rtp_total_wagered: Any) -> bool | None:
    """Does the RTP in the published figure's convention round to it (at its decimals)?  None: nothing published."""
    if published is None:
        return None
    value = rtp_total_wagered if published["convention"] == "total_wagered" else rtp_initial
    return round(100 * float(value), published["decimals"]) == round(100 * published["value"], published["decimals"])


# ----- 1. identification --------------------------------------------------------------
def seed_rule_text(lang: str) -> str:
    """The game's published rule text in ``lang`` (en, de, pl), as shipped with the game."""
    text = (SEED_DIR / f"rules-{lang}.txt").read_text(encoding="utf-8")
    return text.replace("\r\n", "\n").strip()


def game_name(rules: Rules, meta: dict) -> str:
    """The name the report gives the game: the metadata's, else the seed game's for its rules, else 'custom'."""
    if meta.get("game_name"):
        return meta["game_name"]
    return GAME_NAME if rules == Rules() else CUSTOM_NAME


def _identification(rules: Rules, meta: dict) -> dict:
    default = rules == Rules()
    return {
        "game": game_name(rules, meta),
        "meta": meta,
        "blank_fields": lab.blanks(meta),
        "rule_text": seed_rule_text("en") if default else None,
        "rule_text_sha256": {lang: _sha256(seed_rule_text(lang)) for lang in ("en", "de", "pl")} if default else None,
        "default_game": default,
        "rules": rules.as_dict(),
        "rules_summary": rules.summary(),
        "rules_sha256": rules.sha256(),
        "seed_rules_quoted": default,
        "readings": {
            "peek": rules.peek,
            "dealer_checks_under_ace": rules.peeks_under(ACE),
            "dealer_checks_under_ten": rules.peeks_under(TEN),
            "unchecked_blackjack_takes": rules.unchecked_blackjack_takes,
            "unchecked_blackjack_possible": not (rules.peeks_under(ACE) and rules.peeks_under(TEN)),
        },
    }


# ----- 2. method ------------------------------------------------------------------------
def _sha256(text: str) -> str:
    import hashlib
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _method(rules: Rules, split_strategy: str, today: _dt.datetime | None) -> dict:
    now = today or _report_time()
    return {
        "enumeration": "exact enumeration of the full deck composition",
        "decks": rules.decks,
        "cards": 52 * rules.decks,
        "split_strategy": split_strategy,
        "split_strategy_name": SPLIT_STRATEGY_NAMES[split_strategy],
        "play": "optimal composition-dependent",
        "software": "bjev",
        "version": __version__,
        "git_commit": build_commit(),
        "rules_sha256": rules.sha256(),
        "date": now.strftime("%Y-%m-%d"),
        "timestamp": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _report_time() -> _dt.datetime:
    """Now in UTC, or SOURCE_DATE_EPOCH when set (reproducible reports)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc)
    return _dt.datetime.now(_dt.timezone.utc)


# ----- 3. RTP ------------------------------------------------------------------------------
def _rtp(result, stats: RoundStats, exact: dict, published: dict | None, stake: float) -> dict:
    """Section 3's figures; E[W] and the RTP per total wagered with even money staked as ``stake``."""
    tw = float(stats.rtp_total_wagered_at(Fraction(stake)))
    other = 1.5 if stake == 1 else 1
    return {
        "ev": result.ev,
        "house_edge": -result.ev,
        "rtp_initial": result.rtp_initial,
        "expected_total_wager": float(stats.expected_wager_at(Fraction(stake))),
        "rtp_total_wagered": tw,
        "house_edge_total_wagered": 1.0 - tw,
        "even_money_stake": stake,
        "p_even_money": float(stats.p_even_money),
        "other_even_money_stake": {"stake": other,
                                   "expected_total_wager": float(stats.expected_wager_at(Fraction(other))),
                                   "rtp_total_wagered": float(stats.rtp_total_wagered_at(Fraction(other)))},
        "published": published,
        "matches_published": matches_published(published, result.rtp_initial, tw),
        "exact": exact,
    }


def _exact(rules: Rules, split_strategy: str) -> tuple[dict, Any]:
    """The exact fractions of section 3, and what they came from: the exact ``RoundStats`` (its outcome
    distribution too), or, with resplits under CDZ-, the exact :class:`Figures` of the CDZ- policy (the
    joint distribution of three- and four-hand splits in fractions costs far more than a report may spend;
    the mean stake needs none: ``strategies.resplit_round``)."""
    game = Game(rules, exact=True)
    ev = game.round(split_strategy).ev
    source: Any
    if _resplit_cdz(rules, split_strategy):
        source = policy_figures(game, optimal_policy(game, "cdz"))
        mean_equals_ev = None
    else:
        source = round_stats(game, split_strategy)
        mean_equals_ev = source.mean == ev
    wager = source.expected_wager
    tw = (wager + ev) / wager
    return {"available": True, "ev": fraction_text(ev), "ev_decimal": decimal_text(ev, 20),
            "rtp_initial": fraction_text(1 + ev), "rtp_initial_decimal": decimal_text(1 + ev, 20),
            "expected_total_wager": fraction_text(wager), "expected_total_wager_decimal": decimal_text(wager, 20),
            "rtp_total_wagered": fraction_text(tw), "rtp_total_wagered_decimal": decimal_text(tw, 20),
            "accounting_mean_equals_ev": mean_equals_ev}, source


def _resplit_cdz(rules: Rules, split_strategy: str) -> bool:
    """Resplits under CDZ-: E[W] from the CDZ- policy (exact), not from the accounting's distribution (whose
    three- and four-hand splits are scored independently given the dealer's outcome)."""
    return rules.max_split_hands > 2 and split_strategy == "cdz"


# ----- self-checks -----------------------------------------------------------------------------
#: strategy rows in the order their EVs cannot increase (rows a rule set lacks are skipped): each
#: optimises over the plays of the next, or is the chart's optimum
CHAIN = ("optimal-optimal", "optimal-cdp", "optimal-cdp1", "optimal-cdz", "basic")


def _self_checks(game: Game, ev: Any, stats: RoundStats, exact_stats: Any, rows: list, removal: Any,
                 policy: Figures | None = None) -> dict:
    """The appendix "Self-checks" (``ev.analysis.selfchecks``): the distribution against the EV, in floats
    and exactly; exact against float; the removal average; the strategy chain overall and per pair and up card.
    ``policy``: the float figures of the CDZ- policy, where section 3 took them (resplits under CDZ-);
    ``removal``: the removal check (a job's)."""
    from ev.analysis import selfchecks as sc
    figures = {r.key: r.figures.ev for r in rows if r.figures is not None}
    chain = [(k, figures[k]) for k in CHAIN if k in figures]
    if game.rules.max_split_hands > 2:       # with resplits CDP need not beat CDP1 (ev.analysis.selfchecks)
        chain = [(k, v) for k, v in chain if k != "optimal-cdp"]
    if isinstance(exact_stats, RoundStats):
        exact_checks = [sc.distribution_check(exact_stats, exact_stats.ev), sc.exact_float_check(stats, exact_stats)]
    else:       # resplits under CDZ-: the policy's exact figures against its float ones (``policy``)
        assert policy is not None
        gaps = {name: abs(Fraction(float(getattr(policy, name))) - getattr(exact_stats, name))
                for name in ("ev", "expected_wager", "rtp_initial", "rtp_total_wagered")}
        worst = max(gaps.values())
        exact_checks = [sc.Check("exact-equals-float", "the float engine's EV, E[W] and both RTPs equal the exact "
                                 "engine's (CDZ- policy)", float(worst), sc.FLOAT_TOLERANCE,
                                 bool(worst <= sc.FLOAT_TOLERANCE), "float",
                                 {name: float(gap) for name, gap in gaps.items()})]
    checks = [sc.distribution_check(stats, ev), *exact_checks,
              removal,
              sc.chain_check("strategy-chain", "the round's EV does not increase along this order: "
                             + " >= ".join(k for k, _ in chain), chain)]
    if "minimum" in figures and len(figures) > 1:
        others = {k: v for k, v in figures.items() if k != "minimum"}
        lowest = min(others, key=lambda k: others[k])
        checks.append(sc.chain_check("minimum-below", "no other strategy of the table has a lower EV than the minimum",
                                     [(lowest, others[lowest]), ("minimum", figures["minimum"])]))
    strategies = [s for s in sc.SPLIT_ORDER if f"optimal-{s}" in figures]
    one_split = [p for p in range(N_RANKS) if game.rules.split_hands(p) == 2]
    if game.rules.may_split and len(strategies) > 1 and one_split:
        values = sc.split_values_by_strategy(game, strategies, one_split)
        checks.append(sc.split_chain_check("split-order", "per up card and pair (pairs that make two hands), the "
                                           "split EVs fall from " + " to ".join(strategies) + " split play",
                                           [(s, values[s]) for s in strategies]))
    return {"checks": [c.as_dict() for c in checks], "passed": sc.all_passed(checks)}


# ----- 4. per up card ------------------------------------------------------------------
def _deal_class(cards: tuple[int, int]) -> str:
    c1, c2 = cards
    if {c1, c2} == {ACE, TEN}:
        return "blackjack"
    if c1 == c2:
        return "pair"
    if ACE in cards:
        return "soft"
    return "hard"


DEAL_CLASSES = ("blackjack", "pair", "soft", "hard")


def _upcards(game: Game, result) -> dict:
    p_up = result.p_upcard
    dealer, conditioned = {}, {}
    for up in range(N_RANKS):
        sym = RANK_SYMBOLS[up]
        if sym not in p_up:
            continue
        dealer[sym] = game.dealer_probabilities(up, conditioned=False)
        if game.rules.settled_blackjack_rank(up) >= 0:
            conditioned[sym] = game.dealer_probabilities(up, conditioned=True)
    classes = {sym: {c: 0.0 for c in DEAL_CLASSES} for sym in p_up}
    for deal in result.deals:
        sym = RANK_SYMBOLS[deal.up]
        classes[sym][_deal_class(deal.cards)] += deal.probability * p_up[sym]
    totals = {c: sum(classes[s][c] for s in classes) for c in DEAL_CLASSES}
    return {
        "p_upcard": dict(p_up),
        "ev_by_upcard": dict(result.ev_by_upcard),
        "dealer_outcomes": list(DEALER_OUTCOMES),
        "dealer_unconditioned": dealer,
        "dealer_conditioned": conditioned,
        "deal_classes": classes,
        "deal_class_totals": totals,
        "deal_class_note": "joint probability P(up card and class); pairs include A-A and ten-valued pairs",
    }


# ----- 5. decisions ---------------------------------------------------------------------
def _decisions(rules: Rules, result, stats: RoundStats) -> dict:
    ace_deals = [d for d in result.deals if d.up == ACE]
    groups: dict[int, dict] = {}
    for d in ace_deals:
        if d.insurance is None:
            continue
        tens = sum(1 for c in d.cards if c == TEN)
        g = groups.setdefault(tens, {"tens_in_hand": tens, "probability": 0.0,
                                     "p_dealer_blackjack": d.p_dealer_blackjack, "insurance_ev": d.insurance,
                                     "taken": d.take_insurance})
        g["probability"] += d.probability
    insurance = sorted(groups.values(), key=lambda g: g["tens_in_hand"])
    best = max((g["insurance_ev"] for g in insurance), default=None)
    even = None
    bj = next((d for d in ace_deals if set(d.cards) == {ACE, TEN}), None)
    if bj is not None and rules.even_money:
        declined = float(rules.payout) * (1.0 - bj.p_dealer_blackjack)
        even = {"p_dealer_blackjack": bj.p_dealer_blackjack, "ev_even_money": 1.0, "ev_declined": declined,
                "advantage_of_declining": declined - 1.0, "take": bj.take_insurance}
    p_natural = sum(d.probability for d in ace_deals if set(d.cards) == {ACE, TEN})
    return {
        "p_blackjack_given_ace": p_natural,
        "p_double": stats.p_double, "p_split": stats.p_split, "p_insurance": stats.p_insurance,
        "p_double_approximate": not stats.p_double_exact,
        "p_even_money": stats.p_even_money, "p_player_blackjack": stats.p_player_blackjack,
        "p_dealer_blackjack": stats.p_dealer_blackjack, "expected_total_wager": stats.expected_wager,
        "insurance_offered": rules.insurance,
        "insurance": insurance,
        "insurance_best_ev": best,
        "insurance_never_worth_taking": best is not None and best < 0,
        "even_money": even,
    }


# ----- 6. volatility ---------------------------------------------------------------------
def _volatility(stats: RoundStats, ev: Any) -> dict:
    dist = {net_text(x): p for x, p in sorted(stats.distribution.items()) if p > 0}
    support = [x for x, p in stats.distribution.items() if p > 0]
    sd = stats.sd
    return {
        "distribution": dist,
        "mean": stats.mean, "sd": sd, "variance": stats.variance, "skewness": stats.skewness,
        "hit_frequency": stats.hit_frequency, "p_win": stats.p_win, "p_push": stats.p_push,
        "p_loss": stats.p_loss,
        "largest_win": max(support), "largest_loss": min(support),
        "ci_half_width": CI_HALF_WIDTH, "ci_z": Z95_REPORT,
        "rounds_for_ci": math.ceil((Z95_REPORT * sd / CI_HALF_WIDTH) ** 2),
        "ci_convention": "RTP per initial bet (SD of the net result per initial bet)",
        "distribution_method": stats.distribution_method,
        "mean_minus_ev": float(stats.mean - ev),
        "monitoring": _monitoring(stats),
    }


def _monitoring(stats: RoundStats) -> dict:
    """The limits of the observed RTP after 10^2 .. 10^9 rounds, both conventions (``ev.analysis.monitoring``)."""
    law = monitoring.RoundLaw.of(stats)
    table = monitoring.limits_table(law)
    return {"limits": [row.as_dict() for row in table], "rounds": list(monitoring.ROUNDS),
            "distribution_method": stats.distribution_method, "mean_minus_ev": float(stats.mean_gap),
            "confidences": list(monitoring.CONFIDENCES), "exact_max_rounds": monitoring.EXACT_MAX_ROUNDS,
            "switch_error": {f"{c:g}": monitoring.switch_error(law, c) for c in monitoring.CONFIDENCES}}


# ----- 7. strategy -----------------------------------------------------------------------
def _strategy(game: Game, optimal: RoundStats) -> dict:
    """The basic-strategy chart (see ``ev.present.report.chart_adapter``), or why it failed."""
    return strategy_section(game, optimal)


# ----- 8. sensitivity ---------------------------------------------------------------------
def _sensitivity(rules: Rules, split_strategy: str, stats: RoundStats, published: dict | None,
                 stake: float, jobs: Jobs, face_minimum: Any = None) -> dict:
    """The readings of the seed rules' peek clause (the seed game only: a custom rule set states its peek
    rule as a parameter) and the effect of each one-rule change from this table's own rules (their figures:
    the ``figures`` jobs of :func:`_plan`); ``face_minimum``: the minimum's row under the other face-value
    reading (the seed rules only)."""
    known = _Known(stats, rules, jobs)          # the game itself: the figures of section 3
    rows = []
    if rules == Rules():
        for v in rule_readings(rules, split_strategy, known=known):
            d = v.as_dict()
            d["matches_published"] = matches_published(published, v.stats.rtp_initial, v.stats.rtp_total_wagered)
            d["reading_used"] = v.rules == rules
            rows.append(d)
    base, effects = rule_effects(rules, split_strategy, known=known)
    for d in rows:
        d["ev_change"] = d["ev"] - base.stats.ev
    out = {"available": True, "base": base.as_dict(), "readings": rows, "effects": [v.as_dict(base) for v in effects],
           "left_out": effects_left_out(rules, split_strategy)}
    if rules == Rules():
        out["face_value"] = _face_value(rules, effects, stake, face_minimum)
    return out


class _Known(Mapping):
    """The figures of each rule set the sensitivity asks for: the game's own (``stats``), else its job's."""

    def __init__(self, stats: RoundStats, rules: Rules, jobs: Jobs) -> None:
        self.stats, self.rules, self.jobs = stats, rules, jobs

    def __getitem__(self, rules: Rules) -> Any:
        if rules == self.rules:
            return self.stats
        if ("figures", rules) not in self.jobs:
            raise KeyError(rules)
        return self.jobs.result(("figures", rules))

    def __iter__(self) -> Iterator:
        return iter([self.rules])

    def __len__(self) -> int:
        return 1


def _face_value(rules: Rules, effects: list, stake: float, minimum: Any) -> dict:
    """The seed rules' "same face value": the reading used (tens split by value: K-Q may be split) and the RTPs
    of the other (by rank) under optimal play (the rule-effect row) and under the minimum over legal play
    (``minimum``: its row, :func:`_face_minimum`)."""
    other = rules.replace(split_tens="rank")
    optimal = next(v.stats for v in effects if v.rules == other)

    def figures(f: Any) -> dict:
        return {"ev": float(f.ev), "rtp_initial": float(f.rtp_initial),
                "rtp_total_wagered": float(f.rtp_total_wagered_at(Fraction(stake)))}

    return {"used": rules.split_tens, "other": other.split_tens, "optimal": figures(optimal),
            "minimum": figures(minimum.figures), "minimum_scope": minimum.scope}


# ----- 9. verification ---------------------------------------------------------------------
def _verification(game: Game, rules: Rules, stats: RoundStats, rounds: int, seed: int | None,
                  workers: int | None, progress: Callable[[int], None] | None,
                  executor: Executor | None = None) -> dict:
    sim = simulate(rules, rounds, seed=seed, workers=workers, strategy=optimal_policy(game), progress=progress,
                   executor=executor)
    cmp = compare(sim, stats)

    def figure(name: str, ci95, ci99, exact_value: float) -> dict:
        fig = getattr(cmp, name)
        return {"simulated": fig["simulated"], "se": fig["se"], "exact": exact_value, "z": fig["z"],
                "ci95": list(ci95), "ci99": list(ci99),
                "exact_in_ci95": ci95[0] <= exact_value <= ci95[1],
                "exact_in_ci99": ci99[0] <= exact_value <= ci99[1]}

    return {
        "available": True,
        "rounds": sim.rounds, "seed": sim.seed, "workers": sim.workers, "generator": sim.generator,
        "generator_reference": sim.generator_reference, "strategy": sim.strategy,
        "seconds": sim.seconds,
        "rtp_initial": figure("rtp_initial", sim.rtp_initial_ci95, sim.rtp_initial_ci99, stats.rtp_initial),
        "rtp_total_wagered": figure("rtp_total_wagered", sim.rtp_total_wagered_ci95, sim.rtp_total_wagered_ci99,
                                    stats.rtp_total_wagered),
        "mean_wager": cmp.mean_wager,
        "sd": sim.sd,
        "chi_square": cmp.chi_square, "chi_square_dof": cmp.dof, "chi_square_p_value": cmp.p_value,
        "chi_square_cells": cmp.cells,
        "unexpected_values": cmp.unexpected_values,
        "frequencies": cmp.frequencies,
        "distribution": {net_text(k): v for k, v in sim.distribution.items()},
        "acceptance": acceptance(cmp),
    }


__all__ = [
    "DEAL_CLASSES",
    "FIELD_NAMES",
    "PUBLISHED_RTP",
    "UP_SYMBOLS",
    "Report",
    "build_report",
    "seed_rule_text",
    "total_steps",
]
