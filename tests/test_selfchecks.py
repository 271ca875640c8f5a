"""The self-checks (ev.analysis.selfchecks): each passes on the engine as it is and fails on a planted error."""
from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

from ev.analysis import selfchecks
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.analysis.selfchecks import (
    FLOAT_TOLERANCE,
    INDEPENDENT_TOLERANCE,
    chain_check,
    distribution_check,
    exact_float_check,
    fixed_policy_ev,
    on_hand_graph,
    removal_arithmetic,
    removal_average,
    removal_check,
    split_chain_check,
    split_order_check,
    split_values_by_strategy,
)
from ev.analysis.strategies import mimic_dealer_policy
from ev.analysis.strategy import optimal_policy
from ev.core.actions import split_mode
from ev.core.cards import RANK_SYMBOLS
from ev.core.rules import Rules

#: a small shoe: one deck less these cards (27 left), so that exact checks take about a second
SMALL = (1, 3, 3, 3, 3, 2, 2, 1, 1, 6)
RESPLIT_DAS = Rules(max_split_hands=4, double_after_split=True)


@pytest.fixture(scope="module")
def default_stats():
    """(float game, float stats, exact game, exact stats) of the default rules, CDZ-."""
    float_game, exact_game = Game(), Game(exact=True)
    return float_game, round_stats(float_game), exact_game, round_stats(exact_game)


def _json_ready(check) -> None:
    assert json.loads(json.dumps(check.as_dict()))["key"] == check.key


# ----- the fixed-policy EV the removal average is built on ------------------------------------------
@pytest.mark.parametrize("rules, removed", [
    (Rules(), (0,) * 10),
    (RESPLIT_DAS, SMALL),
    (Rules(split_tens="rank", max_split_hands=4, late_surrender=True, peek="none",
           unchecked_blackjack_takes="all"), SMALL),
])
@pytest.mark.slow
def test_the_optimal_policy_held_fixed_is_worth_the_round_ev(rules, removed):
    """Two routes to one number: the policy evaluator on the optimal tables (resplits by
    resplit_value over the evaluator's split hands) and the solver's round EV, as fractions."""
    game = Game(rules, removed, exact=True)
    assert fixed_policy_ev(game, optimal_policy(game)) == game.round("cdz").ev


def test_a_policy_is_matched_to_a_hand_graph_by_composition():
    game = Game()
    policy = optimal_policy(game)
    order = list(range(len(policy.hands)))[::-1]
    shuffled = dataclasses.replace(
        policy, hands=[policy.hands[i] for i in order],
        play={up: bytes(t[i] for i in order) for up, t in policy.play.items()},
        fallback={up: bytes(t[i] for i in order) for up, t in policy.fallback.items()},
        split_play={up: bytes(t[i] for i in order) for up, t in policy.split_play.items()},
        insurance=bytes(policy.insurance[i] for i in order))
    mapped = on_hand_graph(shuffled, game)
    assert mapped.hands == policy.hands
    assert (mapped.play, mapped.fallback, mapped.split_play, mapped.insurance) == \
        (policy.play, policy.fallback, policy.split_play, policy.insurance)
    assert fixed_policy_ev(game, shuffled) == fixed_policy_ev(game, policy)


# ----- the removal average --------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [
    Rules(),
    RESPLIT_DAS,
    Rules(split_tens="rank", max_split_hands=4, late_surrender=True, peek="none", unchecked_blackjack_takes="all"),
])
@pytest.mark.slow
def test_the_removal_average_is_the_full_shoe_ev_exactly_on_a_small_shoe(rules):
    game = Game(rules, SMALL, exact=True)
    average = removal_average(game)
    assert isinstance(average.difference, Fraction) and average.difference == 0
    assert average.ev == game.round("cdz").ev
    assert sum(average.weights.values()) == 1 and set(average.ev_by_removed) == set(RANK_SYMBOLS)
    check = removal_check(game)
    assert (check.passed, check.arithmetic, check.figure, check.tolerance) == (True, "exact", 0.0, 0.0)
    _json_ready(check)


@pytest.mark.slow
def test_the_removal_average_in_floats_on_the_default_game():
    game = Game()
    check = removal_check(game)
    assert check.passed and check.arithmetic == "float" and check.tolerance == FLOAT_TOLERANCE
    assert check.figure < 1e-15
    assert check.detail["ev"] == pytest.approx(-0.00445128332, abs=1e-11)
    _json_ready(check)
    check = removal_check(game, mimic_dealer_policy(game))         # any strategy held fixed keeps the identity
    assert check.passed and check.figure < 1e-15 and check.detail["ev"] < -0.05


@pytest.mark.slow
def test_the_removal_average_is_the_full_shoe_ev_exactly_on_the_default_game():   # about 6 s
    check = removal_check(Game(), arithmetic="exact")
    assert (check.passed, check.arithmetic, check.figure) == (True, "exact", 0.0)


def _replanned(monkeypatch, *, split_hands_only: bool) -> None:
    """Plant an error: on every shoe the policy's tables (or only its split-hand tables) are those of
    that shoe's optimal strategy, which knows the burnt card."""
    held = selfchecks.on_hand_graph

    def replanned(policy, game):
        fresh = optimal_policy(game)
        return dataclasses.replace(held(policy, game), split_play=fresh.split_play) if split_hands_only else fresh

    monkeypatch.setattr(selfchecks, "on_hand_graph", replanned)


@pytest.mark.slow
def test_the_removal_check_fails_when_play_is_optimised_again_on_each_shoe(monkeypatch):
    _replanned(monkeypatch, split_hands_only=False)
    check = removal_check(Game())
    assert not check.passed and check.figure > 1e-5         # knowing the burnt card is worth about 1.8e-4


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.slow
def test_the_removal_check_fails_when_split_hands_are_optimised_again(monkeypatch, exact):
    _replanned(monkeypatch, split_hands_only=True)
    game = Game(Rules(), (0,) * 10) if not exact else Game(RESPLIT_DAS, SMALL, exact=True)
    check = removal_check(game)
    assert not check.passed and check.figure > (1e-7 if not exact else 0)      # default game: about 5.2e-6


@pytest.mark.slow
def test_the_removal_check_takes_the_arithmetic_asked_for():
    assert removal_arithmetic(Game()) == "float"
    assert removal_arithmetic(Game(exact=True)) == "exact"
    game = Game(Rules(), SMALL)
    check = removal_check(game, arithmetic="exact")
    assert check.arithmetic == "exact" and check.passed
    with pytest.raises(ValueError, match="arithmetic must be one of"):
        removal_check(game, arithmetic="decimal")
    with pytest.raises(ValueError, match="other rules"):
        removal_check(game, optimal_policy(Game(Rules(hit_soft_17=False), SMALL)))


# ----- distribution, exact equals float --------------------------------------------------------------
@pytest.mark.slow
def test_the_distribution_checks_pass_on_the_default_game(default_stats):
    float_game, float_stats, exact_game, exact_stats = default_stats
    check = distribution_check(float_stats, float_game.round().ev)
    assert check.passed and check.arithmetic == "float" and check.figure < 1e-15
    check = distribution_check(exact_stats, exact_game.round().ev)
    assert (check.passed, check.arithmetic, check.figure, check.tolerance) == (True, "exact", 0.0, 0.0)
    _json_ready(check)


@pytest.mark.slow
def test_the_distribution_check_flags_a_wrong_distribution(default_stats):
    _, float_stats, exact_game, exact_stats = default_stats
    ev = exact_game.round().ev
    tiny = Fraction(1, 10**15)
    moved = dict(exact_stats.distribution)
    moved[Fraction(-1)] -= tiny
    moved[Fraction(1)] += tiny                          # still sums to 1, the mean moves by 2e-15
    check = distribution_check(dataclasses.replace(exact_stats, distribution=moved), ev)
    assert not check.passed and check.detail["sum_deviation"] == 0 and check.figure == pytest.approx(2e-15)
    moved = dict(float_stats.distribution)
    moved[-1.0] -= 1e-9                                  # the mass no longer sums to 1
    assert not distribution_check(dataclasses.replace(float_stats, distribution=moved), ev).passed
    negative = dict(exact_stats.distribution)
    m = negative[Fraction(-2)] + tiny                    # -2 loses m (to -tiny), -1 gains 2m, 0 loses m:
    negative[Fraction(-2)] -= m                          # the sum and the mean are kept
    negative[Fraction(-1)] += 2 * m
    negative[Fraction(0)] -= m
    assert sum(negative.values()) == 1 and sum(x * p for x, p in negative.items()) == ev
    check = distribution_check(dataclasses.replace(exact_stats, distribution=negative), ev)
    assert not check.passed and check.detail["lowest_probability"] < 0


def test_the_distribution_check_allows_for_independently_scored_resplits():
    game = Game(Rules(decks=2, max_split_hands=4))
    stats = round_stats(game)
    assert stats.distribution_method == "independent"
    check = distribution_check(stats, game.round().ev)
    assert check.passed and check.tolerance == INDEPENDENT_TOLERANCE
    assert FLOAT_TOLERANCE < check.detail["mean_deviation"] < INDEPENDENT_TOLERANCE
    assert "independently" in check.description


def test_exact_equals_float_on_the_default_game(default_stats):
    _, float_stats, _, exact_stats = default_stats
    check = exact_float_check(float_stats, exact_stats)
    assert check.passed and check.figure < 1e-15
    assert set(check.detail) == {"ev", "expected_wager", "rtp_initial", "rtp_total_wagered"}
    _json_ready(check)
    off = dataclasses.replace(float_stats, expected_wager=float_stats.expected_wager + 1e-10)
    check = exact_float_check(off, exact_stats)
    assert not check.passed and check.figure == pytest.approx(1e-10, rel=1e-3)
    with pytest.raises(ValueError):
        exact_float_check(exact_stats, float_stats)


# ----- strategy chains -------------------------------------------------------------------------------
def test_the_chain_check_flags_a_wrong_order():
    right = [("optimal", -0.0044), ("cdp", -0.0044), ("cdz", -0.0045), ("basic", -0.005), ("minimum", -1.3)]
    check = chain_check("strategy-chain", "EVs fall along the chain", right)
    assert check.passed and check.figure == 0 and check.detail["worst_pair"] is None
    _json_ready(check)
    wrong = [("optimal", -0.0045), ("cdz", -0.0044), ("basic", -0.006), ("minimum", -0.005)]
    check = chain_check("strategy-chain", "EVs fall along the chain", wrong)
    assert not check.passed and check.figure == pytest.approx(1e-3) and check.detail["worst_pair"] == ["basic",
                                                                                                      "minimum"]
    assert chain_check("c", "d", [("a", 0.0), ("b", 1e-13)]).passed            # rounding, in floats
    exact = chain_check("c", "d", [("a", Fraction(0)), ("b", Fraction(1, 10**30))])
    assert exact.arithmetic == "exact" and exact.tolerance == 0 and not exact.passed


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.slow
def test_split_values_fall_from_optimal_to_cdz_per_up_card_and_pair(exact):
    game = Game(Rules(double_after_split=True), SMALL, exact=exact)
    order = ("optimal", "cdp", "cdp1", "cdz")
    values = split_values_by_strategy(game, order)
    up, pair = game.upcards()[0], 5
    assert values["cdp1"][RANK_SYMBOLS[up], RANK_SYMBOLS[pair]] == game.split_value(game.solver(up), pair,
                                                                                     split_mode("cdp1"))
    check = split_chain_check("split-chain", "split EVs fall from optimal to CDZ-", [(s, values[s]) for s in order])
    assert check.passed and check.detail["keys"] == len(values["cdz"]) > 40
    _json_ready(check)
    reversed_check = split_chain_check("split-chain", "reversed", [(s, values[s]) for s in order[::-1]])
    assert not reversed_check.passed and reversed_check.figure > 1e-6
    with pytest.raises(ValueError, match="same keys"):
        split_chain_check("x", "y", [("cdz", values["cdz"]), ("cdp", {})])


def test_the_split_order_check_leaves_out_the_pairs_that_can_be_resplit():
    game = Game(Rules(max_split_hands=4))                   # aces split once, every other pair up to four hands
    check = split_order_check(game)
    assert check.passed and check.detail["pairs_left_out"] == list(RANK_SYMBOLS[1:])
    assert check.detail["keys"] == len(game.upcards())      # A-A against every up card
    # CDP against CDP1 with resplits: not an order, and a chain over it would be a false alarm
    values = split_values_by_strategy(game, ("cdp", "cdp1"), pairs=[9])
    assert values["cdp1"]["A", "T"] - values["cdp"]["A", "T"] == pytest.approx(6.56e-6, rel=1e-2)


def test_the_split_order_check_on_one_split_and_on_none():
    check = split_order_check(Game(Rules(double_after_split=True), SMALL))
    assert check.passed and check.detail["pairs_left_out"] == [] and check.detail["keys"] > 40
    check = split_order_check(Game(Rules(max_split_hands=1)))
    assert check.passed and check.detail["keys"] == 0 and check.tolerance == FLOAT_TOLERANCE
