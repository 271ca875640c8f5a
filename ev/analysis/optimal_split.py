"""Truly optimal split play: one split (two hands) and resplits, in both arithmetics.

CDZ-, CDP1 and CDP fix how a split hand is played from its own cards.  Under
*truly optimal* play (split strategy ``"optimal"``) the first hand is played
knowing that a second follows, and the second knowing every card seen, the
first hand's included.  Nothing the second hand decides changes the first
hand's expected result (it never sees the dealer's cards), so the second hand
plays the ordinary optimal strategy for the deck less both pair cards and the
first hand's cards, and the first hand maximises its own result plus the
second hand's value; the Cython core (``ext/ev/core/_optimal_split.pyx``)
states the recursion and does the float work.  Values are joint, as
everywhere; the EV of a split is summed over both hands.

**Exact mode: certify, then evaluate.**  A full search in Python integers
would take ~4·10^8 node visits per deck; instead

1. the float pass finds the strategy of both hands and, at every decision the
   strategy meets, how far the runner-up lies below the best;
2. a decision whose runner-up is within ``NEAR_TIE`` (1e-9, six orders of
   magnitude above the float error) is decided again exactly: the second
   hand's by the exact solver on the deck less the first hand's cards, the
   first hand's by an exact recursion with exact second-hand values; every
   other decision is optimal as it stands;
3. the strategy, optimal at every decision it meets, is evaluated exactly:
   the finals of both hands (the cards drawn and the number of drawing
   orders, merged by the union of both hands' cards) against the exact dealer
   for what is left, in integers (``OptimalSplitter.exact_distribution``).
   That sum is the exact outcome distribution of the split, and its mean the
   exact EV.

**The minimum.**  ``sense`` ``WORST`` searches the mirror image: the legal
play of both split hands of *lowest* EV (the first hand minimises its own
result plus the second hand's worst value; the second plays the worst
single-hand strategy for its deck), in both arithmetics, by the same core
(values turned round at the leaves) and the same certify-then-evaluate exact
path (near ties decided exactly by a plain recursion, :class:`_ExactHand`).
``ev.analysis.strategies`` builds the true minimum of a round from it.

**Resplits** (three or four hands): each hand knows every card seen and how
many hands may still be made, and an arriving pair card is resplit or kept;
the core searches the round's states (``OptimalSplitter.resplit_value``), in
floats, value and stake; its outcome distribution follows the searched play
forward, card by card, every hand settled against the same dealer
(``OptimalSplitter.resplit_distribution``).  *Exact mode* certifies and
evaluates that play the same way as with one split: followed forward counting
each state's drawing orders (integers), its ends summed exactly against the
dealer (``OptimalSplitter.resplit_exact``); a decision within ``NEAR_TIE`` of
its runner-up is decided again exactly where no hand waits (:class:`_LastHand`)
and refused elsewhere, in one message.  Tens split by rank with resplits are
refused (:func:`check_rules`).  The basic-strategy chart measured against this
play works (floats, like the chart of every split strategy), and so does the
report; sweeps refuse it before any work (:func:`refuse_resplits`).  One split works at every deck count (1-8); with
resplits the state table is bounded (1.5 GiB: one or two decks with four
hands, more with three), and so is the play followed forward (2^26 states, about 4 GiB: the one-deck round
resplitting to four hands fits).  :func:`watch` tells a progress bar of each up card
whose searches end.
"""
from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ev.analysis.splits import type_sets
from ev.core.actions import Action
from ev.core.arithmetic import EXACT, FLOAT, Number
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, composition_of, format_hand, hand_total, subtract
from ev.core.rules import Rules
from ev.errors import EngineError

#: the decision source of a second split hand: its own deck context (pair, 1), i.e. the deck less both pair
#: cards and the first hand's cards (the exact solver's ``decide`` argument; 0 would be the unsplit hand's)
_OWN = 1

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ev.analysis.game import Game

# The thread pool and the Cython search are imported where a search starts (:func:`prepare`,
# :func:`_interruptible`, :class:`_Upcard`), so that a command that never searches (``bjev rtp`` under CDZ-)
# does not load them: about a fifth of its imports.

#: the sense of the search: the best play of both split hands (truly optimal), or the worst (the true minimum)
BEST, WORST = 1, -1
#: a decision whose runner-up lies within this of the best (joint units) is decided again exactly
NEAR_TIE = 1e-9
#: a one-split pair's distribution is made with its search where its split value lies within this of the pair
#: hand's best other option (``prepare``'s ``unsplit``): far wider than the tie that decides, so that every split
#: optimal play makes is among them (one it does not make costs a distribution, not a wrong figure)
MAY_SPLIT = 1e-6
#: bits per rank of the packed card multisets of the core
_BITS = 6
_ACTIONS = ("stand", "hit", "double")


def check_rules(rules: Rules, pair: int) -> None:
    """Refuse what the search does not play: ten-valued pairs split by rank that may be resplit (a K-K resplits
    only a K, so the faces of the tens would matter)."""
    if pair == TEN and rules.split_tens == "rank" and rules.split_hands(pair) > 2:
        raise EngineError(
            "truly optimal split play with resplits is computed for tens split by value only (split by rank, a "
            "K-K resplits only a K); use --split-strategy cdz, cdp1 or cdp, or split_tens=value")


def refuse_resplits(rules: Rules, split_strategy: str, what: str) -> None:
    """Refuse, before any work, a command that plays truly optimal split play (``what``: "a sweep variant") on
    rules that let a pair make more than two hands: a variant's searches take minutes even on one deck."""
    if split_strategy == "optimal" and any(rules.split_hands(pair) > 2 for pair in range(N_RANKS)):
        raise EngineError(
            f"{what} under truly optimal split play with resplits (max_split_hands={rules.max_split_hands}) is not "
            "made: its searches take minutes even on one deck (bjev rtp, bjev chart and bjev report make them, "
            "--exact where certified); use --split-strategy cdz, cdp1 or cdp")


def split_value(game: Game, up: int, pair: int, sense: int = BEST) -> Number:
    """Joint EV of splitting a pair of rank ``pair`` against ``up`` (both hands), truly optimal play
    (``sense`` ``WORST``: the lowest EV any legal play of both hands reaches)."""
    return _upcard(game, up).value(pair, sense)


def split_stake(game: Game, up: int, pair: int, sense: int = BEST) -> Number:
    """Expected total stake of splitting ``pair`` against ``up`` under the play of :func:`split_value`: both
    hands' bets and doubles, in joint units (the mean of 2 + doubles over :func:`split_distribution`)."""
    return _upcard(game, up).stake(pair, sense)


def split_distribution(game: Game, up: int, pair: int, sense: int = BEST) -> dict:
    """{(doubles, dealer_blackjack, net): mass} of a one-split round's play under truly optimal play
    (``sense`` ``WORST``: the play of lowest EV); joint units, the stake of the play is 2 + doubles.  Where the
    pair may make three or four hands: {(doubles, dealer_blackjack, net, hands): mass}, floats, the stake
    hands + doubles (``OptimalSplitter.resplit_distribution``)."""
    return _upcard(game, up).distribution(pair, sense)


def prepare(game: Game, threads: int | None = None, sense: int | tuple[int, ...] = BEST,
            distributions: bool = False, unsplit: dict[int, dict[int, Any]] | None = None) -> None:
    """Compute the truly optimal split (``sense`` ``WORST``: the worst; ``(BEST, WORST)``: both, in one pass) of
    every pair against every up card of the game, the up cards in ``threads`` parallel threads (default: one
    per core; the core releases the GIL).

    Each up card's values and stakes are kept, then its dealer memo is freed (most of the memory: up to about 100
    MiB an up card at 8 decks), so that at most ``threads`` memos are held at once.  An outcome distribution asked for
    later regrows the memo with the decks its final unions leave (far fewer than the search's).  (Not computed
    here: the worst play's distributions of one deck take minutes, and only the accounting asks for them.)
    With ``distributions`` (the accounting's call), the pairs that may make three or four hands get their outcome
    distributions here, in the same threads: each such search then runs once, its play followed forward
    before its memo is freed, instead of again when the accounting asks.  ``unsplit`` (floats: up card -> {pair:
    the best value of the pair hand's other options}, ``strategy.unsplit_best``): with ``distributions``, the
    one-split pairs whose split may be the best play (within ``MAY_SPLIT`` of the best other option) get theirs
    here too, read from the memo the search filled (the accounting asks only for the splits the strategy
    makes)."""
    senses = sense if isinstance(sense, tuple) else (sense,)
    engines = [_upcard(game, up) for up in game.upcards()]
    if not game.rules.may_split:
        return
    for engine in engines:          # refuse what the search does not play at once, with one message
        for pair in engine.pairs():
            check_rules(game.rules, pair)
    from concurrent.futures import ThreadPoolExecutor, as_completed
    workers = max(1, min(len(engines), threads or os.cpu_count() or 1))
    pool = ThreadPoolExecutor(max_workers=workers)
    futures = {pool.submit(engine.search_all, senses, distributions, (unsplit or {}).get(engine.up, {})): engine.up
               for engine in engines}
    try:
        for done, future in enumerate(as_completed(futures), 1):
            future.result()
            for callback in _WATCHERS:
                callback(done, len(futures), f"up card {RANK_SYMBOLS[futures[future]]}")
    except BaseException:
        _stop(list(futures))
        raise
    finally:
        pool.shutdown(wait=True)


#: the callbacks of :func:`watch`, told of each up card whose searches :func:`prepare` has finished
_WATCHERS: list[Callable[[int, int, str], None]] = []


@contextmanager
def watch(callback: Callable[[int, int, str], None]) -> Iterator[None]:
    """Within the block, ``callback(done, total, note)`` is called (in the thread that called :func:`prepare`)
    each time one more up card's searches end: ``done`` of the ``total`` up cards of that call, ``note`` which
    one.  A command's progress bar listens here: a search with resplits takes minutes."""
    _WATCHERS.append(callback)
    try:
        yield
    finally:
        _WATCHERS.remove(callback)


def _stop(futures: list[Future]) -> None:
    """After an interrupt (or another error): cancel the searches not started, ask the running ones to return at
    their next state (``request_stop``), and wait for them, so that nothing keeps computing after the command."""
    from concurrent.futures import wait

    from ev.core._optimal_split import request_stop
    for future in futures:
        future.cancel()
    if all(future.done() for future in futures):
        return
    request_stop(True)
    try:
        wait(futures)
    finally:
        request_stop(False)


def _interruptible(call: Any, *args: Any) -> Any:
    """``call(*args)``, a core search that releases the GIL.  In the main thread it runs in a helper thread while
    the main thread waits, so that a signal (Ctrl-C, SIGTERM) interrupts the wait and stops the search (see
    :func:`_stop`) instead of waiting for a search of minutes to end."""
    if threading.current_thread() is not threading.main_thread():
        return call(*args)
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(call, *args)
    try:
        return future.result()
    except BaseException:
        _stop([future])
        raise
    finally:
        pool.shutdown(wait=True)


def tie_records(game: Game, up: int, sense: int = BEST) -> list[dict]:
    """Exact ties met while deciding the near ties of the split hands (exact arithmetic only)."""
    return list(_upcard(game, up).ties[sense])


def work(game: Game) -> dict[str, int]:
    """Size of the work done so far for this game (see ``OptimalSplitter.work``), summed over up cards."""
    total: dict[str, int] = defaultdict(int)
    for engine in _ENGINES.get(game, {}).values():
        for key, count in engine.work().items():
            total[key] += count
    return dict(total)


class OptimalSplitEvaluator:
    """A policy evaluator (``ev.core.arithmetic``) whose split rounds' distributions are those of truly
    optimal split play (``sense`` ``WORST``: of the worst; with resplits floats only); every other question
    goes to the evaluator it wraps."""

    def __init__(self, evaluator: Any, game: Game, up: int, sense: int = BEST) -> None:
        self.evaluator, self.game, self.up, self.sense = evaluator, game, up, sense

    def split_round(self, pair: int, one_card: bool, configs: list, codes_by_context: dict, resplit_cards: int,
                    faces: bool, type_sets: list, exact_limit: float = float("inf")) -> dict:
        """The split round's cells (``ev.core.arithmetic``) under truly optimal play (resplits: floats)."""
        cells = split_distribution(self.game, self.up, pair, self.sense)
        if self.game.rules.split_hands(pair) > 2:
            return cells
        return {(doubles, bj, net, 2): mass for (doubles, bj, net), mass in cells.items()}

    def release(self) -> None:
        """Free the up card's dealer memo once its rounds are scored (see :func:`prepare`)."""
        _upcard(self.game, self.up).splitter.release()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.evaluator, name)


# ----- per game and up card --------------------------------------------------------------------
_ENGINES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


@dataclass
class _Found:
    """What truly optimal split play found for one deck and up card (rules, up card, deck, caps): the float
    core's first-hand plans and split values (shared by both arithmetics: the exact mode certifies the float
    strategy), and each arithmetic's values, distributions and exact ties, by (exact, sense).  Every game of
    that deck reads and extends it, so a second game of the same rules and cards (a report's strategy table
    after the round, an exact game after a float one) does not search again."""

    plans: dict = field(default_factory=dict)
    float_values: dict = field(default_factory=dict)
    values: defaultdict = field(default_factory=lambda: defaultdict(dict))
    distributions: defaultdict = field(default_factory=lambda: defaultdict(dict))
    ties: defaultdict = field(default_factory=lambda: defaultdict(list))
    resolved: defaultdict = field(default_factory=lambda: defaultdict(lambda: [0, 0]))


#: the decks searched in this process, the most recently used last (a few hundred bytes to a few hundred
#: kilobytes each)
_FOUND: OrderedDict[tuple, _Found] = OrderedDict()
_FOUND_MOST = 256


def _found(key: tuple) -> _Found:
    found = _FOUND.pop(key, None) or _Found()
    _FOUND[key] = found
    while len(_FOUND) > _FOUND_MOST:
        _FOUND.popitem(last=False)
    return found


def _upcard(game: Game, up: int) -> _Upcard:
    engines = _ENGINES.setdefault(game, {})
    if up not in engines:
        engines[up] = _Upcard(game, up)
    return engines[up]


class _Upcard:
    """Truly optimal (and worst) splits for one game and up card, in the game's arithmetic; values memoised.
    One float core serves both senses (its dealer memo is the larger part of the work)."""

    def __init__(self, game: Game, up: int) -> None:
        self.rules, self.up, self.exact = game.rules, up, game.exact
        self.base = subtract(game.shoe, composition_of([up]))
        self.caps = subtract(game.caps, composition_of([up]))
        self.graph = game.graph
        # the float engine: the game's own solver, or (exact mode) a float solver of the same deck
        solver = FLOAT.solver(up, self.base, self.graph, self.rules, self.caps) if self.exact else game.solver(up)
        from ev.core._optimal_split import OptimalSplitter
        self.splitter = OptimalSplitter(solver)
        # with one split, tens split by rank differ from tens by value only in which deals may split (a K-Q
        # may not): every split's search is the same, so both readings share what was found
        same = self.rules.replace(split_tens="value") if self.rules.max_split_hands <= 2 else self.rules
        found = _found((same, up, tuple(self.base), tuple(self.caps)))
        self.splitter.share(found.plans, found.float_values)
        # by sense: values, distributions, exact ties, near ties decided exactly (first hand, second hand)
        self.values: dict[int, dict[int, Number]] = {s: found.values[self.exact, s] for s in (BEST, WORST)}
        self.distributions: dict[int, dict[int, dict]] = {s: found.distributions[self.exact, s]
                                                          for s in (BEST, WORST)}
        self.ties: dict[int, list[dict]] = {s: found.ties[self.exact, s] for s in (BEST, WORST)}
        self.resolved = {s: found.resolved[self.exact, s] for s in (BEST, WORST)}
        self._exact_solvers: dict[tuple, Any] = {}
        self._worst_second: dict[tuple, Fraction] = {}

    def work(self) -> dict[str, int]:
        return {**self.splitter.work(), "first_hand_near_ties": sum(r[0] for r in self.resolved.values()),
                "second_hand_near_ties": sum(r[1] for r in self.resolved.values())}

    def pairs(self) -> list[int]:
        """The pair ranks the deck can deal."""
        return [pair for pair in range(N_RANKS) if self.base[pair] >= 2]

    def _check(self, pair: int) -> bool:
        """Check the rules and the deck; return whether split hands get one card."""
        check_rules(self.rules, pair)
        if self.base[pair] < 2:
            raise EngineError("the shoe does not hold the pair")
        return self.rules.one_card_after_split(pair)

    def _run(self, call, *args):
        try:
            return call(*args)
        except ValueError as exc:            # the core's deck checks
            raise EngineError(str(exc)) from None

    def search(self, pair: int, senses: tuple[int, ...]) -> None:
        """The values of splitting ``pair`` for each sense of ``senses``: the float searches of the senses not yet
        known in one pass (exact mode: the float plans it certifies, then each sense's exact distribution)."""
        missing = tuple(sense for sense in senses if pair not in self.values[sense])
        if len(missing) > 1 and self.rules.split_hands(pair) == 2:
            self._run(self.splitter.split_values, pair, self._check(pair), missing)
        for sense in missing:
            self.value(pair, sense)

    def search_all(self, senses: tuple[int, ...], distributions: bool = False,
                   unsplit: dict[int, Any] | None = None) -> None:
        """Every pair's search for each sense (the core keeps each value with its stake; with ``distributions``
        a resplit pair's outcome distribution too, in the same search, and a one-split pair's where its split
        value reaches ``unsplit[pair]`` less ``MAY_SPLIT``), then the dealer memo freed (see :func:`prepare`)."""
        for pair in self.pairs():
            resplit = self.rules.split_hands(pair) > 2
            if distributions and resplit:
                for sense in senses:
                    self.distribution(pair, sense)
            self.search(pair, senses)
            if distributions and not resplit and unsplit and pair in unsplit and not self.exact:
                for sense in senses:
                    if self.values[sense][pair] >= unsplit[pair] - MAY_SPLIT:
                        self.distribution(pair, sense)
        self.splitter.release()

    def _resplit(self, pair: int, one_card: bool, sense: int) -> tuple[float, float]:
        """(value, stake) of a split of three or four hands at most, floats (see ``resplit_value``)."""
        value, stake, _ = self._run(_interruptible, self.splitter.resplit_value, pair, one_card,
                                    self.rules.split_hands(pair), sense)
        return value, stake

    def value(self, pair: int, sense: int = BEST) -> Number:
        values = self.values[sense]
        if pair not in values:
            one_card = self._check(pair)
            if self.exact:                  # the exact distribution, its mean the value
                self.distribution(pair, sense)
            elif self.rules.split_hands(pair) > 2:
                values[pair] = self._resplit(pair, one_card, sense)[0]
            else:
                values[pair] = self._run(_interruptible, self.splitter.split_value, pair, one_card, sense)
        return values[pair]

    def stake(self, pair: int, sense: int = BEST) -> Number:
        resplit = self.rules.split_hands(pair) > 2
        if resplit and not self.exact:
            return self._resplit(pair, self._check(pair), sense)[1]
        if not self.exact:
            return self._run(self.splitter.split_stake, pair, self._check(pair), sense)
        return sum(((cell[3] if resplit else 2) + cell[0]) * mass
                   for cell, mass in self.distribution(pair, sense).items())

    def distribution(self, pair: int, sense: int = BEST) -> dict:
        distributions = self.distributions[sense]
        if pair not in distributions and self.rules.split_hands(pair) > 2:
            most = self.rules.split_hands(pair)
            if self.exact:
                distributions[pair] = self._exact_resplit(pair, sense)
                self.values[sense][pair] = sum((cell[2] * mass for cell, mass in distributions[pair].items()),
                                               Fraction(0))
            else:
                distributions[pair] = self._run(_interruptible, self.splitter.resplit_distribution, pair,
                                                self._check(pair), most, type_sets(most), sense)
        if pair not in distributions:
            one_card = self._check(pair)
            if self.exact:
                cells = self._exact_distribution(pair, one_card, sense)
                self.values[sense][pair] = sum((net * mass for (_, _, net), mass in cells.items()), Fraction(0))
            else:
                cells = self._run(self.splitter.split_distribution, pair, one_card, sense)
            distributions[pair] = cells
        return distributions[pair]

    # ----- exact: certify, then evaluate ------------------------------------------------------
    def _exact_resplit(self, pair: int, sense: int) -> dict:
        """The exact outcome distribution of a split of three or four hands at most under the float search's play
        (``OptimalSplitter.resplit_exact``), certified: where a decision's runner-up lies within ``NEAR_TIE`` of
        the best it is decided again exactly, as the play is followed (a hand in play with no hand waiting:
        :class:`_LastHand`); every other decision is the exact optimum as it stands (the float error lies far
        below).  A near tie elsewhere (a hand with hands waiting, or resplit or keep) is refused in one message."""
        most = self.rules.split_hands(pair)
        last = _LastHand(self, sense)

        def decide(gone: int, hard: int, ace: bool, two: bool, waiting: int, made: int) -> int | None:
            if waiting:
                return None
            self.resolved[sense][1] += 1
            return last.decide(_unpack(gone), hard, ace, two)

        near, cells = self._run(_interruptible, self.splitter.resplit_exact, pair, self._check(pair), most,
                                type_sets(most), sense, NEAR_TIE, decide)
        if near:
            raise EngineError(
                f"exact {'truly optimal' if sense == BEST else 'worst'} play with resplits of "
                f"{RANK_SYMBOLS[pair]}-{RANK_SYMBOLS[pair]} vs {RANK_SYMBOLS[self.up]} is not certified: {len(near)} "
                f"decisions before the last hand lie within {NEAR_TIE:g} of the runner-up (decided exactly in the "
                "last hand only); leave out --exact, or use --split-strategy cdz, cdp1 or cdp")
        return cells

    def _exact_distribution(self, pair: int, one_card: bool, sense: int) -> dict:
        """Decide the near ties the float strategy meets exactly (as overrides), until it meets none;
        then its exact distribution (``OptimalSplitter.exact_distribution``)."""
        first: dict[int, int] = {}
        second: dict[int, dict[int, int]] = defaultdict(dict)
        while True:
            near, cells = self._run(self.splitter.exact_distribution, pair, one_card, first, dict(second),
                                    NEAR_TIE, sense)
            if not near:
                return cells
            for hand, drawn1, drawn2, _candidates in near:
                self.resolved[sense][hand - 1] += 1
                if hand == 1:
                    first[drawn1] = _ExactHand(self, pair, one_card, sense).decide(_unpack(drawn1))
                elif sense == BEST:
                    second[drawn1][drawn2] = self._second_hand_choice(pair, _unpack(drawn1), _unpack(drawn2))
                else:
                    second[drawn1][drawn2] = _ExactHand(self, pair, one_card, sense,
                                                        _unpack(drawn1)).decide(_unpack(drawn2))

    def _deck0(self, pair: int) -> tuple:
        return tuple(b - 2 * (r == pair) for r, b in enumerate(self.base))

    def exact_solver(self, drawn1: tuple) -> Any:
        """The exact solver of the deck the second hand sees: the shoe less the up card and the first
        hand's draws (its split context (pair, 1) then lacks both pair cards as well)."""
        key = tuple(drawn1)
        solver = self._exact_solvers.get(key)
        if solver is None:
            solver = EXACT.solver(self.up, subtract(self.base, drawn1), self.graph, self.rules, self.caps)
            self._exact_solvers[key] = solver
        return solver

    def second_hand_value(self, pair: int, one_card: bool, sense: int, drawn1: tuple) -> Fraction:
        """V2: the second hand's exact best (or worst) value from the deck less the first hand's draws."""
        deck = subtract(self._deck0(pair), drawn1)
        n = sum(deck)
        if sense == BEST:
            values = self.exact_solver(drawn1).split_hand_values(pair, 1, _OWN, one_card)
            return sum((Fraction(deck[r], n) * values[r] for r in range(N_RANKS) if deck[r]), Fraction(0))
        key = (pair, one_card, tuple(drawn1))
        if key not in self._worst_second:
            hand = _ExactHand(self, pair, one_card, sense, drawn1)
            self._worst_second[key] = sum((Fraction(deck[r], n) * hand.best(composition_of([r]))[0]
                                           for r in range(N_RANKS) if deck[r]), Fraction(0))
        return self._worst_second[key]

    def _second_hand_choice(self, pair: int, drawn1: tuple, drawn2: tuple) -> int:
        """The second hand's exact optimal action at its state ``pair + drawn2`` after ``drawn1``."""
        solver = self.exact_solver(drawn1)
        hand = tuple(c + (r == pair) for r, c in enumerate(drawn2))
        action = solver.context_decider(pair, 1, _OWN)(self.graph["index"][hand])
        for record in solver.tie_records("cdp"):
            if record["hand"] == format_hand(hand):
                self._tie(hand, f"split {RANK_SYMBOLS[pair]}, second hand after {format_hand(drawn1) or '-'}",
                          record["actions"], BEST)
        return action

    def _tie(self, hand: Sequence[int], context: str, actions: Sequence[str], sense: int) -> None:
        record = {"up": RANK_SYMBOLS[self.up], "hand": format_hand(hand), "context": context,
                  "actions": list(actions)}
        if record not in self.ties[sense]:
            self.ties[sense].append(record)


def _exact_result(poly: Any, bj: int, deck: Sequence[int], total: int) -> Fraction:
    """A finished hand's exact result (bet 1; ``total`` above 21 a bust) against the dealer drawing from ``deck``
    (``poly``: the exact dealer, ``bj`` the hole card of a settled blackjack or -1), joint units."""
    if total > 21:
        return -(1 - Fraction(deck[bj], sum(deck))) if bj >= 0 else Fraction(-1)
    p = poly.probabilities(deck)
    value = p[5] - p[6]
    for k in range(5):
        value += p[k] if 17 + k < total else -p[k] if 17 + k > total else 0
    return value


def _total(hard: int, ace: bool) -> int:
    """A hand's total from its hard total (aces as 1) and whether it holds an ace (above 21: a bust)."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


class _LastHand:
    """The last hand of a split round with resplits (no hand waiting, so nothing but its own result follows): its
    exact best (``sense`` ``WORST``: worst) play from a state by plain recursion in Fractions, the deck the
    shoe less the up card and every card gone.  Decides the near ties the float search meets there, as the
    search would with exact values: exact ties go to the earlier action (stand, hit, double)."""

    def __init__(self, upcard: _Upcard, sense: int) -> None:
        self.upcard, self.sense, self.rules = upcard, sense, upcard.rules
        self.poly = EXACT.dealer(upcard.up, self.rules.hit_soft_17, self.rules.settled_blackjack_rank(upcard.up),
                                 upcard.caps)
        self.bj = self.rules.settled_blackjack_rank(upcard.up)
        self.memo: dict[tuple, Fraction] = {}

    def options(self, deck: tuple, hard: int, ace: bool, two: bool) -> list[Fraction]:
        """Stand, hit and (where allowed) double, each valued with the play after it best for the sense."""
        n = sum(deck)
        total = _total(hard, ace)
        hit = double = Fraction(0)
        for r in range(N_RANKS):
            if not deck[r]:
                continue
            rest = tuple(c - (k == r) for k, c in enumerate(deck))
            h2, a2 = hard + r + 1, ace or r == ACE
            p = Fraction(deck[r], n)
            own = _exact_result(self.poly, self.bj, rest, _total(h2, a2))
            hit += p * (own if h2 > 21 else self.value(rest, h2, a2))
            double += 2 * p * own
        options = [_exact_result(self.poly, self.bj, deck, total), hit]
        if two and self.rules.may_double(total, total != hard, after_split=True):
            options.append(double)
        return options

    def value(self, deck: tuple, hard: int, ace: bool) -> Fraction:
        """A hand of more than two cards: its value under the sense's play (21: it stands)."""
        key = (deck, hard, ace)
        if key not in self.memo:
            if _total(hard, ace) >= 21:
                self.memo[key] = _exact_result(self.poly, self.bj, deck, _total(hard, ace))
            else:
                options = self.options(deck, hard, ace, False)
                self.memo[key] = max(options) if self.sense == BEST else min(options)
        return self.memo[key]

    def decide(self, gone: tuple, hard: int, ace: bool, two: bool) -> int:
        """The action (0 stand, 1 hit, 2 double) of the hand in play at this state: the first of the best."""
        options = self.options(subtract(self.upcard.base, gone), hard, ace, two)
        best = max(options) if self.sense == BEST else min(options)
        return options.index(best)


class _ExactHand:
    """One split hand's exact play by plain recursion over its draws (Fractions; slow, used only where floats
    cannot decide), best (``sense`` ``BEST``) or worst (``WORST``).

    The first hand (``drawn1`` None) values its own result plus the second hand's exact value ``V2``; the
    second hand, after the first drew ``drawn1``, its own result only, from the deck less those cards."""

    def __init__(self, upcard: _Upcard, pair: int, one_card: bool, sense: int, drawn1: tuple | None = None) -> None:
        self.upcard, self.pair, self.one_card, self.sense, self.drawn1 = upcard, pair, one_card, sense, drawn1
        self.rules = upcard.rules
        self.deck0 = upcard._deck0(pair) if drawn1 is None else subtract(upcard._deck0(pair), drawn1)
        self.poly = EXACT.dealer(upcard.up, self.rules.hit_soft_17,
                                 self.rules.settled_blackjack_rank(upcard.up), upcard.caps)
        self.bj = self.rules.settled_blackjack_rank(upcard.up)
        self.memo: dict[tuple, tuple[Fraction, int]] = {}

    def own(self, drawn: tuple) -> Fraction:
        """The hand's own result (bet 1) against the dealer drawing from deck0 - drawn."""
        total, _ = hand_total(self.hand(drawn))
        return _exact_result(self.poly, self.bj, subtract(self.deck0, drawn), total)

    def hand(self, drawn: tuple) -> tuple:
        return tuple(c + (r == self.pair) for r, c in enumerate(drawn))

    def terminal(self, drawn: tuple, bet: int) -> Fraction:
        if self.drawn1 is not None:
            return bet * self.own(drawn)
        return bet * self.own(drawn) + self.upcard.second_hand_value(self.pair, self.one_card, self.sense, drawn)

    def best(self, drawn: tuple) -> tuple[Fraction, int]:
        """(value, action) at the state ``pair + drawn``: the highest value (``WORST``: the lowest); exact ties
        go to the earlier action."""
        if drawn in self.memo:
            return self.memo[drawn]
        hand = self.hand(drawn)
        total, soft = hand_total(hand)
        options = [self.terminal(drawn, 1)]
        if total < 21 and not self.one_card:
            deck = subtract(self.deck0, drawn)
            n = sum(deck)
            children = [(Fraction(deck[r], n), tuple(c + (q == r) for q, c in enumerate(drawn)))
                        for r in range(N_RANKS) if deck[r]]
            options.append(sum((p * self.best(child)[0] for p, child in children), Fraction(0)))
            if sum(drawn) == 1 and self.rules.may_double(total, soft, after_split=True):
                options.append(sum((p * self.terminal(child, 2) for p, child in children), Fraction(0)))
        action = max(range(len(options)), key=lambda a: (self.sense * options[a], -a))
        tied = [_ACTIONS[a] for a in range(len(options)) if options[a] == options[action]]
        if len(tied) > 1:
            which = "first hand" if self.drawn1 is None else f"second hand after {format_hand(self.drawn1) or '-'}"
            self.upcard._tie(hand, f"split {RANK_SYMBOLS[self.pair]}, {which}", tied, self.sense)
        self.memo[drawn] = options[action], action
        return self.memo[drawn]

    def decide(self, drawn: tuple) -> int:
        """The action code (``ev.core.actions.Action``) at the state ``pair + drawn``."""
        return int(Action(self.best(drawn)[1]))


def _unpack(packed: int) -> tuple:
    return tuple((packed >> (_BITS * r)) & ((1 << _BITS) - 1) for r in range(N_RANKS))
