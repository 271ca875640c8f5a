"""Pure-Python reference twin of the Cython core: the same mathematics, slow and plain.

This module is the oracle of the test suite and the readable statement of the
mathematics.  It works with :class:`fractions.Fraction` throughout, so every
value is exact; it enumerates card by card with no precomputed tables, so it
shares no code path with the core beyond the rules object.

Units and conventions (shared with the core):

* Values are in initial bets.
* *Joint units*: when a dealer blackjack under the up card is settled before
  play (peek, or an unchecked blackjack that takes only the original bet), the
  dealer's hole card is enumerated only over cards that do not make a
  blackjack, without renormalising.  A joint value is therefore
  ``E[result; no dealer blackjack]`` and the EV *conditioned on no dealer
  blackjack* is the joint value divided by ``P(no dealer blackjack)``.
  Maximising joint values makes the same choices as maximising conditioned ones
  (they differ by a positive factor common to all actions at a decision), and
  a player's later draws keep their plain ``count / remaining`` probabilities.
* Split hands (one split): ``EV(split) = 2 * V`` where ``V`` is the joint value of
  one hand that starts with the pair card, dealt from the deck that also lacks
  the other pair card (exact by exchangeability).  Resplits: see ``split_value``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache, lru_cache

from ev.core.cards import ACE, N_RANKS, TEN, full_shoe, hand_total
from ev.core.rules import Rules

OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
ACTIONS = ("stand", "hit", "double")  # preference order when values tie exactly


def _minus(deck: tuple, r: int) -> tuple:
    return deck[:r] + (deck[r] - 1,) + deck[r + 1:]


def _plus(hand: tuple, r: int) -> tuple:
    return hand[:r] + (hand[r] + 1,) + hand[r + 1:]


def blackjack_rank(up: int) -> int | None:
    """The hole card that gives the dealer a blackjack under this up card."""
    return TEN if up == ACE else ACE if up == TEN else None


@lru_cache(maxsize=4096)
def dealer_distribution(deck: tuple, up: int, rules: Rules) -> tuple[Fraction, ...]:
    """P(17), P(18), P(19), P(20), P(21), P(bust), P(blackjack) in joint units.

    ``deck`` is the unseen composition (the up card is not in it).  When a
    blackjack is settled before play, hole cards that would make one are left
    out, so the list sums to P(no dealer blackjack) and P(blackjack) is 0.
    """
    excluded = blackjack_rank(up) if rules.blackjack_settled_as_peek(up) else None
    out = [Fraction(0)] * 7

    def draw(deck: tuple, hard: int, has_ace: bool, ncards: int, prob: Fraction) -> None:
        n = sum(deck)
        if n == 0:
            raise ValueError("the deck ran out while the dealer was drawing")
        for r in range(N_RANKS):
            if deck[r] == 0 or (ncards == 1 and r == excluded):
                continue
            p = prob * Fraction(deck[r], n)
            h = hard + r + 1
            a = has_ace or r == ACE
            soft = a and h + 10 <= 21
            total = h + 10 if soft else h
            if ncards == 1 and total == 21:
                out[6] += p
            elif total > 21:
                out[5] += p
            elif total > 17 or (total == 17 and not (soft and rules.hit_soft_17)):
                out[total - 17] += p
            else:
                draw(_minus(deck, r), h, a, ncards + 1, p)

    draw(tuple(deck), up + 1, up == ACE, 1, Fraction(1))
    return tuple(out)


def stand_value(dist: Sequence[Fraction], total: int) -> Fraction:
    """Joint value of standing on ``total`` (not a blackjack) against a dealer distribution."""
    value = dist[5] - dist[6]  # dealer busts: win; dealer blackjack: lose
    for k in range(5):
        if 17 + k < total:
            value += dist[k]
        elif 17 + k > total:
            value -= dist[k]
    return value


class Player:
    """Player values for one up card, one deck and one play context.

    ``base`` is the deck from which the player's hand was dealt; the deck seen
    by a hand ``C`` is ``base - C``.  For a split hand, ``base`` also lacks the
    pair cards gone beyond the hand's own.  ``split_card`` is None for unsplit play.
    ``source``: None to play optimally in this context, or the Player whose
    optimal decisions this context copies (the unsplit player for CDZ-, the
    one-extra-pair-card context for CDP1).
    """

    def __init__(self, base: tuple, up: int, rules: Rules, split_card: int | None = None,
                 source: Player | None = None) -> None:
        self.base, self.up, self.rules = tuple(base), up, rules
        self.split_card, self.source = split_card, source
        self.excluded = blackjack_rank(up) if rules.blackjack_settled_as_peek(up) else None
        self.stand = lru_cache(maxsize=None)(self._stand)
        self.hit = lru_cache(maxsize=None)(self._hit)

    def deck(self, hand: tuple) -> tuple:
        return tuple(b - h for b, h in zip(self.base, hand))

    def mass(self, hand: tuple) -> Fraction:
        """P(no dealer blackjack) in joint units for the deck of this hand (1 when not settled first)."""
        d = self.deck(hand)
        if self.excluded is None:
            return Fraction(1)
        return 1 - Fraction(d[self.excluded], sum(d))

    def _stand(self, hand: tuple) -> Fraction:
        total, _ = hand_total(hand)
        if total > 21:
            return -self.mass(hand)
        return stand_value(dealer_distribution(self.deck(hand), self.up, self.rules), total)

    def _hit(self, hand: tuple) -> Fraction:
        d = self.deck(hand)
        n = sum(d)
        value = Fraction(0)
        for r in range(N_RANKS):
            if d[r]:
                value += Fraction(d[r], n) * self.after_card(_plus(hand, r))
        return value

    def double(self, hand: tuple) -> Fraction:
        d = self.deck(hand)
        n = sum(d)
        return 2 * sum((Fraction(d[r], n) * self.stand(_plus(hand, r)) for r in range(N_RANKS) if d[r]),
                       Fraction(0))

    def can_double(self, hand: tuple) -> bool:
        if sum(hand) != 2 or (self.split_card is not None and not self.rules.double_after_split):
            return False
        total, soft = hand_total(hand)
        if self.rules.double == "any":
            return self.rules.double_soft or not soft
        lo = 9 if self.rules.double == "9-11" else 10
        return lo <= total <= 11 and (self.rules.double_soft or not soft)

    def after_card(self, hand: tuple) -> Fraction:
        """Value of a hand that has just received a card, played on by this context's strategy."""
        total, _ = hand_total(hand)
        if total > 21:
            return -self.mass(hand)
        if total == 21:
            return self.stand(hand)
        return self.value_of(self.decide(hand), hand)

    def decide(self, hand: tuple) -> str:
        """The action this context takes at ``hand`` (stand, hit or double)."""
        choices = ["stand", "hit"] + (["double"] if self.can_double(hand) else [])
        return (self.source or self).choose(hand, choices)

    def value_of(self, action: str, hand: tuple) -> Fraction:
        methods: dict[str, Callable[[tuple], Fraction]] = {"stand": self.stand, "hit": self.hit,
                                                           "double": self.double}
        return methods[action](hand)

    def choose(self, hand: tuple, choices: list[str]) -> str:
        """The best action among ``choices`` by this context's values; exact ties go to the earlier one."""
        best = choices[0]
        for a in choices[1:]:
            if self.value_of(a, hand) > self.value_of(best, hand):
                best = a
        return best


def split_contexts(base: tuple, up: int, rules: Rules, pair: int, split_strategy: str,
                   unsplit: Player):
    """A function ``extra -> Player`` for split hands whose deck lacks ``extra`` pair cards beyond their own."""
    made: dict[int, Player] = {}

    def context(extra: int) -> Player:
        if extra not in made:
            deck = tuple(c - extra if r == pair else c for r, c in enumerate(base))
            if split_strategy == "cdz":
                source = unsplit
            elif split_strategy == "cdp1" and extra > 1:
                source = context(1)
            else:
                source = None
            made[extra] = Player(deck, up, rules, split_card=pair, source=source)
        return made[extra]

    return context


def split_value(base: tuple, up: int, rules: Rules, pair: int, split_strategy: str,
                unsplit: Player) -> Fraction:
    """Joint EV of splitting a pair, summed over every hand the split makes.

    ``base`` is the deck the pair was dealt from (it still holds both pair cards).
    One split (``max_split_hands`` 2): ``2 * V``, exact by exchangeability, ``V``
    being one hand dealt from the deck less both pair cards.  With resplits, the
    hands are completed one at a time; a hand whose second card is a pair card
    becomes two while hands may still be added; each hand is played from the
    deck less the pair cards seen so far (the one approximation: the other
    hands' non-pair cards are not removed).
    """
    if base[pair] < 2:
        raise ValueError("the deck does not hold the pair")
    context = split_contexts(base, up, rules, pair, split_strategy, unsplit)
    one_card = pair == ACE and rules.split_aces_one_card
    most = rules.max_split_hands if pair != ACE or rules.resplit_aces else 2
    by_rank = pair == TEN and rules.split_tens == "rank"

    def hand_value(gone: int, r: int) -> Fraction:
        """Joint value of the split hand {pair, r} when ``gone`` pair cards (its own included) are out."""
        player = context(gone - 1)
        hand = tuple((q == pair) + (q == r) for q in range(N_RANKS))
        return player.stand(hand) if one_card else player.after_card(hand)

    def play(hands: int, waiting: int, gone: int) -> Fraction:
        if waiting == 0:
            return Fraction(0)
        d = tuple(c - gone if r == pair else c for r, c in enumerate(base))
        n = sum(d)
        resplit_cards = 0
        if hands < most:
            resplit_cards = max(4 * rules.decks - gone, 0) if by_rank else d[pair]
        total = Fraction(0)
        for r in range(N_RANKS):
            count = d[r] - (resplit_cards if r == pair else 0)
            if count > 0:
                rest = play(hands, waiting - 1, gone) if hands < most else 0
                total += Fraction(count, n) * (hand_value(gone, r) + rest)
        if resplit_cards:
            total += Fraction(resplit_cards, n) * play(hands + 1, waiting + 1, gone + 1)
        if hands >= most:
            total *= waiting
        return total

    return play(2, 2, 2)


def surrender_value(player: Player, hand: tuple) -> Fraction:
    """Late surrender: half the bet back.  An unsettled dealer blackjack still takes the whole bet."""
    if player.excluded is not None:
        return -Fraction(1, 2) * player.mass(hand)
    r = blackjack_rank(player.up)
    d = player.deck(hand)
    p_bj = Fraction(d[r], sum(d)) if r is not None else Fraction(0)
    return -Fraction(1, 2) * (1 - p_bj) - p_bj


def hand_values(hand: Sequence[int], up: int, rules: Rules, base: Sequence[int],
                split_strategy: str = "cdz", can_split: bool = True) -> dict:
    """Joint values of every allowed action for a player hand (composition) against ``up``.

    ``base`` is the unseen deck before the player's hand was dealt (full shoe minus
    up card and any removed cards).  Returns a dict with the actions that are
    allowed ('stand', 'hit', 'double', 'split', 'surrender') and 'mass', the
    probability of no dealer blackjack in joint units.
    """
    hand, base = tuple(hand), tuple(base)
    unsplit = Player(base, up, rules)
    total, _ = hand_total(hand)
    out: dict = {"mass": unsplit.mass(hand), "stand": unsplit.stand(hand)}
    if total < 21:
        out["hit"] = unsplit.hit(hand)
    if unsplit.can_double(hand):
        out["double"] = unsplit.double(hand)
    pair = next((r for r in range(N_RANKS) if hand[r] == 2), None) if sum(hand) == 2 else None
    if pair is not None and can_split and rules.max_split_hands >= 2:
        out["split"] = split_value(base, up, rules, pair, split_strategy, unsplit)
    if rules.late_surrender and sum(hand) == 2:
        out["surrender"] = surrender_value(unsplit, hand)
    return out


def round_ev(rules: Rules, split_strategy: str = "cdz", shoe: Sequence[int] | None = None) -> Fraction:
    """Exact EV of a round in initial bets under optimal composition-dependent play."""
    shoe = tuple(full_shoe(rules.decks) if shoe is None else shoe)
    n = sum(shoe)
    total = Fraction(0)
    for up in range(N_RANKS):
        if not shoe[up]:
            continue
        base = _minus(shoe, up)
        total += Fraction(shoe[up], n) * upcard_ev(rules, up, base, split_strategy)
    return total


def upcard_ev(rules: Rules, up: int, base: tuple, split_strategy: str = "cdz") -> Fraction:
    """EV of a round given the up card, dealt from ``base`` (shoe minus up card)."""
    n = sum(base)
    bj_rank = blackjack_rank(up)
    settled = rules.blackjack_settled_as_peek(up)
    unsplit = Player(base, up, rules)
    ev = Fraction(0)
    for c1 in range(N_RANKS):
        for c2 in range(c1, N_RANKS):
            if c1 == c2:
                if base[c1] < 2:
                    continue
                p = Fraction(base[c1] * (base[c1] - 1), n * (n - 1))
            else:
                p = Fraction(2 * base[c1] * base[c2], n * (n - 1))
            if not p:
                continue
            hand = tuple((r == c1) + (r == c2) for r in range(N_RANKS))
            d = unsplit.deck(hand)
            p_bj = Fraction(d[bj_rank], sum(d)) if bj_rank is not None else Fraction(0)
            offered = up == ACE and rules.insurance
            if {c1, c2} == {ACE, TEN}:
                value = rules.payout * (1 - p_bj)
                if up == ACE and rules.even_money:
                    value = max(value, Fraction(1))
                ev += p * value
                continue
            insurance = Fraction(1, 2) * (3 * p_bj - 1) if offered else Fraction(0)
            value = max(insurance, Fraction(0))
            if settled:
                value -= p_bj
            vals = hand_values(hand, up, rules, base, split_strategy)
            if c1 == c2 == TEN and "split" in vals and rules.split_tens == "rank":
                same = _same_ten_rank_probability(rules, base)
                best_split = max(v for k, v in vals.items() if k != "mass")
                best_plain = max(v for k, v in vals.items() if k not in ("mass", "split"))
                value += same * best_split + (1 - same) * best_plain
            else:
                value += max(v for k, v in vals.items() if k != "mass")
            ev += p * value
    return ev


def _same_ten_rank_probability(rules: Rules, base: tuple) -> Fraction:
    """P(two ten-valued cards share a rank) for a shoe whose tens are T, J, Q, K in equal numbers."""
    per_rank = 4 * rules.decks
    tens = 16 * rules.decks
    return Fraction(per_rank - 1, tens - 1)


def split_value_exhaustive(base: tuple, up: int, rules: Rules, pair: int, split_strategy: str,
                           unsplit: Player) -> Fraction:
    """Exact joint EV of splitting, by dealing every card in table order (slow: small decks only).

    The check on :func:`split_value`.  The hole card is dealt first (left out
    when it would make a settled blackjack), then each split hand is played to
    the end in turn, resplitting pair cards while hands may be added, and last
    the dealer draws from what is left.  Each hand follows the split strategy's
    decisions exactly as :func:`split_value` assumes (CDZ-, CDP1 or CDP, with
    ``gone`` pair cards known to be out), but nothing is approximated: every
    card any hand draws leaves the deck.  With one split it equals
    ``split_value`` exactly; with resplits it measures the approximation.
    """
    if base[pair] < 2:
        raise ValueError("the deck does not hold the pair")
    context = split_contexts(base, up, rules, pair, split_strategy, unsplit)
    one_card = pair == ACE and rules.split_aces_one_card
    most = rules.max_split_hands if pair != ACE or rules.resplit_aces else 2
    by_rank = pair == TEN and rules.split_tens == "rank"
    if by_rank and most > 2:
        raise ValueError("the exhaustive check does not model ten ranks")
    bj_card = blackjack_rank(up)
    excluded = bj_card if rules.blackjack_settled_as_peek(up) else None

    @cache
    def dealer(deck: tuple, hole: int) -> tuple:
        """Dealer's final total (17..21, 22 for bust, 0 for blackjack) distribution, up and hole known."""
        out: dict[int, Fraction] = {}

        def draw(deck: tuple, hard: int, has_ace: bool, prob: Fraction, ncards: int) -> None:
            soft = has_ace and hard + 10 <= 21
            total = hard + 10 if soft else hard
            if ncards == 2 and total == 21:
                out[0] = out.get(0, Fraction(0)) + prob
                return
            if total > 21 or total > 17 or (total == 17 and not (soft and rules.hit_soft_17)):
                key = 22 if total > 21 else total
                out[key] = out.get(key, Fraction(0)) + prob
                return
            n = sum(deck)
            for r in range(N_RANKS):
                if deck[r]:
                    draw(_minus(deck, r), hard + r + 1, has_ace or r == ACE, prob * Fraction(deck[r], n),
                         ncards + 1)

        draw(deck, up + hole + 2, ACE in (up, hole), Fraction(1), 2)
        return tuple(sorted(out.items()))

    def settle(deck: tuple, hole: int, finished: tuple) -> Fraction:
        value = Fraction(0)
        for dealer_total, p in dealer(deck, hole):
            for total, bet in finished:
                if dealer_total == 0 or total > 21 or total < dealer_total <= 21:
                    value -= p * bet
                elif total > dealer_total or dealer_total == 22:
                    value += p * bet
        return value

    @cache
    def play(deck: tuple, hole: int, hands: int, waiting: int, hand: tuple | None, bet: int,
             finished: tuple) -> Fraction:
        n = sum(deck)
        if hand is None:
            if waiting == 0:
                return settle(deck, hole, finished)
            value = Fraction(0)
            start = tuple(int(q == pair) for q in range(N_RANKS))
            for r in range(N_RANKS):
                if not deck[r]:
                    continue
                p = Fraction(deck[r], n)
                if r == pair and hands < most:
                    value += p * play(_minus(deck, r), hole, hands + 1, waiting + 1, None, 1, finished)
                else:
                    value += p * play(_minus(deck, r), hole, hands, waiting - 1, _plus(start, r), 1, finished)
            return value
        total, _ = hand_total(hand)
        if total >= 21 or one_card:
            done = tuple(sorted(finished + ((total, bet),)))
            return play(deck, hole, hands, waiting, None, 1, done)
        action = context(hands - 1).decide(hand) if bet == 1 else "stand"
        if action == "stand":
            return play(deck, hole, hands, waiting, None, 1, tuple(sorted(finished + ((total, bet),))))
        new_bet = 2 if action == "double" else 1
        value = Fraction(0)
        for r in range(N_RANKS):
            if deck[r]:
                value += Fraction(deck[r], n) * play(_minus(deck, r), hole, hands, waiting, _plus(hand, r),
                                                     new_bet, finished)
        return value

    deck = tuple(c - 2 if r == pair else c for r, c in enumerate(base))
    n = sum(deck)
    total = Fraction(0)
    for hole in range(N_RANKS):
        if deck[hole] and hole != excluded:
            total += Fraction(deck[hole], n) * play(_minus(deck, hole), hole, 2, 2, None, 1, ())
    return total


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
    """
    if rules.max_split_hands > 2:
        raise ValueError("the reference distribution handles one split only")
    dist: dict[Fraction, Fraction] = {}
    stake_total = Fraction(0)

    def add(p: Fraction, net: Fraction, stake: Fraction) -> None:
        nonlocal stake_total
        dist[net] = dist.get(net, Fraction(0)) + p
        stake_total += p * stake

    def dealer_final(deck: tuple, up: int, hole: int) -> list[tuple[int, Fraction]]:
        """(total or 22 for bust, probability) of the dealer's final hand."""
        out: list = []

        def draw(deck, hard, has_ace, prob):
            soft = has_ace and hard + 10 <= 21
            total = hard + 10 if soft else hard
            if total > 21 or total > 17 or (total == 17 and not (soft and rules.hit_soft_17)):
                out.append((min(total, 22), prob))
                return
            n = sum(deck)
            for r in range(N_RANKS):
                if deck[r]:
                    draw(_minus(deck, r), hard + r + 1, has_ace or r == ACE, prob * Fraction(deck[r], n))

        draw(deck, up + hole + 2, ACE in (up, hole), Fraction(1))
        return out

    def play(deck: tuple, hand: tuple, prob: Fraction, after_split: bool, first: bool, finals: list) -> None:
        """Play one hand to its end; append (deck after, total, bet, prob) for each way it ends."""
        total, _ = hand_total(hand)
        if total >= 21 or (after_split and hand[ACE] >= 1 and sum(hand) == 2 and
                           rules.split_aces_one_card and _split_from_ace[0]):
            finals.append((deck, total, 1, prob))
            return
        a = split_action(up_card[0], hand) if after_split else action(up_card[0], hand)
        if a == "stand":
            finals.append((deck, total, 1, prob))
            return
        n = sum(deck)
        for r in range(N_RANKS):
            if deck[r]:
                p = prob * Fraction(deck[r], n)
                new = _plus(hand, r)
                if a == "double":
                    finals.append((_minus(deck, r), hand_total(new)[0], 2, p))
                else:
                    play(_minus(deck, r), new, p, after_split, False, finals)

    def score(total: int, bet: int, dealer_total: int, dealer_bj: bool) -> int:
        if total > 21 or dealer_bj:
            return -bet
        if dealer_total > 21 or total > dealer_total:
            return bet
        return -bet if total < dealer_total else 0

    up_card = [0]
    _split_from_ace = [False]
    shoe = tuple(shoe)
    n0 = sum(shoe)
    for up in range(N_RANKS):
        if not shoe[up]:
            continue
        up_card[0] = up
        d1 = _minus(shoe, up)
        p_up = Fraction(shoe[up], n0)
        for c1 in range(N_RANKS):
            for c2 in range(N_RANKS):
                if not d1[c1] or (c2 == c1 and d1[c1] < 2) or not d1[c2]:
                    continue
                p_deal = p_up * Fraction(d1[c1], sum(d1)) * Fraction(_minus(d1, c1)[c2], sum(d1) - 1)
                hand = _plus(_plus((0,) * N_RANKS, c1), c2)
                d2 = _minus(_minus(d1, c1), c2)
                natural = {c1, c2} == {ACE, TEN}
                bj_card = blackjack_rank(up)
                settled = rules.blackjack_settled_as_peek(up)
                for hole in range(N_RANKS):
                    if not d2[hole]:
                        continue
                    p = p_deal * Fraction(d2[hole], sum(d2))
                    d3 = _minus(d2, hole)
                    dealer_bj = hole == bj_card
                    if natural:
                        if up == ACE and rules.even_money and even_money:
                            add(p, Fraction(1), Fraction(3, 2))
                        else:
                            add(p, Fraction(0) if dealer_bj else rules.payout, Fraction(1))
                        continue
                    insured = up == ACE and rules.insurance and insure(up, hand)
                    ins_net = (Fraction(1) if dealer_bj else Fraction(-1, 2)) if insured else Fraction(0)
                    ins_stake = Fraction(1, 2) if insured else Fraction(0)
                    if dealer_bj and settled:
                        add(p, -1 + ins_net, 1 + ins_stake)
                        continue
                    a = action(up, hand)
                    if a == "surrender":
                        add(p, (Fraction(-1) if dealer_bj else Fraction(-1, 2)) + ins_net, 1 + ins_stake)
                        continue
                    if a == "split":
                        _split_from_ace[0] = c1 == ACE
                        start = _plus((0,) * N_RANKS, c1)
                        first: list = []
                        n = sum(d3)
                        for r in range(N_RANKS):
                            if d3[r]:
                                play(_minus(d3, r), _plus(start, r), Fraction(d3[r], n), True, True, first)
                        for deck1, t1, b1, q1 in first:
                            second: list = []
                            n1 = sum(deck1)
                            for r in range(N_RANKS):
                                if deck1[r]:
                                    play(_minus(deck1, r), _plus(start, r), q1 * Fraction(deck1[r], n1), True, True,
                                         second)
                            for deck2, t2, b2, q2 in second:
                                for dt, qd in dealer_final(deck2, up, hole):
                                    net = score(t1, b1, dt, dealer_bj) + score(t2, b2, dt, dealer_bj)
                                    add(p * q2 * qd, net + ins_net, b1 + b2 + ins_stake)
                        _split_from_ace[0] = False
                        continue
                    finals: list = []
                    play(d3, hand, Fraction(1), False, True, finals)
                    for deck1, t1, b1, q1 in finals:
                        for dt, qd in dealer_final(deck1, up, hole):
                            add(p * q1 * qd, score(t1, b1, dt, dealer_bj) + ins_net, b1 + ins_stake)
    return dist, stake_total


def optimal_split_search(base: tuple, up: int, rules: Rules, pair: int) -> tuple[Fraction, dict]:
    """Truly optimal one-split play by searching every way to play both hands (slow: small decks only).

    Returns the joint EV of splitting (both hands) and the joint distribution
    {(doubles, dealer_blackjack, net): mass} of the split's play under the
    optimal decisions.  ``base`` is the deck the pair was dealt from.

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

    def outcomes(deck: tuple, finished: tuple) -> dict:
        """Both hands are done: the dealer draws; {(doubles, dealer_blackjack, net): mass}."""
        dist = dealer_distribution(deck, up, rules)
        out: dict = {}
        for o, p in enumerate(dist):
            if p:
                key = (sum(bet - 1 for _, bet in finished), int(o == 6),
                       sum(result(total, bet, o) for total, bet in finished))
                out[key] = out.get(key, Fraction(0)) + p
        return out

    def draws(deck: tuple) -> list[tuple[Fraction, int]]:
        n = sum(deck)
        if n == 0:
            raise ValueError("the deck ran out while the player was drawing")
        return [(Fraction(deck[r], n), r) for r in range(N_RANKS) if deck[r]]

    @cache
    def best(deck: tuple, finished: tuple, hand: tuple | None) -> tuple[Fraction, str]:
        """(value, action) where ``hand`` is to be played (None: the next hand gets its second card)."""
        if hand is None:
            if len(finished) == 2:
                return sum((net * p for (_, _, net), p in outcomes(deck, finished).items()), Fraction(0)), ""
            return sum((p * best(_minus(deck, r), finished, _plus(start, r))[0] for p, r in draws(deck)),
                       Fraction(0)), "deal"
        total, soft = hand_total(hand)
        values = {"stand": best(deck, tuple(sorted(finished + ((total, 1),))), None)[0]}
        if total < 21 and not one_card:
            values["hit"] = sum((p * best(_minus(deck, r), finished, _plus(hand, r))[0] for p, r in draws(deck)),
                                Fraction(0))
            if sum(hand) == 2 and rules.may_double(total, soft, after_split=True):
                values["double"] = sum(
                    (p * best(_minus(deck, r), tuple(sorted(finished + ((hand_total(_plus(hand, r))[0], 2),))),
                              None)[0] for p, r in draws(deck)), Fraction(0))
        action = max(values, key=lambda a: (values[a], -ACTIONS.index(a)))
        return values[action], action

    def distribution(deck: tuple, finished: tuple, hand: tuple | None, weight: Fraction, out: dict) -> None:
        """Follow the optimal decisions to the dealer; add each outcome's mass times ``weight`` to ``out``."""
        if hand is None:
            if len(finished) == 2:
                for key, p in outcomes(deck, finished).items():
                    out[key] = out.get(key, Fraction(0)) + weight * p
                return
            for p, r in draws(deck):
                distribution(_minus(deck, r), finished, _plus(start, r), weight * p, out)
            return
        total, _ = hand_total(hand)
        action = best(deck, finished, hand)[1]
        if action == "stand":
            distribution(deck, tuple(sorted(finished + ((total, 1),))), None, weight, out)
            return
        for p, r in draws(deck):
            grown = _plus(hand, r)
            if action == "hit":
                distribution(_minus(deck, r), finished, grown, weight * p, out)
            else:
                done = tuple(sorted(finished + ((hand_total(grown)[0], 2),)))
                distribution(_minus(deck, r), done, None, weight * p, out)

    deck = tuple(c - 2 * (r == pair) for r, c in enumerate(base))
    out: dict = {}
    distribution(deck, (), None, Fraction(1), out)
    return best(deck, (), None)[0], out
