"""The answer of ``bjev simulate``: a simulation and its comparison with the exact figures, as JSON and as text.

:func:`report_data` is what ``--json`` prints; :func:`report_text` lays the same
data out as plain-text tables.  Both only format the figures of a
:class:`~ev.analysis.simulation.SimulationResult` and a
:class:`~ev.analysis.simulation.Comparison`; nothing is recomputed.
"""
from __future__ import annotations

import math
import textwrap
from typing import Any

from tabulate import tabulate

from ev.analysis.simulation import (
    ACCEPTANCE_CHECKS,
    ACCEPTANCE_LEVEL,
    FREQUENCY_NAMES,
    Z95,
    Z99,
    Comparison,
    SimulationResult,
    acceptance,
    confidence_interval,
)
from ev.present.numbers import net_text


def _finite(x: Any) -> Any:
    """JSON-safe: non-finite floats become None, recursively."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def report_data(sim: SimulationResult, comparison: Comparison | None, exact: Any = None) -> dict:
    """Everything ``bjev simulate --json`` prints (non-finite floats as null)."""
    cmp = comparison.as_dict() if comparison is not None else None

    def figure(name: str, ci95: tuple | None = None, ci99: tuple | None = None) -> dict:
        out: dict[str, Any] = {"simulated": getattr(sim, name), "se": getattr(sim, f"{name}_se", None)}
        if name == "ev":
            out["se"] = sim.ev_se
        if ci95 is not None and ci99 is not None:
            out["ci95"], out["ci99"] = list(ci95), list(ci99)
        out["exact"] = cmp[name]["exact"] if cmp else None
        out["z"] = cmp[name]["z"] if cmp else None
        return out

    exact_dist = {}
    if exact is not None and getattr(exact, "distribution", None):
        exact_dist = {round(float(k) * 10): float(v) for k, v in exact.distribution.items()}
    keys = sorted(set(sim.histogram) | set(exact_dist))
    data: dict[str, Any] = {
        "rounds": sim.rounds,
        "seed": sim.seed,
        "workers": sim.workers,
        "executor": sim.executor,
        "chunk_rounds": sim.chunk_rounds,
        "chunks": sim.chunks,
        "generator": sim.generator,
        "generator_reference": sim.generator_reference,
        "strategy": sim.strategy,
        "seconds": sim.seconds,
        "rounds_per_second": sim.rounds_per_second,
        "ev": figure("ev", confidence_interval(sim.ev, sim.ev_se, Z95),
                     confidence_interval(sim.ev, sim.ev_se, Z99)),
        "rtp_initial": figure("rtp_initial", sim.rtp_initial_ci95, sim.rtp_initial_ci99),
        "rtp_total_wagered": figure("rtp_total_wagered", sim.rtp_total_wagered_ci95, sim.rtp_total_wagered_ci99),
        "mean_wager": figure("mean_wager"),
        "total_wagered": sim.total_wagered,
        "sd": sim.sd,
        "net_results": {net_text(k / 10): {"rounds": sim.histogram.get(k, 0),
                                        "frequency": sim.histogram.get(k, 0) / sim.rounds,
                                        "exact": exact_dist.get(k)} for k in keys},
        "chi_square": ({"statistic": cmp["chi_square"], "dof": cmp["dof"], "p_value": cmp["p_value"],
                        "cells": cmp["cells"], "unexpected_values": cmp["unexpected_values"]} if cmp else None),
        "frequencies": (cmp["frequencies"] if cmp else {k: {"simulated": v} for k, v in sim.frequencies.items()}),
        "tallies": {"net_tenths": sim.net_tenths, "net_sq_hundredths": sim.net_sq,
                    "wager_tenths": sim.wager_tenths, "wager_sq_hundredths": sim.wager_sq,
                    "net_wager_hundredths": sim.net_wager,
                    "histogram_tenths": {str(k): v for k, v in sorted(sim.histogram.items())},
                    **{f"rounds_{name}": getattr(sim, f"rounds_{name}") for name in FREQUENCY_NAMES + ("surrender",)}},
        "units": "initial bets; tallies in tenths of an initial bet (squares and products in hundredths)",
        "rules": sim.rules.as_dict(),
    }
    data["acceptance"] = acceptance(comparison) if comparison is not None else None
    method = getattr(exact, "distribution_method", None)
    if method is not None:
        data["distribution_method"] = method
    if method == "independent":     # splits of more than two hands scored independently (round_stats)
        data["distribution_note"] = (
            "These rules allow splits that make more than two hands: the exact figures' distribution scores their "
            "hands as independent given the dealer's outcome (its mean lies "
            f"{float(exact.mean_gap):+.2e} initial bets from the exact EV), so the net results' 'exact' "
            "column, the chi-square and checks 3 and 4 compare with that approximation, and so does P(double) "
            "where split hands may double; the RTPs are exact.")
    if "surrender" not in data["frequencies"]:
        data["frequencies"]["surrender"] = {"simulated": sim.frequencies["surrender"], "se": None,
                                            "exact": None, "z": None}
    return _finite(data)


def report_text(sim: SimulationResult, comparison: Comparison | None, exact: Any = None) -> str:
    """The plain-text answer of ``bjev simulate``."""
    data = report_data(sim, comparison, exact)

    def pct(x: float | None, digits: int = 4) -> str:
        return "" if x is None else f"{100 * x:.{digits}f} %"

    def z(x: float | None) -> str:
        return "" if x is None else f"{x:+.2f}"

    def interval(ci: list, digits: int = 4) -> str:
        return f"[{100 * ci[0]:.{digits}f}, {100 * ci[1]:.{digits}f}] %"

    rows = []
    for label, key in (("EV per initial bet", "ev"), ("RTP per initial bet", "rtp_initial"),
                       ("RTP per total wagered", "rtp_total_wagered")):
        f = data[key]
        sign = "+" if key == "ev" else ""
        rows.append([label, f"{100 * f['simulated']:{sign}.4f} %", pct(f["se"]), interval(f["ci95"]),
                     interval(f["ci99"]), "" if f["exact"] is None else f"{100 * f['exact']:{sign}.4f} %",
                     z(f["z"])])
    w = data["mean_wager"]
    rows.append(["Mean wager (bets/round)", f"{w['simulated']:.5f}", f"{w['se']:.5f}", "", "",
                 "" if w["exact"] is None else f"{w['exact']:.5f}", z(w["z"])])
    head = [
        f"Rules: {sim.rules.summary()}",
        f"Strategy: {sim.strategy}",
        f"Rounds: {sim.rounds:,} ({sim.workers} worker{'s' if sim.workers > 1 else ''}, {sim.seconds:.1f} s, "
        f"{sim.rounds_per_second / 1e6:.1f} M rounds/s)",
        f"Seed: {sim.seed}   generator: {sim.generator} (Blackman & Vigna, ACM TOMS 2021; "
        f"splitmix64 seeding; {sim.chunks:,} chunk{'s' if sim.chunks > 1 else ''} of up to "
        f"{sim.chunk_rounds:,} rounds, each its own stream: the same tallies on any executor)",
        f"Executor: {sim.executor}",
        f"Total wagered: {sim.total_wagered:,.1f} initial bets   SD of a round: {sim.sd:.5f}",
        "",
        *acceptance_rule_lines(),
        "",
        tabulate(rows, headers=["", "simulated", "SE", "95% CI", "99% CI", "exact", "z"],
                 colalign=("left", "right", "right", "right", "right", "right", "right"), disable_numparse=True),
        "",
    ]
    net_rows = [[k, f"{v['rounds']:,}", f"{v['frequency']:.6f}", "" if v["exact"] is None else f"{v['exact']:.6f}"]
                for k, v in data["net_results"].items()]
    head.append("Net result per round (initial bets)")
    head.append(tabulate(net_rows, headers=["net", "rounds", "frequency", "exact"],
                         colalign=("right", "right", "right", "right"), disable_numparse=True))
    chi = data["chi_square"]
    if chi and chi["statistic"] is not None:
        head.append(f"Chi-square against the exact distribution: {chi['statistic']:.3f} on {chi['dof']} "
                    f"degrees of freedom (cells with expected count < 5 pooled), p = {chi['p_value']:.4g}")
        if chi["unexpected_values"]:
            head.append(f"Observed net results the exact distribution lacks: {chi['unexpected_values']}")
    elif comparison is None or comparison.chi_square is None:
        head.append("Chi-square: no exact distribution to compare with")
    if data.get("distribution_note"):
        head.append(textwrap.fill(data["distribution_note"], 110, break_on_hyphens=False))
    head.append("")
    labels = {"double": "P(double)", "split": "P(split)", "insurance": "P(insurance)",
              "even_money": "P(even money)", "player_blackjack": "P(player blackjack)",
              "dealer_blackjack": "P(dealer blackjack)", "surrender": "P(surrender)"}
    freq_rows = []
    for key, label in labels.items():
        f = data["frequencies"].get(key)
        if f is None:
            continue
        freq_rows.append([label, f"{f['simulated']:.6f}", "" if f.get("se") is None else f"{f['se']:.6f}",
                          "" if f.get("exact") is None else f"{f['exact']:.6f}", z(f.get("z"))])
    head.append(tabulate(freq_rows, headers=["", "simulated", "SE", "exact", "z"],
                         colalign=("left", "right", "right", "right", "right"), disable_numparse=True))
    head.append("")
    head.append("Units: initial bets. z = (simulated - exact) / SE; RTP per total wagered uses a "
                "delta-method (ratio) standard error.")
    if data["acceptance"] is not None:
        head += ["", verdict_line(data["acceptance"])]
    return "\n".join(head)


def acceptance_rule_lines() -> list[str]:
    """The acceptance rule, stated before the results."""
    return ["Acceptance rule (fixed before the results; the verdict is the last line): PASS when every check "
            "made passes",
            *(f"  {i}. {what}" for i, (_, what) in enumerate(ACCEPTANCE_CHECKS, 1)),
            f"  A correct engine fails each of checks 1-3 with probability about {ACCEPTANCE_LEVEL:g} (the normal "
            f"and chi-square laws of many rounds; at most about {len(ACCEPTANCE_CHECKS[:3]) * ACCEPTANCE_LEVEL:g} in "
            "all), check 4 never."]


def verdict_line(verdict: dict) -> str:
    """'Verdict: PASS (4 of 4 checks made)' or 'Verdict: FAIL: ...' naming the failed checks."""
    if verdict["passed"] is None:
        return "Verdict: none (no exact figures to check against)"
    made = f"{verdict['checks_made']} of {len(verdict['checks'])} checks made"
    if verdict["passed"]:
        return f"Verdict: PASS ({made})"
    failed = [f"check {i} ({c['statistic']} = {c['value']:.4g})"
              for i, c in enumerate(verdict["checks"], 1) if c["passed"] is False]
    return f"Verdict: FAIL: {', '.join(failed)} ({made})"
