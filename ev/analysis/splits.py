"""Splits with resplits: the chain of hands a pair can make, as values and as outcome cells.

Both functions are written once for both arithmetics: ``ratio(a, b)`` makes
a/b (float division, or ``Fraction`` in the exact mode).  With one split
(two hands) they are exact; with resplits they use pair-card tracking (see
each docstring and the README).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from operator import truediv
from typing import Any

from ev.core.cards import N_RANKS
from ev.core.rules import Rules


def resplit_value(deck: Sequence[int], pair: int, max_hands: int, same_rank: int | None,
                  hand_values, ratio=truediv):
    """Total joint EV of all hands made by splitting a pair of rank ``pair`` from ``deck``.

    ``deck`` is the unseen deck before the player's cards were dealt (it holds
    the pair).  ``hand_values(j)`` gives, for each second card ``r``, the joint
    value of the split hand {pair, r} whose deck lacks ``j`` pair cards beyond
    the hand's own.  ``same_rank``: for tens split by rank only, the number of
    cards of one ten rank in the full shoe (a ten of another rank does not resplit).
    ``ratio(a, b)`` makes the probability a/b: float division here,
    ``Fraction`` in the exact mode, which shares this function.

    The hands are completed one at a time.  While a resplit is still possible a
    hand's second card may be a pair card, which makes two hands of it.  The
    only approximation: the deck a hand is played from lacks the pair cards seen
    so far, but not the *other* hands' non-pair cards.  With one split
    (``max_hands`` 2) there are no resplits and this reduces to the exact
    ``2 V``; with resplits it is the standard pair-card-tracking approximation,
    checked against exact enumeration in the tests.
    """
    n0 = sum(deck)
    zero = ratio(0, 1)
    memo: dict[int, list] = {}

    def values(j: int) -> list:
        if j not in memo:
            memo[j] = hand_values(j)
        return memo[j]

    def expected(j: int, skip_pair: bool) -> tuple:
        """(value, P) over second cards from the deck less j+1 pair cards; skip resplitting cards."""
        k = j + 1
        n = n0 - k
        pair_left = deck[pair] - k
        resplit = (max(same_rank - k, 0) if same_rank is not None else pair_left) if skip_pair else 0
        v, p = zero, zero
        vals = values(j)
        for r in range(N_RANKS):
            count = deck[r] - (k if r == pair else 0)
            if r == pair:
                count -= resplit
            if count > 0:
                v += ratio(count, n) * vals[r]
                p += ratio(count, n)
        return v, p

    @cache
    def f(hands: int, open_hands: int, k: int):
        if open_hands == 0:
            return zero
        if hands >= max_hands or n0 - k <= 0:
            return open_hands * expected(k - 1, False)[0]
        v, p_other = expected(k - 1, True)
        value = v + p_other * f(hands, open_hands - 1, k)
        if p_other < 1:
            value += (1 - p_other) * f(hands + 1, open_hands + 1, k + 1)
        return value

    return f(2, 2, 2)


def resplit_cells(deck: Sequence[int], pair: int, rules: Rules, round_mass, hand_outcomes,
                  ratio=truediv) -> dict:
    """Approximate cells {(doubles, dealer_blackjack, net, hands): mass} of a round whose split may grow.

    The hands are completed in turn as in :func:`resplit_value`: a
    pair card drawn while hands may be added makes a new hand, and each hand is
    dealt from the deck less the pair cards seen so far.  Every hand is scored
    against the same dealer outcome: given the dealer's final outcome (17..21,
    bust, blackjack), the hands' results are taken as independent.  The
    dealer's outcome distribution is the first hand's; the total mass is
    ``round_mass``, that of the exact two-hand round (P(no settled dealer
    blackjack)).

    ``deck``: the unseen deck before the player's cards; ``hand_outcomes(r, j)``:
    the cells {(doubled, dealer outcome 0..6, result): mass} of the split hand
    {pair, r} whose deck lacks ``j`` pair cards beyond its own.  ``ratio(a, b)``
    makes a/b: float division, or ``Fraction`` in the exact mode, which shares
    this function.
    """
    zero, one = ratio(0, 1), ratio(1, 1)
    n0 = sum(deck)
    most = rules.max_split_hands
    same_rank = rules.resplit_rank_cards(pair)

    def hand_cells(gone: int, skip_resplit: bool) -> tuple[dict, Any]:
        """Cells (doubled, outcome, result) of one hand dealt from the deck less ``gone`` pair cards."""
        n = n0 - gone
        resplit = 0
        if skip_resplit:
            resplit = max(same_rank - gone, 0) if same_rank is not None else deck[pair] - gone
        cells: dict = defaultdict(lambda: zero)
        p_total = zero
        for r in range(N_RANKS):
            count = deck[r] - (gone if r == pair else 0) - (resplit if r == pair else 0)
            if count <= 0:
                continue
            q = ratio(count, n)
            for key, mass in hand_outcomes(r, gone - 1).items():
                cells[key] += q * mass
            p_total += q
        return cells, p_total

    def conditional(cells: dict) -> dict:
        """Per dealer outcome: the hand's (doubled, result) distribution given that outcome."""
        out: dict = {}
        for o in range(7):
            part = {(d, res): m for (d, oo, res), m in cells.items() if oo == o}
            total = sum(part.values(), zero)
            out[o] = {k: m / total for k, m in part.items()} if total > 0 else {}
        if not out[6]:
            # this hand's deck holds no blackjack card although the round's may: against
            # a dealer blackjack every hand loses its whole stake
            lost: dict = defaultdict(lambda: zero)
            for o in range(6):
                for (d, _), m in out[o].items():
                    lost[d, -(1 + d)] += m
            total = sum(lost.values(), zero)
            out[6] = {k: m / total for k, m in lost.items()} if total else {}
        return out

    def convolve(acc: dict, per: dict) -> dict:
        """Add one hand (its (doubled, result) distribution per dealer outcome) to (outcome, doubles, net, hands)."""
        out: dict = defaultdict(lambda: zero)
        for (o, doubles, net, hands), m in acc.items():
            for (doubled, result), q in per.get(o, {}).items():
                out[o, doubles + doubled, net + result, hands] += m * q
        return out

    first_cells, _ = hand_cells(2, most > 2)
    weights: dict = defaultdict(lambda: zero)
    for (_, o, _), m in first_cells.items():
        weights[o] += m
    total_weight = sum(weights.values(), zero)
    memo: dict = {}

    def rounds(hands: int, open_hands: int, gone: int) -> dict:
        """Distribution over (outcome, doubles, net, hands) of the open hands, within each outcome."""
        key = (hands, open_hands, gone)
        if key in memo:
            return memo[key]
        if open_hands == 0:
            result = {(o, 0, 0, hands): one for o in range(7)}
        elif hands >= most:
            per = conditional(hand_cells(gone, False)[0])
            result = {(o, 0, 0, hands): one for o in range(7)}
            for _ in range(open_hands):
                result = convolve(result, per)
        else:
            cells, p_plain = hand_cells(gone, True)
            per = conditional(cells)
            result = defaultdict(lambda: zero)
            if p_plain > 0:
                for k, m in convolve(rounds(hands, open_hands - 1, gone), per).items():
                    result[k] += p_plain * m
            if p_plain < 1:
                for k, m in rounds(hands + 1, open_hands + 1, gone + 1).items():
                    result[k] += (1 - p_plain) * m
        memo[key] = result
        return result

    out: dict = defaultdict(lambda: zero)
    for (o, doubles, net, hands), m in rounds(2, 2, 2).items():
        if weights.get(o, zero) > 0:
            out[doubles, int(o == 6), net, hands] += round_mass * weights[o] / total_weight * m
    return dict(out)
