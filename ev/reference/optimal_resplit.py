"""Truly optimal split play with resplits, two ways that must agree exactly (slow: small decks only).

The game.  The player splits a pair of rank ``pair`` against the up card ``up``; ``base`` is the deck the
pair was dealt from (the shoe less the up card; it still holds both pair cards).  At most
``H = rules.split_hands(pair)`` hands (2, 3 or 4) can be made.  The hands are played one after another;
each starts with one pair card and gets its second card when its turn comes.  When that card is another
pair card and fewer than ``H`` hands exist, the player *may* resplit: the card starts a new hand, which
waits for its turn, and the current hand draws again; or he keeps the pair and plays it as a two-card
hand.  Split aces that get one card (``rules.one_card_after_split``) stand on their two cards, but an
arriving ace may still be resplit where ``H > 2``.  A two-card split hand may double where
``rules.may_double(total, soft, after_split=True)``; otherwise stand or hit (a total of 21 stands; no
surrender after a split).  Every decision maximises (``worst``: minimises) the expected total result of
*all* the split hands given every card seen so far: the earlier hands', the pair cards and the cards that
started later hands.  The dealer draws last, from what the hands left.

Decisions.  Exact ties go to the earlier of stand, hit, double, and to resplitting rather than keeping
the pair (the values returned do not depend on how ties are broken; the rule only fixes the play).

Units (:mod:`ev.reference`): joint units, in initial bets, all the split's hands together; where a dealer
blackjack is settled before play, hole cards that make one are left out of the sums and nothing is divided
by P(no dealer blackjack).  Tens are split by value only here: a pair of tens that the rules split by rank
with resplits raises ValueError.  A deck that runs out while a hand draws, or before the dealer finishes
(after every hand), raises ValueError.

* :func:`optimal_resplit_search` (brute force): the state is everything the player knows, the deck and
  the hands finished so far, and the dealer draws from the deck left after *all* the hands, against all
  of them at once.
* :func:`optimal_resplit_value` (by exchangeability, :class:`ExchangeableResplit`): each hand is valued
  against the dealer when it finishes, so the state between hands is only the deck and two counts.  The
  algorithm meant for the compiled engine.
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from math import factorial
from operator import truediv
from typing import Any

from ev.core.cards import ACE, N_RANKS, TEN, hand_result
from ev.core.rules import Rules
from ev.reference.values import blackjack_rank, dealer_distribution, minus, stand_value

#: a hand in play, as the searches key it: (total, soft, may double now)
HandState = tuple[int, bool, bool]


def _most_hands(base: tuple, rules: Rules, pair: int) -> int:
    """``rules.split_hands(pair)``, after checking that the pair can be split here."""
    most = rules.split_hands(pair)
    if most < 2:
        raise ValueError("the rules do not allow a split")
    if base[pair] < 2:
        raise ValueError("the deck does not hold the pair")
    if pair == TEN and rules.split_tens == "rank" and most > 2:
        raise ValueError("tens split by rank with resplits: this reference splits tens by value only")
    return most


def _add_card(total: int, soft: bool, r: int) -> tuple[int, bool]:
    """(total, soft) of a hand of ``total`` (``soft``: an ace counts 11) after a card of rank ``r``.

    A hard hand holding an ace has a hard total of 12 or more (else the ace would count 11), so it can
    never turn soft again: (total, soft) is all that is needed of a hand's cards."""
    hard = (total - 10 if soft else total) + r + 1
    if (soft or r == ACE) and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _start(pair: int, r: int, rules: Rules) -> HandState:
    """The split hand of a pair card and a card of rank ``r``: (total, soft, may double)."""
    total, soft = _add_card(pair + 1 + 10 * (pair == ACE), pair == ACE, r)
    double = not rules.one_card_after_split(pair) and rules.may_double(total, soft, after_split=True)
    return total, soft, double


def _pick(values: dict[str, Any], worst: bool) -> str:
    """The action of the highest value (``worst``: lowest); exact ties go to the earlier key of ``values``
    (the callers list stand, hit, double in that order, and resplit before keep)."""
    order = list(values)
    if worst:
        return min(order, key=lambda a: (values[a], order.index(a)))
    return max(order, key=lambda a: (values[a], -order.index(a)))


def _dealer_finishes(deck: tuple, up: int, rules: Rules) -> None:
    """Raise ValueError when the dealer could run out of cards drawing from ``deck``.

    Never when the up card and the whole deck make a hard 17 or more (the dealer stops by then at the
    latest); else the dealer's own enumeration finds out (it raises)."""
    if up + 1 + sum((r + 1) * c for r, c in enumerate(deck)) < 17:
        dealer_distribution(deck, up, rules)


# ---------------------------------------------------------------- method 1: brute force


def optimal_resplit_search(base: tuple, up: int, rules: Rules, pair: int, worst: bool = False) -> Fraction:
    """Joint EV of splitting with truly optimal play and resplits, by searching every way to play.

    The state is (the deck, the finished hands, hands made, hands waiting, the hand in play).  The
    finished hands are kept as a sorted tuple of (total, bet), a total of 16 or less as 16 and a bust
    as 22 (they fare alike against every dealer outcome); the hand in play as (total, soft, may double).
    When every hand is done the dealer draws from what is left, against all the hands (joint units, by
    :func:`dealer_distribution` of that deck).  The extension of
    :func:`~ev.reference.exhaustive.optimal_split_search` to resplits; with two hands they agree.

    Values are kept as integers, the value times ``|deck|!`` (drawing a card of count c from n cards has
    probability c / n, and n! c / n = c (n - 1)!); the choices at a state compare values of one deck, so
    the scaling does not change them.  One division at the end.
    """
    most = _most_hands(base, rules, pair)
    one_card = rules.one_card_after_split(pair)

    @cache
    def dealer(deck: tuple) -> tuple[int, ...]:
        """The dealer's outcome distribution from ``deck`` (joint units), each times ``|deck|!``."""
        scale = factorial(sum(deck))
        return tuple(p.numerator * (scale // p.denominator) for p in dealer_distribution(deck, up, rules))

    def draws(deck: tuple) -> list[tuple[int, int]]:
        """(count, rank) of each rank the deck holds, for a hand that draws."""
        if sum(deck) == 0:
            raise ValueError("the deck ran out while a split hand was drawing")
        return [(deck[r], r) for r in range(N_RANKS) if deck[r]]

    def done(finished: tuple, total: int, bet: int) -> tuple:
        """``finished`` with one more hand."""
        return tuple(sorted(finished + ((min(max(total, 16), 22), bet),)))

    @cache
    def state(deck: tuple, finished: tuple, made: int, waiting: int, hand: HandState | None) -> int:
        """Value x ``|deck|!`` of the rest of the split.  ``hand`` None: the first of ``waiting`` hands gets
        its second card (``waiting`` 0: the dealer draws); else ``hand`` is in play and ``waiting`` hands
        wait after it."""
        if hand is None:
            if waiting == 0:
                return sum(p * sum(hand_result(total, bet, o) for total, bet in finished)
                           for o, p in enumerate(dealer(deck)) if p)
            value = 0
            for c, r in draws(deck):
                rest = minus(deck, r)
                chosen = state(rest, finished, made, waiting - 1, _start(pair, r, rules))     # play (pair, r)
                if r == pair and made < most:
                    # resplit: the card makes a new hand (waiting), and this hand still waits for a card
                    options = {"resplit": state(rest, finished, made + 1, waiting + 1, None), "keep": chosen}
                    chosen = options[_pick(options, worst)]
                value += c * chosen
            return value
        total, soft, may_double = hand
        values = {"stand": state(deck, done(finished, total, 1), made, waiting, None)}
        if total < 21 and not one_card:
            values["hit"] = sum(c * state(minus(deck, r), finished, made, waiting, (*_add_card(total, soft, r), False))
                                for c, r in draws(deck))
            if may_double:
                values["double"] = sum(
                    c * state(minus(deck, r), done(finished, _add_card(total, soft, r)[0], 2), made, waiting, None)
                    for c, r in draws(deck))
        return values[_pick(values, worst)]

    deck = tuple(c - 2 * (r == pair) for r, c in enumerate(base))
    return Fraction(state(deck, (), 2, 2, None), factorial(sum(deck)))


# ---------------------------------------------------------------- method 2: by exchangeability


class ExchangeableResplit:
    """Truly optimal split play with resplits, each hand valued against the dealer when it finishes.

    Why that is exact.  No hand sees the dealer's cards, and given the player's cards the hole card and
    the dealer's draws are uniform over the unseen cards.  Let ``g(D)`` be a finished hand's expected
    result against a dealer drawing from deck ``D`` (joint units).  Drawing one card ``c`` at random from
    ``D`` first and then dealing the dealer from ``D - c`` deals the dealer exactly as from ``D``, so
    ``sum_c P(c | D) g(D - c) = g(D)``: as the later hands draw, ``g`` of the deck left is a martingale,
    and by optional stopping (however the later hands decide to draw, from what they see) the expected
    result of the hand against the dealer at the very end is ``g`` of the deck at the moment the hand
    finished.  So the finished hands add a fixed amount to every choice that follows, and each later
    decision can be made, with the same choice, on the value of the hands still to come alone.  (A bust
    loses ``bet x P(no settled dealer blackjack | D)``, a martingale too.)

    The search.  Between hands the state is (deck ``D``, hands waiting for their second card ``w``, hands
    made ``m``); within a hand also the hand's (total, soft, may double):

    * ``V(D, 0, m) = 0``: no hand left (the dealer must still be able to finish from ``D``);
    * ``V(D, w, m) = sum_c P(c | D) x best of``
      - resplit, when ``c`` is a pair card and ``m < H``: ``V(D - c, w + 1, m + 1)``
        (the card makes a new waiting hand; the hand that drew it still waits);
      - play the hand (pair, c) on ``D - c``, with ``w - 1`` hands waiting after it;
    * a hand ending with ``total`` and ``bet`` on deck ``D``: ``bet x g_total(D) + V(D, w, m)``, where
      ``g_total(D)`` is the stand value of the total against :func:`dealer_distribution` of ``D``, or
      ``-P(no settled blackjack | D)`` for a bust;
    * a hand in play: the best of stand (the line above), hit (the mean over the next card of the hand
      one card larger) and double (the mean over the next card of its end with bet 2).

    The start is ``V(base less both pair cards, 2, 2)``.

    ``exact``: fractions (:func:`optimal_resplit_value`), or floats (``False``: the dealer's distribution
    is still found exactly, then made floats).  ``states`` and ``hand_nodes`` count what is memoised.
    """

    def __init__(self, base: tuple, up: int, rules: Rules, pair: int, worst: bool = False,
                 exact: bool = True) -> None:
        self.most = _most_hands(base, rules, pair)
        self.base, self.up, self.rules, self.pair, self.worst = tuple(base), up, rules, pair, worst
        self.one_card = rules.one_card_after_split(pair)
        self.ratio: Callable[[int, int], Any] = Fraction if exact else truediv
        self.number: Callable[[Any], Any] = Fraction if exact else float
        self.excluded = blackjack_rank(up) if rules.blackjack_settled_as_peek(up) else None
        self.rest = cache(self._rest)           # V(D, w, m)
        self.play = cache(self._play)           # a hand in play, and the hands after it
        self.dealer = cache(self._dealer)

    def value(self) -> Any:
        """The joint EV of the split: ``V(base less both pair cards, 2, 2)``."""
        deck = tuple(c - 2 * (r == self.pair) for r, c in enumerate(self.base))
        return self.rest(deck, 2, 2)

    @property
    def states(self) -> int:
        """How many V(D, w, m) are memoised."""
        return self.rest.cache_info().currsize

    @property
    def hand_nodes(self) -> int:
        """How many hands in play (with their deck, w and m) are memoised."""
        return self.play.cache_info().currsize

    def _dealer(self, deck: tuple) -> tuple:
        """The dealer's outcome distribution from ``deck`` (joint units), in this arithmetic."""
        return tuple(self.number(p) for p in dealer_distribution(deck, self.up, self.rules))

    def own(self, total: int, bet: int, deck: tuple) -> Any:
        """A finished hand's value against the dealer drawing from ``deck``: ``bet x g_total(deck)``."""
        if total > 21:
            n = sum(deck)
            mass = 1 - self.ratio(deck[self.excluded], n) if self.excluded is not None else self.number(1)
            return -bet * mass
        return bet * stand_value(self.dealer(deck), total)

    def _rest(self, deck: tuple, waiting: int, made: int) -> Any:
        """``V(deck, waiting, made)``: the value of the hands still to be played; the first of the ``waiting``
        hands is about to get its second card."""
        if waiting == 0:
            _dealer_finishes(deck, self.up, self.rules)
            return self.number(0)
        n = sum(deck)
        if n == 0:
            raise ValueError("the deck ran out while a split hand was drawing")
        value = self.number(0)
        for r in range(N_RANKS):
            if not deck[r]:
                continue
            left = minus(deck, r)
            # keep: the hand (pair, r) is played, with the other waiting - 1 hands after it
            chosen = self.play(left, *_start(self.pair, r, self.rules), waiting - 1, made)
            if r == self.pair and made < self.most:
                # resplit: the card starts a new waiting hand; the hand that drew it waits for another card
                options = {"resplit": self.rest(left, waiting + 1, made + 1), "keep": chosen}
                chosen = options[_pick(options, self.worst)]
            value += self.ratio(deck[r], n) * chosen
        return value

    def _play(self, deck: tuple, total: int, soft: bool, may_double: bool, waiting: int, made: int) -> Any:
        """The value of a hand in play (``total``, ``soft``, ``may_double``) on ``deck`` and of the ``waiting``
        hands after it (``made`` hands made): the best of stand, hit and double."""
        values = {"stand": self.end(deck, total, 1, waiting, made)}
        if total < 21 and not self.one_card:
            n = sum(deck)
            if n == 0:
                raise ValueError("the deck ran out while a split hand was drawing")
            hit, double = self.number(0), self.number(0)
            for r in range(N_RANKS):
                if deck[r]:
                    p, left = self.ratio(deck[r], n), minus(deck, r)
                    grown, now_soft = _add_card(total, soft, r)
                    if grown >= 21:         # a bust, or 21, which stands: the hand ends
                        hit += p * self.end(left, grown, 1, waiting, made)
                    else:
                        hit += p * self.play(left, grown, now_soft, False, waiting, made)
                    if may_double:
                        double += p * self.end(left, grown, 2, waiting, made)
            values["hit"] = hit
            if may_double:
                values["double"] = double
        return values[_pick(values, self.worst)]

    def end(self, deck: tuple, total: int, bet: int, waiting: int, made: int) -> Any:
        """A hand that ends with ``total`` (over 21: bust) and ``bet`` on ``deck``, then the hands after it.

        The hands after it first: an empty deck is the error of whoever draws next (a hand, or the dealer)."""
        rest = self.rest(deck, waiting, made)
        return self.own(total, bet, deck) + rest


def optimal_resplit_value(base: tuple, up: int, rules: Rules, pair: int, worst: bool = False) -> Fraction:
    """Joint EV of splitting with truly optimal play and resplits, by exchangeability
    (:class:`ExchangeableResplit`, exact); equal to :func:`optimal_resplit_search`."""
    return ExchangeableResplit(base, up, rules, pair, worst).value()


__all__ = ["ExchangeableResplit", "optimal_resplit_search", "optimal_resplit_value"]
