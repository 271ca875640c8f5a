"""The exact policy evaluator: a fixed strategy's outcome distributions as exact fractions.

The exact twin of ``ev.core._policy.PolicyEvaluator`` (same interface, see
``ev.core.arithmetic``), working on an ``ev.core.exact_solver.ExactUpcardSolver``.
Hand distributions are held as integer numerators over the context's per-size
denominators, like the values.  The one-split joint distribution of both
hands against the same dealer hand is computed from each hand's final
multisets with their numbers of drawing orders: P(c1, c2, dealer M) depends
on the deck only through the multiset c1 + c2 + M, so pairs of finals are
merged by their union before the dealer is evaluated once per union.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from math import gcd

from ev.core.actions import Action
from ev.core.cards import N_RANKS
from ev.core.exact_solver import ExactUpcardSolver, PlayContext, falling

_STAND, _HIT, _DOUBLE = int(Action.STAND), int(Action.HIT), int(Action.DOUBLE)

_N_TYPES = 14                      # a finished hand: total class 16 (<= 16) .. 21, 22 (bust) x bet 1 or 2


def _result_of(total: int, bet: int, outcome: int) -> int:
    """A hand's result against a dealer outcome (17..21, bust, blackjack); total 22 is a bust."""
    if total > 21 or outcome == 6:
        return -bet
    if outcome == 5 or total > 17 + outcome:
        return bet
    return -bet if total < 17 + outcome else 0


def _hand_cell(doubled: int, bj: int, result: int) -> int:
    return doubled * 10 + bj * 5 + result + 2


_STAND_CELLS = {(total, doubled): tuple(_hand_cell(doubled, int(o == 6), _result_of(total, 1 + doubled, o))
                                        for o in range(7))
                for total in range(4, 23) for doubled in (0, 1)}
_TYPE_OF = {(total, bet): (max(total, 16) - 16) * 2 + bet - 1 for total in range(2, 23) for bet in (1, 2)}
_SPLIT_CELL = {}
for _a in range(_N_TYPES):
    for _b in range(_N_TYPES):
        _ta, _ba, _tb, _bb = 16 + _a // 2, 1 + _a % 2, 16 + _b // 2, 1 + _b % 2
        _SPLIT_CELL[_a * _N_TYPES + _b] = tuple(
            (_ba - 1 + _bb - 1, int(o == 6), _result_of(_ta, _ba, o) + _result_of(_tb, _bb, o)) for o in range(7))


class ExactPolicyEvaluator:
    """A fixed strategy's exact outcome distributions for one up card (the twin of ``ev.core._policy``).

    ``play``: the action code (``ev.core.actions.Action``) of every hand-graph
    state for unsplit hands; ``split_play``: the same for hands split from each
    pair rank, ten tables concatenated (pair A first).
    """

    def __init__(self, solver: ExactUpcardSolver, natural_rank: int, play: bytes,
                 split_play: Sequence[int]) -> None:
        n = solver.n_states
        if len(play) != n or len(split_play) != N_RANKS * n:
            raise ValueError("strategy tables must have one code per hand-graph state (per pair after a split)")
        self.solver = solver
        self.natural = natural_rank
        self.settled = solver.bj >= 0
        self.play = bytes(play)
        self.split_play = split_play    # bytes, or the solver's lazily decided SplitChoices
        self._memo: dict = {}
        self._omemo: dict = {}
        self._dealer_cache: dict = {}
        #: work done by split_distribution: pairs of finals merged, distinct unions, dealer evaluations
        self.work = {"split_rounds": 0, "final_pairs": 0, "unions": 0, "split_dealer_evaluations": 0}

    # ----- one hand (numerators over the context's denominators) -------------
    def _stand_cells(self, cx: PlayContext, s: int, doubled: int, weight: int, out: list) -> None:
        sol = self.solver
        a = sol.dealer(cx, s)
        w = weight * cx.scale[sol.ncards[s]]
        cells = _STAND_CELLS[sol.total[s], doubled]
        for o in range(7):
            if a[o]:
                out[cells[o]] += w * a[o]

    def _bust_cells(self, cx: PlayContext, c: int, d: tuple, n: int, r: int, doubled: int, weight: int,
                    out: list) -> None:
        """Busting after drawing r: the bet is lost; an unsettled dealer blackjack is noted."""
        bet = 2 if doubled else 1
        lose, lose_bj = _hand_cell(doubled, 0, -bet), _hand_cell(doubled, 1, -bet)
        if c + 2 > cx.C or (not self.settled and self.natural < 0):
            out[lose] += weight * cx.FF[c + 1]
            return
        unit = weight * cx.FF[c + 2]
        if self.settled:
            bj = self.solver.bj
            out[lose] += unit * (n - 1 - d[bj] + (r == bj))
        else:
            nat = d[self.natural] - (r == self.natural)
            out[lose] += unit * (n - 1 - nat)
            out[lose_bj] += unit * nat

    def _act(self, cx: PlayContext, s: int, code: int) -> list:
        out = [0] * 20
        sol = self.solver
        if code == _STAND or sol.total[s] == 21:
            self._stand_cells(cx, s, 0, 1, out)
            return out
        d = sol.deck(cx, s)
        n = sum(d)
        c = sol.ncards[s]
        nx = sol.nxt[s]
        doubled = 1 if code == _DOUBLE else 0
        for r in range(N_RANKS):
            dr = d[r]
            if dr <= 0:
                continue
            t = nx[r]
            if t < 0:
                self._bust_cells(cx, c, d, n, r, doubled, dr, out)
            elif doubled:
                self._stand_cells(cx, t, 1, dr, out)
            else:
                child = self._dist(cx, t)
                for k in range(20):
                    if child[k]:
                        out[k] += dr * child[k]
        return out

    def _dist(self, cx: PlayContext, s: int) -> list:
        """Hand s, which has just received a card, played on by the strategy."""
        key = (cx.index, s)
        v = self._memo.get(key)
        if v is None:
            if self.solver.total[s] == 21:
                code = _STAND
            else:
                code = self.play[s] if cx.index == 0 else self.split_code(cx.pair, s)
            v = self._memo[key] = self._act(cx, s, code)
        return v

    def split_code(self, pair: int, s: int) -> int:
        return self.split_play[pair * self.solver.n_states + s]

    def _fractions(self, cx: PlayContext, s: int, cells: list) -> dict:
        den = cx.FF[self.solver.ncards[s]]
        return {(k // 10, (k // 5) % 2, k % 5 - 2): Fraction(v, den) for k, v in enumerate(cells) if v}

    def hand_distribution(self, s: int, first: int = -1) -> dict:
        """Joint distribution {(doubled, dealer_blackjack, result): mass} of unsplit hand s.

        ``first``: the first action when it is not the table's (e.g. the
        fallback of a pair that cannot be split); -1 reads it from the table."""
        cx = self.solver.ctx0
        return self._fractions(cx, s, self._act(cx, s, self.play[s] if first < 0 else first))

    def context_distribution(self, t: int, pair: int, extra: int, one_card: bool) -> dict:
        """As ``hand_distribution`` for split hand t in context (pair, extra); ``one_card``: it stands."""
        cx = self.solver.context(pair, extra)
        if one_card:
            cells = [0] * 20
            self._stand_cells(cx, t, 0, 1, cells)
        else:
            cells = self._dist(cx, t)
        return self._fractions(cx, t, cells)

    # ----- one split hand jointly with the dealer's outcome (for resplits) ---
    def _outcome_stand(self, cx: PlayContext, s: int, doubled: int, weight: int, out: list) -> None:
        sol = self.solver
        a = sol.dealer(cx, s)
        w = weight * cx.scale[sol.ncards[s]]
        total, bet = sol.total[s], 1 + doubled
        for o in range(7):
            if a[o]:
                out[doubled * 35 + o * 5 + _result_of(total, bet, o) + 2] += w * a[o]

    def _live(self, cx: PlayContext, c: int, d: tuple, n: int, r: int) -> int:
        """P(no settled dealer blackjack) after drawing r, as a numerator over FF[c + 1]."""
        if self.settled and c + 2 <= cx.C:
            bj = self.solver.bj
            return (n - 1 - d[bj] + (r == bj)) * cx.FF[c + 2]
        return cx.FF[c + 1]

    def _odist(self, cx: PlayContext, s: int) -> tuple[list, int]:
        """(V, Q): split hand s's cells (doubled, dealer outcome, result) are V / (FF[c] * Q).

        A bust loses the bet and spreads the dealer's outcome as for the hand
        before the busting card (ev.core._policy's approximation for resplit rounds),
        which brings in the denominator Q.
        """
        key = (cx.index, s)
        got = self._omemo.get(key)
        if got is not None:
            return got
        sol = self.solver
        code = _STAND if sol.total[s] == 21 else self.split_code(cx.pair, s)
        out = [0] * 70
        q = 1
        if code == _STAND:
            self._outcome_stand(cx, s, 0, 1, out)
        else:
            d = sol.deck(cx, s)
            n = sum(d)
            c = sol.ncards[s]
            nx = sol.nxt[s]
            doubled = 1 if code == _DOUBLE else 0
            children = []
            busted = 0
            for r in range(N_RANKS):
                dr = d[r]
                if dr <= 0:
                    continue
                t = nx[r]
                if t < 0:
                    busted += dr * self._live(cx, c, d, n, r)
                elif doubled:
                    self._outcome_stand(cx, t, 1, dr, out)
                else:
                    children.append((self._odist(cx, t), dr))
            spread = None
            if busted:
                a = sol.dealer(cx, s)
                total = sum(a)
                if total > 0:
                    g = gcd(busted, total)
                    spread = (busted // g, total // g, a)
                    q = total // g
            for (_, qc), _ in children:
                q = q * qc // gcd(q, qc)
            if q != 1:
                out = [v * q for v in out]
            if spread is not None:
                b, qb, a = spread
                f = b * (q // qb)
                bet = 1 + doubled
                for o in range(7):
                    if a[o]:
                        out[doubled * 35 + o * 5 - bet + 2] += f * a[o]
            for (vc, qc), dr in children:
                f = dr * (q // qc)
                for k in range(70):
                    if vc[k]:
                        out[k] += f * vc[k]
        self._omemo[key] = (out, q)
        return out, q

    def outcome_distribution(self, t: int, pair: int, extra: int, one_card: bool) -> dict:
        """{(doubled, dealer outcome 0..6, result): mass} of split hand t in context (pair, extra)."""
        cx = self.solver.context(pair, extra)
        if one_card:
            cells, q = [0] * 70, 1
            self._outcome_stand(cx, t, 0, 1, cells)
        else:
            cells, q = self._odist(cx, t)
        den = cx.FF[self.solver.ncards[t]] * q
        return {(k // 35, (k // 5) % 7, k % 5 - 2): Fraction(v, den) for k, v in enumerate(cells) if v}

    # ----- both split hands against the same dealer hand ---------------------
    def _finals(self, pair: int, one_card: bool, deck0: tuple, width: int) -> list:
        """(cards drawn as a packed integer, number of drawing orders, type) of every way a split hand ends."""
        sol = self.solver
        start = sol.nxt[0][pair]
        out = []
        front = {start: 1}
        while front:
            grown: dict = {}
            for s, m in front.items():
                h = sol.hands[s]
                drawn = [h[r] - (r == pair) for r in range(N_RANKS)]
                code = _HIT
                if s != start:
                    if sol.total[s] == 21 or one_card:
                        code = _STAND
                    else:
                        code = self.split_code(pair, s)
                    if code == _STAND:
                        out.append((_pack(drawn, width), m, _TYPE_OF[sol.total[s], 1]))
                        continue
                doubled = s != start and code == _DOUBLE
                for r in range(N_RANKS):
                    if drawn[r] >= deck0[r]:
                        continue
                    t = sol.nxt[s][r]
                    if t < 0 or doubled:
                        drawn[r] += 1
                        out.append((_pack(drawn, width), m, _TYPE_OF[22 if t < 0 else sol.total[t],
                                                                   2 if doubled else 1]))
                        drawn[r] -= 1
                    else:
                        grown[t] = grown.get(t, 0) + m
            front = grown
        return out

    def split_distribution(self, pair: int, one_card: bool) -> dict:
        """Exact joint distribution of a one-split round's play: {(doubles, dealer_blackjack, net): mass}."""
        sol = self.solver
        cx = sol.context(pair, 1)
        deck0 = sol.deck(cx, sol.nxt[0][pair])            # the deck less both pair cards
        n0 = sum(deck0)
        width = max(max(deck0), 48).bit_length() + 1
        guard_bit = 1 << (width - 1)
        guard = _pack([guard_bit] * N_RANKS, width)
        room = _pack([guard_bit + c for c in deck0], width)
        finals = self._finals(pair, one_card, deck0, width)
        by_type: dict = defaultdict(list)
        for c, m, ty in finals:
            by_type[ty].append((c, m))
        types = sorted(by_type)
        by_union: dict = defaultdict(list)
        for a, ta in enumerate(types):
            first = by_type[ta]
            for tb in types[a:]:
                second = by_type[tb]
                same = ta == tb
                merged: dict = {}
                get = merged.get
                for i, (ci, ni) in enumerate(first):
                    left = room - ci
                    twice = 2 * ni
                    if same:
                        cj, nj = second[i]
                        if (left - cj) & guard == guard:
                            merged[ci + cj] = get(ci + cj, 0) + ni * nj
                    for cj, nj in (second[i + 1:] if same else second):
                        if (left - cj) & guard == guard:     # no rank beyond what the deck holds
                            u = ci + cj
                            merged[u] = get(u, 0) + twice * nj
                tpair = ta * _N_TYPES + tb
                for u, w in merged.items():
                    by_union[u].append((tpair, w))
                self.work["final_pairs"] += len(first) * (len(first) + 1) // 2 if same else len(first) * len(second)
        self.work["split_rounds"] += 1
        self.work["unions"] += len(by_union)
        ff_rank = [[falling(deck0[r], k) for k in range(deck0[r] + 1)] for r in range(N_RANKS)]
        mask = (1 << width) - 1
        numerators: dict = defaultdict(lambda: defaultdict(int))   # total cards -> cell -> numerator
        for union, items in by_union.items():
            u = [(union >> (width * r)) & mask for r in range(N_RANKS)]
            size = sum(u)
            weight = 1
            for r in range(N_RANKS):
                if u[r]:
                    weight *= ff_rank[r][u[r]]
            rest = tuple(deck0[r] - u[r] for r in range(N_RANKS))
            dealer = self._dealer_cache.get(rest)
            if dealer is None:
                dealer = self._dealer_cache[rest] = sol.poly.numerators(rest, n0 - size)
                self.work["split_dealer_evaluations"] += 1
            cells = numerators[size + min(sol.poly.max_len, n0 - size)]
            for tpair, w in items:
                ww = w * weight
                split_cells = _SPLIT_CELL[tpair]
                for o in range(7):
                    if dealer[o]:
                        cells[split_cells[o]] += ww * dealer[o]
        out: dict = defaultdict(Fraction)
        for length, cells in numerators.items():
            den = falling(n0, length)
            for cell, v in cells.items():
                out[cell] += Fraction(v, den)
        return {k: v for k, v in out.items() if v}


def _pack(counts: Sequence[int], width: int) -> int:
    v = 0
    for r in range(N_RANKS - 1, -1, -1):
        v = (v << width) | counts[r]
    return v
