"""Splits with resplits: the chain of hands a pair can make, as values and as outcome cells.

Both functions are written once for both arithmetics: ``ratio(a, b)`` makes
a/b (float division, or ``Fraction`` in the exact mode).  The split value is
exact with resplits too (:func:`resplit_value`).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from math import comb
from operator import truediv
from typing import Any

from ev.core.cards import N_RANKS
from ev.core.rules import Rules


def falling(n: int, k: int) -> int:
    """The falling factorial n (n-1) ... (n-k+1); 1 for k = 0."""
    v = 1
    for i in range(k):
        v *= n - i
    return v


def second_card_words(n: int, p: int, most: int) -> list[tuple[int, int, tuple[int, ...], int]]:
    """Every outcome of the second-card process of a split, as (#P, #N, contexts of the N-hands, #X).

    Two hands wait for a second card, dealt in table order from the ``n``
    cards left after both pair cards, ``p`` of them able to resplit.  Each
    card is a P (a resplit card while fewer than ``most`` hands exist: one
    more hand, the current hand draws again) or an N (any other card: the
    hand is complete).  Once ``most`` hands exist the hands still waiting take
    any second card: X-hands.  An N-hand's context is the number of hands when
    it completed (2 + the P's before it); every X-hand's is ``most``.  A word's
    probability is ff(p, #P) ff(n - p, #N) / ff(n, #P + #N).
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

    The method (see the README, "Splits"): by exchangeability the second-card
    process can be dealt first (:func:`second_card_words`); given its word a
    hand is worth its value on the deck less the resplit cards and its own
    second card, with the other hands' second cards, unseen but known not to
    resplit, removed by inclusion-exclusion:
    ff(Q, b) h(a, b) = sum_i (-1)^i C(b, i) ff(P, i) ff(m - i, b - i) g(a + i).
    With ``most`` 2 this is 2 V, V one hand's value.  Equal, as fractions, to
    dealing every card in table order (``ev.reference.split_value_exhaustive``).
    """
    d0 = list(deck)
    d0[pair] -= 2
    n, p = sum(d0), resplit_cards
    values: dict[tuple[int, int], list] = {}
    gs: dict[tuple[bool, int, int], Any] = {}

    def w(a: int, k: int) -> list:
        if (a, k) not in values:
            values[a, k] = hand_values(a, k)
        return values[a, k]

    def g(non_resplit: bool, k: int, a: int) -> Any:
        """A hand's value, its second card any card (X) or a card that does not resplit (N)."""
        key = (non_resplit, k, a)
        if key not in gs:
            m, big_p = n - a, p - a
            total = ratio(0, 1)
            for c, v in enumerate(w(a, k)):
                count = d0[c] - (a if c == pair else 0) - (big_p if non_resplit and c == pair else 0)
                if count > 0:
                    total += count * v
            gs[key] = total * ratio(1, m - big_p if non_resplit else m)
        return gs[key]

    def h(non_resplit: bool, k: int, a: int, b: int) -> Any:
        """g with b further unseen cards known not to resplit removed."""
        m = n - a - (1 if non_resplit else 0)
        big_p = p - a
        total = ratio(0, 1)
        for i in range(b + 1):
            coefficient = (-1) ** i * comb(b, i) * falling(big_p, i) * falling(m - i, b - i)
            if coefficient:
                total += coefficient * g(non_resplit, k, a + i)
        return total * ratio(1, falling(m - big_p, b))

    ev = ratio(0, 1)
    for n_p, n_n, contexts, n_x in second_card_words(n, p, most):
        hands = sum(h(True, k, n_p, n_n - 1) for k in contexts)
        if n_x:
            hands += n_x * h(False, most, n_p, n_n)
        ev += ratio(falling(p, n_p) * falling(n - p, n_n), falling(n, n_p + n_n)) * hands
    return ev


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
