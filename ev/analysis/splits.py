"""Splits with resplits: the hands a pair can make, as a value and as the pieces of a distribution.

:func:`resplit_value` is written once for both arithmetics (``ratio(a, b)``
makes a/b: float division, or ``Fraction`` in the exact mode) and is exact for
any fixed post-split strategy.  :func:`split_configurations` and
:func:`type_sets` describe the split round to the evaluators'
``split_round``, which computes its exact outcome distribution.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from math import perm as falling  # n (n-1) ... (n-k+1): 1 for k = 0, 0 for k > n
from operator import truediv
from typing import Any

from ev.core.cards import HAND_TYPES, hand_result


@cache
def second_card_words(n: int, p: int, most: int) -> list[tuple[int, int, tuple[int, ...], int]]:
    """Every outcome of the second-card process of a split, as (#P, #N, contexts of the N-hands, #X).

    Two hands wait for a second card, dealt in table order from the ``n``
    cards left after both pair cards, ``p`` of them able to resplit.  Each
    card is a P (a resplit card while fewer than ``most`` hands exist: one
    more hand, the current hand draws again) or an N (any other card: the
    hand is complete).  Once ``most`` hands exist the hands still waiting take
    any second card: X-hands.  An N-hand's context is the number of hands when
    it completed (2 + the P's before it); every X-hand's is ``most``.  A word's
    probability is ff(p, #P) ff(n - p, #N) / ff(n, #P + #N).  Made once per (n, p, most): callers must
    not change it.
    """
    out: list[tuple[int, int, tuple[int, ...], int]] = []

    def grow(hands: int, waiting: int, n_p: int, n_n: int, contexts: tuple[int, ...]) -> None:
        if waiting == 0 or hands >= most:
            out.append((n_p, n_n, contexts, waiting))
            return
        if n_p < p:
            grow(hands + 1, waiting + 1, n_p + 1, n_n, contexts)
        if n_n < n - p:
            grow(hands, waiting - 1, n_p, n_n + 1, contexts + (hands,))

    grow(2, 2, 0, 0, ())
    return out


def resplit_value(deck: Sequence[int], pair: int, most: int, resplit_cards: int,
                  hand_values: Callable[[int, int], list], ratio: Callable[[int, int], Any] = truediv) -> Any:
    """Total joint EV of all hands made by splitting a pair of rank ``pair``, exactly, for a fixed
    post-split strategy (each hand's play depends on its own cards and its context only).

    ``deck``: the unseen deck before the player's cards (it holds the pair);
    ``most``: the most hands this pair may make (2: one split); ``resplit_cards``:
    how many of the cards left after both pair cards can resplit (the pair
    rank's count, or for tens split by rank the cards of the pair's face);
    ``hand_values(a, k)``: for each second card c, the joint value of the split
    hand {pair, c} dealt from the deck less both pair cards, ``a`` more pair
    cards and c, played by the decisions of context k (k hands known; see
    ``ev.core.arithmetic``); ``ratio(a, b)`` makes a/b in the arithmetic.

    The method (see docs/how-it-works.md, "Splits"): by exchangeability the second-card
    process can be dealt first (:func:`second_card_words`); given its word a
    hand is worth its value on the deck less the resplit cards and its own
    second card, with the other hands' second cards, unseen but known not to
    resplit, removed by inclusion-exclusion:
    ff(Q, b) h(a, b) = sum_i (-1)^i C(b, i) ff(P, i) ff(m - i, b - i) g(a + i).
    So the EV is a fixed linear combination of the values g(N or X, k, a) of one
    hand whose second card is any card (X) or one that does not resplit (N),
    whose coefficients depend on the deck's size only (:func:`resplit_terms`,
    made once per (n, p, most) as fractions).  With ``most`` 2 this is 2 V, V
    one hand's value.  Equal, as fractions, to dealing every card in table order
    (``ev.reference.split_value_exhaustive``).
    """
    d0 = list(deck)
    d0[pair] -= 2
    n, p = sum(d0), resplit_cards
    values: dict[tuple[int, int], list] = {}
    ev = ratio(0, 1)
    for non_resplit, k, a, numerator, denominator in resplit_terms(n, p, most):
        if (a, k) not in values:
            values[a, k] = hand_values(a, k)
        m, big_p = n - a, p - a
        total = ratio(0, 1)
        for c, v in enumerate(values[a, k]):
            count = d0[c] - (a if c == pair else 0) - (big_p if non_resplit and c == pair else 0)
            if count > 0:
                total += count * v
        ev += total * ratio(numerator, denominator * (m - big_p if non_resplit else m))
    return ev


@cache
def resplit_terms(n: int, p: int, most: int) -> tuple[tuple[bool, int, int, int, int], ...]:
    """The resplit formula as a linear combination of one hand's values (:func:`resplit_value`).

    ``n`` cards left after both pair cards, ``p`` of them able to resplit,
    ``most`` hands at most.  Each term is (N, k, a, numerator, denominator): the
    coefficient numerator / denominator (a fraction in lowest terms) of
    g(N, k, a) = sum over second cards c of count(c) x value(a, k)[c], divided by
    the cards that second card is drawn from (``m - P`` for N, ``m`` for X:
    ``m = n - a``, ``P = p - a``).  Terms whose coefficient is 0 are left out.
    Made once per (n, p, most) in exact fractions.
    """
    alpha: dict[tuple[bool, int, int], Fraction] = defaultdict(Fraction)

    def h(non_resplit: bool, k: int, a: int, b: int, weight: Fraction) -> None:
        """Add ``weight`` times h(N or X, k, a, b) to the coefficients."""
        m = n - a - (1 if non_resplit else 0)
        big_p = p - a
        scale = weight / falling(m - big_p, b)
        for i in range(b + 1):
            coefficient = (-1) ** i * comb(b, i) * falling(big_p, i) * falling(m - i, b - i)
            if coefficient:
                alpha[non_resplit, k, a + i] += coefficient * scale

    for n_p, n_n, contexts, n_x in second_card_words(n, p, most):
        probability = Fraction(falling(p, n_p) * falling(n - p, n_n), falling(n, n_p + n_n))
        if not probability:
            continue
        for k in contexts:
            h(True, k, n_p, n_n - 1, probability)
        if n_x:
            h(False, most, n_p, n_n, n_x * probability)
    return tuple((non_resplit, k, a, c.numerator, c.denominator)
                 for (non_resplit, k, a), c in sorted(alpha.items()) if c)


def split_configurations(n: int, p: int, most: int) -> list[tuple[int, int, tuple[tuple[int, bool], ...]]]:
    """The second-card process of :func:`second_card_words` grouped for the split round's distribution.

    Returns (number of words, #P, hand classes) with the classes sorted: a
    class is (context, ``True`` when the hand's second card is known not to
    resplit (an N-hand), ``False`` for an X-hand).  Words with the same #P and
    the same classes have the same probability and the same hands, so the
    distribution sums them once, times their number.
    """
    groups: dict[tuple[int, tuple[tuple[int, bool], ...]], int] = defaultdict(int)
    for n_p, _, contexts, n_x in second_card_words(n, p, most):
        classes = tuple(sorted([(k, True) for k in contexts] + [(most, False)] * n_x))
        groups[n_p, classes] += 1
    return [(count, n_p, classes) for (n_p, classes), count in sorted(groups.items())]


@cache
def type_sets(most: int) -> list[tuple[int, tuple[int, ...], list[int]]]:
    """Every multiset of at most ``most`` hand types (:data:`HAND_TYPES`), the empty one first.

    Made once per ``most`` (a few thousand sets for four hands): callers must not change it.

    Each as (doubled hands, net result per dealer outcome, the index of the
    multiset with one more hand of each type, -1 when it would be too many):
    the split round's distribution carries hands this way, so that hands of
    the same types in another order are one state.
    """
    sets: list[tuple[int, ...]] = [()]
    for size in range(1, most + 1):
        sets += [s for s in combinations_with_replacement(range(len(HAND_TYPES)), size)]
    index = {s: i for i, s in enumerate(sets)}
    out = []
    for s in sets:
        doubles = sum(HAND_TYPES[t][1] == 2 for t in s)
        nets = tuple(sum(hand_result(*HAND_TYPES[t], o) for t in s) for o in range(7))
        grow = [index[tuple(sorted(s + (t,)))] if len(s) < most else -1 for t in range(len(HAND_TYPES))]
        out.append((doubles, nets, grow))
    return out
