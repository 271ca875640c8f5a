"""The report's figures for a test lab: strategies, exposure, assumptions, readings, disclosure,
volatility index and reproducibility.  Each function returns a JSON-ready dict for ``Report``.

Units: EVs, stakes and net results in initial bets; probabilities and RTPs as fractions.
"""
from __future__ import annotations

import hashlib
import math
import platform
import sys
from fractions import Fraction
from typing import Any

from ev import __version__
from ev.analysis.exposure import max_exposure
from ev.analysis.strategies import StrategyRow
from ev.core.cards import ACE, RANK_SYMBOLS, UP_ORDER
from ev.core.rules import Rules
from ev.present.report.meta import BLANK_FIELDS, build_commit

#: the simulation's default seed: fixed, so that every run (and every language) deals the same rounds
DEFAULT_SEED = 20240607
#: two-sided z for the confidence levels of the volatility index
Z_LEVELS = {"90": 1.6448536269514722, "95": 1.959963984540054, "99": 2.5758293035489004}
#: rounds of the confidence-interval table
CI_ROUNDS = tuple(10 ** k for k in range(3, 10))


def strategies(rows: list[StrategyRow], published_key: str, even_money_stake: float = 1,
               search: tuple[int, int] | None = None) -> dict:
    """The strategy table (item 1): EV, both RTPs and E[W] per strategy (even money staked as
    ``even_money_stake``), the row behind the report's figures, and each row's figures under the other
    even-money stake where they differ.  A row that these rules do not support keeps its reason; ``search``:
    (decks, most decks searched) when the report left the truly optimal searches out."""
    stake, other = Fraction(even_money_stake), Fraction(3, 2) if even_money_stake == 1 else Fraction(1)
    out = []
    for r in rows:
        if r.figures is None:
            out.append({"key": r.key, "name": r.name, "available": False, "reason": r.reason,
                        **_reason_phrase(r.reason or "", search)})
            continue
        f = r.figures
        row = {"key": r.key, "name": r.name, "available": True, "ev": float(f.ev), "rtp_initial": float(f.rtp_initial),
               "rtp_total_wagered": float(f.rtp_total_wagered_at(stake)),
               "expected_total_wager": float(f.expected_wager_at(stake)), "p_even_money": float(f.p_even_money),
               "scope": r.scope or None, "scope_reason": r.scope_reason or None}
        if f.p_even_money:
            row["other_even_money_stake"] = {"stake": float(other),
                                             "expected_total_wager": float(f.expected_wager_at(other)),
                                             "rtp_total_wagered": float(f.rtp_total_wagered_at(other))}
        out.append(row)
    minimum = next((r for r in out if r["key"] == "minimum" and r["available"]), None)
    return {"rows": out, "published_refers_to": published_key, "minimum": minimum,
            "minimum_over": minimum["scope_reason"] if minimum else None,
            "even_money_stake": even_money_stake,
            "arithmetic": "exact enumeration in floating point (about 15 significant digits)"}


#: the strategy-table row each basis of a minimum RTP reads ("optimal": the row behind the report's figures)
BASIS_ROWS = {"disclosed": "basic", "random": "random"}


def compliance(strategies: dict, requirements: list[dict]) -> dict:
    """Each regulator's minimum RTP (``--meta`` [[requirement]]) against the game's RTP on its basis and in its
    convention, from the strategy table: pass when the game's figure is at least the minimum; None (not judged)
    where the table has no figure for that basis."""
    rows = {row["key"]: row for row in strategies["rows"]}
    out = []
    for req in requirements:
        key = strategies["published_refers_to"] if req["basis"] == "optimal" else BASIS_ROWS[req["basis"]]
        row = rows.get(key)
        field = "rtp_total_wagered" if req["convention"] == "total_wagered" else "rtp_initial"
        figure = row[field] if row is not None and row["available"] else None
        out.append({**req, "row": key, "figure": figure,
                    "passed": None if figure is None else figure >= req["minimum_rtp"]["value"]})
    return {"requirements": out, "all_passed": all(r["passed"] for r in out) if out else None}


def _reason_phrase(reason: str, search: tuple[int, int] | None) -> dict:
    """The phrase key (and its fields) that says ``reason`` in every language, where there is one."""
    from ev.analysis.strategies import OPTIMAL_RESPLIT_REASON, search_reason
    if reason == OPTIMAL_RESPLIT_REASON:
        return {"reason_key": "reason.optimal-optimal", "reason_fields": {}}
    if search is not None and reason == search_reason(*search):
        return {"reason_key": "reason.search_decks", "reason_fields": {"limit": search[1], "decks": search[0]}}
    return {}


def exposure(rules: Rules, meta: dict, optimal_distribution: dict) -> dict:
    """Maximum stake, loss and win of a round (item 2), for any legal play and under optimal play."""
    ex = max_exposure(rules)
    support = [float(x) for x, p in optimal_distribution.items() if p > 0]
    out = {k: (float(v) if k.startswith("max_") and not k.endswith("_lines") else v) for k, v in ex.items()}
    out.update({"optimal_largest_win": max(support), "optimal_largest_loss": min(support),
                "table_min_bet": meta.get("min_bet"), "table_max_bet": meta.get("max_bet"),
                "currency": meta.get("currency")})
    if meta.get("max_bet") is not None:
        out["max_stake_at_table_max"] = float(ex["max_stake"]) * meta["max_bet"]
        out["max_win_at_table_max"] = float(ex["max_win"]) * meta["max_bet"]
    return out


def assumptions(rules: Rules, result: Any, stats: Any) -> dict:
    """Stated assumptions (item 4), with both stake conventions where wagers are handed back.

    When an unchecked dealer blackjack takes only the original bet, double and split wagers
    placed before it is found are returned: ``at risk`` leaves them out of the stake (the
    engine's convention), ``placed`` counts them.  For each ace-up deal the chosen action
    fixes the extra wager placed at the first decision (1 for a double or a split; later
    wagers (doubles after a split, resplit hands) are not added: a lower bound where the rules allow them).
    """
    returned = 0.0
    unchecked = not rules.peeks_under(ACE) and rules.unchecked_blackjack_takes == "original"
    if unchecked:
        p_ace = float(result.p_upcard.get("A", 0.0))
        for deal in result.deals:
            if deal.up == ACE and deal.best in ("double", "split"):
                share = deal.split_probability if deal.best == "split" else 1.0
                returned += p_ace * deal.probability * deal.p_dealer_blackjack * share
    wager = float(stats.expected_wager)
    ev = float(stats.ev)
    placed = wager + returned
    return {
        "items": ["deck", "hole_card", "rng", "side_bets", "stakes"],
        "hole_card_dealt": "with the up card, before the player acts",
        "returned_wagers_possible": unchecked,
        "expected_returned_wagers": returned,
        "expected_total_wager_at_risk": wager,
        "expected_total_wager_placed": placed,
        "rtp_total_wagered_at_risk": (wager + ev) / wager,
        "rtp_total_wagered_placed": (placed + ev) / placed,
        "lower_bound": unchecked and (rules.double_after_split or rules.max_split_hands > 2),
    }


def readings(sensitivity: dict, rules: Rules, rtp_total_wagered: float) -> dict:
    """The peek reading (item 5): which readings give the published figure, which do not, the one used."""
    if not sensitivity.get("available"):
        return {"available": False, "reason": sensitivity.get("reason", "")}
    rows = sensitivity["readings"]
    return {"available": True,
            "consistent": [r["label"] for r in rows if r["matches_published"]],
            "inconsistent": [{"label": r["label"], "rtp_total_wagered": r["rtp_total_wagered"]}
                             for r in rows if not r["matches_published"]],
            "used": next((r["label"] for r in rows if r["reading_used"]), None),
            "unique": sum(r["matches_published"] for r in rows) == 1,
            "peek": rules.peek, "unchecked_blackjack_takes": rules.unchecked_blackjack_takes,
            "unchecked_field_has_effect": not (rules.peeks_under(ACE) and rules.peeks_under(9)),
            "rtp_total_wagered": rtp_total_wagered,
            "recommendation": "the supplier should confirm in writing which reading the game implements"}


def disclosure(exceptions: list, gap: float) -> dict:
    """Every composition-dependent exception (item 6), in chart order, and how much of the gap they explain."""
    order = {u: i for i, u in enumerate(UP_ORDER)}
    items = sorted(exceptions, key=lambda e: (order[e.up], len(e.cards), e.hand))
    rows = [{"up": RANK_SYMBOLS[e.up], "hand": format_hand_cards(e.cards), "cards": len(e.cards),
             "chart": e.chart_action, "best": e.best_action, "gain": e.gain, "round_gain": e.round_gain}
            for e in items]
    counts: dict[str, int] = {}
    for r in rows:
        counts[str(r["cards"])] = counts.get(str(r["cards"]), 0) + 1
    return {"count": len(rows), "by_cards": counts, "round_gain_total": sum(r["round_gain"] for r in rows),
            "optimal_minus_chart": gap, "rows": rows}


def format_hand_cards(cards: tuple) -> str:
    """Ranks in hand order as the report writes a hand: A-3-T ... (the ten as T)."""
    return "-".join(RANK_SYMBOLS[c] for c in cards)


def volatility_index(sd: float, rtp_initial: float) -> dict:
    """Volatility index z × SD (item 7) and the RTP's confidence interval after 10^3 ... 10^9 rounds."""
    return {"volatility_index": {level: z * sd for level, z in Z_LEVELS.items()},
            "ci_rounds": [{"rounds": n, "half_width": {level: z * sd / math.sqrt(n) for level, z in Z_LEVELS.items()},
                           "rtp_initial": rtp_initial} for n in CI_ROUNDS],
            "ci_convention": "RTP per initial bet; half-widths in percentage points of RTP (as fractions here)"}


def distinguishing(sd: float, expected_wager: float, rtp_initial: float, rtp_tw: float, rounds: int,
                   published: dict | None) -> dict:
    """What a run of ``rounds`` can tell apart (item 8) and, where a published RTP is given, the rounds needed
    to confirm it at its own precision and in its own convention.

    For the total-wagered RTP the SD per round is taken as SD / E[W] (the ratio estimator's
    SD neglecting the term in the RTP's own deviation from 1, below 0.5 % here).
    """
    z = Z_LEVELS["95"]
    half = z * sd / math.sqrt(rounds) if rounds else None
    out: dict[str, Any] = {"rounds": rounds, "half_width_95": half, "conventions_apart": rtp_tw - rtp_initial,
                           "distinguishes_conventions": half is not None and 2 * half < rtp_tw - rtp_initial,
                           "published": published}
    if published is None:
        return out
    total = published["convention"] == "total_wagered"
    value, sd_unit = (rtp_tw, sd / expected_wager) if total else (rtp_initial, sd)
    step = 10 ** -(published["decimals"] + 2)          # one unit of the last published digit, as a fraction
    low, high = published["value"] - step / 2, published["value"] + step / 2
    margin = min(value - low, high - value)
    out.update({"published_interval": [low, high], "margin": margin,
                "rounds_to_confirm_published": math.ceil((z * sd_unit / margin) ** 2) if margin > 0 else None})
    return out


def reproducibility(rules: Rules, rule_text: str | None, seed: int | None, workers: int | None,
                    command: list[str] | None) -> dict:
    """Software, platform, command line, the SHA-256 of the rules and of the quoted rule text, the seed (item 3)."""
    return {"software": "bjev", "version": __version__, "git_commit": build_commit(),
            "python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "command_line": " ".join(command) if command is not None else None,
            "argv": command, "rules_sha256": rules.sha256(),
            "rule_text_sha256": hashlib.sha256(rule_text.encode("utf-8")).hexdigest() if rule_text else None,
            "seed": seed, "workers": workers, "byteorder": sys.byteorder}


def blanks(meta: dict) -> list[str]:
    """The metadata fields not given (printed as blanks to fill in)."""
    return [k for k in BLANK_FIELDS if not meta.get(k)]


__all__ = ["CI_ROUNDS", "DEFAULT_SEED", "Z_LEVELS", "assumptions", "blanks", "disclosure", "distinguishing",
           "exposure", "format_hand_cards", "readings", "reproducibility", "strategies", "volatility_index"]
