"""``bjev rtp`` and ``bjev hand`` as text and JSON, in floats or exact fractions.

The figures come from ``ev.analysis`` (a :class:`~ev.analysis.game.Game` in
either arithmetic and ``ev.analysis.accounting.round_stats``); this module only
lays them out.  Exact values are printed as a fraction in lowest terms and its
decimal rounded half-even to 20 significant digits, and in JSON as
``{"fraction": "p/q", "decimal": "..."}`` (see ``JSON_SCHEME``).
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from typing import Any

from tabulate import tabulate

from ev.analysis.accounting import Figures, RoundStats, round_stats
from ev.analysis.game import Game, HandResult, RoundResult
from ev.analysis.sensitivity import PUBLISHED_RTP, effects_left_out, rule_effects, rule_readings
from ev.core.actions import FORMULA_SPLIT_STRATEGIES, SPLIT_STRATEGIES, SPLIT_STRATEGY_NAMES
from ev.core.cards import RANK_SYMBOLS, UP_ORDER, blackjack_rank
from ev.core.rules import Rules
from ev.present.numbers import decimal_text, exact_json, fraction_text, net_text

JSON_SCHEME = ('every exact value is {"fraction": "p/q" in lowest terms, "decimal": the value rounded half-even '
               'to 20 significant digits}; sd is {"expression": "sqrt(variance)", "decimal"} and skewness '
               '{"expression": "third_moment / variance^(3/2)", "decimal"}')
UNITS = "initial bets per round; ev_by_upcard includes initial bets lost to dealer blackjacks"
HAND_ACTIONS = ("stand", "hit", "double", "split", "surrender", "insurance", "even_money")

_DEC20 = Context(prec=20, rounding=ROUND_HALF_EVEN)


# ----- exact numbers --------------------------------------------------------------
def _irrational(expression: str, value: Decimal) -> dict:
    return {"expression": expression, "decimal": format(_DEC20.plus(value), "f")}


def _line(label: str, x: Fraction, percent: bool = False, mark: str = "") -> str:
    """A fraction and its decimal on the next line; ``mark`` (``approx_mark``) after the decimal."""
    pct = f"   ({decimal_text(100 * x)} %)" if percent else ""
    return f"{label:<28}{fraction_text(x)}\n{'':<28}= {decimal_text(x)}{pct}{mark}"


# ----- shared pieces -----------------------------------------------------------------
def stats_data(stats: RoundStats) -> dict[str, Any]:
    """The figures of a :class:`~ev.analysis.accounting.RoundStats` under their JSON names (values as they are)."""
    return {
        "ev": stats.ev, "rtp_initial": stats.rtp_initial, "rtp_total_wagered": stats.rtp_total_wagered,
        "expected_total_wager": stats.expected_wager,
        "p_double": stats.p_double, "p_split": stats.p_split, "p_insurance": stats.p_insurance,
        "p_even_money": stats.p_even_money, "p_player_blackjack": stats.p_player_blackjack,
        "p_dealer_blackjack": stats.p_dealer_blackjack,
        "p_win": stats.p_win, "p_push": stats.p_push, "p_loss": stats.p_loss,
        "distribution": {net_text(x): p for x, p in sorted(stats.distribution.items())},
        "sd": stats.sd, "variance": stats.variance, "skewness": stats.skewness,
        "hit_frequency": stats.hit_frequency,
        "strategy": stats.strategy, "split_strategy": stats.split_strategy,
    }


# ----- shared pieces (text) -----------------------------------------------------------------
def _play_line(split_strategy: str, basic: bool) -> str:
    if basic:
        return "Play: the basic-strategy chart (total-dependent; see 'bjev chart'), followed exactly"
    return f"Play: optimal composition-dependent; split hands {SPLIT_STRATEGY_NAMES[split_strategy]}"


def _up_rows(ev_by_up: dict, columns) -> list[list[str]]:
    """One row per up card in chart order: the symbol, then ``columns(symbol, ev)``."""
    return [[s, *columns(s, ev_by_up[s])] for s in (RANK_SYMBOLS[u] for u in UP_ORDER) if s in ev_by_up]


def _table(rows: list, headers: list[str], first: str = "right") -> str:
    return tabulate(rows, headers=headers, colalign=(first,) + ("right",) * (len(headers) - 1),
                    disable_numparse=True)


EV_BY_UP_TITLE = "EV by up card (unconditioned: includes what a dealer blackjack takes)"
#: the same where it comes from a distribution that scores resplits independently (a fixed strategy's)
EV_BY_UP_TITLE_APPROX = ("EV by up card (unconditioned: includes what a dealer blackjack takes; approximate: see the "
                         "note below)")
DIST_TITLE = "Net result of a round (initial bets) and its exact probability"
#: the same where three- and four-hand splits are scored independently given the dealer (see independent_note)
DIST_TITLE_INDEPENDENT = "Net result of a round (initial bets) and its probability (approximate: see the note below)"


def dist_title(stats: RoundStats) -> str:
    return DIST_TITLE_INDEPENDENT if stats.distribution_method == "independent" else DIST_TITLE


#: beside a figure the independent scoring of resplits makes approximate (``independent_note`` says how)
APPROX = "approximate: see the note on resplits below"


def approx_mark(stats: RoundStats, lead: str = "; ", tail: str = "") -> str:
    """``lead`` + :data:`APPROX` + ``tail`` where the distribution scores three- and four-hand splits as
    independent (its probabilities and moments then approximate), else nothing."""
    return lead + APPROX + tail if stats.distribution_method == "independent" else ""


def independent_note(stats: RoundStats, by_up: bool = False) -> str | None:
    """What is not exact when the distribution scores three- and four-hand splits as independent given the
    dealer's outcome (``RoundStats.distribution_method`` "independent"), and how to have it exact; None
    when it is exact.  ``by_up``: the output's EV by up card comes from that distribution too (a fixed
    strategy's, ``RoundStats.ev_by_upcard``)."""
    if stats.distribution_method != "independent":
        return None
    gap = float(stats.mean_gap)
    double = "" if stats.p_double_exact else "P(double), "
    return ("Resplits: the distribution scores the hands of splits that make more than two hands as independent "
            f"given the dealer's outcome, each with its exact marginal, so {double}P(win), P(push), P(loss), the "
            "variance, the SD, "
            "the skewness" + (", the EV by up card" if by_up else "") + " and the distribution are approximate: "
            "the distribution's mean lies "
            f"{gap:+.2e} initial bets from the exact EV. The EV, both RTPs, E[W] and P(split) are exact (the "
            "resplit formula). --resplit-distribution exact sums every hand against the same dealer hand "
            "instead: exact, and slower (docs/how-it-works.md, 'Splits').")


# ----- bjev rtp ------------------------------------------------------------------------
def rtp_output(rules: Rules, split_strategy: str = "cdz", strategy: str = "optimal",
               exact: bool = False, resplit_distribution: str = "auto") -> tuple[str, dict]:
    """``bjev rtp``: the round EV, both RTPs, the wager accounting and the distribution.
    ``resplit_distribution``: how the distribution scores three- and four-hand splits (``resplits`` of
    ``ev.analysis.accounting.round_stats``)."""
    return rtp_of(Game(rules, exact=exact), split_strategy, strategy, resplit_distribution)


def rtp_of(game: Game, split_strategy: str = "cdz", strategy: str = "optimal",
           resplit_distribution: str = "auto") -> tuple[str, dict]:
    """:func:`rtp_output` of a game (its rules, shoe and arithmetic)."""
    rules, exact = game.rules, game.exact
    if strategy == "basic":
        from ev.analysis.basic_strategy import basic_policy
        stats = round_stats(game, basic_policy(Game(rules)), resplit_distribution)
        result = None
    elif split_strategy in FORMULA_SPLIT_STRATEGIES:
        return _rtp_terms(game, game.round(split_strategy), game.round("cdp"), exact)
    else:
        # the accounting first: under truly optimal play with resplits it searches each pair once, its
        # distribution with it, and the round's EV then reads the values it kept
        stats = round_stats(game, split_strategy, resplit_distribution)
        result = game.round(split_strategy)
    if exact:
        text, data = _rtp_exact(game, split_strategy, result, stats)
    elif result is None:
        text, data = _rtp_basic(game, stats, resplit_distribution)
    else:
        text, data = _rtp_float(game, split_strategy, result, stats)
    data["distribution_method"] = stats.distribution_method
    note = independent_note(stats, by_up=result is None)
    if note:
        data["distribution_note"] = note
        text = "\n".join([text, "", textwrap.fill(note, 100, break_on_hyphens=False)])
    if result is not None and split_strategy == "optimal":
        # each row's EV and E[W] (the resplit formula's and the policy's stakes): no outcome distribution needed
        from ev.analysis.strategies import split_strategy_figures
        by_strategy = {s: split_strategy_figures(game, s) for s in SPLIT_STRATEGIES}
        lines, data["split_strategies"] = split_comparison(by_strategy, exact)
        text = "\n".join([text, "", *lines])
        if resplits(rules):
            data["note"] = resplit_optimal_note(exact)
            text = "\n".join([text, "", textwrap.fill(data["note"], 100)])
    return text, data


def split_comparison(by_strategy: Mapping[str, RoundStats | Figures], exact: bool = False) -> tuple[list[str], dict]:
    """The round under each split strategy, both RTP conventions, and how far each falls short of truly
    optimal split play: text lines and JSON data."""
    best = by_strategy["optimal"]
    data, rows = {}, []
    for name, stats in by_strategy.items():
        short_initial = best.rtp_initial - stats.rtp_initial
        short_wagered = best.rtp_total_wagered - stats.rtp_total_wagered
        figures = {"ev": stats.ev, "rtp_initial": stats.rtp_initial, "rtp_total_wagered": stats.rtp_total_wagered,
                   "expected_total_wager": stats.expected_wager, "rtp_initial_below_optimal": short_initial,
                   "rtp_total_wagered_below_optimal": short_wagered}
        data[name] = {k: exact_json(v) for k, v in figures.items()} if exact else figures
        ev, initial, wagered = (100 * float(x) for x in (stats.ev, stats.rtp_initial, stats.rtp_total_wagered))
        rows.append([SPLIT_LABELS[name], f"{ev:+.9f} %", f"{initial:.9f} %", f"{wagered:.9f} %",
                     f"{100 * float(short_initial):.9f}", f"{100 * float(short_wagered):.9f}"])
    lines = ["Split strategies: the round with split hands played each way (truly optimal: each hand knowing "
             "every card seen)" + ("; decimals of the exact values (fractions in the JSON)" if exact else ""),
             _table(rows, ["split hands", "EV", "RTP/initial", "RTP/wagered", "below optimal (pp, initial)",
                           "below optimal (pp, wagered)"], first="left")]
    return lines, data


TERMS_NOTE = ("cdp-terms values each term of the resplit formula with the play best for that term's own deck "
              "(the definition of Eric Farmer's analyser): a figure, not a strategy a player can follow, so it "
              "has an EV and an RTP per initial bet, but no E[W], RTP per total wagered, distribution or chart. "
              "bjev's cdp is a strategy: each split hand plays best for the pair cards it has seen "
              "(docs/how-it-works.md, 'Two CDPs'). With one split the two are the same.")


def _rtp_terms(game: Game, result: RoundResult, cdp: RoundResult, exact: bool) -> tuple[str, dict]:
    """``bjev rtp --split-strategy cdp-terms``: the round EV by the per-term CDP, beside bjev's CDP."""
    rules = game.rules
    gap = result.ev - cdp.ev
    figures = {"ev": result.ev, "rtp_initial": result.rtp_initial, "house_edge": -result.ev,
               "ev_by_upcard": result.ev_by_upcard, "p_upcard": result.p_upcard,
               "cdp_ev": cdp.ev, "ev_minus_cdp_ev": gap}
    data = {**({k: exact_json(v) for k, v in figures.items()} if exact else figures),
            "exact": exact, "split_strategy": "cdp-terms", "strategy": None, "note": TERMS_NOTE,
            "units": "initial bets per round, EV unconditioned (dealer blackjacks included)", "rules": rules.as_dict()}
    if exact:
        data["json_scheme"] = JSON_SCHEME
        figure_lines = [_line("EV per initial bet", result.ev, True), _line("RTP per initial bet", 1 + result.ev, True),
                        _line("EV under cdp (a strategy)", cdp.ev, True), _line("cdp-terms minus cdp", gap, True)]
        up_rows = _up_rows(result.ev_by_upcard, lambda s, ev: [fraction_text(result.p_upcard[s]), fraction_text(ev),
                                                               decimal_text(ev)])
        up_table = _table(up_rows, ["up", "P(up)", "EV (fraction)", "EV (decimal)"], first="left")
    else:
        figure_lines = [f"EV per initial bet          {100 * result.ev:+.12f} %   "
                        f"(house edge {-100 * result.ev:.12f} %)",
                        f"RTP per initial bet         {100 * result.rtp_initial:.12f} %   (1 + EV)",
                        f"EV under cdp (a strategy)   {100 * cdp.ev:+.12f} %",
                        f"cdp-terms minus cdp         {100 * gap:+.3e} percentage points"]
        up_table = _table(_up_rows(result.ev_by_upcard, lambda s, ev: [f"{result.p_upcard[s]:.6f}",
                                                                        f"{100 * ev:+.6f} %"]),
                          ["up", "P(up)", "EV"], first="left")
    text = "\n".join([f"Rules: {rules.summary()}", _play_line("cdp-terms", False),
                      *(["Exact rational mode: fractions in lowest terms, then the decimal rounded to 20 significant "
                         "digits"] if exact else []),
                      "", *figure_lines, "", textwrap.fill(TERMS_NOTE, 100), "", EV_BY_UP_TITLE, up_table])
    return text, data


SPLIT_LABELS = {"cdz": "CDZ-", "cdp1": "CDP1", "cdp": "CDP", "optimal": "truly optimal"}


def resplits(rules: Rules) -> bool:
    """Do these rules let some pair make more than two hands?"""
    return rules.max_split_hands > 2 and any(rules.split_hands(pair) > 2 for pair in range(len(RANK_SYMBOLS)))


def resplit_optimal_note(exact: bool) -> str:
    """What truly optimal play with resplits is, and how its figures were made (``exact``: in fractions)."""
    play = ("Truly optimal play with resplits: each split hand is played knowing every card seen (the pair cards, "
            "earlier hands, the cards that started later hands) and how many hands may still be made, and an "
            "arriving pair card is resplit or kept, whichever is worth more. ")
    if exact:
        return play + ("Its figures are exact fractions: the float search's play, every decision it makes clear of "
                       "its runner-up by more than 1e-9 (so the exact optimum), followed forward card by card and "
                       "every hand settled against the same dealer hand, summed exactly.")
    return play + ("Its figures, the outcome distribution included, are computed in floats (every hand settled "
                   "against the same dealer hand); --exact gives them as exact fractions.")


def _rtp_float(game: Game, split_strategy: str, result: RoundResult, stats: RoundStats) -> tuple[str, dict]:
    rules = game.rules
    data = {
        "ev": result.ev, "rtp_initial": result.rtp_initial, "house_edge": -result.ev,
        "ev_by_upcard": result.ev_by_upcard, "p_upcard": result.p_upcard,
        **{k: v for k, v in stats_data(stats).items() if k not in ("ev", "rtp_initial", "strategy")},
        "split_strategy": split_strategy, "units": UNITS, "rules": rules.as_dict(),
    }
    up_rows = _up_rows(result.ev_by_upcard, lambda s, ev: [f"{result.p_upcard[s]:.6f}", f"{100 * ev:+.6f} %"])
    dist_rows = [[net_text(x, sign=True), f"{p:.9f}"] for x, p in sorted(stats.distribution.items())]
    text = "\n".join([
        f"Rules: {rules.summary()}",
        _play_line(split_strategy, False),
        "",
        f"EV per initial bet          {100 * result.ev:+.9f} %   (house edge {-100 * result.ev:.9f} %)",
        f"RTP per initial bet         {100 * result.rtp_initial:.9f} %   (1 + EV)",
        f"RTP per total wagered       {100 * stats.rtp_total_wagered:.9f} %   ((E[W] + EV) / E[W])",
        f"Expected total stake E[W]   {stats.expected_wager:.9f} initial bets "
        f"(initial bet, doubles, splits, insurance/even money)",
        "",
        f"P(double) {stats.p_double:.6f}{'' if stats.p_double_exact else approx_mark(stats, ' (', ')')}   "
        f"P(split) {stats.p_split:.6f}   P(insurance) {stats.p_insurance:.6f}   "
        f"P(even money) {stats.p_even_money:.6f}",
        f"P(player blackjack) {stats.p_player_blackjack:.6f}   P(dealer blackjack) {stats.p_dealer_blackjack:.6f}",
        f"P(win) {stats.p_win:.6f}   P(push) {stats.p_push:.6f}   P(loss) {stats.p_loss:.6f}   "
        f"(of the round's net: P(win) = P(net > 0), the hit frequency; P(push) = P(net = 0){approx_mark(stats)})",
        f"SD {stats.sd:.11f}   skewness {stats.skewness:.6f}   (per round, initial bets{approx_mark(stats)})",
        "",
        dist_title(stats),
        _table(dist_rows, ["net", "probability"]),
        "",
        EV_BY_UP_TITLE,
        _table(up_rows, ["up", "P(up)", "EV"], first="left"),
    ])
    return text, data


def _rtp_basic(game: Game, stats: RoundStats, resplit_distribution: str = "auto") -> tuple[str, dict]:
    """EV and both RTPs of a player who follows the basic-strategy chart, against optimal CD play."""
    rules = game.rules
    optimal = round_stats(game, "cdz", resplit_distribution)
    data = {**stats_data(stats), "house_edge": -stats.ev, "optimal_ev": optimal.ev,
            "optimal_rtp_initial": optimal.rtp_initial, "optimal_rtp_total_wagered": optimal.rtp_total_wagered,
            "ev_cost_of_chart": optimal.ev - stats.ev,
            "units": "initial bets per round", "rules": rules.as_dict()}
    rows = _up_rows(stats.ev_by_upcard, lambda s, ev: [f"{100 * ev:+.6f} %"])
    basic_marks = approx_mark(stats, f"   ({'SD' if stats.p_double_exact else 'SD and P(double)'} ", ")")
    text = "\n".join([
        f"Rules: {rules.summary()}",
        _play_line("", True),
        "",
        f"EV per initial bet          {100 * stats.ev:+.9f} %   (house edge {-100 * stats.ev:.9f} %)",
        f"RTP per initial bet         {100 * stats.rtp_initial:.9f} %   (1 + EV)",
        f"RTP per total wagered       {100 * stats.rtp_total_wagered:.9f} %   ((E[W] + EV) / E[W])",
        f"Expected total stake E[W]   {stats.expected_wager:.9f} initial bets",
        "",
        f"Optimal CD play (CDZ-)      EV {100 * optimal.ev:+.9f} %, RTP {100 * optimal.rtp_initial:.9f} % per "
        f"initial bet, {100 * optimal.rtp_total_wagered:.9f} % per total wagered",
        f"Cost of the chart           {100 * (optimal.ev - stats.ev):.9f} % of the initial bet",
        f"SD {stats.sd:.11f}   P(double) {stats.p_double:.6f}   P(split) {stats.p_split:.6f}{basic_marks}",
        "",
        EV_BY_UP_TITLE if stats.distribution_method != "independent" else EV_BY_UP_TITLE_APPROX,
        _table(rows, ["up", "EV"], first="left"),
    ])
    return text, data


def _rtp_exact(game: Game, split_strategy: str, result: RoundResult | None,
               stats: RoundStats) -> tuple[str, dict]:
    rules = game.rules
    ev = stats.ev if result is None else result.ev
    ev_by_up = stats.ev_by_upcard if result is None else result.ev_by_upcard
    ties = [] if result is None else result.ties
    p_up = {RANK_SYMBOLS[u]: Fraction(game.shoe[u], sum(game.shoe)) for u in game.upcards()}
    data = {
        "exact": True,
        "ev": exact_json(ev), "rtp_initial": exact_json(1 + ev), "house_edge": exact_json(-ev),
        "ev_by_upcard": exact_json(ev_by_up), "p_upcard": exact_json(p_up),
        **{k: exact_json(v) for k, v in stats_data(stats).items()
           if k not in ("ev", "rtp_initial", "strategy", "split_strategy", "sd", "skewness")},
        "sd": _irrational("sqrt(variance)", stats.sd),
        "skewness": _irrational("third_moment / variance^(3/2)", stats.skewness),
        "third_moment": exact_json(stats.third_moment),
        "strategy": stats.strategy,
        "split_strategy": split_strategy if result is not None else "table",
        "ties": ties,
        "tie_break": "stand, hit, double, split, surrender; insurance and even money only when strictly better",
        "units": UNITS,
        "json_scheme": JSON_SCHEME,
        "rules": rules.as_dict(),
    }
    dist_rows = [[net_text(x), fraction_text(p), decimal_text(p)] for x, p in sorted(stats.distribution.items())]
    mark = approx_mark(stats, "   (", ")")
    up_rows = _up_rows(ev_by_up, lambda s, ev: [fraction_text(p_up[s]), fraction_text(ev), decimal_text(ev)])
    tie_text = ("none: every decision has a unique best action" if not ties else
                "; ".join(f"{t['hand']} vs {t['up']} ({t['context']}): {' = '.join(t['actions'])}" for t in ties))
    text = "\n".join([
        f"Rules: {rules.summary()}",
        _play_line(split_strategy, result is None),
        "Exact rational mode: fractions in lowest terms, then the decimal rounded to 20 significant digits",
        "",
        _line("EV per initial bet", ev, True),
        _line("RTP per initial bet", 1 + ev, True),
        _line("RTP per total wagered", stats.rtp_total_wagered, True),
        _line("Expected total stake E[W]", stats.expected_wager),
        _line("P(double)", stats.p_double, mark="" if stats.p_double_exact else mark),
        _line("P(split)", stats.p_split),
        _line("P(insurance)", stats.p_insurance),
        _line("P(even money)", stats.p_even_money),
        _line("P(player blackjack)", stats.p_player_blackjack),
        _line("P(dealer blackjack)", stats.p_dealer_blackjack),
        _line("P(win) = hit frequency", stats.p_win, mark=mark),
        _line("P(push)", stats.p_push, mark=mark),
        _line("P(loss)", stats.p_loss, mark=mark),
        _line("Variance", stats.variance, mark=mark),
        f"{'SD = sqrt(variance)':<28}{format(_DEC20.plus(stats.sd), 'f')}{mark}",
        f"{'Skewness':<28}{format(_DEC20.plus(stats.skewness), 'f')}{mark}",
        "",
        dist_title(stats),
        _table(dist_rows, ["net", "probability", "decimal"]),
        "",
        EV_BY_UP_TITLE,
        _table(up_rows, ["up", "P(up)", "EV", "decimal"], first="left"),
        "",
        f"Exact ties (broken as stand, hit, double, split, surrender): {tie_text}",
    ])
    return text, data


# ----- bjev hand -----------------------------------------------------------------------
def hand_output(rules: Rules, removed: Sequence[int], faces: Sequence[str], up: int, split_strategy: str = "cdz",
                exact: bool = False) -> tuple[str, dict]:
    """``bjev hand``: every decision's EV (exact: as a fraction and its decimal)."""
    from ev.present.chart_render import ev_row
    result = Game(rules, removed, exact=exact).hand(faces, up, split_strategy)
    data = result.as_dict()
    values, marked = ev_row(result)          # a natural offered even money: declining it is what is compared
    actions = [a for a in HAND_ACTIONS[:5] + ("blackjack_declined",) + HAND_ACTIONS[5:] if values.get(a) is not None]
    label = {"blackjack_declined": "decline even money"}
    if exact:
        for key in ("stand", "hit", "double", "split", "surrender", "insurance", "even_money",
                    "blackjack_declined", "p_dealer_blackjack"):
            data[key] = exact_json(data[key])
        data["ties"] = result.ties
        data.update({"exact": True, "json_scheme": JSON_SCHEME, "rules": rules.as_dict()})
        rows = [[label.get(a, a), fraction_text(values[a]), decimal_text(values[a]), "yes" if a == marked else ""]
                for a in actions]
        table = tabulate(rows, headers=["action", "EV", "decimal", "best"], colalign=("left", "right", "right", "left"),
                         disable_numparse=True)
        p_bj = fraction_text(result.p_dealer_blackjack)
    else:
        data["rules"] = rules.as_dict()
        rows = [[label.get(a, a), f"{values[a]:+.9f}", "yes" if a == marked else ""] for a in actions]
        table = tabulate(rows, headers=["action", "EV", "best"], colalign=("left", "right", "left"),
                         disable_numparse=True)
        p_bj = f"{result.p_dealer_blackjack:.6f}"
    return table + "\n" + "\n".join(_hand_notes(result, split_strategy, p_bj, exact, rules)), data


def _hand_notes(result: HandResult, split_strategy: str, p_bj: str, exact: bool, rules: Rules) -> list[str]:
    up = RANK_SYMBOLS.index(result.up)
    if blackjack_rank(up) < 0:
        cond = f"no conditioning needed (the dealer cannot have blackjack under a {result.up})"
    elif result.conditioned:
        cond = "conditioned on no dealer blackjack (" + (
            "the dealer has checked)" if rules.peeks_under(up) else
            "the dealer does not check, and a blackjack found after play takes the original bet only, as a "
            "checked one would)")
    else:
        cond = ("unconditioned (the dealer does not check, and a blackjack found after play takes every wager on "
                "the player's hand)")
    notes = [f"Hand {result.hand} vs {result.up}: {'exact ' if exact else ''}EV in initial bets, {cond}."]
    if result.split is not None:
        notes.append(f"Split hands: {SPLIT_STRATEGY_NAMES[split_strategy]}.")
    if result.insurance is not None or result.even_money is not None:
        notes.append(f"Insurance / even money are decided before any check (unconditioned); the insurance row is "
                     f"the side bet's own EV (initial bets, its stake half a bet); P(dealer blackjack) = {p_bj}.")
    if result.even_money is not None:
        notes.append("Even money (+1) is compared with declining it, unconditioned: the payout times "
                     "P(no dealer blackjack); 'stand' is the blackjack's EV given no dealer blackjack.")
    if exact:
        notes += [f"Exact tie: {' = '.join(t['actions'])} (the first is taken)." for t in result.ties]
    return notes


# ----- bjev rules-effect ---------------------------------------------------------------
def rules_effect_output(rules: Rules, split_strategy: str = "cdz",
                        progress: Callable[[str], None] | None = None) -> tuple[str, dict]:
    """``bjev rules-effect``: the RTP under each reading of the peek rule and each one-rule change."""
    readings = rule_readings(rules, split_strategy, progress=progress)
    base, effects = rule_effects(rules, split_strategy, progress=progress)
    data = {
        "base": base.as_dict(),
        "readings": [v.as_dict(base) for v in readings],
        "effects": [v.as_dict(base) for v in effects],
        "split_strategy": split_strategy,
        "units": "ev and ev_change in initial bets per round; RTPs as fractions",
        "rules": rules.as_dict(),
    }
    left_out = effects_left_out(rules, split_strategy)
    data["effects_left_out"] = left_out
    seed = rules == Rules()          # the published 99.59 % is the seed game's: compared with for it only
    reading_rows = [[v.label, f"{100 * v.stats.ev:+.6f} %", f"{100 * v.stats.rtp_initial:.4f} %",
                     f"{100 * v.stats.rtp_total_wagered:.4f} %"]
                    + (["yes" if round(v.stats.rtp_total_wagered, 4) == PUBLISHED_RTP else "no"] if seed else [])
                    for v in readings]
    effect_rows = [[v.label, f"{100 * v.stats.ev:+.6f} %", f"{100 * (v.stats.ev - base.stats.ev):+.6f} %",
                    f"{100 * v.stats.rtp_initial:.4f} %", f"{100 * v.stats.rtp_total_wagered:.4f} %"]
                   for v in effects]
    text = "\n".join([
        f"Base game: {rules.summary()}; optimal CD play, split hands {SPLIT_STRATEGY_NAMES[split_strategy]}",
        f"EV {100 * base.stats.ev:+.6f} %, RTP per initial bet {100 * base.stats.rtp_initial:.4f} %, "
        f"per total wagered {100 * base.stats.rtp_total_wagered:.4f} %",
        "",
        "Readings of the peek rule, each applied to the base game (the seed rules only say the dealer checks under "
        "a ten)",
        tabulate(reading_rows, headers=["reading", "EV", "RTP/initial", "RTP/wagered"]
                 + (["gives 99.59 %"] if seed else []), disable_numparse=True),
        "",
        "One rule changed from the base game",
        tabulate(effect_rows, headers=["change", "EV", "EV change", "RTP/initial", "RTP/wagered"],
                 disable_numparse=True),
    ] + ([f"Left out: {', '.join(left_out)} (truly optimal split play with resplits takes minutes a table: not "
          "computed here)"]
         if left_out else []))
    return text, data
