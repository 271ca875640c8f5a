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
from math import comb

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
                unsplit: Player, pair_face: int | None = None) -> Fraction:
    """Exact joint EV of splitting a pair, summed over every hand the split makes (resplits included).

    ``base`` is the deck the pair was dealt from (it still holds both pair
    cards).  Dealing order does not change any probability here (every deal
    of L cards has probability 1/ff(N, L) whatever the order), so the
    *second-card process* is dealt first: each waiting hand gets a card; one
    that can resplit makes another hand while fewer than the most hands
    exist.  Given its outcome, a hand's expected result is its value on the
    deck less the resplit cards and its own second card, whatever the other
    hands draw; the other hands' second cards are unseen but known not to
    resplit, and each is taken out by conditioning (removing a random unseen
    card leaves a value unchanged on average).  A hand decides as its split
    strategy says, knowing of the hands that exist when it is played.  With
    one split this is ``2 V``.  :func:`split_value_exhaustive` checks it.

    ``pair_face``: for tens split by rank, the cards of the pair's own face in
    ``base`` (the pair's two included); None averages over the faces of the
    ten-valued cards out of play, each of the pair's face with the
    hypergeometric probability.
    """
    if base[pair] < 2:
        raise ValueError("the deck does not hold the pair")
    context = split_contexts(base, up, rules, pair, split_strategy, unsplit)
    one_card = pair == ACE and rules.split_aces_one_card
    most = 2 if rules.max_split_hands < 2 else (rules.max_split_hands if pair != ACE or rules.resplit_aces else 2)
    by_rank = pair == TEN and rules.split_tens == "rank"
    d0 = tuple(c - 2 if r == pair else c for r, c in enumerate(base))
    n = sum(d0)
    if by_rank and pair_face is None:
        per_face, tens = 4 * rules.decks, 16 * rules.decks
        unknown = tens - base[TEN]
        total = Fraction(0)
        for j in range(min(unknown, per_face - 2) + 1):
            weight = Fraction(comb(per_face - 2, j) * comb(tens - per_face, unknown - j), comb(tens - 2, unknown))
            if weight:
                total += weight * split_value(base, up, rules, pair, split_strategy, unsplit, per_face - j)
        return total
    p = (pair_face - 2) if by_rank and pair_face is not None else d0[pair]
    players: dict = {}

    def value(k: int, a: int, c: int) -> Fraction:
        """Joint value of the hand {pair, c} on the deck less both pair cards, a more and c; context k."""
        if (k, a) not in players:
            source = {"cdz": unsplit, "cdp1": context(1)}.get(split_strategy) or context(k - 1)
            deck = tuple(x - (a + 1 if r == pair else 0) for r, x in enumerate(base))
            players[k, a] = Player(deck, up, rules, split_card=pair, source=source)
        hand = tuple((q == pair) + (q == c) for q in range(N_RANKS))
        player = players[k, a]
        return player.stand(hand) if one_card else player.after_card(hand)

    @cache
    def mean(k: int, a: int, plain: bool) -> Fraction:
        """A hand's value averaged over its second card: any card, or (``plain``) one that does not resplit."""
        d = tuple(x - (a if r == pair else 0) for r, x in enumerate(d0))
        resplit = p - a
        weights = {c: d[c] - (resplit if plain and c == pair else 0) for c in range(N_RANKS)}
        size = sum(weights.values())
        return sum((Fraction(w, size) * value(k, a, c) for c, w in weights.items() if w > 0), Fraction(0))

    @cache
    def known(k: int, a: int, b: int, plain: bool) -> Fraction:
        """``mean`` with b more unseen cards, known not to resplit, taken out of the deck.

        Taking out one unseen card at random leaves the value unchanged:
        known(a, b - 1) = v known(a + 1, b - 1) + (1 - v) known(a, b), v its
        chance to be a resplit card; solved for known(a, b)."""
        if b == 0:
            return mean(k, a, plain)
        size = n - a - (b - 1) - (1 if plain else 0)
        resplit = p - a
        if resplit == 0:       # no card left that resplits: every unseen card is one that does not
            return known(k, a, b - 1, plain)
        return (size * known(k, a, b - 1, plain) - resplit * known(k, a + 1, b - 1, plain)) / (size - resplit)

    def words(hands: int, waiting: int, n_p: int, n_n: int, prob: Fraction, contexts: tuple) -> Fraction:
        if not prob:
            return Fraction(0)
        if waiting == 0 or hands >= most:
            hand_values = sum((known(k, n_p, n_n - 1, True) for k in contexts), Fraction(0))
            return prob * (hand_values + waiting * known(most, n_p, n_n, False))
        left = n - n_p - n_n
        return (words(hands + 1, waiting + 1, n_p + 1, n_n, prob * Fraction(p - n_p, left), contexts)
                + words(hands, waiting - 1, n_p, n_n + 1, prob * Fraction(n - p - n_n, left), contexts + (hands,)))

    return words(2, 2, 0, 0, Fraction(1), ())


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
                           unsplit: Player, pair_face: int | None = None) -> Fraction:
    """Exact joint EV of splitting: the mean of :func:`split_distribution_exhaustive`."""
    cells = split_distribution_exhaustive(base, up, rules, pair, split_strategy, unsplit, pair_face)
    return sum((p * net for (_, _, net, _), p in cells.items()), Fraction(0))


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
            if n == 0:
                raise ValueError("the deck ran out while the dealer was drawing")
            for kind in range(kinds):
                if deck[kind]:
                    r = rank(kind)
                    draw(_minus(deck, kind), hard + r + 1, has_ace or r == ACE, prob * Fraction(deck[kind], n),
                         ncards + 1)

        draw(deck, up + rank(hole) + 2, ACE in (up, rank(hole)), Fraction(1), 2)
        return tuple(sorted(out.items()))

    def settle(deck: tuple, hole: int, finished: tuple) -> dict:
        cells: dict = {}
        doubles = sum(bet == 2 for _, bet in finished)
        for dealer_total, p in dealer(deck, hole):
            net = 0
            for total, bet in finished:
                if dealer_total == 0 or total > 21 or total < dealer_total <= 21:
                    net -= bet
                elif total > dealer_total or dealer_total == 22:
                    net += bet
            key = (doubles, int(dealer_total == 0), net, len(finished))
            cells[key] = cells.get(key, Fraction(0)) + p
        return cells

    def mix(parts: list) -> dict:
        """The sum of p x cells over (p, cells)."""
        out: dict = {}
        for p, cells in parts:
            for key, q in cells.items():
                out[key] = out.get(key, Fraction(0)) + p * q
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
                p = Fraction(deck[kind], n)
                if kind == resplit_kind and hands < most:
                    parts.append((p, play(_minus(deck, kind), hole, hands + 1, waiting + 1, None, 1, finished)))
                else:
                    parts.append((p, play(_minus(deck, kind), hole, hands, waiting - 1, _plus(start, rank(kind)), 1,
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
        return mix([(Fraction(deck[kind], n), play(_minus(deck, kind), hole, hands, waiting,
                                                   _plus(hand, rank(kind)), new_bet, finished))
                    for kind in range(kinds) if deck[kind]])

    deck = tuple(c - 2 if r == pair else c for r, c in enumerate(base))
    if faces and pair_face is not None:
        deck = deck[:TEN] + (deck[TEN] - (pair_face - 2), pair_face - 2)
    n = sum(deck)
    return mix([(Fraction(deck[hole], n), play(_minus(deck, hole), hole, 2, 2, None, 1, ()))
                for hole in range(kinds) if deck[hole] and rank(hole) != excluded])


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
