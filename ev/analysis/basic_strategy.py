"""Basic strategy: the total-dependent chart, derived exactly, with its exceptions and EV tables.

A *chart* gives one action code per (row, up card).  Rows: hard 5-21, soft
13-21 and the pairs A-A, T-T, 9-9 ... 2-2; columns: the up cards 2-9, T, A;
plus one insurance and one even-money decision.  Codes (English letters; the
renderings in :mod:`ev.present.chart_render` translate them):

* ``S`` stand, ``H`` hit, ``P`` split;
* ``Dh`` / ``Ds``: double if allowed (two cards, the rules), otherwise hit / stand;
* ``Rh`` / ``Rs`` / ``Rp``: surrender if allowed (two cards, not after a split),
  otherwise hit / stand / split.

How a player follows a chart (:func:`chart_policy` turns this into a
:class:`~ev.analysis.strategy.Policy` over every hand-graph state): a hand of 21
stands; a two-card pair reads its pair row; a pair that cannot be split there
(after a split, or a K-Q where tens split only by rank) and whose cell says
split reads its total row instead; every other hand reads the row of its
total (hard or soft by :func:`ev.cards.hand_total`).  Hard 4 and soft 12 are
pairs only (2-2, A-A): unsplit, they are hit.  The hands of a split are
played by the same rows, doubling only with ``double_after_split``.

The chart is derived by coordinate ascent: start every cell at the action
that is best on average over the hands of its row (optimal values weighted by
how often the cards are dealt), then try every allowed code in every cell,
keep any change that raises the exact EV of a player who follows the whole
chart, and sweep until no single change helps.  One up card's cells affect
only that up card's EV, so every column is optimised on its own, with the
exact evaluator of a fixed strategy (``ev.core.arithmetic``: the evaluator).

Units: EVs in initial bets.  Per-hand EVs (exceptions, EV tables) are
conditioned on no dealer blackjack where a dealer blackjack is settled before
play, as ``Game.hand`` reports them; round EVs are unconditioned.
"""
from __future__ import annotations

import threading
import time
from array import array
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb, isnan
from typing import Any, NamedTuple

from ev.analysis.accounting import Figures
from ev.analysis.game import Game, HandResult
from ev.analysis.splits import resplit_value
from ev.analysis.strategies import policy_figures, split_strategy_figures
from ev.analysis.strategy import ACTION_NAMES, DOUBLE, HIT, NO_ACTION, SPLIT, STAND, SURRENDER, Policy
from ev.core.actions import CDZ
from ev.core.cards import (
    ACE,
    N_RANKS,
    RANK_SYMBOLS,
    TEN,
    UP_ORDER,
    blackjack_rank,
    composition_of,
    format_hand,
    hand_total,
    pair_rank,
    subtract,
)
from ev.core.rules import Rules
from ev.errors import BJEVError

#: every cell code, in the order ties are resolved and legends are listed
CODES = ("S", "H", "Dh", "Ds", "P", "Rh", "Rs", "Rp")
LETTER_ACTION = {"S": STAND, "H": HIT, "D": DOUBLE, "P": SPLIT, "R": SURRENDER}
#: an improvement smaller than this (joint EV of one up card) is a tie
TOLERANCE = 1e-12
_CONTEXTS = ("play", "fallback", "split")


# ===== rows and codes ==========================================================================
class Row(NamedTuple):
    """One chart row: ``kind`` 'hard' or 'soft' with ``value`` the total, or 'pair' with ``value`` the rank.

    A named tuple, so that hashing one (the charts' dicts look rows up hundreds of thousands of times)
    runs no Python code."""

    kind: str
    value: int

    @property
    def key(self) -> str:
        """'hard16', 'soft18', 'pairA': a stable identifier."""
        return f"{self.kind}{RANK_SYMBOLS[self.value] if self.kind == 'pair' else self.value}"

    @property
    def cards(self) -> str:
        """'A-A', '10-10' (charts write a ten-valued card as 10)."""
        return f"{up_symbol(self.value)}-{up_symbol(self.value)}"


def up_symbol(rank: int) -> str:
    """How charts write a rank: A, 2 ... 9, and T for any ten-valued card (as everywhere in bjev)."""
    return RANK_SYMBOLS[rank]


def display_hand(cards: Sequence[int]) -> str:
    """'T-6', 'A-7', '8-4-4': a hand as the charts write it."""
    return format_hand(composition_of(cards))


def chart_rows() -> list[Row]:
    """Hard 5-21, soft 13-21, then the pairs A-A, T-T, 9-9 ... 2-2."""
    return ([Row("hard", v) for v in range(5, 22)] + [Row("soft", v) for v in range(13, 22)]
            + [Row("pair", r) for r in (ACE, TEN, 8, 7, 6, 5, 4, 3, 2, 1)])


def _total_row(hand: Sequence[int]) -> Row | None:
    """The hard/soft row of a hand, or None for the totals that have no row (21 stands; hard 4, soft 12)."""
    total, soft = hand_total(hand)
    if total == 21 or (soft and total < 13) or (not soft and total < 5):
        return None
    return Row("soft" if soft else "hard", total)


def resolve(rules: Rules, code: str, hand: Sequence[int], context: str) -> int | None:
    """The action code ``code`` means for ``hand`` in ``context``, or None for 'split, not possible here'.

    ``context``: 'play' (an unsplit hand that may be split), 'fallback' (an
    unsplit pair that may not be split) or 'split' (a hand made by a split).
    """
    total, soft = hand_total(hand)
    n = sum(hand)
    if total >= 21:
        return STAND
    for letter in code:
        action = LETTER_ACTION[letter.upper()]
        if action in (STAND, HIT):
            return action
        if action == DOUBLE and n == 2 and rules.may_double(total, soft, context == "split"):
            return DOUBLE
        if (action == SPLIT and context == "play" and pair_rank(hand) is not None
                and rules.may_split):
            return SPLIT
        if action == SURRENDER and context != "split" and n == 2 and rules.late_surrender:
            return SURRENDER
    return None


class ChartLayout:
    """Which rows govern which hand-graph states, and each row's candidate codes: one for every game of the same
    shoe that reads the rules alike (``chart_layout``); ``rules`` are those of the first such game, read only
    through what ``resolve`` asks of them."""

    def __init__(self, game: Game) -> None:
        self.rules = game.rules
        self.rows = chart_rows()
        self.hands = game.graph["hands"]
        self.primary: list[Row | None] = []
        self.secondary: list[Row | None] = []
        self.states: dict[Row, list[int]] = {row: [] for row in self.rows}    # primary states
        self.deps: dict[Row, list[int]] = {row: [] for row in self.rows}      # states a row can affect
        canonical: dict[Row | None, Row | None] = {row: row for row in self.rows}
        canonical[None] = None
        for s, hand in enumerate(self.hands):
            pair = pair_rank(hand)
            if sum(hand) < 2:
                first, second = None, None
            elif pair is not None:
                first, second = Row("pair", pair), _total_row(hand)
            else:
                first, second = _total_row(hand), None
            # the rows' own objects: a dict finds a key by identity before comparing rows field by field
            first, second = canonical[first], canonical[second]
            self.primary.append(first)
            self.secondary.append(second)
            if first is not None:
                self.states[first].append(s)
                self.deps[first].append(s)
            if second is not None:
                self.deps[second].append(s)
        self._memo: dict[tuple, int | None] = {}
        self._weights: dict[tuple, dict[Row, list[tuple[int, int, float]]]] = {}
        #: the states by their (primary, secondary) rows: a state's actions depend on those rows' cells only
        groups: dict[tuple[Row | None, Row | None], list[int]] = {}
        for s in range(len(self.hands)):
            groups.setdefault((self.primary[s], self.secondary[s]), []).append(s)
        self.groups = {key: tuple(states) for key, states in groups.items()}
        #: per row, the groups whose actions its cell decides (the row's ``deps``, group by group)
        self.row_groups = {row: [key for key in self.groups if row in key] for row in self.rows}
        self._group_actions: dict[tuple, tuple[bytes, bytes, bytes]] = {}
        self.candidates = {row: self._candidates(row) for row in self.rows}
        #: per state, its (rank, count) pairs of nonzero counts, rank ascending
        self.counts = [tuple((r, k) for r, k in enumerate(hand) if k) for hand in self.hands]
        #: per row and candidate code, the action of each of the row's primary states in context 'play'
        self.row_actions = {row: {code: [self.resolved(s, code, "play") for s in self.states[row]]
                                  for code in self.candidates[row]} for row in self.rows}

    def deal_weights(self, base: Sequence[int]) -> dict[Row, list[tuple[int, int, float]]]:
        """Per row, (i, s, weight) for the i-th of its states s that ``base`` can deal: the weight is how often
        the cards of s come as the first cards dealt from ``base`` (remembered by ``base``, the latest 40: the games
        of one shoe ask for the same ten)."""
        key = tuple(base)
        weights = self._weights.get(key)
        if weights is not None:
            return weights
        total = sum(base)
        ways = [[comb(base[r], k) for k in range(max(base) + 1)] for r in range(N_RANKS)]   # 0 beyond the shoe
        hands_of = [comb(total, n) for n in range(min(total, 21) + 1)]   # the ways to deal n cards (21 at most)
        weights = {}
        for row in self.rows:
            dealt = []
            for i, s in enumerate(self.states[row]):
                weight = 1.0
                n = 0
                for r, k in self.counts[s]:   # the ranks held, ascending (a factor comb(b, 0) = 1 is exact)
                    weight *= ways[r][k] if k < len(ways[r]) else 0
                    n += k
                if weight:                    # (else more of a rank than the shoe holds)
                    dealt.append((i, s, weight / hands_of[n]))
            weights[row] = dealt
        self._weights[key] = weights
        while len(self._weights) > 4 * N_RANKS:  # (games with cards removed would add decks without end)
            self._weights.pop(next(iter(self._weights)), None)
        return weights

    def _candidates(self, row: Row) -> tuple[str, ...]:
        r = self.rules
        if row.kind != "pair" and row.value == 21:
            return ("S",)
        two_card = [self.hands[s] for s in self.deps[row] if sum(self.hands[s]) == 2]
        out = ["S", "H"]
        if any(r.may_double(*hand_total(h), after) for h in two_card for after in (False, True)):
            out += ["Dh", "Ds"]
        splittable = row.kind == "pair" and r.may_split
        if splittable:
            out.append("P")
        if r.late_surrender and two_card:
            out += ["Rh", "Rs"] + (["Rp"] if splittable else [])
        return tuple(out)

    def action(self, cells: dict[Row, str], s: int, context: str) -> int:
        """The action of hand-graph state s under a chart column ``cells``."""
        hand = self.hands[s]
        if sum(hand) < 2:
            return NO_ACTION
        for row in (self.primary[s], self.secondary[s]):
            code = cells[row] if row is not None else ("S" if hand_total(hand)[0] == 21 else "H")
            action = self.resolved(s, code, context)
            if action is not None:
                return action
        raise BJEVError("a chart row has no action for a hand")  # pragma: no cover (total rows never split)

    def resolved(self, s: int, code: str, context: str) -> int | None:
        """:func:`resolve` of state s's hand (remembered: the same for every up card)."""
        key = (s, code, context)
        action = self._memo.get(key, -1)
        if action == -1:
            action = self._memo[key] = resolve(self.rules, code, self.hands[s], context)
        return action

    def column_tables(self, cells: dict[Row, str]) -> tuple[bytearray, bytearray, bytearray]:
        """(play, fallback, split_play) codes of every state for one up card's cells."""
        n = len(self.hands)
        play, fallback, split = bytearray([NO_ACTION] * n), bytearray([NO_ACTION] * n), bytearray([NO_ACTION] * n)
        for key in self.groups:
            self._set_group(cells, key, play, fallback, split)
        return play, fallback, split

    def update(self, cells: dict[Row, str], row: Row, play: bytearray, fallback: bytearray,
               split: bytearray) -> None:
        """Set the play, fallback and split-hand actions of the states ``row``'s cell decides (its ``deps``) from
        ``cells``."""
        for key in self.row_groups[row]:
            self._set_group(cells, key, play, fallback, split)

    def _set_group(self, cells: dict[Row, str], key: tuple[Row | None, Row | None], play: bytearray,
                   fallback: bytearray, split: bytearray) -> None:
        """Write one group's actions (remembered by the cells of its rows: the ascent asks again and again)."""
        first, second = key
        known = (key, None if first is None else cells[first], None if second is None else cells[second])
        actions = self._group_actions.get(known)
        states = self.groups[key]
        if actions is None:
            p = bytes(self.action(cells, s, "play") for s in states)
            f = bytes(self.action(cells, s, "fallback") if pair_rank(self.hands[s]) is not None else a
                      for s, a in zip(states, p))
            actions = self._group_actions[known] = (p, f, bytes(self.action(cells, s, "split") for s in states))
        # the item assignments as C calls (map over a bound method), not a loop of bytecode
        for table, codes in zip((play, fallback, split), actions):
            deque(map(table.__setitem__, states, codes), 0)


#: layouts by what they read (``_layout_key``), the latest few: a sweep's variants of one shoe and one set of
#: doubling, splitting and surrender rules (payouts, dealer rules, peeking) share one
_LAYOUTS: OrderedDict[tuple, ChartLayout] = OrderedDict()
_MOST_LAYOUTS = 8
_LAYOUTS_LOCK = threading.Lock()


def _layout_key(game: Game) -> tuple:
    """Everything a :class:`ChartLayout` reads: the hand graph (the shoe's caps) and the rules as ``resolve``
    and its candidates ask them (``may_double`` of every total, ``may_split``, ``late_surrender``)."""
    r = game.rules
    doubles = tuple(r.may_double(total, soft, after) for total in range(4, 22) for soft in (False, True)
                    for after in (False, True))
    return game.caps, doubles, r.may_split, r.late_surrender


def chart_layout(game: Game) -> ChartLayout:
    """The game's :class:`ChartLayout` (its memos fill as charts are evaluated): made once for every game that
    reads the same (``_layout_key``), the latest few kept."""
    def build() -> ChartLayout:
        key = _layout_key(game)
        with _LAYOUTS_LOCK:
            layout = _LAYOUTS.get(key)
            if layout is not None:
                _LAYOUTS.move_to_end(key)
                return layout
        layout = ChartLayout(game)
        with _LAYOUTS_LOCK:
            layout = _LAYOUTS.setdefault(key, layout)
            while len(_LAYOUTS) > _MOST_LAYOUTS:
                _LAYOUTS.popitem(last=False)
        return layout
    return game.memo(("chart_layout",), build)


# ===== exact EV of a chart column ================================================================
class _Column:
    """The exact EV of one up card's chart column (joint units, everything in the round included)."""

    def __init__(self, game: Game, layout: ChartLayout, up: int) -> None:
        self.game, self.layout, self.up = game, layout, up
        r = self.rules = game.rules
        self.solver = game.solver(up)
        self.natural = blackjack_rank(up)
        self.settled = game.rules.settled_blackjack_rank(up) >= 0
        self.base = subtract(game.shoe, composition_of([up]))
        n = len(layout.hands)
        blank = bytes([NO_ACTION]) * n
        self.evaluator = game.arithmetic.evaluator(self.solver, self.natural, blank, blank * N_RANKS)
        self.fallback_evaluator: Any = None
        self.split_memo: dict[tuple[int, bytes], float] = {}
        self.same_ten = game.same_ten_rank_probability()
        self.deals: list[tuple] = []   # (p, state, c1, c2, p_bj, deck)
        total = sum(self.base)
        for c1 in range(N_RANKS):
            for c2 in range(c1, N_RANKS):
                if c1 == c2:
                    p = self.base[c1] * (self.base[c1] - 1) / (total * (total - 1))
                else:
                    p = 2.0 * self.base[c1] * self.base[c2] / (total * (total - 1))
                if p <= 0:
                    continue
                hand = composition_of([c1, c2])
                deck = subtract(self.base, hand)
                p_bj = deck[self.natural] / sum(deck) if self.natural >= 0 else 0.0
                self.deals.append((p, game.state(hand), c1, c2, p_bj, deck))
        # the deals play_ev sums (every deal but a natural) as the arrays the evaluator's deal_sum reads: states,
        # probabilities, pair ranks (-1: no pair), surrender values (0 where the rules have none: no code resolves
        # to a surrender then); and the pair deals, whose split values play_ev hands in
        played = [(p, s, c1, c2, deck) for p, s, c1, c2, _p_bj, deck in self.deals if {c1, c2} != {ACE, TEN}]
        self.deal_states = array("i", [s for _p, s, _c1, _c2, _deck in played])
        self.deal_probs = array("d", [p for p, _s, _c1, _c2, _deck in played])
        self.deal_pairs = array("i", [c1 if c1 == c2 else -1 for _p, _s, c1, c2, _deck in played])
        self.surrender_values = array("d", [game.surrender_value(up, deck) if r.late_surrender else 0.0
                                            for _p, _s, _c1, _c2, deck in played])
        self.pair_deals = [(s, c1, deck) for _p, s, c1, c2, deck in played if c1 == c2]
        self.insurance_ev = 0.0          # sum of p x EV of the insurance bet over non-natural deals
        self.even_money_gain = 0.0       # sum of p x (even money - declined) over naturals
        for p, _s, c1, c2, p_bj, _deck in self.deals:
            if {c1, c2} == {ACE, TEN}:
                self.even_money_gain += p * (1.0 - float(r.payout) * (1.0 - p_bj))
            else:
                self.insurance_ev += p * r.insurance_ev(p_bj)
        self.evaluations = 0

    def play_ev(self, play: bytes, fallback: bytes, split: bytes) -> float:
        """Sum over the non-natural deals of P(deal) x the joint value of playing it by the chart."""
        self.evaluations += 1
        ev = self.evaluator
        ev.set_policy(play, split * N_RANKS)
        split_values = array("d", [0.0] * N_RANKS)      # the value of each pair the chart splits
        for s, c1, deck in self.pair_deals:
            if play[s] == SPLIT:
                v = self._split_value(c1, split)
                if c1 == TEN and self.same_ten < 1.0:
                    v = self.same_ten * v + (1.0 - self.same_ten) * self._fallback_value(s, deck, play, fallback,
                                                                                         split)
                split_values[c1] = v
        return ev.deal_sum(self.deal_states, self.deal_probs, self.deal_pairs, split_values, self.surrender_values)

    def _fallback_value(self, s: int, deck, play: bytes, fallback: bytes, split: bytes) -> float:
        if fallback[s] == SURRENDER:
            return self.game.surrender_value(self.up, deck)
        if self.fallback_evaluator is None:
            self.fallback_evaluator = self.game.arithmetic.evaluator(self.solver, self.natural, fallback,
                                                                     split * N_RANKS)
        else:
            self.fallback_evaluator.set_policy(fallback, split * N_RANKS)
        return self.fallback_evaluator.hand_value(s)

    def _split_value(self, pair: int, split: bytes) -> float:
        """The split's joint value with split hands played by ``split`` (the evaluator's split play, which
        alone decides it): kept by (pair, ``split``), for the chart's search changes it far less often
        than the unsplit play."""
        if (pair, split) not in self.split_memo:
            self.split_memo[pair, split] = self._split_value_now(pair)
        return self.split_memo[pair, split]

    def _split_value_now(self, pair: int) -> float:
        r = self.rules
        one_card = r.one_card_after_split(pair)
        if r.split_hands(pair) <= 2:
            return self.evaluator.split_value(pair, one_card)
        known: dict[int, list[float]] = {}

        def hand_values(a: int, _k: int) -> list[float]:
            """The chart's value of each split hand {pair, c} on the deck less a more pair cards (the same
            in every context k: the chart's split play does not vary with it)."""
            if a not in known:
                skip = bytes(self.base[card] - (a + 2 if card == pair else 0) <= 0 for card in range(N_RANKS))
                known[a] = self.evaluator.context_means(pair, a + 1, one_card, skip)
            return known[a]

        return sum(weight * resplit_value(self.base, pair, r.split_hands(pair), p, hand_values)
                   for weight, p in self.game.resplit_cards(self.base, pair))

    def round_ev(self, play_ev: float, insurance: bool, even_money: bool) -> float:
        """EV of the round given this up card: play, naturals, settled blackjacks, insurance, even money."""
        r = self.rules
        ev = play_ev
        for p, _s, c1, c2, p_bj, _deck in self.deals:
            if {c1, c2} == {ACE, TEN}:
                ev += p * float(r.payout) * (1.0 - p_bj)
            elif self.settled:
                ev -= p * p_bj
        if self.up == ACE:
            if insurance:
                ev += self.insurance_ev
            if even_money:
                ev += self.even_money_gain
        return ev


# ===== derivation ==============================================================================
@dataclass
class Derivation:
    """The converged cells and how they were found."""

    cells: dict[Row, dict[int, str | None]]   # row -> up card -> code (None: the shoe has no such up card)
    insurance: bool | None                    # None: the rules do not offer it
    even_money: bool | None
    ev: float                                 # exact round EV of the chart player (initial bets)
    ev_by_upcard: dict[str, float]
    evaluations: int
    sweeps: int
    changes: int
    seconds: float


def _initial_cells(game: Game, layout: ChartLayout, column: _Column) -> dict[Row, str]:
    """Each row's code that is best on average over the row's hands under optimal continuation.

    The weights are how often the cards of a hand come as the first cards
    dealt; the values are the optimal joint values of the engine.
    """
    up, base = column.up, column.base
    stand, hit, double = column.solver.values_table()
    split_values: dict[int, float] = {}
    cells: dict[Row, str] = {}
    tables: dict[int | None, Any] = {STAND: stand, HIT: hit, DOUBLE: double}
    weights = layout.deal_weights(base)
    for row in layout.rows:
        candidates = layout.candidates[row]
        row_actions = layout.row_actions[row]
        dealt = [d for d in weights[row] if not isnan(stand[d[1]])]   # (i, s, weight): the hands the shoe deals
        scores = dict.fromkeys(candidates, 0.0)
        for code in candidates:               # each code's score summed over the hands in their order
            actions = row_actions[code]
            score = 0.0
            for i, s, weight in dealt:
                action = actions[i]
                table = tables.get(action)
                if table is not None:
                    v = table[s]
                elif action == SURRENDER:
                    v = game.surrender_value(up, subtract(base, layout.hands[s]))
                elif action == SPLIT:
                    pair = pair_rank(layout.hands[s])
                    assert pair is not None      # the split code resolves to SPLIT on pairs only
                    if pair not in split_values:
                        split_values[pair] = game.split_value(column.solver, pair, CDZ)
                    v = split_values[pair]
                else:
                    continue
                score += weight * v
            scores[code] = score
        cells[row] = max(candidates, key=lambda c: scores[c])   # ties: the earlier code
    return cells


def derive(game: Game, max_sweeps: int = 50, start_code: str | None = None) -> Derivation:
    """The total-dependent chart of ``game`` by exact coordinate ascent (see the module docstring).

    ``start_code`` (for tests): start every cell from this code where it is
    allowed (else the row's first candidate) instead of the best-on-average code.
    """
    start = time.perf_counter()
    layout = chart_layout(game)
    r = game.rules
    cells: dict[Row, dict[int, str | None]] = {row: {} for row in layout.rows}
    ev_by_up: dict[str, float] = {}
    evaluations = sweeps = changes = 0
    columns: dict[int, tuple[_Column, float]] = {}
    for up in range(N_RANKS):
        if not game.shoe[up]:
            for row in layout.rows:
                cells[row][up] = None
            continue
        column = _Column(game, layout, up)
        if start_code is None:
            col = _initial_cells(game, layout, column)
        else:
            col = {row: start_code if start_code in layout.candidates[row] else layout.candidates[row][0]
                   for row in layout.rows}
        play, fallback, split = layout.column_tables(col)
        current = column.play_ev(bytes(play), bytes(fallback), bytes(split))
        for _sweep in range(max_sweeps):
            sweeps += 1
            changed = False
            for row in layout.rows:
                if len(layout.candidates[row]) < 2:
                    continue
                original = col[row]
                best_code, best_value = original, current
                for code in layout.candidates[row]:
                    if code == original:
                        continue
                    col[row] = code
                    layout.update(col, row, play, fallback, split)
                    value = column.play_ev(bytes(play), bytes(fallback), bytes(split))
                    if value > best_value + TOLERANCE:
                        best_code, best_value = code, value
                col[row] = best_code
                layout.update(col, row, play, fallback, split)
                if best_code != original:
                    changed, current = True, best_value
                    changes += 1
            if not changed:
                break
        evaluations += column.evaluations
        for row in layout.rows:
            cells[row][up] = col[row]
        columns[up] = (column, current)
    insurance = even_money = None
    if ACE in columns:
        column = columns[ACE][0]
        if r.insurance:
            insurance = column.insurance_ev > 0
        if r.even_money:
            even_money = column.even_money_gain > 0
    n_shoe = sum(game.shoe)
    for up, (column, play_ev) in columns.items():
        ev_by_up[RANK_SYMBOLS[up]] = column.round_ev(play_ev, bool(insurance), bool(even_money))
    ev = sum(game.shoe[RANK_SYMBOLS.index(k)] / n_shoe * v for k, v in ev_by_up.items())
    return Derivation(cells, insurance, even_money, ev, ev_by_up, evaluations, sweeps, changes,
                      time.perf_counter() - start)


def chart_policy(game: Game, cells: dict[Row, dict[int, str | None]], insurance: bool | None,
                even_money: bool | None, name: str = "basic strategy (total-dependent chart)") -> Policy:
    """The :class:`Policy` of a player who follows the chart ``cells`` exactly."""
    layout = chart_layout(game)
    n = len(layout.hands)
    play, fallback, split_play = {}, {}, {}
    for up in range(N_RANKS):
        column = {row: code for row in layout.rows if (code := cells[row][up]) is not None}
        if len(column) < len(layout.rows):     # the shoe holds no such up card
            play[up] = fallback[up] = split_play[up] = bytes([NO_ACTION]) * n
            continue
        p, f, sp = layout.column_tables(column)
        play[up], fallback[up], split_play[up] = bytes(p), bytes(f), bytes(sp)
    ins = bytearray(n)
    if insurance:
        for s, hand in enumerate(layout.hands):
            if sum(hand) == 2 and hand_total(hand)[0] != 21:
                ins[s] = 1
    table = Policy(game.rules, name, layout.hands, play, fallback, split_play, bytes(ins), bool(even_money))
    table.validate()
    return table


def basic_policy(game: Game) -> Policy:
    """The Policy of the converged basic-strategy chart of ``game`` (what the simulator plays)."""
    d = derive(game)
    return chart_policy(game, d.cells, d.insurance, d.even_money)


# ===== exceptions ==============================================================================
@dataclass(frozen=True)
class ChartException:
    """A hand whose best play differs from the chart's, and what the best play gains.

    ``gain``: EV(best) - EV(chart action) per hand, in initial bets, with
    optimal play afterwards, conditioned like ``Game.hand``.  ``round_gain``:
    the same, weighted by the probability that a round reaches this hand
    (deal, up card, no settled dealer blackjack): what the exception alone adds
    to the round EV.
    """

    up: int
    row: Row
    cards: tuple[int, ...]           # ranks, in hand order
    chart_action: str
    best_action: str
    gain: float
    round_gain: float

    @property
    def hand(self) -> str:
        return format_hand(composition_of(self.cards))


def _hand_results(game: Game, split_strategy: str = "cdz") -> dict[tuple[int, int, int], HandResult]:
    """Game.hand for every two-card hand against every up card the shoe allows."""
    out = {}
    for up in range(N_RANKS):
        if not game.shoe[up]:
            continue
        base = subtract(game.shoe, composition_of([up]))
        for c1 in range(N_RANKS):
            for c2 in range(c1, N_RANKS):
                if (c1 == c2 and base[c1] < 2) or not base[c1] or not base[c2]:
                    continue
                out[up, c1, c2] = game.hand([RANK_SYMBOLS[c1], RANK_SYMBOLS[c2]], up, split_strategy)
    return out


def find_exceptions(game: Game, table: Policy, hands: dict[tuple[int, int, int], HandResult],
                    three_cards: bool = True) -> list[ChartException]:
    """Two-card (and reachable three-card) hands whose best play differs from the chart's ``table``."""
    out: list[ChartException] = []
    n_shoe = sum(game.shoe)
    index = game.graph["index"]
    for up in range(N_RANKS):
        if not game.shoe[up]:
            continue
        base = subtract(game.shoe, composition_of([up]))
        total = sum(base)
        p_up = game.shoe[up] / n_shoe
        natural = blackjack_rank(up)
        settled = game.rules.settled_blackjack_rank(up) >= 0
        for (u, c1, c2), res in hands.items():
            if u != up or {c1, c2} == {ACE, TEN}:
                continue
            hand = composition_of([c1, c2])
            chart = ACTION_NAMES[table.play[up][index[hand]]]
            values = {a: getattr(res, a) for a in ACTION_NAMES if getattr(res, a) is not None}
            best = res.best
            gain = values[best] - values[chart]
            if gain > TOLERANCE:
                p = base[c1] * (base[c2] - (c1 == c2)) / (total * (total - 1)) * (1 if c1 == c2 else 2)
                mass = 1.0 - res.p_dealer_blackjack if settled else 1.0
                row = Row("pair", c1) if c1 == c2 else _total_row(hand)
                assert row is not None       # every two-card hand but a natural has a row
                out.append(ChartException(up, row, (c1, c2), chart, best, gain, p_up * p * mass * gain))
        if not three_cards:
            continue
        stand, hit, _ = game.solver(up).values_table()
        seen = set()
        for c1 in range(N_RANKS):
            for c2 in range(c1, N_RANKS):
                two = composition_of([c1, c2])
                if two not in index or {c1, c2} == {ACE, TEN} or table.play[up][index[two]] != HIT:
                    continue
                for c3 in range(N_RANKS):
                    three = tuple(two[r] + (r == c3) for r in range(N_RANKS))
                    if three in seen or three not in index or any(h > b for h, b in zip(three, base)):
                        continue
                    seen.add(three)
                    s = index[three]
                    if hand_total(three)[0] >= 21 or isnan(stand[s]):
                        continue
                    deck = subtract(base, three)
                    mass = 1.0 - deck[natural] / sum(deck) if settled else 1.0
                    values = {"stand": stand[s] / mass, "hit": hit[s] / mass}
                    chart = ACTION_NAMES[table.play[up][s]]
                    best = "hit" if values["hit"] > values["stand"] + TOLERANCE else "stand"
                    gain = values[best] - values[chart]
                    if gain <= TOLERANCE:
                        continue
                    p_reach = _p_reach(three, base, table.play[up], index)
                    ranks = tuple(r for r in range(N_RANKS) for _ in range(three[r]))
                    row = _total_row(three)
                    assert row is not None   # below 21 every three-card total has a row
                    out.append(ChartException(up, row, ranks, chart, best, gain,
                                              p_up * p_reach * mass * gain))
    return out


def _p_reach(three: tuple, base: tuple, play: bytes, index: dict) -> float:
    """P(the first three cards dealt are ``three`` and the chart hits the first two) (unsplit hands)."""
    total = sum(base)
    p = 0.0
    for c3 in range(N_RANKS):
        if not three[c3]:
            continue
        two = tuple(three[r] - (r == c3) for r in range(N_RANKS))
        if play[index[two]] != HIT:       # naturals stand; splits are not unsplit hits
            continue
        ways = 1.0
        for r in range(N_RANKS):
            ways *= comb(base[r], two[r])
        p_two = ways / comb(total, 2)
        rest = [b - h for b, h in zip(base, two)]
        p += p_two * rest[c3] / (total - 2)
    return p


# ===== the chart =================================================================================
@dataclass
class EVRow:
    """One line of the EV tables: a two-card hand against an up card (values as ``Game.hand`` gives them)."""

    up: int
    cards: tuple[int, int]
    result: HandResult

    @property
    def hand(self) -> str:
        return format_hand(composition_of(self.cards))


@dataclass
class Chart:
    """A converged basic-strategy chart, the exact figures of its player and of optimal CD play."""

    rules: Rules
    rows: list[Row]
    cells: dict[Row, dict[int, str | None]]
    insurance: bool | None
    even_money: bool | None
    table: Policy
    stats: Figures                    # the chart player: EV and E[W] (policy_figures on the chart's Policy)
    optimal: Figures                  # optimal composition-dependent play: EV and E[W] (split_strategy_figures)
    derivation: Derivation
    exceptions: list[ChartException]
    ev_rows: list[EVRow] = field(repr=False)
    seconds: float = 0.0
    #: how split hands are played in ``optimal``, the exceptions and the EV tables (the chart's player: CDZ-)
    split_strategy: str = "cdz"

    @property
    def ev(self) -> float:
        return self.stats.ev

    @property
    def ev_gap(self) -> float:
        """EV of optimal CD play minus EV of the chart (initial bets, >= 0)."""
        return self.optimal.ev - self.stats.ev

    def cell(self, row: Row, up: int) -> str | None:
        return self.cells[row][up]

    def exceptions_with(self, n_cards: int) -> list[ChartException]:
        return [e for e in self.exceptions if len(e.cards) == n_cards]


def basic_chart(game: Game | None = None, split_strategy: str = "cdz") -> Chart:
    """Derive the chart of ``game`` (default: the seed game) with every figure the renderings show.

    ``split_strategy``: how split hands are played by the optimal player the chart is measured against
    and in the exceptions and EV tables (the chart's own player plays split hands by the chart, CDZ-).
    """
    start = time.perf_counter()
    game = game or Game(Rules())
    d = derive(game)
    table = chart_policy(game, d.cells, d.insurance, d.even_money)
    stats = policy_figures(game, table)
    optimal = split_strategy_figures(game, split_strategy)
    hands = _hand_results(game, split_strategy)
    exceptions = find_exceptions(game, table, hands)
    ev_rows = [EVRow(up, (c1, c2), res) for (up, c1, c2), res in sorted(hands.items(), key=_ev_row_order)]
    return Chart(game.rules, chart_rows(), d.cells, d.insurance, d.even_money, table, stats, optimal, d,
                 exceptions, ev_rows, time.perf_counter() - start, split_strategy)


def _ev_row_order(item) -> tuple:
    """Up cards as in the chart; then pairs (A-A, T-T ... 2-2), soft hands (A-T ... A-2), hard hands by total."""
    (up, c1, c2), _ = item
    if c1 == c2:
        group, key = 0, (c1 != ACE, -c1)
    elif c1 == ACE:
        group, key = 1, (-c2, 0)
    else:
        group, key = 2, (-(c1 + c2), -c2)
    return (UP_ORDER.index(up), group, key)
