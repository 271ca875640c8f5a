"""Rule-variant sweeps: every combination of listed rule values, each variant's exact figures.

A *grid* fixes some rules (``base``) and lists values for others (``axes``);
its variants are every combination of the listed values, in the order of the
axes (the last axis varies fastest).  For each variant
(:func:`evaluate_variant`, one work unit of an :mod:`~ev.analysis.executors`
executor):

* optimal composition-dependent play (``split_strategy``, CDZ- by default):
  the EV and RTP per initial bet (``Game.round``, as ``bjev rtp``), and from
  the accounting (``ev.analysis.accounting.round_stats``) E[W], the RTP per
  total wagered, the SD of a round, P(double) and P(split); without the
  outcome distribution (``distribution`` False, ``bjev sweep
  --no-distribution``), E[W] and the RTP per total wagered from the exact
  stakes of the same play (``ev.analysis.strategies.split_strategy_figures``:
  the same figures to about 1e-15) and SD, P(double) and P(split) left empty
  (``distribution_method`` "none");
* the basic-strategy chart (``ev.analysis.basic_strategy.derive``): its EV and
  both RTPs (``round_stats`` of the chart's Policy), its cost against optimal
  play (optimal EV - chart EV, as ``bjev rtp --strategy basic``) and a SHA-256
  of its cells (:func:`chart_sha256`);
* with ``exact``: the exact EV, both RTPs and E[W] as fractions ``p/q``, and
  the RTP per initial bet and per total wagered as exact functions of the
  blackjack payout ``b`` (``ev.analysis.payout``) with the range of payouts
  where optimal play (even money) is the same;
* with ``target_rtp``: also the payout ``b`` at which the RTP (``convention``)
  equals the target, and whether optimal play holds there.

A variant whose rules are invalid, or that the engine cannot answer, gives a
row with ``status`` "invalid" and the one-line ``error``; the sweep goes on.
Each variant has a *key* (a hash of its full rule set, the options and the
bjev version): a finished variant is recognised by its key, so a rerun skips
it.  The analysis never prints and never writes: rows go to ``on_row`` as they
finish (the command line appends each to a journal at once).

Units: EVs in initial bets; RTPs and probabilities as fractions (0.9959 is 99.59 %).
"""
from __future__ import annotations

import datetime
import hashlib
import itertools
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import ev
from ev.analysis.accounting import Figures, RoundStats, round_stats
from ev.analysis.basic_strategy import chart_policy, chart_rows, derive
from ev.analysis.executors import Executor
from ev.analysis.game import Game
from ev.analysis.payout import formula_of, no_payout_text
from ev.analysis.strategies import policy_figures, split_strategy_figures
from ev.core.actions import SPLIT_STRATEGIES
from ev.core.arithmetic import shared_dealers
from ev.core.cards import UP_ORDER
from ev.core.rules import FIELD_NAMES, Rules, from_mapping, parse_assignments, read_data_file
from ev.errors import BJEVError, RulesError, excerpt

CONVENTIONS = ("total_wagered", "initial")
SOLVABLE = ("blackjack_payout",)
#: the figures of a row, after the rule values (the columns of the CSV, in order)
FIGURES = ("status", "error", "ev", "rtp_initial", "rtp_total_wagered", "expected_total_wager", "sd", "p_double",
           "distribution_method", "p_split", "chart_ev", "chart_rtp_initial", "chart_rtp_total_wagered", "chart_cost",
           "chart_sha256")
EXACT_FIGURES = ("exact_ev", "exact_rtp_initial", "exact_rtp_total_wagered", "exact_expected_total_wager",
                 "rtp_initial_of_payout", "rtp_total_wagered_of_payout", "payout_range_low", "payout_range_high",
                 "even_money_taken")
#: the time a variant took: wall-clock seconds, and CPU seconds of its process (what it costs on a free core)
TIMES = ("seconds", "cpu_seconds")
SOLVE_FIGURES = ("target_rtp", "convention", "payout_for_target", "payout_for_target_decimal", "payout_note")


# ===== the grid =================================================================================
@dataclass(frozen=True)
class Grid:
    """Fixed rule values and the listed values of the varied rules (``axes``: rule name -> values)."""

    base: dict[str, Any]
    axes: dict[str, list[Any]]

    @property
    def size(self) -> int:
        n = 1
        for values in self.axes.values():
            n *= len(values)
        return n


def _check_names(names: Iterable[str], where: str) -> None:
    for name in names:
        if name not in FIELD_NAMES:
            raise RulesError(f"{where}: unknown rule {name!r}; known rules: {', '.join(FIELD_NAMES)}")


def _grid_value(value: Any, name: str, where: str) -> Any:
    """A rule value of a grid: a number, true/false or text; anything else (a TOML date or time, a table, a list
    inside a list) is refused in one line."""
    if isinstance(value, (bool, int, float, str)):
        return value
    if value is None:
        raise RulesError(f"{where}: {name} is null; a rule value is a number, true or false, or text")
    kind = ("a list inside a list" if isinstance(value, list) else "a table" if isinstance(value, dict)
            else "a date or time" if isinstance(value, (datetime.date, datetime.time)) else type(value).__name__)
    raise RulesError(f"{where}: {name} = {excerpt(str(value))} is {kind}; a rule value is a number, true or false, "
                     f"or text")


def grid_from_mapping(data: Mapping[str, Any], where: str = "grid") -> Grid:
    """A grid from a mapping: a list is an axis (the values to sweep), anything else a fixed value.

    The values may sit at the top level or under ``[grid]`` (axes and fixed
    values alike) and ``[rules]`` (fixed values only).  A rule given in two
    places, a value listed twice on one axis, an unknown table and a value
    that is not a number, true/false or text are refused in one line."""
    if not isinstance(data, Mapping):
        raise RulesError(f"{where}: a grid is a table of rule = value, not a {type(data).__name__}")
    base: dict[str, Any] = {}
    axes: dict[str, list[Any]] = {}
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    unknown_tables = set(tables) - {"grid", "rules"}
    if unknown_tables:
        raise RulesError(f"{where}: unknown table [{excerpt(sorted(unknown_tables)[0])}]; use [grid] and [rules]")
    flat = {k: v for k, v in data.items() if not isinstance(v, dict)}
    placed: dict[str, str] = {}
    for label, source in (("[rules]", tables.get("rules", {})), ("the top level", flat),
                          ("[grid]", tables.get("grid", {}))):
        _check_names(source, where)
        for name, value in source.items():
            if name in placed:
                raise RulesError(f"{where}: {name} is given twice (in {placed[name]} and in {label}); give it once")
            placed[name] = label
            if not isinstance(value, list):
                base[name] = _grid_value(value, name, where)
                continue
            if label == "[rules]":
                raise RulesError(f"{where}: [rules] holds fixed values, and {name} lists several; list the values "
                                 f"of an axis under [grid] or at the top level")
            axes[name] = _axis_values(name, [_grid_value(v, name, where) for v in value], where)
    return Grid(base, axes)


def _axis_values(name: str, values: list[Any], where: str) -> list[Any]:
    """An axis's values, refused when it lists none or one value twice (two identical variants)."""
    if not values:
        raise RulesError(f"{where}: {name} lists no values")
    seen: set[str] = set()
    for value in values:
        text = json.dumps(value) if not isinstance(value, str) else value.strip().lower()
        if text in seen:
            raise RulesError(f"{where}: {name} lists {excerpt(str(value))} twice")
        seen.add(text)
    return values


def load_grid(path: str | Path) -> Grid:
    """A grid from a TOML or JSON file (see :func:`grid_from_mapping`); the file is read as rules files are
    (a regular file, at most 64 KiB, UTF-8)."""
    return grid_from_mapping(read_data_file(path, "grid file"), where=excerpt(str(path)))


def parse_axis(text: str) -> tuple[str, list[str]]:
    """``'decks=1,2,6'`` (``--grid``) -> ``('decks', ['1', '2', '6'])``; values stay text until checked."""
    if "=" not in text:
        raise RulesError(f"--grid expects key=value1,value2,..., got {excerpt(text)}")
    name, values = text.split("=", 1)
    name = name.strip().replace("-", "_")
    _check_names([name], "--grid")
    items = [v.strip() for v in values.split(",")]
    if not any(items):
        raise RulesError(f"--grid {name}: no values")
    if not all(items):
        raise RulesError(f"--grid {name}: an empty value in {excerpt(values)}")
    return name, _axis_values(name, items, "--grid")


def make_grid(grid_file: str | Path | None = None, axes: Sequence[str] = (),
              fixed: Mapping[str, Any] | None = None) -> Grid:
    """The sweep's grid: the file's, then ``fixed`` values (--rules/--set) fix rules, then ``--grid`` axes list
    values (each later source overrides the earlier for the rules it names; one ``--grid`` per rule)."""
    if isinstance(axes, str) or not all(isinstance(a, str) for a in axes):
        raise RulesError("the axes are a list of texts such as ['decks=1,2,6', 'hit_soft_17=true,false']")
    if fixed is not None and not isinstance(fixed, Mapping):
        raise RulesError(f"the fixed rules are a mapping of rule -> value, not a {type(fixed).__name__}")
    grid = load_grid(grid_file) if grid_file is not None else Grid({}, {})
    base, listed = dict(grid.base), dict(grid.axes)
    for name, value in (fixed or {}).items():
        base[name] = value
        listed.pop(name, None)
    given: set[str] = set()
    for text in axes:
        name, values = parse_axis(text)
        if name in given:
            raise RulesError(f"--grid {name} is given twice; list all its values once: --grid {name}=v1,v2,...")
        given.add(name)
        listed[name] = values
        base.pop(name, None)
    return Grid(base, listed)


# ===== size and time ==============================================================================
#: a grid of more variants is refused unless ``max_variants`` (``--max-variants``) lifts the limit
MAX_VARIANTS = 10_000
#: CPU seconds of one variant (EV, accounting, basic chart) by deck count, one split: the first variant of its
#: shoe in a process (the chart's layout made), the default rules, measured 2026-12-07 with ``_figures`` on the
#: 2-core machine (a busy hour takes up to about 4 times as long; the variants after it of the same shoe about a
#: tenth less)
CPU_PER_VARIANT = {1: 0.21, 2: 0.34, 3: 0.39, 4: 0.39, 5: 0.40, 6: 0.38, 7: 0.39, 8: 0.38}
#: what resplits (three or four hands), the exact figures and truly optimal split play multiply that by
RESPLIT_FACTOR, EXACT_FACTOR, OPTIMAL_FACTOR = 1.5, 4.0, 6.0
#: and what leaving the outcome distribution out does (``--no-distribution``: 0.45 at one deck, 0.29 at eight,
#: 2026-12-07)
NO_DISTRIBUTION_FACTOR = 0.4


def check_size(grid: Grid, max_variants: int | None = None) -> None:
    """Refuse a grid of more than ``max_variants`` (default MAX_VARIANTS) variants, before any is made."""
    limit = MAX_VARIANTS if max_variants is None else max_variants
    if grid.size > limit:
        raise BJEVError(f"the grid has {grid.size:,} variants, more than the limit of {limit:,}; check the axes, or "
                        f"lift the limit with --max-variants {grid.size}")


def estimate_cpu_seconds(todo: Sequence[Variant], options: SweepOptions) -> float:
    """CPU seconds the variants ``todo`` should take on a free core (see CPU_PER_VARIANT): a rough guide."""
    total = 0.0
    for v in todo:
        try:
            seconds = CPU_PER_VARIANT.get(int(str(v.values.get("decks", 1))), 0.8)
        except ValueError:
            seconds = 0.8
        if str(v.values.get("max_split_hands", 2)) in ("3", "4"):
            seconds *= RESPLIT_FACTOR
        if options.needs_exact:
            seconds *= EXACT_FACTOR
        if options.split_strategy == "optimal":
            seconds *= OPTIMAL_FACTOR
        if not options.distribution:
            seconds *= NO_DISTRIBUTION_FACTOR
        total += seconds
    return total


# ===== variants and their keys ===================================================================
@dataclass(frozen=True)
class SweepOptions:
    """What to compute for every variant (part of each variant's key)."""

    split_strategy: str = "cdz"
    exact: bool = False
    target_rtp: Fraction | None = None
    convention: str = "total_wagered"
    #: False: no outcome distribution (``bjev sweep --no-distribution``): E[W] and the RTP per total wagered from
    #: the exact stakes of the play (``strategies.split_strategy_figures``: the same figures), SD, P(double) and
    #: P(split) left empty; a third to a half of a variant's cost
    distribution: bool = True

    def __post_init__(self) -> None:
        if self.split_strategy not in SPLIT_STRATEGIES:
            raise BJEVError(f"unknown split strategy {self.split_strategy!r}; choose {', '.join(SPLIT_STRATEGIES)}")
        if self.convention not in CONVENTIONS:
            raise BJEVError(f"unknown RTP convention {self.convention!r}; choose {', '.join(CONVENTIONS)}")
        if self.target_rtp is not None and not 0 < self.target_rtp < 2:
            raise BJEVError(f"the target RTP must be a fraction such as 0.995, got {self.target_rtp}")

    @property
    def needs_exact(self) -> bool:
        return self.exact or self.target_rtp is not None

    def as_dict(self) -> dict[str, Any]:
        # (distribution only when left out: the keys of the rows of every earlier sweep stay what they were)
        return {"split_strategy": self.split_strategy, "exact": self.needs_exact,
                "target_rtp": None if self.target_rtp is None else str(self.target_rtp),
                "convention": self.convention if self.target_rtp is not None else None,
                **({} if self.distribution else {"distribution": False})}


@dataclass(frozen=True)
class Variant:
    """One combination: its position in the grid, its rule values (as listed) and its key."""

    index: int
    values: dict[str, Any]
    key: str
    #: why the rule values are invalid (the row's ``error``), or None
    error: str | None = None


def _rule_values(values: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The full rule set of ``values`` as a dict (defaults filled in); for an invalid set, the values as
    given (each read as its field's type where it can be) and the error."""
    try:
        return from_mapping(values).as_dict(), None
    except RulesError as exc:
        error = str(exc)
    given = {**Rules().as_dict()}
    for name, value in values.items():
        try:
            given.update(parse_assignments([f"{name}={value}"]) if isinstance(value, str) else {name: value})
        except RulesError:
            given[name] = value
    return given, error


def variant_key(rules: Mapping[str, Any], options: SweepOptions) -> str:
    """SHA-256 of the full rule values, the options, the bjev version and the row's columns: what makes a
    finished variant (a journal row written with other columns is computed again, never reused)."""
    text = json.dumps({"rules": dict(rules), "options": options.as_dict(), "bjev": ev.__version__,
                       "columns": list(FIGURES + EXACT_FIGURES + SOLVE_FIGURES)}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def variants(grid: Grid, options: SweepOptions) -> list[Variant]:
    """Every combination of the grid's axes, in order (the last axis varies fastest)."""
    names = list(grid.axes)
    out = []
    for index, combo in enumerate(itertools.product(*(grid.axes[n] for n in names))):
        values = {**grid.base, **dict(zip(names, combo))}
        full, error = _rule_values(values)
        out.append(Variant(index, values, variant_key(full, options), error))
    return out


def check_some_valid(todo: Sequence[Variant]) -> None:
    """Refuse a grid none of whose variants is a valid rule set (a bad fixed value, or bad values on every axis):
    one line with the first variant's reason, before any work."""
    if todo and all(v.error is not None for v in todo):
        raise RulesError(f"no variant of the grid is a valid rule set: {todo[0].error}")


# ===== one variant ===============================================================================
def chart_sha256(cells: Mapping[Any, Mapping[int, str | None]], insurance: bool | None,
                 even_money: bool | None) -> str:
    """SHA-256 of a chart: one line per row (``hard16:H,H,...`` over the up cards 2..9, T, A; ``-`` where the
    shoe has no such up card), then ``insurance:`` and ``even_money:`` (yes, no, or - when not offered)."""
    lines = []
    for row in chart_rows():
        lines.append(f"{row.key}:" + ",".join(cells[row][up] or "-" for up in UP_ORDER))
    flag = lambda x: "-" if x is None else ("yes" if x else "no")  # noqa: E731
    lines += [f"insurance:{flag(insurance)}", f"even_money:{flag(even_money)}"]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def fraction_str(x: Fraction) -> str:
    """'p/q' in lowest terms, always with a denominator (as the exact JSON writes fractions)."""
    return f"{x.numerator}/{x.denominator}"


def figure_columns(options: SweepOptions) -> tuple[str, ...]:
    """The figures of every row under ``options``, in order (they follow ``variant`` and the rule values)."""
    return (FIGURES + (EXACT_FIGURES if options.needs_exact else ())
            + (SOLVE_FIGURES if options.target_rtp is not None else ()) + TIMES)


def evaluate_variant(options: SweepOptions, variant: Variant) -> dict[str, Any]:
    """The row of one variant (see the module docstring); runs on any executor's worker."""
    start, cpu = time.perf_counter(), time.process_time()
    rules_values, error = _rule_values(variant.values)
    row: dict[str, Any] = {"variant": variant.index, "key": variant.key, **rules_values}
    row.update(dict.fromkeys(figure_columns(options)))
    try:
        if error is not None:
            raise RulesError(error)
        with shared_dealers():      # variants one after another in a worker share the dealer's decks
            row.update(_figures(from_mapping(variant.values), options))
        row["status"] = "ok"
    except BJEVError as exc:
        row["status"], row["error"] = "invalid", str(exc)
    row["seconds"], row["cpu_seconds"] = time.perf_counter() - start, time.process_time() - cpu
    return row


def _figures(rules: Rules, options: SweepOptions) -> dict[str, Any]:
    split = options.split_strategy
    game = Game(rules)
    result = game.round(split)
    stats = _accounting(game, options)
    d = derive(game)
    chart = policy_figures(game, chart_policy(game, d.cells, d.insurance, d.even_money))   # EV and E[W], exact
    out: dict[str, Any] = {
        "ev": result.ev, "rtp_initial": result.rtp_initial, "rtp_total_wagered": stats.rtp_total_wagered,
        "expected_total_wager": stats.expected_wager, "sd": None, "p_double": None,
        "distribution_method": "none", "p_split": None,
        "chart_ev": chart.ev, "chart_rtp_initial": chart.rtp_initial,
        "chart_rtp_total_wagered": chart.rtp_total_wagered, "chart_cost": stats.ev - chart.ev,
        "chart_sha256": chart_sha256(d.cells, d.insurance, d.even_money),
    }
    if isinstance(stats, RoundStats):
        out.update({"sd": stats.sd, "p_double": stats.p_double, "distribution_method": stats.distribution_method,
                    "p_split": stats.p_split})
    if options.needs_exact:
        out.update(_exact_figures(rules, options))
    return out


def _accounting(game: Game, options: SweepOptions) -> RoundStats | Figures:
    """The round's accounting (``round_stats``, with the outcome distribution), or without the distribution its
    E[W] from the play's exact stakes (``split_strategy_figures``: the same figures)."""
    if options.distribution:
        return round_stats(game, options.split_strategy)
    return split_strategy_figures(game, options.split_strategy)


def _exact_figures(rules: Rules, options: SweepOptions) -> dict[str, Any]:
    """The exact fractions and the RTP as a function of the payout (``ev.analysis.payout``)."""
    game = Game(rules, exact=True)
    result = game.round(options.split_strategy)
    stats = _accounting(game, options)
    formula = formula_of(result, stats)
    out: dict[str, Any] = {
        "exact_ev": fraction_str(result.ev), "exact_rtp_initial": fraction_str(1 + result.ev),
        "exact_rtp_total_wagered": fraction_str(stats.rtp_total_wagered),
        "exact_expected_total_wager": fraction_str(stats.expected_wager),
        "rtp_initial_of_payout": str(formula.rtp_initial),
        "rtp_total_wagered_of_payout": str(formula.rtp_total_wagered),
        "payout_range_low": fraction_str(formula.low),
        "payout_range_high": None if formula.high is None else fraction_str(formula.high),
        "even_money_taken": formula.even_money_taken,
    }
    if options.target_rtp is not None:
        b = formula.root(options.target_rtp, options.convention)
        if b is None:
            out.update({"target_rtp": fraction_str(options.target_rtp), "convention": options.convention,
                        "payout_for_target": None, "payout_for_target_decimal": None,
                        "payout_note": no_payout_text(formula, options.target_rtp, options.convention)})
            return out
        holds = formula.holds_at(b)
        taken, other = ("taken", "declined") if formula.even_money_taken else ("declined", "taken")
        note = (f"the formula holds for payouts {formula.range_text()} (optimal play the same, even money {taken})"
                if holds else
                f"no payout in this variant's range: the formula's root {b} lies outside the payouts "
                f"{formula.range_text()} where it holds (even money {taken}); at {b} optimal play would change "
                f"(even money {other}), so the formula does not apply there")
        out.update({"target_rtp": fraction_str(options.target_rtp), "convention": options.convention,
                    "payout_for_target": fraction_str(b) if holds else None,
                    "payout_for_target_decimal": float(b) if holds else None, "payout_note": note})
    return out


# ===== the sweep =================================================================================
@dataclass
class SweepRun:
    """What one run of a sweep did: variants in the grid, computed now, found done, invalid; seconds."""

    variants: int
    computed: int
    skipped: int
    invalid: int
    seconds: float
    executor: str

    @property
    def variants_per_second(self) -> float:
        return self.computed / self.seconds if self.seconds > 0 else float("inf")


def run_sweep(todo: Sequence[Variant], options: SweepOptions, executor: Executor,
              on_row: Callable[[dict[str, Any]], None], done: int = 0,
              progress: Callable[[float, str], None] | None = None) -> SweepRun:
    """Evaluate the variants ``todo`` on ``executor``; ``on_row(row)`` as each finishes (in this process).

    ``done``: how many of the grid's variants were finished before (reported only).
    ``progress(1, note)`` after each variant.  An exception (in a unit or in
    ``on_row``) stops the executor's work; rows already passed on are kept by
    the caller."""
    if not isinstance(options, SweepOptions):
        raise BJEVError(f"options must be a SweepOptions, not a {type(options).__name__}")
    start = time.perf_counter()
    invalid = 0

    def finished(_index: int, row: dict[str, Any]) -> None:
        nonlocal invalid
        invalid += row["status"] != "ok"
        on_row(row)
        if progress is not None:
            progress(1, f"variant {row['variant']}")

    executor.run(evaluate_variant, list(todo), finished, shared=options)
    return SweepRun(len(todo) + done, len(todo), done, invalid, time.perf_counter() - start, executor.describe())
