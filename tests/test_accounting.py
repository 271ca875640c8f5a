"""Wager accounting and the exact outcome distribution (issue 3)."""
from __future__ import annotations

import random

import pytest

from conftest import random_rules, random_small_shoe, removed_for
from ev import reference as ref
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.core.rules import Rules
from ev.analysis.strategy import ACTION_NAMES, optimal_table

PUBLISHED = {-2.0: 0.030673154, -1.0: 0.448921481, 0.0: 0.084566098, 1.0: 0.342615808, 1.5: 0.046492443,
             2.0: 0.046731016}


@pytest.fixture(scope="module")
def default_stats():
    return round_stats(Game(), "cdz")


def test_default_distribution_matches_published(default_stats):
    assert set(default_stats.distribution) == set(PUBLISHED)
    for x, p in PUBLISHED.items():
        assert default_stats.distribution[x] == pytest.approx(p, abs=1e-9), x
    assert default_stats.sd == pytest.approx(1.09806290953, abs=1e-9)


def test_default_rtp_total_wagered_is_the_published_figure(default_stats):
    assert round(100 * default_stats.rtp_total_wagered, 2) == 99.59
    assert round(100 * default_stats.rtp_initial, 2) == 99.55   # the other convention does not give it
    assert 1.08 < default_stats.expected_wager < 1.10
    assert default_stats.p_double == pytest.approx(0.070, abs=0.001)
    assert default_stats.p_split == pytest.approx(0.018, abs=0.001)


def test_default_mean_is_ev(default_stats):
    assert default_stats.mean == pytest.approx(Game().round("cdz").ev, abs=1e-12)
    assert sum(default_stats.distribution.values()) == pytest.approx(1.0, abs=1e-12)
    assert default_stats.p_win + default_stats.p_push + default_stats.p_loss == pytest.approx(1.0, abs=1e-12)
    # from a full single deck P(player natural) = P(dealer natural) = 2 * 4/52 * 16/51
    assert default_stats.p_player_blackjack == pytest.approx(2 * 4 / 52 * 16 / 51, abs=1e-15)
    assert default_stats.p_dealer_blackjack == pytest.approx(2 * 4 / 52 * 16 / 51, abs=1e-15)


@pytest.mark.parametrize("strategy", ["cdp1", "cdp"])
def test_other_split_strategies_mean_is_ev(strategy):
    game = Game()
    stats = round_stats(game, strategy)
    assert stats.mean == pytest.approx(game.round(strategy).ev, abs=1e-12)
    assert stats.mean == pytest.approx(-0.00444771335, abs=1e-11)


@pytest.mark.parametrize("seed", range(6))
def test_random_rules(seed):
    rng = random.Random(300 + seed)
    rules = random_rules(rng, decks=rng.choice([1, 2]))
    game = Game(rules)
    stats = round_stats(game, "cdz")
    ev = game.round("cdz").ev
    assert sum(stats.distribution.values()) == pytest.approx(1.0, abs=1e-12)
    assert all(p > 0 for p in stats.distribution.values())
    # with resplits the distribution takes the hands as independent given the dealer's final
    # outcome, an approximation of the same order as the resplit EV itself
    tolerance = 1e-12 if rules.max_split_hands <= 2 else 1e-4
    assert stats.mean == pytest.approx(ev, abs=tolerance)
    assert stats.expected_wager >= 1.0
    assert 0 <= stats.p_double <= 1 and 0 <= stats.p_split <= 1 and 0 <= stats.p_insurance <= 1
    assert stats.rtp_total_wagered == pytest.approx((stats.expected_wager + stats.ev) / stats.expected_wager, abs=1e-15)
    assert stats.rtp_total_wagered == pytest.approx((stats.expected_wager + ev) / stats.expected_wager, abs=tolerance)


@pytest.mark.parametrize("seed", range(4))
def test_distribution_agrees_with_twin_on_small_shoes(seed):
    """The pure-Python twin deals every card in table order and follows the same strategy table."""
    rng = random.Random(400 + seed)
    rules = random_rules(rng, decks=1, max_split_hands=rng.choice([1, 2]), split_tens="value",
                         insurance=True, even_money=rng.random() < 0.5)
    shoe = random_small_shoe(rng, 1, size=16, tens=6)
    game = Game(rules, removed_for(shoe, 1))
    table = optimal_table(game)
    index = {h: i for i, h in enumerate(table.hands)}
    if seed == 0:   # force insurance on some hands so that the insurance accounting is exercised
        table.insurance = bytes(1 if i % 3 == 0 else 0 for i in range(len(table.hands)))
    stats = round_stats(game, table)
    dist, stake = ref.round_distribution(
        rules, shoe,
        action=lambda up, hand: ACTION_NAMES[table.play[up][index[hand]]],
        split_action=lambda up, hand: ACTION_NAMES[table.split_play[up][index[hand]]],
        insure=lambda up, hand: bool(table.insurance[index[hand]]),
        even_money=table.even_money)
    assert sum(dist.values()) == 1
    assert set(stats.distribution) == {float(x) for x in dist}
    for x, p in dist.items():
        assert stats.distribution[float(x)] == pytest.approx(float(p), abs=1e-12), x
    assert stats.expected_wager == pytest.approx(float(stake), abs=1e-12)


def test_rule_readings():
    from ev.analysis.sensitivity import rule_readings
    peek, enhc, obo = rule_readings()
    assert obo.stats.ev == pytest.approx(peek.stats.ev, abs=1e-15)          # OBO is peek in EV
    assert obo.stats.expected_wager == pytest.approx(peek.stats.expected_wager, abs=1e-15)
    assert enhc.stats.ev < peek.stats.ev - 1e-4                               # doubles and splits lost too
    assert round(100 * peek.stats.rtp_total_wagered, 2) == 99.59
    assert round(100 * enhc.stats.rtp_total_wagered, 2) != 99.59


def test_rules_effect_cli(capsys):
    import json

    from ev.cli import main
    assert main(["rules-effect", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    effects = {e["label"]: e for e in data["effects"]}
    assert effects["dealer stands on soft 17"]["ev_change"] > 0
    assert effects["blackjack pays 6:5"]["ev_change"] < -0.01
    assert effects["8 decks"]["ev_change"] < effects["2 decks"]["ev_change"] < 0
    assert data["base"]["ev"] == pytest.approx(-0.00445128332, abs=1e-11)
    assert [r["label"] for r in data["readings"]][0] == "peek on ace and ten"


def test_ten_pairs_split_by_rank_use_the_fallback():
    """Forcing a split of ten pairs under split_tens=rank: only same-rank pairs split, the rest stand.

    Expected value from the engine's own per-deal values: the optimal EV plus, for every T-T
    deal, P(same rank) x (split value - stand value).
    """
    from ev.analysis.strategy import SPLIT
    game = Game(Rules(split_tens="rank"))
    table = optimal_table(game)
    s = game.state((0,) * 9 + (2,))
    table.play = {u: codes[:s] + bytes([SPLIT]) + codes[s + 1:] for u, codes in table.play.items()}
    result = game.round("cdz")
    same = 3 / 15
    expected = result.ev + sum(
        result.p_upcard["A23456789T"[d.up]] * d.probability * same * (d.values["split"] - d.values["stand"])
        for d in result.deals if d.cards == (9, 9))
    assert round_stats(game, table).ev == pytest.approx(expected, abs=1e-13)
    assert expected < result.ev - 0.005
