"""Wager accounting and the exact outcome distribution of a round under a fixed strategy.

``round_stats(game, strategy)`` follows a strategy exactly (no sampling) and
returns a :class:`RoundStats`: the EV, the expected total stake E[W], both
RTPs, how often the player doubles, splits, insures and takes even money, and
the probability of every net result of a round, from which the variance,
standard deviation, skewness and hit frequency follow.  It is written once for
both arithmetics: the figures are floats for ``Game(rules)`` and exact
fractions for ``Game(rules, exact=True)`` (the SD and skewness are then
40-digit decimals, being irrational in general).

Conventions (every figure in initial bets):

* **Net result** of a round: everything won minus everything staked, insurance
  and even money included.  Even money is insurance on a blackjack: the
  stake is 1.5 and the net result +1.
* **Stake** W: the initial bet, doubles, split bets, and 0.5 for insurance or
  even money when taken.  When the dealer peeks and has blackjack, play never
  starts.  When an unchecked blackjack takes only the original bet, the
  double and split wagers are returned: they are not counted as staked.
* **RTP**: per initial bet ``1 + EV``; per total wagered ``(E[W] + EV) / E[W]``.
* ``p_double``: P(at least one double in the round); ``p_split``: P(the
  player splits); ``p_insurance``, ``p_even_money``: P(taken);
  ``p_player_blackjack``: P(dealt a natural); ``p_dealer_blackjack``: P(the
  dealer has blackjack); ``p_win``/``p_push``/``p_loss``: P(net > 0, = 0, < 0);
  ``hit_frequency`` = ``p_win``.
* One split: the two hands are scored against the same dealer hand, exactly.
  Resplits (``max_split_hands`` > 2): every hand is scored against the same
  dealer outcome, and given that outcome the hands' results are taken as
  independent (an approximation, like the resplit EV itself; see README).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ev.analysis.game import Game
from ev.analysis.optimal_split import OptimalSplitEvaluator
from ev.analysis.splits import resplit_cells
from ev.analysis.strategy import Policy, optimal_policy
from ev.core.actions import SPLIT_STRATEGIES, Action, split_mode
from ev.core.arithmetic import Arithmetic, Number
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, blackjack_rank, composition_of, initial_deals, subtract
from ev.core.rules import Rules
from ev.errors import EngineError

_PLAY = (Action.STAND, Action.HIT, Action.DOUBLE)


@dataclass
class RoundStats:
    """Exact figures of a round played by one strategy.  See the module docstring for definitions."""

    rules: Rules
    strategy: str
    split_strategy: str
    ev: Number
    expected_wager: Number
    p_double: Number
    p_split: Number
    p_insurance: Number
    p_even_money: Number
    p_player_blackjack: Number
    p_dealer_blackjack: Number
    distribution: dict[Number, Number]
    ev_by_upcard: dict[str, Number] = field(default_factory=dict)
    arithmetic: Arithmetic = field(default=None, repr=False)  # type: ignore[assignment]
    #: size of the work (exact arithmetic: split-distribution finals merged, unions, dealer evaluations)
    work: dict = field(default_factory=dict, repr=False)

    @property
    def rtp_initial(self) -> Number:
        return 1 + self.ev

    @property
    def rtp_total_wagered(self) -> Number:
        return (self.expected_wager + self.ev) / self.expected_wager

    def _sum(self, terms: Iterator[Number]) -> Number:
        return sum(terms, self.arithmetic.zero)

    @property
    def mean(self) -> Number:
        return self._sum(x * p for x, p in self.distribution.items())

    @property
    def variance(self) -> Number:
        m = self.mean
        return self._sum((x - m) ** 2 * p for x, p in self.distribution.items())

    @property
    def third_moment(self) -> Number:
        """E[(X - mean)^3]."""
        m = self.mean
        return self._sum((x - m) ** 3 * p for x, p in self.distribution.items())

    @property
    def sd(self) -> Any:
        return self.arithmetic.sqrt(self.variance)

    @property
    def skewness(self) -> Any:
        return self.arithmetic.skewness(self.third_moment, self.variance)

    @property
    def p_win(self) -> Number:
        return self._sum(p for x, p in self.distribution.items() if x > 0)

    @property
    def p_push(self) -> Number:
        return self._sum(p for x, p in self.distribution.items() if x == 0)

    @property
    def p_loss(self) -> Number:
        return self._sum(p for x, p in self.distribution.items() if x < 0)

    @property
    def hit_frequency(self) -> Number:
        return self.p_win


class _Tally:
    """Accumulates (net, stake) masses; net in integer tenths of a bet."""

    FREQUENCIES = ("p_double", "p_split", "p_insurance", "p_even_money", "p_player_bj", "p_dealer_bj")

    def __init__(self, arithmetic: Arithmetic) -> None:
        self.arithmetic = arithmetic
        zero = arithmetic.zero
        self.dist: dict[int, Number] = defaultdict(lambda: zero)
        self.wager = zero
        self.p_double = self.p_split = self.p_insurance = self.p_even_money = zero
        self.p_player_bj = self.p_dealer_bj = zero

    def add(self, mass: Number, net: Number, stake: Number) -> None:
        if mass:
            self.dist[self.arithmetic.tenths(net)] += mass
            self.wager += mass * stake

    def ev(self) -> Number:
        ratio = self.arithmetic.ratio
        return sum((ratio(k, 10) * p for k, p in self.dist.items()), self.arithmetic.zero)

    def absorb(self, other: _Tally, weight: Number) -> None:
        """Add ``weight`` times another tally (one up card's) to this one."""
        for k, p in other.dist.items():
            self.dist[k] += weight * p
        self.wager += weight * other.wager
        for attr in self.FREQUENCIES:
            setattr(self, attr, getattr(self, attr) + weight * getattr(other, attr))


def round_stats(game: Game, strategy: Policy | str = "cdz") -> RoundStats:
    """Exact wager accounting and outcome distribution of a round played by ``strategy``.

    ``strategy``: a split strategy name ("cdz", "cdp1", "cdp": optimal
    composition-dependent play with that post-split play, deciding exactly as
    ``Game.round``, so that with one split the mean of the distribution is the
    round EV), or a :class:`Policy` (for example the basic-strategy chart).
    """
    A = game.arithmetic
    if isinstance(strategy, str):
        split_strategy = strategy
        mode = split_mode(split_strategy)
        table = optimal_policy(game, split_strategy)
        name = f"optimal composition-dependent ({split_strategy})"
    else:
        table, split_strategy, name, mode = strategy, "table", strategy.name, -1
        table.validate()
    tally = _Tally(A)
    n_shoe = sum(game.shoe)
    by_up: dict[str, Number] = {}
    work: dict[str, int] = {}
    for up in game.upcards():
        solver = game.solver(up)
        if mode < 0 or split_strategy in ("cdz", "optimal"):
            splits = table.split_play[up] * N_RANKS
        else:     # CDP1/CDP: post-split play optimal for the pair's own context
            splits = solver.split_choices(mode)
        evaluator = A.evaluator(solver, blackjack_rank(up), table.play[up], splits)
        if split_strategy == "optimal":    # each split round played by truly optimal split play
            evaluator = OptimalSplitEvaluator(evaluator, game, up)
        up_tally = _Tally(A)
        _upcard(game, table, evaluator, up, up_tally)
        for key, count in evaluator.work.items():
            work[key] = work.get(key, 0) + count
        by_up[RANK_SYMBOLS[up]] = up_tally.ev()
        tally.absorb(up_tally, A.ratio(game.shoe[up], n_shoe))
    dist = {A.ratio(k, 10): p for k, p in sorted(tally.dist.items()) if p > 0}
    ev = sum((x * p for x, p in dist.items()), A.zero)
    return RoundStats(game.rules, name, split_strategy, ev, tally.wager, tally.p_double, tally.p_split,
                      tally.p_insurance, tally.p_even_money, tally.p_player_bj, tally.p_dealer_bj, dist, by_up,
                      A, work)


def split_strategy_stats(game: Game, known: RoundStats | None = None) -> dict[str, RoundStats]:
    """:func:`round_stats` under every split strategy (``ev.core.actions.SPLIT_STRATEGIES``: CDZ-, CDP1,
    CDP, truly optimal), for a table of the RTPs beside each other; ``known``: one already computed.
    Truly optimal split play is refused for rules with resplits (``EngineError``)."""
    return {s: known if known is not None and known.split_strategy == s else round_stats(game, s)
            for s in SPLIT_STRATEGIES}


def _upcard(game: Game, table: Policy, evaluator: Any, up: int, tally: _Tally) -> None:
    A, rules = game.arithmetic, game.rules
    base = subtract(game.shoe, composition_of([up]))
    natural_card = blackjack_rank(up)
    settled = rules.settled_blackjack_rank(up) >= 0
    same_ten = game.same_ten_rank_probability()
    one, half, zero = A.one, A.half, A.zero
    payout = A.number(rules.payout)
    for c1, c2, p in initial_deals(base, A.ratio):
        hand = composition_of([c1, c2])
        deck = subtract(base, hand)
        p_bj = A.ratio(deck[natural_card], sum(deck)) if natural_card >= 0 else zero
        tally.p_dealer_bj += p * p_bj
        if {c1, c2} == {ACE, TEN}:
            tally.p_player_bj += p
            if up == ACE and rules.even_money and table.even_money:
                tally.p_even_money += p
                tally.add(p, one, one + half)
            else:
                tally.add(p * p_bj, zero, one)
                tally.add(p * (1 - p_bj), payout, one)
            continue
        s = game.state(hand)
        insured = up == ACE and rules.insurance and bool(table.insurance[s])
        if insured:
            tally.p_insurance += p
        ins_stake = half if insured else zero
        if settled and p_bj:
            tally.add(p * p_bj, -one + (one if insured else zero), one + ins_stake)
        action = table.play[up][s]
        plays = [(one, action)]
        if action == Action.SPLIT and c1 == c2 == TEN and same_ten < 1:
            plays = [(same_ten, Action.SPLIT), (1 - same_ten, table.fallback[up][s])]
        for share, act in plays:
            for (doubles, bj, net), mass, stake in _play_cells(game, evaluator, up, act, s, c1, p_bj, settled):
                w = p * share * mass
                ins = (one if bj else -half) if insured else zero
                tally.add(w, net + ins, stake + ins_stake)
                if doubles:
                    tally.p_double += w
                if act == Action.SPLIT:
                    tally.p_split += w


def _play_cells(game: Game, evaluator: Any, up: int, action: int, s: int, pair: int, p_bj: Number,
                settled: bool) -> Iterator[tuple[tuple, Number, Number]]:
    """(doubles, dealer_blackjack, net) cells of playing hand s by ``action``, with mass and stake (joint units)."""
    rules, A = game.rules, game.arithmetic
    one = A.one
    if action in _PLAY:
        for (doubled, bj, result), mass in evaluator.hand_distribution(s, first=action).items():
            yield (doubled, bj, A.ratio(result, 1)), mass, one + doubled
    elif action == Action.SURRENDER:
        yield (0, 0, -A.half), 1 - p_bj, one
        if not settled and p_bj:
            yield (0, 1, -one), p_bj, one
    elif action == Action.SPLIT:
        one_card = rules.one_card_after_split(pair)
        cells = evaluator.split_distribution(pair, one_card)
        if rules.split_hands(pair) > 2:
            start = game.graph["next"][pair]
            chain = resplit_cells(
                subtract(game.shoe, composition_of([up])), pair, rules,
                sum(cells.values(), A.zero),
                lambda r, extra: evaluator.outcome_distribution(game.graph["next"][start * N_RANKS + r], pair,
                                                                extra, one_card),
                ratio=A.ratio)
            for (doubles, bj, net, hands), mass in chain.items():
                yield (doubles, bj, A.ratio(net, 1)), mass, A.ratio(hands + doubles, 1)
        else:
            for (doubles, bj, net), mass in cells.items():
                yield (doubles, bj, A.ratio(net, 1)), mass, A.ratio(2 + doubles, 1)
    else:
        raise EngineError(f"the strategy has no action for hand state {s}")


__all__ = ["RoundStats", "round_stats", "split_strategy_stats"]
