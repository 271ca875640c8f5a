"""The RTP as an exact function of the blackjack payout (ev.analysis.payout, sympy)."""
from fractions import Fraction

import pytest
import sympy

from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.analysis.payout import B, payout_formula
from ev.core.rules import Rules
from ev.errors import EngineError

pytestmark = pytest.mark.slow   # exact rounds and accounting of full decks, several seconds each

# one deck, an ace up and A-T in hand: 15 tens in 49 cards, so even money pays when 1 > b * 34/49
THRESHOLD = Fraction(49, 34)


def exact_ev(payout: str) -> Fraction:
    return Game(Rules(blackjack_payout=payout), exact=True).round("cdz").ev


@pytest.fixture(scope="module")
def formula():
    return payout_formula(Rules())


def test_formula_is_the_engine_at_its_payout(formula):
    assert formula.ev.subs(B, sympy.Rational(3, 2)) == sympy.Rational(*exact_ev("3:2").as_integer_ratio())
    stats = round_stats(Game(exact=True), "cdz")
    assert formula.expected_wager == stats.expected_wager
    rtp = formula.rtp_total_wagered.subs(B, sympy.Rational(3, 2))
    assert Fraction(int(rtp.p), int(rtp.q)) == stats.rtp_total_wagered
    assert (formula.low, formula.high, formula.even_money_taken) == (THRESHOLD, None, False)


def test_range_where_even_money_is_taken():
    """At 6:5 even money is taken; the formula then holds below the threshold, e.g. at 1:1."""
    f = payout_formula(Rules(blackjack_payout="6:5"))
    assert (f.low, f.high, f.even_money_taken) == (0, THRESHOLD, True)
    assert f.ev.subs(B, 1) == sympy.Rational(*exact_ev("1:1").as_integer_ratio())


def test_solve_for_a_target_rtp(formula):
    stats = round_stats(Game(exact=True), "cdz")
    assert formula.solve(stats.rtp_total_wagered) == Fraction(3, 2)
    assert formula.solve(1 + exact_ev("3:2"), "initial") == Fraction(3, 2)
    with pytest.raises(EngineError, match="even money"):
        formula.solve(Fraction(95, 100))       # would need a payout below the threshold
