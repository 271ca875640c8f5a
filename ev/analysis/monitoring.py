"""Monitoring limits: where the observed RTP of a correct game lies after n rounds.

An operator watches a game's live RTP. After n rounds the observed RTP per
initial bet is 1 + S_n / n, S_n the total net result in initial bets: the
sum of n independent rounds, each distributed as the exact per-round
distribution of ``ev.analysis.accounting.round_stats``.  The per-round net
result lives on a lattice (half bets for a 3:2 payout, tenths for 6:5), so S_n
lives on one too, and its distribution is the n-fold convolution of the
round's.

* **Exact** up to ``EXACT_MAX_ROUNDS`` rounds: the n-fold convolution on the
  lattice by one FFT (the round's transform raised to the n-th power), its
  tails accurate to about 1e-12, far below the 5e-4 a 99.9 % limit needs.
  The limits are lattice points: the lower one is the smallest value s with
  P(S_n <= s) >= alpha/2, the upper the largest with P(S_n >= s) >= alpha/2,
  so a correct game falls below (above) them with probability under alpha/2
  each; ``coverage`` is the exact P(lower <= S_n <= upper) (at least the
  confidence).
* **Cornish-Fisher** above: the normal quantile corrected for the skewness
  and excess kurtosis of S_n (they shrink as 1/sqrt(n) and 1/n).  At the
  switch the two methods differ by ``switch_error`` (measured, in RTP).

The RTP per total wagered, 1 + S_n / W_n with W_n the total staked, is a
ratio of two sums; its limits use the delta method: W_n / n is replaced by
its mean E[W], and S_n - r W_n (r the exact ratio EV / E[W]) is a sum of n
independent rounds whose moments come from the exact joint distribution of
a round's net result and stake; the quantile is Cornish-Fisher's at every n
(``method`` says so).  It is the approximation the simulation's standard
error makes, and the tests check both conventions against simulated rounds.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import numpy as np

from ev.errors import BJEVError

#: the exact n-fold convolution is used up to this many rounds; Cornish-Fisher above
EXACT_MAX_ROUNDS = 100_000
#: the confidence levels of the default table, and the rounds (10^2 .. 10^9)
CONFIDENCES = (0.95, 0.99, 0.999)
ROUNDS = tuple(10 ** k for k in range(2, 10))
#: the most rounds a limit is given for
MAX_ROUNDS = 10 ** 15


class MonitoringError(BJEVError):
    """A bad number of rounds or confidence level."""


@dataclass(frozen=True)
class Limits:
    """The limits of the observed RTP after ``rounds`` rounds at ``confidence`` (fractions: 0.97 is 97 %)."""

    rounds: int
    confidence: float
    convention: str          # "initial" or "total_wagered"
    expected: float          # the exact RTP in this convention
    low: float
    high: float
    method: str              # "exact" ("convolution" of an approximate distribution: RoundLaw.of) or
                             # "cornish-fisher" (initial); "delta-cornish-fisher" (total wagered)
    coverage: float | None   # exact P(low <= observed <= high); None where approximate

    def as_dict(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "confidence": self.confidence, "convention": self.convention,
                "expected": self.expected, "low": self.low, "high": self.high, "method": self.method,
                "coverage": self.coverage}


class RoundLaw:
    """One round's net result (initial bets) as a lattice distribution, and its moments.

    ``distribution``: {net: probability}, the probabilities summing to 1 (a
    ``RoundStats.distribution``); ``joint``: {(net, stake): probability}, for the
    RTP per total wagered (``RoundStats.joint``), optional.
    """

    def __init__(self, distribution: dict, joint: dict | None = None,
                 exact: tuple[float, float] | None = None) -> None:
        if not distribution:
            raise MonitoringError("the round's distribution is empty")
        nets = [Fraction(k).limit_denominator(1000) for k in distribution]
        self.step = Fraction(math.gcd(*(int(x * 1000) for x in nets)) or 1000, 1000)
        self.low = min(nets)
        points = [int((x - self.low) / self.step) for x in nets]
        self.pmf = np.zeros(max(points) + 1)
        for i, p in zip(points, distribution.values()):
            self.pmf[i] += float(p)
        self.pmf /= self.pmf.sum()
        x = float(self.low) + float(self.step) * np.arange(len(self.pmf))
        self.mean = float(self.pmf @ x)
        self.moments = _central_moments(x, self.pmf, self.mean)
        self.joint = joint
        #: the exact RTPs (per initial bet, per total wagered) where the distribution is an approximation (see
        #: :meth:`of`); None: the distribution is exact, and so are the RTPs it implies
        self.exact = exact
        self._sums: dict[int, np.ndarray] = {}      # the last n-fold sum asked for (each confidence reads it)

    @classmethod
    def of(cls, stats: Any) -> RoundLaw:
        """The law of a ``RoundStats``.  Where it scored three- and four-hand splits independently
        (``distribution_method`` "independent"), its distribution's mean lies up to about 2e-6 bets from the EV
        (measured): the limits are then those of that distribution (``method`` says "convolution", not "exact"),
        centred as it is, and ``expected`` is the exact RTP."""
        exact = (None if stats.distribution_method == "exact" else
                 (float(stats.rtp_initial), float(stats.rtp_total_wagered)))
        return cls(stats.distribution, stats.joint, exact)

    def sum_pmf(self, n: int) -> np.ndarray:
        """The distribution of the sum of n rounds on the lattice low * n + k * step, k = 0, 1, ..."""
        if n not in self._sums:
            self._sums = {n: self._sum_pmf(n)}
        return self._sums[n]

    def _sum_pmf(self, n: int) -> np.ndarray:
        size = n * (len(self.pmf) - 1) + 1
        fft_size = 1 << (size - 1).bit_length()
        pmf = np.fft.irfft(np.fft.rfft(self.pmf, fft_size) ** n, fft_size)[:size]
        np.clip(pmf, 0.0, None, out=pmf)
        return pmf / pmf.sum()


def _central_moments(x: np.ndarray, p: np.ndarray, mean: float) -> tuple[float, float, float]:
    """(variance, third, fourth) central moments."""
    d = x - mean
    return float(p @ d ** 2), float(p @ d ** 3), float(p @ d ** 4)


def _cornish_fisher(z: float, skew: float, kurt: float) -> float:
    """The standardised quantile for a normal quantile z, given skewness and excess kurtosis."""
    return (z + (z * z - 1) * skew / 6 + (z ** 3 - 3 * z) * kurt / 24 - (2 * z ** 3 - 5 * z) * skew * skew / 36)


def _sum_quantiles(n: int, moments: tuple[float, float, float], mean: float, confidence: float
                   ) -> tuple[float, float]:
    """Cornish-Fisher quantiles (alpha/2 and 1 - alpha/2) of the sum of n rounds."""
    var, m3, m4 = moments
    sd = math.sqrt(n * var)
    skew = m3 / var ** 1.5 / math.sqrt(n) if var > 0 else 0.0
    kurt = (m4 / var ** 2 - 3) / n if var > 0 else 0.0
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    return (n * mean + sd * _cornish_fisher(-z, skew, kurt), n * mean + sd * _cornish_fisher(z, skew, kurt))


def check(rounds: int, confidence: float) -> None:
    """Refuse rounds outside 1 .. MAX_ROUNDS and a confidence outside (0, 1), in one line."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise MonitoringError(f"rounds must be a whole number from 1 to {MAX_ROUNDS:.0e}, not {rounds!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise MonitoringError(f"the confidence must be between 0 and 1 (0.99 is 99 %), not {confidence!r}")


def initial_limits(law: RoundLaw, rounds: int, confidence: float) -> Limits:
    """Limits of the observed RTP per initial bet, 1 + S_n / n (module docstring)."""
    check(rounds, confidence)
    expected = 1 + law.mean if law.exact is None else law.exact[0]
    if rounds <= EXACT_MAX_ROUNDS:
        lo, hi, coverage = _exact_sum_limits(law, rounds, confidence)
        return Limits(rounds, confidence, "initial", expected, 1 + lo / rounds, 1 + hi / rounds,
                      "exact" if law.exact is None else "convolution", coverage)
    lo, hi = _sum_quantiles(rounds, law.moments, law.mean, confidence)
    return Limits(rounds, confidence, "initial", expected, 1 + lo / rounds, 1 + hi / rounds, "cornish-fisher", None)


def _exact_sum_limits(law: RoundLaw, n: int, confidence: float) -> tuple[float, float, float]:
    pmf = law.sum_pmf(n)
    tail = (1 - confidence) / 2
    cdf = np.cumsum(pmf)
    upper_tail = np.cumsum(pmf[::-1])[::-1]          # P(S >= s)
    k_lo = int(np.searchsorted(cdf, tail))           # smallest k with P(S <= s_k) >= tail
    k_hi = int(np.nonzero(upper_tail >= tail)[0][-1])  # largest k with P(S >= s_k) >= tail
    values = float(law.low) * n + float(law.step) * np.array([k_lo, k_hi])
    return float(values[0]), float(values[1]), float(pmf[k_lo:k_hi + 1].sum())


def switch_error(law: RoundLaw, confidence: float) -> float:
    """The largest difference, in RTP, between the exact and the Cornish-Fisher limits at the switch."""
    exact = _exact_sum_limits(law, EXACT_MAX_ROUNDS, confidence)
    approx = _sum_quantiles(EXACT_MAX_ROUNDS, law.moments, law.mean, confidence)
    return max(abs(exact[0] - approx[0]), abs(exact[1] - approx[1])) / EXACT_MAX_ROUNDS


def total_wagered_limits(law: RoundLaw, rounds: int, confidence: float) -> Limits:
    """Limits of the observed RTP per total wagered, 1 + S_n / W_n, by the delta method (module docstring)."""
    check(rounds, confidence)
    if not law.joint:
        raise MonitoringError("the RTP per total wagered needs the joint distribution of net result and stake")
    pairs = np.array([[float(x), float(w)] for x, w in law.joint])
    p = np.array([float(v) for v in law.joint.values()])
    p /= p.sum()
    mean_net, mean_stake = float(p @ pairs[:, 0]), float(p @ pairs[:, 1])
    ratio = mean_net / mean_stake
    z = pairs[:, 0] - ratio * pairs[:, 1]            # mean 0: S_n - r W_n is a sum of these
    lo, hi = _sum_quantiles(rounds, _central_moments(z, p, 0.0), 0.0, confidence)
    scale = rounds * mean_stake
    expected = 1 + ratio if law.exact is None else law.exact[1]
    return Limits(rounds, confidence, "total_wagered", expected, 1 + ratio + lo / scale, 1 + ratio + hi / scale,
                  "delta-cornish-fisher", None)


def limits_table(law: RoundLaw, rounds: Sequence[int] = ROUNDS, confidences: Sequence[float] = CONFIDENCES
                 ) -> list[Limits]:
    """Both conventions' limits for every (rounds, confidence), the initial bet's first."""
    out = [initial_limits(law, n, c) for n in rounds for c in confidences]     # n outer: one convolution each
    if law.joint:
        out += [total_wagered_limits(law, n, c) for n in rounds for c in confidences]
    return out
