"""Exact rational mode: every probability and EV as a :class:`fractions.Fraction`.

``ExactGame(rules, removed=...)`` mirrors :class:`ev.engine.Game` (joint units,
peek conditioning, blackjacks settled before play, insurance and even money,
surrender, CDZ-/CDP1/CDP split play, the resplit approximation, tens split by
rank) with results of the same shapes whose values are exact fractions.
Strategy choices compare exact values; an exact tie goes to the earlier action
of ``stand, hit, double, split, surrender`` (insurance and even money are
taken only when strictly better) and is recorded in the result's ``ties``.

``ev.reference`` states the same mathematics with Fractions card by card and
is far too slow for a full deck.  This module keeps the hot path in Python
integers, with no gcd work until the surface:

* **Dealer.**  For a deck ``D`` of ``n`` cards the dealer's terminal hands
  ``M`` (``ev.tables.dealer_terminals``) give
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
  comparisons.  Values become Fractions only where the engine's Python layer
  works (splits, the round, the hand query).

Work is memoised over the hand graph per up card and context, as in the
Cython core.  Hands are the same states; the only arithmetic is exact.

Also here: ``round_stats_exact`` (the exact twin of ``ev.accounting``: E[W],
both RTPs, frequencies and the net-result distribution), the JSON scheme of
exact values (``exact_json``) and the ``--exact`` forms of ``bjev rtp`` and
``bjev hand`` (``cli_rtp``, ``cli_hand``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Context, Decimal, ROUND_HALF_EVEN
from fractions import Fraction
from functools import lru_cache
from math import gcd
from typing import Sequence

from ev.core import shapes as tables
from ev.analysis.accounting import resplit_cells
from ev.core.cards import (ACE, N_RANKS, RANK_SYMBOLS, TEN, TEN_FACES, composition_of, face_to_rank,
                    format_hand, full_shoe, hand_total, subtract)
from ev.analysis.game import DEALER_OUTCOMES, SPLIT_STRATEGIES, Deal, HandResult, RoundResult, _mode
from ev.analysis.game import resplit_value as engine_resplit_value
from ev.errors import CardError, EngineError
from ev.core.rules import Rules

#: the most decks the exact mode accepts: every count the rules allow (8 decks take about as long as 1)
MAX_EXACT_DECKS = 8
#: preference order of play actions when values tie exactly
TIE_ORDER = ("stand", "hit", "double", "split", "surrender")

_OPTIMAL, _CDZ, _CDP1 = 0, 1, 2          # the core's split-play modes (see ev.engine._mode)
_ACTIONS3 = ("stand", "hit", "double")
ZERO, ONE = Fraction(0), Fraction(1)


# ----- output helpers -------------------------------------------------------
_DEC20 = Context(prec=20, rounding=ROUND_HALF_EVEN)


def fraction_text(x: Fraction) -> str:
    """``"p/q"`` in lowest terms (``"1/1"`` for one, ``"0/1"`` for zero)."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def decimal_text(x: Fraction, digits: int = 20) -> str:
    """The decimal expansion of ``x`` rounded (half-even) to ``digits`` significant digits, never in E notation."""
    x = Fraction(x)
    ctx = _DEC20 if digits == 20 else Context(prec=digits, rounding=ROUND_HALF_EVEN)
    d = ctx.divide(Decimal(x.numerator), Decimal(x.denominator))
    text = format(d, "f")
    return "0" if d == 0 else text


def exact_json(x):
    """JSON form of an exact value: ``{"fraction": "p/q", "decimal": "<20 significant digits>"}``.

    ``None`` stays ``None``; dicts and lists are converted item by item.
    """
    if x is None:
        return None
    if isinstance(x, dict):
        return {k: exact_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [exact_json(v) for v in x]
    if isinstance(x, bool):
        return x
    return {"fraction": fraction_text(x), "decimal": decimal_text(x)}


def exact_text(x: Fraction | None, scale: int = 1, unit: str = "") -> str:
    """``'-123/456 = -0.26973684210526315789'`` (``scale`` 100 and unit ' %' for percentages)."""
    if x is None:
        return "-"
    x = Fraction(x) * scale
    return f"{fraction_text(x)} = {decimal_text(x)}{unit}"


def falling(n: int, k: int) -> int:
    """The falling factorial n (n-1) ... (n-k+1); 1 for k = 0."""
    v = 1
    for i in range(k):
        v *= n - i
    return v


# ----- the dealer -----------------------------------------------------------
class _DealerPoly:
    """The dealer's outcome numerators for one up card, compiled from its terminal hands."""

    def __init__(self, terms: list[tuple]) -> None:
        self.max_len = max((sum(m) for m, _, _ in terms), default=0)
        self._g: dict[int, tuple] = {}
        self._fn = self._compile(terms)

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
        exec(compile("\n".join(lines), "<ev.exact dealer>", "exec"), namespace)
        return namespace["_dist"]

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
        """Integers a_0..a_6 with P(outcome k) = a_k / ff(n, min(max_len, n)) (joint units)."""
        return self._fn(deck, self.weights(n))

    def denominator(self, n: int) -> int:
        return falling(n, min(self.max_len, n))


@lru_cache(maxsize=None)
def dealer_poly(up: int, hit_soft_17: bool, excluded: int, caps: tuple) -> _DealerPoly:
    """The compiled dealer for an up card (``caps``: the shoe less the up card bounds each rank)."""
    return _DealerPoly(tables.dealer_terminals(up, hit_soft_17, excluded, caps))


# ----- the player -----------------------------------------------------------
class _Context:
    """One play context: unsplit (pair -1) or split from ``pair`` with ``extra`` more pair cards gone."""

    __slots__ = ("index", "pair", "extra", "N", "C", "FF", "scale", "stand", "double",
                 "hit", "after", "dealer", "choice")

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
        self.stand = [None] * n_states
        self.double = [None] * n_states
        self.hit = {m: [None] * n_states for m in range(3)}
        self.after = {m: [None] * n_states for m in range(3)}
        self.dealer = [None] * n_states
        self.choice: dict = {}


class ExactUpcardSolver:
    """Exact player values for one up card (integers over per-hand-size denominators), memoised."""

    def __init__(self, up: int, base: Sequence[int], poly: _DealerPoly, graph: dict, bj_rank: int,
                 double_lo: int, double_hi: int, double_soft: bool, das: bool) -> None:
        self.up = up
        self.base = tuple(base)
        self.N0 = sum(self.base)
        self.poly = poly
        self.bj = bj_rank
        self.double_lo, self.double_hi, self.double_soft, self.das = double_lo, double_hi, double_soft, das
        self.hands = graph["hands"]
        flat = graph["next"]
        self.n_states = len(self.hands)
        self.nxt = [tuple(flat[s * N_RANKS:(s + 1) * N_RANKS]) for s in range(self.n_states)]
        self.total = graph["total"]
        self.soft = graph["soft"]
        self.ncards = graph["ncards"]
        self.max_cards = max(self.ncards)
        self._contexts: dict[int, _Context] = {}
        #: exact ties met while deciding: (kind, deciding context, state, may_double) -> tied actions
        self.ties: dict[tuple, tuple] = {}
        self.ctx0 = self.context(-1, 0)

    # ----- contexts and decks ------------------------------------------------
    def context(self, pair: int, extra: int) -> _Context:
        index = 0 if pair < 0 else 1 + pair * 3 + extra - 1
        cx = self._contexts.get(index)
        if cx is None:
            N = self.N0 - extra
            C = min(N, self.poly.max_len + self.max_cards)
            cx = _Context(index, pair, extra, N, C, self.n_states, self.max_cards, self.poly.max_len)
            self._contexts[index] = cx
        return cx

    def deck(self, cx: _Context, s: int) -> tuple:
        h = self.hands[s]
        d = [b - c for b, c in zip(self.base, h)]
        if cx.extra:
            d[cx.pair] -= cx.extra
        return tuple(d)

    def dealer(self, cx: _Context, s: int) -> tuple:
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
    def stand(self, cx: _Context, s: int) -> int:
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

    def _bust(self, cx: _Context, c: int, d: tuple, n: int, r: int) -> int:
        """Numerator (over FF[c + 1]) of busting after drawing r from deck d of hand size c: -P(no settled BJ)."""
        if self.bj < 0:
            return -cx.FF[c + 1]
        if c + 2 > cx.C:            # the deck is exhausted: nothing for the dealer (the float core gives NaN)
            return -cx.FF[c + 1]
        return -(n - 1 - d[self.bj] + (r == self.bj)) * cx.FF[c + 2]

    def hit(self, cx: _Context, s: int, mode: int) -> int:
        if cx.index == 0 or (mode == _CDP1 and cx.extra == 1):
            mode = _OPTIMAL
        memo = cx.hit[mode]
        v = memo[s]
        if v is None:
            d = self.deck(cx, s)
            n = sum(d)
            c = self.ncards[s]
            nx = self.nxt[s]
            v = 0
            for r in range(N_RANKS):
                dr = d[r]
                if dr > 0:
                    t = nx[r]
                    if t < 0:
                        v += dr * self._bust(cx, c, d, n, r)
                    else:
                        v += dr * self.after_card(cx, t, mode)
            memo[s] = v
        return v

    def double_down(self, cx: _Context, s: int) -> int:
        v = cx.double[s]
        if v is None:
            d = self.deck(cx, s)
            n = sum(d)
            c = self.ncards[s]
            nx = self.nxt[s]
            v = 0
            for r in range(N_RANKS):
                dr = d[r]
                if dr > 0:
                    t = nx[r]
                    v += dr * (self._bust(cx, c, d, n, r) if t < 0 else self.stand(cx, t))
            v *= 2
            cx.double[s] = v
        return v

    def can_double(self, cx: _Context, s: int) -> bool:
        if self.ncards[s] != 2 or (cx.index > 0 and not self.das):
            return False
        if self.soft[s] and not self.double_soft:
            return False
        return self.double_lo <= self.total[s] <= self.double_hi

    def _decide(self, cx: _Context, s: int, may_double: bool, kind: int) -> tuple[int, int]:
        """(action, value) of optimal play at s in cx; exact ties go to stand, then hit; ties are recorded.

        ``kind``: _OPTIMAL when cx plays its own optimum, else the split mode copying cx's decision.
        """
        vals = [self.stand(cx, s), self.hit(cx, s, _OPTIMAL)]
        if may_double:
            vals.append(self.double_down(cx, s))
        best = 0
        for a in range(1, len(vals)):
            if vals[a] > vals[best]:
                best = a
        tied = tuple(_ACTIONS3[a] for a in range(len(vals)) if vals[a] == vals[best])
        if len(tied) > 1:
            self.ties[kind, cx.index, s, may_double] = tied
        return best, vals[best]

    def choice(self, src: _Context, s: int, may_double: bool, mode: int) -> int:
        """The action optimal play in context src takes at s among stand, hit and (maybe) double."""
        key = (s, may_double)
        act = src.choice.get(key)
        if act is None:
            act = src.choice[key] = self._decide(src, s, may_double, mode)[0]
        return act

    def after_card(self, cx: _Context, s: int, mode: int) -> int:
        """Hand s (total <= 21) that has just received a card, played on by the context's strategy."""
        if self.total[s] == 21:
            return self.stand(cx, s)
        if cx.index == 0 or (mode == _CDP1 and cx.extra == 1):
            mode = _OPTIMAL
        memo = cx.after[mode]
        v = memo[s]
        if v is None:
            may_double = self.can_double(cx, s)
            if mode != _OPTIMAL:
                src = self.ctx0 if mode == _CDZ else self.context(cx.pair, 1)
                act = self.choice(src, s, may_double, mode)
                v = (self.stand(cx, s) if act == 0 else self.hit(cx, s, mode) if act == 1
                     else self.double_down(cx, s))
            else:
                v = self._decide(cx, s, may_double, _OPTIMAL)[1]
            memo[s] = v
        return v

    # ----- Python-level access (Fractions) -----------------------------------
    def _frac(self, cx: _Context, s: int, num: int) -> Fraction:
        return Fraction(num, cx.FF[self.ncards[s]])

    def hand_values(self, s: int) -> tuple:
        """Joint stand, hit (None at 21) and double values of unsplit hand s as Fractions."""
        cx = self.ctx0
        st = self._frac(cx, s, self.stand(cx, s))
        ht = self._frac(cx, s, self.hit(cx, s, _OPTIMAL)) if self.total[s] < 21 else None
        db = self._frac(cx, s, self.double_down(cx, s))
        return st, ht, db

    def may_double(self, s: int) -> bool:
        return self.can_double(self.ctx0, s)

    def split_hand_values(self, pair: int, extra: int, mode: int, one_card: bool) -> list:
        """Joint values of split hand {pair, r} per second card r in context (pair, extra); None where impossible."""
        if not (0 <= pair < N_RANKS and 1 <= extra <= 3 and 0 <= mode < 3):
            raise ValueError("split context out of range")
        cx = self.context(pair, extra)
        start = self.nxt[0][pair]
        d = self.deck(cx, start)
        out = []
        for r in range(N_RANKS):
            t = self.nxt[start][r]
            if d[r] <= 0 or t < 0:
                out.append(None)
            else:
                num = self.stand(cx, t) if one_card else self.after_card(cx, t, mode)
                out.append(self._frac(cx, t, num))
        return out

    def dealer_probabilities(self, s: int) -> tuple:
        """Dealer outcome probabilities (joint units) for unsplit hand s, as Fractions."""
        d = self.deck(self.ctx0, s)
        den = self.poly.denominator(sum(d))
        return tuple(Fraction(a, den) for a in self.dealer(self.ctx0, s))

    def tie_records(self, split_strategy: str) -> list[dict]:
        """Exact ties in the decisions this split strategy makes (see ``ExactGame.round``)."""
        mode = _mode(split_strategy)
        out = []
        for (kind, index, s, may_double), actions in sorted(self.ties.items()):
            extra = 0 if index == 0 else (index - 1) % 3 + 1
            if kind == _OPTIMAL:
                own = index == 0 or mode == _OPTIMAL or (mode == _CDP1 and extra == 1)
            else:
                own = kind == mode
            if not own:
                continue                         # a decision another split strategy makes
            if index == 0:
                context = "unsplit" if kind == _OPTIMAL else "split hand playing as unsplit"
            else:
                context = f"split {RANK_SYMBOLS[(index - 1) // 3]}" + (f" (+{extra - 1} resplit)" if extra > 1 else "")
            out.append({"up": RANK_SYMBOLS[self.up], "hand": format_hand(self.hands[s]), "context": context,
                        "actions": list(actions)})
        return out


# ----- results --------------------------------------------------------------
@dataclass
class ExactRoundResult(RoundResult):
    """:class:`ev.engine.RoundResult` with Fraction values and the exact ties met."""

    ties: list = field(default_factory=list)

    @property
    def rtp_initial(self) -> Fraction:
        return 1 + self.ev


@dataclass
class ExactHandResult(HandResult):
    """:class:`ev.engine.HandResult` with Fraction values; ``ties`` lists exact ties at this decision."""

    ties: list = field(default_factory=list)

    def as_dict(self) -> dict:
        out = super().as_dict()
        out["ties"] = self.ties
        return out


# ----- the game -------------------------------------------------------------
class ExactGame:
    """One rule set, optionally with cards removed from the shoe; every value an exact Fraction."""

    def __init__(self, rules: Rules | None = None, removed: Sequence[int] = (0,) * N_RANKS) -> None:
        self.rules = rules or Rules()
        if self.rules.decks > MAX_EXACT_DECKS:
            raise EngineError(f"exact mode supports 1 to {MAX_EXACT_DECKS} decks "
                              f"(got {self.rules.decks}); use the float engine for more")
        self.caps = full_shoe(self.rules.decks)
        self.shoe = subtract(self.caps, removed, "removed cards")
        self.graph = tables.hand_graph(self.caps)
        self._solvers: dict[int, ExactUpcardSolver] = {}

    # ----- core access ----------------------------------------------------
    def settled_blackjack_rank(self, up: int) -> int:
        return tables.blackjack_rank(up) if self.rules.blackjack_settled_as_peek(up) else -1

    def _poly(self, up: int, excluded: int) -> _DealerPoly:
        caps = subtract(self.caps, composition_of([up]))
        return dealer_poly(up, self.rules.hit_soft_17, excluded, caps)

    def solver(self, up: int) -> ExactUpcardSolver:
        if up not in self._solvers:
            base = subtract(self.shoe, composition_of([up]), "up card")
            excluded = self.settled_blackjack_rank(up)
            r = self.rules
            lo, hi = {"any": (0, 21), "9-11": (9, 11), "10-11": (10, 11)}[r.double]
            self._solvers[up] = ExactUpcardSolver(up, base, self._poly(up, excluded), self.graph, excluded,
                                                  lo, hi, r.double_soft, r.double_after_split)
        return self._solvers[up]

    def state(self, hand: Sequence[int]) -> int:
        try:
            return self.graph["index"][tuple(hand)]
        except KeyError:
            raise CardError("impossible hand for this shoe") from None

    def work(self) -> dict:
        """Size of the work done so far: hand states valued (unsplit and split contexts), dealer evaluations."""
        unsplit = split = dealer = 0
        for solver in self._solvers.values():
            for index, cx in solver._contexts.items():
                valued = sum(1 for v in cx.stand if v is not None)
                if index == 0:
                    unsplit += valued
                else:
                    split += valued
                dealer += sum(1 for v in cx.dealer if v is not None)
        return {"unsplit_hand_states": unsplit, "split_hand_states": split, "dealer_evaluations": dealer}

    # ----- dealer ---------------------------------------------------------
    def dealer_probabilities(self, up: int, known: Sequence[int] = (0,) * N_RANKS,
                             conditioned: bool = True) -> dict[str, Fraction]:
        """Exact dealer outcome probabilities (as ``Game.dealer_probabilities``); they sum to exactly 1."""
        deck = subtract(self.shoe, composition_of([up]), "up card")
        deck = subtract(deck, known, "known cards")
        n = sum(deck)
        excluded = self.settled_blackjack_rank(up) if conditioned else -1
        if n == 0:
            raise EngineError("no cards left in the shoe")
        if excluded >= 0 and deck[excluded] == n:
            raise EngineError("the dealer must have blackjack with these cards")
        poly = self._poly(up, excluded)
        den = poly.denominator(n)
        probs = [Fraction(a, den) for a in poly.numerators(deck, n)]
        total = sum(probs, ZERO)
        expected = 1 - (Fraction(deck[excluded], n) if excluded >= 0 else ZERO)
        if total != expected:
            raise EngineError("the unseen deck runs out before the dealer can finish")
        return {k: p / total for k, p in zip(DEALER_OUTCOMES, probs)}

    # ----- one hand -------------------------------------------------------
    def hand(self, faces: Sequence[str], up: int, split_strategy: str = "cdz") -> ExactHandResult:
        """Exact EV of every decision for a hand against ``up`` (as ``Game.hand``)."""
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
        p_bj = Fraction(deck[bj_rank], n) if bj_rank >= 0 else ZERO
        settled = self.settled_blackjack_rank(up) >= 0
        mass = 1 - p_bj if settled else ONE
        if mass <= 0:
            raise EngineError("the dealer must have blackjack with these cards")
        self._check_deck_lasts(solver, s)
        res = ExactHandResult(hand="-".join(faces), up=RANK_SYMBOLS[up], split_strategy=split_strategy,
                              conditioned=settled, p_dealer_blackjack=p_bj)
        natural = len(ranks) == 2 and total == 21
        if up == ACE and r.insurance and not natural:
            res.insurance = Fraction(1, 2) * (3 * p_bj - 1)
            if res.insurance == 0:
                res.ties.append(_tie(up, hand, ["decline insurance", "insurance"]))
        if natural:
            res.stand = r.payout * (1 - p_bj) / mass
            res.blackjack_declined = r.payout * (1 - p_bj)
            if up == ACE and r.even_money:
                res.even_money = ONE
                if res.blackjack_declined == 1:
                    res.ties.append(_tie(up, hand, ["decline even money", "even_money"]))
            res.best = "even_money" if res.even_money is not None and 1 > res.blackjack_declined else "stand"
            return res
        values = self._play_values(solver, s, hand, len(ranks) == 2 and self._splittable(faces), mode, deck)
        for action, v in values.items():
            setattr(res, action, v / mass)
        res.best = max(values, key=values.get)
        tied = _tied(values)
        if tied:
            res.ties.append(_tie(up, hand, tied))
        return res

    def _splittable(self, faces: Sequence[str]) -> bool:
        if faces[0] in TEN_FACES and faces[1] in TEN_FACES:
            return self.rules.split_tens == "value" or faces[0] == faces[1]
        return faces[0] == faces[1]

    def _check_deck_lasts(self, solver: ExactUpcardSolver, s: int) -> None:
        probs = solver.dealer_probabilities(s)
        deck = solver.deck(solver.ctx0, s)
        excluded = self.settled_blackjack_rank(solver.up)
        expected = 1 - (Fraction(deck[excluded], sum(deck)) if excluded >= 0 else ZERO)
        if sum(probs, ZERO) != expected:
            raise EngineError("the unseen deck runs out before the dealer can finish")

    def _play_values(self, solver: ExactUpcardSolver, s: int, hand: tuple, may_split: bool, mode: int,
                     deck: Sequence[int]) -> dict[str, Fraction]:
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

    def split_value(self, solver: ExactUpcardSolver, pair: int, mode: int) -> Fraction:
        """Exact joint EV of splitting a pair of rank ``pair`` (see ``ev.engine.Game.split_value``)."""
        r = self.rules
        one_card = pair == ACE and r.split_aces_one_card
        may_resplit = r.max_split_hands > 2 and (pair != ACE or r.resplit_aces)
        deck = subtract(self.shoe, composition_of([solver.up]))
        same_rank = 4 * r.decks if (pair == TEN and r.split_tens == "rank") else None
        return resplit_value(deck, pair, r.max_split_hands if may_resplit else 2, same_rank,
                             lambda extra: solver.split_hand_values(pair, extra, mode, one_card))

    def _surrender(self, up: int, deck: Sequence[int]) -> Fraction:
        bj_rank = tables.blackjack_rank(up)
        p_bj = Fraction(deck[bj_rank], sum(deck)) if bj_rank >= 0 else ZERO
        if self.settled_blackjack_rank(up) >= 0:
            return -Fraction(1, 2) * (1 - p_bj)
        return -Fraction(1, 2) * (1 - p_bj) - p_bj

    # ----- a whole round --------------------------------------------------
    def round(self, split_strategy: str = "cdz") -> ExactRoundResult:
        """Exact EV of a round under optimal composition-dependent play (as ``Game.round``).

        ``ties`` lists every exact tie in a decision this strategy makes: at the
        initial deal (play actions, insurance at EV 0, even money at EV equal
        to the declined blackjack) and in play (stand, hit, double at every hand
        state the recursion decides, unsplit and, for CDP1/CDP, split).
        """
        mode = _mode(split_strategy)
        r = self.rules
        shoe = self.shoe
        n_shoe = sum(shoe)
        deals: list[Deal] = []
        ev_by_up: dict[str, Fraction] = {}
        p_up: dict[str, Fraction] = {}
        ties: list[dict] = []
        same_ten = self._same_ten_rank_probability()
        for up in range(N_RANKS):
            if not shoe[up]:
                continue
            solver = self.solver(up)
            base = subtract(shoe, composition_of([up]))
            n = sum(base)
            bj_rank = tables.blackjack_rank(up)
            settled = self.settled_blackjack_rank(up) >= 0
            split_v: dict[int, Fraction] = {}
            up_ev = ZERO
            for c1 in range(N_RANKS):
                for c2 in range(c1, N_RANKS):
                    if c1 == c2:
                        p = Fraction(base[c1] * (base[c1] - 1), n * (n - 1))
                    else:
                        p = Fraction(2 * base[c1] * base[c2], n * (n - 1))
                    if p <= 0:
                        continue
                    hand = composition_of([c1, c2])
                    deck = subtract(base, hand)
                    p_bj = Fraction(deck[bj_rank], sum(deck)) if bj_rank >= 0 else ZERO
                    offered = up == ACE and r.insurance
                    if {c1, c2} == {ACE, TEN}:
                        declined = r.payout * (1 - p_bj)
                        take = up == ACE and r.even_money and 1 > declined
                        if up == ACE and r.even_money and declined == 1:
                            ties.append(_tie(up, hand, ["decline even money", "even_money"]))
                        value = ONE if take else declined
                        deals.append(Deal(up, (c1, c2), p, p_bj, {}, "blackjack", None, take, value))
                        up_ev += p * value
                        continue
                    s = self.state(hand)
                    values = self._play_values(solver, s, hand, False, mode, deck)
                    if c1 == c2 and r.max_split_hands >= 2:
                        if c1 not in split_v:
                            split_v[c1] = self.split_value(solver, c1, mode)
                        values["split"] = split_v[c1]
                    insurance = Fraction(1, 2) * (3 * p_bj - 1) if offered else None
                    take = insurance is not None and insurance > 0
                    if insurance == 0:
                        ties.append(_tie(up, hand, ["decline insurance", "insurance"]))
                    value = (insurance if take else ZERO) - (p_bj if settled else ZERO)
                    best = max(values, key=values.get)
                    tied = _tied(values)
                    if tied:
                        ties.append(_tie(up, hand, tied))
                    share = same_ten if (c1 == c2 == TEN) else ONE
                    if share < 1 and best == "split":
                        plain = {k: v for k, v in values.items() if k != "split"}
                        tied = _tied(plain)
                        if tied:
                            ties.append(_tie(up, hand, tied, "ten ranks differ: no split"))
                        value += share * values["split"] + (1 - share) * max(plain.values())
                    else:
                        value += values[best]
                    deals.append(Deal(up, (c1, c2), p, p_bj, values, best, insurance, take, value, share))
                    up_ev += p * value
            ev_by_up[RANK_SYMBOLS[up]] = up_ev
            p_up[RANK_SYMBOLS[up]] = Fraction(shoe[up], n_shoe)
            ties.extend(solver.tie_records(split_strategy))
        ev = sum((p_up[k] * v for k, v in ev_by_up.items()), ZERO)
        return ExactRoundResult(r, split_strategy, ev, ev_by_up, p_up, deals, ties)

    def _same_ten_rank_probability(self) -> Fraction:
        if self.rules.split_tens == "value":
            return ONE
        per_rank = 4 * self.rules.decks
        return Fraction(per_rank - 1, 16 * self.rules.decks - 1)


def _tied(values: dict) -> list[str]:
    """The actions sharing the best value, in preference order, when there are two or more."""
    best = max(values.values())
    tied = [k for k in values if values[k] == best]
    return tied if len(tied) > 1 else []


def _tie(up: int, hand: Sequence[int], actions: list[str], context: str = "initial deal") -> dict:
    return {"up": RANK_SYMBOLS[up], "hand": format_hand(hand), "context": context, "actions": list(actions)}


def resplit_value(deck: Sequence[int], pair: int, max_hands: int, same_rank: int | None,
                  hand_values) -> Fraction:
    """:func:`ev.engine.resplit_value` in Fractions: the same approximation, the same code."""
    return engine_resplit_value(deck, pair, max_hands, same_rank, hand_values, ratio=Fraction)


# ----- wager accounting and the outcome distribution ------------------------
# The exact twin of ev.accounting (same definitions; see its docstring).  Hand
# distributions are held as integer numerators over the context's per-size
# denominators, like the values; the one-split joint distribution of both hands
# against the same dealer hand is computed from each hand's final multisets
# with their numbers of drawing orders: P(c1, c2, dealer M) depends on the deck
# only through the multiset c1 + c2 + M, so pairs of finals are merged by their
# union before the dealer is evaluated once per union.
_STAND, _HIT, _DOUBLE, _SPLIT, _SURRENDER = 0, 1, 2, 3, 4
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
    """A fixed strategy's exact outcome distributions for one up card (the twin of ``ev._policy``).

    ``play_code(s)``: the action at unsplit hand s after a hit (three or more
    cards); ``split_code(pair, s)``: the action at split hand s.  Codes are
    those of ``ev.strategy`` (0 stand, 1 hit, 2 double).
    """

    def __init__(self, solver: ExactUpcardSolver, natural_rank: int, play_code, split_code) -> None:
        self.solver = solver
        self.natural = natural_rank
        self.settled = solver.bj >= 0
        self.play_code, self.split_code = play_code, split_code
        self._memo: dict = {}
        self._omemo: dict = {}
        self._dealer_cache: dict = {}
        #: work done by split_distribution: pairs of finals merged, distinct unions, dealer evaluations
        self.work = {"split_rounds": 0, "final_pairs": 0, "unions": 0, "split_dealer_evaluations": 0}

    # ----- one hand (numerators over the context's denominators) -------------
    def _stand_cells(self, cx: _Context, s: int, doubled: int, weight: int, out: list) -> None:
        sol = self.solver
        a = sol.dealer(cx, s)
        w = weight * cx.scale[sol.ncards[s]]
        cells = _STAND_CELLS[sol.total[s], doubled]
        for o in range(7):
            if a[o]:
                out[cells[o]] += w * a[o]

    def _bust_cells(self, cx: _Context, c: int, d: tuple, n: int, r: int, doubled: int, weight: int,
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

    def _act(self, cx: _Context, s: int, code: int) -> list:
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

    def _dist(self, cx: _Context, s: int) -> list:
        """Hand s, which has just received a card, played on by the strategy."""
        key = (cx.index, s)
        v = self._memo.get(key)
        if v is None:
            if self.solver.total[s] == 21:
                code = _STAND
            else:
                code = self.play_code(s) if cx.index == 0 else self.split_code(cx.pair, s)
            v = self._memo[key] = self._act(cx, s, code)
        return v

    def _fractions(self, cx: _Context, s: int, cells: list) -> dict:
        den = cx.FF[self.solver.ncards[s]]
        return {(k // 10, (k // 5) % 2, k % 5 - 2): Fraction(v, den) for k, v in enumerate(cells) if v}

    def hand_distribution(self, s: int, action: int) -> dict:
        """Joint distribution {(doubled, dealer_blackjack, result): mass} of unsplit hand s, first action given."""
        cx = self.solver.ctx0
        return self._fractions(cx, s, self._act(cx, s, action))

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
    def _outcome_stand(self, cx: _Context, s: int, doubled: int, weight: int, out: list) -> None:
        sol = self.solver
        a = sol.dealer(cx, s)
        w = weight * cx.scale[sol.ncards[s]]
        total, bet = sol.total[s], 1 + doubled
        for o in range(7):
            if a[o]:
                out[doubled * 35 + o * 5 + _result_of(total, bet, o) + 2] += w * a[o]

    def _live(self, cx: _Context, c: int, d: tuple, n: int, r: int) -> int:
        """P(no settled dealer blackjack) after drawing r, as a numerator over FF[c + 1]."""
        if self.settled and c + 2 <= cx.C:
            bj = self.solver.bj
            return (n - 1 - d[bj] + (r == bj)) * cx.FF[c + 2]
        return cx.FF[c + 1]

    def _odist(self, cx: _Context, s: int) -> tuple[list, int]:
        """(V, Q): split hand s's cells (doubled, dealer outcome, result) are V / (FF[c] * Q).

        A bust loses the bet and spreads the dealer's outcome as for the hand
        before the busting card (ev._policy's approximation for resplit rounds),
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
            a = self._dealer_cache.get(rest)
            if a is None:
                a = self._dealer_cache[rest] = sol.poly.numerators(rest, n0 - size)
                self.work["split_dealer_evaluations"] += 1
            cells = numerators[size + min(sol.poly.max_len, n0 - size)]
            for tpair, w in items:
                ww = w * weight
                split_cells = _SPLIT_CELL[tpair]
                for o in range(7):
                    if a[o]:
                        cells[split_cells[o]] += ww * a[o]
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


@dataclass
class ExactRoundStats:
    """Exact figures of a round played by one strategy (the twin of ``ev.accounting.RoundStats``).

    Every probability, the EV, E[W], both RTPs, the distribution, the variance
    and the third central moment are Fractions; ``sd`` and ``skewness`` are
    irrational in general and are given as :class:`decimal.Decimal` (40 digits).
    """

    rules: Rules
    strategy: str
    split_strategy: str
    ev: Fraction
    expected_wager: Fraction
    p_double: Fraction
    p_split: Fraction
    p_insurance: Fraction
    p_even_money: Fraction
    p_player_blackjack: Fraction
    p_dealer_blackjack: Fraction
    distribution: dict
    ev_by_upcard: dict = field(default_factory=dict)
    ties: list = field(default_factory=list)
    work: dict = field(default_factory=dict)   # size of the split-distribution work (see ExactPolicyEvaluator)

    @property
    def rtp_initial(self) -> Fraction:
        return 1 + self.ev

    @property
    def rtp_total_wagered(self) -> Fraction:
        return (self.expected_wager + self.ev) / self.expected_wager

    @property
    def mean(self) -> Fraction:
        return sum((x * p for x, p in self.distribution.items()), ZERO)

    @property
    def variance(self) -> Fraction:
        m = self.mean
        return sum(((x - m) ** 2 * p for x, p in self.distribution.items()), ZERO)

    @property
    def third_moment(self) -> Fraction:
        """E[(X - mean)^3], exact."""
        m = self.mean
        return sum(((x - m) ** 3 * p for x, p in self.distribution.items()), ZERO)

    @property
    def sd(self) -> Decimal:
        return _sqrt(self.variance)

    @property
    def skewness(self) -> Decimal:
        ctx = Context(prec=40)
        var = self.variance
        return ctx.divide(ctx.divide(Decimal(self.third_moment.numerator), Decimal(self.third_moment.denominator)),
                          ctx.multiply(_sqrt(var), ctx.divide(Decimal(var.numerator), Decimal(var.denominator))))

    @property
    def p_win(self) -> Fraction:
        return sum((p for x, p in self.distribution.items() if x > 0), ZERO)

    @property
    def p_push(self) -> Fraction:
        return sum((p for x, p in self.distribution.items() if x == 0), ZERO)

    @property
    def p_loss(self) -> Fraction:
        return sum((p for x, p in self.distribution.items() if x < 0), ZERO)

    @property
    def hit_frequency(self) -> Fraction:
        return self.p_win

    def as_dict(self) -> dict:
        """Exact values (Fractions; Decimals for sd and skewness), keyed as ``RoundStats.as_dict``."""
        return {
            "ev": self.ev, "rtp_initial": self.rtp_initial, "rtp_total_wagered": self.rtp_total_wagered,
            "expected_total_wager": self.expected_wager,
            "p_double": self.p_double, "p_split": self.p_split, "p_insurance": self.p_insurance,
            "p_even_money": self.p_even_money, "p_player_blackjack": self.p_player_blackjack,
            "p_dealer_blackjack": self.p_dealer_blackjack,
            "p_win": self.p_win, "p_push": self.p_push, "p_loss": self.p_loss,
            "distribution": {net_text(x): p for x, p in sorted(self.distribution.items())},
            "sd": self.sd, "variance": self.variance, "skewness": self.skewness,
            "hit_frequency": self.hit_frequency,
            "strategy": self.strategy, "split_strategy": self.split_strategy,
        }


def _sqrt(x: Fraction) -> Decimal:
    ctx = Context(prec=40)
    return ctx.sqrt(ctx.divide(Decimal(x.numerator), Decimal(x.denominator)))


def net_text(x: Fraction) -> str:
    """A net result as a short decimal string: -2, 1.5, 0.2 (results are multiples of 1/10)."""
    text = decimal_text(x, 20)
    return text.rstrip("0").rstrip(".") if "." in text else text


class _ExactTally:
    def __init__(self) -> None:
        self.dist: dict = defaultdict(Fraction)
        self.wager = ZERO
        self.p_double = self.p_split = self.p_insurance = self.p_even_money = ZERO
        self.p_player_bj = self.p_dealer_bj = ZERO

    def add(self, mass: Fraction, net: Fraction, stake: Fraction) -> None:
        if mass:
            self.dist[net] += mass
            self.wager += mass * stake


def round_stats_exact(game: "ExactGame", strategy="cdz") -> ExactRoundStats:
    """Exact wager accounting and outcome distribution of a round (the twin of ``ev.accounting.round_stats``).

    ``strategy``: a split strategy name (optimal composition-dependent play as
    ``ExactGame.round`` plays it, exact decisions and tie-breaks included, so
    that with one split the distribution's mean is exactly the round EV), or an
    ``ev.strategy.StrategyTable`` to follow.
    """
    rules = game.rules
    if isinstance(strategy, str):
        split_strategy = strategy
        mode = _mode(split_strategy)
        result = game.round(split_strategy)
        name = f"optimal composition-dependent ({split_strategy})"
        deals = {(d.up, d.cards): d for d in result.deals}
        ties = result.ties
        table = None
    else:
        table, split_strategy, name, mode, deals, ties = strategy, "table", strategy.name, None, {}, []
        table.validate()
    half = Fraction(1, 2)
    tally = _ExactTally()
    work: dict = {}
    shoe = game.shoe
    n_shoe = sum(shoe)
    by_up: dict = {}
    same_ten = game._same_ten_rank_probability()
    for up in range(N_RANKS):
        if not shoe[up]:
            continue
        p_up = Fraction(shoe[up], n_shoe)
        t = _ExactTally()
        solver = game.solver(up)
        if table is None:
            ctx0 = solver.ctx0
            split_src = {}

            def play_code(s, solver=solver, ctx0=ctx0):
                return solver.choice(ctx0, s, solver.can_double(ctx0, s), _OPTIMAL)

            def split_code(pair, s, solver=solver, ctx0=ctx0, split_src=split_src):
                cx = split_src.get(pair)
                if cx is None:
                    cx = split_src[pair] = solver.context(pair, 1)
                may = solver.can_double(cx, s)
                if mode == _CDZ:
                    return solver.choice(ctx0, s, may, _CDZ)
                return solver.choice(cx, s, may, _OPTIMAL)
        else:
            play_codes, split_codes = table.play[up], table.split_play[up]

            def play_code(s, play_codes=play_codes):
                return play_codes[s]

            def split_code(pair, s, split_codes=split_codes):
                return split_codes[s]
        evaluator = ExactPolicyEvaluator(solver, tables.blackjack_rank(up), play_code, split_code)
        _upcard_exact(game, up, evaluator, table, deals, same_ten, half, t)
        for k, v in evaluator.work.items():
            work[k] = work.get(k, 0) + v
        by_up[RANK_SYMBOLS[up]] = sum((x * p for x, p in t.dist.items()), ZERO)
        for x, p in t.dist.items():
            tally.dist[x] += p_up * p
        tally.wager += p_up * t.wager
        for attr in ("p_double", "p_split", "p_insurance", "p_even_money", "p_player_bj", "p_dealer_bj"):
            setattr(tally, attr, getattr(tally, attr) + p_up * getattr(t, attr))
    dist = {x: p for x, p in sorted(tally.dist.items()) if p > 0}
    ev = sum((x * p for x, p in dist.items()), ZERO)
    return ExactRoundStats(rules, name, split_strategy, ev, tally.wager, tally.p_double, tally.p_split,
                           tally.p_insurance, tally.p_even_money, tally.p_player_bj, tally.p_dealer_bj, dist,
                           by_up, ties, work)


def _upcard_exact(game: "ExactGame", up: int, evaluator: ExactPolicyEvaluator, table, deals: dict,
                  same_ten: Fraction, half: Fraction, tally: _ExactTally) -> None:
    from ev.analysis.strategy import ACTION_NAMES
    rules = game.rules
    base = subtract(game.shoe, composition_of([up]))
    n = sum(base)
    natural_card = tables.blackjack_rank(up)
    settled = game.settled_blackjack_rank(up) >= 0
    codes = {name: code for code, name in enumerate(ACTION_NAMES)}
    for c1 in range(N_RANKS):
        for c2 in range(c1, N_RANKS):
            if c1 == c2:
                p = Fraction(base[c1] * (base[c1] - 1), n * (n - 1))
            else:
                p = Fraction(2 * base[c1] * base[c2], n * (n - 1))
            if p <= 0:
                continue
            hand = composition_of([c1, c2])
            deck = subtract(base, hand)
            p_bj = Fraction(deck[natural_card], sum(deck)) if natural_card >= 0 else ZERO
            tally.p_dealer_bj += p * p_bj
            deal = deals.get((up, (c1, c2)))
            if {c1, c2} == {ACE, TEN}:
                tally.p_player_bj += p
                even_money = deal.take_insurance if deal is not None else (
                    up == ACE and rules.even_money and table.even_money)
                if even_money:
                    tally.p_even_money += p
                    tally.add(p, ONE, Fraction(3, 2))
                else:
                    tally.add(p * p_bj, ZERO, ONE)
                    tally.add(p * (1 - p_bj), rules.payout, ONE)
                continue
            s = game.state(hand)
            if deal is not None:
                insured = deal.take_insurance
                action = codes[deal.best]
                fallback = action
                if action == _SPLIT and deal.split_probability < 1:
                    plain = {k: v for k, v in deal.values.items() if k != "split"}
                    fallback = codes[max(plain, key=plain.get)]
            else:
                insured = up == ACE and rules.insurance and bool(table.insurance[s])
                action, fallback = table.play[up][s], table.fallback[up][s]
            if insured:
                tally.p_insurance += p
            ins_stake = half if insured else ZERO
            if settled and p_bj:
                tally.add(p * p_bj, -1 + (1 if insured else 0), 1 + ins_stake)
            plays = [(ONE, action)]
            if action == _SPLIT and c1 == c2 == TEN and same_ten < 1:
                plays = [(same_ten, _SPLIT), (1 - same_ten, fallback)]
            for share, act in plays:
                for (doubles, bj, net), mass, stake in _play_cells_exact(game, evaluator, act, s, c1, p_bj,
                                                                        settled):
                    w = p * share * mass
                    ins = (ONE if bj else -half) if insured else ZERO
                    tally.add(w, net + ins, stake + ins_stake)
                    if doubles:
                        tally.p_double += w
                    if act == _SPLIT:
                        tally.p_split += w


def _play_cells_exact(game: "ExactGame", evaluator: ExactPolicyEvaluator, action: int, s: int, pair: int,
                      p_bj: Fraction, settled: bool):
    rules = game.rules
    if action in (_STAND, _HIT, _DOUBLE):
        for (doubled, bj, result), mass in evaluator.hand_distribution(s, action).items():
            yield (doubled, bj, Fraction(result)), mass, ONE + doubled
    elif action == _SURRENDER:
        yield (0, 0, -Fraction(1, 2)), 1 - p_bj, ONE
        if not settled and p_bj:
            yield (0, 1, -ONE), p_bj, ONE
    elif action == _SPLIT:
        one_card = pair == ACE and rules.split_aces_one_card
        may_resplit = rules.max_split_hands > 2 and (pair != ACE or rules.resplit_aces)
        cells = evaluator.split_distribution(pair, one_card)
        if may_resplit:
            for (doubles, bj, net, hands), mass in _resplit_cells_exact(game, evaluator, pair, one_card,
                                                                        cells).items():
                yield (doubles, bj, Fraction(net)), mass, hands + doubles
        else:
            for (doubles, bj, net), mass in cells.items():
                yield (doubles, bj, Fraction(net)), mass, 2 + doubles
    else:
        raise EngineError(f"the strategy has no action for hand state {s}")


def _resplit_cells_exact(game: "ExactGame", evaluator: ExactPolicyEvaluator, pair: int, one_card: bool,
                         two_hand_cells: dict) -> dict:
    """``ev.accounting.resplit_cells`` in Fractions: {(doubles, dealer_blackjack, net, hands): mass}."""
    solver = evaluator.solver
    start = solver.nxt[0][pair]
    return resplit_cells(subtract(game.shoe, composition_of([solver.up])), pair, game.rules,
                         sum(two_hand_cells.values(), ZERO),
                         lambda r, extra: evaluator.outcome_distribution(solver.nxt[start][r], pair, extra, one_card),
                         ratio=Fraction)


# ----- the command line (bjev rtp --exact, bjev hand --exact) ---------------
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
JSON_SCHEME = ('every exact value is {"fraction": "p/q" in lowest terms, "decimal": the value rounded half-even '
               'to 20 significant digits}; sd is {"expression": "sqrt(variance)", "decimal"} and skewness '
               '{"expression": "third_moment / variance^(3/2)", "decimal"}')


def _irrational(expression: str, value: Decimal) -> dict:
    return {"expression": expression, "decimal": format(_DEC20.plus(value), "f")}


def _line(label: str, x: Fraction, percent: bool = False) -> str:
    pct = f"   ({decimal_text(100 * x)} %)" if percent else ""
    return f"{label:<28}{fraction_text(x)}\n{'':<28}= {decimal_text(x)}{pct}"


def cli_rtp(rules: Rules, split_strategy: str = "cdz", strategy: str = "optimal") -> tuple[str, dict]:
    """``bjev rtp --exact``: the round EV, both RTPs, the wager accounting and the distribution, as fractions."""
    from tabulate import tabulate
    from ev.analysis.game import SPLIT_STRATEGY_NAMES
    game = ExactGame(rules)
    if strategy == "basic":
        from ev.analysis.basic_strategy import basic_table
        from ev.analysis.game import Game
        stats = round_stats_exact(game, basic_table(Game(rules)))
        result = None
        play = "the basic-strategy chart (total-dependent; see 'bjev chart'), followed exactly"
    else:
        result = game.round(split_strategy)
        stats = round_stats_exact(game, split_strategy)
        play = f"optimal composition-dependent; split hands {SPLIT_STRATEGY_NAMES[split_strategy]}"
    ev = stats.ev if result is None else result.ev
    ev_by_up = stats.ev_by_upcard if result is None else result.ev_by_upcard
    ties = stats.ties if result is None else result.ties
    figures = stats.as_dict()
    data = {
        "exact": True,
        "ev": exact_json(ev), "rtp_initial": exact_json(1 + ev), "house_edge": exact_json(-ev),
        "ev_by_upcard": exact_json(ev_by_up),
        "p_upcard": exact_json({RANK_SYMBOLS[u]: Fraction(game.shoe[u], sum(game.shoe))
                                for u in range(N_RANKS) if game.shoe[u]}),
        **{k: exact_json(v) for k, v in figures.items()
           if k not in ("ev", "rtp_initial", "strategy", "split_strategy", "sd", "skewness")},
        "sd": _irrational("sqrt(variance)", stats.sd),
        "skewness": _irrational("third_moment / variance^(3/2)", stats.skewness),
        "third_moment": exact_json(stats.third_moment),
        "strategy": stats.strategy,
        "split_strategy": split_strategy if result is not None else "table",
        "ties": ties,
        "tie_break": "stand, hit, double, split, surrender; insurance and even money only when strictly better",
        "units": "initial bets per round; ev_by_upcard includes initial bets lost to dealer blackjacks",
        "json_scheme": JSON_SCHEME,
        "rules": rules.as_dict(),
    }
    dist_rows = [[net_text(x), fraction_text(p), decimal_text(p)] for x, p in sorted(stats.distribution.items())]
    up_rows = [[RANK_SYMBOLS[u], fraction_text(Fraction(game.shoe[u], sum(game.shoe))), fraction_text(ev_by_up[k]),
                decimal_text(ev_by_up[k])]
               for u in UP_ORDER for k in [RANK_SYMBOLS[u]] if k in ev_by_up]
    tie_text = ("none: every decision has a unique best action" if not ties else
                "; ".join(f"{t['hand']} vs {t['up']} ({t['context']}): {' = '.join(t['actions'])}" for t in ties))
    text = "\n".join([
        f"Rules: {rules.summary()}",
        f"Play: {play}",
        "Exact rational mode: fractions in lowest terms, then the decimal rounded to 20 significant digits",
        "",
        _line("EV per initial bet", ev, True),
        _line("RTP per initial bet", 1 + ev, True),
        _line("RTP per total wagered", stats.rtp_total_wagered, True),
        _line("Expected total stake E[W]", stats.expected_wager),
        _line("P(double)", stats.p_double),
        _line("P(split)", stats.p_split),
        _line("P(insurance)", stats.p_insurance),
        _line("P(even money)", stats.p_even_money),
        _line("P(player blackjack)", stats.p_player_blackjack),
        _line("P(dealer blackjack)", stats.p_dealer_blackjack),
        _line("P(win) = hit frequency", stats.p_win),
        _line("P(push)", stats.p_push),
        _line("P(loss)", stats.p_loss),
        _line("Variance", stats.variance),
        f"{'SD = sqrt(variance)':<28}{format(_DEC20.plus(stats.sd), 'f')}",
        f"{'Skewness':<28}{format(_DEC20.plus(stats.skewness), 'f')}",
        "",
        "Net result of a round (initial bets) and its exact probability",
        tabulate(dist_rows, headers=["net", "probability", "decimal"], colalign=("right", "right", "right"),
                 disable_numparse=True),
        "",
        "EV by up card (unconditioned: includes the initial bet lost to a dealer blackjack)",
        tabulate(up_rows, headers=["up", "P(up)", "EV", "decimal"], colalign=("left", "right", "right", "right"),
                 disable_numparse=True),
        "",
        f"Exact ties (broken as stand, hit, double, split, surrender): {tie_text}",
    ])
    return text, data


def cli_hand(rules: Rules, removed: Sequence[int], faces: Sequence[str], up: int,
             split_strategy: str = "cdz") -> tuple[str, dict]:
    """``bjev hand --exact``: every decision's EV as a fraction and its decimal."""
    from tabulate import tabulate
    from ev.analysis.game import SPLIT_STRATEGY_NAMES
    result = ExactGame(rules, removed).hand(faces, up, split_strategy)
    data = result.as_dict()
    for key in ("stand", "hit", "double", "split", "surrender", "insurance", "even_money", "p_dealer_blackjack"):
        data[key] = exact_json(data[key])
    data.update({"exact": True, "json_scheme": JSON_SCHEME, "rules": rules.as_dict()})
    actions = ("stand", "hit", "double", "split", "surrender", "insurance", "even_money")
    rows = [[a, fraction_text(getattr(result, a)), decimal_text(getattr(result, a)),
             "<- best" if a == result.best else ""]
            for a in actions if getattr(result, a) is not None]
    cond = ("conditioned on no dealer blackjack (the dealer has peeked)" if result.conditioned
            else "unconditioned (no blackjack is settled before play)")
    notes = [f"Hand {result.hand} vs {result.up}: exact EV in initial bets, {cond}."]
    if result.split is not None:
        notes.append(f"Split hands: {SPLIT_STRATEGY_NAMES[split_strategy]}.")
    if result.insurance is not None or result.even_money is not None:
        notes.append(f"Insurance / even money are decided before the peek (unconditioned); "
                     f"P(dealer blackjack) = {fraction_text(result.p_dealer_blackjack)}.")
    for t in result.ties:
        notes.append(f"Exact tie: {' = '.join(t['actions'])} (the first is taken).")
    text = (tabulate(rows, headers=["action", "EV", "decimal", ""], colalign=("left", "right", "right", "left"),
                     disable_numparse=True) + "\n" + "\n".join(notes))
    return text, data

__all__ = ["ExactGame", "ExactRoundResult", "ExactHandResult", "ExactUpcardSolver", "ExactRoundStats",
           "ExactPolicyEvaluator", "round_stats_exact", "net_text", "exact_json", "cli_rtp", "cli_hand",
           "exact_text", "fraction_text", "decimal_text", "falling", "dealer_poly", "resplit_value",
           "MAX_EXACT_DECKS", "TIE_ORDER", "SPLIT_STRATEGIES"]
