"""Random (blind) play, evaluated exactly: at every decision each legal option is equally likely.

A regulator who is shown no strategy computes the RTP of a blind player (Ontario's
standard).  :func:`random_play_figures` gives that player's EV and expected total
stake E[W] exactly (every deal and every card; no sampling), in the game's
arithmetic (floats, or fractions for ``Game(rules, exact=True)``).

The options, each taken with probability 1/k among the k the rules allow at that point:

* the first two cards (not a natural): stand, hit, double (where the rules allow
  that total), split (a pair; for tens split by rank only when the ranks match)
  and late surrender (where offered);
* any later hand below 21: stand or hit, 1/2 each.  A 21 offers no decision: the
  game stands it automatically (no strategy of the engine hits 21 either);
* a hand made by a split, at its two cards: stand, hit, double (double after split
  only) and resplit (a pair again while fewer than the most hands exist).
  Split aces that get one card stand, unless they make a pair of aces that may
  be resplit: then stand or resplit, 1/2 each;
* insurance (offered under an ace to every hand but a natural): taken with
  probability 1/2, whatever is played; even money (a natural under an ace,
  where offered): taken with probability 1/2.

The mathematics is the optimal recursion with the mean of the legal options in
place of the max, in joint units (``ev.reference``: where a dealer blackjack is
settled before play, play is conditioned on no dealer blackjack, and the value
of a hand is E[result; no dealer blackjack]).  Stand values come from the
solver (:meth:`context_stand_values`); hit and double values are recursed here
(:func:`after_values`; in floats its C twin ``ev.core._policy.random_after``, equal to the bit).
A split hand's play depends only on its own cards and independent coin flips,
so with one split the split is worth twice one hand's value on the deck less
both pair cards, by exchangeability (DESIGN.md).  With resplits the coin of a
resplit is attached to the pair card that arrives (each pair card is at most
once a hand's second card): the cards able to resplit are a Binomial(p, 1/k)
subset of the p pair cards left, and for each size of that subset the exact
resplit formula of :func:`ev.analysis.splits.resplit_value` applies, as it
does to tens split by rank (the resplitting cards a subset of a rank).
``ev.reference.random_play`` deals every card in table order and checks it
(every rule combination but tens split by rank with resplits, where the faces
of the tens would matter to the twin).

Stakes (initial bets): the initial bet, doubles, split bets, half a bet for
insurance when taken; even money is taken without placing chips (stake 1) by
default, ``even_money_stake=Fraction(3, 2)`` counts it as insurance on a blackjack
(the convention of ``ev.analysis.accounting``'s figures for the other rows).  As in
``ev.analysis.accounting``, a dealer blackjack settled before play stops play
(no double or split is staked); an unsettled one plays on and takes every wager.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb
from math import nan as NAN
from typing import Any

from ev.analysis.accounting import Figures
from ev.analysis.game import Game
from ev.analysis.splits import resplit_value
from ev.core.cards import ACE, N_RANKS, TEN, blackjack_rank, composition_of, initial_deals, pair_rank, subtract
from ev.core.depletion import may_run_out, surely_lasts
from ev.errors import EngineError

RANDOM_NAME = "random play (every legal option equally likely)"


def random_play_figures(game: Game, even_money_stake: Fraction | int | str = 1) -> Figures:
    """Exact EV and E[W] (initial bets) of a round of random play; both RTPs follow.

    ``even_money_stake``: the stake counted when even money is taken: 1 (no chips
    placed, the default) or 3/2 (insurance on a blackjack).  Raises ``EngineError``
    when the shoe can run out during some round (small depleted shoes only).
    """
    A = game.arithmetic
    em_stake = A.number(Fraction(even_money_stake))
    n_shoe = sum(game.shoe)
    ev = wager = A.zero
    for up in game.upcards():
        up_ev, up_wager = _UpcardPlay(game, up).round(em_stake)
        p_up = A.ratio(game.shoe[up], n_shoe)
        ev += p_up * up_ev
        wager += p_up * up_wager
    return Figures(ev, wager, _p_even_money(game))


def _p_even_money(game: Game) -> Any:
    """P(even money taken) under random play: a natural against an ace, offered even money, takes it half the time."""
    A, shoe = game.arithmetic, game.shoe
    if not game.rules.even_money or shoe[ACE] < 2 or shoe[TEN] < 1:
        return A.zero
    n = sum(shoe)
    return A.ratio(shoe[ACE], n) * A.ratio(2 * (shoe[ACE] - 1) * shoe[TEN], (n - 1) * (n - 2)) * A.ratio(1, 2)


def _mean(options: Sequence[tuple[Any, Any]], A: Any) -> tuple[Any, Any]:
    """The mean (value, stake) of equally likely options (NaN when one is missing)."""
    k = len(options)
    return (sum((v for v, _ in options), A.zero) * A.ratio(1, k),
            sum((w for _, w in options), A.zero) * A.ratio(1, k))


class _UpcardPlay:
    """Random play against one up card: values (joint units) by deck context, made when first asked."""

    def __init__(self, game: Game, up: int) -> None:
        self.game, self.up, self.rules, self.A = game, up, game.rules, game.arithmetic
        self.solver = game.solver(up)
        self.base = subtract(game.shoe, composition_of([up]))
        self.settled = self.rules.settled_blackjack_rank(up)
        graph = game.graph
        self.hands, self.nxt, self.total, self.soft = graph["hands"], graph["next"], graph["total"], graph["soft"]
        self._contexts: dict[tuple[int, int], tuple[list, list]] = {}
        self._split_hands: dict[tuple[int, int], tuple[list, list]] = {}

    # ----- one hand ----------------------------------------------------------------------------
    def deck(self, s: int, pair: int = -1, extra: int = 0) -> list[int]:
        """The unseen deck of hand s in deck context (pair, extra)."""
        d = [b - h for b, h in zip(self.base, self.hands[s])]
        if pair >= 0:
            d[pair] -= extra
        return d

    def mass(self, deck: Sequence[int]) -> Any:
        """P(no settled dealer blackjack) for this unseen deck (joint units: a hand's stake of 1)."""
        if self.settled < 0:
            return self.A.one
        return 1 - self.A.ratio(deck[self.settled], sum(deck))

    def draw(self, s: int, deck: Sequence[int], after: Sequence[Any]) -> Any:
        """Joint value of one more card to hand s (unseen ``deck``), worth ``after[t]`` at the new state t.

        Missing values are NaN, in either arithmetic (a Fraction and NaN make NaN), and stay NaN."""
        A, n, nxt, row = self.A, sum(deck), self.nxt, s * N_RANKS
        value, bust = A.zero, 0
        for c in range(N_RANKS):
            dc = deck[c]
            if dc > 0:
                t = nxt[row + c]
                if t >= 0:
                    value += dc * after[t]
                else:
                    bust += dc if self.settled < 0 else dc * (n - 1 - deck[self.settled] + (c == self.settled))
        if bust and self.settled >= 0:
            # a bust loses the bet, unless a settled dealer blackjack has already taken it
            if n < 2:
                return NAN
            return (value - A.ratio(bust, n - 1)) / n
        return (value - bust) / n

    def context_inputs(self, pair: int, extra: int) -> tuple[list, list[int]]:
        """(stand values, NaN where missing; the deck by rank) of a deck context: what its ``after`` values
        are made from."""
        stand = [NAN if v is None else v for v in self.solver.context_stand_values(pair, extra)]
        base = list(self.base)
        if pair >= 0:
            base[pair] -= extra
        return stand, base

    def context(self, pair: int, extra: int) -> tuple[list, list]:
        """(stand, after) for every state of a deck context: ``after[s]`` is the value of hand s when it
        has just drawn a card (a third or later): stand or hit, 1/2 each, below 21; stand at 21.
        NaN where the deck cannot hold the hand or can run out."""
        key = (pair, extra)
        if key not in self._contexts:
            stand, base = self.context_inputs(pair, extra)
            if self.A.exact:
                after = after_values(stand, base, self.settled, self.game.graph, self.A)
            else:       # the same operations in C (ev.core._policy.random_after), the same doubles
                from ev.core._policy import random_after
                after = random_after(self.game.graph["arrays"], stand, base, self.settled)
            self._contexts[key] = stand, after
        return self._contexts[key]

    def two_card_options(self, s: int, pair: int, extra: int, after_split: bool) -> list[tuple[Any, Any]]:
        """(value, stake) of stand, hit and double (where allowed) at the two-card hand s (total below 21)."""
        stand, after = self.context(pair, extra)
        deck = self.deck(s, pair, extra)
        m = self.mass(deck)
        options = [(stand[s], m), (self.draw(s, deck, after), m)]
        if self.rules.may_double(self.total[s], bool(self.soft[s]), after_split=after_split):
            options.append((2 * self.draw(s, deck, stand), 2 * m))
        return options

    # ----- splits ------------------------------------------------------------------------------
    def split_hands(self, pair: int, extra: int) -> tuple[list, list]:
        """(values, stakes) of the split hand {pair, c} for each second card c (None where the deck has
        none), in the deck context that lacks ``extra`` pair cards beyond the hand's; a pair is played
        without resplitting (the resplit is the split's business)."""
        key = (pair, extra)
        if key not in self._split_hands:
            start = self.nxt[pair]                      # the hand {pair} (the empty hand is state 0)
            deck = self.deck(start, pair, extra)
            stand, _ = self.context(pair, extra)
            one_card = self.rules.one_card_after_split(pair)
            values: list = [None] * N_RANKS
            stakes: list = [None] * N_RANKS
            for c in range(N_RANKS):
                t = self.nxt[start * N_RANKS + c]
                if deck[c] <= 0 or t < 0:
                    continue
                if one_card or self.total[t] == 21:
                    options = [(stand[t], self.mass(self.deck(t, pair, extra)))]
                else:
                    options = self.two_card_options(t, pair, extra, after_split=True)
                values[c], stakes[c] = _mean(options, self.A)
            self._split_hands[key] = values, stakes
        return self._split_hands[key]

    def resplit_options(self, pair: int) -> int:
        """The options of a split hand that is a pair and may resplit: stand, hit, double where allowed, and
        resplit (split aces that get one card: stand or resplit)."""
        if self.rules.one_card_after_split(pair):
            return 2
        total = 12 if pair == ACE else 2 * (pair + 1)
        return 3 + self.rules.may_double(total, pair == ACE, after_split=True)

    def split(self, pair: int) -> tuple[Any, Any]:
        """(value, stake) of splitting ``pair``, summed over every hand it makes (joint units)."""
        A, most = self.A, self.rules.split_hands(pair)

        def values(a: int, _k: int) -> list:
            return self.split_hands(pair, a + 1)[0]

        def stakes(a: int, _k: int) -> list:
            return self.split_hands(pair, a + 1)[1]

        value = stake = A.zero
        k = self.resplit_options(pair)
        for weight, p in self.game.resplit_cards(self.base, pair):
            # each of the p cards able to resplit does so with probability 1/k when it arrives (see the module)
            sizes = range(p + 1) if most > 2 else [p]
            for j in sizes:
                w = weight * (A.ratio(comb(p, j) * (k - 1) ** (p - j), k ** p) if most > 2 else 1)
                value += w * resplit_value(self.base, pair, most, j, values, A.ratio)
                stake += w * resplit_value(self.base, pair, most, j, stakes, A.ratio)
        return value, stake

    # ----- the round ---------------------------------------------------------------------------
    def round(self, em_stake: Any) -> tuple[Any, Any]:
        """(EV, E[W]) of a round given the up card."""
        A, r, up = self.A, self.rules, self.up
        natural = blackjack_rank(up)
        payout, half = A.number(r.payout), A.half
        same_ten = self.game.same_ten_rank_probability()
        ev = wager = A.zero
        for c1, c2, p in initial_deals(self.base, A.ratio):
            hand = composition_of([c1, c2])
            deck = subtract(self.base, hand)
            p_bj = A.ratio(deck[natural], sum(deck)) if natural >= 0 else A.zero
            if {c1, c2} == {ACE, TEN}:
                value, stake = payout * (1 - p_bj), A.one
                if up == ACE and r.even_money:
                    value, stake = half * (value + 1), half * (stake + em_stake)
                ev += p * value
                wager += p * stake
                continue
            pair = pair_rank(hand)
            may_split = pair is not None and r.may_split
            if not surely_lasts(deck, hand, up, r, may_split) and may_run_out(deck, hand, up, r, may_split):
                raise EngineError(f"the {sum(deck)} unseen cards can run out during a round of random play (by "
                                  "some hit, double, split or dealer draw): the round has no value to compute")
            s = self.game.state(hand)
            options = self.two_card_options(s, -1, 0, after_split=False)
            if r.late_surrender:
                options.append((self.game.surrender_value(up, deck), self.mass(deck)))
            value, stake = _mean(options, A)
            if pair is not None and may_split:
                share = same_ten if pair == TEN else A.one
                value_split, stake_split = _mean([*options, self.split(pair)], A)
                value = share * value_split + (1 - share) * value
                stake = share * stake_split + (1 - share) * stake
            if self.settled >= 0:           # the dealer's blackjack takes the initial bet before play
                value -= p_bj
                stake += p_bj
            if up == ACE and r.insurance:   # taken half the time: half a bet paying 2:1
                value += half * r.insurance_ev(p_bj)
                stake += half * half
            ev += p * value
            wager += p * stake
        return ev, wager


def after_values(stand: list, base: Sequence[int], settled: int, graph: dict, A: Any) -> list:
    """Random play's ``after`` values of one deck context (see :meth:`_UpcardPlay.context`), in the
    arithmetic ``A``: ``after[s]`` is the value of hand s when it has just drawn a card, stand or hit 1/2
    each below 21, stand at 21.  ``stand``: the context's stand values (NaN where missing); ``base``: its
    deck by rank; ``settled``: the rank of a settled dealer blackjack's hole card, or -1.  In floats the
    game uses its C twin, ``ev.core._policy.random_after``; this is the reference, and exact mode's."""
    total, counts, nxt, ncards = graph["total"], graph["counts"], graph["next"], graph["ncards"]
    half, ratio, zero = A.half, A.ratio, A.zero
    after: list = [NAN] * len(stand)
    size = sum(base)
    ranks = range(N_RANKS)
    for s in range(len(stand) - 1, -1, -1):       # a hand's successors come later in the graph
        st = stand[s]
        if st != st:
            continue
        if total[s] == 21:
            after[s] = st
            continue
        # hit, as :meth:`_UpcardPlay.draw` (written out here: this loop is the module's work)
        row = s * N_RANKS
        n = size - ncards[s]
        value, bust = zero, 0
        for c in ranks:
            dc = base[c] - counts[row + c]
            if dc > 0:
                t = nxt[row + c]
                if t >= 0:
                    value += dc * after[t]
                elif settled < 0:
                    bust += dc
                else:
                    bust += dc * (n - 1 - base[settled] + counts[row + settled] + (c == settled))
        if n <= 0:
            hit = NAN
        elif bust and settled >= 0:
            hit = (value - ratio(bust, n - 1)) / n if n > 1 else NAN
        else:
            hit = (value - bust) / n
        after[s] = (st + hit) * half
    return after


__all__ = ["RANDOM_NAME", "random_play_figures"]
