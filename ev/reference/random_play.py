"""The reference twin of random play: every card dealt in table order, every option of every decision
followed with its probability (small shoes only).

The check on ``ev.analysis.random_play``, which uses recursions in joint units, exchangeability and a
resplit formula; here nothing of that: the up card, the player's two cards and the hole card are dealt,
then the player's hands are played in turn card by card, each hand made by a split (and by a resplit)
getting its second card when its turn comes, and last the dealer draws from what is left.

Random play: at every decision each legal option is taken with probability 1/k, k the number of options
(the list is ``ev.analysis.random_play``'s, written again here): the first two cards may stand, hit,
double where allowed, split a pair (tens split by rank: when the ranks match) and surrender where
offered; a later hand below 21 stands or hits; a 21 stands; a split hand at two cards may stand, hit,
double after a split where allowed, and resplit a pair while fewer than the most hands exist (split aces
given one card: stand, or resplit where allowed).  Insurance and even money, where offered, are taken
with probability 1/2.

Stakes: initial bet, doubles, split bets, insurance 1/2; even money ``even_money_stake`` (1: no chips
placed).  A dealer blackjack settled before play (:meth:`Rules.blackjack_settled_as_peek`) ends the
round at once; an unsettled one takes every wager after play.

Conventions: :mod:`ev.reference`.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import factorial

from ev.core.cards import ACE, N_RANKS, TEN
from ev.core.rules import Rules
from ev.reference.exhaustive import dealer_totals
from ev.reference.values import blackjack_rank, minus

#: every number of options at a decision (1 to 5) divides it
OPTIONS_LCM = 60


def score(hard: int, ace: bool) -> int:
    """The best total of a hand of hard total ``hard`` (aces as 1) that holds an ace or not."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


def scale(n: int) -> int:
    """What the expectations of a position with ``n`` unseen cards are multiplied by to make them integers.

    A card drawn from n has probability count / n, and an option of k probability 1 / k; at most one
    decision is made between two draws (a hand that stands or resplits is followed by a draw, or by the
    dealer, who is exact over n!).  So n! 60^(n+1) E is an integer wherever E is an expectation over what
    follows a position of n cards, and a draw is ``60 x sum of count x (the next position's)``."""
    return factorial(n) * OPTIONS_LCM ** (n + 1)


def random_play_round(rules: Rules, shoe: Sequence[int], even_money_stake: Fraction | int = 1
                      ) -> tuple[Fraction, Fraction]:
    """(EV, E[total stake]) of a round of random play from ``shoe`` (rank counts), in initial bets, exactly.

    Tens split by rank with resplits are not handled (ValueError): the faces of the tens would matter.
    A deck that runs out raises ValueError.
    """
    if rules.split_tens == "rank" and rules.max_split_hands > 2:
        raise ValueError("the reference's random play does not handle tens split by rank with resplits")
    shoe = tuple(shoe)
    same_ten = Fraction(4 * rules.decks - 1, 16 * rules.decks - 1) if rules.split_tens == "rank" else Fraction(1)

    def may_double(hard: int, ace: bool, after_split: bool) -> bool:
        total, soft = score(hard, ace), ace and hard + 10 <= 21
        if (after_split and not rules.double_after_split) or (soft and not rules.double_soft):
            return False
        lo, hi = {"any": (0, 21), "9-11": (9, 11), "10-11": (10, 11)}[rules.double]
        return lo <= total <= hi

    def draws(deck: tuple) -> list[tuple[int, int]]:
        """(count, rank) of every rank the deck holds."""
        if sum(deck) == 0:
            raise ValueError("the deck ran out")
        return [(deck[r], r) for r in range(N_RANKS) if deck[r]]

    def drawn(parts: list[tuple[int, tuple[int, int]]]) -> tuple[int, int]:
        """A draw: the scaled (net, stake) from (count, the next position's scaled (net, stake))."""
        return (OPTIONS_LCM * sum(c * v for c, (v, _) in parts), OPTIONS_LCM * sum(c * w for c, (_, w) in parts))

    def mean(branches: list[tuple[int, int]]) -> tuple[int, int]:
        """A decision: the mean of its options' scaled (net, stake), each a multiple of 60."""
        k = len(branches)
        net, stake = sum(v for v, _ in branches), sum(w for _, w in branches)
        assert net % k == 0 and stake % k == 0
        return net // k, stake // k

    @cache
    def settle(deck: tuple, up: int, hole: int, finished: tuple) -> tuple[int, int]:
        """Every hand is done: the dealer draws (unless every hand is bust); the scaled (net, stake) of the
        finished hands (total, bet)."""
        stake = sum(bet for _, bet in finished)
        whole = scale(sum(deck))
        if all(total > 21 for total, _ in finished):
            return -stake * whole, stake * whole
        net = 0         # dealer_totals: probability x |deck|!
        for dealer_total, ways in dealer_totals(deck, up, hole, rules.hit_soft_17):
            result = 0
            for total, bet in finished:
                if dealer_total == 0 or total > 21 or total < dealer_total <= 21:
                    result -= bet
                elif total > dealer_total or dealer_total == 22:
                    result += bet
            net += ways * result
        return net * OPTIONS_LCM ** (sum(deck) + 1), stake * whole

    @cache
    def play(deck: tuple, up: int, hole: int, finished: tuple, hard: int, ace: bool, bet: int, split: int,
             pending: int, hands: int, first: int) -> tuple[int, int]:
        """The scaled (E[net], E[stake]) from here.  The hand being played has hard total ``hard`` (aces 1) and
        holds an ace or not (``hard`` 0: the next split hand starts); ``finished``: the hands done, as (total,
        bet) with every total below 17 as 16 and every bust as 22 (they score alike); ``split``: the pair's
        rank, or -1 unsplit; ``pending``: split hands still to get a second card; ``first``: 0 once the hand
        has acted or drawn a third card, else 1, or 2 for a split hand that is a pair again."""
        if hard == 0:
            if pending == 0:
                return settle(deck, up, hole, finished)
            return drawn([(c, play(minus(deck, r), up, hole, finished, split + r + 2, ACE in (split, r), 1, split,
                                   pending - 1, hands, 2 if r == split else 1)) for c, r in draws(deck)])
        return mean(options(deck, up, hole, finished, hard, ace, bet, split, pending, hands, first))

    def options(deck: tuple, up: int, hole: int, finished: tuple, hard: int, ace: bool, bet: int, split: int,
                pending: int, hands: int, first: int) -> list[tuple[int, int]]:
        """The scaled (E[net], E[stake]) of each option the hand has (one, to stand, at 21 or over)."""
        total = score(hard, ace)

        def done(total: int, bet: int, deck: tuple = deck) -> tuple[int, int]:
            total = 22 if total > 21 else max(total, 16)
            return play(deck, up, hole, tuple(sorted(finished + ((total, bet),))), 0, False, 1, split, pending,
                        hands, 0)

        out = [done(total, bet)]                                                # stand
        if total >= 21:
            return out
        most = rules.max_split_hands if split != ACE or rules.resplit_aces else 2
        if first == 2 and hands < most:
            # resplit: the second pair card starts a new hand; this one gets a second card again
            out.append(play(deck, up, hole, finished, 0, False, 1, split, pending + 2, hands + 1, 0))
        if first and split == ACE and rules.split_aces_one_card:
            return out
        out.append(drawn([(c, play(minus(deck, r), up, hole, finished, hard + r + 1, ace or r == ACE, bet, split,
                                   pending, hands, 0)) for c, r in draws(deck)]))      # hit
        if first and may_double(hard, ace, split >= 0):
            out.append(drawn([(c, done(score(hard + r + 1, ace or r == ACE), 2, minus(deck, r)))
                              for c, r in draws(deck)]))
        return out

    def average(branches: list[tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
        k = len(branches)
        return sum((v for v, _ in branches), Fraction(0)) / k, sum((w for _, w in branches), Fraction(0)) / k

    def deal(deck: tuple, up: int, c1: int, c2: int, hole: int) -> tuple[Fraction, Fraction]:
        """(E[net], E[stake]) of a round with these up, player and hole cards (``deck``: the cards left)."""
        half = Fraction(1, 2)
        dealer_bj = hole == blackjack_rank(up)
        if {c1, c2} == {ACE, TEN}:
            declined = (Fraction(0) if dealer_bj else rules.payout, Fraction(1))
            if up == ACE and rules.even_money:
                return average([(Fraction(1), Fraction(even_money_stake)), declined])
            return declined
        if up == ACE and rules.insurance:      # half the time: half a bet paying 2:1
            insurance = (half * (1 if dealer_bj else -half), half * half)
        else:
            insurance = (Fraction(0), Fraction(0))
        if dealer_bj and rules.blackjack_settled_as_peek(up):
            return -1 + insurance[0], 1 + insurance[1]
        whole = scale(sum(deck))
        choices = [(Fraction(v, whole), Fraction(w, whole))                    # stand, hit, double
                   for v, w in options(deck, up, hole, (), c1 + c2 + 2, ACE in (c1, c2), 1, -1, 0, 1, 1)]
        if rules.late_surrender:
            choices.append((-Fraction(1) if dealer_bj else -half, Fraction(1)))
        value, stake = average(choices)
        if c1 == c2 and rules.max_split_hands >= 2:
            share = same_ten if c1 == TEN else Fraction(1)
            net, staked = play(deck, up, hole, (), 0, False, 1, c1, 2, 2, 0)
            with_split = average([*choices, (Fraction(net, whole), Fraction(staked, whole))])
            value = share * with_split[0] + (1 - share) * value
            stake = share * with_split[1] + (1 - share) * stake
        return value + insurance[0], stake + insurance[1]

    ev = wager = Fraction(0)
    n = sum(shoe)
    for c_up, up in draws(shoe):
        d1 = minus(shoe, up)
        for c1_count, c1 in draws(d1):
            d2 = minus(d1, c1)
            for c2_count, c2 in draws(d2):
                d3 = minus(d2, c2)
                for c_hole, hole in draws(d3):
                    p = Fraction(c_up * c1_count * c2_count * c_hole, n * (n - 1) * (n - 2) * (n - 3))
                    value, stake = deal(minus(d3, hole), up, c1, c2, hole)
                    ev += p * value
                    wager += p * stake
    return ev, wager
