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
  and even money included.  Even money's net result is +1.
* **Stake** W: the initial bet, doubles, split bets, and 0.5 for insurance when
  taken.  Even money is staked as 1 initial bet (:data:`EVEN_MONEY_STAKE`): the
  player takes it without placing chips, so a "total win / total bet" meter
  counts the initial bet only.  The other convention counts it as insurance on
  a blackjack (stake 1.5): ``expected_wager_at(Fraction(3, 2))`` and
  ``rtp_total_wagered_at(...)`` give the figures under it.  When the dealer peeks and has blackjack, play never
  starts.  When an unchecked blackjack takes only the original bet, the
  double and split wagers are returned: they are not counted as staked.
* **RTP**: per initial bet ``1 + EV``; per total wagered ``(E[W] + EV) / E[W]``.
* ``p_double``: P(at least one double in the round); ``p_split``: P(the
  player splits); ``p_insurance``, ``p_even_money``: P(taken);
  ``p_player_blackjack``: P(dealt a natural); ``p_dealer_blackjack``: P(the
  dealer has blackjack); ``p_win``/``p_push``/``p_loss``: P(net > 0, = 0, < 0);
  ``hit_frequency`` = ``p_win``.
* Splits: every hand is scored against the same dealer hand, the hands
  dependent through the deck, exactly (``distribution_method`` "exact").
  With resplits this costs a great deal.  In floats on two cores
  (``round_stats`` of the default rules with more hands, 2026-12-07): 0.8-5.3 s
  and 180-360 MiB for resplits to three hands at 1-8 decks, 5 s and 440 MiB
  for one deck to four (10 s with DAS), 57 s and 2.3 GiB for two decks to
  four, minutes for six and eight; in fractions 12 s for one deck to three,
  204 s for six decks to three.  So ``resplits="auto"`` in floats takes the
  exact method for every table splitting to at most three hands and every
  shoe of one deck or less (:func:`float_exact_table`), each split round within
  the caps ``FLOAT_RESPLIT_WORK`` and ``FLOAT_RESPLIT_STATES`` (a round past
  one is made again as below, the work's "rounds_past_the_caps"), and on the
  other tables, and in fractions, only for the rounds whose work is small
  (``EXACT_RESPLIT_LIMIT``).  Elsewhere it scores the hands of splits that
  make three or four hands as independent given the dealer's outcome, each
  with its exact marginal (``distribution_method`` "independent"): measured
  on seven tables, the distribution's mean was then 3e-8 to 2e-6 bets from
  the exact EV and its mean stake up to 6e-8 from the exact E[W], and on four
  its SD 3e-6 to 1e-5 from the exact SD (docs/how-it-works.md, "Splits"; not
  bounds).  ``ev`` and ``expected_wager`` are then the exact figures of
  ``ev.analysis.strategies`` (the resplit formula, which needs no joint
  distribution: ``split_strategy_figures`` for an optimal strategy, its EV
  ``Game.round``'s; ``policy_figures`` for a table); the probabilities and
  moments are the distribution's.  So with ``game.exact`` "auto" may score a
  table independently that it scores exactly in floats (one deck to three
  hands): the method is in ``distribution_method``.
* Threads: the split rounds the strategy makes (a C merge that runs without
  the GIL, in both arithmetics) are computed side by side before the tally
  reads them, one thread per core this process may use (``SPLIT_THREADS``; 1 in the worker
  processes of a local pool, which take the cores themselves).  The tally is the same and in the same order, so every
  figure is the same float with any number of threads.  With
  ``resplits="exact"`` too: the largest two rounds at once hold most of the
  peak memory (one deck resplitting to four hands: 4.9-5.1 s and 440 MiB side
  by side; a round's largest share is its map of merged states, at most 128 MiB
  under the caps, then a layer of its final unions: ``ev.core._split_round``).
"""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ev.analysis.game import Game
from ev.analysis.machine import cores
from ev.analysis.optimal_split import BEST, OptimalSplitEvaluator
from ev.analysis.optimal_split import prepare as prepare_optimal_splits
from ev.analysis.splits import split_configurations, type_sets
from ev.analysis.strategy import Policy, optimal_policy, unsplit_best
from ev.core.actions import CDP1, CDZ, SPLIT_STRATEGIES, TRULY_OPTIMAL, Action, playable_split_mode
from ev.core.arithmetic import Arithmetic, Number
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, blackjack_rank, composition_of, initial_deals, subtract
from ev.core.rules import Rules
from ev.errors import EngineError

_PLAY = (Action.STAND, Action.HIT, Action.DOUBLE)
#: the stake counted for even money, in initial bets: the initial bet only (no chips are placed for it)
EVEN_MONEY_STAKE = 1
#: the stakes a report may count for even money: the initial bet, or insurance on a blackjack too
EVEN_MONEY_STAKES = (Fraction(1), Fraction(3, 2))


class ReturnToPlayer:
    """Both RTPs from ``ev`` (initial bets) and ``expected_wager`` (E[W], initial bets): mixed into the figures."""

    ev: Any
    expected_wager: Any
    p_even_money: Any

    @property
    def rtp_initial(self) -> Any:
        return 1 + self.ev

    @property
    def rtp_total_wagered(self) -> Any:
        return (self.expected_wager + self.ev) / self.expected_wager

    def expected_wager_at(self, even_money_stake: Any) -> Any:
        """E[W] with even money staked as ``even_money_stake`` initial bets (1: the engine's convention)."""
        return self.expected_wager + (even_money_stake - EVEN_MONEY_STAKE) * self.p_even_money

    def rtp_total_wagered_at(self, even_money_stake: Any) -> Any:
        """The RTP per total wagered with even money staked as ``even_money_stake`` initial bets."""
        wager = self.expected_wager_at(even_money_stake)
        return (wager + self.ev) / wager


@dataclass
class Figures(ReturnToPlayer):
    """EV and expected total stake E[W] of a round under one strategy (initial bets), and both RTPs."""

    ev: Any
    expected_wager: Any
    #: P(even money taken): the stake conventions of even money differ by half of it (``expected_wager_at``)
    p_even_money: Any = 0


@dataclass
class RoundStats(ReturnToPlayer):
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
    #: how the splits of three and four hands were scored: "exact" or "independent" (module docstring)
    distribution_method: str = "exact"
    #: {(net, stake): probability}: the joint distribution of a round's net result and total stake (initial
    #: bets), for the RTP per total wagered's monitoring limits (``ev.analysis.monitoring``)
    joint: dict = field(default_factory=dict, repr=False)

    def _sum(self, terms: Iterator[Number]) -> Number:
        return sum(terms, self.arithmetic.zero)

    @property
    def mean(self) -> Number:
        return self._sum(x * p for x, p in self.distribution.items())

    @property
    def mean_gap(self) -> Number:
        """The distribution's mean less the EV: zero where the distribution is exact, the error of the
        independent scoring of resplits (``distribution_method`` "independent") otherwise."""
        return self.mean - self.ev

    @property
    def p_double_exact(self) -> bool:
        """Is ``p_double`` exact?  It counts rounds with a double, so where split hands may double the
        independent scoring of resplits makes it approximate; elsewhere it is exact."""
        return self.distribution_method == "exact" or not self.rules.double_after_split

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
        self.joint: dict[tuple[int, int], Number] = defaultdict(lambda: zero)   # (net, stake) in tenths
        self.wager = zero
        self.p_double = self.p_split = self.p_insurance = self.p_even_money = zero
        self.p_player_bj = self.p_dealer_bj = zero

    def add(self, mass: Number, net: Number, stake: Number) -> None:
        if mass:
            self.dist[self.arithmetic.tenths(net)] += mass
            self.joint[self.arithmetic.tenths(net), self.arithmetic.tenths(stake)] += mass
            self.wager += mass * stake

    def ev(self) -> Number:
        ratio = self.arithmetic.ratio
        return sum((ratio(k, 10) * p for k, p in self.dist.items()), self.arithmetic.zero)

    def absorb(self, other: _Tally, weight: Number) -> None:
        """Add ``weight`` times another tally (one up card's) to this one."""
        for k, p in other.dist.items():
            self.dist[k] += weight * p
        for pair, p in other.joint.items():
            self.joint[pair] += weight * p
        self.wager += weight * other.wager
        for attr in self.FREQUENCIES:
            setattr(self, attr, getattr(self, attr) + weight * getattr(other, attr))


#: the exact resplit distribution's work, per split round, above which "auto" scores hands independently
#: (an upper bound on the finals merged, the product of the hands' numbers of finals but the last; a one-deck
#: game resplitting to four hands is about 1e7 each): in fractions, and in floats where the table is not one
#: of FLOAT_EXACT_TABLES
EXACT_RESPLIT_LIMIT = 2e4
#: the caps of one split round scored exactly by "auto" in floats on a table of :func:`float_exact_table`: the
#: hands merged and last-hand finals met (the work's "merges", about 8 s of one core), and the states in one map
#: of merged hands (then at most 2**22 slots of 32 bytes: 128 MiB).  Past either the round scores its three- and
#: four-hand splits independently given the dealer (the work's "rounds_past_the_caps"); the work done until then
#: is lost.  The largest rounds measured on those tables: 1.3e8 merges and 6.0e5 states (eight decks to three,
#: DAS, double any), 6.1e7 merges and 1.3e6 states (one deck to four)
FLOAT_RESPLIT_WORK = 250_000_000
FLOAT_RESPLIT_STATES = 2**21 - 2


def float_exact_table(game: Game) -> bool:
    """Whether ``resplits="auto"`` scores every split round of a float ``game`` exactly (within the caps
    FLOAT_RESPLIT_WORK and FLOAT_RESPLIT_STATES): splits to at most three hands, or a shoe of one deck or less.
    Measured on two cores (docs/how-it-works.md, "Splits"): up to 5 s and 350 MiB for three hands at 1-8 decks,
    5 s and 440 MiB for one deck to four; two decks to four took 57 s and 2.3 GiB, six to four 4 minutes."""
    return not game.exact and (game.rules.max_split_hands <= 3 or sum(game.shoe) <= 52)


def round_stats(game: Game, strategy: Policy | str = "cdz", resplits: str = "auto",
                split_search: int = 0) -> RoundStats:
    """Exact wager accounting and outcome distribution of a round played by ``strategy``.

    ``strategy``: a split strategy name ("cdz", "cdp1", "cdp": optimal
    composition-dependent play with that post-split play, deciding exactly as
    ``Game.round``, so that the mean of the distribution is the round EV), or
    a :class:`Policy` (for example the basic-strategy chart).  ``resplits``:
    "exact", "independent" or "auto" (see the module docstring; with one split
    the distribution is always exact).  ``split_search``: 0 to play split
    hands by the strategy; ``optimal_split.BEST`` or ``WORST`` to play every
    split round (one split) by the best or worst play of both hands with every
    card seen, as split strategy "optimal" does (the minimum's figures).  By a split strategy's name: made
    once per game and arguments.
    """
    if isinstance(strategy, str):
        return game.memo(("round_stats", strategy, resplits, split_search),
                         lambda: _round_stats(game, strategy, resplits, split_search))
    return _round_stats(game, strategy, resplits, split_search)


def _round_stats(game: Game, strategy: Policy | str, resplits: str, split_search: int) -> RoundStats:
    limits = {"exact": float("inf"), "independent": 0.0, "auto": EXACT_RESPLIT_LIMIT}
    if resplits not in limits:
        raise EngineError(f"resplits must be one of {', '.join(limits)}, not {resplits!r}")
    capped = resplits == "auto" and float_exact_table(game)
    limit = float("inf") if capped else limits[resplits]
    A = game.arithmetic
    if isinstance(strategy, str):
        split_strategy = strategy
        mode = playable_split_mode(split_strategy)
        if mode == TRULY_OPTIMAL:
            # every pair and up card at once, on every core, the distributions of the splits made among them
            prepare_optimal_splits(game, distributions=True, unsplit=None if game.exact else unsplit_best(game))
        table = optimal_policy(game, split_strategy)
        name = f"optimal composition-dependent ({split_strategy})"
    else:
        table, split_strategy, name, mode = strategy, "table", strategy.name, -1
        table.validate()
    tally = _Tally(A)
    n_shoe = sum(game.shoe)
    by_up: dict[str, Number] = {}
    work: dict[str, int] = {}
    sense = BEST if split_strategy == "optimal" else split_search
    plays = {}
    for up in game.upcards():
        solver = game.solver(up)
        decisions = _post_split(table, solver, up, mode)
        splits = b"".join(decisions(pair, 2) for pair in range(N_RANKS))
        evaluator = A.evaluator(solver, blackjack_rank(up), table.play[up], splits)
        if capped:
            evaluator.work_cap, evaluator.state_cap = int(FLOAT_RESPLIT_WORK), FLOAT_RESPLIT_STATES
        if sense:    # each split round played by truly optimal (or worst) split play
            evaluator = OptimalSplitEvaluator(evaluator, game, up, sense)
        plays[up] = evaluator, decisions
    if not sense:
        plays = _split_rounds_side_by_side(game, table, plays, limit)
    for up, (evaluator, decisions) in plays.items():
        up_tally = _Tally(A)
        _upcard(game, table, evaluator, up, up_tally, decisions, limit)
        if sense:
            evaluator.release()
        for key, count in evaluator.work.items():
            work[key] = work.get(key, 0) + count
        by_up[RANK_SYMBOLS[up]] = up_tally.ev()
        tally.absorb(up_tally, A.ratio(game.shoe[up], n_shoe))
    dist = {A.ratio(k, 10): p for k, p in sorted(tally.dist.items()) if p > 0}
    ev = sum((x * p for x, p in dist.items()), A.zero)
    method = "independent" if work.get("independent_groups") else "exact"
    wager = tally.wager
    if method == "independent":      # the exact EV and E[W] (see the module docstring)
        from ev.analysis.strategies import policy_figures, split_strategy_figures
        exact = split_strategy_figures(game, split_strategy) if mode >= 0 else policy_figures(game, table)
        ev, wager = exact.ev, exact.expected_wager
    return RoundStats(game.rules, name, split_strategy, ev, wager, tally.p_double, tally.p_split,
                      tally.p_insurance, tally.p_even_money, tally.p_player_bj, tally.p_dealer_bj, dist, by_up,
                      A, work, method,
                      {(A.ratio(x, 10), A.ratio(w, 10)): p for (x, w), p in sorted(tally.joint.items()) if p > 0})


def split_distribution(game: Game, up: int, pair: int, strategy: Policy | str = "cdz") -> dict:
    """The exact distribution of splitting ``pair`` against ``up`` (resplits included), joint units.

    {(doubled hands, dealer blackjack 0/1, net in initial bets, hands): probability}; the
    probabilities sum to P(no settled dealer blackjack) given the pair and the up card, and
    the mean of the net is the split's joint EV (``Game.split_value``).  ``strategy``: the
    post-split play, as for :func:`round_stats`.
    """
    if isinstance(strategy, str):
        mode, table = playable_split_mode(strategy), optimal_policy(game, strategy)
    else:
        mode, table = -1, strategy
    solver = game.solver(up)
    decisions = _post_split(table, solver, up, mode)
    splits = b"".join(decisions(p, 2) for p in range(N_RANKS))
    evaluator = game.arithmetic.evaluator(solver, blackjack_rank(up), table.play[up], splits)
    cells: dict = defaultdict(lambda: game.arithmetic.zero)
    for (doubles, bj, net), mass, stake in split_cells(game, evaluator, up, pair, decisions):
        cells[doubles, bj, net, int(stake) - doubles] += mass
    return dict(cells)


def _post_split(table: Policy, solver: Any, up: int, mode: int) -> Callable[[int, int], bytes]:
    """decisions(pair, k): the codes of a split hand of context k (see :func:`split_cells`).

    A table, and CDZ-, play every split hand from the table's split play; CDP1
    from the optimum for the deck less both pair cards; CDP from the optimum
    for the deck less the k pair cards its hand knows of.
    """
    if mode < 0 or mode in (CDZ, TRULY_OPTIMAL):     # truly optimal: the evaluator's split rounds replace it
        return lambda pair, k: table.split_play[up]
    if mode == CDP1:
        return lambda pair, k: solver.context_choices(pair, 1, 1)
    return lambda pair, k: solver.context_choices(pair, 1, k - 1)


def split_strategy_stats(game: Game, known: RoundStats | None = None) -> dict[str, RoundStats]:
    """:func:`round_stats` under every split strategy (``ev.core.actions.SPLIT_STRATEGIES``: CDZ-, CDP1,
    CDP, truly optimal), for a table of the RTPs beside each other; ``known``: one already computed.
    With resplits truly optimal split play is computed in floats only (exact mode: ``EngineError``)."""
    return {s: known if known is not None and known.split_strategy == s else round_stats(game, s)
            for s in SPLIT_STRATEGIES}


def _upcard(game: Game, table: Policy, evaluator: Any, up: int, tally: _Tally,
            decisions: Callable[[int, int], bytes], exact_limit: float) -> None:
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
                tally.add(p, one, one)           # even money: stake 1 (EVEN_MONEY_STAKE)
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
            for (doubles, bj, net), mass, stake in play_cells(game, evaluator, up, act, s, c1, p_bj, settled,
                                                               decisions, exact_limit):
                w = p * share * mass
                ins = (one if bj else -half) if insured else zero
                tally.add(w, net + ins, stake + ins_stake)
                if doubles:
                    tally.p_double += w
                if act == Action.SPLIT:
                    tally.p_split += w


def play_cells(game: Game, evaluator: Any, up: int, action: int, s: int, pair: int, p_bj: Number,
               settled: bool, decisions: Callable[[int, int], bytes] | None = None,
               exact_limit: float = EXACT_RESPLIT_LIMIT) -> Iterator[tuple[tuple, Number, Number]]:
    """(doubles, dealer_blackjack, net) cells of playing hand s by ``action``, with mass and stake (joint units).

    ``p_bj``: P(the hole card makes a dealer blackjack) given the hand; ``settled``: such a blackjack is
    settled before play.  ``decisions`` and ``exact_limit``: for a split (see :func:`split_cells`).
    """
    A = game.arithmetic
    one = A.one
    if action in _PLAY:
        for (doubled, bj, result), mass in evaluator.hand_distribution(s, first=action).items():
            yield (doubled, bj, A.ratio(result, 1)), mass, one + doubled
    elif action == Action.SURRENDER:
        yield (0, 0, -A.half), 1 - p_bj, one
        if not settled and p_bj:
            yield (0, 1, -one), p_bj, one
    elif action == Action.SPLIT and decisions is not None:
        yield from split_cells(game, evaluator, up, pair, decisions, exact_limit)
    else:
        raise EngineError(f"the strategy has no action for hand state {s}")


#: threads for the split rounds of a float round_stats (None: the cores this process may use; 1: none); the
#: figures are the same to the bit whatever the number
SPLIT_THREADS: int | None = None


class _KnownRounds:
    """An up card's evaluator whose split rounds were computed beforehand (:func:`_split_rounds_side_by_side`):
    ``split_round`` reads them, everything else is the evaluator's."""

    def __init__(self, evaluator: Any, known: dict) -> None:
        self.evaluator, self.known = evaluator, known

    def __getattr__(self, name: str) -> Any:
        return getattr(self.evaluator, name)

    def split_round(self, pair: int, one_card: bool, configs: list, codes: dict, resplit_cards: int, faces: bool,
                    sets: list, exact_limit: float = float("inf")) -> dict:
        known = self.known.get((pair, resplit_cards, exact_limit))
        if known is None:
            return self.evaluator.split_round(pair, one_card, configs, codes, resplit_cards, faces, sets, exact_limit)
        return known


def _split_rounds_side_by_side(game: Game, table: Policy, plays: dict, exact_limit: float) -> dict:
    """The split rounds the strategy makes (every up card, every pair it splits), computed in threads before
    the tally reads them, each evaluator then wrapped to hand them out (``_KnownRounds``).  In exact
    arithmetic too: the merges and the dealer's integer sums run in C without the GIL, and the evaluator keeps
    its dealer cache and work counts under a lock (``ExactPolicyEvaluator.split_round``).

    A split round is C code that runs without the GIL; the rounds of one up
    card share its dealer's table, whose kept outcomes are read and written
    under a lock, so they may run at once.  The tally itself is unchanged and in the same order, so
    the figures are the same to the bit with any number of threads.  Exact resplit rounds (``exact_limit``
    infinite) too: the largest round holds most of the peak memory (module docstring).
    """
    threads = SPLIT_THREADS or cores()
    if threads < 2:
        return plays
    tasks = []
    for up, (_, decisions) in plays.items():
        base = subtract(game.shoe, composition_of([up]))
        for pair in range(N_RANKS):
            if base[pair] >= 2 and table.play[up][game.state(composition_of([pair, pair]))] == Action.SPLIT:
                for _, args in _split_calls(game, up, pair, decisions):
                    tasks.append((up, args))
    if len(tasks) < 2:
        return plays
    # the low pairs draw the most cards, and the more so against the high up cards: they go first, so that
    # no long round starts last
    tasks.sort(key=lambda t: ((t[1][0] - 1) % N_RANKS, (t[0] - 6) % N_RANKS))
    rounds = _in_threads(lambda task: plays[task[0]][0].split_round(*task[1], exact_limit), tasks,
                         min(threads, len(tasks)))
    known: dict[int, dict] = {up: {} for up in plays}
    for (up, args), cells in zip(tasks, rounds):
        known[up][args[0], args[4], exact_limit] = cells
    return {up: (_KnownRounds(evaluator, known[up]), decisions) for up, (evaluator, decisions) in plays.items()}


def _in_threads(fn: Callable[[Any], Any], tasks: list, threads: int) -> list:
    """``[fn(task) for task in tasks]``, computed by ``threads`` threads (this one among them) taking the tasks in
    their order.  An exception (Ctrl-C included) stops the threads at their next task and is raised again here.
    (Not ``concurrent.futures``: its import, with ``logging``, is 4 ms of a command that takes 0.3 s.)"""
    results: list = [None] * len(tasks)
    failed: list[BaseException] = []
    order = iter(range(len(tasks)))
    lock = threading.Lock()

    def work() -> None:
        while not failed:
            with lock:
                i = next(order, None)
            if i is None:
                return
            try:
                results[i] = fn(tasks[i])
            except BaseException as error:      # the first one is raised in the calling thread
                failed.append(error)
                return
    others = [threading.Thread(target=work, name=f"bjev-split-rounds-{k}", daemon=True) for k in range(threads - 1)]
    for thread in others:
        thread.start()
    try:
        work()
    finally:
        for thread in others:
            thread.join()
    if failed:
        raise failed[0]
    return results


def _split_calls(game: Game, up: int, pair: int, decisions: Callable[[int, int], bytes]) -> Iterator[tuple]:
    """The evaluator's ``split_round`` calls that split ``pair`` against ``up`` (before ``exact_limit``),
    each with its weight."""
    rules = game.rules
    one_card = rules.one_card_after_split(pair)
    most = rules.split_hands(pair)
    deck = subtract(game.shoe, composition_of([up]))
    n = sum(deck) - 2
    faces = pair == TEN and rules.split_tens == "rank" and most > 2
    sets = type_sets(most)
    codes = {k: decisions(pair, k) for k in range(2, most + 1)}
    for weight, p in game.resplit_cards(deck, pair):
        yield weight, (pair, one_card, split_configurations(n, p, most), codes, p, faces, sets)


def split_cells(game: Game, evaluator: Any, up: int, pair: int, decisions: Callable[[int, int], bytes],
                exact_limit: float = float("inf")) -> Iterator[tuple[tuple, Number, Number]]:
    """(doubles, dealer_blackjack, net) cells of splitting ``pair`` against ``up``, with mass and stake.

    Exact, resplits included: every hand and the dealer are dealt from one
    deck (the evaluator's ``split_round``).  Joint units, as every cell here:
    the masses sum to P(no settled dealer blackjack).  ``decisions(pair, k)``:
    the action code of every hand state for a split hand of context ``k`` (it
    knows of ``k`` hands).  The stake is the hands plus the doubled hands.
    ``exact_limit``: the work above which hands of three- and four-hand splits
    are scored independently given the dealer's outcome (see the module).
    """
    A = game.arithmetic
    cells: dict = defaultdict(lambda: A.zero)
    for weight, args in _split_calls(game, up, pair, decisions):
        for key, mass in evaluator.split_round(*args, exact_limit).items():
            cells[key] += weight * mass
    for (doubles, bj, net, hands), mass in cells.items():
        yield (doubles, bj, A.ratio(net, 1)), mass, A.ratio(hands + doubles, 1)


__all__ = ["Figures", "RoundStats", "play_cells", "round_stats", "split_cells", "split_distribution",
           "split_strategy_stats"]
