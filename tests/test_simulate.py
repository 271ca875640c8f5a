"""The Monte Carlo simulator against published generator vectors, exact combinatorics and the exact engine.

Every run uses a fixed seed, so the tests are deterministic; the tolerances
(4 standard errors, chi-square p > 0.001) are what an honest simulation of
that size meets.
"""
from __future__ import annotations

import dataclasses
import io
import json
import math
import random

import pytest

from ev.analysis.game import Game
from ev.analysis.simulation import (
    Comparison,
    SimulationResult,
    chi_square_p_value,
    chi_square_test,
    compare,
    play_chunks,
    resolve_strategy,
    simulate,
    simulator_spec,
    work_units,
)
from ev.analysis.strategy import DOUBLE, NO_ACTION, optimal_policy
from ev.cli import main
from ev.core import simulator
from ev.core.cards import N_RANKS
from ev.core.rules import Rules
from ev.errors import BJEVError, EngineError
from ev.present.progress import Progress

# The seed game (1 deck, H17, 3:2, double 10-11, no DAS, one split, peek): CDZ- EV and the
# net-result distribution from an established C++ combinatorial analyser (see DESIGN notes).
SEED_GAME_EV = -0.00445128332375
SEED_GAME_SD = 1.09806290953
SEED_GAME_DISTRIBUTION = {-2.0: 0.030673154, -1.0: 0.448921481, 0.0: 0.084566098, 1.0: 0.342615808,
                          1.5: 0.046492443, 2.0: 0.046731016}


def within(sim: float, se: float, exact: float, k: float = 4.0) -> bool:
    return abs(sim - exact) <= k * se


# ----- the generator and the shuffle ------------------------------------------------
def test_xoshiro256starstar_reference_vector():
    # reference outputs from state {1, 2, 3, 4} (rand_xoshiro's test, produced with Vigna's C code)
    assert simulator.xoshiro_outputs([1, 2, 3, 4], 10) == [
        11520, 0, 1509978240, 1215971899390074240, 1216172134540287360, 607988272756665600,
        16172922978634559625, 8476171486693032832, 10595114339597558777, 2904607092377533576]


def test_splitmix64_reference_vector():
    assert simulator.splitmix64_outputs(1234567, 5) == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
        16408922859458223821]


def test_jumped_streams_differ():
    a = simulator.xoshiro_outputs([1, 2, 3, 4], 4, jumps=0)
    b = simulator.xoshiro_outputs([1, 2, 3, 4], 4, jumps=1)
    c = simulator.xoshiro_outputs([1, 2, 3, 4], 4, jumps=2)
    assert a != b != c and a != c


def test_bounded_integers_are_in_range_and_uniform():
    draws = simulator.bounded_outputs([5, 6, 7, 8], 7, 70_000)
    assert min(draws) == 0 and max(draws) == 6
    counts = [draws.count(k) for k in range(7)]
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi_square_p_value(chi2, 6) > 0.001


@pytest.mark.parametrize("decks", [1, 2])
def test_dealt_cards_follow_the_exact_combinatorics(decks):
    """First two cards of a round: P(ranks i, j) = c_i (c_j - [i = j]) / (n (n - 1)); every face 1/13."""
    rounds = 2_000_000
    positions, pairs = simulator.deal_counts(decks, 12345 + decks, rounds, 4)
    n = 52 * decks
    count = [4 * decks] * 9 + [16 * decks]
    chi2 = 0.0
    for i in range(N_RANKS):
        for j in range(N_RANKS):
            p = count[i] * (count[j] - (i == j)) / (n * (n - 1))
            chi2 += (pairs[i][j] - rounds * p) ** 2 / (rounds * p)
    assert chi_square_p_value(chi2, 99) > 0.001
    for faces in positions:
        chi2 = sum((c - rounds / 13) ** 2 / (rounds / 13) for c in faces)
        assert chi_square_p_value(chi2, 12) > 0.001


# ----- statistics helpers -------------------------------------------------------------
def test_chi_square_p_values():
    assert chi_square_p_value(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)     # 1 dof, 5 %
    assert chi_square_p_value(11.070497693516351, 5) == pytest.approx(0.05, rel=1e-9)    # 5 dof, 5 %
    assert chi_square_p_value(20.515005652432873, 5) == pytest.approx(0.001, rel=1e-8)   # 5 dof, 0.1 %
    assert chi_square_p_value(6.0, 2) == pytest.approx(math.exp(-3.0), rel=1e-12)        # 2 dof: exp(-x/2)
    assert chi_square_p_value(1.0, 10) == pytest.approx(0.9998278843700441, rel=1e-10)
    assert chi_square_p_value(0.0, 6) == 1.0


def test_chi_square_pools_small_cells():
    hist = {-20: 3, -10: 497, 0: 0, 10: 498, 20: 2}      # tenths
    dist = {-2.0: 0.002, -1.0: 0.498, 1.0: 0.498, 2.0: 0.002}
    chi2, dof, p, cells, unexpected = chi_square_test(hist, dist, 1000)
    assert dof == 1                                      # two pooled cells
    assert [c["observed"] for c in cells] == [500, 500]
    assert chi2 == pytest.approx(0.0) and p == pytest.approx(1.0)
    assert unexpected == []
    _, _, _, _, unexpected = chi_square_test({-10: 5, 5: 1, 10: 4}, {-1.0: 0.5, 1.0: 0.5}, 10)
    assert unexpected == [0.5]


def test_ratio_standard_error_by_hand():
    """Four rounds, net (-1, +1, 0, +1.5), wager (2, 1, 1, 1): the delta-method SE done by hand."""
    nets, wagers = [-1.0, 1.0, 0.0, 1.5], [2.0, 1.0, 1.0, 1.0]
    result = SimulationResult(
        rules=Rules(), strategy="t", rounds=4, seed=0, workers=1, seconds=1.0,
        net_tenths=15, net_sq=100 + 100 + 0 + 225, wager_tenths=50, wager_sq=400 + 100 + 100 + 100,
        net_wager=-200 + 100 + 0 + 150, histogram={-10: 1, 10: 1, 0: 1, 15: 1},
        rounds_double=1, rounds_split=0, rounds_insurance=0, rounds_even_money=0,
        rounds_player_blackjack=1, rounds_dealer_blackjack=0, rounds_surrender=0)
    mean_n, mean_w = 1.5 / 4, 5.0 / 4
    ratio = mean_n / mean_w
    resid = [n - ratio * w for n, w in zip(nets, wagers)]
    var = sum((r - sum(resid) / 4) ** 2 for r in resid) / 3
    assert result.ev == pytest.approx(0.375)
    assert result.rtp_total_wagered == pytest.approx(6.5 / 5.0)
    assert result.rtp_total_wagered_se == pytest.approx(math.sqrt(var / 4) / mean_w)
    sd = math.sqrt(sum((n - mean_n) ** 2 for n in nets) / 3)
    assert result.ev_se == pytest.approx(sd / 2)
    assert result.rtp_initial_ci95[1] - result.rtp_initial_ci95[0] == pytest.approx(2 * 1.959963984540054 * sd / 2)


# ----- the seed game --------------------------------------------------------------------
@pytest.fixture(scope="module")
def seed_game():
    rules = Rules()
    table = optimal_policy(Game(rules))
    return rules, table, simulate(rules, 4_000_000, seed=2026, workers=1, strategy=table)


def test_seed_game_ev_and_distribution(seed_game):
    _, _, sim = seed_game
    assert sim.rounds == 4_000_000 and sum(sim.histogram.values()) == sim.rounds
    assert within(sim.ev, sim.ev_se, SEED_GAME_EV)
    assert within(sim.rtp_initial, sim.rtp_initial_se, 1 + SEED_GAME_EV)
    assert sim.ev_se == pytest.approx(SEED_GAME_SD / 2000, rel=0.01)
    assert abs(sim.sd - SEED_GAME_SD) < 0.002
    assert set(sim.histogram) == {-20, -10, 0, 10, 15, 20}
    _chi2, dof, p, _, unexpected = chi_square_test(sim.histogram, SEED_GAME_DISTRIBUTION, sim.rounds)
    assert dof == 5 and p > 0.001 and unexpected == []
    # the expected stake is about 1.088 initial bets (doubles about 7.0 %, splits about 1.8 %)
    assert 1.086 < sim.mean_wager < 1.090
    assert 0.069 < sim.frequencies["double"] < 0.071 and 0.017 < sim.frequencies["split"] < 0.019
    assert sim.rounds_insurance == 0 and sim.rounds_even_money == 0 and sim.rounds_surrender == 0
    # P(natural) for one deck: 2 * 4 * 16 / (52 * 51) for the player and the dealer alike
    p_natural = 2 * 4 * 16 / (52 * 51)
    for name in ("player_blackjack", "dealer_blackjack"):
        q = sim.frequencies[name]
        assert within(q, math.sqrt(p_natural * (1 - p_natural) / sim.rounds), p_natural)


def test_seed_game_compare_with_round_ev(seed_game):
    _, _, sim = seed_game
    result = compare(sim, Game().round("cdz"))
    assert isinstance(result, Comparison)
    assert result.ev["exact"] == pytest.approx(SEED_GAME_EV, abs=1e-13)
    assert abs(result.ev["z"]) < 4 and abs(result.rtp_initial["z"]) < 4
    assert result.rtp_total_wagered["exact"] is None and result.chi_square is None
    assert result.frequencies["double"]["exact"] is None


def test_seed_game_compare_with_accounting(seed_game):
    from ev.analysis import accounting
    rules, table, sim = seed_game
    exact = accounting.round_stats(Game(rules), table)
    assert exact.ev == pytest.approx(SEED_GAME_EV, abs=1e-12)
    c = compare(sim, exact)
    assert abs(c.ev["z"]) < 4 and abs(c.rtp_total_wagered["z"]) < 4 and abs(c.mean_wager["z"]) < 4
    assert c.p_value > 0.001 and c.dof == 5 and not c.unexpected_values
    for name in ("double", "split", "player_blackjack", "dealer_blackjack"):
        assert abs(c.frequencies[name]["z"]) < 4, name
    lo, hi = sim.rtp_total_wagered_ci99
    assert lo < exact.rtp_total_wagered < hi


# ----- reproducibility -------------------------------------------------------------------
def _tallies(sim: SimulationResult) -> tuple:
    return (sim.net_tenths, sim.net_sq, sim.wager_tenths, sim.net_wager, sorted(sim.histogram.items()),
            sim.rounds_double, sim.rounds_split, sim.rounds_player_blackjack, sim.rounds_dealer_blackjack)


def test_same_seed_same_result_whatever_the_workers_and_different_seed_different(seed_game):
    rules, table, _ = seed_game
    run = lambda seed, workers: simulate(rules, 300_001, seed=seed, workers=workers,  # noqa: E731
                                         strategy=table)
    a, b, c = run(7, 2), run(7, 1), run(8, 2)
    assert _tallies(a) == _tallies(b)
    assert _tallies(a) != _tallies(c)
    assert a.seed == 7 and a.workers == 2 and b.workers == 1 and a.rounds == 300_001
    assert a.chunk_rounds == 1 << 20 and a.chunks == 1
    assert a.generator == "xoshiro256**" and "Blackman" in a.generator_reference
    assert simulate(rules, 10, seed=3, workers=3, strategy=table).rounds == 10


@pytest.mark.slow
def test_chunks_are_the_units_of_randomness(seed_game):
    """Rounds [k C, (k+1) C) are chunk k's, whoever plays them: a run of 2.5 chunks is the sum of its chunks."""
    rules, table, _ = seed_game
    spec = simulator_spec(rules, table)
    c = simulator.CHUNK_ROUNDS
    rounds = 2 * c + 1000
    whole = play_chunks((spec, 99), (0, 3, rounds))
    parts = [play_chunks((spec, 99), (k, k + 1, rounds)) for k in (2, 0, 1)]     # any order
    assert whole["rounds"] == rounds == sum(p["rounds"] for p in parts)
    for key in ("net", "net_sq", "wager", "double", "split", "player_blackjack"):
        assert whole[key] == sum(p[key] for p in parts), key
    assert parts[1]["rounds"] == parts[2]["rounds"] == c and parts[0]["rounds"] == 1000
    # a 1000-round run is the first 1000 rounds of chunk 0, whatever the run's length
    assert play_chunks((spec, 99), (0, 1, 1000)) == play_chunks((spec, 99), (0, 1, 1000))
    sim = simulate(rules, rounds, seed=99, workers=2, strategy=table)
    assert (sim.net_tenths, sim.rounds_split) == (whole["net"], whole["split"]) and sim.chunks == 3
    assert [u[:2] for u in work_units(rounds, 1)] == [(0, 1), (1, 2), (2, 3)]
    big = work_units(10 ** 11, 1600)                      # 95,368 chunks on 100 nodes of 16 cores
    assert len(big) == 3974 and big[0] == (0, 24, 10 ** 11) and big[-1][1] == 95368
    assert sum(end - first for first, end, _ in big) == 95368
    assert work_units(40 * c, 1) == [(0, 5, 40 * c), (5, 10, 40 * c), (10, 15, 40 * c), (15, 20, 40 * c),
                                     (20, 25, 40 * c), (25, 30, 40 * c), (30, 35, 40 * c), (35, 40, 40 * c)]


def test_chunk_start_states_are_jumps_and_long_jumps():
    """Chunk k starts (k // 1024) long jumps and (k % 1024) jumps after the splitmix64-seeded state."""
    seeded = simulator.chunk_start_state(5, 0)
    assert seeded == simulator.splitmix64_outputs(5, 4)
    assert first_outputs(simulator.chunk_start_state(5, 3)) == simulator.xoshiro_outputs(seeded, 3, jumps=3)
    assert first_outputs(simulator.chunk_start_state(5, 1024)) == simulator.xoshiro_outputs(seeded, 3, long_jumps=1)
    assert first_outputs(simulator.chunk_start_state(5, 2 * 1024 + 7)) == simulator.xoshiro_outputs(
        seeded, 3, jumps=7, long_jumps=2)
    assert simulator.CHUNKS_PER_BLOCK == 1024


def _xoshiro_step(state: list[int]) -> list[int]:
    """One xoshiro256** state transition, written out again in Python (the state, not the output)."""
    m = (1 << 64) - 1
    s0, s1, s2, s3 = state
    t = (s1 << 17) & m
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 45) | (s3 >> 19)) & m
    return [s0, s1, s2, s3]


@pytest.mark.slow
def test_jump_polynomials_advance_2_to_128_and_2_to_192_steps():
    """The transition is linear over GF(2): square its 256 x 256 matrix 128 and 192 times and compare."""
    pack = lambda st: st[0] | st[1] << 64 | st[2] << 128 | st[3] << 192  # noqa: E731
    unpack = lambda v: [(v >> (64 * i)) & ((1 << 64) - 1) for i in range(4)]  # noqa: E731
    columns = [pack(_xoshiro_step(unpack(1 << i))) for i in range(256)]    # image of each basis state

    def apply(cols: list[int], v: int) -> int:
        out = 0
        while v:
            low = v & -v
            out ^= cols[low.bit_length() - 1]
            v ^= low
        return out

    state = [0x0123456789ABCDEF, 0xFEDCBA9876543210, 0x0F1E2D3C4B5A6978, 0x8796A5B4C3D2E1F0]
    powers = {}
    for k in range(1, 193):
        columns = [apply(columns, c) for c in columns]                       # T^(2^k)
        if k in (128, 192):
            powers[k] = unpack(apply(columns, pack(state)))
    assert first_outputs(powers[128]) == simulator.xoshiro_outputs(state, 3, jumps=1)
    assert first_outputs(powers[192]) == simulator.xoshiro_outputs(state, 3, long_jumps=1)


def first_outputs(state: list[int]) -> list[int]:
    return simulator.xoshiro_outputs(state, 3)


# ----- the strategy table is checked ------------------------------------------------------
def test_a_table_that_breaks_the_rules_is_rejected(seed_game):
    rules, table, _ = seed_game
    hard12 = table._index()[(0, 1, 0, 0, 0, 0, 0, 0, 0, 1)]      # 2-T
    play = dict(table.play)
    codes = bytearray(play[5])
    codes[hard12] = DOUBLE                                         # doubling 12 under "10-11"
    play[5] = bytes(codes)
    bad = dataclasses.replace(table, play=play)
    with pytest.raises(EngineError, match="breaks the rules"):
        simulate(rules, 1000, seed=1, workers=1, strategy=bad)


@pytest.mark.parametrize("seed", range(4))
def test_validate_finds_every_broken_cell_and_names_it(seed_game, seed):
    """Policy.validate checks every state at once by bits; a random cell of a random table changed to an
    action the rules forbid there, or to an unknown code, is found, and the message names the hand."""
    from ev.analysis.strategy import allowed_masks
    _, table, _ = seed_game
    table.validate()                                  # the optimal table is legal
    rng = random.Random(seed)
    masks = allowed_masks(table.rules, tuple(table.hands))
    for _ in range(20):
        name = rng.choice(["play", "fallback", "split_play"])
        up = rng.randrange(10)
        codes = bytearray(getattr(table, name)[up])
        s = rng.randrange(len(codes))
        bad_codes = [c for c in range(5) if not masks[name][0][s] >> c & 1] + [17]
        codes[s] = rng.choice(bad_codes)
        changed = dataclasses.replace(table, **{name: {**getattr(table, name), up: bytes(codes)}})
        with pytest.raises(EngineError, match=r"breaks the rules: .*(on|code)"):
            changed.validate()


def test_a_table_without_an_action_for_a_dealt_hand_stops_with_an_error(seed_game):
    rules, table, _ = seed_game
    t6 = table._index()[(0, 0, 0, 0, 0, 1, 0, 0, 0, 1)]
    play = {up: bytes(NO_ACTION if s == t6 else c for s, c in enumerate(codes)) for up, codes in table.play.items()}
    with pytest.raises(EngineError, match="no action for 6-T"):
        simulate(rules, 100_000, seed=1, workers=1, strategy=dataclasses.replace(table, play=play))


def test_a_table_for_another_deck_count_is_rejected(seed_game):
    _, table, _ = seed_game
    with pytest.raises(EngineError, match="hand graph"):
        simulate(Rules(decks=2), 1000, seed=1, workers=1, strategy=table)


def test_bad_arguments():
    with pytest.raises(BJEVError, match="rounds"):
        simulate(Rules(), 0, seed=1, workers=1)
    with pytest.raises(BJEVError, match="seed"):
        simulate(Rules(), 10, seed=-1, workers=1)
    with pytest.raises(BJEVError, match="workers"):
        simulate(Rules(), 10, seed=1, workers=0)
    with pytest.raises(BJEVError, match="unknown strategy"):
        resolve_strategy(Rules(), "perfect")


# ----- other rule sets against the exact engine ---------------------------------------------
RESPLIT_SURRENDER = Rules(decks=2, hit_soft_17=False, double_after_split=True, max_split_hands=4,
                          late_surrender=True)
NO_HOLE_CARD = Rules(peek="none", unchecked_blackjack_takes="all")
OBO_SIX_FIVE = Rules(blackjack_payout="6:5", double="any", split_tens="rank", peek="ten",
                     unchecked_blackjack_takes="original", max_split_hands=2, double_after_split=True)


@pytest.mark.parametrize("rules, rounds, seed", [(RESPLIT_SURRENDER, 2_000_000, 11),
                                                 (NO_HOLE_CARD, 2_000_000, 12),
                                                 (OBO_SIX_FIVE, 2_000_000, 13)],
                         ids=["2d-S17-DAS-RS4-LS", "no-hole-card", "OBO-6to5-tens-by-rank"])
@pytest.mark.quick_cases(1)
def test_other_rules_agree_with_the_exact_ev(rules, rounds, seed):
    game = Game(rules)
    table = optimal_policy(game)
    sim = simulate(rules, rounds, seed=seed, workers=1, strategy=table)
    exact_ev = game.round("cdz").ev
    assert within(sim.ev, sim.ev_se, exact_ev), (sim.ev, sim.ev_se, exact_ev)
    if rules.late_surrender:
        assert sim.rounds_surrender > 0 and -5 in sim.histogram
    if rules.max_split_hands > 2:
        assert min(sim.histogram) <= -30                 # three or more hands lost in one round
    if rules.blackjack_payout == "6:5":
        assert 12 in sim.histogram and 15 not in sim.histogram
        assert sim.rounds_even_money > 0                 # 1 < 1.2 * P(no dealer blackjack): even money pays
    from ev.analysis import accounting
    if rules.max_split_hands == 2:                       # the exact distribution of one split is exact
        exact = accounting.round_stats(game, table)
        c = compare(sim, exact)
        assert c.p_value > 0.001, c.cells
        for name in ("double", "split", "even_money", "player_blackjack", "dealer_blackjack"):
            assert abs(c.frequencies[name]["z"]) < 4, name
        assert abs(c.rtp_total_wagered["z"]) < 4 and abs(c.mean_wager["z"]) < 4


def test_insurance_always_taken_matches_exact():
    """A table that always insures: the insurance bets are settled and staked as the exact accounting says."""
    from ev.analysis import accounting
    rules = Rules(peek="ten", unchecked_blackjack_takes="all")  # no peek under the ace: insurance settled after play
    game = Game(rules)
    table = optimal_policy(game)
    insure = dataclasses.replace(table, insurance=bytes([1]) * len(table.hands), name="always insure")
    sim = simulate(rules, 2_000_000, seed=21, workers=1, strategy=insure)
    exact = accounting.round_stats(game, insure)
    c = compare(sim, exact)
    assert exact.p_insurance > 0.07 and sim.rounds_insurance > 0
    assert abs(c.frequencies["insurance"]["z"]) < 4
    assert abs(c.ev["z"]) < 4 and abs(c.mean_wager["z"]) < 4 and c.p_value > 0.001
    assert -5 in sim.histogram or -15 in sim.histogram  # half a bet lost on insurance


@pytest.mark.slow
def test_basic_chart_agrees_with_its_exact_ev():
    from ev.analysis import accounting
    from ev.analysis import basic_strategy as chart
    game = Game(Rules())
    table = chart.basic_policy(game)
    sim = simulate(game.rules, 2_000_000, seed=31, workers=1, strategy=table)
    c = compare(sim, accounting.round_stats(game, table))
    assert abs(c.ev["z"]) < 4 and c.p_value > 0.001


# ----- progress and the command line ------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def simulation_bar(stream) -> Progress:
    """The bar ``bjev simulate`` shows (see ``ev.cli.cmd_simulate``)."""
    return Progress(100, "simulating", unit="rounds", min_seconds=2.0, stream=stream)


def test_progress_bar_only_for_long_runs_on_a_terminal():
    out = _Terminal()
    with simulation_bar(out) as bar:
        bar.start -= 1.0                  # one second in, 10 % done: about 10 s to go
        bar.update(10)
        bar.update(100)
    text = out.getvalue()
    assert "simulating [" in text and "100.0%" in text and "100/100 rounds" in text and text.endswith("\n")
    quick = _Terminal()
    with simulation_bar(quick) as bar:
        bar.update(50)                    # at once: too short to show
        bar.update(100)
    assert quick.getvalue() == ""
    piped = io.StringIO()
    with simulation_bar(piped) as bar:
        bar.start -= 5.0
        bar.update(10)
        bar.update(100)
    assert piped.getvalue() == ""


@pytest.mark.slow
def test_simulate_reports_progress_and_never_prints(capsys):
    rules = Rules()
    table = optimal_policy(Game(rules))
    for workers in (1, 2):
        seen: list[int] = []
        sim = simulate(rules, 3 << 20, seed=4, workers=workers, strategy=table, progress=seen.append)
        assert seen and seen == sorted(seen) and seen[-1] == sim.rounds == 3 << 20
        assert capsys.readouterr() == ("", "")


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_simulate_json(capsys):
    code, out, err = run_cli(capsys, "simulate", "--rounds", "2e5", "--seed", "5", "--workers", "1", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["rounds"] == 200_000 and data["seed"] == 5 and data["generator"] == "xoshiro256**"
    assert data["ev"]["exact"] == pytest.approx(SEED_GAME_EV, abs=1e-12)
    assert abs(data["ev"]["z"]) < 4
    assert data["ev"]["ci95"][0] < data["ev"]["simulated"] < data["ev"]["ci95"][1]
    assert data["rtp_initial"]["simulated"] == pytest.approx(1 + data["ev"]["simulated"])
    assert set(data["net_results"]) == {"-2", "-1", "0", "1", "1.5", "2"}
    assert sum(v["rounds"] for v in data["net_results"].values()) == 200_000
    assert "double" in data["frequencies"] and "rules" in data


@pytest.mark.slow
def test_cli_simulate_text(capsys):
    code, out, _ = run_cli(capsys, "simulate", "--rounds", "100000", "--seed", "9", "--workers", "1",
                           "--set", "decks=2")
    assert code == 0
    for label in ("EV per initial bet", "RTP per initial bet", "RTP per total wagered", "95% CI", "99% CI",
                  "Chi-square", "P(double)", "P(split)", "P(player blackjack)", "Seed: 9", "xoshiro256**",
                  "2 decks"):
        assert label in out, label


def test_cli_simulate_errors(capsys):
    code, _, err = run_cli(capsys, "simulate", "--rounds", "ten")
    assert code == 2 and err.count("\n") == 1 and "--rounds" in err
    code, _, err = run_cli(capsys, "simulate", "--rounds", "10", "--strategy", "best")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run_cli(capsys, "simulate", "--rounds", "0")
    assert code == 2 and err.count("\n") == 1 and "positive" in err
    code, _, err = run_cli(capsys, "simulate", "--rounds", "10", "--seed", "-1")
    assert code == 2 and err.count("\n") == 1 and "--seed" in err


# ----- the acceptance rule ----------------------------------------------------------------
def _comparison(z1=0.5, z2=0.5, p=0.5, unexpected=()) -> Comparison:
    fig = lambda z: {"simulated": 1.0, "se": 0.01, "exact": None if z is None else 1.0, "z": z}  # noqa: E731
    return Comparison(rounds=10, ev=fig(z1), rtp_initial=fig(z1), rtp_total_wagered=fig(z2), mean_wager=fig(0.0),
                      chi_square=None if p is None else 1.0, dof=None if p is None else 5, p_value=p, cells=[],
                      unexpected_values=list(unexpected), frequencies={})


def test_acceptance_limits_are_the_two_sided_999_point_and_0001():
    from statistics import NormalDist

    from ev.analysis.simulation import ACCEPTANCE_LEVEL, ACCEPTANCE_Z, acceptance
    assert pytest.approx(NormalDist().inv_cdf(1 - ACCEPTANCE_LEVEL / 2), abs=1e-12) == ACCEPTANCE_Z
    assert acceptance(_comparison(3.29, -3.29, 0.0011))["passed"] is True
    for case in (_comparison(z1=3.291), _comparison(z2=-3.291), _comparison(p=0.00099), _comparison(unexpected=[7.5])):
        verdict = acceptance(case)
        assert verdict["passed"] is False and sum(c["passed"] is False for c in verdict["checks"]) == 1
    verdict = acceptance(_comparison(z2=None, p=None))
    assert verdict["checks_made"] == 1 and verdict["passed"] is True and verdict["false_fail_at_most"] == 0.001
    assert acceptance(_comparison(None, None, None))["passed"] is None


@pytest.mark.slow
def test_the_verdict_fails_a_simulation_of_another_game(seed_game):
    """The same 4e6 rounds of the 3:2 game judged against the exact figures of the 6:5 game: FAIL on the
    RTPs and the chi-square; against their own game: PASS."""
    from ev.analysis import accounting
    from ev.analysis.simulation import acceptance
    rules, table, sim = seed_game
    assert acceptance(compare(sim, accounting.round_stats(Game(rules), table)))["passed"] is True
    wrong = acceptance(compare(sim, accounting.round_stats(Game(Rules(blackjack_payout="6:5")), "cdz")))
    assert wrong["passed"] is False
    assert {c["check"] for c in wrong["checks"] if c["passed"] is False} >= {"rtp_initial", "chi_square"}


def test_cli_simulate_states_the_rule_first_and_the_verdict_last(capsys):
    code, out, err = run_cli(capsys, "simulate", "--rounds", "2e5", "--seed", "5", "--workers", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    rule = lines.index(next(x for x in lines if x.startswith("Acceptance rule")))
    table = lines.index(next(x for x in lines if x.startswith("RTP per initial bet")))
    assert rule < table and lines[-1] == "Verdict: PASS (4 of 4 checks made)"
    code, out, _ = run_cli(capsys, "simulate", "--rounds", "2e5", "--seed", "5", "--workers", "1", "--json")
    assert json.loads(out)["acceptance"]["passed"] is True


@pytest.mark.slow
def test_cli_certify_estimates_first_and_fails_with_exit_1(capsys, monkeypatch):
    code, out, err = run_cli(capsys, "simulate", "--certify", "--rounds", "2e5", "--seed", "5", "--workers", "1")
    assert code == 0 and out.splitlines()[-1].startswith("Verdict: PASS")
    assert err.startswith("bjev: 2e+05 rounds on 1 worker(s): about") and "pilot" in err
    import ev.present.simulation_text as text
    real = text.acceptance
    monkeypatch.setattr(text, "acceptance", lambda cmp: {**real(cmp), "passed": False})
    code, out, err = run_cli(capsys, "simulate", "--certify", "--rounds", "2e5", "--seed", "5", "--workers", "1")
    assert code == 1
    assert err.splitlines()[-1] == "bjev: error: the simulation's verdict is FAIL (see the last line of the output)"
    code, _, err = run_cli(capsys, "simulate")
    assert code == 2 and "--certify" in err and err.count("\n") == 1


@pytest.mark.slow
def test_simulate_says_when_it_compares_with_an_approximate_distribution(capsys):
    """Where the exact figures' distribution scores the hands of splits of more than two hands independently
    given the dealer's outcome (two decks to four hands): `bjev simulate` says so (text and JSON) with the
    distribution's distance from the EV; with one split it says nothing of the kind."""
    argv = ["simulate", "--rounds", "20000", "--seed", "3", "--workers", "1"]
    assert main([*argv, "--set", "decks=2", "--set", "max_split_hands=4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distribution_method"] == "independent"
    assert "independent given the dealer's outcome" in data["distribution_note"]
    assert "initial bets from the exact EV" in data["distribution_note"]
    assert main([*argv, "--set", "decks=2", "--set", "max_split_hands=4"]) == 0
    assert "compare with that approximation" in " ".join(capsys.readouterr().out.split())
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distribution_method"] == "exact" and "distribution_note" not in data


@pytest.mark.slow
def test_a_long_search_says_it_is_at_work_on_a_terminal_only():
    """One long computation that cannot tell how far it has come (``bjev hand`` on a pair under truly optimal
    resplits: one search of minutes) gets a line that says it is still at work: the label, a turning mark, the
    seconds so far, and a newline at the end; nothing for a short block, and nothing off a terminal."""
    import re
    import time

    from ev.present.progress import Waiting
    shown = io.StringIO()
    with Waiting("truly optimal split search", enabled=True, min_seconds=0.2, stream=shown):
        time.sleep(0.9)
    lines = shown.getvalue().split("\r")[1:]
    assert len(lines) >= 3 and shown.getvalue().endswith("\n")
    seconds = [float(re.search(r"([\d.]+)s", line).group(1)) for line in lines]
    assert all(line.startswith("truly optimal split search ") for line in lines)
    assert seconds == sorted(seconds) and seconds[0] >= 0.2 and seconds[-1] >= 0.85
    assert len({line.split()[4] for line in lines[:4]}) >= 3          # the mark turns
    for enabled, seconds_in in ((True, 0.05), (False, 0.5)):          # a short block; not a terminal
        quiet = io.StringIO()
        with Waiting("x", enabled=enabled, min_seconds=0.2, stream=quiet):
            time.sleep(seconds_in)
        assert quiet.getvalue() == ""
    assert Waiting("x", stream=io.StringIO()).enabled is False        # StringIO is no terminal
