"""Self-checks: figures the engine computes by two routes that must agree, each with a verdict.

The report's appendix "Self-checks" lists them; a failed check makes ``bjev report``
exit non-zero.  Every check is a :class:`Check` (plain data, ``as_dict`` for JSON):

* :func:`distribution_check`: the outcome distribution of a ``RoundStats`` sums to 1,
  has no negative probability, and its mean is the round's EV.
* :func:`exact_float_check`: the headline figures (EV, E[W], both RTPs) of the float
  engine equal the exact engine's to within 1e-12.
* :func:`removal_check`: the removal average.  A strategy ``P`` held fixed (the optimal
  strategy of the full shoe) is played from the shoe with its first card burnt unseen.
  An unseen card is as good as one left at the bottom of the shoe, so averaging over
  the burnt card gives the full-shoe EV again:
  ``EV(shoe; P) = sum_c n_c / n * EV(shoe - c; P)``.
  The identity holds only while ``P`` is a function of the cards the player sees:
  every table (unsplit play per up card, the fallback, split-hand play, insurance,
  even money) is the full shoe's.  Play optimised again on each reduced shoe knows
  the burnt card and breaks it; that is how the check tells an algorithm error from
  rounding.
* :func:`chain_check`, :func:`split_chain_check`: EVs that must not increase along a
  chain of strategies (optimal >= CDP >= CDP1 >= CDZ- ...), over the round or per up
  card and pair (:func:`split_values_by_strategy` collects the split EVs);
  :func:`split_order_check` is the per-pair chain where it is a theorem (pairs that make
  two hands at most).

Tolerances: an exact check compares ``Fraction``s for equality (tolerance 0); a float
check allows :data:`FLOAT_TOLERANCE`.  Units: initial bets.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import Any

from ev.analysis.accounting import RoundStats
from ev.analysis.game import Game
from ev.analysis.strategies import policy_figures, resplit_round
from ev.analysis.strategy import Policy, optimal_policy
from ev.core.actions import NO_ACTION, SPLIT_STRATEGIES, split_mode
from ev.core.arithmetic import Number
from ev.core.cards import N_RANKS, RANK_SYMBOLS, composition_of, subtract

#: a float figure may differ from its twin by this much (the float engine's rounding is about 1e-16)
FLOAT_TOLERANCE = 1e-12
#: how far a distribution's mean may lie from the EV when splits of three and four hands are scored
#: independently given the dealer's outcome (``ev.analysis.accounting``: measured 3e-8 to 2e-6 bets)
INDEPENDENT_TOLERANCE = 1e-5
ARITHMETICS = ("exact", "float")


@dataclass(frozen=True)
class Check:
    """One self-check: ``figure`` (initial bets unless the description says otherwise) against ``tolerance``.

    ``arithmetic``: "exact" (fractions compared for equality; ``tolerance`` 0) or "float".
    ``detail``: the figures behind ``figure``, JSON-ready.
    """

    key: str
    description: str
    figure: float
    tolerance: float
    passed: bool
    arithmetic: str
    detail: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def all_passed(checks: Iterable[Check]) -> bool:
    return all(check.passed for check in checks)


def _is_exact(*values: Any) -> bool:
    return all(isinstance(v, (Fraction, int)) for v in values)


def _gap(a: Any, b: Any) -> Any:
    """|a - b|, exactly when either is a fraction (a float is converted exactly)."""
    if isinstance(a, Fraction) or isinstance(b, Fraction):
        return abs(Fraction(a) - Fraction(b))
    return abs(a - b)


# ----- 1. the distribution ---------------------------------------------------------------------------
def distribution_check(stats: RoundStats, ev: Number) -> Check:
    """The outcome distribution of ``stats`` sums to 1, holds no negative probability, and its mean is ``ev``
    (the round's EV, ``game.round(split_strategy).ev``).  Figure: the larger deviation.

    Exact arithmetic: both equalities exactly.  Floats: within :data:`FLOAT_TOLERANCE`.  When the
    splits of three or four hands were scored independently (``stats.distribution_method``), the mean
    may lie up to :data:`INDEPENDENT_TOLERANCE` from the EV by construction; the sum is still checked
    to the arithmetic's tolerance.
    """
    A = stats.arithmetic
    exact = A.exact
    total = sum(stats.distribution.values(), A.zero)
    lowest = min(stats.distribution.values(), default=A.zero)
    sum_gap, mean_gap = _gap(total, 1), _gap(stats.mean, ev)
    sum_tolerance = 0.0 if exact else FLOAT_TOLERANCE
    independent = stats.distribution_method == "independent"
    mean_tolerance = INDEPENDENT_TOLERANCE if independent else sum_tolerance
    passed = lowest >= 0 and sum_gap <= sum_tolerance and mean_gap <= mean_tolerance
    description = "the outcome distribution sums to 1 and its mean is the EV"
    if independent:
        description += " (splits of three and four hands scored independently given the dealer's outcome)"
    return Check("distribution", description, float(max(sum_gap, mean_gap)), mean_tolerance, bool(passed),
                 A.name, {"sum_deviation": float(sum_gap), "mean_deviation": float(mean_gap),
                          "sum_tolerance": sum_tolerance, "lowest_probability": float(lowest),
                          "distribution_method": stats.distribution_method})


# ----- 2. exact equals float -------------------------------------------------------------------------
HEADLINE_FIGURES = ("ev", "expected_wager", "rtp_initial", "rtp_total_wagered")


def exact_float_check(float_stats: RoundStats, exact_stats: RoundStats, tolerance: float = FLOAT_TOLERANCE) -> Check:
    """The headline figures (EV per initial bet, E[W], RTP per initial bet and per total wagered) of the
    float engine equal the exact engine's within ``tolerance``.  Figure: the largest difference, computed
    exactly (each float taken at its exact binary value)."""
    if float_stats.arithmetic.exact or not exact_stats.arithmetic.exact:
        raise ValueError("exact_float_check compares a float RoundStats with an exact one, in that order")
    if float_stats.rules != exact_stats.rules or float_stats.split_strategy != exact_stats.split_strategy:
        raise ValueError("the two RoundStats are of different rules or split strategies")
    gaps = {name: _gap(getattr(float_stats, name), getattr(exact_stats, name)) for name in HEADLINE_FIGURES}
    worst = max(gaps.values())
    return Check("exact-equals-float", "the float engine's EV, E[W] and both RTPs equal the exact engine's",
                 float(worst), tolerance, bool(worst <= tolerance), "float",
                 {name: float(gap) for name, gap in gaps.items()})


# ----- 3. the removal average ------------------------------------------------------------------------
def on_hand_graph(policy: Policy, game: Game) -> Policy:
    """``policy`` with its tables indexed by ``game``'s hand graph, matched by hand composition.

    A hand the policy does not know (it cannot occur in the policy's shoe) gets no action.
    """
    hands = game.graph["hands"]
    if policy.hands is hands or policy.hands == hands:
        return policy
    index = {tuple(h): i for i, h in enumerate(policy.hands)}
    where = [index.get(tuple(h)) for h in hands]

    def remap(codes: bytes, missing: int) -> bytes:
        return bytes(codes[i] if i is not None else missing for i in where)

    return dataclasses.replace(
        policy, hands=hands,
        play={up: remap(t, NO_ACTION) for up, t in policy.play.items()},
        fallback={up: remap(t, NO_ACTION) for up, t in policy.fallback.items()},
        split_play={up: remap(t, NO_ACTION) for up, t in policy.split_play.items()},
        insurance=remap(policy.insurance, 0))


def fixed_split_value(game: Game, evaluator: Any, up: int, pair: int) -> Number:
    """Joint EV of splitting ``pair`` against ``up``, every hand made played by the evaluator's split
    table for that pair (resplits included): exact, by :func:`ev.analysis.splits.resplit_value`, for
    any post-split play that depends on the hand's own cards only (``strategies.resplit_round``)."""
    return resplit_round(game, evaluator, up, pair)[0]


def fixed_policy_ev(game: Game, policy: Policy) -> Number:
    """Exact EV (initial bets, in the game's arithmetic) of ``policy`` played on ``game``'s shoe.

    ``strategies.policy_figures``: the round without splits by the accounting, corrected deal by deal
    by the splits' EV (one split by exchangeability, resplits by the resplit formula: exact with
    resplits too, where ``round_stats`` may score the hands of three- and four-hand splits
    independently).
    """
    return policy_figures(game, on_hand_graph(policy, game)).ev


@dataclass
class RemovalAverage:
    """EV of one fixed strategy on the full shoe and on the shoe less one unseen card of each rank.

    ``ev_by_removed`` and ``weights`` are keyed by rank symbol ('A', '2', ..., 'T'); ``weights[c]``
    is n_c / n, the chance that the burnt card is a ``c``.
    """

    policy: str
    arithmetic: str
    ev: Number
    ev_by_removed: dict[str, Number]
    weights: dict[str, Number]
    average: Number

    @property
    def difference(self) -> Number:
        return self.average - self.ev


def removal_average(game: Game, policy: Policy | None = None) -> RemovalAverage:
    """EV(shoe; P) and sum_c n_c / n * EV(shoe - c; P) in ``game``'s arithmetic.

    ``policy`` (default: the optimal strategy of ``game``'s shoe, CDZ- after splits) is held
    fixed on every reduced shoe: its tables, matched by hand composition, are evaluated by
    :func:`fixed_policy_ev`; nothing is optimised again.
    """
    A, rules = game.arithmetic, game.rules
    policy = policy if policy is not None else optimal_policy(game)
    if policy.rules != rules:
        raise ValueError(f"the strategy {policy.name!r} is for other rules than the game's")
    missing = subtract(game.caps, game.shoe)
    n = sum(game.shoe)
    full = fixed_policy_ev(game, policy)
    by_removed: dict[str, Number] = {}
    weights: dict[str, Number] = {}
    average = A.zero
    for c in range(N_RANKS):
        if not game.shoe[c]:
            continue
        removed = [m + (r == c) for r, m in enumerate(missing)]
        reduced = Game(rules, removed, exact=game.exact)
        by_removed[RANK_SYMBOLS[c]] = value = fixed_policy_ev(reduced, policy)
        weights[RANK_SYMBOLS[c]] = weight = A.ratio(game.shoe[c], n)
        average += weight * value
    return RemovalAverage(policy.name, A.name, full, by_removed, weights, average)


def removal_arithmetic(game: Game) -> str:
    """The arithmetic :func:`removal_check` takes by default: the game's own.

    Measured on the shared 2-core machine (the full shoe and ten reduced shoes, the policy
    included): floats 0.7 s (one deck) to 0.9 s (eight), 1.0-1.8 s resplitting to four hands;
    exact 5.5 s (one deck) to 7.4 s (eight), 8 s resplitting on one deck and 15.5 s on eight.
    The exact cost hardly depends on the number of decks (the exact policy evaluator walks the
    hand graph once per up card and shoe), so no deck count makes it cheap next to the report's
    ~15 s: the report's float game gets the float check (``arithmetic="exact"`` asks for fractions).
    """
    return "exact" if game.exact else "float"


def removal_check(game: Game, policy: Policy | None = None, arithmetic: str = "auto") -> Check:
    """The removal average of :func:`removal_average` equals the full-shoe EV: exactly in exact
    arithmetic, within :data:`FLOAT_TOLERANCE` in floats.  Figure: |difference|.

    ``game``: the full shoe (either arithmetic); ``policy``: the strategy held fixed (default:
    the optimal strategy of ``game``, CDZ- after splits, derived in ``game``'s arithmetic);
    ``arithmetic``: "exact", "float" or "auto" (:func:`removal_arithmetic`).
    """
    if arithmetic == "auto":
        arithmetic = removal_arithmetic(game)
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be one of auto, {', '.join(ARITHMETICS)}, not {arithmetic!r}")
    if policy is None:
        policy = optimal_policy(game)
    if game.exact != (arithmetic == "exact"):
        game = Game(game.rules, subtract(game.caps, game.shoe), exact=arithmetic == "exact")
    result = removal_average(game, policy)
    gap = abs(result.difference)
    tolerance = 0.0 if game.exact else FLOAT_TOLERANCE
    return Check("removal-average",
                 "the EV of the full shoe's strategy held fixed, averaged over one card burnt unseen, "
                 "equals its full-shoe EV",
                 float(gap), tolerance, bool(gap <= tolerance), result.arithmetic,
                 {"policy": result.policy, "ev": float(result.ev), "average": float(result.average),
                  "ev_by_removed": {k: float(v) for k, v in result.ev_by_removed.items()}})


# ----- 4. strategy chains ----------------------------------------------------------------------------
def _chain_tolerance(values: Iterable[Any], tolerance: float | None) -> tuple[float, str]:
    exact = _is_exact(*values)
    if tolerance is None:
        tolerance = 0.0 if exact else FLOAT_TOLERANCE
    return tolerance, "exact" if exact else "float"


def chain_check(key: str, description: str, chain: Sequence[tuple[str, Number]],
                tolerance: float | None = None) -> Check:
    """Each EV of ``chain`` ((name, EV) pairs, in the order they must not increase) is at least the
    next one's, ties allowed, within ``tolerance`` (default 0 for fractions, :data:`FLOAT_TOLERANCE`
    otherwise).  Figure: the worst violation, the largest amount by which an EV exceeds the one
    before it (0 when none does)."""
    tolerance, kind = _chain_tolerance((v for _, v in chain), tolerance)
    worst: Any = 0
    where = None
    for (name_a, a), (name_b, b) in pairwise(chain):
        excess = b - a
        if excess > worst:
            worst, where = excess, [name_a, name_b]
    return Check(key, description, float(worst), tolerance, bool(worst <= tolerance), kind,
                 {"order": [name for name, _ in chain], "worst_pair": where})


def split_chain_check(key: str, description: str, chain: Sequence[tuple[str, Mapping[Any, Number]]],
                      tolerance: float | None = None) -> Check:
    """:func:`chain_check` for every key at once: ``chain`` is (name, {key: EV}) pairs in the order the
    EVs must not increase, e.g. {(up, pair): split EV} per split strategy (every mapping with the same
    keys).  Figure: the worst violation over every key."""
    if not chain:
        raise ValueError("an empty chain")
    keys = list(chain[0][1])
    for name, values in chain[1:]:
        if set(values) != set(keys):
            raise ValueError(f"the values of {name!r} are not for the same keys as those of {chain[0][0]!r}")
    tolerance, kind = _chain_tolerance((v for _, values in chain for v in values.values()), tolerance)
    worst: Any = 0
    where = None
    for k in keys:
        for (name_a, a), (name_b, b) in pairwise(chain):
            excess = b[k] - a[k]
            if excess > worst:
                worst, where = excess, {"key": list(k) if isinstance(k, tuple) else k, "pair": [name_a, name_b]}
    return Check(key, description, float(worst), tolerance, bool(worst <= tolerance), kind,
                 {"order": [name for name, _ in chain], "keys": len(keys), "worst": where})


def split_values_by_strategy(game: Game, strategies: Sequence[str] = SPLIT_STRATEGIES,
                             pairs: Iterable[int] | None = None) -> dict[str, dict[tuple[str, str], Number]]:
    """{strategy: {(up, pair): joint EV of splitting}} for every up card and pair the shoe allows.

    Up cards and pairs are rank symbols ('A', '2', ..., 'T'); ``pairs``: the pair ranks to value
    (default: all).  Values are ``Game.split_value``: joint (when a dealer blackjack is settled
    before play, E[result; no dealer blackjack]), summed over every hand the split makes, in the
    game's arithmetic.  Truly optimal split play ("optimal") is for pairs that make two hands at
    most (``EngineError`` otherwise).  After ``round_stats(game, "optimal")`` (the report's strategy
    table) every value is at hand already.
    """
    out: dict[str, dict[tuple[str, str], Number]] = {s: {} for s in strategies}
    if not game.rules.may_split:
        return out
    wanted = range(N_RANKS) if pairs is None else sorted(set(pairs))
    for up in game.upcards():
        solver = game.solver(up)
        base = subtract(game.shoe, composition_of([up]))
        for pair in wanted:
            if base[pair] < 2:
                continue
            for s in strategies:
                out[s][RANK_SYMBOLS[up], RANK_SYMBOLS[pair]] = game.split_value(solver, pair, split_mode(s))
    return out


#: split strategies in the order their split EVs cannot increase, for a pair that makes two hands at most:
#: each optimises over the plays of the next (CDP equals CDP1 with one split)
SPLIT_ORDER = ("optimal", "cdp", "cdp1", "cdz")


def split_order_check(game: Game, tolerance: float | None = None) -> Check:
    """Per up card and pair, truly optimal >= CDP >= CDP1 >= CDZ- split EVs (:func:`split_chain_check`).

    A theorem only for pairs that make two hands at most, which are the pairs checked.  With
    resplits CDP decides each hand for the deck less the pair cards it knows of, but the hands
    before it took second cards known not to be pair cards, so that deck is not the hand's and CDP
    need not beat CDP1 (one deck resplitting to four hands, T-T against an ace: CDP1 is 6.6e-6
    bets better); such pairs are left out and listed in ``detail["pairs_left_out"]``.
    """
    rules = game.rules
    one_split = [p for p in range(N_RANKS) if rules.split_hands(p) == 2]
    values = split_values_by_strategy(game, SPLIT_ORDER, one_split)
    if tolerance is None and not values["cdz"]:
        tolerance = 0.0 if game.exact else FLOAT_TOLERANCE
    check = split_chain_check("split-order", "per up card and pair, the split EVs fall from truly optimal "
                              "to CDP, CDP1 and CDZ- split play", [(s, values[s]) for s in SPLIT_ORDER],
                              tolerance)
    left_out = [RANK_SYMBOLS[p] for p in range(N_RANKS) if rules.split_hands(p) > 2]
    return dataclasses.replace(check, arithmetic=game.arithmetic.name,
                               detail={**check.detail, "pairs_left_out": left_out})


__all__ = [
    "FLOAT_TOLERANCE",
    "HEADLINE_FIGURES",
    "INDEPENDENT_TOLERANCE",
    "SPLIT_ORDER",
    "Check",
    "RemovalAverage",
    "all_passed",
    "chain_check",
    "distribution_check",
    "exact_float_check",
    "fixed_policy_ev",
    "fixed_split_value",
    "on_hand_graph",
    "removal_arithmetic",
    "removal_average",
    "removal_check",
    "split_chain_check",
    "split_order_check",
    "split_values_by_strategy",
]
