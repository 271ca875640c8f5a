"""Monte Carlo simulation of whole rounds: an independent check of the exact engine.

``simulate(rules, rounds)`` deals real rounds from a freshly shuffled shoe
(Fisher-Yates over every card face, so ``split_tens="rank"`` can tell K-K from
K-Q) and plays them by a :class:`ev.analysis.strategy.Policy` handed in as data;
the exact engine is never called during a round.  The core is
``ev.core.simulator`` (Cython, no Python objects in the loop).

Randomness: xoshiro256** (Blackman and Vigna, ACM TOMS 2021) seeded by
splitmix64 from the seed.  The rounds are cut into fixed chunks of
``CHUNK_ROUNDS`` = 2^20 rounds; chunk ``k`` starts from a fresh shoe and its own
stream, the seeded generator advanced by ``k // 1024`` long jumps (2^192 steps)
and ``k % 1024`` jumps (2^128 steps), so the streams never overlap.  Work units
(runs of consecutive chunks) go to an executor (``ev.analysis.executors``: local
processes or a Dask cluster), and the integer tallies of a seed are the same,
bit for bit, whatever the executor and the number of workers.

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
import secrets
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mpmath

import ev.core.simulator as simulator
from ev.analysis.accounting import round_stats
from ev.analysis.basic_strategy import basic_policy
from ev.analysis.executors import Executor, LocalExecutor
from ev.analysis.game import Game
from ev.analysis.strategy import Policy, describe_hand, optimal_policy
from ev.core.cards import N_RANKS, full_shoe
from ev.core.rules import Rules
from ev.core.shapes import hand_graph
from ev.errors import BJEVError, EngineError

GENERATOR = simulator.GENERATOR
GENERATOR_REFERENCE = simulator.GENERATOR_REFERENCE
CHUNK_ROUNDS: int = simulator.CHUNK_ROUNDS    # rounds per chunk (each chunk its own random stream)
MAX_UNIT_CHUNKS = 16                            # chunks per work unit at most (unless that makes too many units)
MAX_UNITS = 4096                                # work units per run at most
Z95 = 1.959963984540054
Z99 = 2.5758293035489004
FREQUENCY_NAMES = ("double", "split", "insurance", "even_money", "player_blackjack", "dealer_blackjack")
_ERRORS = {1: "the strategy has no action for", 2: "the strategy holds an action the rules do not allow for",
           3: "the shoe ran out of cards", 4: "a net result out of range"}


# ----- strategies ---------------------------------------------------------------
def resolve_strategy(rules: Rules, strategy: str | Policy = "optimal") -> Policy:
    """The table to play: "optimal" (CDZ-), "basic" (the basic-strategy chart) or a table as is."""
    if isinstance(strategy, Policy):
        return strategy
    if strategy == "optimal":
        return optimal_policy(Game(rules))
    if strategy == "basic":
        return basic_policy(Game(rules))
    raise BJEVError(f"unknown strategy {strategy!r}; choose optimal or basic, or pass a Policy")


def simulator_spec(rules: Rules, table: Policy) -> dict:
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
        "next": array("i", graph["next"]),        # compact: the spec is sent to every worker
        "total": bytes(graph["total"]),
        "play": b"".join(bytes(table.play[up]) for up in range(N_RANKS)),
        "fallback": b"".join(bytes(table.fallback[up]) for up in range(N_RANKS)),
        "split_play": b"".join(bytes(table.split_play[up]) for up in range(N_RANKS)),
        "insurance": bytes(table.insurance) if rules.insurance else bytes(len(hands)),
        "insurance_offered": int(rules.insurance),
        "even_money": int(rules.even_money and bool(table.even_money)),
        "payout_tenths": int(payout),
        "hit_soft_17": int(rules.hit_soft_17),
        "split_hands": bytes(rules.split_hands(p) for p in range(N_RANKS)),
        "one_card": bytes(rules.one_card_after_split(p) for p in range(N_RANKS)),
        "tens_by_value": int(rules.split_tens == "value"),
        "late_surrender": int(rules.late_surrender),
        "peeks": bytes(rules.peeks_under(up) for up in range(N_RANKS)),
        "unchecked_all": int(rules.unchecked_blackjack_takes == "all"),
        "hands": hands,
    }


def chunk_count(rounds: int, chunk_rounds: int = CHUNK_ROUNDS) -> int:
    """How many chunks of ``chunk_rounds`` rounds make ``rounds`` rounds (the last may be partial)."""
    return -(-rounds // chunk_rounds)


# ----- the result -----------------------------------------------------------------
def confidence_interval(centre: float, se: float, z: float) -> tuple[float, float]:
    """The two-sided interval ``centre`` +- ``z`` standard errors (z = Z95, Z99)."""
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
    executor: str = "local"          # where the chunks were played (Executor.describe())
    chunk_rounds: int = CHUNK_ROUNDS  # rounds per chunk: chunk k is rounds [k * chunk_rounds, (k + 1) * chunk_rounds)
    generator: str = GENERATOR
    generator_reference: str = GENERATOR_REFERENCE

    # derived (initial bets)
    chunks: int = field(init=False)                  # chunks played, the last one possibly partial
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
        self.chunks = chunk_count(n, self.chunk_rounds)
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
        self.rtp_initial_ci95 = confidence_interval(self.rtp_initial, self.ev_se, Z95)
        self.rtp_initial_ci99 = confidence_interval(self.rtp_initial, self.ev_se, Z99)
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
        self.rtp_total_wagered_ci95 = confidence_interval(self.rtp_total_wagered, self.rtp_total_wagered_se, Z95)
        self.rtp_total_wagered_ci99 = confidence_interval(self.rtp_total_wagered, self.rtp_total_wagered_se, Z99)
        self.distribution = {k / 10: c / n for k, c in sorted(self.histogram.items())}
        self.frequencies = {name: getattr(self, f"rounds_{name}") / n for name in FREQUENCY_NAMES + ("surrender",)}
        self.rounds_per_second = n / self.seconds if self.seconds > 0 else float("inf")


def _variance(sum_sq: float, total: float, n: int) -> float:
    if n < 2:
        return 0.0
    return max((sum_sq - total * total / n) / (n - 1), 0.0)


# ----- running ----------------------------------------------------------------------
def _error(counts: dict, spec: dict) -> EngineError:
    code = counts["error"]
    what = _ERRORS.get(code, f"error {code}")
    state, up = counts["error_state"], counts["error_up"]
    if state >= 0:
        what += f" {describe_hand(spec['hands'][state])} against {'A23456789T'[up]}"
    return EngineError(f"simulation stopped: {what}")


def work_units(rounds: int, parallelism: int) -> list[tuple[int, int, int]]:
    """The work units of a run: ``(first chunk, end chunk, rounds of the run)``, consecutive chunks each.

    About eight units per worker (so that a slow worker does not hold up the
    end, and the progress bar moves), at most MAX_UNIT_CHUNKS chunks each; but
    never more than MAX_UNITS units, so that a scheduler's cost per unit (a few
    milliseconds on Dask) stays small beside the work.  How the chunks are
    grouped never changes the tallies.
    """
    chunks = chunk_count(rounds)
    size = max(1, min(MAX_UNIT_CHUNKS, chunks // (8 * max(1, parallelism))), -(-chunks // MAX_UNITS))
    return [(k, min(k + size, chunks), rounds) for k in range(0, chunks, size)]


def play_chunks(shared: tuple[dict, int], unit: tuple[int, int, int]) -> dict:
    """One work unit: play chunks ``first`` to ``end - 1`` of a run of ``rounds`` rounds; their tallies.

    ``shared``: (the core's spec, the seed).  Runs on any executor's worker."""
    spec, seed = shared
    first, end, rounds = unit
    sim = simulator.Simulator(spec, seed)
    for k in range(first, end):
        if sim.run_chunk(k, min(CHUNK_ROUNDS, rounds - k * CHUNK_ROUNDS)):
            break
    counts = sim.counts()
    counts["error"], counts["error_state"], counts["error_up"] = sim.error, sim.error_state, sim.error_up
    return counts


def simulate(rules: Rules | None = None, rounds: int = 10_000_000, seed: int | None = None,
             workers: int | None = None, strategy: str | Policy = "optimal",
             progress: Callable[[int], None] | None = None, executor: Executor | None = None) -> SimulationResult:
    """Play ``rounds`` rounds under ``rules`` by ``strategy``; the tallies and derived figures.

    ``seed``: any integer from 0 to 2**64 - 1 (None: a fresh random seed, recorded in the
    result).  The rounds are cut into chunks of CHUNK_ROUNDS (2^20) rounds, each with
    its own random stream (``ev.core.simulator``), so a seed gives the same tallies,
    bit for bit, on any executor and any number of workers.
    ``executor``: where the chunks are played (``ev.analysis.executors``; the caller
    keeps it open and closes it); without one, ``workers`` local processes (default:
    all cores) are started and stopped here.
    ``strategy``: "optimal" (the engine's optimal composition-dependent table, CDZ-
    after splits), "basic" (the basic-strategy chart) or a Policy.
    ``progress(rounds_done)``: called from this process as work units finish (a unit
    is up to 16 chunks) and once at the end; the simulation itself never prints.
    """
    rules = rules or Rules()
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise BJEVError(f"rounds must be a positive integer, got {rounds!r}")
    if seed is None:
        seed = secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise BJEVError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if executor is not None and workers is not None:
        raise BJEVError("give workers or an executor, not both")
    if executor is None:
        with LocalExecutor(workers) as local:
            return simulate(rules, rounds, seed, strategy=strategy, progress=progress, executor=local)
    table = resolve_strategy(rules, strategy)
    spec = simulator_spec(rules, table)
    units = work_units(rounds, executor.workers)
    total: dict[str, int] = {}
    histogram: dict[int, int] = {}

    def add(_index: int, counts: dict) -> None:
        if counts["error"]:
            raise _error(counts, spec)
        for key, value in counts.items():
            if key == "histogram":
                for k, c in value.items():
                    histogram[k] = histogram.get(k, 0) + c
            elif not key.startswith("error"):
                total[key] = total.get(key, 0) + value
        if progress is not None:
            progress(total["rounds"])

    core = {k: v for k, v in spec.items() if k != "hands"}       # what the workers need
    start = time.perf_counter()
    executor.run(play_chunks, units, add, shared=(core, seed))
    seconds = time.perf_counter() - start
    if total.get("rounds") != rounds:
        raise EngineError(f"simulation lost rounds: {total.get('rounds', 0)} of {rounds} came back")
    return SimulationResult(
        rules=rules, strategy=table.name, rounds=rounds, seed=seed, workers=executor.workers, seconds=seconds,
        net_tenths=total["net"], net_sq=total["net_sq"], wager_tenths=total["wager"],
        wager_sq=total["wager_sq"], net_wager=total["net_wager"], histogram=histogram,
        rounds_double=total["double"], rounds_split=total["split"], rounds_insurance=total["insurance"],
        rounds_even_money=total["even_money"], rounds_player_blackjack=total["player_blackjack"],
        rounds_dealer_blackjack=total["dealer_blackjack"], rounds_surrender=total["surrender"],
        executor=executor.describe())


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


#: each statistical check of the acceptance rule fails a correct engine with this probability (two-sided)
ACCEPTANCE_LEVEL = 0.001
#: the two-sided 99.9 % point of the normal distribution: |z| up to this passes
ACCEPTANCE_Z = 3.2905267314919255
#: the checks of the acceptance rule, in the order they are stated: (key, what is checked)
ACCEPTANCE_CHECKS = (
    ("rtp_initial", "RTP per initial bet: |z| <= 3.29, the simulated RTP inside the two-sided 99.9 % band of "
                    "the exact figure"),
    ("rtp_total_wagered", "RTP per total wagered: |z| <= 3.29 (the same band)"),
    ("chi_square", "net-result distribution: Pearson's chi-square p >= 0.001"),
    ("support", "no simulated net result that the exact distribution says is impossible"),
)


def acceptance(cmp: Comparison) -> dict[str, Any]:
    """The simulation's verdict by the acceptance rule, which is fixed before the results (docs/simulation.md).

    Four checks: the two RTPs' z-scores within +-``ACCEPTANCE_Z``, the
    chi-square p-value at least ``ACCEPTANCE_LEVEL``, and no observed net
    result outside the exact distribution's support.  A correct engine fails
    each of the three statistical checks with probability 0.001 (at most
    0.003 in all, by the union bound; the two RTP checks are nearly the same
    test), the fourth never.  A check without its exact figure is not made
    (``passed`` None); ``passed`` is True when every check made passes, None
    when none could be made.
    """
    values = {"rtp_initial": cmp.rtp_initial["z"], "rtp_total_wagered": cmp.rtp_total_wagered["z"],
              "chi_square": cmp.p_value, "support": None if cmp.p_value is None else len(cmp.unexpected_values)}
    checks = []
    for key, what in ACCEPTANCE_CHECKS:
        value = values[key]
        if value is None:
            passed = None
        elif key == "chi_square":
            passed = value >= ACCEPTANCE_LEVEL
        elif key == "support":
            passed = value == 0
        else:
            passed = abs(value) <= ACCEPTANCE_Z
        checks.append({"check": key, "rule": what, "value": value, "passed": passed,
                       "statistic": {"chi_square": "p", "support": "impossible results seen"}.get(key, "z")})
    made = [c for c in checks if c["passed"] is not None]
    statistical = sum(1 for c in made if c["check"] != "support")
    return {"level": ACCEPTANCE_LEVEL, "z_limit": ACCEPTANCE_Z, "checks": checks, "checks_made": len(made),
            "false_fail_at_most": statistical * ACCEPTANCE_LEVEL,
            "passed": all(c["passed"] for c in made) if made else None}


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

    ``exact`` has the attributes of ``ev.analysis.accounting.RoundStats`` (``ev``,
    ``expected_wager``, ``rtp_initial``, ``rtp_total_wagered``, ``distribution``
    {net in bets: probability}, ``p_double``, ``p_split``, ``p_insurance``,
    ``p_even_money``, ``p_player_blackjack``, ``p_dealer_blackjack``); any of
    them may be missing (e.g. a ``RoundResult`` has only ``ev`` and ``rtp_initial``).

    The chi-square test compares the net-result histogram with the exact
    distribution; cells (in order of net result) with an expected count below
    5 are pooled with their neighbours (see :func:`chi_square_test`).
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
    current: dict[str, Any] = {"values": [], "observed": 0, "expected": 0.0}
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
    return chi2, dof, chi_square_p_value(chi2, dof), groups, unexpected


def chi_square_p_value(chi2: float, dof: int) -> float:
    """P(X >= chi2) for X chi-square distributed with ``dof`` degrees of freedom.

    That is the regularised upper incomplete gamma function Q(dof/2, chi2/2),
    computed by mpmath.
    """
    return float(mpmath.gammainc(dof / 2, chi2 / 2, regularized=True))


# ----- the command line's figures ------------------------------------------------------
def exact_figures(rules: Rules, table: Policy) -> Any:
    """The exact figures of ``table`` under ``rules`` for :func:`compare` (``ev.analysis.accounting.round_stats``)."""
    return round_stats(Game(rules), table)
