"""The game: every EV of a hand and of a round, for one rule set, in either arithmetic.

``Game(rules)`` computes in floats through the Cython core;
``Game(rules, exact=True)`` computes the same mathematics in exact fractions
(``ev.core.arithmetic``).  ``Game.hand()`` gives the EV of every decision for
one hand; ``Game.round()`` the EV of a whole round under optimal
composition-dependent play, with a record of every initial deal for the
accounting built on it.

Units: every EV is in initial bets.  Hand EVs are conditioned on no dealer
blackjack whenever a dealer blackjack is settled before play (the dealer
peeked, or an unchecked blackjack takes only the original bet).  Round EVs are
unconditional: they include the initial bets lost to dealer blackjacks.

Decisions: an exact tie goes to the earlier of stand, hit, double, split,
surrender; insurance and even money are taken only when strictly better.
Every exact tie met is recorded in ``ties`` (in floats, exact ties are rare).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

from ev.analysis import optimal_split
from ev.analysis.splits import resplit_value
from ev.core import shapes
from ev.core.actions import (
    CDP1,
    CDP_TERMS,
    CDZ,
    DEALER_OUTCOMES,
    FIXED_SPLIT_STRATEGIES,
    TRULY_OPTIMAL,
    split_mode,
)
from ev.core.arithmetic import Arithmetic, Number, arithmetic, dealer_store
from ev.core.cards import (
    ACE,
    N_RANKS,
    RANK_SYMBOLS,
    TEN,
    blackjack_rank,
    card_face,
    card_rank,
    composition_of,
    face_to_rank,
    format_hand,
    full_shoe,
    hand_total,
    initial_deals,
    pair_rank,
    subtract,
)
from ev.core.depletion import may_run_out
from ev.core.rules import Rules
from ev.errors import CardError, EngineError, excerpt


@dataclass(frozen=True)
class Deal:
    """One initial deal class of a round: the up card and the player's two cards (ranks)."""

    up: int
    cards: tuple[int, int]
    probability: Number           # P(this up card and these two player cards)
    p_dealer_blackjack: Number    # P(hole card makes a dealer blackjack | deal)
    values: dict                  # joint values of the allowed play actions
    best: str                     # the optimal play action ('blackjack' for a natural)
    insurance: Number | None      # EV of the insurance bet when offered (unconditioned)
    take_insurance: bool          # insurance (or even money, for a blackjack) is taken
    value: Number                 # EV of the deal in initial bets, everything included
    split_probability: Number = 1.0  # share of this deal where the pair may be split (tens by rank)


@dataclass
class RoundResult:
    """EV of a round under optimal composition-dependent play."""

    rules: Rules
    split_strategy: str
    ev: Number
    ev_by_upcard: dict[str, Number]
    p_upcard: dict[str, Number]
    deals: list[Deal] = field(repr=False)
    ties: list[dict] = field(default_factory=list)

    @property
    def rtp_initial(self) -> Number:
        """Return to player per initial bet: 1 + EV."""
        return 1 + self.ev


@dataclass
class HandResult:
    """EVs of every decision for one hand against one up card.

    ``stand``, ``hit``, ``double``, ``split`` and ``surrender`` are in initial
    bets, conditioned on no dealer blackjack when ``conditioned`` is true.
    ``insurance`` (EV of the insurance bet, per initial bet) and ``even_money``
    (EV of taking it: 1) are decided before the peek and are unconditioned; for
    a natural, ``blackjack_declined`` is the unconditioned EV of declining even
    money (payout x P(no dealer blackjack)), the figure even money is compared with.
    ``None`` marks a decision the rules do not offer.  ``ties``: exact ties at this decision.
    """

    hand: str
    up: str
    split_strategy: str
    conditioned: bool
    p_dealer_blackjack: Number
    stand: Number | None = None
    hit: Number | None = None
    double: Number | None = None
    split: Number | None = None
    surrender: Number | None = None
    insurance: Number | None = None
    even_money: Number | None = None
    blackjack_declined: Number | None = None
    best: str = ""
    ties: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "hand": self.hand, "up": self.up,
            "stand": self.stand, "hit": self.hit, "double": self.double, "split": self.split,
            "surrender": self.surrender, "insurance": self.insurance, "even_money": self.even_money,
            "best": self.best,
            "blackjack_declined": self.blackjack_declined,
            "conditioned_on_no_dealer_blackjack": self.conditioned,
            "p_dealer_blackjack": self.p_dealer_blackjack,
            "split_strategy": self.split_strategy,
            "units": "initial bets",
        }


@dataclass
class Analysis:
    """The full analysis of a game: joint values by up card and hand-graph state."""

    hands: list[tuple]                  # hand-graph states (rank counts)
    stand: dict[int, list]              # up card -> value per state (NaN or None: unreachable)
    hit: dict[int, list]
    double: dict[int, list]             # as if doubling were allowed on every hand
    split: dict[tuple[str, int, int], Number]   # (strategy, up, pair) -> EV of splitting (joint)
    rounds: dict[str, RoundResult]

    @property
    def size(self) -> int:
        """Number of (up card, hand) pairs evaluated."""
        return sum(sum(1 for v in values if v is not None and v == v) for values in self.stand.values())


def tied_actions(values: dict) -> list[str]:
    """The actions sharing the best value, in preference order, when there are two or more."""
    best = max(values.values())
    tied = [k for k in values if values[k] == best]
    return tied if len(tied) > 1 else []


def tie_record(up: int, hand: Sequence[int], actions: list[str], context: str = "initial deal") -> dict:
    return {"up": RANK_SYMBOLS[up], "hand": format_hand(hand), "context": context, "actions": list(actions)}


class Game:
    """One rule set, optionally with cards removed from the shoe (rank counts), in one arithmetic."""

    def __init__(self, rules: Rules | None = None, removed: Sequence[int] = (0,) * N_RANKS, *,
                 exact: bool = False) -> None:
        self.rules = rules or Rules()
        self.arithmetic: Arithmetic = arithmetic(exact)
        self.caps = full_shoe(self.rules.decks)
        self.shoe = subtract(self.caps, removed, "removed cards")
        self.graph = shapes.hand_graph(self.caps)
        self._solvers: dict[int, Any] = {}
        self._memo: dict[tuple, Any] = {}
        #: the dealer tables this game shares (made inside ``ev.core.arithmetic.shared_dealers``), else None
        self._dealers = None if exact else dealer_store()

    def memo(self, key: tuple, build: Callable[[], Any]) -> Any:
        """``build()``, made once per game for ``key``: figures several parts of an analysis ask for (the
        optimal policy, a split's value, a round's accounting) are computed once.  The values are never
        changed after they are made."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    @property
    def exact(self) -> bool:
        return self.arithmetic.exact

    # ----- core access ----------------------------------------------------
    def solver(self, up: int) -> Any:
        """The memoised solver for one up card (player hands dealt from the shoe less the up card)."""
        if up not in self._solvers:
            base = subtract(self.shoe, composition_of([up]), "up card")
            caps = subtract(self.caps, composition_of([up]))
            self._solvers[up] = self.arithmetic.solver(up, base, self.graph, self.rules, caps, self._dealers)
        return self._solvers[up]

    def state(self, hand: Sequence[int]) -> int:
        try:
            return self.graph["index"][tuple(hand)]
        except KeyError:
            raise CardError("impossible hand for this shoe") from None

    def upcards(self) -> list[int]:
        """The up cards the shoe holds (rank indices)."""
        return [up for up in range(N_RANKS) if self.shoe[up]]

    def work(self) -> dict[str, int]:
        """Size of the work done so far: hand states valued (unsplit and split contexts), dealer evaluations."""
        total: dict[str, int] = {}
        for solver in self._solvers.values():
            for key, count in solver.work().items():
                total[key] = total.get(key, 0) + count
        return total

    # ----- dealer ---------------------------------------------------------
    def dealer_probabilities(self, up: str | int, known: Sequence[int] = (0,) * N_RANKS,
                             conditioned: bool = True) -> dict[str, Number]:
        """Dealer final outcome probabilities for an up card, with ``known`` cards also out of the shoe.

        ``up``: a card symbol ('A', '2'..'9', 'T'/'10'/'J'/'Q'/'K') or a rank index (0 ace .. 9 ten).
        When a blackjack under ``up`` is settled before play and ``conditioned`` is
        true, the result is conditioned on no dealer blackjack (P(blackjack) = 0).
        """
        up = card_rank(up)
        A = self.arithmetic
        deck = subtract(self.shoe, composition_of([up]), "up card")
        deck = subtract(deck, known, "known cards")
        n = sum(deck)
        excluded = self.rules.settled_blackjack_rank(up) if conditioned else -1
        if n == 0:
            raise EngineError("no cards left in the shoe")
        if excluded >= 0 and deck[excluded] == n:
            raise EngineError("the dealer must have blackjack with these cards")
        caps = subtract(self.caps, composition_of([up]))
        probs = A.dealer(up, self.rules.hit_soft_17, excluded, caps).probabilities(deck)
        total = sum(probs, A.zero)
        expected = A.one - (A.ratio(deck[excluded], n) if excluded >= 0 else A.zero)
        if not A.close(total, expected):
            raise EngineError("the unseen deck runs out before the dealer can finish")
        return {k: p / total for k, p in zip(DEALER_OUTCOMES, probs)}

    # ----- one hand -------------------------------------------------------
    def hand(self, faces: Sequence[str], up: str | int, split_strategy: str = "cdz") -> HandResult:
        """EV of every decision for a hand (faces such as ['T', '6'] or ['K', 'Q']) against ``up``.

        Cards are symbols ('A', '2'..'9', 'T'/'10'/'J'/'Q'/'K') or rank indices (0 ace .. 9 ten).
        A position some continuation of which could run out of unseen cards is refused (EngineError).
        """
        faces = [card_face(f) for f in faces]
        up = card_rank(up)
        mode = split_mode(split_strategy)
        A, r = self.arithmetic, self.rules
        ranks = [face_to_rank(f) for f in faces]
        if len(ranks) < 2:
            raise CardError("a hand needs at least two cards")
        hand = composition_of(ranks)
        total, _ = hand_total(hand)
        if total > 21:
            raise CardError(f"the hand {excerpt('-'.join(faces))} is bust ({total})")
        base = subtract(self.shoe, composition_of([up]), "up card")
        deck = subtract(base, hand, "hand")
        n = sum(deck)
        if n < 1:
            raise EngineError("no cards left in the shoe")
        solver = self.solver(up)
        s = self.state(hand)
        bj_rank = blackjack_rank(up)
        p_bj = A.ratio(deck[bj_rank], n) if bj_rank >= 0 else A.zero
        settled = r.settled_blackjack_rank(up) >= 0
        mass = A.one - p_bj if settled else A.one
        if mass <= 0:
            raise EngineError("the dealer must have blackjack with these cards")
        if may_run_out(deck, hand, up, r, len(ranks) == 2 and r.splittable(faces) and r.may_split):
            raise EngineError(f"the {n} unseen cards can run out before this round is over (by some hit, split or "
                              f"dealer draw): the position has no value to compute")
        self._check_deck_lasts(solver, s)
        res = HandResult(hand="-".join(faces), up=RANK_SYMBOLS[up], split_strategy=split_strategy,
                         conditioned=settled, p_dealer_blackjack=p_bj)
        natural = len(ranks) == 2 and total == 21
        if up == ACE and r.insurance and not natural:
            res.insurance = r.insurance_ev(p_bj)
            if res.insurance == 0:
                res.ties.append(tie_record(up, hand, ["decline insurance", "insurance"]))
        if natural:
            declined = A.number(r.payout) * (A.one - p_bj)
            res.stand = declined / mass       # conditioned if settled
            res.blackjack_declined = declined
            if up == ACE and r.even_money:
                res.even_money = A.one
                if declined == 1:
                    res.ties.append(tie_record(up, hand, ["decline even money", "even_money"]))
            res.best = "even_money" if res.even_money is not None and A.one > declined else "stand"
            return res
        values = self.play_values(solver, s, hand, len(ranks) == 2 and r.splittable(faces), mode, deck)
        for action, v in values.items():
            setattr(res, action, v / mass)
        res.best = max(values, key=lambda k: values[k])
        tied = tied_actions(values)
        if tied:
            res.ties.append(tie_record(up, hand, tied))
        return res

    def _check_deck_lasts(self, solver: Any, s: int) -> None:
        A = self.arithmetic
        probs = solver.dealer_probabilities(s)
        hand = self.graph["hands"][s]
        deck = subtract(subtract(self.shoe, composition_of([solver.up])), hand)
        excluded = self.rules.settled_blackjack_rank(solver.up)
        expected = A.one - (A.ratio(deck[excluded], sum(deck)) if excluded >= 0 else A.zero)
        if not A.close(sum(probs, A.zero), expected):
            raise EngineError("the unseen deck runs out before the dealer can finish")

    def play_values(self, solver: Any, s: int, hand: Sequence[int], may_split: bool, mode: int,
                    deck: Sequence[int]) -> dict[str, Number]:
        """Joint values of the allowed play actions for unsplit hand s, in tie-break order.

        ``deck``: the unseen deck after the hand (for surrender's P(dealer blackjack)).
        """
        r = self.rules
        stand, hit, double = solver.hand_values(s)
        values = {"stand": stand}
        if self.graph["total"][s] < 21:
            values["hit"] = hit
        two_cards = sum(hand) == 2
        if two_cards and solver.may_double(s):
            values["double"] = double
        pair = pair_rank(hand)
        if pair is not None and may_split and r.may_split:
            values["split"] = self.split_value(solver, pair, mode)
        if r.late_surrender and two_cards:
            values["surrender"] = self.surrender_value(solver.up, deck)
        return values

    def split_value(self, solver: Any, pair: int, mode: int) -> Number:
        """Joint EV of splitting a pair of rank ``pair``, summed over all the hands it makes.

        Exact, resplits included, for the split strategy's post-split play
        (:func:`ev.analysis.splits.resplit_value`; with one split it is ``2 V``,
        ``V`` one hand dealt from the deck less both pair cards).  A split hand
        follows the decisions of: CDZ- the unsplit hand (source 0), CDP1 the
        context with one extra pair card gone (1), CDP its own context, k - 1
        extra pair cards gone when it knows of k hands.  ``CDP_TERMS`` ("cdp-terms")
        values each term of the formula with the play best for that term's deck
        (a figure of the formula, not a strategy; the definition of Farmer's analyser).
        Truly optimal play (``mode`` TRULY_OPTIMAL, one split only): :mod:`ev.analysis.optimal_split`.
        """
        if mode == TRULY_OPTIMAL:
            return optimal_split.split_value(self, solver.up, pair)
        return self.memo(("split_value", solver.up, pair, mode), lambda: self._split_value(solver, pair, mode))

    def _split_value(self, solver: Any, pair: int, mode: int) -> Number:
        r = self.rules
        one_card = r.one_card_after_split(pair)
        deck = subtract(self.shoe, composition_of([solver.up]))

        values: dict[tuple[int, int], list] = {}

        def hand_values(a: int, k: int) -> list:
            # CDZ- and CDP1: the same in every k; CDP: the k pair cards the hand knows of; "cdp-terms": the
            # term's own deck, a + 1 pair cards gone beyond the hand's own (not a strategy:
            # docs/how-it-works.md, "Two CDPs")
            decide = 0 if mode == CDZ else 1 if mode == CDP1 else a + 1 if mode == CDP_TERMS else k - 1
            if (a, decide) not in values:
                values[a, decide] = solver.split_hand_values(pair, a + 1, decide, one_card)
            return values[a, decide]

        most = r.split_hands(pair)
        return sum((weight * resplit_value(deck, pair, most, p, hand_values, self.arithmetic.ratio)
                    for weight, p in self.resplit_cards(deck, pair)), self.arithmetic.zero)

    def resplit_cards(self, deck: Sequence[int], pair: int) -> list[tuple[Number, int]]:
        """The number of cards able to resplit a pair, after both pair cards, with its probability.

        Normally every card of the pair's rank.  With tens split by rank only a
        ten of the pair's own face resplits; the shoe is counted by rank, so the
        faces of the ten-valued cards out of play before the pair (the up card,
        removed cards) are unknown: each has the pair's face with the
        hypergeometric probability, which gives a distribution of the count.
        """
        A = self.arithmetic
        if pair != TEN or self.rules.split_tens == "value":
            return [(A.one, deck[pair] - 2)]
        per_face, tens = 4 * self.rules.decks, 16 * self.rules.decks
        unknown = tens - deck[TEN]             # ten-valued cards out of play, faces unknown
        others = tens - 2                       # the ten-valued cards other than the pair's two
        return [(A.ratio(comb(per_face - 2, j) * comb(others - per_face + 2, unknown - j), comb(others, unknown)),
                 per_face - 2 - j)
                for j in range(min(unknown, per_face - 2) + 1)
                if comb(others - per_face + 2, unknown - j)]

    def surrender_value(self, up: int, deck: Sequence[int]) -> Number:
        """Late surrender in joint units, for a hand whose unseen deck is ``deck``."""
        bj = blackjack_rank(up)
        A = self.arithmetic
        return self.rules.surrender_value(up, A.ratio(deck[bj], sum(deck)) if bj >= 0 else A.zero)

    def same_ten_rank_probability(self) -> Number:
        """P(two ten-valued cards share a rank) when tens split only by rank; 1 when by value."""
        return self.rules.same_ten_rank_probability(self.arithmetic.ratio)

    # ----- everything -----------------------------------------------------
    def analyse(self, split_strategies: Sequence[str] = FIXED_SPLIT_STRATEGIES) -> Analysis:
        """Every decision for every reachable hand against every up card, plus the round EV.

        Hand values are joint (see ``ev.reference``).
        """
        stand, hit, double, split = {}, {}, {}, {}
        for up in self.upcards():
            solver = self.solver(up)
            stand[up], hit[up], double[up] = solver.values_table()
            base = subtract(self.shoe, composition_of([up]))
            for strategy in split_strategies:
                for pair in range(N_RANKS):
                    if base[pair] >= 2 and self.rules.may_split:
                        split[strategy, up, pair] = self.split_value(solver, pair, split_mode(strategy))
        rounds = {s: self.round(s) for s in split_strategies}
        return Analysis(self.graph["hands"], stand, hit, double, split, rounds)

    # ----- a whole round --------------------------------------------------
    def round(self, split_strategy: str = "cdz") -> RoundResult:
        """EV of a round under optimal composition-dependent play, overall and per up card.

        ``ties`` lists every exact tie in a decision this strategy makes: at the
        initial deal (play actions, insurance at EV 0, even money at EV equal
        to the declined blackjack) and in play (stand, hit, double at every
        hand state the recursion decides; exact arithmetic only).
        """
        mode = split_mode(split_strategy)
        if mode == TRULY_OPTIMAL:
            optimal_split.prepare(self)          # every pair and up card at once, on every core
        A, r = self.arithmetic, self.rules
        n_shoe = sum(self.shoe)
        payout = A.number(r.payout)
        same_ten = self.same_ten_rank_probability()
        deals: list[Deal] = []
        ev_by_up: dict[str, Number] = {}
        p_up: dict[str, Number] = {}
        ties: list[dict] = []
        for up in self.upcards():
            solver = self.solver(up)
            base = subtract(self.shoe, composition_of([up]))
            bj_rank = blackjack_rank(up)
            settled = r.settled_blackjack_rank(up) >= 0
            up_ev = A.zero
            for c1, c2, p in initial_deals(base, A.ratio):
                hand = composition_of([c1, c2])
                deck = subtract(base, hand)
                p_bj = A.ratio(deck[bj_rank], sum(deck)) if bj_rank >= 0 else A.zero
                if {c1, c2} == {ACE, TEN}:
                    declined = payout * (A.one - p_bj)
                    take = up == ACE and r.even_money and A.one > declined
                    if up == ACE and r.even_money and declined == 1:
                        ties.append(tie_record(up, hand, ["decline even money", "even_money"]))
                    value = A.one if take else declined
                    deals.append(Deal(up, (c1, c2), p, p_bj, {}, "blackjack", None, take, value))
                    up_ev += p * value
                    continue
                values = self.play_values(solver, self.state(hand), hand, True, mode, deck)
                insurance = r.insurance_ev(p_bj) if up == ACE and r.insurance else None
                take = insurance is not None and insurance > 0
                if insurance == 0:
                    ties.append(tie_record(up, hand, ["decline insurance", "insurance"]))
                value = (insurance if take else A.zero) - (p_bj if settled else A.zero)
                best = max(values, key=lambda k: values[k])
                tied = tied_actions(values)
                if tied:
                    ties.append(tie_record(up, hand, tied))
                share = same_ten if c1 == c2 == TEN else A.one
                if share < 1 and best == "split":
                    plain = {k: v for k, v in values.items() if k != "split"}
                    tied = tied_actions(plain)
                    if tied:
                        ties.append(tie_record(up, hand, tied, "ten ranks differ: no split"))
                    value += share * values["split"] + (1 - share) * max(plain.values())
                else:
                    value += values[best]
                deals.append(Deal(up, (c1, c2), p, p_bj, values, best, insurance, take, value, share))
                up_ev += p * value
            ev_by_up[RANK_SYMBOLS[up]] = up_ev
            p_up[RANK_SYMBOLS[up]] = A.ratio(self.shoe[up], n_shoe)
            ties.extend(solver.tie_records(split_strategy))
            if mode == TRULY_OPTIMAL:
                ties.extend(optimal_split.tie_records(self, up))
        ev = sum((p_up[k] * v for k, v in ev_by_up.items()), A.zero)
        return RoundResult(r, split_strategy, ev, ev_by_up, p_up, deals, ties)
