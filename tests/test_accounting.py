"""Wager accounting and the outcome distribution of a round, once per arithmetic.

The distribution is checked against the published figures, against its own EV (its mean is the round
EV, exactly with one split), and against the twin that deals every card in table order.
"""
from __future__ import annotations

import functools
import random
from fractions import Fraction

import published
import pytest
from conftest import by_net, exact_is_slow, game_in, random_removed, random_rules, random_small_shoe, removed_for, same

from ev import reference as ref
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.analysis.strategy import ACTION_NAMES, SPLIT, SURRENDER, optimal_policy
from ev.core.cards import TEN
from ev.core.rules import Rules

_STATS: dict = {}


def default_stats(arith, strategy: str = "cdz"):
    key = (arith.exact, strategy)
    if key not in _STATS:
        _STATS[key] = round_stats(game_in(arith), strategy)
    return _STATS[key]


@exact_is_slow
def test_default_distribution_matches_published(arith):
    stats = default_stats(arith)
    assert set(stats.distribution) == set(published.DISTRIBUTION)
    for x, p in published.DISTRIBUTION.items():
        assert stats.distribution[x] == pytest.approx(p, abs=published.DISTRIBUTION_TOLERANCE), x
    assert float(stats.sd) == pytest.approx(published.SD, abs=published.SD_TOLERANCE)


@exact_is_slow
def test_default_rtp_total_wagered_is_the_published_figure(arith):
    stats = default_stats(arith)
    assert round(100 * float(stats.rtp_total_wagered), 2) == published.RTP_PERCENT
    assert round(100 * float(stats.rtp_initial), 2) == 99.55   # the other convention does not give it
    assert same(arith, stats.rtp_total_wagered, (stats.expected_wager + stats.ev) / stats.expected_wager, 1e-15)
    assert 1.08 < stats.expected_wager < 1.10
    assert stats.p_double == pytest.approx(0.070, abs=0.001)
    assert stats.p_split == pytest.approx(0.018, abs=0.001)


@exact_is_slow
def test_default_mean_is_ev(arith):
    stats = default_stats(arith)
    assert same(arith, stats.mean, game_in(arith).round("cdz").ev)
    assert same(arith, stats.ev, stats.mean)
    assert same(arith, sum(stats.distribution.values()), 1)
    assert same(arith, stats.p_win + stats.p_push + stats.p_loss, 1)
    # from a full single deck P(player natural) = P(dealer natural) = 2 * 4/52 * 16/51
    assert same(arith, stats.p_player_blackjack, Fraction(2 * 4 * 16, 52 * 51), 1e-15)
    assert same(arith, stats.p_dealer_blackjack, Fraction(2 * 4 * 16, 52 * 51), 1e-15)


@exact_is_slow
@pytest.mark.parametrize("strategy", ["cdp1", "cdp"])
def test_other_split_strategies_mean_is_ev(arith, strategy):
    stats = default_stats(arith, strategy)
    assert same(arith, stats.mean, game_in(arith).round(strategy).ev)
    assert stats.mean == pytest.approx(-0.00444771335, abs=1e-11)


@exact_is_slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.quick_cases(2)
def test_random_rules(arith, seed):
    """Random rule sets on depleted shoes: the distribution sums to 1 and its mean is the round EV (exactly
    by the exact method; within 1e-4 with hands of resplits scored independently)."""
    rng = random.Random(300 + seed)
    decks = rng.choice([1, 2])
    rules = random_rules(rng, decks=decks)
    if arith.exact:   # hitting split aces makes thousands of split-hand finals: slow in fractions
        rules = rules.replace(split_aces_one_card=True)
    removed = random_removed(rng, decks, rng.randrange(12, 24) if decks == 1 else rng.randrange(50, 60))
    game = game_in(arith, rules, removed)
    strategy = "cdz" if seed % 2 == 0 else rng.choice(["cdp1", "cdp"])
    stats = round_stats(game, strategy)
    ev = game.round(strategy).ev
    assert same(arith, sum(stats.distribution.values()), 1)
    assert all(p > 0 for p in stats.distribution.values())
    assert same(arith, stats.ev, ev)
    if stats.distribution_method == "exact":
        assert same(arith, stats.mean, ev)
    else:
        assert rules.max_split_hands > 2 and stats.mean == pytest.approx(ev, abs=1e-4)
    assert stats.expected_wager >= 1
    assert 0 <= stats.p_double <= 1 and 0 <= stats.p_split <= 1 and 0 <= stats.p_insurance <= 1
    assert same(arith, stats.rtp_total_wagered, (stats.expected_wager + stats.ev) / stats.expected_wager, 1e-15)


@functools.cache
def _twin_distribution(seed: int) -> tuple:
    """A random rule set and 16-card shoe, the optimal table on it, and the twin's distribution and stake."""
    rng = random.Random(400 + seed)
    rules = random_rules(rng, decks=1, max_split_hands=rng.choice([1, 2]), split_tens="value",
                         insurance=True, even_money=rng.random() < 0.5)
    shoe = random_small_shoe(rng, 1, size=16, tens=6)
    table = optimal_policy(Game(rules, removed_for(shoe, 1)))
    if seed == 0:   # take insurance on some hands so that the insurance accounting is exercised
        table.insurance = bytes(1 if i % 3 == 0 else 0 for i in range(len(table.hands)))
    index = {h: i for i, h in enumerate(table.hands)}
    dist, stake = ref.round_distribution(
        rules, shoe,
        action=lambda up, hand: ACTION_NAMES[table.play[up][index[hand]]],
        split_action=lambda up, hand: ACTION_NAMES[table.split_play[up][index[hand]]],
        insure=lambda up, hand: bool(table.insurance[index[hand]]),
        even_money=table.even_money)
    return rules, shoe, table, {x: p for x, p in dist.items() if p}, stake


@pytest.mark.slow
@pytest.mark.xdist_group("twin-distribution")     # one worker: the twin's distribution is made once per seed
@pytest.mark.parametrize("seed", range(4))
def test_distribution_agrees_with_twin_on_small_shoes(arith, seed):
    """The twin deals every card in table order and follows the same strategy table."""
    rules, shoe, table, dist, stake = _twin_distribution(seed)
    stats = round_stats(game_in(arith, rules, removed_for(shoe, 1)), table)
    mine = by_net(stats.distribution)
    assert sum(dist.values()) == 1
    assert set(mine) == set(dist)
    for x, p in dist.items():
        assert same(arith, mine[x], p), x
    assert same(arith, stats.expected_wager, stake)


@exact_is_slow
def test_ten_rank_split_share(arith):
    """Tens split by rank, T-T split against a 5: the other-rank share plays the best non-split action."""
    rules = Rules(hit_soft_17=False, blackjack_payout="1:1", double="any", double_soft=False,
                  double_after_split=True, resplit_aces=True, split_tens="rank", peek="ten",
                  unchecked_blackjack_takes="all", late_surrender=True)
    game = game_in(arith, rules, [1, 2, 1, 3, 0, 2, 1, 2, 3, 2])
    result = game.round("cdz")
    deal = next(d for d in result.deals if d.up == 4 and d.cards == (TEN, TEN))
    assert deal.best == "split" and same(arith, deal.split_probability, Fraction(3, 15))
    stats = round_stats(game, "cdz")
    assert same(arith, stats.mean, result.ev) and same(arith, sum(stats.distribution.values()), 1)
    assert same(arith, stats.ev_by_upcard["5"], result.ev_by_upcard["5"])


@exact_is_slow
def test_ten_pairs_split_by_rank_use_the_fallback(arith):
    """Forcing a split of ten pairs under split_tens=rank: only same-rank pairs split, the rest stand.

    Expected value from the engine's own per-deal values: the optimal EV plus, for every T-T
    deal, P(same rank) x (split value - stand value).
    """
    game = game_in(arith, Rules(split_tens="rank"))
    table = optimal_policy(game)
    s = game.state((0,) * 9 + (2,))
    table.play = {u: codes[:s] + bytes([SPLIT]) + codes[s + 1:] for u, codes in table.play.items()}
    result = game.round("cdz")
    same_rank = Fraction(3, 15)
    expected = result.ev + sum(
        result.p_upcard["A23456789T"[d.up]] * d.probability * same_rank * (d.values["split"] - d.values["stand"])
        for d in result.deals if d.cards == (9, 9))
    assert same(arith, round_stats(game, table).ev, expected, 1e-13)
    assert expected < result.ev - 0.005


@exact_is_slow
@pytest.mark.parametrize("hands, strategy, das", [(3, "cdz", True), (4, "cdp", True), (4, "cdp1", False)])
def test_resplit_distribution(arith, hands, strategy, das):
    """Resplits: the exact distribution sums to 1 and its mean is the resplit round EV (exactly, as
    fractions); hands scored independently given the dealer's outcome move the distribution's mean a
    little (on this 23-card shoe; about 1e-6 on a full deck), and P(double) where split hands may
    double, while the EV, E[W] and P(split) stay the exact figures (as the commands and the report say,
    under every split strategy)."""
    rng = random.Random(1100 + hands)
    rules = Rules(max_split_hands=hands, double_after_split=das, resplit_aces=True, peek="ten",
                  unchecked_blackjack_takes="all")
    game = game_in(arith, rules, random_removed(rng, 1, 29))
    stats = round_stats(game, strategy, resplits="exact")
    assert stats.distribution_method == "exact"
    assert same(arith, sum(stats.distribution.values()), 1)
    assert same(arith, stats.mean, game.round(strategy).ev, 1e-13)
    rough = round_stats(game, strategy, resplits="independent")
    assert rough.distribution_method == "independent" and same(arith, rough.ev, stats.ev, 1e-14)
    assert same(arith, sum(rough.distribution.values()), 1)
    assert 0 < abs(float(rough.mean - stats.mean)) < 1e-3          # 23 cards: the hands depend strongly
    assert same(arith, rough.expected_wager, stats.expected_wager, 1e-14)
    assert same(arith, rough.p_split, stats.p_split, 1e-14)
    assert stats.mean_gap == 0 if arith.exact else abs(stats.mean_gap) < 1e-13
    assert stats.p_double_exact and rough.p_double_exact == (not das)
    if das:     # the hands' doubles scored jointly only through the dealer (a full deck, one deck: 5e-6)
        assert abs(float(rough.p_double - stats.p_double)) < 1e-3
    else:
        assert same(arith, rough.p_double, stats.p_double, 1e-14)


SMALL_CARDS = [1, 0, 0, 0, 0, 2, 4, 4, 4, 12]      # the cards gone from one deck: 28 left, most of them small
FEWER_SMALL_CARDS = [0, 0, 0, 0, 0, 1, 3, 3, 3, 9]  # 33 left: some unions leave room for two more hands, some not


@pytest.mark.parametrize("hands, deck", [(3, "short"), (2, "short"), (3, "full"), (2, "full")])
@pytest.mark.quick_cases(1)
def test_a_last_hand_summed_by_difference_is_every_final_met(hands, deck):
    """The exact split distribution sums a last X-hand's commonest type (a bust) as the union's own value less
    the other types' (ev.core._split_round: dealing the dealer first; with one split, the pairs of two busts):
    the same distribution as meeting every final, to 1e-12 in each probability, its mean the EV, with far fewer
    finals met where few cards are gone (one deck less 14, resplits to three; eight decks, one split); on a
    shoe of small cards some unions leave too few cards for the hand and the dealer after it, and there every
    final is met."""
    from ev.core import _split_round
    rules = Rules(max_split_hands=hands, double_after_split=True, resplit_aces=hands > 2,
                  decks=8 if (hands, deck) == (2, "full") else 1)
    gone = random_removed(random.Random(3), rules.decks, 14) if deck == "full" else SMALL_CARDS
    fast, full = _on_and_off(_split_round.by_difference, rules, gone, "exact" if hands > 2 else "auto")
    assert fast.work["unions_by_difference"] > 0 and full.work["unions_by_difference"] == 0
    assert (fast.work["unions_in_full"] > 0) == (deck == "short")
    if deck == "full":
        assert fast.work["last_hand_finals"] < 0.75 * full.work["last_hand_finals"]


def _on_and_off(toggle, rules: Rules, gone, resplits: str):
    """``round_stats`` with the split rounds' shortcut ``toggle`` on, then off; checked to give the same exact
    distribution (1e-12 in each probability), its mean the EV and its mass 1."""
    met = {}
    for on in (True, False):
        before = toggle(on)
        try:
            met[on] = round_stats(Game(rules, gone), "cdz", resplits=resplits)
        finally:
            toggle(before)
    fast, full = met[True], met[False]
    assert fast.distribution_method == full.distribution_method == "exact"
    assert set(fast.distribution) == set(full.distribution)
    for x, p in full.distribution.items():
        assert fast.distribution[x] == pytest.approx(p, rel=1e-12), x
    assert fast.mean == pytest.approx(Game(rules, gone).round("cdz").ev, abs=1e-13)
    assert fast.p_double == pytest.approx(full.p_double, rel=1e-12)
    assert sum(fast.distribution.values()) == pytest.approx(1, abs=1e-14)
    return fast, full


@pytest.mark.parametrize("deck", ["full", "short"])
@pytest.mark.quick_cases(1)
def test_a_second_hand_merged_by_difference_is_every_final_merged(deck):
    """The second hand of a three-hand round, an X-hand, is merged without its busts: the state with the hand's
    weight, and each other final's union once more with a bust and the weight negated (ev.core._split_round,
    merge_into).  The same distribution as merging every final, to 1e-12 in each probability, its mean the EV,
    with fewer last-hand finals met on a full deck (one deck); on a shoe of small cards (33 left) the states left
    without room merge every final, and the figures still agree."""
    from ev.core import _split_round
    rules = Rules(max_split_hands=3, double_after_split=True, resplit_aces=True)
    # (a full deck: 2 + 2 s; two decks with ten cards gone took 18 s and check nothing more)
    gone = [0] * 10 if deck == "full" else FEWER_SMALL_CARDS
    fast, full = _on_and_off(_split_round.merge_by_difference, rules, gone, "exact")
    assert fast.work["states_merged_by_difference"] > 0 and full.work["states_merged_by_difference"] == 0
    assert (fast.work["states_merged_in_full"] > 0) == (deck == "short")
    if deck == "full":
        assert fast.work["last_hand_finals"] < 0.85 * full.work["last_hand_finals"]


@pytest.mark.slow
def test_rule_readings():
    from ev.analysis.sensitivity import rule_readings
    peek, enhc, obo = rule_readings()
    assert obo.stats.ev == pytest.approx(peek.stats.ev, abs=1e-15)          # OBO is peek in EV
    assert obo.stats.expected_wager == pytest.approx(peek.stats.expected_wager, abs=1e-15)
    assert enhc.stats.ev < peek.stats.ev - 1e-4                               # doubles and splits lost too
    assert round(100 * peek.stats.rtp_total_wagered, 2) == published.RTP_PERCENT
    assert round(100 * enhc.stats.rtp_total_wagered, 2) != published.RTP_PERCENT


@pytest.mark.slow
def test_rules_effect_cli(capsys):
    import json

    from ev.cli import main
    assert main(["rules-effect", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    effects = {e["label"]: e for e in data["effects"]}
    assert effects["dealer stands on soft 17"]["ev_change"] > 0
    assert effects["blackjack pays 6:5"]["ev_change"] < -0.01
    assert effects["8 decks"]["ev_change"] < effects["2 decks"]["ev_change"] < 0
    assert data["base"]["ev"] == pytest.approx(published.ROUND_EVS[0][2], abs=published.EV_TOLERANCE)
    assert next(r["label"] for r in data["readings"]) == "peek on ace and ten"


@pytest.mark.parametrize("seed", [0, 1, 2] + [pytest.param(s, marks=pytest.mark.slow) for s in (3, 4, 5)])
@pytest.mark.slow
def test_split_rounds_in_c_equal_the_python_merge(seed, monkeypatch):       # seeds 0-2: two, three, four hands
    """The exact split rounds are merged and summed in C (ev.core._exact_sums: two hands by pairs of finals,
    unordered where both hands are of one class, more by sets of hand types; the dealer's numerators side by
    side); the plain Python merge must give the same fractions, on random rules with
    one split and with resplits to three and four hands, on small shoes."""
    from ev.core import exact_policy
    from ev.core._exact_sums import pair_round_cells, round_cells
    rng = random.Random(f"pairs-in-c-{seed}")
    hands = (2, 3, 4)[seed % 3]
    rules = random_rules(rng, decks=1, max_split_hands=hands, split_tens="value").replace(split_aces_one_card=True)
    shoe = list(random_small_shoe(rng, 1, size=22, tens=7))
    shoe[7] = 4                 # four eights: 8-8 is split, and resplit where the rules allow
    removed = removed_for(tuple(shoe), 1)
    game = Game(rules, removed, exact=True)
    calls = []
    monkeypatch.setattr(exact_policy, "round_cells", lambda *args: calls.append(args) or round_cells(*args))
    same = []       # two hands of one class: pair_round_cells merges each unordered pair of finals once
    monkeypatch.setattr(exact_policy, "pair_round_cells",
                        lambda *args: same.append(args[2] is args[3]) or pair_round_cells(*args))
    in_c = round_stats(game, "cdz")
    monkeypatch.setattr(exact_policy.ExactPolicyEvaluator, "pairs_in_c", False)
    in_python = round_stats(Game(rules, removed, exact=True), "cdz")
    assert in_c.work["split_unions"] > 0 and "split_unions" not in in_python.work
    assert (len(calls) > 0) == (hands > 2)       # rounds of three and four hands took the C merge
    assert True in same
    assert in_c.distribution == in_python.distribution
    assert in_c.expected_wager == in_python.expected_wager and in_c.p_split == in_python.p_split
    assert sum(in_c.distribution.values()) == 1


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.slow
def test_policy_figures_are_the_accounting_of_the_policy(seed):
    """policy_figures (split rounds by exchangeability, the fallback subtracted as the accounting counts it,
    a surrender included) gives exactly round_stats' EV and E[W], on random one-split rules with late
    surrender and small shoes."""
    from ev.analysis.strategies import policy_figures
    rng = random.Random(f"policy-figures-{seed}")
    rules = random_rules(rng, decks=1, max_split_hands=2, late_surrender=True)
    game = Game(rules, removed_for(random_small_shoe(rng, 1, size=22, tens=7), 1), exact=True)
    policy = optimal_policy(game)
    figures, stats = policy_figures(game, policy), round_stats(game, policy)
    assert (figures.ev, figures.expected_wager) == (stats.ev, stats.expected_wager)
    assert any(code == SURRENDER for table in policy.fallback.values() for code in table)


@pytest.mark.slow
def test_rule_effects_figures_are_round_stats():
    """The sensitivity section's one-split figures (policy_figures) are round_stats' to rounding."""
    from ev.analysis.sensitivity import figures
    for rules in (Rules(late_surrender=True), Rules(double_after_split=True, decks=2)):
        mine, stats = figures(rules), round_stats(Game(rules), "cdz")
        assert mine.ev == pytest.approx(stats.ev, abs=1e-14)
        assert mine.rtp_total_wagered == pytest.approx(stats.rtp_total_wagered, abs=1e-14)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.slow
def test_split_strategy_figures_are_the_accounting_with_resplits(seed):
    """split_strategy_figures (E[W] by the resplit formula over each hand's stake, with CDP1's and CDP's
    decisions by context; the EV Game.round's) gives exactly the EV and E[W] of the exact joint
    distribution, on random resplit rules and small shoes, under every fixed split strategy; and
    policy_figures of a table (here the CDZ- policy) as well."""
    from ev.analysis.strategies import policy_figures, split_strategy_figures
    rng = random.Random(f"split-strategy-figures-{seed}")
    rules = random_rules(rng, decks=1, max_split_hands=3 + seed % 2, split_tens="value")
    game = Game(rules, removed_for(random_small_shoe(rng, 1, size=20, tens=6), 1), exact=True)
    for name in ("cdz", "cdp1", "cdp"):
        figures, stats = split_strategy_figures(game, name), round_stats(game, name, resplits="exact")
        assert stats.distribution_method == "exact"
        assert (figures.ev, figures.expected_wager) == (stats.ev, stats.expected_wager), name
        assert stats.mean == stats.ev == game.round(name).ev, name
    policy = optimal_policy(game)
    assert policy_figures(game, policy).expected_wager == round_stats(game, policy, resplits="exact").expected_wager


@pytest.mark.slow
@pytest.mark.parametrize("changes", [{"max_split_hands": 3, "double_after_split": True},
                                     {"max_split_hands": 4, "split_tens": "rank", "resplit_aces": True}])
def test_auto_scores_resplits_exactly_in_floats_where_the_table_allows(changes):
    """In floats "auto" scores the resplits of a table of three hands, or of one deck, exactly: the same floats
    as the exact method, the mean the EV; a table of two decks to four hands independently given the dealer."""
    from ev.analysis.accounting import float_exact_table
    game = Game(Rules(**changes))
    auto, exact = (round_stats(game, "cdz", r) for r in ("auto", "exact"))
    assert float_exact_table(game) and auto.distribution_method == "exact"
    assert auto.distribution == exact.distribution and auto.joint == exact.joint and auto.sd == exact.sd
    assert auto.mean == pytest.approx(game.round("cdz").ev, abs=1e-13)
    assert "rounds_past_the_caps" not in auto.work
    wide = Game(Rules(decks=2, max_split_hands=4))
    assert not float_exact_table(wide) and round_stats(wide, "cdz").distribution_method == "independent"
    assert not float_exact_table(Game(Rules(max_split_hands=3), exact=True))     # fractions: the bound


@pytest.mark.parametrize("cap", ["FLOAT_RESPLIT_WORK", "FLOAT_RESPLIT_STATES"])
def test_a_round_past_a_cap_scores_its_resplits_independently(cap, monkeypatch):
    """A split round whose exact work or states pass their cap is made again with its three- and four-hand splits
    scored independently given the dealer (counted in the work): the rounds past it give the independent
    method's figures to the bit, the others stay exact, and the EV and E[W] are exact either way."""
    from ev.analysis import accounting
    rules = Rules(max_split_hands=3)
    exact = round_stats(Game(rules), "cdz", "exact")
    independent = round_stats(Game(rules), "cdz", "independent")
    monkeypatch.setattr(accounting, cap, 0)
    every = round_stats(Game(rules), "cdz", "auto")             # every round of three hands past the cap
    assert every.distribution_method == "independent" and every.work["rounds_past_the_caps"] > 0
    assert every.distribution == independent.distribution and every.sd == independent.sd
    assert every.ev == pytest.approx(exact.ev, abs=1e-15)
    assert every.expected_wager == pytest.approx(exact.expected_wager, abs=1e-15)
    # a cap between the rounds' sizes: the largest rounds past it, the smaller exact
    monkeypatch.setattr(accounting, cap, 20_000 if cap == "FLOAT_RESPLIT_STATES" else 2_000_000)
    some = round_stats(Game(rules), "cdz", "auto")
    assert 0 < some.work["rounds_past_the_caps"] < every.work["rounds_past_the_caps"]
    gap = abs(some.mean - exact.mean)
    assert some.distribution_method == "independent" and 0 < gap < abs(independent.mean - exact.mean)


@pytest.mark.slow
def test_independent_resplits_keep_the_exact_ev_and_stake():
    """Where three- and four-hand splits are scored independently given the dealer's outcome, the
    distribution's mean and mean stake move (about 1e-5 and 1e-7 bets), but RoundStats' EV and E[W] are
    the exact ones, for an optimal strategy and for a table alike."""
    rules = Rules(max_split_hands=4, double_after_split=True, double="any")
    game = Game(rules, removed_for(random_small_shoe(random.Random("independent"), 1, size=36, tens=12), 1))
    policy = optimal_policy(game)
    for strategy in ("cdp", policy):
        exact, independent = (round_stats(game, strategy, resplits=r) for r in ("exact", "independent"))
        assert independent.distribution_method == "independent"
        assert abs(independent.mean - exact.mean) > 1e-7      # the scoring moves it
        assert independent.ev == pytest.approx(exact.ev, abs=1e-14)
        assert independent.expected_wager == pytest.approx(exact.expected_wager, abs=1e-14)


@pytest.mark.parametrize("changes, resplits", [({}, "auto"),
                                               ({"decks": 2, "max_split_hands": 4, "hit_soft_17": False}, "auto"),
                                               ({"decks": 6, "max_split_hands": 4, "split_tens": "rank"}, "auto"),
                                               ({"max_split_hands": 3, "split_tens": "rank"}, "auto"),
                                               ({"max_split_hands": 3, "double_after_split": True}, "exact"),
                                               ({"double_after_split": True}, "fractions")])
@pytest.mark.slow
def test_split_rounds_in_threads_give_every_figure_to_the_bit(changes, resplits, monkeypatch):
    """round_stats computes the split rounds the strategy makes side by side in threads before the tally reads
    them (``SPLIT_THREADS``), the exact resplit distribution's too, and in exact arithmetic.  With one thread,
    two or three, every figure is the same float (fraction), each round is computed once (the same work), and
    with threads every split round is read from the ones computed beforehand."""
    from ev.analysis import accounting
    made: dict = {1: [], 2: [], 3: []}       # threads -> the rounds computed beforehand, per round_stats call
    side_by_side = accounting._split_rounds_side_by_side

    def spy(*args):
        plays = side_by_side(*args)
        made[accounting.SPLIT_THREADS].append(sum(len(e.known) for e, _ in plays.values()
                                                  if isinstance(e, accounting._KnownRounds)))
        return plays
    monkeypatch.setattr(accounting, "_split_rounds_side_by_side", spy)
    fallback = []
    read = accounting._KnownRounds.split_round
    monkeypatch.setattr(accounting._KnownRounds, "split_round",
                        lambda self, *args: (fallback.append(args[0]) if (args[0], args[4], args[7]) not in
                                             self.known else None) or read(self, *args))
    results = {}
    for threads in (1, 2, 3):
        monkeypatch.setattr(accounting, "SPLIT_THREADS", threads)
        gone = random_removed(random.Random(5), 1, 16) if resplits != "auto" else []     # 36 cards: quick
        game = Game(Rules(**changes), *([gone] if gone else []), exact=resplits == "fractions")
        results[threads] = round_stats(game, "cdz", "auto" if resplits == "auto" else "exact")
    one = results[1]
    for threads in (2, 3):
        got = results[threads]
        assert got.distribution == one.distribution and got.joint == one.joint
        assert (got.ev, got.expected_wager, got.p_double, got.p_split, got.sd) == \
               (one.ev, one.expected_wager, one.p_double, one.p_split, one.sd)
        assert got.work == one.work and got.distribution_method == one.distribution_method
    assert made[1] and not any(made[1])
    assert made[2][0] >= 10 and made[3][0] >= 10
    assert fallback == []
    assert one.work["final_pairs" if resplits == "fractions" else "merges"] > 0
    # "auto": in floats the resplits of a table of three hands or one deck exactly, of the others independently
    assert one.distribution_method == ("exact" if resplits != "auto" or accounting.float_exact_table(game)
                                       else "independent")


def test_the_split_rounds_threads_give_the_results_in_order_and_stop_at_an_error():
    """The pool of the split rounds (``_in_threads``): the results in the tasks' order with any number of threads,
    every task once; a task's exception is raised in the calling thread and the threads take no task after it."""
    import threading
    import time

    from ev.analysis.accounting import _in_threads
    for threads in (1, 2, 3):
        ran: list = []
        assert _in_threads(lambda x, ran=ran: ran.append(x) or x * x, list(range(20)), threads) == \
            [x * x for x in range(20)]
        assert sorted(ran) == list(range(20))
    ran, names = [], set()

    def task(x):
        names.add(threading.current_thread().name)
        if x == 3:
            raise KeyboardInterrupt("stop")
        time.sleep(0.01)
        ran.append(x)
    with pytest.raises(KeyboardInterrupt, match="stop"):
        _in_threads(task, list(range(100)), 2)
    assert len(ran) < 10 and 3 not in ran
    assert threading.current_thread().name in names
