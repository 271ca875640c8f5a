"""Monitoring limits of the observed RTP: exact against brute force, and against simulated games."""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

from ev.analysis import monitoring as m
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.analysis.simulation import simulate
from ev.analysis.strategy import optimal_policy
from ev.cli import main
from ev.core.rules import Rules


@pytest.fixture(scope="module")
def seed_law():
    stats = round_stats(Game(), "cdz")
    return m.RoundLaw(stats.distribution, stats.joint)


@pytest.mark.parametrize("rules", [Rules(), Rules(blackjack_payout="6:5", decks=2, late_surrender=True)])
@pytest.mark.slow
def test_exact_limits_are_brute_force_convolution_in_fractions(rules):
    """n-fold convolution of the exact per-round distribution in fractions, its lattice quantiles by
    definition: the same limits and (to 1e-12) the same coverage as the FFT."""
    exact = round_stats(Game(rules, exact=True), "cdz")
    assert sum(exact.distribution.values()) == 1
    law = m.RoundLaw(round_stats(Game(rules), "cdz").distribution)
    sums: dict[Fraction, Fraction] = {Fraction(0): Fraction(1)}
    for n in range(1, 9):
        grown: dict[Fraction, Fraction] = {}
        for s, p in sums.items():
            for x, q in exact.distribution.items():
                grown[s + x] = grown.get(s + x, Fraction(0)) + p * q
        sums = grown
        values = sorted(sums)
        for confidence in (0.5, 0.9, 0.99):
            tail = Fraction(1 - confidence).limit_denominator(10 ** 6) / 2
            cdf, below = Fraction(0), []
            for v in values:
                cdf += sums[v]
                below.append(cdf)
            low = next(v for v, c in zip(values, below) if c >= tail)
            high = max(v for v, c in zip(values, below) if 1 - c + sums[v] >= tail)
            got = m.initial_limits(law, n, confidence)
            assert got.method == "exact"
            assert (got.low, got.high) == pytest.approx((float(1 + low / n), float(1 + high / n)), abs=1e-13), (
                n, confidence)
            coverage = sum(p for v, p in sums.items() if low <= v <= high)
            assert got.coverage == pytest.approx(float(coverage), abs=1e-12) and coverage >= confidence


def test_fft_is_direct_convolution(seed_law):
    direct = np.array([1.0])
    for _ in range(300):
        direct = np.convolve(direct, seed_law.pmf)
    assert np.max(np.abs(seed_law.sum_pmf(300) - direct)) < 1e-14


def test_cornish_fisher_meets_the_exact_limits_at_the_switch(seed_law):
    """At 1e5 rounds the approximation is within 1e-5 of the exact limits in RTP (a tenth of a hundredth of a
    percentage point), at each confidence."""
    for confidence in m.CONFIDENCES:
        assert m.switch_error(seed_law, confidence) < 1e-5
    above = m.initial_limits(seed_law, m.EXACT_MAX_ROUNDS + 1, 0.99)
    at = m.initial_limits(seed_law, m.EXACT_MAX_ROUNDS, 0.99)
    assert above.method == "cornish-fisher" and abs(above.low - at.low) < 2e-5 and abs(above.high - at.high) < 2e-5


def test_limits_narrow_around_the_exact_rtp(seed_law):
    table = m.limits_table(seed_law)
    for convention in ("initial", "total_wagered"):
        rows = [r for r in table if r.convention == convention and r.confidence == 0.99]
        assert all(r.low < r.expected < r.high for r in rows)
        widths = [r.high - r.low for r in rows]
        assert all(a > b for a, b in itertools.pairwise(widths))
    initial = [r for r in table if r.convention == "initial" and r.rounds == 10 ** 9]
    assert [r.high - r.low for r in initial] == sorted(r.high - r.low for r in initial)   # 95 < 99 < 99.9 %
    assert initial[0].expected == pytest.approx(1 - 0.004451283323754, abs=1e-14)


@pytest.mark.slow
def test_simulated_games_fall_outside_as_often_as_the_limits_say(seed_law):
    """1,000 simulated games of 2,000 rounds each (the real simulator, optimal play): the share outside the
    95 % limits is 5 % within sampling error, per initial bet (exact) and per total wagered (delta method)."""
    rules = Rules()
    table = optimal_policy(Game(rules))
    n, games = 2_000, 1_000
    outside = {"initial": 0, "total_wagered": 0}
    initial = m.initial_limits(seed_law, n, 0.95)
    wagered = m.total_wagered_limits(seed_law, n, 0.95)
    for seed in range(games):
        sim = simulate(rules, n, seed=seed + 1, workers=1, strategy=table)
        outside["initial"] += not initial.low <= sim.rtp_initial <= initial.high
        outside["total_wagered"] += not wagered.low <= sim.rtp_total_wagered <= wagered.high
    sd = (0.05 * 0.95 / games) ** 0.5
    for convention, count in outside.items():
        assert abs(count / games - 0.05) < 4 * sd, (convention, count)


@pytest.mark.slow
def test_monitor_command(capsys):
    assert main(["monitor", "--rounds", "1e4", "--rounds", "1e6", "--confidence", "0.99", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {(r["convention"], r["rounds"]): r for r in data["limits"]}
    assert set(rows) == {(c, n) for c in ("initial", "total_wagered") for n in (10 ** 4, 10 ** 6)}
    assert rows["initial", 10 ** 4]["method"] == "exact" and rows["initial", 10 ** 6]["method"] == "cornish-fisher"
    assert rows["initial", 10 ** 4]["coverage"] >= 0.99 and set(data["switch_error"]) == {"0.99"}
    assert main(["monitor", "--rounds", "1000"]) == 0
    out = capsys.readouterr().out
    assert "RTP per initial bet: exact 99.5549 %" in out and "92.7500" not in out.split("RTP per total")[1]


@pytest.mark.parametrize("argv", [["--confidence", "1.5"], ["--confidence", "0"], ["--confidence", "x"],
                                  ["--rounds", "0"], ["--rounds", "1e16"]])
def test_monitor_bad_input(capsys, argv):
    assert main(["monitor", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bjev: error:")


def test_api_refuses_bad_values(seed_law):
    for rounds, confidence in ((0, 0.9), (True, 0.9), (10, 1.0), (10, "0.9"), (10 ** 16, 0.9)):
        with pytest.raises(m.MonitoringError):
            m.initial_limits(seed_law, rounds, confidence)


@pytest.mark.slow
def test_an_approximate_distribution_is_not_called_exact():
    """With resplits to four hands at two decks the round's distribution scores big splits independently: the
    limits up to 1e5 rounds are then 'convolution', not 'exact', and the RTPs shown are the exact ones."""
    stats = round_stats(Game(Rules(decks=2, max_split_hands=4)), "cdz")
    assert stats.distribution_method == "independent"
    law = m.RoundLaw.of(stats)
    initial, wagered = m.initial_limits(law, 1000, 0.99), m.total_wagered_limits(law, 1000, 0.99)
    assert initial.method == "convolution" and initial.expected == float(stats.rtp_initial)
    assert wagered.expected == float(stats.rtp_total_wagered)
    assert abs(initial.expected - (1 + law.mean)) < 1e-5
    exact = m.RoundLaw.of(round_stats(Game(), "cdz"))
    assert exact.exact is None and m.initial_limits(exact, 1000, 0.99).method == "exact"
