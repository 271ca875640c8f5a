"""Truly optimal split play with resplits, the pure-Python reference (``ev.reference.optimal_resplit``).

Two independent methods must agree exactly: a brute-force search whose dealer draws once, after every hand,
against all of them (``optimal_resplit_search``), and the search by exchangeability that values each hand
against the dealer when it finishes (``optimal_resplit_value``).  With one split both are the one-split
search ``optimal_split_search``; every fixed split strategy (CDZ-, CDP1, CDP, which resplit whenever they may)
is a legal play, so it lies between the worst and the best play; a tiny case is worked out by hand.

The shoes are small (16 to 20 cards, up card included) and chosen so that neither the player nor the dealer
can run out of cards.
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from ev.core.cards import ACE, TEN
from ev.core.rules import Rules
from ev.reference.exhaustive import optimal_split_search, split_value_exhaustive
from ev.reference.optimal_resplit import ExchangeableResplit, optimal_resplit_search, optimal_resplit_value
from ev.reference.values import Player, split_contexts, split_value

#: one xdist worker for the file: the searches below are made once (``searched``) and reused by several tests
GROUP = pytest.mark.xdist_group("optimal-resplit-reference")

#: (shoe with the up card, up card, pair, rule changes): ranks A 2 3 4 5 6 7 8 9 T
CASES = {
    "AA-T one card, resplit aces, 4 hands, peek T":
        ((4, 0, 1, 1, 1, 1, 1, 2, 1, 8), 9, ACE, dict(max_split_hands=4, resplit_aces=True)),
    "AA-6 hit aces, resplit aces, DAS any, 3 hands":
        ((4, 0, 0, 1, 1, 1, 0, 1, 1, 9), 5, ACE,
         dict(max_split_hands=3, resplit_aces=True, split_aces_one_card=False, double_after_split=True,
              double="any")),
    "88-T DAS, H17, 4 hands, peek T":
        ((1, 0, 1, 0, 1, 1, 0, 4, 1, 8), 9, 7, dict(max_split_hands=4, double_after_split=True)),
    "88-A S17, 3 hands, unchecked blackjack takes the original bet":
        ((2, 0, 1, 0, 1, 1, 0, 4, 1, 7), 0, 7, dict(max_split_hands=3, hit_soft_17=False)),
    "88-A no hole card, blackjack takes all, 3 hands":
        ((2, 0, 1, 0, 1, 1, 0, 4, 1, 7), 0, 7, dict(max_split_hands=3, peek="none", unchecked_blackjack_takes="all")),
    "99-6 S17, no DAS, 3 hands":
        ((1, 0, 1, 1, 0, 3, 0, 1, 4, 7), 5, 8, dict(max_split_hands=3, hit_soft_17=False)),
    "TT-9 by value, DAS 9-11, 3 hands":
        ((1, 0, 1, 1, 1, 1, 0, 1, 2, 8), 8, TEN, dict(max_split_hands=3, double="9-11", double_after_split=True)),
    "55-6 DAS, 3 hands":
        ((1, 0, 0, 1, 4, 1, 0, 1, 2, 8), 5, 4, dict(max_split_hands=3, double_after_split=True)),
    "55-T DAS 9-11, S17, 4 hands, peek A/T":
        ((1, 0, 0, 0, 4, 1, 0, 1, 2, 8), 9, 4,
         dict(max_split_hands=4, double_after_split=True, double="9-11", hit_soft_17=False, peek="ace_ten")),
    "77-7 no hole card, DAS, 4 hands":
        ((1, 0, 0, 1, 1, 0, 4, 0, 1, 8), 6, 6,
         dict(max_split_hands=4, peek="none", unchecked_blackjack_takes="all", double_after_split=True)),
    "22-6 DAS any, hard only, 4 hands":
        ((1, 3, 0, 1, 0, 1, 1, 1, 1, 9), 5, 1,
         dict(max_split_hands=4, double="any", double_after_split=True, double_soft=False)),
}
#: cases whose fixed split strategies cannot be valued here: split_value also values plays no strategy makes
#: (hitting every hand on), and on this shoe those run the dealer out of cards
NO_FIXED_STRATEGIES = {"22-6 DAS any, hard only, 4 hands"}


def setup(name: str) -> tuple[tuple, int, Rules, int]:
    """(base, up, rules, pair) of a case: the base is the shoe less the up card."""
    shoe, up, pair, changes = CASES[name]
    return tuple(c - (r == up) for r, c in enumerate(shoe)), up, Rules(**changes), pair


@cache
def searched(name: str, worst: bool) -> tuple[Fraction, Fraction]:
    """The brute-force search's and the exchangeable search's value of a case."""
    base, up, rules, pair = setup(name)
    return (optimal_resplit_search(base, up, rules, pair, worst),
            optimal_resplit_value(base, up, rules, pair, worst))


@GROUP
@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.quick_cases(1)
def test_brute_force_equals_exchangeable_search(name):
    """Both methods give the same fraction, playing best and playing worst; resplitting can matter (the best
    play is above the worst)."""
    rules, pair = setup(name)[2:]
    assert rules.split_hands(pair) > 2
    best, worst = searched(name, False), searched(name, True)
    assert best[0] == best[1]
    assert worst[0] == worst[1]
    assert worst[0] < best[0]
    # the values are joint EVs of every hand: they lie within the most the hands can win or lose
    most = 2 * rules.split_hands(pair)
    assert -most <= worst[0] and best[0] <= most


@GROUP
@pytest.mark.parametrize("name", [n for n in CASES if n not in NO_FIXED_STRATEGIES])
@pytest.mark.quick_cases(1)          # the cases of the search test's quick loop: their searches are made once
def test_fixed_strategies_lie_between_worst_and_best(name):
    """worst <= CDZ- <= CDP1 <= CDP <= best: split_value (joint units, summed over every hand the split makes,
    as both searches) values strategies that resplit whenever they may, which are legal plays.

    The middle of the chain is not a theorem with resplits (see the next test); it holds on these cases."""
    base, up, rules, pair = setup(name)
    unsplit = Player(base, up, rules)
    cdz, cdp1, cdp = (split_value(base, up, rules, pair, s, unsplit) for s in ("cdz", "cdp1", "cdp"))
    best, worst = searched(name, False)[0], searched(name, True)[0]
    assert worst <= cdz <= cdp1 <= cdp <= best


@pytest.mark.slow
def test_cdp_can_fall_below_cdp1_with_resplits():
    """With resplits CDP is not always at least CDP1: 8-8 against an ace (peek A/T, S17, 3 hands), the two
    differ only at 8-5 played when three hands exist, which CDP stands (best for the deck less exactly three
    eights) and CDP1 hits.  But a hand played after another is not dealt from that deck: the earlier hand's
    second card, when no resplit followed it, is known not to be an eight, and hitting 13 is better there.
    Both values are the table-order dealing's (split_value_exhaustive); both lie between worst and best."""
    base = (1, 0, 1, 0, 1, 1, 1, 4, 1, 7)          # the shoe less the up card, an ace
    up, pair = ACE, 7
    rules = Rules(max_split_hands=3, peek="ace_ten", hit_soft_17=False)
    unsplit = Player(base, up, rules)
    values = {s: split_value(base, up, rules, pair, s, unsplit) for s in ("cdz", "cdp1", "cdp")}
    for s, value in values.items():
        assert value == split_value_exhaustive(base, up, rules, pair, s, unsplit)
    assert values["cdz"] == values["cdp1"] == Fraction(-6595471, 32432400)
    assert values["cdp"] == Fraction(-2199349, 10810800) < values["cdp1"]
    contexts = split_contexts(base, up, rules, pair, "cdp", unsplit)
    eight_five = tuple((r == 7) + (r == 4) for r in range(10))
    assert contexts(1).decide(eight_five) == "hit" and contexts(2).decide(eight_five) == "stand"
    assert optimal_resplit_value(base, up, rules, pair, worst=True) < values["cdp"]
    assert values["cdp1"] < optimal_resplit_value(base, up, rules, pair)


@GROUP
@pytest.mark.parametrize("name, changes", [
    ("88-T DAS, H17, 4 hands, peek T", dict(max_split_hands=2)),
    ("TT-9 by value, DAS 9-11, 3 hands", dict(max_split_hands=2)),
    ("55-6 DAS, 3 hands", dict(max_split_hands=2)),
    ("AA-T one card, resplit aces, 4 hands, peek T", dict(resplit_aces=False)),   # 4 hands, but aces split once
    ("88-A no hole card, blackjack takes all, 3 hands", dict(max_split_hands=2)),
])
@pytest.mark.quick_cases(1)
def test_one_split_is_the_one_split_search(name, changes):
    """With two hands at most both methods are ``optimal_split_search``, best and worst."""
    base, up, rules, pair = setup(name)
    rules = rules.replace(**changes)
    assert rules.split_hands(pair) == 2
    for worst in (False, True):
        expected = optimal_split_search(base, up, rules, pair, worst)[0]
        assert optimal_resplit_search(base, up, rules, pair, worst) == expected
        assert optimal_resplit_value(base, up, rules, pair, worst) == expected


@GROUP
@pytest.mark.slow
def test_more_hands_only_add_choices():
    """Resplitting is optional: allowing more hands never lowers the best play nor raises the worst.  On 8-8
    against a ten the best play never resplits (the value of one split, above CDP, which resplits whenever it
    may), while the worst play gets worse with each hand allowed; on 7-7 against a 7 the best play gains from
    a third hand (the shoe holds no fourth seven)."""
    def value(name: str, most: int, worst: bool) -> Fraction:
        base, up, rules, pair = setup(name)
        return ExchangeableResplit(base, up, rules.replace(max_split_hands=most), pair, worst).value()

    eights = "88-T DAS, H17, 4 hands, peek T"
    best = [value(eights, most, False) for most in (2, 3)] + [searched(eights, False)[0]]
    worst = [value(eights, most, True) for most in (2, 3)] + [searched(eights, True)[0]]
    assert best[0] == best[1] == best[2] == Fraction(-15447, 20020)
    base, up, rules, pair = setup(eights)
    assert split_value(base, up, rules, pair, "cdp", Player(base, up, rules)) < best[2]
    assert worst[0] > worst[1] > worst[2]
    sevens = "77-7 no hole card, DAS, 4 hands"
    assert value(sevens, 2, False) < value(sevens, 3, False) == searched(sevens, False)[0]
    assert value(sevens, 2, True) > value(sevens, 3, True) == searched(sevens, True)[0]


def test_a_case_worked_by_hand():
    """A-A against a 9 (one card to split aces, resplit to 3 hands), the deck after the pair holding one ace
    and four tens; the dealer draws one card (9-T 19, 9-A 20) and stands.

    Best (always resplit): the first hand draws a ten (4/5): 21; the second hand draws a ten (3/4): +2, or
    the ace (1/4), resplit, and the two hands draw tens: +3 (keeping A-A, a soft 12 losing to 19: 0).  The
    first hand draws the ace (1/5): resplit, three tens, +3 (keeping: 12 and 21 against 19, 0).
    best = 4/5 (3/4 x 2 + 1/4 x 3) + 1/5 x 3 = 12/5; worst (never resplit) = 4/5 x 3/4 x 2 = 6/5, which is
    also the value with one split (no choice left: the ace pair stands on 12)."""
    base = (3, 0, 0, 0, 0, 0, 0, 0, 0, 4)        # A A + one ace and four tens; the up card is a nine
    up, pair = 8, ACE
    rules = Rules(max_split_hands=3, resplit_aces=True)
    for method in (optimal_resplit_search, optimal_resplit_value):
        assert method(base, up, rules, pair) == Fraction(12, 5)
        assert method(base, up, rules, pair, worst=True) == Fraction(6, 5)
        assert method(base, up, Rules(), pair) == Fraction(6, 5)
    assert optimal_split_search(base, up, Rules(), pair)[0] == Fraction(6, 5)
    assert split_value(base, up, rules, pair, "cdz", Player(base, up, rules)) == Fraction(12, 5)


@GROUP
@pytest.mark.slow
def test_floats_follow_the_exact_search():
    """The exchangeable search in floats gives the exact value to 1e-12 and memoises the same states."""
    base, up, rules, pair = setup("88-T DAS, H17, 4 hands, peek T")
    exact, floats = (ExchangeableResplit(base, up, rules, pair, exact=e) for e in (True, False))
    value, approx = exact.value(), floats.value()
    assert isinstance(approx, float) and abs(approx - float(value)) < 1e-12
    assert value == searched("88-T DAS, H17, 4 hands, peek T", False)[0]
    assert exact.states == floats.states > 0 and exact.hand_nodes == floats.hand_nodes > 0


@pytest.mark.parametrize("method", [optimal_resplit_search, optimal_resplit_value])
def test_what_cannot_be_searched(method):
    """Tens split by rank with resplits, a deck without the pair, no split allowed, and a deck that runs out
    (for a hand that draws, or for the dealer after every hand) raise ValueError, in both methods alike."""
    base = (1, 0, 1, 1, 1, 1, 0, 1, 2, 8)
    with pytest.raises(ValueError, match="by rank"):
        method(base, 8, Rules(max_split_hands=3, split_tens="rank"), TEN)
    assert method(base, 8, Rules(split_tens="rank"), TEN) == method(base, 8, Rules(), TEN)   # one split: alike
    with pytest.raises(ValueError, match="does not hold the pair"):
        method(base, 8, Rules(max_split_hands=3), 1)
    with pytest.raises(ValueError, match="do not allow a split"):
        method(base, 8, Rules(max_split_hands=1), TEN)
    with pytest.raises(ValueError, match="split hand was drawing"):
        method((0, 3, 0, 0, 0, 0, 0, 0, 0, 0), TEN, Rules(max_split_hands=3), 1, worst=True)
    with pytest.raises(ValueError, match="dealer was drawing"):
        method((0, 0, 0, 0, 0, 0, 0, 2, 0, 2), 1, Rules(max_split_hands=3), 7)
