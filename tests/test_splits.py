"""Split values: the one-split formula is exact, the resplit approximation is close."""
from __future__ import annotations

from fractions import Fraction

import pytest

from ev import reference as ref
from ev.analysis.game import Game
from ev.core.cards import N_RANKS, RANK_SYMBOLS
from ev.core.rules import Rules

# a small deck (after the up card) so that exhaustive dealing stays quick
DECK = (1, 2, 2, 1, 2, 2, 2, 3, 1, 6)
ACES_DECK = (3, 2, 1, 1, 2, 1, 2, 2, 1, 6)


@pytest.mark.parametrize("deck, up, pair, strategy, das", [
    (DECK, 5, 7, "cdz", False), pytest.param(DECK, 9, 2, "cdp", True, marks=pytest.mark.slow),
    (ACES_DECK, 0, 0, "cdz", False), pytest.param(ACES_DECK, 9, 0, "cdp1", True, marks=pytest.mark.slow)])
def test_one_split_formula_is_exact(deck, up, pair, strategy, das):
    """2 V equals dealing every card in table order (hole card first), as exact fractions."""
    rules = Rules(double="any", double_after_split=das, split_aces_one_card=(up == 0))
    unsplit = ref.Player(deck, up, rules)
    formula = ref.split_value(deck, up, rules, pair, strategy, unsplit)
    exhaustive = ref.split_value_exhaustive(deck, up, rules, pair, strategy, unsplit)
    assert isinstance(formula, Fraction) and formula == exhaustive


@pytest.mark.slow
@pytest.mark.parametrize("hands", [3, 4])
def test_resplit_approximation_is_close(hands):
    """Resplits track only the pair cards: on this 23-card deck the error stays under 0.002 bets."""
    rules = Rules(double="any", max_split_hands=hands, double_after_split=True)
    unsplit = ref.Player(DECK, 5, rules)
    approx = ref.split_value(DECK, 5, rules, 7, "cdz", unsplit)
    exact = ref.split_value_exhaustive(DECK, 5, rules, 7, "cdz", unsplit)
    assert approx != exact            # it is an approximation ...
    assert abs(approx - exact) < Fraction(2, 1000)   # ... and a close one


def test_more_hands_never_hurt_a_good_split():
    """Allowing resplits adds options: the 8-8 split vs 6 is worth at least as much with 4 hands."""
    values = [Game(Rules(max_split_hands=h)).hand(["8", "8"], 5).split for h in (2, 3, 4)]
    assert values[0] <= values[1] <= values[2]


def test_split_strategies_are_ordered():
    """CDP >= CDP1 >= CDZ- on every pair: each is the previous with more information used."""
    game = Game(Rules(max_split_hands=4, double_after_split=True))
    for up in range(N_RANKS):
        for pair in range(N_RANKS):
            faces = [RANK_SYMBOLS[pair]] * 2
            cdz, cdp1, cdp = (game.hand(faces, up, s).split for s in ("cdz", "cdp1", "cdp"))
            assert cdz <= cdp1 + 1e-12 and cdp1 <= cdp + 1e-12, (up, pair)
