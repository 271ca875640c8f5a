"""The true minimum over every legal strategy (``ev.analysis.strategies.minimum_figures``) and the worst split play.

Oracles: ``ev.reference.optimal_split_search(..., worst=True)``, a plain search over every way to play both
split hands (exact fractions, small shoes), and ``ev.reference.minimum_round_ev``, the worst of every decision
of a whole round on a small shoe.  The restricted minimum (split hands follow one table per up card, CDZ-) is
``worst_policy``: a legal strategy too, so the true minimum may not lie above it.
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from conftest import SEED_GAME_GROUP, removed_for, same

from ev import reference as ref
from ev.analysis import optimal_split
from ev.analysis.accounting import round_stats
from ev.analysis.basic_strategy import basic_policy
from ev.analysis.game import Game
from ev.analysis.optimal_split import WORST
from ev.analysis.strategies import (
    SCOPE_ALL,
    SCOPE_CDZ,
    minimum_figures,
    minimum_scope,
    policy_figures,
    split_round,
    strategy_table,
    total_rule_policy,
    worst_policy,
)
from ev.core.cards import N_RANKS, blackjack_rank
from ev.core.rules import Rules

#: small shoes (up card included) where the search is quick; the notes say which decisions they test
SEARCH_CASES = [
    # first-hand exact ties of the worst play (decided exactly, stand before hit), and second-hand ones
    ((1, 0, 1, 1, 0, 1, 2, 3, 1, 6), 8, 6, dict(hit_soft_17=False, double="any", peek="ace_ten",
                                                 first_hand_ties=True)),
    ((1, 2, 1, 1, 0, 1, 1, 2, 1, 6), 0, 1, dict(hit_soft_17=False, blackjack_payout="1:1", double="10-11",
                                                 peek="ace_ten", late_surrender=True, first_hand_ties=True)),
    ((2, 0, 2, 0, 1, 3, 2, 0, 2, 6), 0, 2, dict(hit_soft_17=False, double="10-11", double_soft=False,
                                                 peek="ace_ten", first_hand_ties=True)),
    # doubles after a split, split aces that hit, no hole card (a dealer blackjack takes every wager)
    ((3, 3, 0, 0, 1, 0, 1, 1, 2, 4), 7, 0, dict(double="any", double_after_split=True, hit_soft_17=False,
                                                 peek="none", split_aces_one_card=False, double_soft=False)),
    pytest.param((3, 1, 2, 0, 2, 0, 0, 3, 1, 4), 9, 7,
                 dict(double="9-11", double_after_split=True, peek="ten", split_aces_one_card=False,
                      double_soft=False), marks=pytest.mark.slow),
    # the worst play doubles after the split
    pytest.param((2, 1, 3, 0, 1, 2, 2, 2, 0, 4), 4, 2,
                 dict(hit_soft_17=False, double="any", double_after_split=True, peek="ten"), marks=pytest.mark.slow),
]

#: a whole round on a small shoe: aces and tens to split (aces hit), doubles on any two cards after a split too,
#: surrender and insurance offered
ROUND_SHOE = (2, 1, 0, 1, 0, 1, 1, 1, 1, 5)
ROUND_RULES = Rules(double="any", double_after_split=True, late_surrender=True, split_aces_one_card=False)


def small_game(shoe: tuple, rules: Rules, exact: bool) -> Game:
    return Game(rules, removed_for(shoe, 1), exact=exact)


@cache
def searched(shoe: tuple, up: int, pair: int, rules: Rules) -> tuple:
    base = tuple(c - (r == up) for r, c in enumerate(shoe))
    return ref.optimal_split_search(base, up, rules, pair, worst=True)


@cache
def round_searched(shoe: tuple, rules: Rules) -> Fraction:
    return ref.minimum_round_ev(rules, shoe)


@pytest.mark.xdist_group("minimum-search")      # one worker: each case's search is made once (searched)
@pytest.mark.parametrize("shoe, up, pair, changes", SEARCH_CASES)
@pytest.mark.quick_cases(2)
def test_split_equals_search_over_all_split_play(arith, shoe, up, pair, changes):
    """The worst split's EV, stake and outcome distribution equal the search's minimum over every way to play
    both hands; the best play's value lies above."""
    changes = dict(changes)
    first_hand_ties = changes.pop("first_hand_ties", False)
    rules = Rules(**changes)
    value, distribution = searched(shoe, up, pair, rules)
    game = small_game(shoe, rules, arith.exact)
    assert same(arith, optimal_split.split_value(game, up, pair, WORST), value)
    mine = optimal_split.split_distribution(game, up, pair, WORST)
    assert set(mine) == set(distribution)
    assert all(same(arith, mine[k], distribution[k]) for k in distribution)
    stake = sum(((2 + doubles) * mass for (doubles, _, _), mass in distribution.items()), Fraction(0))
    assert same(arith, optimal_split.split_stake(game, up, pair, WORST), stake)
    if arith.exact:     # the exact mode met exact ties of the first hand where noted (decided stand first)
        ties = optimal_split.tie_records(game, up, WORST)
        assert any(t["context"].endswith("first hand") for t in ties) == first_hand_ties
    assert optimal_split.split_value(game, up, pair) > value


@pytest.mark.xdist_group("minimum-search")
@pytest.mark.slow
def test_round_equals_search_over_all_play(arith):
    """A whole round's minimum: every decision the worst, by the reference search; the outcome distribution's
    mean is the EV and its stake the E[W] of the figures; below every other strategy and the restricted
    minimum."""
    game = small_game(ROUND_SHOE, ROUND_RULES, arith.exact)
    figures = minimum_figures(game)
    assert same(arith, figures.ev, round_searched(ROUND_SHOE, ROUND_RULES))
    stats = minimum_figures(game, distribution=True)
    assert same(arith, stats.mean, figures.ev) and same(arith, stats.ev, figures.ev)
    assert same(arith, stats.expected_wager, figures.expected_wager)
    assert same(arith, sum(stats.distribution.values()), 1)
    assert stats.p_split > 0 and stats.p_double > 0
    restricted = policy_figures(game, worst_policy(game))
    assert figures.ev < restricted.ev
    rows = strategy_table(game, basic_policy(small_game(ROUND_SHOE, ROUND_RULES, exact=False)))
    minimum = rows[-1]
    assert minimum.key == "minimum" and minimum.scope == SCOPE_ALL and minimum.scope_reason
    assert same(arith, minimum.figures.ev, figures.ev)
    assert all(row.figures.ev > figures.ev for row in rows[:-1]), [(row.key, row.figures.ev) for row in rows]
    # the report's floor: every round stakes at least the initial bet, so no strategy returns less per total
    # wagered than the minimum's RTP per initial bet
    assert all(row.figures.rtp_total_wagered >= figures.rtp_initial for row in rows)


@pytest.mark.xdist_group(SEED_GAME_GROUP)      # with the report's tests: the seed game's searches made once
@pytest.mark.slow
def test_default_game():
    """The seed game: the true minimum lies below the restricted (CDZ-) minimum; split by split, the worst split
    play lies below the CDZ- worst play of split hands; the float figures equal the exact ones (the exact
    minimum_figures(Game(Rules(), exact=True)), two minutes, is held here as fractions)."""
    game = Game(Rules())
    figures = minimum_figures(game)
    policy = worst_policy(game)
    restricted = policy_figures(game, policy)
    assert -3e-6 > figures.ev - restricted.ev > -5e-6          # 3.07e-6 bets lower
    assert figures.rtp_total_wagered < restricted.rtp_total_wagered
    exact_ev = Fraction(-1265991640864068900470477, 1759836718423385738136000)
    exact_stake = Fraction(627611, 541450)
    assert abs(figures.ev - float(exact_ev)) < 1e-12
    # the lowest EV is not the lowest RTP per total wagered (the report says so, and gives the floor): hitting
    # every hand below 21, never doubling, splitting or insuring, stakes one bet and returns less per bet staked
    hitter = policy_figures(game, total_rule_policy(game, "always hit", lambda total, soft: True))
    assert hitter.expected_wager == pytest.approx(1, abs=1e-12) and hitter.ev > figures.ev
    assert figures.rtp_initial < hitter.rtp_total_wagered < figures.rtp_total_wagered - 0.02     # 35.8 % < 37.9 %
    # the exact stake was made with even money staked as 1.5 (insurance on the blackjack; the minimum takes it)
    assert abs(figures.expected_wager_at(Fraction(3, 2)) - float(exact_stake)) < 1e-12
    for up in game.upcards():
        evaluator = game.arithmetic.evaluator(game.solver(up), blackjack_rank(up), policy.play[up],
                                              policy.split_play[up] * N_RANKS)
        for pair in range(N_RANKS):
            cdz = split_round(game, evaluator, up, pair, policy.split_play[up])[0]
            assert optimal_split.split_value(game, up, pair, WORST) <= cdz + 1e-12, (up, pair)


@pytest.mark.parametrize("up, pair", [(9, 9), (5, 7)])
@pytest.mark.quick_cases(1)
def test_default_game_float_equals_exact(up, pair):
    """Split by split on the seed game (tens against a ten, eights against a six): float and exact agree
    (values, stakes, distributions), and the exact distribution's mean is the exact value."""
    floats, exact = Game(Rules()), Game(Rules(), exact=True)
    value = optimal_split.split_value(exact, up, pair, WORST)
    assert abs(optimal_split.split_value(floats, up, pair, WORST) - float(value)) < 1e-12
    stake = optimal_split.split_stake(exact, up, pair, WORST)
    assert abs(optimal_split.split_stake(floats, up, pair, WORST) - float(stake)) < 1e-12
    cells = optimal_split.split_distribution(exact, up, pair, WORST)
    assert sum(net * mass for (_, _, net), mass in cells.items()) == value
    expected = optimal_split.split_distribution(floats, up, pair, WORST)
    assert set(cells) == set(expected) and all(abs(float(cells[k]) - expected[k]) < 1e-12 for k in expected)


def test_resplits_keep_the_restricted_minimum():
    """Where a pair makes more than two hands the row is the restricted minimum, and its scope says so."""
    game = small_game((2, 2, 2, 1, 2, 1, 2, 1, 2, 6), Rules(max_split_hands=3), exact=False)
    assert minimum_scope(game.rules)[0] == SCOPE_CDZ and "3 hands" in minimum_scope(game.rules)[1]
    rows = strategy_table(game, split_strategies=("cdz",))
    minimum = rows[-1]
    assert (minimum.key, minimum.scope) == ("minimum", SCOPE_CDZ) and "CDZ-" in minimum.scope_reason
    restricted = policy_figures(game, worst_policy(game))
    assert minimum.figures.ev == restricted.ev and minimum.figures.expected_wager == restricted.expected_wager
    assert all(row.figures.ev > minimum.figures.ev for row in rows[:-1])
    assert all(row.scope == "" for row in rows[:-1])


@pytest.mark.slow
def test_without_splits_the_minimum_is_the_worst_unsplit_play():
    """No split allowed: nothing to search, and the true minimum is the restricted one."""
    game = small_game(ROUND_SHOE, Rules(max_split_hands=1, double="any", late_surrender=True), exact=True)
    assert minimum_scope(game.rules)[0] == SCOPE_ALL
    figures = minimum_figures(game)
    assert figures.ev == policy_figures(game, worst_policy(game)).ev
    assert figures.ev == round_stats(game, worst_policy(game)).ev == round_searched(ROUND_SHOE, game.rules)
