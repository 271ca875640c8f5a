"""The exact solver: every value as an integer numerator over a known denominator, Fractions at the surface.

It meets the same interface as the float solver of the Cython core
(``ev.core._player.UpcardSolver``; see ``ev.core.arithmetic``), so that one
``ev.analysis.game.Game`` serves both arithmetics.  ``ev.reference`` states
the same mathematics with Fractions card by card and is far too slow for a
full deck; this module keeps the hot path in Python integers, with no gcd
work until the surface:

* **Dealer.**  For a deck ``D`` of ``n`` cards the dealer's terminal hands
  ``M`` (``ev.core.shapes.dealer_terminals``) give
  ``P(M) = orders(M) * prod_r ff(D_r, M_r) / ff(n, |M|)``.  Every outcome is
  held as one integer over ``ff(n, L)`` with ``L = min(max |M|, n)``: a term of
  length ``|M|`` is scaled by ``ff(n - |M|, L - |M|)``.  The sum over terminals
  is compiled once per up card into a Python function that evaluates it in
  Horner form over the ranks (falling factorials of the deck counts are its
  only variables).
* **Player.**  In a play context (unsplit, or split from pair ``p`` with ``j``
  extra pair cards gone) whose deck before the hand has ``N`` cards, a hand of
  ``c`` cards is valued as an integer over ``ff(N - c, C - c)`` with
  ``C = min(N, max dealer cards + max hand cards)``.  Then a child's
  denominator times the ``n`` cards it was drawn from is the parent's, so
  ``hit = sum_r d_r * child`` and ``double = 2 sum_r d_r * stand(child)``, and
  stand, hit and double of one hand share a denominator: decisions are integer
  comparisons, and an exact tie goes to the earlier of stand, hit, double
  (each tie met is recorded in ``ties``).

Work is memoised over the hand graph per up card and context, as in the
Cython core.  Hands are the same states; the only arithmetic is exact.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from math import perm as falling  # n (n-1) ... (n-k+1): 1 for k = 0, 0 for k > n
from typing import Any

from ev.core import shapes
from ev.core.actions import DEALER_OUTCOMES, NO_ACTION
from ev.core.cards import N_RANKS, RANK_SYMBOLS, format_hand

_ACTIONS3 = ("stand", "hit", "double")
#: the most extra pair cards a split context's deck may lack (as the float solver's)
MAX_EXTRA = 5




# ----- the dealer -----------------------------------------------------------
class DealerPolynomial:
    """The dealer's outcome numerators for one up card, compiled from its terminal hands."""

    def __init__(self, terms: list[tuple], source: tuple = ()) -> None:
        self.max_len = max((sum(m) for m, _, _ in terms), default=0)
        self._g: dict[int, tuple] = {}
        self._terms = terms
        self._fn: Any = None          # the compiled Python sum, made when a deck first needs it (see numerators)
        #: (up, hit_soft_17, excluded, caps) the terms were made from: the same dealer as a ``DealerTable``
        self.source = source
        self._table: Any = None
        self._c_numerators: Any = None

    def table(self) -> Any:
        """The same dealer as the core's ``DealerTable`` (its integer numerators serve exact sums in C)."""
        if self._table is None:
            from ev.core._dealer import DealerTable
            from ev.core._exact_sums import numerators
            self._c_numerators = numerators     # first: a thread that sees the table (split rounds side by side)
            self._table = DealerTable(*self.source)     # must see the sum that reads it
        return self._table

    def _compile(self, terms: list[tuple]):
        groups: dict = defaultdict(list)     # (outcome, length) -> [(multiset, orders)]
        top = [0] * N_RANKS
        for m, ways, outcome in terms:
            groups[outcome, sum(m)].append((m, ways))
            for r in range(N_RANKS):
                top[r] = max(top[r], m[r])

        def horner(group: list, r: int) -> str:
            if r == N_RANKS:
                return str(sum(w for _, w in group))
            by_count: dict = defaultdict(list)
            for m, w in group:
                by_count[m[r]].append((m, w))
            parts = []
            for k in sorted(by_count):
                inner = horner(by_count[k], r + 1)
                if k == 0:
                    parts.append(inner)
                elif inner == "1":
                    parts.append(f"f{r}_{k}")
                else:
                    parts.append(f"f{r}_{k}*{inner}" if inner.isdigit() else f"f{r}_{k}*({inner})")
            return "+".join(parts)

        lines = ["def _dist(d, g):", "    " + ", ".join(f"d{r}" for r in range(N_RANKS)) + " = d"]
        for r in range(N_RANKS):
            for k in range(1, top[r] + 1):
                prev = f"f{r}_{k - 1}*" if k > 1 else ""
                lines.append(f"    f{r}_{k} = {prev}(d{r}-{k - 1})" if k > 1 else f"    f{r}_1 = d{r}")
        outs = []
        for o in range(len(DEALER_OUTCOMES)):
            sums = [f"g[{length}]*({horner(groups[o, length], 0)})"
                    for length in range(1, self.max_len + 1) if groups.get((o, length))]
            name = f"o{o}"
            lines.append(f"    {name} = " + ("+".join(sums) if sums else "0"))
            outs.append(name)
        lines.append("    return (" + ", ".join(outs) + ",)")
        namespace: dict = {}
        exec(compile("\n".join(lines), "<ev.core.exact_solver dealer>", "exec"), namespace)
        return namespace["_dist"]

    def probabilities(self, deck: Sequence[int]) -> tuple:
        """The 7 outcome probabilities (joint units) for a deck, as Fractions."""
        n = sum(deck)
        den = self.denominator(n)
        return tuple(Fraction(a, den) for a in self.numerators(deck, n))

    def weights(self, n: int) -> tuple:
        """g[L] = ff(n - L, top - L) with top = min(max_len, n): scales a length-L term to ff(n, top)."""
        g = self._g.get(n)
        if g is None:
            top = min(self.max_len, n)
            g = tuple(falling(n - length, top - length) if length <= top else 0
                      for length in range(self.max_len + 1))
            self._g[n] = g
        return g

    def numerators(self, deck: Sequence[int], n: int) -> tuple:
        """Integers a_0..a_6 with P(outcome k) = a_k / ff(n, min(max_len, n)) (joint units).

        Summed in C over the same terminal hands (``ev.core._exact_sums.numerators``, 128-bit
        integers, about 8 times faster); a deck the dealer may run out of, and a polynomial made
        without its source, take the compiled Python sum."""
        if self.source:
            if self._table is None:
                self.table()
            value = self._c_numerators(self._table, deck, n)
            if value is not None:
                return value
        return self.compiled_numerators(deck, n)

    def compiled_numerators(self, deck: Sequence[int], n: int) -> tuple:
        """The same integers by the compiled Python sum (any deck; compiled when first asked)."""
        if self._fn is None:
            self._fn = self._compile(self._terms)
        return self._fn(deck, self.weights(n))

    def denominator(self, n: int) -> int:
        return falling(n, min(self.max_len, n))


@cache
def dealer_poly(up: int, hit_soft_17: bool, excluded: int, caps: tuple) -> DealerPolynomial:
    """The compiled dealer for an up card (``caps``: the shoe less the up card bounds each rank)."""
    return DealerPolynomial(shapes.dealer_terminals(up, hit_soft_17, excluded, caps), (up, hit_soft_17, excluded, caps))


# ----- the player -----------------------------------------------------------
class PlayContext:
    """One deck context: unsplit (pair -1) or split from ``pair`` with ``extra`` more pair cards gone."""

    __slots__ = (
        "C",
        "FF",
        "N",
        "after",
        "choice",
        "dealer",
        "double",
        "extra",
        "hit",
        "index",
        "pair",
        "scale",
        "stand",
    )

    def __init__(self, index: int, pair: int, extra: int, N: int, C: int, n_states: int, max_cards: int,
                 dealer_len: int) -> None:
        self.index, self.pair, self.extra, self.N, self.C = index, pair, extra, N, C
        top = max(max_cards + 2, C) + 1
        # FF[c]: the denominator of a hand of c cards, ff(N - c, C - c)
        self.FF = [falling(N - c, C - c) if c <= C else 1 for c in range(top + 1)]
        # scale[c]: dealer numerators (over ff(n, L)) to the hand's denominator
        self.scale = []
        for c in range(top + 1):
            n = N - c
            lo = min(dealer_len, max(n, 0))
            self.scale.append(falling(n - lo, C - c - lo) if c <= C and C - c >= lo else 0)
        self.stand: list[Any] = [None] * n_states
        self.double: list[Any] = [None] * n_states
        # hit and play-on values by decision source (see ExactUpcardSolver)
        self.hit: dict[int, list[Any]] = {}
        self.after: dict[int, list[Any]] = {}
        self.dealer: list[Any] = [None] * n_states
        self.choice: dict = {}


class ExactUpcardSolver:
    """Exact player values for one up card (integers over per-hand-size denominators), memoised."""

    def __init__(self, up: int, base: Sequence[int], poly: DealerPolynomial, graph: dict, bj_rank: int,
                 double_lo: int, double_hi: int, double_soft: bool, das: bool) -> None:
        self.up = up
        self.base = tuple(base)
        self.N0 = sum(self.base)
        self.poly = poly
        self.bj = bj_rank
        self.double_lo, self.double_hi, self.double_soft, self.das = double_lo, double_hi, double_soft, das
        self.hands = graph["hands"]
        self.n_states = len(self.hands)
        self.nxt = shapes.next_rows(graph)
        self.total = graph["total"]
        self.soft = graph["soft"]
        self.ncards = graph["ncards"]
        self.max_cards = max(self.ncards)
        self._contexts: dict[int, PlayContext] = {}
        #: exact ties met while deciding: (kind, deciding context, state, may_double) -> tied actions
        self.ties: dict[tuple, tuple] = {}
        self.ctx0 = self.context(-1, 0)

    # ----- contexts and decks ------------------------------------------------
    def context(self, pair: int, extra: int) -> PlayContext:
        if pair >= 0 and not 1 <= extra <= MAX_EXTRA:
            raise ValueError("split context out of range")
        index = 0 if pair < 0 else 1 + pair * MAX_EXTRA + extra - 1
        cx = self._contexts.get(index)
        if cx is None:
            N = self.N0 - extra
            C = min(N, self.poly.max_len + self.max_cards)
            cx = PlayContext(index, pair, extra, N, C, self.n_states, self.max_cards, self.poly.max_len)
            self._contexts[index] = cx
        return cx

    def deck(self, cx: PlayContext, s: int) -> tuple:
        h = self.hands[s]
        d = [b - c for b, c in zip(self.base, h)]
        if cx.extra:
            d[cx.pair] -= cx.extra
        return tuple(d)

    def dealer(self, cx: PlayContext, s: int) -> tuple:
        """Dealer numerators over ff(n, L) for hand s in context cx (shared with the unsplit hand of the same deck)."""
        if cx.extra:
            t = s
            for _ in range(cx.extra):
                if t >= 0:
                    t = self.nxt[t][cx.pair]
            if t >= 0:
                return self.dealer(self.ctx0, t)
        v = cx.dealer[s]
        if v is None:
            d = self.deck(cx, s)
            v = cx.dealer[s] = self.poly.numerators(d, sum(d))
        return v

    # ----- the player's actions (integer numerators over cx.FF[ncards]) -------
    def stand(self, cx: PlayContext, s: int) -> int:
        v = cx.stand[s]
        if v is None:
            a = self.dealer(cx, s)
            t = self.total[s]
            v = a[5] - a[6]
            for k in range(5):
                if 17 + k < t:
                    v += a[k]
                elif 17 + k > t:
                    v -= a[k]
            v *= cx.scale[self.ncards[s]]
            cx.stand[s] = v
        return v

    def _bust(self, cx: PlayContext, c: int, d: tuple, n: int, r: int) -> int:
        """Numerator (over FF[c + 1]) of busting after drawing r from deck d of hand size c: -P(no settled BJ)."""
        if self.bj < 0:
            return -cx.FF[c + 1]
        if c + 2 > cx.C:            # the deck is exhausted: nothing for the dealer (the float core gives NaN)
            return -cx.FF[c + 1]
        return -(n - 1 - d[self.bj] + (r == self.bj)) * cx.FF[c + 2]

    def source(self, cx: PlayContext, decide: int) -> PlayContext:
        """The context whose optimal decisions a hand in ``cx`` follows (as ``ev.core._player``'s)."""
        return self.ctx0 if decide == 0 else self.context(cx.pair, decide)

    def hit(self, cx: PlayContext, s: int, decide: int) -> int:
        memo = cx.hit.get(decide)
        if memo is None:
            memo = cx.hit[decide] = [None] * self.n_states
        v = memo[s]
        if v is None:
            v = memo[s] = self._one_card(cx, s, lambda t: self.after_card(cx, t, decide))
        return v

    def double_down(self, cx: PlayContext, s: int) -> int:
        v = cx.double[s]
        if v is None:
            v = cx.double[s] = 2 * self._one_card(cx, s, lambda t: self.stand(cx, t))
        return v

    def _one_card(self, cx: PlayContext, s: int, value_after: Callable[[int], int]) -> int:
        """The sum over the next card of its count times the hand's value after it (a bust, or
        ``value_after`` of the new state)."""
        d = self.deck(cx, s)
        n = sum(d)
        c = self.ncards[s]
        nx = self.nxt[s]
        v = 0
        for r in range(N_RANKS):
            dr = d[r]
            if dr > 0:
                t = nx[r]
                v += dr * (self._bust(cx, c, d, n, r) if t < 0 else value_after(t))
        return v

    def can_double(self, cx: PlayContext, s: int) -> bool:
        if self.ncards[s] != 2 or (cx.index > 0 and not self.das):
            return False
        if self.soft[s] and not self.double_soft:
            return False
        return self.double_lo <= self.total[s] <= self.double_hi

    def _decide(self, cx: PlayContext, s: int, may_double: bool) -> tuple[int, int]:
        """(action, value) of optimal play at s in cx; exact ties go to stand, then hit; ties are recorded."""
        vals = [self.stand(cx, s), self.hit(cx, s, cx.extra)]
        if may_double:
            vals.append(self.double_down(cx, s))
        best = 0
        for a in range(1, len(vals)):
            if vals[a] > vals[best]:
                best = a
        tied = tuple(_ACTIONS3[a] for a in range(len(vals)) if vals[a] == vals[best])
        if len(tied) > 1:
            self.ties[cx.index, s, may_double] = tied
        return best, vals[best]

    def choice(self, src: PlayContext, s: int, may_double: bool) -> int:
        """The action optimal play in context src takes at s among stand, hit and (maybe) double."""
        key = (s, may_double)
        act = src.choice.get(key)
        if act is None:
            act = src.choice[key] = self._decide(src, s, may_double)[0]
        return act

    def after_card(self, cx: PlayContext, s: int, decide: int) -> int:
        """Hand s (total <= 21) that has just received a card, played on by ``decide``'s decisions."""
        if self.total[s] == 21:
            return self.stand(cx, s)
        memo = cx.after.get(decide)
        if memo is None:
            memo = cx.after[decide] = [None] * self.n_states
        v = memo[s]
        if v is None:
            may_double = self.can_double(cx, s)
            src = self.source(cx, decide)
            if src is not cx:
                act = self.choice(src, s, may_double)
                v = (self.stand(cx, s) if act == 0 else self.hit(cx, s, decide) if act == 1
                     else self.double_down(cx, s))
            else:
                v = self._decide(cx, s, may_double)[1]
            memo[s] = v
        return v

    # ----- Python-level access (Fractions) -----------------------------------
    def _frac(self, cx: PlayContext, s: int, num: int) -> Fraction:
        return Fraction(num, cx.FF[self.ncards[s]])

    def hand_values(self, s: int) -> tuple:
        """Joint stand, hit (None at 21) and double values of unsplit hand s as Fractions."""
        cx = self.ctx0
        st = self._frac(cx, s, self.stand(cx, s))
        ht = self._frac(cx, s, self.hit(cx, s, 0)) if self.total[s] < 21 else None
        db = self._frac(cx, s, self.double_down(cx, s))
        return st, ht, db

    def may_double(self, s: int) -> bool:
        return self.can_double(self.ctx0, s)

    def split_hand_values(self, pair: int, extra: int, decide: int, one_card: bool) -> list:
        """Joint values of split hand {pair, r} per second card r in deck context (pair, extra), played by
        the decisions of ``decide`` (as the float solver's); None where impossible."""
        if not (0 <= pair < N_RANKS and 1 <= extra <= MAX_EXTRA and 0 <= decide <= MAX_EXTRA):
            raise ValueError("split context out of range")
        cx = self.context(pair, extra)
        start = self.nxt[0][pair]
        d = self.deck(cx, start)
        out: list[Fraction | None] = []
        for r in range(N_RANKS):
            t = self.nxt[start][r]
            if d[r] <= 0 or t < 0:
                out.append(None)
            else:
                num = self.stand(cx, t) if one_card else self.after_card(cx, t, decide)
                out.append(self._frac(cx, t, num))
        return out

    def context_choices(self, pair: int, extra: int, decide: int) -> bytes:
        """The action (0 stand, 1 hit, 2 double) taken at every hand of deck context (pair, extra) by the
        decisions of ``decide``, as ``ev.core._player.UpcardSolver.context_choices``: ``pair`` -1 is
        unsplit optimal play; NO_ACTION marks hands the context's deck cannot hold and, in a split
        context, hands without a card of the pair (no split hand reaches them, and they are not decided).
        """
        decider = self.context_decider(pair, extra, decide)
        if pair < 0:
            return bytes(decider(s) for s in range(self.n_states))
        return bytes(decider(s) if hand[pair] else NO_ACTION for s, hand in enumerate(self.hands))

    def context_decider(self, pair: int, extra: int, decide: int) -> Callable[[int], int]:
        """``decider(s)``: one state's entry of :meth:`context_choices`, worked out when asked."""
        cx = self.ctx0 if pair < 0 else self.context(pair, extra)
        src = self.source(cx, decide if pair >= 0 else 0)

        def decider(s: int) -> int:
            d = self.deck(cx, s)
            if self.ncards[s] < 2 or sum(d) <= 0 or min(d) < 0:
                return NO_ACTION
            if self.total[s] >= 21:
                return 0
            return self.choice(src, s, self.can_double(cx, s))
        return decider

    def split_choices(self, decide: int) -> SplitChoices:
        """Every pair's one-split play (its context with one extra pair card gone), decided when first read."""
        return SplitChoices(self, decide)

    def values_table(self) -> tuple[list, list, list]:
        """Joint stand, hit and double values (Fractions) of every unsplit hand of two or more cards.

        As ``ev.core._player.UpcardSolver.values_table``, with None where the
        float solver gives NaN (hands the deck cannot hold; hit at 21)."""
        cx = self.ctx0
        stand: list = [None] * self.n_states
        hit: list = [None] * self.n_states
        double: list = [None] * self.n_states
        for s in range(self.n_states):
            d = self.deck(cx, s)
            if self.ncards[s] < 2 or sum(d) <= 0 or min(d) < 0:
                continue
            stand[s], hit[s], double[s] = self.hand_values(s)
        return stand, hit, double

    def context_stand_values(self, pair: int, extra: int) -> list:
        """Joint stand values (Fractions) of every hand of deck context (pair, extra), as the float
        solver's: ``pair`` -1 is unsplit play; None where the deck cannot hold the hand (two or more
        cards) and, in a split context, where the hand holds no card of the pair."""
        cx = self.ctx0 if pair < 0 else self.context(pair, extra)
        out: list[Fraction | None] = [None] * self.n_states
        for s, hand in enumerate(self.hands):
            if pair >= 0 and not hand[pair]:
                continue
            d = self.deck(cx, s)
            if self.ncards[s] >= 2 and sum(d) > 0 and min(d) >= 0:
                out[s] = self._frac(cx, s, self.stand(cx, s))
        return out

    def dealer_probabilities(self, s: int) -> tuple:
        """Dealer outcome probabilities (joint units) for unsplit hand s, as Fractions."""
        d = self.deck(self.ctx0, s)
        den = self.poly.denominator(sum(d))
        return tuple(Fraction(a, den) for a in self.dealer(self.ctx0, s))

    def work(self) -> dict[str, int]:
        """Size of the work done so far: hand states valued (unsplit and split contexts), dealer evaluations."""
        unsplit = split = dealer = 0
        for index, cx in self._contexts.items():
            valued = sum(1 for v in cx.stand if v is not None)
            if index == 0:
                unsplit += valued
            else:
                split += valued
            dealer += sum(1 for v in cx.dealer if v is not None)
        return {"unsplit_hand_states": unsplit, "split_hand_states": split, "dealer_evaluations": dealer}

    def tie_records(self, split_strategy: str) -> list[dict]:
        """Exact ties met in the decisions of this up card's unsplit hands and of the split contexts
        whose decisions this split strategy follows (CDZ- copies the unsplit hand's)."""
        sources = {"cdz": (), "cdp1": (1,)}.get(split_strategy, tuple(range(1, MAX_EXTRA + 1)))
        out = []
        for (index, s, _may_double), actions in sorted(self.ties.items()):
            extra = 0 if index == 0 else (index - 1) % MAX_EXTRA + 1
            if index and extra not in sources:
                continue                         # a decision another split strategy makes
            context = ("unsplit" if index == 0 else
                       f"split {RANK_SYMBOLS[(index - 1) // MAX_EXTRA]}" + (f" (+{extra - 1} more pair cards gone)"
                                                                             if extra > 1 else ""))
            out.append({"up": RANK_SYMBOLS[self.up], "hand": format_hand(self.hands[s]), "context": context,
                        "actions": list(actions)})
        return out


class SplitChoices:
    """Post-split play codes of all ten pair contexts, indexed ``[pair * n_states + s]`` like the float
    solver's bytes, each worked out only when read (a fixed strategy meets few of them)."""

    def __init__(self, solver: ExactUpcardSolver, decide: int) -> None:
        self.n = solver.n_states
        self.decide = [solver.context_decider(pair, 1, decide) for pair in range(N_RANKS)]
        self.codes: dict[int, int] = {}

    def __len__(self) -> int:
        return N_RANKS * self.n

    def __getitem__(self, i: int) -> int:
        code = self.codes.get(i)
        if code is None:
            pair, s = divmod(i, self.n)
            code = self.codes[i] = self.decide[pair](s)
        return code
