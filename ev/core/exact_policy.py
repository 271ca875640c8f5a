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

import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import lcm, prod

from ev.core._exact_sums import pair_round_cells, round_cells
from ev.core.actions import Action
from ev.core.cards import N_RANKS, TEN, hand_result, hand_type
from ev.core.exact_solver import ExactUpcardSolver, PlayContext, falling

_STAND, _HIT, _DOUBLE = int(Action.STAND), int(Action.HIT), int(Action.DOUBLE)


def _hand_cell(doubled: int, bj: int, result: int) -> int:
    return doubled * 10 + bj * 5 + result + 2


_STAND_CELLS = {(total, doubled): tuple(_hand_cell(doubled, int(o == 6), hand_result(total, 1 + doubled, o))
                                        for o in range(7))
                for total in range(4, 23) for doubled in (0, 1)}

class ExactPolicyEvaluator:
    """A fixed strategy's exact outcome distributions for one up card (the twin of ``ev.core._policy``).

    ``play``: the action code (``ev.core.actions.Action``) of every hand-graph
    state for unsplit hands; ``split_play``: the same for hands split from each
    pair rank, ten tables concatenated (pair A first).
    """

    #: split rounds are merged and summed in C (``ev.core._exact_sums``: ``pair_round_cells`` for two hands,
    #: ``round_cells`` for more); False keeps them in Python, as tens split by rank are (the tests compare)
    pairs_in_c = True

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
        self._dealer_cache: dict = {}
        #: work done by split_distribution: pairs of finals merged, distinct unions, dealer evaluations
        self.work = {"split_rounds": 0, "final_pairs": 0, "split_dealer_evaluations": 0}
        #: split rounds may run side by side in threads (``ev.analysis.accounting``): the dealer cache and the
        #: work counts are written under this lock
        self._lock = threading.Lock()

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

    def context_values(self, t: int, pair: int, extra: int, one_card: bool) -> tuple[Fraction, Fraction]:
        """(mean result, mean stake) of ``context_distribution(t, pair, extra, one_card)``."""
        cells = self.context_distribution(t, pair, extra, one_card)
        return (sum((result * mass for (_, _, result), mass in cells.items()), Fraction(0)),
                sum(((1 + doubled) * mass for (doubled, _, _), mass in cells.items()), Fraction(0)))

    # ----- a split round: every hand and the dealer from one deck ---------------
    def _class_finals(self, codes: Sequence[int], deck: Sequence[int], kinds: int, resplit_kind: int, pair: int,
                      one_card: bool, non_resplit: bool) -> list[tuple[tuple, int, int]]:
        """(cards drawn by kind, number of drawing orders, type) of every way a split hand ends.

        As ``ev.core._policy.PolicyEvaluator.class_finals``: ``codes`` are the
        hand's decisions by state; ``non_resplit``: its second card is not a
        resplit card; kinds are the ranks and, for tens split by rank, the tens
        of the pair's face as an eleventh.
        """
        sol = self.solver
        out: list[tuple[tuple, int, int]] = []
        level: dict = {(sol.nxt[0][pair], (0,) * kinds): 1}
        first = True
        while level:
            grown: dict = {}
            for (s, drawn), m in level.items():
                code = _HIT if first else codes[s]
                if not first and (sol.total[s] == 21 or code == _STAND or one_card):
                    out.append((drawn, m, hand_type(sol.total[s], 1)))
                    continue
                for k in range(kinds):
                    if drawn[k] >= deck[k] or (first and non_resplit and k == resplit_kind):
                        continue
                    t = sol.nxt[s][TEN if k == N_RANKS else k]
                    cards = drawn[:k] + (drawn[k] + 1,) + drawn[k + 1:]
                    if t < 0 or (not first and code == _DOUBLE):
                        bet = 2 if (not first and code == _DOUBLE) else 1
                        out.append((cards, m, hand_type(22 if t < 0 else sol.total[t], bet)))
                    else:
                        grown[t, cards] = grown.get((t, cards), 0) + m
            level = grown
            first = False
        return out

    def split_round(self, pair: int, one_card: bool, configs: list, codes_by_context: dict, resplit_cards: int,
                    faces: bool, type_sets: list, exact_limit: float = float("inf")) -> dict:
        """Exact joint distribution of a split round's play: {(doubles, dealer_blackjack, net, hands): mass}.

        The twin of ``ev.core._policy.PolicyEvaluator.split_round`` (see it for
        the arguments and the method), in integers: the weights of the merged
        hands are integers, the dealer's outcome on the rest of the deck an
        integer over ff(n, L), and the probability of a union U with the
        dealer's cards one integer over ff(n0, |U| + L).

        Rounds may be computed side by side in threads: the work is counted
        here and added to ``self.work`` at the end, and a dealer outcome is
        kept (and counted) once, under the evaluator's lock.
        """
        sol = self.solver
        work: dict = defaultdict(int)
        deck10 = sol.deck(sol.context(pair, 1), sol.nxt[0][pair])      # the deck less both pair cards
        n0 = sum(deck10)
        kinds = N_RANKS + 1 if faces else N_RANKS
        deck = list(deck10)
        if faces:
            deck[TEN] -= resplit_cards
            deck.append(resplit_cards)
        resplit_kind = N_RANKS if faces else pair
        finals: dict = {}
        for _, _, classes in configs:
            for k, non_resplit in classes:
                if (k, non_resplit) not in finals:
                    finals[k, non_resplit] = self._class_finals(codes_by_context[k], deck, kinds, resplit_kind,
                                                                pair, one_card, non_resplit)
        numerators: dict = defaultdict(lambda: defaultdict(int))     # total cards -> cell -> numerator
        bound = sum(prod(len(finals[c]) for c in classes[:-1]) for _, _, classes in configs if len(classes) > 2)
        out: dict = defaultdict(Fraction)

        def union_dealer(u: tuple) -> tuple[int, int, Sequence[int]]:
            """ff(D, u), |u| and the numerators of the dealer's outcome on the deck less u."""
            size = sum(u)
            weight = prod(falling(deck[k], u[k]) for k in range(kinds))
            rest = list(deck10)
            for k in range(kinds):
                rest[TEN if k == N_RANKS else k] -= u[k]
            key = tuple(rest)
            dealer = self._dealer_cache.get(key)
            if dealer is None:
                dealer = sol.poly.numerators(key, n0 - size)
                with self._lock:
                    if key not in self._dealer_cache:
                        self._dealer_cache[key] = dealer
                        work["split_dealer_evaluations"] += 1
            return weight, size, dealer

        def dealer_of(u: tuple) -> tuple[Fraction, list[Fraction]]:
            """P(u's cards first, in one order) and P(dealer outcome | the deck less u), joint."""
            weight, size, dealer = union_dealer(u)
            den = falling(n0 - size, min(sol.poly.max_len, n0 - size))
            return Fraction(weight, falling(n0, size)), [Fraction(d, den) for d in dealer]

        marginals: dict = {}

        def marginal(start: tuple, cls: tuple) -> tuple | None:
            """A hand's own P(type | dealer outcome) and P(outcome) (see _marginal), once per start and class:
            the groups scored independently share them."""
            key = (start, cls)
            if key not in marginals:
                marginals[key] = self._marginal(start, finals[cls], deck, union_dealer, n0)
            return marginals[key]

        paired: dict = defaultdict(Fraction)     # rounds merged and summed in C (ev.core._exact_sums)
        for count, n_p, classes in configs:
            hands = 2 + n_p
            if not faces and self.pairs_in_c and (hands == 2 or bound <= exact_limit):
                lists = [finals[c] for c in classes]
                if count * prod(sum(m for _, m, _ in fin) for fin in lists) < 2 ** 62:
                    if hands == 2:
                        cells, pairs, unions = pair_round_cells(sol.poly.table(), deck10, *lists, count)
                    else:
                        cells, pairs, unions = round_cells(sol.poly.table(), deck10, lists, count, n_p, pair,
                                                           type_sets)
                    for (doubles, bj, net), v in cells.items():
                        paired[doubles, bj, net, hands] += v
                    work["final_pairs"] += pairs
                    work["split_unions"] += unions
                    continue
            if hands > 2 and bound > exact_limit:     # hands independent given the dealer's outcome
                n_n = sum(1 for c in classes if c[1])
                probability = Fraction(count * falling(resplit_cards, n_p) * falling(n0 - resplit_cards, n_n),
                                       falling(n0, n_p + n_n))
                start = tuple(n_p if k == resplit_kind else 0 for k in range(kinds))
                self._independent(probability, [marginal(start, c) for c in classes], type_sets, out)
                work["independent_groups"] += 1
                continue
            start = tuple(n_p if k == resplit_kind else 0 for k in range(kinds))
            states: dict = {(0, start): count}
            for cls in classes:
                grown: dict = defaultdict(int)
                fin = finals[cls]
                for (a, u), w in states.items():
                    combine = type_sets[a][2]
                    for cards, m, ty in fin:
                        union = tuple(x + y for x, y in zip(u, cards))
                        if any(x > y for x, y in zip(union, deck)):
                            continue
                        grown[combine[ty], union] += w * m
                        work["final_pairs"] += 1
                states = grown
            for (a, u), w in states.items():
                doubles, nets = type_sets[a][0], type_sets[a][1]
                weight, size, dealer = union_dealer(u)
                weight *= w
                cells = numerators[size + min(sol.poly.max_len, n0 - size)]
                for o in range(7):
                    if dealer[o]:
                        cells[doubles, int(o == 6), nets[o], hands] += weight * dealer[o]
        work["split_rounds"] += 1
        with self._lock:
            for name, count in work.items():
                self.work[name] = self.work.get(name, 0) + count
        rough = dict(out)            # the groups scored independently take the mass the exact ones leave
        out.clear()
        for length, cells in numerators.items():
            den = falling(n0, length)
            for cell, v in cells.items():
                out[cell] += Fraction(v, den)
        for cell, v in paired.items():
            out[cell] += v
        if rough:
            target = sum(dealer_of((0,) * kinds)[1], Fraction(0))
            scale = (target - sum(out.values(), Fraction(0))) / sum(rough.values(), Fraction(0))
            for cell, v in rough.items():
                out[cell] += v * scale
        return {k: v for k, v in out.items() if v}

    def _marginal(self, start: tuple, fin: list, deck: list, union_dealer: Callable, n0: int) -> tuple | None:
        """One hand's own distribution of types given the dealer's outcome, its finals on the deck less the
        resplit cards ``start``: (P(type | outcome) as numerators [type][outcome], their denominators [outcome],
        P(outcome) as Fractions), or None when the deck holds none of its finals.

        A final's weight is ff(D, u) / ff(n0, |u|) and the dealer's outcome an integer over a falling
        factorial of n0 - |u|: both denominators depend on |u| only, so the sums are kept as integers by
        |u| and made fractions once."""
        max_len = self.solver.poly.max_len
        weights: dict = defaultdict(int)          # |u| -> sum of m ff(D, u)
        numerators: dict = defaultdict(int)       # (type, outcome, |u|) -> sum of m ff(D, u) a_o(D - u)
        for cards, m, ty in fin:
            u = tuple(x + y for x, y in zip(start, cards))
            if any(x > y for x, y in zip(u, deck)):
                continue
            weight, size, dealer = union_dealer(u)
            weights[size] += m * weight
            for o in range(7):
                if dealer[o]:
                    numerators[ty, o, size] += m * weight * dealer[o]
        total = sum((Fraction(w, falling(n0, size)) for size, w in weights.items()), Fraction(0))
        if not total:
            return None
        mass = [[Fraction(0)] * 7 for _ in range(14)]
        for (ty, o, size), v in numerators.items():
            mass[ty][o] += Fraction(v, falling(n0, size) * falling(n0 - size, min(max_len, n0 - size)))
        any_type = [sum(row, Fraction(0)) for row in mass]
        # P(type | outcome) = per_num[type][outcome] / per_den[outcome]: integers over one denominator
        per_num = [[0] * 7 for _ in range(14)]
        per_den = [1] * 7
        p_out = []
        for o in range(7):
            w = sum((mass[t][o] for t in range(14)), Fraction(0))
            p_out.append(w / total)
            column = [mass[t][o] if w else any_type[t] for t in range(14)]     # normalised below
            common = lcm(*(c.denominator for c in column))
            nums = [c.numerator * (common // c.denominator) for c in column]
            if sum(nums):
                per_den[o] = sum(nums)
                for t in range(14):
                    per_num[t][o] = nums[t]
        return per_num, per_den, p_out

    def _independent(self, probability: Fraction, hands_marginals: list, type_sets: list, out: dict) -> None:
        """One group of second-card words with its hands independent given the dealer's outcome (the twin of
        ``ev.core._split_round.SplitRound.add_config_independent``): each hand's types by its own marginal
        (:meth:`_marginal`), the dealer's outcome by the first hand's."""
        if any(m is None for m in hands_marginals):
            return
        q = [(per_num, per_den) for per_num, per_den, _ in hands_marginals]
        p_out = hands_marginals[0][2]
        hands = len(hands_marginals)
        for o in range(7):
            if not p_out[o]:
                continue
            states: dict = {0: 1}
            den = 1
            for per_num, per_den in q:
                grown: dict = defaultdict(int)
                for a, w in states.items():
                    row = type_sets[a][2]
                    for t in range(14):
                        if per_num[t][o]:
                            grown[row[t]] += w * per_num[t][o]
                states = grown
                den *= per_den[o]
            by_cell: dict = defaultdict(int)      # the states' integers summed by cell, one fraction per cell
            for a, w in states.items():
                by_cell[type_sets[a][0], int(o == 6), type_sets[a][1][o], hands] += w
            scale = probability * p_out[o] / den
            for cell, w in by_cell.items():
                out[cell] += scale * w
