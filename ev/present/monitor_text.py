"""``bjev monitor`` as text and JSON: the monitoring limits of the observed RTP (``ev.analysis.monitoring``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabulate import tabulate

from ev.analysis.monitoring import EXACT_MAX_ROUNDS, Limits, RoundLaw, limits_table, switch_error
from ev.core.rules import Rules

CONVENTIONS = {"initial": "RTP per initial bet", "total_wagered": "RTP per total wagered"}


def monitor_output(rules: Rules, law: RoundLaw, rounds: Sequence[int], confidences: Sequence[float],
                   distribution_method: str, mean_gap: float = 0.0) -> tuple[str, dict]:
    """The limits of both conventions for every (rounds, confidence), as text and as JSON data.
    ``mean_gap``: the distribution's mean less the exact EV (initial bets; not 0 only where
    ``distribution_method`` is "independent")."""
    table = limits_table(law, rounds, confidences)
    switch = ({f"{c:g}": switch_error(law, c) for c in confidences}
              if any(n > EXACT_MAX_ROUNDS for n in rounds) else {})
    notes = [
        "Where the method is exact, a correct game's observed RTP after n rounds falls below the low limit, or "
        "above the high one, with probability under (1 - confidence) / 2 each (so it lies between them with at "
        "least the confidence); the approximate methods aim at the same.",
        ("RTP per initial bet: exact (the n-fold convolution of the round's exact distribution) up to "
         if distribution_method == "exact" else
         "RTP per initial bet: the n-fold convolution of the round's distribution (approximate for these rules: "
         "see the last note) up to ")
        + f"{EXACT_MAX_ROUNDS:,} rounds, Cornish-Fisher (normal with skewness and kurtosis corrections) above"
        + (": at the switch the two differ by at most "
           + ", ".join(f"{100 * e:.2g} pp at {100 * float(c):g} %" for c, e in switch.items()) if switch else "") + ".",
        "RTP per total wagered: the delta method (the total staked replaced by its mean) with Cornish-Fisher "
        "quantiles, at every n: approximate.",
        "Play: optimal composition-dependent (CDZ- after splits); units: percent of the initial bets, or of the "
        "total wagered, as each table's title says.",
    ]
    if distribution_method != "exact":
        notes.append("These rules allow splits that make more than two hands, which the round's distribution scores as "
                     "independent given the dealer's outcome (docs/how-it-works.md, 'Splits'): its mean lies "
                     f"{mean_gap:+.2e} bets from the exact EV, so the limits up to {EXACT_MAX_ROUNDS:,} rounds are "
                     "the convolution of that distribution ('convolution'), not exact, and the limits above and "
                     "per total wagered use its moments; the RTPs shown are exact. "
                     "--resplit-distribution exact scores every hand against the same dealer hand instead: exact, "
                     "and slower.")
    lines = [f"Rules: {rules.summary()}", ""]
    for convention, title in CONVENTIONS.items():
        rows = [r for r in table if r.convention == convention]
        if not rows:
            continue
        lines += [f"{title}: exact {100 * rows[0].expected:.4f} %; limits of the observed RTP (%)",
                  _table(rows, rounds, confidences), ""]
    lines += notes
    data = {"rules": rules.as_dict(), "limits": [r.as_dict() for r in table], "exact_max_rounds": EXACT_MAX_ROUNDS,
            "switch_error": switch, "distribution_method": distribution_method, "notes": notes,
            "units": "RTP as a fraction of the amount bet (0.97 is 97 %)"}
    return "\n".join(lines), data


def _table(rows: list[Limits], rounds: Sequence[int], confidences: Sequence[float]) -> str:
    cell = {(r.rounds, r.confidence): r for r in rows}
    body: list[list[Any]] = []
    for n in rounds:
        body.append([f"{n:,}"] + [f"{100 * cell[n, c].low:.4f} - {100 * cell[n, c].high:.4f}" for c in confidences]
                    + [cell[n, confidences[0]].method])
    return tabulate(body, headers=["rounds", *(f"{100 * c:g} %" for c in confidences), "method"],
                    colalign=("right",) * (len(confidences) + 1) + ("left",), disable_numparse=True)
