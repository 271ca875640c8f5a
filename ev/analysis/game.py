"""The exact engine's Python face: orchestrates the Cython core per up card.

``Game(rules)`` holds one rule set (and optionally cards removed from the
shoe).  ``Game.hand()`` gives the exact EV of every decision for one hand;
``Game.round()`` the EV of a whole round under optimal composition-dependent
play, with a record of every initial deal for the accounting built on it.

Units: every EV is in initial bets.  Hand EVs are conditioned on no dealer
blackjack whenever a dealer blackjack is settled before play (the dealer
peeked, or an unchecked blackjack takes only the original bet).  Round EVs are
unconditional: they include the initial bets lost to dealer blackjacks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from operator import truediv
from typing import Sequence

from ev.core import shapes as tables
from ev.core._dealer import DealerTable
from ev.core._player import UpcardSolver
from ev.core.cards import (ACE, N_RANKS, RANK_SYMBOLS, TEN, TEN_FACES, composition_of, face_to_rank,
                    full_shoe, hand_total, subtract)
from ev.errors import CardError, EngineError
from ev.core.rules import Rules

SPLIT_STRATEGIES = ("cdz", "cdp1", "cdp")
SPLIT_STRATEGY_NAMES = {
    "cdz": "CDZ- (each split hand played as the same unsplit hand would be)",
    "cdp1": "CDP1 (split hands played optimally knowing the other pair card is gone)",
    "cdp": "CDP (as CDP1, also varying with pair cards removed by resplits)",
}
DEALER_OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
PLAY_ACTIONS = ("stand", "hit", "double", "split", "surrender")


def _mode(split_strategy: str) -> int:
    """The core's split-play mode: 0 CDP, 1 CDZ-, 2 CDP1."""
    if split_strategy not in SPLIT_STRATEGIES:
        raise EngineError(f"unknown split strategy {split_strategy!r}; choose one of {', '.join(SPLIT_STRATEGIES)}")
    return {"cdp": 0, "cdz": 1, "cdp1": 2}[split_strategy]


@dataclass(frozen=True)
class Deal:
    """One initial deal class of a round: the up card and the player's two cards (ranks)."""

    up: int
    cards: tuple[int, int]
    probability: float            # P(this up card and these two player cards)
    p_dealer_blackjack: float     # P(hole card makes a dealer blackjack | deal)
    values: dict                  # joint values of the allowed play actions
    best: str                     # the optimal play action ('blackjack' for a natural)
    insurance: float | None       # EV of the insurance bet when offered (unconditioned)
    take_insurance: bool          # insurance (or even money, for a blackjack) is taken
    value: float                  # EV of the deal in initial bets, everything included
    split_probability: float = 1.0  # share of this deal where the pair may be split (tens by rank)


@dataclass
class RoundResult:
    """EV of a round under optimal composition-dependent play."""

    rules: Rules
    split_strategy: str
    ev: float
    ev_by_upcard: dict[str, float]
    p_upcard: dict[str, float]
    deals: list[Deal] = field(repr=False)

    @property
    def rtp_initial(self) -> float:
        """Return to player per initial bet: 1 + EV."""
        return 1.0 + self.ev


@dataclass
class HandResult:
    """EVs of every decision for one hand against one up card.

    ``stand``, ``hit``, ``double``, ``split`` and ``surrender`` are in initial
    bets, conditioned on no dealer blackjack when ``conditioned`` is true.
    ``insurance`` (EV of the insurance bet, per initial bet) and ``even_money``
    (EV of taking it: 1) are decided before the peek and are unconditioned; for
    a natural, ``blackjack_declined`` is the unconditioned EV of declining even
    money (payout x P(no dealer blackjack)), the figure even money is compared with.
    ``None`` marks a decision the rules do not offer.
    """

    hand: str
    up: str
    split_strategy: str
    conditioned: bool
    p_dealer_blackjack: float
    stand: float | None = None
    hit: float | None = None
    double: float | None = None
    split: float | None = None
    surrender: float | None = None
    insurance: float | None = None
    even_money: float | None = None
    blackjack_declined: float | None = None
    best: str = ""

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
    stand: dict[int, list[float]]       # up card -> value per state (NaN: unreachable)
    hit: dict[int, list[float]]
    double: dict[int, list[float]]      # as if doubling were allowed on every hand
    split: dict[tuple[str, int, int], float]   # (strategy, up, pair) -> EV of splitting (joint)
    rounds: dict[str, "RoundResult"]

    @property
    def size(self) -> int:
        """Number of (up card, hand) pairs evaluated."""
        return sum(sum(1 for v in values if v == v) for values in self.stand.values())


class Game:
    """One rule set, optionally with cards removed from the shoe (rank counts)."""

    def __init__(self, rules: Rules | None = None, removed: Sequence[int] = (0,) * N_RANKS) -> None:
        self.rules = rules or Rules()
        self.caps = full_shoe(self.rules.decks)
        self.shoe = subtract(self.caps, removed, "removed cards")
        self.graph = tables.hand_graph(self.caps)
        self._solvers: dict[int, UpcardSolver] = {}

    # ----- core access ----------------------------------------------------
    def settled_blackjack_rank(self, up: int) -> int:
        """Hole card whose blackjack is settled before play under ``up``, or -1."""
        return tables.blackjack_rank(up) if self.rules.blackjack_settled_as_peek(up) else -1

    def solver(self, up: int) -> UpcardSolver:
        """The memoised core for one up card (player hands dealt from the shoe less the up card)."""
        if up not in self._solvers:
            base = subtract(self.shoe, composition_of([up]), "up card")
            caps = subtract(self.caps, composition_of([up]))
            excluded = self.settled_blackjack_rank(up)
            terms = tables.dealer_terminals(up, self.rules.hit_soft_17, excluded, caps)
            r = self.rules
            lo, hi = {"any": (0, 21), "9-11": (9, 11), "10-11": (10, 11)}[r.double]
            self._solvers[up] = UpcardSolver(up, base, DealerTable(up, list(terms)), self.graph, excluded,
                                             lo, hi, r.double_soft, r.double_after_split)
        return self._solvers[up]

    def state(self, hand: Sequence[int]) -> int:
        try:
            return self.graph["index"][tuple(hand)]
        except KeyError:
            raise CardError("impossible hand for this shoe") from None

    # ----- dealer ---------------------------------------------------------
    def dealer_probabilities(self, up: int, known: Sequence[int] = (0,) * N_RANKS,
                             conditioned: bool = True) -> dict[str, float]:
        """Dealer final outcome probabilities for an up card, with ``known`` cards also out of the shoe.

        When a blackjack under ``up`` is settled before play and ``conditioned`` is
        true, the result is conditioned on no dealer blackjack (P(blackjack) = 0).
        """
        deck = subtract(self.shoe, composition_of([up]), "up card")
        deck = subtract(deck, known, "known cards")
        excluded = self.settled_blackjack_rank(up) if conditioned else -1
        caps = subtract(self.caps, composition_of([up]))
        table = DealerTable(up, list(tables.dealer_terminals(up, self.rules.hit_soft_17, excluded, caps)))
        probs = table.probabilities(deck)
        total = sum(probs)
        if excluded >= 0 and deck[excluded] == sum(deck):
            raise EngineError("the dealer must have blackjack with these cards")
        expected = 1.0 - (deck[excluded] / sum(deck) if excluded >= 0 else 0.0)
        if abs(total - expected) > 1e-9:
            raise EngineError("the unseen deck runs out before the dealer can finish")
        return {k: p / total for k, p in zip(DEALER_OUTCOMES, probs)}

    # ----- one hand -------------------------------------------------------
    def hand(self, faces: Sequence[str], up: int, split_strategy: str = "cdz") -> HandResult:
        """EV of every decision for a hand (faces such as ['T', '6'] or ['K', 'Q']) against ``up``."""
        mode = _mode(split_strategy)
        ranks = [face_to_rank(f) for f in faces]
        if len(ranks) < 2:
            raise CardError("a hand needs at least two cards")
        hand = composition_of(ranks)
        total, _ = hand_total(hand)
        if total > 21:
            raise CardError(f"the hand {'-'.join(faces)} is bust ({total})")
        base = subtract(self.shoe, composition_of([up]), "up card")
        deck = subtract(base, hand, "hand")
        n = sum(deck)
        if n < 1:
            raise EngineError("no cards left in the shoe")
        solver = self.solver(up)
        s = self.state(hand)
        r = self.rules
        bj_rank = tables.blackjack_rank(up)
        p_bj = deck[bj_rank] / n if bj_rank >= 0 else 0.0
        settled = self.settled_blackjack_rank(up) >= 0
        mass = 1.0 - p_bj if settled else 1.0
        if mass <= 0:
            raise EngineError("the dealer must have blackjack with these cards")
        self._check_deck_lasts(solver, s)
        res = HandResult(hand="-".join(faces), up=RANK_SYMBOLS[up], split_strategy=split_strategy,
                         conditioned=settled, p_dealer_blackjack=p_bj)
        natural = len(ranks) == 2 and total == 21
        if up == ACE and r.insurance and not natural:
            res.insurance = 0.5 * (3 * p_bj - 1)
        if natural:
            res.stand = float(r.payout) * (1.0 - p_bj) / mass   # conditioned if settled
            res.blackjack_declined = float(r.payout) * (1.0 - p_bj)
            if up == ACE and r.even_money:
                res.even_money = 1.0
            res.best = "even_money" if res.even_money is not None and 1.0 > res.blackjack_declined else "stand"
            return res
        values = self._play_values(solver, s, hand, len(ranks) == 2 and self._splittable(faces), mode, deck)
        for action, v in values.items():
            setattr(res, action, v / mass)
        res.best = max(values, key=values.get)
        return res

    def _splittable(self, faces: Sequence[str]) -> bool:
        if faces[0] in TEN_FACES and faces[1] in TEN_FACES:
            return self.rules.split_tens == "value" or faces[0] == faces[1]
        return faces[0] == faces[1]

    def _check_deck_lasts(self, solver: UpcardSolver, s: int) -> None:
        probs = solver.dealer_probabilities(s)
        hand = self.graph["hands"][s]
        deck = [b - h for b, h in zip(subtract(self.shoe, composition_of([solver.up])), hand)]
        excluded = self.settled_blackjack_rank(solver.up)
        expected = 1.0 - (deck[excluded] / sum(deck) if excluded >= 0 else 0.0)
        if abs(sum(probs) - expected) > 1e-9:
            raise EngineError("the unseen deck runs out before the dealer can finish")

    def _play_values(self, solver: UpcardSolver, s: int, hand: tuple, may_split: bool, mode: int,
                     deck: Sequence[int]) -> dict[str, float]:
        """Joint values of the allowed play actions for unsplit hand s (in preference order for ties)."""
        r = self.rules
        stand, hit, double = solver.hand_values(s)
        total = self.graph["total"][s]
        values = {"stand": stand}
        if total < 21:
            values["hit"] = hit
        if sum(hand) == 2 and solver.may_double(s):
            values["double"] = double
        pair = next((k for k in range(N_RANKS) if hand[k] == 2), None) if sum(hand) == 2 else None
        if pair is not None and may_split and r.max_split_hands >= 2:
            values["split"] = self.split_value(solver, pair, mode)
        if r.late_surrender and sum(hand) == 2:
            values["surrender"] = self._surrender(solver.up, deck)
        return values

    def split_value(self, solver: UpcardSolver, pair: int, mode: int) -> float:
        """Joint EV of splitting a pair of rank ``pair``, summed over all the hands it makes.

        With one split this is exact: ``2 V`` with ``V`` the value of one hand
        dealt from the deck less both pair cards (see ``ev.reference``).  With
        resplits see :func:`resplit_value` for the approximation.
        """
        r = self.rules
        one_card = pair == ACE and r.split_aces_one_card
        may_resplit = r.max_split_hands > 2 and (pair != ACE or r.resplit_aces)
        deck = subtract(self.shoe, composition_of([solver.up]))
        same_rank = 4 * r.decks if (pair == TEN and r.split_tens == "rank") else None
        return resplit_value(deck, pair, r.max_split_hands if may_resplit else 2, same_rank,
                             lambda extra: solver.split_hand_values(pair, extra, mode, one_card))

    def _surrender(self, up: int, deck: Sequence[int]) -> float:
        """Late surrender, joint units: half the bet back; an unsettled blackjack takes the whole bet."""
        bj_rank = tables.blackjack_rank(up)
        p_bj = deck[bj_rank] / sum(deck) if bj_rank >= 0 else 0.0
        if self.settled_blackjack_rank(up) >= 0:
            return -0.5 * (1.0 - p_bj)
        return -0.5 * (1.0 - p_bj) - p_bj

    # ----- everything -----------------------------------------------------
    def analyse(self, split_strategies: Sequence[str] = SPLIT_STRATEGIES) -> "Analysis":
        """Every decision for every reachable hand against every up card, plus the round EV.

        Hand values are joint (see ``ev.reference``); ``Analysis.mass`` gives
        each hand's P(no settled dealer blackjack) to condition them.
        """
        stand, hit, double, split = {}, {}, {}, {}
        for up in range(N_RANKS):
            if not self.shoe[up]:
                continue
            solver = self.solver(up)
            stand[up], hit[up], double[up] = solver.values_table()
            base = subtract(self.shoe, composition_of([up]))
            for strategy in split_strategies:
                for pair in range(N_RANKS):
                    if base[pair] >= 2 and self.rules.max_split_hands >= 2:
                        split[strategy, up, pair] = self.split_value(solver, pair, _mode(strategy))
        rounds = {s: self.round(s) for s in split_strategies}
        return Analysis(self.graph["hands"], stand, hit, double, split, rounds)

    # ----- a whole round --------------------------------------------------
    def round(self, split_strategy: str = "cdz") -> RoundResult:
        """EV of a round under optimal composition-dependent play, overall and per up card."""
        mode = _mode(split_strategy)
        r = self.rules
        shoe = self.shoe
        n_shoe = sum(shoe)
        deals: list[Deal] = []
        ev_by_up: dict[str, float] = {}
        p_up: dict[str, float] = {}
        same_ten = self._same_ten_rank_probability()
        for up in range(N_RANKS):
            if not shoe[up]:
                continue
            solver = self.solver(up)
            base = subtract(shoe, composition_of([up]))
            n = sum(base)
            bj_rank = tables.blackjack_rank(up)
            settled = self.settled_blackjack_rank(up) >= 0
            split_v = {}
            up_ev = 0.0
            for c1 in range(N_RANKS):
                for c2 in range(c1, N_RANKS):
                    if c1 == c2:
                        p = base[c1] * (base[c1] - 1) / (n * (n - 1))
                    else:
                        p = 2.0 * base[c1] * base[c2] / (n * (n - 1))
                    if p <= 0:
                        continue
                    hand = composition_of([c1, c2])
                    deck = subtract(base, hand)
                    p_bj = deck[bj_rank] / sum(deck) if bj_rank >= 0 else 0.0
                    offered = up == ACE and r.insurance
                    if {c1, c2} == {ACE, TEN}:
                        declined = float(r.payout) * (1.0 - p_bj)
                        take = up == ACE and r.even_money and 1.0 > declined
                        value = 1.0 if take else declined
                        deals.append(Deal(up, (c1, c2), p, p_bj, {}, "blackjack", None, take, value))
                        up_ev += p * value
                        continue
                    s = self.state(hand)
                    values = self._play_values(solver, s, hand, False, mode, deck)
                    if c1 == c2 and r.max_split_hands >= 2:
                        if c1 not in split_v:
                            split_v[c1] = self.split_value(solver, c1, mode)
                        values["split"] = split_v[c1]
                    insurance = 0.5 * (3 * p_bj - 1) if offered else None
                    take = insurance is not None and insurance > 0
                    value = (insurance if take else 0.0) - (p_bj if settled else 0.0)
                    best = max(values, key=values.get)
                    share = same_ten if (c1 == c2 == TEN) else 1.0
                    if share < 1.0 and best == "split":
                        plain = {k: v for k, v in values.items() if k != "split"}
                        value += share * values["split"] + (1 - share) * max(plain.values())
                    else:
                        value += values[best]
                    deals.append(Deal(up, (c1, c2), p, p_bj, values, best, insurance, take, value, share))
                    up_ev += p * value
            ev_by_up[RANK_SYMBOLS[up]] = up_ev
            p_up[RANK_SYMBOLS[up]] = shoe[up] / n_shoe
        ev = sum(p_up[k] * v for k, v in ev_by_up.items())
        return RoundResult(r, split_strategy, ev, ev_by_up, p_up, deals)

    def _same_ten_rank_probability(self) -> float:
        """P(two ten-valued cards share a rank) when tens split only by rank; 1 when by value."""
        if self.rules.split_tens == "value":
            return 1.0
        per_rank = 4 * self.rules.decks
        return (per_rank - 1) / (16 * self.rules.decks - 1)


def resplit_value(deck: Sequence[int], pair: int, max_hands: int, same_rank: int | None,
                  hand_values, ratio=truediv):
    """Total joint EV of all hands made by splitting a pair of rank ``pair`` from ``deck``.

    ``deck`` is the unseen deck before the player's cards were dealt (it holds
    the pair).  ``hand_values(j)`` gives, for each second card ``r``, the joint
    value of the split hand {pair, r} whose deck lacks ``j`` pair cards beyond
    the hand's own.  ``same_rank``: for tens split by rank only, the number of
    cards of one ten rank in the full shoe (a ten of another rank does not resplit).
    ``ratio(a, b)`` makes the probability a/b: float division here,
    ``Fraction`` in the exact mode, which shares this function.

    The hands are completed one at a time.  While a resplit is still possible a
    hand's second card may be a pair card, which makes two hands of it.  The
    only approximation: the deck a hand is played from lacks the pair cards seen
    so far, but not the *other* hands' non-pair cards.  With one split
    (``max_hands`` 2) there are no resplits and this reduces to the exact
    ``2 V``; with resplits it is the standard pair-card-tracking approximation,
    checked against exact enumeration in the tests.
    """
    n0 = sum(deck)
    zero = ratio(0, 1)
    memo: dict[int, list] = {}

    def values(j: int) -> list:
        if j not in memo:
            memo[j] = hand_values(j)
        return memo[j]

    def expected(j: int, skip_pair: bool) -> tuple:
        """(value, P) over second cards from the deck less j+1 pair cards; skip resplitting cards."""
        k = j + 1
        n = n0 - k
        pair_left = deck[pair] - k
        resplit = (max(same_rank - k, 0) if same_rank is not None else pair_left) if skip_pair else 0
        v, p = zero, zero
        vals = values(j)
        for r in range(N_RANKS):
            count = deck[r] - (k if r == pair else 0)
            if r == pair:
                count -= resplit
            if count > 0:
                v += ratio(count, n) * vals[r]
                p += ratio(count, n)
        return v, p

    @lru_cache(maxsize=None)
    def f(hands: int, open_hands: int, k: int):
        if open_hands == 0:
            return zero
        if hands >= max_hands or n0 - k <= 0:
            return open_hands * expected(k - 1, False)[0]
        v, p_other = expected(k - 1, True)
        value = v + p_other * f(hands, open_hands - 1, k)
        if p_other < 1:
            value += (1 - p_other) * f(hands + 1, open_hands + 1, k + 1)
        return value

    return f(2, 2, 2)
