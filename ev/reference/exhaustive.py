"""The reference twin dealing every card in table order: split distributions, the distribution of a whole
round under a fixed strategy, and truly optimal split play by search (slow: small decks only).

Conventions: :mod:`ev.reference`.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import factorial, perm

from ev.core.cards import ACE, N_RANKS, TEN, hand_total
from ev.core.rules import Rules
from ev.reference.values import ACTIONS, Player, blackjack_rank, dealer_distribution, minus, plus, split_contexts


def split_value_exhaustive(base: tuple, up: int, rules: Rules, pair: int, split_strategy: str,
                           unsplit: Player, pair_face: int | None = None) -> Fraction:
    """Exact joint EV of splitting: the mean of :func:`split_distribution_exhaustive`."""
    cells = split_distribution_exhaustive(base, up, rules, pair, split_strategy, unsplit, pair_face)
    return sum((p * net for (_, _, net, _), p in cells.items()), Fraction(0))


@cache
def dealer_totals(deck: tuple, up: int, hole: int, hit_soft_17: bool) -> tuple:
    """The dealer's final total (17..21, 22 for bust, 0 for blackjack), up and hole known, with its number
    of drawing orders from ``deck`` scaled by ``|deck|!`` (an integer: the probability times ``|deck|!``).

    ``deck``: the cards left by kind; an eleventh kind is a ten-valued card (of the face of a pair of
    tens split by rank), as ``hole`` may be.  Kept across calls: the same deck recurs under every split
    strategy.
    """
    hole_rank = TEN if hole == N_RANKS else hole
    hard, has_ace = up + hole_rank + 2, ACE in (up, hole_rank)
    if has_ace and hard == 11:          # two cards making 21
        return ((0, factorial(sum(deck))),)
    return tuple(sorted(_dealer_draws(deck, hard, has_ace, hit_soft_17).items()))


@cache
def _dealer_draws(deck: tuple, hard: int, has_ace: bool, hit_soft_17: bool) -> dict:
    """{final total: orders x |deck|!-scaling} of a dealer holding more than one card (``hard`` with aces as
    1) who draws from ``deck`` by its rule; every card order counted, equal decks shared.

    Probabilities of drawing in order from ``n`` cards are products of ``count / remaining``; scaled by
    ``n!`` they are integers: ``P(deck) n! = sum over kinds of count x P(deck less it) (n - 1)!``.
    """
    soft = has_ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    n = sum(deck)
    if total > 21 or total > 17 or (total == 17 and not (soft and hit_soft_17)):
        return {22 if total > 21 else total: factorial(n)}
    if n == 0:
        raise ValueError("the deck ran out while the dealer was drawing")
    out: dict[int, int] = {}
    for kind in range(len(deck)):
        if deck[kind]:
            r = TEN if kind == N_RANKS else kind
            for key, q in _dealer_draws(minus(deck, kind), hard + r + 1, has_ace or r == ACE, hit_soft_17).items():
                out[key] = out.get(key, 0) + deck[kind] * q
    return out


def split_distribution_exhaustive(base: tuple, up: int, rules: Rules, pair: int, split_strategy: str,
                                  unsplit: Player, pair_face: int | None = None) -> dict:
    """Exact joint distribution of a split, by dealing every card in table order (slow: small decks only).

    {(doubled hands, dealer blackjack 0/1, net in initial bets, hands): probability}, joint
    units (the probabilities sum to P(no settled dealer blackjack) for this hand).

    The check on :func:`split_value`.  The hole card is dealt first (left out
    when it would make a settled blackjack), then each split hand is played to
    the end in turn, resplitting pair cards while hands may be added, and last
    the dealer draws from what is left.  Each hand follows the split strategy's
    decisions exactly as :func:`split_value` assumes (CDZ-, CDP1 or CDP, with
    ``gone`` pair cards known to be out), but nothing is approximated: every
    card any hand draws leaves the deck.

    ``pair_face``: for tens split by rank with resplits, the cards of the
    pair's own face in ``base`` (the pair's two included): the deck is dealt
    with those as an eleventh kind of card, the only ten-valued card that
    resplits.
    """
    if base[pair] < 2:
        raise ValueError("the deck does not hold the pair")
    context = split_contexts(base, up, rules, pair, split_strategy, unsplit)
    one_card = pair == ACE and rules.split_aces_one_card
    most = rules.max_split_hands if pair != ACE or rules.resplit_aces else 2
    faces = pair == TEN and rules.split_tens == "rank" and most > 2
    if faces and pair_face is None:
        raise ValueError("tens split by rank: say how many cards of the pair's face the deck holds")
    kinds = N_RANKS + 1 if faces else N_RANKS       # kind N_RANKS: a ten of the pair's face

    def rank(kind: int) -> int:
        return TEN if kind == N_RANKS else kind

    resplit_kind = N_RANKS if faces else pair
    bj_card = blackjack_rank(up)
    excluded = bj_card if rules.blackjack_settled_as_peek(up) else None

    # Every probability is kept as an integer: the probability of what follows a deck of n cards times n!
    # (drawing a card of a kind with count c from n cards: c / n, and n! c / n = c (n - 1)!), made a
    # fraction once at the end.
    def settle(deck: tuple, hole: int, finished: tuple) -> dict:
        cells: dict = {}
        doubles = sum(bet == 2 for _, bet in finished)
        for dealer_total, p in dealer_totals(deck, up, hole, rules.hit_soft_17):
            net = 0
            for total, bet in finished:
                if dealer_total == 0 or total > 21 or total < dealer_total <= 21:
                    net -= bet
                elif total > dealer_total or dealer_total == 22:
                    net += bet
            key = (doubles, int(dealer_total == 0), net, len(finished))
            cells[key] = cells.get(key, 0) + p
        return cells

    def mix(parts: list) -> dict:
        """The sum of c x cells over (c, cells): c the count of the card drawn."""
        out: dict = {}
        for c, cells in parts:
            for key, q in cells.items():
                out[key] = out.get(key, 0) + c * q
        return out

    @cache
    def play(deck: tuple, hole: int, hands: int, waiting: int, hand: tuple | None, bet: int,
             finished: tuple) -> dict:
        n = sum(deck)
        if n == 0 and (waiting or hand is not None):
            raise ValueError("the deck ran out while a split hand was drawing")
        if hand is None:
            if waiting == 0:
                return settle(deck, hole, finished)
            parts = []
            start = tuple(int(q == pair) for q in range(N_RANKS))
            for kind in range(kinds):
                if not deck[kind]:
                    continue
                p = deck[kind]
                if kind == resplit_kind and hands < most:
                    parts.append((p, play(minus(deck, kind), hole, hands + 1, waiting + 1, None, 1, finished)))
                else:
                    parts.append((p, play(minus(deck, kind), hole, hands, waiting - 1, plus(start, rank(kind)), 1,
                                          finished)))
            return mix(parts)
        total, _ = hand_total(hand)
        if total >= 21 or one_card:
            done = tuple(sorted(finished + ((total, bet),)))
            return play(deck, hole, hands, waiting, None, 1, done)
        action = context(hands - 1).decide(hand) if bet == 1 else "stand"
        if action == "stand":
            return play(deck, hole, hands, waiting, None, 1, tuple(sorted(finished + ((total, bet),))))
        new_bet = 2 if action == "double" else 1
        return mix([(deck[kind], play(minus(deck, kind), hole, hands, waiting, plus(hand, rank(kind)), new_bet,
                                      finished))
                    for kind in range(kinds) if deck[kind]])

    deck = tuple(c - 2 if r == pair else c for r, c in enumerate(base))
    if faces and pair_face is not None:
        deck = deck[:TEN] + (deck[TEN] - (pair_face - 2), pair_face - 2)
    scaled = mix([(deck[hole], play(minus(deck, hole), hole, 2, 2, None, 1, ()))
                  for hole in range(kinds) if deck[hole] and rank(hole) != excluded])
    whole = factorial(sum(deck))
    return {key: Fraction(w, whole) for key, w in scaled.items()}


def round_distribution(rules: Rules, shoe: Sequence[int], action, split_action, insure, even_money: bool
                       ) -> tuple[dict[Fraction, Fraction], Fraction]:
    """Exact distribution of a round's net result, and E[stake], for a fixed strategy (one split at most).

    The twin of ``ev.analysis.accounting``: it deals every card in table order (up card,
    the player's two cards, the hole card, the player's draws, the dealer's
    draws) and follows the strategy given as functions of the hand:
    ``action(up, hand)`` -> 'stand' | 'hit' | 'double' | 'split' | 'surrender'
    (unsplit hands), ``split_action(up, hand)`` -> 'stand' | 'hit' | 'double'
    (split hands), ``insure(up, hand)`` -> bool.  Hands are rank-count tuples.
    Small shoes only.

    A way of dealing k cards from the shoe's n has probability (its product of counts) / (n (n - 1) ...
    (n - k + 1)): the counts are multiplied as integers, and each sum is divided by its ``perm(n, k)`` once at
    the end.
    """
    if rules.max_split_hands > 2:
        raise ValueError("the reference distribution handles one split only")
    shoe = tuple(shoe)
    n0 = sum(shoe)
    # nets and stakes stay integers (int arithmetic) unless a half bet or the payout makes them fractions
    ways_by: dict[tuple[int, Fraction | int], int] = {}     # (cards dealt, net) -> the deals' products of counts
    stake_by: dict[int, Fraction | int] = {}                # cards dealt -> sum of products of counts x stake

    def add(ways: int, left: tuple, net: Fraction | int, stake: Fraction | int) -> None:
        """Count a way of dealing that leaves ``left`` in the shoe."""
        k = n0 - sum(left)
        ways_by[k, net] = ways_by.get((k, net), 0) + ways
        stake_by[k] = stake_by.get(k, 0) + ways * stake

    def dealer_final(deck: tuple, up: int, hole: int) -> list[tuple[int, int, tuple]]:
        """(total or 22 for bust, product of counts, the deck left) of each way the dealer's hand ends."""
        out: list = []

        def draw(deck, hard, has_ace, ways):
            soft = has_ace and hard + 10 <= 21
            total = hard + 10 if soft else hard
            if total > 21 or total > 17 or (total == 17 and not (soft and rules.hit_soft_17)):
                out.append((min(total, 22), ways, deck))
                return
            for r in range(N_RANKS):
                if deck[r]:
                    draw(minus(deck, r), hard + r + 1, has_ace or r == ACE, ways * deck[r])

        draw(deck, up + hole + 2, ACE in (up, hole), 1)
        return out

    def play(deck: tuple, hand: tuple, ways: int, after_split: bool, first: bool, finals: list) -> None:
        """Play one hand to its end; append (deck after, total, bet, ways) for each way it ends."""
        total, _ = hand_total(hand)
        if total >= 21 or (after_split and hand[ACE] >= 1 and sum(hand) == 2 and
                           rules.split_aces_one_card and _split_from_ace[0]):
            finals.append((deck, total, 1, ways))
            return
        a = split_action(up_card[0], hand) if after_split else action(up_card[0], hand)
        if a == "stand":
            finals.append((deck, total, 1, ways))
            return
        for r in range(N_RANKS):
            if deck[r]:
                w = ways * deck[r]
                new = plus(hand, r)
                if a == "double":
                    finals.append((minus(deck, r), hand_total(new)[0], 2, w))
                else:
                    play(minus(deck, r), new, w, after_split, False, finals)

    def score(total: int, bet: int, dealer_total: int, dealer_bj: bool) -> int:
        if total > 21 or dealer_bj:
            return -bet
        if dealer_total > 21 or total > dealer_total:
            return bet
        return -bet if total < dealer_total else 0

    up_card = [0]
    _split_from_ace = [False]
    for up in range(N_RANKS):
        if not shoe[up]:
            continue
        up_card[0] = up
        d1 = minus(shoe, up)
        for c1 in range(N_RANKS):
            for c2 in range(N_RANKS):
                if not d1[c1] or (c2 == c1 and d1[c1] < 2) or not d1[c2]:
                    continue
                w_deal = shoe[up] * d1[c1] * minus(d1, c1)[c2]
                hand = plus(plus((0,) * N_RANKS, c1), c2)
                d2 = minus(minus(d1, c1), c2)
                natural = {c1, c2} == {ACE, TEN}
                bj_card = blackjack_rank(up)
                settled = rules.blackjack_settled_as_peek(up)
                for hole in range(N_RANKS):
                    if not d2[hole]:
                        continue
                    w = w_deal * d2[hole]
                    d3 = minus(d2, hole)
                    dealer_bj = hole == bj_card
                    if natural:
                        if up == ACE and rules.even_money and even_money:
                            add(w, d3, 1, 1)       # even money: stake 1 (the initial bet only)
                        else:
                            add(w, d3, 0 if dealer_bj else rules.payout, 1)
                        continue
                    insured = up == ACE and rules.insurance and insure(up, hand)
                    ins_net = (1 if dealer_bj else Fraction(-1, 2)) if insured else 0
                    ins_stake = Fraction(1, 2) if insured else 0
                    if dealer_bj and settled:
                        add(w, d3, -1 + ins_net, 1 + ins_stake)
                        continue
                    a = action(up, hand)
                    if a == "surrender":
                        add(w, d3, (-1 if dealer_bj else Fraction(-1, 2)) + ins_net, 1 + ins_stake)
                        continue
                    if a == "split":
                        _split_from_ace[0] = c1 == ACE
                        start = plus((0,) * N_RANKS, c1)
                        first: list = []
                        for r in range(N_RANKS):
                            if d3[r]:
                                play(minus(d3, r), plus(start, r), d3[r], True, True, first)
                        for deck1, t1, b1, w1 in first:
                            second: list = []
                            for r in range(N_RANKS):
                                if deck1[r]:
                                    play(minus(deck1, r), plus(start, r), w1 * deck1[r], True, True, second)
                            for deck2, t2, b2, w2 in second:
                                for dt, wd, left in dealer_final(deck2, up, hole):
                                    net = score(t1, b1, dt, dealer_bj) + score(t2, b2, dt, dealer_bj)
                                    add(w * w2 * wd, left, net + ins_net, b1 + b2 + ins_stake)
                        _split_from_ace[0] = False
                        continue
                    finals: list = []
                    play(d3, hand, 1, False, True, finals)
                    for deck1, t1, b1, w1 in finals:
                        for dt, wd, left in dealer_final(deck1, up, hole):
                            add(w * w1 * wd, left, score(t1, b1, dt, dealer_bj) + ins_net, b1 + ins_stake)
    dist: dict[Fraction, Fraction] = {}
    for (k, result), ways in ways_by.items():
        key = Fraction(result)
        dist[key] = dist.get(key, Fraction(0)) + Fraction(ways, perm(n0, k))
    stake_total = sum((Fraction(total) / perm(n0, k) for k, total in stake_by.items()), Fraction(0))
    return dist, stake_total


def optimal_split_search(base: tuple, up: int, rules: Rules, pair: int, worst: bool = False
                         ) -> tuple[Fraction, dict]:
    """Truly optimal one-split play by searching every way to play both hands (slow: small decks only).

    Returns the joint EV of splitting (both hands) and the joint distribution
    {(doubles, dealer_blackjack, net): mass} of the split's play under the
    optimal decisions.  ``base`` is the deck the pair was dealt from.
    ``worst``: every decision minimises instead (the lowest EV any legal play
    of both hands reaches; exact ties still go to the earlier action).

    The first hand is played to its end, then the second; every decision
    (stand, hit, double where the rules allow it after a split) maximises the
    expected result of *both* hands given every card the player has seen (the
    first hand's cards included when the second is played); exact ties go to
    the earlier of stand, hit, double.  Then the dealer draws from what is left.
    No decision sees the hole card, so given the player's cards it is uniform
    over the unseen ones and may be drawn with the dealer's cards, as in
    :class:`Player` (joint units: a hole card that makes a settled blackjack is
    left out).  A deck that runs out raises ValueError.
    """
    if rules.split_hands(pair) != 2:
        raise ValueError("the search plays one split (two hands)")
    if base[pair] < 2:
        raise ValueError("the deck does not hold the pair")
    one_card = pair == ACE and rules.split_aces_one_card
    start = tuple(int(q == pair) for q in range(N_RANKS))

    def result(total: int, bet: int, outcome: int) -> int:
        """A hand's result against the dealer's outcome (index into OUTCOMES)."""
        if total > 21 or outcome == 6:
            return -bet
        if outcome == 5 or total > 17 + outcome:
            return bet
        return 0 if total == 17 + outcome else -bet

    # Values and masses are kept as integers: the probability of what follows a deck of n cards times n!
    # (drawing a card of count c from n cards: c / n, and n! c / n = c (n - 1)!); decisions compare values of
    # one deck, so they compare the same under the scaling.  Fractions are made once at the end.
    def outcomes(deck: tuple, finished: tuple) -> dict:
        """Both hands are done: the dealer draws; {(doubles, dealer_blackjack, net): mass x |deck|!}."""
        scale = factorial(sum(deck))
        out: dict = {}
        for o, p in enumerate(dealer_distribution(deck, up, rules)):
            if p:
                key = (sum(bet - 1 for _, bet in finished), int(o == 6),
                       sum(result(total, bet, o) for total, bet in finished))
                out[key] = out.get(key, 0) + p.numerator * (scale // p.denominator)
        return out

    def draws(deck: tuple) -> list[tuple[int, int]]:
        """(count, rank) of each rank the deck holds."""
        if sum(deck) == 0:
            raise ValueError("the deck ran out while the player was drawing")
        return [(deck[r], r) for r in range(N_RANKS) if deck[r]]

    @cache
    def best(deck: tuple, finished: tuple, hand: tuple | None) -> tuple[int, str]:
        """(value x |deck|!, action) where ``hand`` is to be played (None: the next hand gets its second card)."""
        if hand is None:
            if len(finished) == 2:
                return sum(net * p for (_, _, net), p in outcomes(deck, finished).items()), ""
            return sum(c * best(minus(deck, r), finished, plus(start, r))[0] for c, r in draws(deck)), "deal"
        total, soft = hand_total(hand)
        values = {"stand": best(deck, tuple(sorted(finished + ((total, 1),))), None)[0]}
        if total < 21 and not one_card:
            values["hit"] = sum(c * best(minus(deck, r), finished, plus(hand, r))[0] for c, r in draws(deck))
            if sum(hand) == 2 and rules.may_double(total, soft, after_split=True):
                values["double"] = sum(
                    c * best(minus(deck, r), tuple(sorted(finished + ((hand_total(plus(hand, r))[0], 2),))),
                             None)[0] for c, r in draws(deck))
        if worst:
            action = min(values, key=lambda a: (values[a], ACTIONS.index(a)))
        else:
            action = max(values, key=lambda a: (values[a], -ACTIONS.index(a)))
        return values[action], action

    def distribution(deck: tuple, finished: tuple, hand: tuple | None, weight: int, out: dict) -> None:
        """Follow the optimal decisions to the dealer; add each outcome's mass times ``weight`` (the product of
        the counts drawn so far) to ``out``."""
        if hand is None:
            if len(finished) == 2:
                for key, p in outcomes(deck, finished).items():
                    out[key] = out.get(key, 0) + weight * p
                return
            for c, r in draws(deck):
                distribution(minus(deck, r), finished, plus(start, r), weight * c, out)
            return
        total, _ = hand_total(hand)
        action = best(deck, finished, hand)[1]
        if action == "stand":
            distribution(deck, tuple(sorted(finished + ((total, 1),))), None, weight, out)
            return
        for c, r in draws(deck):
            grown = plus(hand, r)
            if action == "hit":
                distribution(minus(deck, r), finished, grown, weight * c, out)
            else:
                done = tuple(sorted(finished + ((hand_total(grown)[0], 2),)))
                distribution(minus(deck, r), done, None, weight * c, out)

    deck = tuple(c - 2 * (r == pair) for r, c in enumerate(base))
    scaled: dict = {}
    distribution(deck, (), None, 1, scaled)
    whole = factorial(sum(deck))
    return Fraction(best(deck, (), None)[0], whole), {key: Fraction(m, whole) for key, m in scaled.items()}


def minimum_round_ev(rules: Rules, shoe: Sequence[int]) -> Fraction:
    """The lowest EV of a round over every legal strategy, in initial bets, by search (small shoes only).

    Every initial deal (up card, then the player's two cards) with its probability; then the worst of
    every choice: insurance taken when its EV is negative, even money when it is worth less than the
    declined blackjack; the worst of stand, hit (each later decision again the worst of stand and hit,
    never hitting 21), double, surrender and split where the rules allow them.  A split is valued by
    :func:`optimal_split_search` with ``worst`` (both hands played worst with every card seen: one split
    only).  Joint units as in :class:`Player`; a pair of ten-valued cards split by rank may be split only
    when the ranks agree.
    """
    if rules.max_split_hands > 2:
        raise ValueError("the search plays one split (two hands)")
    shoe = tuple(shoe)
    n = sum(shoe)
    return sum((Fraction(shoe[up], n) * _minimum_upcard_ev(rules, up, minus(shoe, up))
                for up in range(N_RANKS) if shoe[up]), Fraction(0))


def _minimum_upcard_ev(rules: Rules, up: int, base: tuple) -> Fraction:
    """:func:`minimum_round_ev` given the up card, the deal from ``base`` (the shoe less the up card)."""
    player = Player(base, up, rules)
    bj = blackjack_rank(up)
    settled = rules.blackjack_settled_as_peek(up)
    n = sum(base)

    def draws(hand: tuple) -> list[tuple[Fraction, tuple]]:
        d = player.deck(hand)
        size = sum(d)
        return [(Fraction(d[r], size), plus(hand, r)) for r in range(N_RANKS) if d[r]]

    @cache
    def worst(hand: tuple) -> Fraction:
        """A hand that has just taken a card, played on worst (stand or hit)."""
        if hand_total(hand)[0] >= 21:
            return player.stand(hand)
        return min(player.stand(hand), sum((p * worst(h) for p, h in draws(hand)), Fraction(0)))

    ev = Fraction(0)
    for c1 in range(N_RANKS):
        for c2 in range(N_RANKS):
            first = minus(base, c1)
            if not base[c1] or not first[c2]:
                continue
            p = Fraction(base[c1], n) * Fraction(first[c2], n - 1)
            hand = plus(plus((0,) * N_RANKS, c1), c2)
            d = player.deck(hand)
            p_bj = Fraction(d[bj], sum(d)) if bj is not None else Fraction(0)
            total, soft = hand_total(hand)
            if total == 21:
                value = rules.payout * (1 - p_bj)
                if up == ACE and rules.even_money:
                    value = min(value, Fraction(1))
                ev += p * value
                continue
            value = min(Fraction(1, 2) * (3 * p_bj - 1), Fraction(0)) if up == ACE and rules.insurance else Fraction(0)
            if settled:
                value -= p_bj
            plays = [player.stand(hand), sum((q * worst(h) for q, h in draws(hand)), Fraction(0))]
            if rules.may_double(total, soft):
                plays.append(2 * sum((q * player.stand(h) for q, h in draws(hand)), Fraction(0)))
            if rules.late_surrender:
                plays.append(-Fraction(1, 2) * player.mass(hand) if settled else -Fraction(1, 2) * (1 - p_bj) - p_bj)
            plain = min(plays)
            if c1 == c2 and rules.may_split:
                split = min(plain, optimal_split_search(base, up, rules, c1, worst=True)[0])
                if c1 == TEN and rules.split_tens == "rank":
                    same = Fraction(4 * rules.decks - 1, 16 * rules.decks - 1)
                    plain = same * split + (1 - same) * plain
                else:
                    plain = split
            ev += p * (value + plain)
    return ev
