"""Wager accounting and the exact outcome distribution of a round under a fixed strategy.

``round_stats(game, strategy)`` follows a strategy exactly (no sampling) and
returns a :class:`RoundStats`: the EV, the expected total stake E[W], both
RTPs, how often the player doubles, splits, insures and takes even money, and
the probability of every net result of a round, from which the variance,
standard deviation, skewness and hit frequency follow.

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

import math
from collections import defaultdict
from dataclasses import dataclass, field
from operator import truediv
from typing import Any, Sequence

from ev.core._policy import PolicyEvaluator
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, composition_of, subtract
from ev.analysis.game import Game, _mode
from ev.errors import EngineError
from ev.core.rules import Rules
from ev.analysis.strategy import DOUBLE, HIT, NO_ACTION, SPLIT, STAND, SURRENDER, StrategyTable, optimal_table
from ev.core.shapes import blackjack_rank

# distributions are keyed by the net result in tenths of a bet (an integer),
# so that 1.5 and 1.2 (6:5) are exact keys
TENTHS = 10


@dataclass
class RoundStats:
    """Exact figures of a round played by one strategy.  See the module docstring for definitions."""

    rules: Rules
    strategy: str
    split_strategy: str
    ev: float
    expected_wager: float
    p_double: float
    p_split: float
    p_insurance: float
    p_even_money: float
    p_player_blackjack: float
    p_dealer_blackjack: float
    distribution: dict[float, float]
    ev_by_upcard: dict[str, float] = field(default_factory=dict)

    @property
    def rtp_initial(self) -> float:
        return 1.0 + self.ev

    @property
    def rtp_total_wagered(self) -> float:
        return (self.expected_wager + self.ev) / self.expected_wager

    @property
    def mean(self) -> float:
        return sum(x * p for x, p in self.distribution.items())

    @property
    def variance(self) -> float:
        m = self.mean
        return sum((x - m) ** 2 * p for x, p in self.distribution.items())

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def skewness(self) -> float:
        m, sd = self.mean, self.sd
        return sum((x - m) ** 3 * p for x, p in self.distribution.items()) / sd ** 3

    @property
    def p_win(self) -> float:
        return sum(p for x, p in self.distribution.items() if x > 0)

    @property
    def p_push(self) -> float:
        return sum(p for x, p in self.distribution.items() if x == 0)

    @property
    def p_loss(self) -> float:
        return sum(p for x, p in self.distribution.items() if x < 0)

    @property
    def hit_frequency(self) -> float:
        return self.p_win

    def as_dict(self) -> dict[str, Any]:
        return {
            "ev": self.ev, "rtp_initial": self.rtp_initial, "rtp_total_wagered": self.rtp_total_wagered,
            "expected_total_wager": self.expected_wager,
            "p_double": self.p_double, "p_split": self.p_split, "p_insurance": self.p_insurance,
            "p_even_money": self.p_even_money, "p_player_blackjack": self.p_player_blackjack,
            "p_dealer_blackjack": self.p_dealer_blackjack,
            "p_win": self.p_win, "p_push": self.p_push, "p_loss": self.p_loss,
            "distribution": {_net_key(x): p for x, p in sorted(self.distribution.items())},
            "sd": self.sd, "variance": self.variance, "skewness": self.skewness,
            "hit_frequency": self.hit_frequency,
            "strategy": self.strategy, "split_strategy": self.split_strategy,
        }


def _net_key(x: float) -> str:
    """A net result as a decimal string: -2, 1.5, 0.2."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


class _Tally:
    """Accumulates (net, stake) masses; net in tenths of a bet."""

    def __init__(self) -> None:
        self.dist: dict[int, float] = defaultdict(float)
        self.wager = 0.0
        self.p_double = self.p_split = self.p_insurance = self.p_even_money = 0.0
        self.p_player_bj = self.p_dealer_bj = 0.0

    def add(self, mass: float, net: float, stake: float) -> None:
        if mass:
            self.dist[round(net * TENTHS)] += mass
            self.wager += mass * stake


def round_stats(game: Game, strategy: StrategyTable | str = "cdz") -> RoundStats:
    """Exact wager accounting and outcome distribution of a round played by ``strategy``.

    ``strategy``: a split strategy name ("cdz", "cdp1", "cdp": optimal
    composition-dependent play with that post-split play), or a
    :class:`StrategyTable` (for example the basic-strategy chart).
    """
    rules = game.rules
    if isinstance(strategy, str):
        split_strategy = strategy
        _mode(split_strategy)
        table = optimal_table(game, split_strategy)
        split_tables = _split_tables(game, split_strategy, table)
        name = f"optimal composition-dependent ({split_strategy})"
    else:
        table, split_strategy, name = strategy, "table", strategy.name
        table.validate()
        split_tables = {(up, p): table.split_play[up] for up in range(N_RANKS) for p in range(N_RANKS)}
    tally = _Tally()
    shoe = game.shoe
    n_shoe = sum(shoe)
    by_up: dict[str, float] = {}
    for up in range(N_RANKS):
        if not shoe[up]:
            continue
        p_up = shoe[up] / n_shoe
        up_tally = _Tally()
        _upcard(game, table, split_tables, up, up_tally)
        by_up[RANK_SYMBOLS[up]] = sum(k / TENTHS * p for k, p in up_tally.dist.items())
        for k, p in up_tally.dist.items():
            tally.dist[k] += p_up * p
        tally.wager += p_up * up_tally.wager
        for attr in ("p_double", "p_split", "p_insurance", "p_even_money", "p_player_bj", "p_dealer_bj"):
            setattr(tally, attr, getattr(tally, attr) + p_up * getattr(up_tally, attr))
    dist = {k / TENTHS: p for k, p in sorted(tally.dist.items()) if p > 0}
    ev = sum(x * p for x, p in dist.items())
    return RoundStats(rules, name, split_strategy, ev, tally.wager, tally.p_double, tally.p_split,
                      tally.p_insurance, tally.p_even_money, tally.p_player_bj, tally.p_dealer_bj, dist, by_up)


def _split_tables(game: Game, split_strategy: str, table: StrategyTable) -> dict[tuple[int, int], bytes]:
    """Post-split play per (up, pair): CDZ- copies the unsplit choices; CDP1/CDP are optimal for the pair."""
    out = {}
    for up in range(N_RANKS):
        if not game.shoe[up]:
            continue
        solver = game.solver(up)
        for pair in range(N_RANKS):
            if split_strategy == "cdz":
                out[up, pair] = table.split_play[up]
            else:
                out[up, pair] = solver.context_choices(pair, 1, _mode(split_strategy))
    return out


def _upcard(game: Game, table: StrategyTable, split_tables: dict, up: int, tally: _Tally) -> None:
    rules = game.rules
    solver = game.solver(up)
    n_states = len(game.graph["hands"])
    blank = bytes([NO_ACTION]) * n_states
    splits = b"".join(split_tables.get((up, p), blank) for p in range(N_RANKS))
    evaluator = PolicyEvaluator(solver, blackjack_rank(up), table.play[up], splits)
    base = subtract(game.shoe, composition_of([up]))
    n = sum(base)
    natural_card = blackjack_rank(up)
    settled = game.settled_blackjack_rank(up) >= 0
    same_ten = game._same_ten_rank_probability()
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
            p_bj = deck[natural_card] / sum(deck) if natural_card >= 0 else 0.0
            tally.p_dealer_bj += p * p_bj
            if {c1, c2} == {ACE, TEN}:
                tally.p_player_bj += p
                if up == ACE and rules.even_money and table.even_money:
                    tally.p_even_money += p
                    tally.add(p, 1.0, 1.5)
                else:
                    tally.add(p * p_bj, 0.0, 1.0)
                    tally.add(p * (1 - p_bj), float(rules.payout), 1.0)
                continue
            s = game.state(hand)
            insured = up == ACE and rules.insurance and bool(table.insurance[s])
            if insured:
                tally.p_insurance += p
            ins_stake = 0.5 if insured else 0.0
            if settled and p_bj:
                tally.add(p * p_bj, -1.0 + (1.0 if insured else 0.0), 1.0 + ins_stake)
            action = table.play[up][s]
            plays = [(1.0, action)]
            if action == SPLIT and c1 == c2 == TEN and same_ten < 1.0:
                plays = [(same_ten, SPLIT), (1.0 - same_ten, table.fallback[up][s])]
            for share, act in plays:
                for (doubles, bj, net), mass, stake in _play_cells(game, evaluator, solver, act, s, c1, deck, p_bj,
                                                                 settled):
                    w = p * share * mass
                    ins = (1.0 if bj else -0.5) if insured else 0.0
                    tally.add(w, net + ins, stake + ins_stake)
                    if doubles:
                        tally.p_double += w
                    if act == SPLIT:
                        tally.p_split += w


def _play_cells(game: Game, evaluator: PolicyEvaluator, solver, action: int, s: int, pair: int,
                deck: list[int], p_bj: float, settled: bool):
    """(doubles, dealer_blackjack, net) cells of playing hand s by ``action``, with mass and stake (joint units)."""
    rules = game.rules
    if action in (STAND, HIT, DOUBLE):
        for (doubled, bj, result), mass in evaluator.hand_distribution(s, 0, action).items():
            yield (doubled, bj, float(result)), mass, 1.0 + doubled
    elif action == SURRENDER:
        if settled:
            yield (0, 0, -0.5), 1.0 - p_bj, 1.0
        else:
            yield (0, 0, -0.5), 1.0 - p_bj, 1.0
            if p_bj:
                yield (0, 1, -1.0), p_bj, 1.0
    elif action == SPLIT:
        one_card = pair == ACE and rules.split_aces_one_card
        may_resplit = rules.max_split_hands > 2 and (pair != ACE or rules.resplit_aces)
        cells = evaluator.split_distribution(pair, one_card)
        if may_resplit:
            for (doubles, bj, net, hands), mass in _resplit_cells(game, evaluator, solver, pair, one_card,
                                                                  cells).items():
                yield (doubles, bj, float(net)), mass, float(hands + doubles)
        else:
            for (doubles, bj, net), mass in cells.items():
                yield (doubles, bj, float(net)), mass, 2.0 + doubles
    else:
        raise EngineError(f"the strategy has no action for hand state {s}")


def _resplit_cells(game: Game, evaluator: PolicyEvaluator, solver, pair: int, one_card: bool,
                   two_hand_cells: dict) -> dict:
    """Approximate cells {(doubles, dealer_blackjack, net, hands): mass} of a round whose split may grow.

    See :func:`resplit_cells`; this binds it to the float core.
    """
    start = game.graph["next"][pair]
    return resplit_cells(
        subtract(game.shoe, composition_of([solver.up])), pair, game.rules, sum(two_hand_cells.values()),
        lambda r, extra: evaluator.outcome_distribution(game.graph["next"][start * N_RANKS + r], pair, extra,
                                                        one_card))


def resplit_cells(deck: Sequence[int], pair: int, rules: Rules, round_mass, hand_outcomes,
                  ratio=truediv) -> dict:
    """Approximate cells {(doubles, dealer_blackjack, net, hands): mass} of a round whose split may grow.

    The hands are completed in turn as in :func:`ev.engine.resplit_value`: a
    pair card drawn while hands may be added makes a new hand, and each hand is
    dealt from the deck less the pair cards seen so far.  Every hand is scored
    against the same dealer outcome: given the dealer's final outcome (17..21,
    bust, blackjack), the hands' results are taken as independent.  The
    dealer's outcome distribution is the first hand's; the total mass is
    ``round_mass``, that of the exact two-hand round (P(no settled dealer
    blackjack)).

    ``deck``: the unseen deck before the player's cards; ``hand_outcomes(r, j)``:
    the cells {(doubled, dealer outcome 0..6, result): mass} of the split hand
    {pair, r} whose deck lacks ``j`` pair cards beyond its own.  ``ratio(a, b)``
    makes a/b: float division, or ``Fraction`` in the exact mode, which shares
    this function.
    """
    zero, one = ratio(0, 1), ratio(1, 1)
    n0 = sum(deck)
    most = rules.max_split_hands
    same_rank = 4 * rules.decks if (pair == TEN and rules.split_tens == "rank") else None

    def hand_cells(gone: int, skip_resplit: bool) -> tuple[dict, Any]:
        """Cells (doubled, outcome, result) of one hand dealt from the deck less ``gone`` pair cards."""
        n = n0 - gone
        resplit = 0
        if skip_resplit:
            resplit = max(same_rank - gone, 0) if same_rank is not None else deck[pair] - gone
        cells: dict = defaultdict(lambda: zero)
        p_total = zero
        for r in range(N_RANKS):
            count = deck[r] - (gone if r == pair else 0) - (resplit if r == pair else 0)
            if count <= 0:
                continue
            q = ratio(count, n)
            for key, mass in hand_outcomes(r, gone - 1).items():
                cells[key] += q * mass
            p_total += q
        return cells, p_total

    def conditional(cells: dict) -> dict:
        """Per dealer outcome: the hand's (doubled, result) distribution given that outcome."""
        out: dict = {}
        for o in range(7):
            part = {(d, res): m for (d, oo, res), m in cells.items() if oo == o}
            total = sum(part.values(), zero)
            out[o] = {k: m / total for k, m in part.items()} if total > 0 else {}
        if not out[6]:
            # this hand's deck holds no blackjack card although the round's may: against
            # a dealer blackjack every hand loses its whole stake
            lost: dict = defaultdict(lambda: zero)
            for o in range(6):
                for (d, _), m in out[o].items():
                    lost[d, -(1 + d)] += m
            total = sum(lost.values(), zero)
            out[6] = {k: m / total for k, m in lost.items()} if total else {}
        return out

    def convolve(acc: dict, per: dict) -> dict:
        """Add one hand (its (doubled, result) distribution per dealer outcome) to (outcome, doubles, net, hands)."""
        out: dict = defaultdict(lambda: zero)
        for (o, doubles, net, hands), m in acc.items():
            for (doubled, result), q in per.get(o, {}).items():
                out[o, doubles + doubled, net + result, hands] += m * q
        return out

    first_cells, _ = hand_cells(2, most > 2)
    weights: dict = defaultdict(lambda: zero)
    for (_, o, _), m in first_cells.items():
        weights[o] += m
    total_weight = sum(weights.values(), zero)
    memo: dict = {}

    def rounds(hands: int, open_hands: int, gone: int) -> dict:
        """Distribution over (outcome, doubles, net, hands) of the open hands, within each outcome."""
        key = (hands, open_hands, gone)
        if key in memo:
            return memo[key]
        if open_hands == 0:
            result = {(o, 0, 0, hands): one for o in range(7)}
        elif hands >= most:
            per = conditional(hand_cells(gone, False)[0])
            result = {(o, 0, 0, hands): one for o in range(7)}
            for _ in range(open_hands):
                result = convolve(result, per)
        else:
            cells, p_plain = hand_cells(gone, True)
            per = conditional(cells)
            result = defaultdict(lambda: zero)
            if p_plain > 0:
                for k, m in convolve(rounds(hands, open_hands - 1, gone), per).items():
                    result[k] += p_plain * m
            if p_plain < 1:
                for k, m in rounds(hands + 1, open_hands + 1, gone + 1).items():
                    result[k] += (1 - p_plain) * m
        memo[key] = result
        return result

    out: dict = defaultdict(lambda: zero)
    for (o, doubles, net, hands), m in rounds(2, 2, 2).items():
        if weights.get(o, zero) > 0:
            out[doubles, int(o == 6), net, hands] += round_mass * weights[o] / total_weight * m
    return dict(out)
