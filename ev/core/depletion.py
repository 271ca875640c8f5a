"""Can the unseen cards run out before a round is over?  An exact test, cheap for every deck that matters.

The engine values a position by dealing its continuations from the unseen
cards.  On a tiny shoe some continuation may need a card that is not there
(8-8 against a 6 with only 8, 8, T unseen: after the split each hand takes a
card and the dealer, holding 6 and one hole card, cannot finish).  Such a
position has no well-defined value, so ``Game.hand`` refuses it.

:func:`may_run_out` answers exactly whether *any* legal continuation (every
choice of the player: stand, hit, split and resplit as the rules allow; every
draw with positive probability; then the dealer's hole card and draws) needs
a card when none is left.  The dealer is taken to draw whenever a player hand
stands, and its hole card is always dealt.  A bound prunes the search: the
cards that can still be drawn are at most one last card per hand (and the
dealer's) plus the most cards whose values fit in the room left below 21 (20
for a player hand still drawing, 16 for the dealer).  With a full shoe the
bound answers at once; only a shoe of a few dozen small cards needs a search.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ev.core.cards import ACE, N_RANKS
from ev.core.rules import Rules

_VALUE = tuple(range(1, N_RANKS + 1))      # hard value of each rank index (ace 1)
#: the most player states searched (about a second); a shoe that needs more is treated as one that may run out
MAX_NODES = 200_000


def _fits(deck: Sequence[int], budget: int) -> int:
    """The most cards of ``deck`` whose values sum to at most ``budget`` (smallest first)."""
    taken = 0
    for r in range(N_RANKS):
        if budget <= 0:
            break
        k = min(deck[r], budget // _VALUE[r])
        taken += k
        budget -= k * _VALUE[r]
    return taken


def _room(deck: Sequence[int], player: int, waiting: int, more: int, pair_value: int, dealer_hard: int) -> int:
    """An upper bound on the cards still to be drawn: ``player`` is the room below 21 of the hand being played,
    ``waiting`` split hands wait, resplits may make ``more`` hands (each from one more pair card), and the
    dealer (hard total ``dealer_hard``) is still to draw.  Every hand's and the dealer's draws but the last
    fit in its room; the last cards and the resplit pair cards are counted one each."""
    budget = player + (waiting + more) * (20 - pair_value) + max(0, 16 - dealer_hard)
    return _fits(deck, budget) + 1 + waiting + 2 * more + 1


def surely_lasts(deck: Sequence[int], hand: Sequence[int], up: int, rules: Rules, may_split: bool) -> bool:
    """True when the bound alone shows that no continuation of ``hand`` against ``up`` can run out of ``deck``
    (False: it may, or may not; :func:`may_run_out` answers exactly).  Cheap: no search."""
    hard = sum(_VALUE[r] * c for r, c in enumerate(hand))
    pair = next((r for r in range(N_RANKS) if hand[r] == 2), None) if sum(hand) == 2 and may_split else None
    more = rules.split_hands(pair) - 1 if pair is not None else 0
    pair_value = _VALUE[pair] if pair is not None else 0
    return sum(deck) >= _room(deck, 20 - hard, 0, more, pair_value, _VALUE[up])


def may_run_out(deck: Sequence[int], hand: Sequence[int], up: int, rules: Rules, may_split: bool) -> bool:
    """Whether some legal continuation of ``hand`` (rank counts) against ``up`` needs more cards than ``deck``.

    ``deck``: the unseen cards (rank counts, the hand and the up card already out);
    ``may_split``: the hand is a pair the rules let split (tens by rank: same faces).
    """
    deck = tuple(deck)
    hard = sum(_VALUE[r] * c for r, c in enumerate(hand))
    ncards = sum(hand)
    pair = next((r for r in range(N_RANKS) if hand[r] == 2), None) if ncards == 2 and may_split else None
    p_value = _VALUE[pair] if pair is not None else 0
    max_hands = rules.split_hands(pair) if pair is not None else 1
    one_card = pair is not None and rules.one_card_after_split(pair)
    bj_hole = rules.settled_blackjack_rank(up)

    def best(h: int, ace: bool) -> int:
        return h + 10 if ace and h + 10 <= 21 else h

    def dealer_stands(h: int, ace: bool) -> bool:
        total = best(h, ace)
        return total > 17 or (total == 17 and not (rules.hit_soft_17 and ace and h + 10 == 17))

    def room(deck: tuple, player: int, waiting: int, hands: int, dealer_hard: int) -> int:
        more = (max_hands - hands) if pair is not None else 0         # hands resplits could still make
        return _room(deck, player, waiting, more, p_value, dealer_hard)

    nodes = [0]

    @cache
    def dealer(deck: tuple, h: int, ace: bool) -> bool:
        if dealer_stands(h, ace):
            return False
        if not any(deck):
            return True
        return any(dealer(_minus(deck, r), h + _VALUE[r], ace or r == ACE) for r in range(N_RANKS) if deck[r])

    @cache
    def dealer_turn(deck: tuple, alive: bool) -> bool:
        """The hole card (dealt last here: the order of dealing does not change which deals exist), then the draws."""
        if not any(deck):
            return True
        holes = [r for r in range(N_RANKS) if deck[r] and r != bj_hole]
        # no hole card but one that makes a blackjack: then the dealer had it and play never started
        return alive and any(dealer(_minus(deck, r), up_hard + _VALUE[r], up == ACE or r == ACE) for r in holes)

    @cache
    def play(deck: tuple, h: int, ace: bool, n: int, is_pair: bool, waiting: int, hands: int, alive: bool) -> bool:
        """The hand being played has hard total h (n cards); ``waiting`` split hands follow it."""
        nodes[0] += 1
        if nodes[0] > MAX_NODES:
            raise _TooLong
        if best(h, ace) > 21:
            return next_hand(deck, waiting, hands, alive)
        total = best(h, ace)
        if sum(deck) >= room(deck, 20 - h if total < 21 else 0, waiting, hands, up_hard):
            return False                   # not enough room left to draw every unseen card: this branch lasts
        split_hand = hands > 1
        must_draw = split_hand and n == 1                  # a split hand takes its second card
        may_draw = total < 21 and not (split_hand and one_card and n >= 2)
        if must_draw or may_draw:
            if not any(deck):
                return True
            for r in range(N_RANKS):
                if deck[r] and play(_minus(deck, r), h + _VALUE[r], ace or r == ACE, n + 1,
                                    must_draw and r == pair, waiting, hands, alive):
                    return True
        splits = is_pair and n == 2 and pair is not None and hands < max_hands and (
            not split_hand or rules.may_resplit(pair))
        if splits and play(deck, p_value, pair == ACE, 1, True, waiting + 1, hands + 1, alive):
            return True
        return not must_draw and next_hand(deck, waiting, hands, True)      # stand

    def next_hand(deck: tuple, waiting: int, hands: int, alive: bool) -> bool:
        if waiting:
            return play(deck, p_value, pair == ACE, 1, True, waiting - 1, hands, alive)
        return dealer_turn(deck, alive)

    if not any(deck):
        return True
    up_hard = _VALUE[up]
    if surely_lasts(deck, hand, up, rules, may_split):
        return False                       # the usual case: answered without a search
    try:
        return play(deck, hard, hand[ACE] > 0, ncards, pair is not None, 0, 1, False)
    except _TooLong:
        return True                        # too many deals to check: treated as one that may run out


class _TooLong(Exception):
    """The search passed MAX_NODES states."""


def _minus(deck: tuple, r: int) -> tuple:
    return deck[:r] + (deck[r] - 1,) + deck[r + 1:]
