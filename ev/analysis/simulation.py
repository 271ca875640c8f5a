"""Monte Carlo simulation of whole rounds: an independent check of the exact engine.

``simulate(rules, rounds)`` deals real rounds from a freshly shuffled shoe
(Fisher-Yates over every card face, so ``split_tens="rank"`` can tell K-K from
K-Q) and plays them by a :class:`ev.strategy.StrategyTable` handed in as data;
the exact engine is never called during a round.  The core is
``ev._simulate`` (Cython, no Python objects in the loop).

Randomness: xoshiro256** (Blackman and Vigna, ACM TOMS 2021) seeded by
splitmix64 from the seed; worker ``w`` jumps the generator ``w`` times by 2^128
steps, so the workers' streams never overlap.  Each worker plays a fixed share
of the rounds, so a run is reproducible from (seed, workers).

Units: every money figure is in initial bets.  ``net`` of a round is the total
won less the total staked (insurance and even money included); the *wager* of
a round is the initial bet + doubles + split bets + 0.5 for insurance (even
money counts as initial bet + 0.5).  When an unchecked dealer blackjack takes
only the original bet, the returned double and split wagers are not counted
as wagered.  The tallies are kept exactly, in integer tenths of a bet.
"""
from __future__ import annotations

import dataclasses
import math
import multiprocessing
import os
import secrets
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ev.core import _simulate
from ev.core.cards import N_RANKS, full_shoe
from ev.errors import BJEVError, EngineError
from ev.core.rules import Rules
from ev.analysis.strategy import StrategyTable, describe_hand
from ev.core.shapes import hand_graph

GENERATOR = _simulate.GENERATOR
GENERATOR_REFERENCE = _simulate.GENERATOR_REFERENCE
CHUNK = 1 << 20                 # rounds per call into the core (progress granularity)
Z95 = 1.959963984540054
Z99 = 2.5758293035489004
FREQUENCY_NAMES = ("double", "split", "insurance", "even_money", "player_blackjack", "dealer_blackjack")
_ERRORS = {1: "the strategy has no action for", 2: "the strategy holds an action the rules do not allow for",
           3: "the shoe ran out of cards", 4: "a net result out of range"}


# ----- strategies ---------------------------------------------------------------
def resolve_strategy(rules: Rules, strategy: str | StrategyTable = "optimal") -> StrategyTable:
    """The table to play: "optimal" (CDZ-), "basic" (the chart, when available) or a table as is."""
    if isinstance(strategy, StrategyTable):
        return strategy
    if strategy == "optimal":
        from ev.analysis.game import Game
        from ev.analysis.strategy import optimal_table
        return optimal_table(Game(rules))
    if strategy == "basic":
        try:
            from ev.analysis.basic_strategy import basic_table  # type: ignore[attr-defined]
        except ImportError:
            raise BJEVError("the basic-strategy chart is not available yet") from None
        from ev.analysis.game import Game
        return basic_table(Game(rules))
    raise BJEVError(f"unknown strategy {strategy!r}; choose optimal or basic, or pass a StrategyTable")


def _spec(rules: Rules, table: StrategyTable) -> dict:
    """Validate ``table`` against ``rules`` and flatten both for the core."""
    table.validate()
    if table.rules != rules:
        dataclasses.replace(table, rules=rules).validate()   # also legal under the simulated rules
    graph = hand_graph(full_shoe(rules.decks))
    hands = graph["hands"]
    if list(table.hands) != list(hands):
        raise EngineError(f"strategy {table.name!r}: its hands are not the hand graph of a "
                          f"{rules.decks}-deck shoe")
    if hands[0] != (0,) * N_RANKS:
        raise EngineError("hand graph: state 0 must be the empty hand")
    payout = rules.payout * 10
    if payout.denominator != 1:
        raise EngineError(f"blackjack payout {rules.blackjack_payout} is not a whole number of tenths")
    return {
        "decks": rules.decks,
        "n_states": len(hands),
        "next": list(graph["next"]),
        "total": list(graph["total"]),
        "play": b"".join(bytes(table.play[up]) for up in range(N_RANKS)),
        "fallback": b"".join(bytes(table.fallback[up]) for up in range(N_RANKS)),
        "split_play": b"".join(bytes(table.split_play[up]) for up in range(N_RANKS)),
        "insurance": bytes(table.insurance) if rules.insurance else bytes(len(hands)),
        "insurance_offered": int(rules.insurance),
        "even_money": int(rules.even_money and bool(table.even_money)),
        "payout_tenths": int(payout),
        "hit_soft_17": int(rules.hit_soft_17),
        "max_split_hands": rules.max_split_hands,
        "split_aces_one_card": int(rules.split_aces_one_card),
        "resplit_aces": int(rules.resplit_aces),
        "tens_by_value": int(rules.split_tens == "value"),
        "late_surrender": int(rules.late_surrender),
        "peek_ace": int(rules.peeks_under(0)),
        "peek_ten": int(rules.peeks_under(9)),
        "unchecked_all": int(rules.unchecked_blackjack_takes == "all"),
        "hands": hands,
    }


# ----- the result -----------------------------------------------------------------
def _ci(centre: float, se: float, z: float) -> tuple[float, float]:
    return (centre - z * se, centre + z * se)


@dataclass
class SimulationResult:
    """Raw tallies of a simulation and the figures derived from them.

    Raw tallies are exact integers; money is in *tenths* of an initial bet
    (``net_tenths`` is the sum over rounds of the net result, ``net_sq`` the
    sum of its squares in hundredths, and so on).  Derived figures are in
    initial bets.
    """

    rules: Rules
    strategy: str
    rounds: int
    seed: int
    workers: int
    seconds: float
    net_tenths: int                  # sum of net results
    net_sq: int                      # sum of squared net results (hundredths)
    wager_tenths: int                # total wagered
    wager_sq: int                    # sum of squared wagers (hundredths)
    net_wager: int                   # sum of net * wager (hundredths)
    histogram: dict[int, int]        # net result in tenths of a bet -> rounds
    rounds_double: int               # rounds with at least one double
    rounds_split: int                # rounds with at least one split
    rounds_insurance: int            # rounds with insurance taken
    rounds_even_money: int           # rounds with even money taken
    rounds_player_blackjack: int     # rounds where the player is dealt a natural
    rounds_dealer_blackjack: int     # rounds where the dealer has blackjack
    rounds_surrender: int            # rounds surrendered
    generator: str = GENERATOR
    generator_reference: str = GENERATOR_REFERENCE

    # derived (initial bets)
    sum_net: float = field(init=False)
    sum_net_sq: float = field(init=False)
    ev: float = field(init=False)                    # mean net per round = EV estimate
    ev_se: float = field(init=False)
    sd: float = field(init=False)                    # per-round standard deviation of net
    rtp_initial: float = field(init=False)           # 1 + ev
    rtp_initial_se: float = field(init=False)
    rtp_initial_ci95: tuple = field(init=False)
    rtp_initial_ci99: tuple = field(init=False)
    total_wagered: float = field(init=False)
    mean_wager: float = field(init=False)            # expected wager per round
    mean_wager_se: float = field(init=False)
    rtp_total_wagered: float = field(init=False)     # (W + net) / W
    rtp_total_wagered_se: float = field(init=False)  # delta method (ratio estimator)
    rtp_total_wagered_ci95: tuple = field(init=False)
    rtp_total_wagered_ci99: tuple = field(init=False)
    distribution: dict = field(init=False)           # net result (bets) -> observed frequency
    frequencies: dict = field(init=False)            # FREQUENCY_NAMES + surrender -> observed frequency
    rounds_per_second: float = field(init=False)

    def __post_init__(self) -> None:
        n = self.rounds
        self.sum_net = self.net_tenths / 10
        self.sum_net_sq = self.net_sq / 100
        mean = self.net_tenths / 10 / n
        var_n = _variance(self.net_sq / 100, self.net_tenths / 10, n)
        var_w = _variance(self.wager_sq / 100, self.wager_tenths / 10, n)
        self.ev = mean
        self.sd = math.sqrt(var_n)
        self.ev_se = math.sqrt(var_n / n)
        self.rtp_initial = 1 + mean
        self.rtp_initial_se = self.ev_se
        self.rtp_initial_ci95 = _ci(self.rtp_initial, self.ev_se, Z95)
        self.rtp_initial_ci99 = _ci(self.rtp_initial, self.ev_se, Z99)
        self.total_wagered = self.wager_tenths / 10
        w = self.total_wagered / n
        self.mean_wager = w
        self.mean_wager_se = math.sqrt(var_w / n)
        ratio = mean / w
        self.rtp_total_wagered = 1 + ratio
        # delta method: Var(mean_n / mean_w) ~ Var(n_i - ratio * w_i) / (N mean_w^2)
        cov = ((self.net_wager / 100 - self.net_tenths * self.wager_tenths / 100 / n) / (n - 1)) if n > 1 else 0.0
        var_d = max(var_n - 2 * ratio * cov + ratio * ratio * var_w, 0.0)
        self.rtp_total_wagered_se = math.sqrt(var_d / n) / w
        self.rtp_total_wagered_ci95 = _ci(self.rtp_total_wagered, self.rtp_total_wagered_se, Z95)
        self.rtp_total_wagered_ci99 = _ci(self.rtp_total_wagered, self.rtp_total_wagered_se, Z99)
        self.distribution = {k / 10: c / n for k, c in sorted(self.histogram.items())}
        self.frequencies = {name: getattr(self, f"rounds_{name}") / n for name in FREQUENCY_NAMES + ("surrender",)}
        self.rounds_per_second = n / self.seconds if self.seconds > 0 else float("inf")

    def as_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["rules"] = self.rules.as_dict()
        out["histogram"] = {str(k): v for k, v in sorted(self.histogram.items())}
        out["distribution"] = {f"{k:g}": v for k, v in self.distribution.items()}
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = list(value)
        out["units"] = ("derived figures in initial bets; raw tallies (net_tenths, wager_tenths, histogram keys) "
                        "in tenths of an initial bet, squares and products in hundredths")
        return out


def _variance(sum_sq: float, total: float, n: int) -> float:
    if n < 2:
        return 0.0
    return max((sum_sq - total * total / n) / (n - 1), 0.0)


# ----- running ----------------------------------------------------------------------
class _Progress:
    """A one-line progress bar on stderr, shown once a run looks longer than about 2 seconds.

    Like ``ev.progress``, it stays silent when the stream is not a terminal.
    """

    def __init__(self, total: int, enabled: bool, stream=None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled and self.tty
        self.start = time.perf_counter()
        self.shown = False
        self.last = 0.0

    def update(self, done: int) -> None:
        if not self.enabled or self.total <= 0:
            return
        now = time.perf_counter()
        elapsed = now - self.start
        if not self.shown:
            projected = elapsed * self.total / done if done else float("inf")
            if elapsed < 0.5 or (projected < 2.0 and elapsed < 2.0) or done >= self.total:
                return
            self.shown = True
        frac = done / self.total
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        line = (f"simulating [{bar}] {100 * frac:5.1f}%  {done:,}/{self.total:,} rounds  "
                f"{rate / 1e6:.2f} M/s  eta {eta:.0f} s")
        if now - self.last >= 0.1 or done >= self.total:
            self.stream.write("\r" + line)
            self.stream.flush()
            self.last = now

    def close(self, done: int) -> None:
        if self.shown:
            self.update(done)
            self.stream.write("\n")
            self.stream.flush()


def _error(counts: dict, spec: dict) -> EngineError:
    code = counts["error"]
    what = _ERRORS.get(code, f"error {code}")
    state, up = counts["error_state"], counts["error_up"]
    if state >= 0:
        what += f" {describe_hand(spec['hands'][state])} against {'A23456789T'[up]}"
    return EngineError(f"simulation stopped: {what}")


def _run_stream(spec: dict, seed: int, stream: int, rounds: int,
                report: Callable[[int], None] | None = None) -> dict:
    """Play ``rounds`` rounds of one stream in chunks; return its tallies (and any error)."""
    sim = _simulate.Simulator(spec, seed, stream)
    done = 0
    while done < rounds:
        k = min(CHUNK, rounds - done)
        if sim.run(k):
            break
        done += k
        if report is not None:
            report(done)
    counts = sim.counts()
    counts["error"], counts["error_state"], counts["error_up"] = sim.error, sim.error_state, sim.error_up
    return counts


_progress_slots = None


def _init_worker(slots) -> None:
    global _progress_slots
    _progress_slots = slots


def _worker(spec: dict, seed: int, stream: int, rounds: int) -> dict:
    def report(done: int) -> None:
        if _progress_slots is not None:
            _progress_slots[stream] = done
    return _run_stream(spec, seed, stream, rounds, report)


def _shares(rounds: int, workers: int) -> list[int]:
    """Each worker's fixed share of the rounds."""
    return [rounds // workers + (1 if w < rounds % workers else 0) for w in range(workers)]


def simulate(rules: Rules | None = None, rounds: int = 10_000_000, seed: int | None = None,
             workers: int | None = None, strategy: str | StrategyTable = "optimal",
             progress: bool = True) -> SimulationResult:
    """Play ``rounds`` rounds under ``rules`` by ``strategy``; the tallies and derived figures.

    ``seed``: any integer from 0 to 2**64 - 1 (None: a fresh random seed, recorded in the
    result).  ``workers``: independent streams in separate processes (default
    ``os.cpu_count()``); results are deterministic for a given seed and worker count.
    ``strategy``: "optimal" (the engine's optimal composition-dependent table, CDZ-
    after splits), "basic" (the basic-strategy chart) or a StrategyTable.
    """
    rules = rules or Rules()
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise BJEVError(f"rounds must be a positive integer, got {rounds!r}")
    if seed is None:
        seed = secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise BJEVError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BJEVError(f"workers must be a positive integer, got {workers!r}")
    table = resolve_strategy(rules, strategy)
    spec = _spec(rules, table)
    shares = _shares(rounds, workers)
    bar = _Progress(rounds, progress)
    start = time.perf_counter()
    if workers == 1:
        results = [_run_stream(spec, seed, 0, rounds, bar.update)]
    else:
        results = _run_parallel(spec, seed, shares, bar)
    seconds = time.perf_counter() - start
    bar.close(rounds)
    for counts in results:
        if counts["error"]:
            raise _error(counts, spec)
    total: dict[str, int] = {}
    histogram: dict[int, int] = {}
    for counts in results:
        for key, value in counts.items():
            if key == "histogram":
                for k, c in value.items():
                    histogram[k] = histogram.get(k, 0) + c
            elif not key.startswith("error"):
                total[key] = total.get(key, 0) + value
    assert total["rounds"] == rounds
    return SimulationResult(
        rules=rules, strategy=table.name, rounds=rounds, seed=seed, workers=workers, seconds=seconds,
        net_tenths=total["net"], net_sq=total["net_sq"], wager_tenths=total["wager"],
        wager_sq=total["wager_sq"], net_wager=total["net_wager"], histogram=histogram,
        rounds_double=total["double"], rounds_split=total["split"], rounds_insurance=total["insurance"],
        rounds_even_money=total["even_money"], rounds_player_blackjack=total["player_blackjack"],
        rounds_dealer_blackjack=total["dealer_blackjack"], rounds_surrender=total["surrender"])


def _run_parallel(spec: dict, seed: int, shares: list[int], bar: _Progress) -> list[dict]:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    slots = ctx.Array("q", len(shares), lock=False)
    pool = ctx.Pool(len(shares), initializer=_init_worker, initargs=(slots,))
    try:
        pending = [pool.apply_async(_worker, (spec, seed, w, k)) for w, k in enumerate(shares)]
        while not all(p.ready() for p in pending):
            pending[0].wait(0.1) if not pending[0].ready() else time.sleep(0.1)
            bar.update(sum(slots))
        results = [p.get() for p in pending]
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    return results


# ----- comparison with the exact figures ---------------------------------------------
@dataclass
class Comparison:
    """A simulation against the exact figures: z-scores, a chi-square test and frequencies.

    A figure the exact object does not provide is None.
    """

    rounds: int
    ev: dict                     # {"simulated", "se", "exact", "z"}
    rtp_initial: dict
    rtp_total_wagered: dict
    mean_wager: dict
    chi_square: float | None
    dof: int | None
    p_value: float | None
    cells: list                  # [{"values": [...], "observed": n, "expected": x}] after pooling
    unexpected_values: list      # net results observed that the exact distribution says are impossible
    frequencies: dict            # name -> {"simulated", "se", "exact", "z"}

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _z(sim: float, se: float, exact: float | None) -> float | None:
    if exact is None:
        return None
    if se <= 0:
        return 0.0 if sim == exact else math.copysign(math.inf, sim - exact)
    return (sim - exact) / se


def _figure(sim: float, se: float, exact: float | None) -> dict:
    return {"simulated": sim, "se": se, "exact": exact, "z": _z(sim, se, exact)}


def compare(sim: SimulationResult, exact: Any) -> Comparison:
    """Compare a simulation with the exact figures of the same rules and strategy.

    ``exact`` has the attributes of ``ev.accounting.RoundStats`` (``ev``,
    ``expected_wager``, ``rtp_initial``, ``rtp_total_wagered``, ``distribution``
    {net in bets: probability}, ``p_double``, ``p_split``, ``p_insurance``,
    ``p_even_money``, ``p_player_blackjack``, ``p_dealer_blackjack``); any of
    them may be missing (e.g. a ``RoundResult`` has only ``ev`` and ``rtp_initial``).

    The chi-square test compares the net-result histogram with the exact
    distribution; cells (in order of net result) with an expected count below
    5 are pooled with their neighbours.  Its p-value is the regularised upper
    incomplete gamma function Q(dof/2, chi2/2).
    """
    get = lambda name: getattr(exact, name, None)  # noqa: E731
    n = sim.rounds
    ev_exact = get("ev")
    rtp_i = get("rtp_initial")
    if rtp_i is None and ev_exact is not None:
        rtp_i = 1 + ev_exact
    chi2 = dof = p = None
    cells: list = []
    unexpected: list = []
    dist = get("distribution")
    if dist:
        chi2, dof, p, cells, unexpected = chi_square_test(sim.histogram, dist, n)
    freqs = {}
    for name in FREQUENCY_NAMES:
        observed = getattr(sim, f"rounds_{name}") / n
        q = get(f"p_{name}")
        base = q if q is not None and 0 < q < 1 else observed
        se = math.sqrt(base * (1 - base) / n)
        freqs[name] = _figure(observed, se, q)
    return Comparison(
        rounds=n,
        ev=_figure(sim.ev, sim.ev_se, ev_exact),
        rtp_initial=_figure(sim.rtp_initial, sim.rtp_initial_se, rtp_i),
        rtp_total_wagered=_figure(sim.rtp_total_wagered, sim.rtp_total_wagered_se, get("rtp_total_wagered")),
        mean_wager=_figure(sim.mean_wager, sim.mean_wager_se, get("expected_wager")),
        chi_square=chi2, dof=dof, p_value=p, cells=cells, unexpected_values=unexpected, frequencies=freqs)


def chi_square_test(histogram: dict[int, int], distribution: dict[float, float], rounds: int):
    """Pearson's chi-square of observed counts (keys: net in tenths) against exact probabilities (keys: bets).

    Returns (chi2, dof, p_value, pooled cells, observed values the exact distribution lacks).
    """
    expected: dict[int, float] = {}
    for value, prob in distribution.items():
        key = round(float(value) * 10)
        expected[key] = expected.get(key, 0.0) + float(prob)
    keys = sorted(set(expected) | set(histogram))
    unexpected = [k / 10 for k in keys if histogram.get(k, 0) and expected.get(k, 0.0) <= 0.0]
    groups: list[dict] = []
    current = {"values": [], "observed": 0, "expected": 0.0}
    for k in keys:
        current["values"].append(k / 10)
        current["observed"] += histogram.get(k, 0)
        current["expected"] += rounds * expected.get(k, 0.0)
        if current["expected"] >= 5:
            groups.append(current)
            current = {"values": [], "observed": 0, "expected": 0.0}
    if current["values"]:
        if groups:
            last = groups[-1]
            last["values"] += current["values"]
            last["observed"] += current["observed"]
            last["expected"] += current["expected"]
        else:
            groups.append(current)
    if len(groups) < 2 or any(g["expected"] <= 0 for g in groups):
        return None, None, None, groups, unexpected
    chi2 = sum((g["observed"] - g["expected"]) ** 2 / g["expected"] for g in groups)
    dof = len(groups) - 1
    return chi2, dof, gamma_q(dof / 2, chi2 / 2), groups, unexpected


def gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a).

    Series for x < a + 1, Lentz's continued fraction otherwise (Numerical
    Recipes, 3rd ed., section 6.2).  Q(k/2, chi2/2) is the chi-square p-value.
    """
    if a <= 0 or x < 0:
        raise ValueError("gamma_q needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    eps, tiny = 1e-15, 1e-300
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * eps:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < eps:
            break
    return math.exp(log_prefix) * h


# ----- the command line's figures ------------------------------------------------------
def exact_figures(rules: Rules, table: StrategyTable) -> Any:
    """The exact figures of ``table`` under ``rules`` for :func:`compare`.

    ``ev.accounting.round_stats`` when available; otherwise, for the optimal
    table only, the engine's round EV (then only the EV and RTP per initial bet
    are compared).  None when neither applies.
    """
    from ev.analysis.game import Game
    game = Game(rules)
    try:
        from ev.analysis.accounting import round_stats
    except ImportError:
        round_stats = None
    if round_stats is not None:
        return round_stats(game, table)
    if table.name.startswith("optimal"):
        return game.round("cdz")
    return None


def parse_count(text: str) -> int:
    """A number of rounds: 1000000, 1_000_000 or 1e6 (argparse type)."""
    import argparse
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        try:
            f = float(text)
        except ValueError:
            f = math.nan
        if not math.isfinite(f) or f != int(f):
            raise argparse.ArgumentTypeError(f"expected a whole number such as 1000000 or 1e6, got {text!r}")
        value = int(f)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def parse_seed(text: str) -> int:
    """A seed: an integer from 0 to 2**64 - 1, decimal or 0x hex (argparse type)."""
    import argparse
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError(f"the seed must be from 0 to 2**64 - 1, got {text!r}")
    return value


def _finite(x: Any) -> Any:
    """JSON-safe: non-finite floats become None, recursively."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def report_data(sim: SimulationResult, comparison: Comparison | None, exact: Any = None) -> dict:
    """Everything ``bjev simulate --json`` prints."""
    cmp = comparison.as_dict() if comparison is not None else None

    def figure(name: str, ci95: tuple | None = None, ci99: tuple | None = None) -> dict:
        out = {"simulated": getattr(sim, name), "se": getattr(sim, f"{name}_se", None)}
        if name == "ev":
            out["se"] = sim.ev_se
        if ci95 is not None:
            out["ci95"], out["ci99"] = list(ci95), list(ci99)
        out["exact"] = cmp[name]["exact"] if cmp else None
        out["z"] = cmp[name]["z"] if cmp else None
        return out

    exact_dist = {}
    if exact is not None and getattr(exact, "distribution", None):
        exact_dist = {round(float(k) * 10): float(v) for k, v in exact.distribution.items()}
    keys = sorted(set(sim.histogram) | set(exact_dist))
    data = {
        "rounds": sim.rounds,
        "seed": sim.seed,
        "workers": sim.workers,
        "generator": sim.generator,
        "generator_reference": sim.generator_reference,
        "strategy": sim.strategy,
        "seconds": sim.seconds,
        "rounds_per_second": sim.rounds_per_second,
        "ev": figure("ev", _ci(sim.ev, sim.ev_se, Z95), _ci(sim.ev, sim.ev_se, Z99)),
        "rtp_initial": figure("rtp_initial", sim.rtp_initial_ci95, sim.rtp_initial_ci99),
        "rtp_total_wagered": figure("rtp_total_wagered", sim.rtp_total_wagered_ci95, sim.rtp_total_wagered_ci99),
        "mean_wager": figure("mean_wager"),
        "total_wagered": sim.total_wagered,
        "sd": sim.sd,
        "net_results": {f"{k / 10:g}": {"rounds": sim.histogram.get(k, 0),
                                        "frequency": sim.histogram.get(k, 0) / sim.rounds,
                                        "exact": exact_dist.get(k)} for k in keys},
        "chi_square": ({"statistic": cmp["chi_square"], "dof": cmp["dof"], "p_value": cmp["p_value"],
                        "cells": cmp["cells"], "unexpected_values": cmp["unexpected_values"]} if cmp else None),
        "frequencies": (cmp["frequencies"] if cmp else {k: {"simulated": v} for k, v in sim.frequencies.items()}),
        "tallies": {"net_tenths": sim.net_tenths, "net_sq_hundredths": sim.net_sq,
                    "wager_tenths": sim.wager_tenths, "wager_sq_hundredths": sim.wager_sq,
                    "net_wager_hundredths": sim.net_wager,
                    "histogram_tenths": {str(k): v for k, v in sorted(sim.histogram.items())},
                    **{f"rounds_{name}": getattr(sim, f"rounds_{name}") for name in FREQUENCY_NAMES + ("surrender",)}},
        "units": "initial bets; tallies in tenths of an initial bet (squares and products in hundredths)",
        "rules": sim.rules.as_dict(),
    }
    if "surrender" not in data["frequencies"]:
        data["frequencies"]["surrender"] = {"simulated": sim.frequencies["surrender"], "se": None,
                                            "exact": None, "z": None}
    return _finite(data)


def report_text(sim: SimulationResult, comparison: Comparison | None, exact: Any = None) -> str:
    """The plain-text answer of ``bjev simulate``."""
    from tabulate import tabulate

    data = report_data(sim, comparison, exact)

    def pct(x: float | None, digits: int = 4) -> str:
        return "" if x is None else f"{100 * x:.{digits}f} %"

    def z(x: float | None) -> str:
        return "" if x is None else f"{x:+.2f}"

    def interval(ci: list, digits: int = 4) -> str:
        return f"[{100 * ci[0]:.{digits}f}, {100 * ci[1]:.{digits}f}] %"

    rows = []
    for label, key in (("EV per initial bet", "ev"), ("RTP per initial bet", "rtp_initial"),
                       ("RTP per total wagered", "rtp_total_wagered")):
        f = data[key]
        sign = "+" if key == "ev" else ""
        rows.append([label, f"{100 * f['simulated']:{sign}.4f} %", pct(f["se"]), interval(f["ci95"]),
                     interval(f["ci99"]), "" if f["exact"] is None else f"{100 * f['exact']:{sign}.4f} %",
                     z(f["z"])])
    w = data["mean_wager"]
    rows.append(["Mean wager (bets/round)", f"{w['simulated']:.5f}", f"{w['se']:.5f}", "", "",
                 "" if w["exact"] is None else f"{w['exact']:.5f}", z(w["z"])])
    head = [
        f"Rules: {sim.rules.summary()}",
        f"Strategy: {sim.strategy}",
        f"Rounds: {sim.rounds:,} ({sim.workers} worker{'s' if sim.workers > 1 else ''}, {sim.seconds:.1f} s, "
        f"{sim.rounds_per_second / 1e6:.1f} M rounds/s)",
        f"Seed: {sim.seed}   generator: {sim.generator} (Blackman & Vigna, ACM TOMS 2021; "
        f"splitmix64 seeding, one 2^128 jump per worker)",
        f"Total wagered: {sim.total_wagered:,.1f} initial bets   SD of a round: {sim.sd:.5f}",
        "",
        tabulate(rows, headers=["", "simulated", "SE", "95% CI", "99% CI", "exact", "z"],
                 colalign=("left", "right", "right", "right", "right", "right", "right"), disable_numparse=True),
        "",
    ]
    net_rows = [[k, f"{v['rounds']:,}", f"{v['frequency']:.6f}", "" if v["exact"] is None else f"{v['exact']:.6f}"]
                for k, v in data["net_results"].items()]
    head.append("Net result per round (initial bets)")
    head.append(tabulate(net_rows, headers=["net", "rounds", "frequency", "exact"],
                         colalign=("right", "right", "right", "right"), disable_numparse=True))
    chi = data["chi_square"]
    if chi and chi["statistic"] is not None:
        head.append(f"Chi-square against the exact distribution: {chi['statistic']:.3f} on {chi['dof']} "
                    f"degrees of freedom (cells with expected count < 5 pooled), p = {chi['p_value']:.4g}")
        if chi["unexpected_values"]:
            head.append(f"Observed net results the exact distribution lacks: {chi['unexpected_values']}")
    elif comparison is None or comparison.chi_square is None:
        head.append("Chi-square: no exact distribution to compare with")
    head.append("")
    labels = {"double": "P(double)", "split": "P(split)", "insurance": "P(insurance)",
              "even_money": "P(even money)", "player_blackjack": "P(player blackjack)",
              "dealer_blackjack": "P(dealer blackjack)", "surrender": "P(surrender)"}
    freq_rows = []
    for key, label in labels.items():
        f = data["frequencies"].get(key)
        if f is None:
            continue
        freq_rows.append([label, f"{f['simulated']:.6f}", "" if f.get("se") is None else f"{f['se']:.6f}",
                          "" if f.get("exact") is None else f"{f['exact']:.6f}", z(f.get("z"))])
    head.append(tabulate(freq_rows, headers=["", "simulated", "SE", "exact", "z"],
                         colalign=("left", "right", "right", "right", "right"), disable_numparse=True))
    head.append("")
    head.append("Units: initial bets. z = (simulated - exact) / SE; RTP per total wagered uses a "
                "delta-method (ratio) standard error.")
    return "\n".join(head)
