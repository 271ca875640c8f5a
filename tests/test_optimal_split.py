"""Truly optimal split play (split strategy "optimal"): the EV of a split and its outcome distribution.

The oracle is ``ev.reference.optimal_split_search``, a plain search over every way to play both split
hands (exact fractions, small shoes only); on full decks, values of an independent double-precision
prototype (the research notes' C program, which agreed with its own Fraction implementation to 2e-15).
"""
from __future__ import annotations

import json
from functools import cache

import pytest
from conftest import SEED_GAME_GROUP, random_rules, random_small_shoe, same

from ev import reference as ref
from ev.analysis import optimal_split
from ev.analysis.accounting import round_stats, split_strategy_stats
from ev.analysis.game import Game
from ev.analysis.strategy import optimal_policy
from ev.cli import main
from ev.core.actions import SPLIT_STRATEGIES, TRULY_OPTIMAL
from ev.core.cards import N_RANKS, RANK_SYMBOLS, full_shoe
from ev.core.rules import Rules
from ev.present.command_text import split_comparison
from ev.present.numbers import exact_json

#: small shoes (up card included) where the search is quick; the notes say which decisions they test
SEARCH_CASES = [
    # second-hand decisions that are exact ties (decided exactly, stand before hit)
    ((3, 1, 2, 0, 2, 0, 0, 3, 1, 4), 9, 7, dict(double="9-11", double_after_split=True, peek="ten",
                                                 split_aces_one_card=False, double_soft=False)),
    # first-hand exact ties; split aces hit, no hole card (a dealer blackjack takes every wager)
    ((3, 3, 0, 0, 1, 0, 1, 1, 2, 4), 7, 0, dict(double="any", double_after_split=True, hit_soft_17=False,
                                                 peek="none", split_aces_one_card=False, double_soft=False)),
    ((1, 3, 2, 0, 2, 1, 3, 0, 0, 3), 4, 1, dict(double="10-11", peek="none")),
    pytest.param((3, 3, 2, 0, 1, 0, 1, 2, 1, 3), 0, 1,
                 dict(double="10-11", double_after_split=True, hit_soft_17=False, peek="ten",
                      unchecked_blackjack_takes="original", split_aces_one_card=False, double_soft=False),
                 marks=pytest.mark.slow),
    pytest.param((2, 1, 3, 0, 1, 2, 2, 2, 0, 4), 4, 2,
                 dict(hit_soft_17=False, double="9-11", double_soft=False, peek="ten",
                      unchecked_blackjack_takes="original"), marks=pytest.mark.slow),
    pytest.param((1, 0, 2, 1, 1, 3, 3, 1, 2, 5), 5, 6,
                 dict(double_soft=False, peek="ten", unchecked_blackjack_takes="original"), marks=pytest.mark.slow),
    pytest.param((3, 1, 0, 1, 0, 3, 1, 4, 0, 6), 7, 7,
                 dict(hit_soft_17=False, double_after_split=True, unchecked_blackjack_takes="original"),
                 marks=pytest.mark.slow),
]


#: tests of the seed game's truly optimal splits: on the worker of the report's tests (their strategy table makes
#: the same search), so that the search is made once in the process (``ev.analysis.optimal_split`` keeps what it
#: found per deck, for every game of the same rules and cards)
DEFAULT_GAME = pytest.mark.xdist_group(SEED_GAME_GROUP)


def small_game(shoe: tuple, rules: Rules, exact: bool) -> Game:
    return Game(rules, [f - s for f, s in zip(full_shoe(1), shoe)], exact=exact)


@cache
def searched(shoe: tuple, up: int, pair: int, rules: Rules) -> tuple:
    base = tuple(c - (r == up) for r, c in enumerate(shoe))
    return ref.optimal_split_search(base, up, rules, pair)


@pytest.mark.xdist_group("optimal-split-search")   # one worker: each case's search is made once (searched)
@pytest.mark.parametrize("shoe, up, pair, changes", SEARCH_CASES)
@pytest.mark.quick_cases(2)
def test_equals_search_over_all_split_play(arith, shoe, up, pair, changes):
    """The split's EV and its outcome distribution equal the search over every way to play both hands."""
    rules = Rules(**changes)
    value, distribution = searched(shoe, up, pair, rules)
    game = small_game(shoe, rules, arith.exact)
    assert same(arith, optimal_split.split_value(game, up, pair), value)
    mine = optimal_split.split_distribution(game, up, pair)
    assert set(mine) == set(distribution)
    assert all(same(arith, mine[k], distribution[k]) for k in distribution)
    # Game.hand conditions on no dealer blackjack where one is settled first; the search is joint
    cdp, optimal = (game.hand([RANK_SYMBOLS[pair]] * 2, up, s) for s in ("cdp", "optimal"))
    mass = 1 - optimal.p_dealer_blackjack if optimal.conditioned else 1
    assert same(arith, optimal.split * mass, value) and optimal.split >= cdp.split


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_both_senses_in_one_pass_are_the_separate_searches(seed):
    """``prepare(game, sense=(BEST, WORST))`` (one pass over the states and dealer decks for both) gives the very
    floats of the two separate searches: every split's value and stake, and the plans the finals follow."""
    import random
    rng = random.Random(seed)
    rules = random_rules(rng, decks=1, max_split_hands=2)
    shoe = random_small_shoe(rng, 1, size=22, tens=7)
    found = []
    for senses in ((optimal_split.BEST, optimal_split.WORST), optimal_split.BEST, optimal_split.WORST):
        optimal_split._FOUND.clear()
        game = small_game(shoe, rules, False)
        optimal_split.prepare(game, threads=1, sense=senses)
        assert all(optimal_split._upcard(game, up).splitter.memo_entries() == 0 for up in game.upcards())
        found.append({(up, pair, sense): (optimal_split.split_value(game, up, pair, sense),
                                           optimal_split.split_stake(game, up, pair, sense),
                                           optimal_split.split_distribution(game, up, pair, sense))
                      for up in game.upcards() for pair in range(N_RANKS) if shoe[pair] - (pair == up) >= 2
                      for sense in (optimal_split.BEST, optimal_split.WORST)})
    optimal_split._FOUND.clear()
    assert found[0] and found[0] == found[1] == found[2]
    assert all(found[0][up, pair, 1][0] >= found[0][up, pair, -1][0] for up, pair, _ in found[0])


def test_prepare_frees_each_dealer_memo_and_a_later_question_regrows_it():
    """After ``prepare`` every up card's dealer memo is empty (the memory bound of ``rtp --split-strategy optimal``)
    and the values and stakes found are kept; a question prepare did not answer (a distribution, the other sense)
    regrows the memo and gets the very floats of a search that never freed it."""
    import random
    rng = random.Random(5)
    rules = random_rules(rng, decks=1, max_split_hands=2)
    shoe = random_small_shoe(rng, 1, size=20, tens=6)
    optimal_split._FOUND.clear()
    game = small_game(shoe, rules, False)
    optimal_split.prepare(game, threads=1, sense=optimal_split.BEST)
    engines = {up: optimal_split._upcard(game, up) for up in game.upcards()}
    assert engines and all(e.splitter.memo_entries() == 0 for e in engines.values())
    up, engine = next((up, e) for up, e in engines.items() if e.pairs())
    pair = engine.pairs()[0]
    assert pair in engine.values[optimal_split.BEST] and ("stake", pair, 1) in engine.splitter.values
    asked = (optimal_split.split_distribution(game, up, pair, optimal_split.BEST),
             optimal_split.split_value(game, up, pair, optimal_split.WORST))
    assert engine.splitter.memo_entries() > 0
    optimal_split._FOUND.clear()
    fresh = small_game(shoe, rules, False)
    assert (optimal_split.split_distribution(fresh, up, pair, optimal_split.BEST),
            optimal_split.split_value(fresh, up, pair, optimal_split.WORST)) == asked
    optimal_split._FOUND.clear()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.slow
def test_the_splits_optimal_play_makes_get_their_distributions_with_their_search(seed):
    """The accounting's ``prepare``: each one-split pair whose split reaches its pair hand's best other option
    (less MAY_SPLIT) gets its outcome distribution in the search's thread, from the memo the search filled, and
    no other pair does; those are the very floats of distributions asked for after the memo was freed, and the
    splits the strategy makes are among them."""
    import random

    from ev.analysis.strategy import SPLIT, unsplit_best
    rng = random.Random(seed)
    rules = random_rules(rng, decks=1, max_split_hands=2)
    shoe = random_small_shoe(rng, 1, size=22, tens=7)
    optimal_split._FOUND.clear()
    game = small_game(shoe, rules, False)
    unsplit = unsplit_best(game)
    optimal_split.prepare(game, threads=2, distributions=True, unsplit=unsplit)
    made = {(up, pair): optimal_split._upcard(game, up).distributions[optimal_split.BEST].get(pair)
            for up in game.upcards() for pair in unsplit[up]}
    wanted = {(up, pair) for up in unsplit for pair, best in unsplit[up].items()
              if optimal_split.split_value(game, up, pair) >= best - optimal_split.MAY_SPLIT}
    assert {key for key, cells in made.items() if cells is not None} == wanted
    table = optimal_policy(game, "optimal")
    hands = game.graph["hands"]
    splits = {(up, list(hand).index(2)) for up in game.upcards() for s, hand in enumerate(hands)
              if sum(hand) == 2 and max(hand) == 2 and table.play[up][s] == SPLIT}
    assert splits and splits <= wanted
    optimal_split._FOUND.clear()
    fresh = small_game(shoe, rules, False)
    assert all(optimal_split.split_distribution(fresh, up, pair) == made[up, pair] for up, pair in wanted)
    optimal_split._FOUND.clear()


def test_search_without_decisions_is_twice_one_hand():
    """Split aces that get one card have nothing to decide: the search gives the one-split formula 2 V."""
    base = (3, 2, 1, 1, 2, 1, 2, 2, 1, 6)
    rules = Rules(double="any")
    value, distribution = ref.optimal_split_search(base, 9, rules, 0)
    assert value == ref.split_value(base, 9, rules, 0, "cdp", ref.Player(base, 9, rules))
    assert sum(distribution.values()) == ref.Player(base, 9, rules).mass((2,) + (0,) * 9)


#: (up, pair) -> EV of splitting (joint units, both hands), one deck, from the independent prototype
PROTOTYPE = {
    "default": (Rules(), {(1, 2): -0.191757001477400, (9, 7): -0.423702465610700, (0, 0): 0.144857908159699,
                          (3, 1): 0.006191704976081, (8, 4): -0.600494769437150}),
    "das_any_hit_aces": (Rules(double="any", double_after_split=True, split_aces_one_card=False),
                         {(0, 0): 0.376528762060586, (1, 2): -0.10695529768961, (4, 8): 0.391107533935406,
                          (9, 7): -0.414424843684717}),
    "s17_no_hole_card": (Rules(hit_soft_17=False, double="any", double_after_split=True, split_aces_one_card=False,
                               peek="none", unchecked_blackjack_takes="all"),
                         {(0, 0): -0.223220440134204, (1, 2): -0.108264391774374, (4, 8): 0.392303745227536,
                          (9, 7): -0.586826780816453}),
}


@DEFAULT_GAME
@pytest.mark.parametrize("name", list(PROTOTYPE))
@pytest.mark.quick_cases(1)
def test_full_deck_values(name):
    rules, values = PROTOTYPE[name]
    game = Game(rules)
    for (up, pair), value in values.items():
        assert optimal_split.split_value(game, up, pair) == pytest.approx(value, abs=2e-14), (up, pair)


@pytest.mark.parametrize("decks, cases", [(1, ((5, 7), (5, 8), (1, 2))), (8, ((5, 7), (9, 9), (6, 1)))])
@pytest.mark.slow
def test_float_equals_exact(decks, cases):
    """8-8 and 9-9 against a 6, 3-3 against a 2 (one deck), 2-2 against a 7 (eight decks: the most finals):
    float and exact agree (values, and the distributions cell by cell to 1e-14: the float sums are
    compensated, where a plain sum of 2-2 against a 7 lost 1.4e-12), and the exact distribution's mean is the
    exact EV."""
    floats, exact = Game(Rules(decks=decks)), Game(Rules(decks=decks), exact=True)
    for up, pair in cases:
        value = optimal_split.split_value(exact, up, pair)
        assert abs(optimal_split.split_value(floats, up, pair) - float(value)) < 1e-12
        cells = optimal_split.split_distribution(exact, up, pair)
        assert sum(net * mass for (_, _, net), mass in cells.items()) == value
        expected = optimal_split.split_distribution(floats, up, pair)
        assert set(cells) == set(expected) and all(abs(float(cells[k]) - expected[k]) < 1e-14 for k in expected)
        assert abs(sum(expected.values()) - float(sum(cells.values()))) < 1e-14


def ordered(game: Game, ups) -> None:
    for up in ups:
        for pair in range(N_RANKS):
            faces = [RANK_SYMBOLS[pair]] * 2
            cdz, cdp1, cdp, optimal = (game.hand(faces, up, s).split for s in SPLIT_STRATEGIES)
            assert cdz <= cdp1 + 1e-12 and cdp1 <= cdp + 1e-12 and cdp <= optimal + 1e-12, (up, pair)


@DEFAULT_GAME
@pytest.mark.slow
def test_strategies_are_ordered():
    """With one split: optimal >= CDP >= CDP1 >= CDZ-, pair by pair (up cards 2 and T here)."""
    ordered(Game(Rules()), (1, 9))


@DEFAULT_GAME
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_strategies_are_ordered_everywhere(seed, rng):
    ordered(Game(Rules()) if seed == 0 else Game(random_rules(rng, decks=1, max_split_hands=2)), range(N_RANKS))


@pytest.mark.slow
def test_round_on_a_small_shoe_is_its_distribution():
    """The exact accounting of a round under truly optimal splits: its mean is the round EV, its mass 1."""
    game = small_game((2, 2, 1, 2, 2, 2, 1, 2, 2, 7), Rules(double="any", double_after_split=True), True)
    result = game.round("optimal")
    stats = round_stats(game, "optimal")
    assert stats.mean == result.ev and sum(stats.distribution.values()) == 1
    by_strategy = split_strategy_stats(game, stats)
    assert by_strategy["optimal"] is stats and result.ev >= by_strategy["cdp"].ev >= by_strategy["cdz"].ev
    lines, data = split_comparison(by_strategy, exact=True)       # what bjev rtp --exact prints
    assert "truly optimal" in lines[-1] and json.loads(json.dumps(data))["optimal"]["ev"] == exact_json(result.ev)


@DEFAULT_GAME
@pytest.mark.slow
def test_default_round():
    """The seed game under truly optimal split play: float and exact agree, the exact distribution's mean is
    the exact EV, and the RTP is about 0.0007 points above CDZ- (the issue's figure)."""
    floats, exact = Game(Rules()), Game(Rules(), exact=True)
    result = exact.round("optimal")
    assert abs(floats.round("optimal").ev - float(result.ev)) < 1e-15 and not result.ties
    stats = round_stats(exact, "optimal")
    assert stats.mean == result.ev and sum(stats.distribution.values()) == 1
    cdz = round_stats(floats, "cdz")
    assert 6e-6 < result.ev - cdz.ev < 8e-6
    assert 0 < stats.rtp_total_wagered - cdz.rtp_total_wagered < result.ev - cdz.ev
    assert floats.split_value(floats.solver(1), 2, TRULY_OPTIMAL) == pytest.approx(PROTOTYPE["default"][1][1, 2],
                                                                                    abs=1e-14)


@DEFAULT_GAME
@pytest.mark.slow
def test_rtp_shows_every_split_strategy(capsys):
    assert main(["rtp", "--split-strategy", "optimal", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    table = data["split_strategies"]
    assert list(table) == list(SPLIT_STRATEGIES) and data["ev"] == pytest.approx(table["optimal"]["ev"], abs=1e-15)
    assert table["cdz"]["rtp_initial_below_optimal"] == pytest.approx(table["optimal"]["ev"] - table["cdz"]["ev"])
    assert all(row["rtp_total_wagered_below_optimal"] > 0 for name, row in table.items() if name != "optimal")
    # each row is the round EV of its split strategy (the EV `bjev rtp --split-strategy S` prints) and its E[W]
    game = Game(Rules())
    for name, row in table.items():
        assert row["ev"] == game.round(name).ev
        assert row["expected_total_wager"] == pytest.approx(round_stats(game, name).expected_wager, abs=1e-14)


@DEFAULT_GAME
@pytest.mark.slow
def test_chart_exceptions_under_optimal_splits(capsys):
    assert main(["chart", "--split-strategy", "optimal", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["split_strategy"] == "optimal"
    assert data["optimal_ev"] == pytest.approx(-0.004443916293098983, abs=1e-14)
