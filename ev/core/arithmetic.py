"""Two arithmetics for one mathematics: floats (the Cython core) and exact fractions.

``ev.analysis.game.Game`` and ``ev.analysis.accounting`` are written once,
against an :class:`Arithmetic`: it makes numbers (``ratio``, ``zero``,
``one``, ``half``), decides ties (``tie``) and builds the two objects that do
the heavy work for one up card, which meet one interface whatever the
arithmetic:

**Solver** (``ev.core._player.UpcardSolver`` in floats,
``ev.core.exact_solver.ExactUpcardSolver`` in fractions), for the deck the
player's hand is dealt from.  Values are *joint*: when a dealer blackjack is
settled before play, a value is E[result; no dealer blackjack] (divide by
P(no dealer blackjack) to condition it).  ``s`` is a hand-graph state
(``ev.core.shapes.hand_graph``).

* ``up``, ``bj_rank``: the up card; the hole card whose blackjack is settled, or -1.
* ``hand_values(s) -> (stand, hit, double)``: optimal play from unsplit hand s
  (double as if the rules allowed it; hit is missing at 21).
* ``may_double(s)``: may unsplit hand s double under the rules.
* ``split_hand_values(pair, extra, mode, one_card)``: for each second card r,
  the value of the split hand {pair, r} whose deck lacks ``extra`` pair cards
  beyond its own, played by split mode ``mode`` (``ev.core.actions.split_mode``).
* ``dealer_probabilities(s)``: the dealer's 7 outcome probabilities (joint) for hand s.
* ``context_choices(pair, extra, mode) -> bytes``: the stand/hit/double code
  the strategy takes at every state of a play context (``pair`` -1: unsplit;
  in a split context only the states holding a card of the pair, which are
  all a split hand reaches, NO_ACTION elsewhere).
* ``split_choices(mode)``: ``context_choices(pair, 1, mode)`` of every pair,
  concatenated (the exact solver decides each entry only when it is read).
* ``values_table() -> (stand, hit, double)``: the values of every state.
* ``context_stand_values(pair, extra)``: the stand value of every state in a deck
  context (``pair`` -1, ``extra`` 0: unsplit; else a split hand whose deck lacks
  ``extra`` pair cards beyond its own), missing (NaN or None) where no such hand is.
* ``tie_records(split_strategy)``: exact ties met in the decisions (exact only).

**Evaluator** (``ev.core._policy.PolicyEvaluator``,
``ev.core.exact_policy.ExactPolicyEvaluator``): a fixed strategy (bytes of
action codes per state; ten split tables concatenated) on a solver.

* ``hand_distribution(s, first=-1)``: {(doubled, dealer_blackjack, result): mass}.
* ``split_round(pair, one_card, configs, codes_by_context, resplit_cards, faces, type_sets)``:
  {(doubles, dealer_blackjack, net, hands): mass} of a split round, resplits
  included, every hand against the same dealer hand from one deck
  (``ev.analysis.accounting.split_cells`` gives the arguments).
* ``context_distribution(s, pair, extra, one_card)``: a split hand's hand distribution.
* ``context_values(s, pair, extra, one_card)``: its (mean result, mean stake).

**Shared dealer tables.**  A float dealer table (one per up card, dealer rule and
shoe) keeps the outcomes of the decks it has met.  A float game made inside
:func:`shared_dealers` takes its tables from the making thread's own store
(:func:`dealer_store`, passed to ``solver`` and ``dealer``), so that a sweep's
variants (and the rule variants of ``rules-effect``) that differ only in the
player's rules meet each deck once.  The values are the same to the bit: a
deck's outcomes are formed in one order, kept or not.
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Context, Decimal
from fractions import Fraction
from operator import truediv
from typing import Any

from ev.core.rules import Rules

Number = Any   # float or Fraction

#: the dealer tables a thread's store keeps for :func:`shared_dealers`, the most recently used last: at most
#: SHARED_TABLES, two dealer rules and shoes of ten up cards (a table keeps at most 2**18 decks, about 24 MB;
#: the eight variants of one 8-deck dealer rule of benchmarks/bench_commands.py added 28 MB in all)
SHARED_TABLES = 20
_shared = threading.local()


class DealerStore:
    """One thread's dealer tables by (up card, hit soft 17, settled blackjack rank, shoe), at most SHARED_TABLES
    (the least recently used let go first)."""

    def __init__(self) -> None:
        self.tables: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = threading.Lock()     # a game's split searches may make its tables in their threads

    def table(self, key: tuple, make: Callable[[], Any]) -> Any:
        with self._lock:
            table = self.tables.get(key)
            if table is None:
                table = self.tables[key] = make()
                while len(self.tables) > SHARED_TABLES:
                    self.tables.popitem(last=False)
            self.tables.move_to_end(key)
            return table


@contextmanager
def shared_dealers() -> Iterator[None]:
    """Within the block, the float games this thread makes (``ev.analysis.game.Game``) share their dealer tables
    with the games it made in such blocks before (the same up card, dealer rule and shoe: the same table).

    A game's tables are read by the computations made on it: in the thread that made it, and in its own split
    searches (``ev.analysis.optimal_split.prepare``, one up card a thread), which that thread waits for; so no
    table is read by two threads at once.
    """
    before = getattr(_shared, "on", False)
    _shared.on = True
    try:
        yield
    finally:
        _shared.on = before


def dealer_store() -> DealerStore | None:
    """This thread's store of dealer tables inside :func:`shared_dealers`, else None."""
    if not getattr(_shared, "on", False):
        return None
    store = getattr(_shared, "store", None)
    if store is None:
        store = _shared.store = DealerStore()
    return store


class Arithmetic:
    """Numbers of one kind and the solvers that compute in them."""

    name: str
    exact: bool
    zero: Number
    one: Number
    half: Number
    #: values closer than this are a tie (the earlier action is taken)
    tie: Number
    ratio: Callable[[int, int], Number]

    def number(self, x: Fraction) -> Number:
        """A rational constant (e.g. the blackjack payout) in this arithmetic."""
        raise NotImplementedError

    def close(self, a: Number, b: Number) -> bool:
        """Equal up to rounding (for checks that a distribution sums to what it must)."""
        raise NotImplementedError

    def dealer(self, up: int, hit_soft_17: bool, excluded: int, caps: tuple,
               store: DealerStore | None = None) -> Any:
        """The dealer for an up card: ``.probabilities(deck)`` gives its 7 outcome probabilities; ``store``: the
        tables to share (:func:`dealer_store`; floats only)."""
        raise NotImplementedError

    def solver(self, up: int, base: Sequence[int], graph: dict, rules: Rules, caps: tuple,
               store: DealerStore | None = None) -> Any:
        """The solver for one up card and the deck ``base`` the player's hand is dealt from (``store``: as for
        ``dealer``)."""
        raise NotImplementedError

    def evaluator(self, solver: Any, natural_rank: int, play: bytes, split_play: bytes) -> Any:
        raise NotImplementedError

    def sqrt(self, x: Number) -> Number:
        raise NotImplementedError

    def skewness(self, third_moment: Number, variance: Number) -> Number:
        raise NotImplementedError

    def tenths(self, net: Number) -> int:
        """A net result (a multiple of 1/10 of a bet) as an integer number of tenths."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name} arithmetic>"


def _solver_args(up: int, base: Sequence[int], rules: Rules) -> tuple:
    lo, hi = rules.double_totals
    return (up, tuple(base)), (rules.settled_blackjack_rank(up), lo, hi, rules.double_soft,
                               rules.double_after_split)


class FloatArithmetic(Arithmetic):
    """IEEE doubles; the Cython core does the work."""

    name, exact = "float", False
    zero, one, half, tie = 0.0, 1.0, 0.5, 1e-12
    ratio = staticmethod(truediv)

    def number(self, x: Fraction) -> float:
        return float(x)

    def close(self, a: float, b: float) -> bool:
        return abs(a - b) <= 1e-9

    def dealer(self, up: int, hit_soft_17: bool, excluded: int, caps: tuple,
               store: DealerStore | None = None) -> Any:
        from ev.core._dealer import DealerTable

        def make() -> Any:
            return DealerTable(up, hit_soft_17, excluded, tuple(caps))
        if store is None:
            return make()
        return store.table((up, bool(hit_soft_17), excluded, tuple(caps)), make)

    def solver(self, up: int, base: Sequence[int], graph: dict, rules: Rules, caps: tuple,
               store: DealerStore | None = None) -> Any:
        from ev.core._player import UpcardSolver
        (up, base), rest = _solver_args(up, base, rules)
        return UpcardSolver(up, base, self.dealer(up, rules.hit_soft_17, rest[0], caps, store), graph["arrays"],
                            *rest)

    def evaluator(self, solver: Any, natural_rank: int, play: bytes, split_play: bytes) -> Any:
        from ev.core._policy import PolicyEvaluator
        return PolicyEvaluator(solver, natural_rank, bytes(play), bytes(split_play))

    def sqrt(self, x: float) -> float:
        return math.sqrt(x)

    def skewness(self, third_moment: float, variance: float) -> float:
        return third_moment / math.sqrt(variance) ** 3

    def tenths(self, net: float) -> int:
        return round(net * 10)


#: decimals for the irrational figures of the exact arithmetic (the SD and the skewness)
_DECIMAL = Context(prec=40)


class ExactArithmetic(Arithmetic):
    """Exact rationals (``fractions.Fraction``); integers over known denominators inside the solver."""

    name, exact = "exact", True
    zero, one, half, tie = Fraction(0), Fraction(1), Fraction(1, 2), Fraction(0)
    ratio = Fraction

    def number(self, x: Fraction) -> Fraction:
        return Fraction(x)

    def close(self, a: Fraction, b: Fraction) -> bool:
        return a == b

    def dealer(self, up: int, hit_soft_17: bool, excluded: int, caps: tuple,
               store: DealerStore | None = None) -> Any:
        from ev.core.exact_solver import dealer_poly
        return dealer_poly(up, hit_soft_17, excluded, caps)

    def solver(self, up: int, base: Sequence[int], graph: dict, rules: Rules, caps: tuple,
               store: DealerStore | None = None) -> Any:
        from ev.core.exact_solver import ExactUpcardSolver
        (up, base), rest = _solver_args(up, base, rules)
        return ExactUpcardSolver(up, base, self.dealer(up, rules.hit_soft_17, rest[0], caps), graph, *rest)

    def evaluator(self, solver: Any, natural_rank: int, play: bytes, split_play: bytes) -> Any:
        from ev.core.exact_policy import ExactPolicyEvaluator
        return ExactPolicyEvaluator(solver, natural_rank, play, split_play)

    def sqrt(self, x: Fraction) -> Decimal:
        """The square root to 40 significant digits (irrational in general)."""
        return _DECIMAL.sqrt(_DECIMAL.divide(Decimal(x.numerator), Decimal(x.denominator)))

    def skewness(self, third_moment: Fraction, variance: Fraction) -> Decimal:
        ctx = _DECIMAL
        third = ctx.divide(Decimal(third_moment.numerator), Decimal(third_moment.denominator))
        var = ctx.divide(Decimal(variance.numerator), Decimal(variance.denominator))
        return ctx.divide(third, ctx.multiply(self.sqrt(variance), var))

    def tenths(self, net: Fraction) -> int:
        tenths = Fraction(net) * 10
        if tenths.denominator != 1:
            raise ValueError(f"a net result of {net} is not a whole number of tenths of a bet")
        return int(tenths)


FLOAT: Arithmetic = FloatArithmetic()
EXACT: Arithmetic = ExactArithmetic()


def arithmetic(exact: bool) -> Arithmetic:
    return EXACT if exact else FLOAT
