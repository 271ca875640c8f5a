"""The reference twin's values: the dealer's distribution, one hand's stand, hit, double and surrender
values (:class:`Player`), splits by exchangeability (:func:`split_value`), and the round's EV.

Conventions: :mod:`ev.reference`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, perm

from ev.core.cards import ACE, N_RANKS, TEN, full_shoe, hand_total
from ev.core.rules import Rules

OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
ACTIONS = ("stand", "hit", "double")  # preference order when values tie exactly


def minus(deck: tuple, r: int) -> tuple:
    """``deck`` less one card of rank ``r``."""
    return deck[:r] + (deck[r] - 1,) + deck[r + 1:]


def plus(hand: tuple, r: int) -> tuple:
    """``hand`` with one more card of rank ``r``."""
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
    ways = _dealer_ways(tuple(deck), up + 1, up == ACE, 1, excluded, rules.hit_soft_17)
    n = sum(deck)
    return tuple(Fraction(w, perm(n, _draws(up + 1, n))) for w in ways)


def _draws(hard: int, n: int) -> int:
    """At least as many cards as a dealer of this hard total (aces as 1, below 17) may still draw from n."""
    return min(17 - hard, n)


@lru_cache(maxsize=1 << 16)
def _dealer_ways(deck: tuple, hard: int, has_ace: bool, ncards: int, excluded: int | None,
                 hit_soft_17: bool) -> tuple[int, ...]:
    """The dealer's outcome distribution (as :func:`dealer_distribution`) from a hand of ``ncards`` cards
    and this hard total, drawing from ``deck``, as integers: P(outcome) x perm(n, b), b = _draws(hard, n).

    Each next card in turn, its count times what follows (the same dealer state is reached by many card
    orders, so it is valued once); counting ways, with the orders of the cards a shorter draw leaves
    making up the difference, keeps the sums in integers (P(card r) = deck[r] / n, and perm(n, b) =
    n perm(n - 1, b - 1))."""
    n = sum(deck)
    if n == 0:
        raise ValueError("the deck ran out while the dealer was drawing")
    b = _draws(hard, n)
    out = [0] * 7
    for r in range(N_RANKS):
        if deck[r] == 0 or (ncards == 1 and r == excluded):
            continue
        h = hard + r + 1
        a = has_ace or r == ACE
        soft = a and h + 10 <= 21
        total = h + 10 if soft else h
        final = None
        if ncards == 1 and total == 21:
            final = 6
        elif total > 21:
            final = 5
        elif total > 17 or (total == 17 and not (soft and hit_soft_17)):
            final = total - 17
        if final is not None:
            out[final] += deck[r] * perm(n - 1, b - 1)
            continue
        rest = _draws(h, n - 1)          # at most b - 1
        factor = deck[r] * perm(n - 1 - rest, b - 1 - rest)
        for k, w in enumerate(_dealer_ways(minus(deck, r), h, a, ncards + 1, excluded, hit_soft_17)):
            if w:
                out[k] += factor * w
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
        self.double = lru_cache(maxsize=None)(self._double)
        self.decide = lru_cache(maxsize=None)(self._decide)

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
                value += Fraction(d[r], n) * self.after_card(plus(hand, r))
        return value

    def _double(self, hand: tuple) -> Fraction:
        d = self.deck(hand)
        n = sum(d)
        return 2 * sum((Fraction(d[r], n) * self.stand(plus(hand, r)) for r in range(N_RANKS) if d[r]),
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

    def _decide(self, hand: tuple) -> str:
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
            if split_strategy == "cdp-terms":      # each term played best for its own deck (not a strategy)
                source = None
            else:
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
        base = minus(shoe, up)
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
