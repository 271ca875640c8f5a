"""The RTP as an exact function of the blackjack payout (sympy), and the payout that gives a target RTP.

For a fixed strategy the round's EV is linear in the blackjack payout ``b``:
only a player natural against a dealer without one is paid ``b``, and no
other decision's value depends on ``b``.  The optimal strategy itself depends
on ``b`` in one place, even money (take it when ``1 > b P(no dealer
blackjack)``); so the optimal EV is linear in ``b`` on the interval where that
decision stays the same, and :class:`PayoutFormula` gives that interval.  The
expected total stake E[W] does not depend on ``b`` within it.

Units: EVs in initial bets; RTPs as fractions (0.9959 is 99.59 %).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from ev.analysis.accounting import Figures, RoundStats, round_stats
from ev.analysis.game import Game, RoundResult
from ev.core.cards import ACE, RANK_SYMBOLS, TEN
from ev.core.rules import Rules
from ev.errors import EngineError

#: the symbol of the blackjack payout in every formula (b = 3/2 for 3:2)
B = sympy.Symbol("b", positive=True)


@dataclass(frozen=True)
class PayoutFormula:
    """The exact EV, E[W] and both RTPs of optimal play as functions of the blackjack payout ``b``.

    The formulas hold for ``low <= b < high`` (``high`` None: no upper end),
    where optimal play, even money included, is the same as at ``payout``.
    (At ``b`` equal to the even-money threshold the two choices are worth the
    same and even money is declined: it is taken only when strictly better.)
    """

    rules: Rules
    split_strategy: str
    payout: Fraction            # the rule set's payout, where the strategy was derived
    ev: sympy.Expr              # EV per initial bet, linear in b
    expected_wager: Fraction    # E[W], the same for every b in the range
    low: Fraction
    high: Fraction | None
    even_money_taken: bool      # at ``payout``; the decision that bounds the range

    @property
    def rtp_initial(self) -> sympy.Expr:
        return sympy.expand(1 + self.ev)

    @property
    def rtp_total_wagered(self) -> sympy.Expr:
        w = sympy.Rational(self.expected_wager.numerator, self.expected_wager.denominator)
        return sympy.expand((w + self.ev) / w)

    def root(self, target: Fraction, convention: str = "total_wagered") -> Fraction | None:
        """The payout ``b`` at which the formula for the RTP (``convention``: "total_wagered" or "initial")
        equals ``target``, whether or not ``b`` lies in the range where the formula holds; None when no payout
        above 0 gives it (the target lies below the RTP of a blackjack that pays nothing)."""
        rtp = self.rtp_total_wagered if convention == "total_wagered" else self.rtp_initial
        roots = sympy.solve(sympy.Eq(rtp, sympy.Rational(target.numerator, target.denominator)), B)
        if not roots:
            return None
        (root,) = roots
        return Fraction(int(root.p), int(root.q))

    def at_zero(self, convention: str = "total_wagered") -> Fraction:
        """The RTP (``convention``) the formula gives for a payout of 0, the least any payout gives."""
        rtp = self.rtp_total_wagered if convention == "total_wagered" else self.rtp_initial
        value = sympy.Rational(rtp.subs(B, 0))
        return Fraction(int(value.p), int(value.q))

    def holds_at(self, b: Fraction) -> bool:
        """Is optimal play at payout ``b`` the same as at ``payout`` (so the formulas hold there)?"""
        return self.low <= b and (self.high is None or b < self.high)

    def range_text(self) -> str:
        """'from 49/34 to any', 'from 0 to 49/34': the payouts where the formulas hold."""
        return f"from {self.low} to {self.high if self.high is not None else 'any'}"

    def solve(self, target: Fraction, convention: str = "total_wagered") -> Fraction:
        """The payout ``b`` at which the RTP (``convention``: "total_wagered" or "initial") equals ``target``.

        Raises EngineError when that ``b`` lies outside the range where the formula holds."""
        b = self.root(target, convention)
        if b is None:
            raise EngineError(no_payout_text(self, target, convention))
        if not self.holds_at(b):
            raise EngineError(f"a payout of {b} would change the optimal strategy (even money); the formula holds "
                              f"for payouts {self.range_text()}")
        return b


def no_payout_text(formula: PayoutFormula, target: Fraction, convention: str = "total_wagered") -> str:
    """Why no payout reaches ``target``: a blackjack paying nothing already returns more."""
    floor = formula.at_zero(convention)
    return (f"no blackjack payout reaches an RTP of {float(target) * 100:.4g} % ({convention.replace('_', ' ')}): "
            f"even a blackjack that pays nothing returns {float(floor) * 100:.4f} %")


def payout_formula(rules: Rules | None = None, split_strategy: str = "cdz") -> PayoutFormula:
    """The EV and both RTPs of optimal play as exact functions of the blackjack payout (see the module)."""
    game = Game(rules, exact=True)
    return formula_of(game.round(split_strategy), round_stats(game, split_strategy))


def formula_of(result: RoundResult, stats: RoundStats | Figures) -> PayoutFormula:
    """:func:`payout_formula` from an exact round and its exact accounting (the same rules), already computed:
    only its E[W] is read (``stats`` may be the :class:`~ev.analysis.accounting.Figures` of
    ``ev.analysis.strategies.split_strategy_figures``)."""
    rules = result.rules
    payout = rules.payout
    paid = Fraction(0)          # P(a natural is paid the payout): not even money, no dealer blackjack
    threshold = None            # the payout above which even money is declined
    taken = False
    for deal in result.deals:
        if set(deal.cards) != {ACE, TEN}:
            continue
        weight = result.p_upcard[RANK_SYMBOLS[deal.up]] * deal.probability
        if deal.up == ACE and rules.even_money:
            threshold = 1 / (1 - deal.p_dealer_blackjack)
            taken = deal.take_insurance
        if not deal.take_insurance:
            paid += weight * (1 - deal.p_dealer_blackjack)
    fixed = result.ev - paid * payout
    ev = sympy.Rational(fixed.numerator, fixed.denominator) + sympy.Rational(paid.numerator, paid.denominator) * B
    if threshold is None:
        low, high = Fraction(0), None
    else:
        low, high = (Fraction(0), threshold) if taken else (threshold, None)
    return PayoutFormula(rules, result.split_strategy, payout, ev, stats.expected_wager, low, high, taken)
