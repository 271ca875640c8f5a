"""The exact rational mode (ev.exact): exact fractions, against the float engine and the Fraction twin."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from conftest import random_rules, random_small_shoe, removed_for
from ev import reference as ref
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, composition_of, full_shoe, subtract
from ev.analysis.game import DEALER_OUTCOMES, Game
from ev.analysis.accounting import round_stats as _round_stats
from ev.present.command_text import decimal_text, exact_json, fraction_text


def ExactGame(rules=None, removed=(0,) * 10):
    return Game(rules, removed, exact=True)


round_stats_exact = _round_stats
from ev.core.rules import Rules

TOL = 1e-12


def _random_removed(rng: random.Random, decks: int, count: int) -> list[int]:
    shoe = full_shoe(decks)
    pool = [r for r in range(N_RANKS) for _ in range(shoe[r])]
    return list(composition_of(rng.sample(pool, count)))


@pytest.fixture(scope="module")
def default_round():
    return ExactGame().round("cdz")


# ----- the default game -------------------------------------------------------
def test_default_ev_is_exact_and_matches(default_round):
    ev = default_round.ev
    assert isinstance(ev, Fraction)
    assert float(ev) == pytest.approx(-0.00445128332, abs=1e-11)
    assert float(ev) == pytest.approx(Game().round("cdz").ev, abs=1e-13)
    assert default_round.rtp_initial == 1 + ev and isinstance(default_round.rtp_initial, Fraction)
    # the per-up-card EVs and P(up) are exact and recombine exactly
    assert sum(default_round.p_upcard.values()) == 1
    assert sum(default_round.p_upcard[k] * v for k, v in default_round.ev_by_upcard.items()) == ev
    assert sum(d.probability for d in default_round.deals if d.up == ACE) == 1


def test_default_cdp_ev():
    game = ExactGame()
    cdp, cdp1 = game.round("cdp").ev, game.round("cdp1").ev
    assert cdp == cdp1                     # one split: CDP is CDP1
    assert float(cdp) == pytest.approx(-0.00444771335, abs=1e-11)
    assert float(cdp) == pytest.approx(Game().round("cdp").ev, abs=1e-13)


def test_s17_double_any_published():
    ev = ExactGame(Rules(hit_soft_17=False, double="any")).round("cdz").ev
    assert float(ev) == pytest.approx(0.00024273905, abs=1e-11)


# ----- the dealer -------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_dealer_probabilities_sum_to_exactly_one(seed):
    rng = random.Random(500 + seed)
    rules = Rules() if seed == 0 else random_rules(rng, decks=rng.choice([1, 2]))
    removed = [0] * N_RANKS if seed < 2 else _random_removed(rng, rules.decks, rng.randrange(1, 15))
    game, fgame = ExactGame(rules, removed), Game(rules, removed)
    for up in range(N_RANKS):
        if not game.shoe[up]:
            continue
        deck = subtract(game.shoe, composition_of([up]))
        settled = game.rules.settled_blackjack_rank(up)
        if settled >= 0 and deck[settled] == sum(deck):
            continue
        for conditioned in (True, False):
            probs = game.dealer_probabilities(up, conditioned=conditioned)
            assert all(isinstance(p, Fraction) for p in probs.values())
            assert sum(probs.values()) == 1
            if conditioned and settled >= 0:
                assert probs["blackjack"] == 0
            floats = fgame.dealer_probabilities(up, conditioned=conditioned)
            for name in DEALER_OUTCOMES:
                assert float(probs[name]) == pytest.approx(floats[name], abs=1e-13)
        # against the card-by-card twin, as fractions (joint units, then conditioned)
        joint = ref.dealer_distribution(deck, up, rules)
        exact = game.dealer_probabilities(up)
        for k, name in enumerate(DEALER_OUTCOMES):
            assert exact[name] == joint[k] / sum(joint)


def test_dealer_probabilities_with_known_cards():
    game = ExactGame()
    known = composition_of([TEN, TEN, 5])
    probs = game.dealer_probabilities(TEN, known)
    assert sum(probs.values()) == 1
    deck = subtract(subtract(game.shoe, composition_of([TEN])), known)
    joint = ref.dealer_distribution(deck, TEN, game.rules)
    assert [probs[k] for k in DEALER_OUTCOMES] == [p / sum(joint) for p in joint]


# ----- against the float engine -------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_hands_agree_with_float_engine(seed):
    """Every decision of random hands on random rule sets (1-2 decks) and depleted shoes."""
    rng = random.Random(600 + seed)
    rules = random_rules(rng, decks=rng.choice([1, 2]))
    removed = _random_removed(rng, rules.decks, rng.randrange(0, 20))
    game, fgame = ExactGame(rules, removed), Game(rules, removed)
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    for _ in range(6):
        up = rng.choice([r for r in range(N_RANKS) if game.shoe[r]])
        base = subtract(game.shoe, composition_of([up]))
        if rng.random() < 0.4:
            pair = rng.choice([r for r in range(N_RANKS) if base[r] >= 2])
            cards = [pair, pair]
        else:
            avail = [r for r in range(N_RANKS) for _ in range(base[r])]
            cards = rng.sample(avail, rng.choice([2, 2, 3, 4]))
        if sum(c + 1 for c in cards) > 21:
            continue
        faces = [RANK_SYMBOLS[c] for c in cards]
        exact, flt = game.hand(faces, up, strategy), fgame.hand(faces, up, strategy)
        for action in ("stand", "hit", "double", "split", "surrender", "insurance", "even_money"):
            mine, theirs = getattr(exact, action), getattr(flt, action)
            assert (mine is None) == (theirs is None), action
            if mine is not None:
                assert isinstance(mine, Fraction)
                assert float(mine) == pytest.approx(theirs, abs=TOL), (faces, up, action)
        assert exact.p_dealer_blackjack == pytest.approx(flt.p_dealer_blackjack, abs=1e-15)
        assert exact.conditioned == flt.conditioned


@pytest.mark.parametrize("seed", range(4))
def test_round_ev_agrees_with_float_engine(seed):
    rng = random.Random(700 + seed)
    rules = random_rules(rng, decks=rng.choice([1, 2]))
    removed = _random_removed(rng, rules.decks, rng.randrange(0, 12)) if seed % 2 else [0] * N_RANKS
    strategy = ["cdz", "cdp1", "cdp", "cdz"][seed]
    exact = ExactGame(rules, removed).round(strategy)
    flt = Game(rules, removed).round(strategy)
    assert float(exact.ev) == pytest.approx(flt.ev, abs=TOL)
    for k, v in exact.ev_by_upcard.items():
        assert float(v) == pytest.approx(flt.ev_by_upcard[k], abs=TOL), k
    assert [d.best for d in exact.deals] == [d.best for d in flt.deals]


def test_six_decks_hand():
    rules = Rules(decks=6, double_after_split=True, max_split_hands=4)
    exact, flt = ExactGame(rules).hand(["8", "8"], 9, "cdp"), Game(rules).hand(["8", "8"], 9, "cdp")
    for action in ("stand", "hit", "split"):
        assert float(getattr(exact, action)) == pytest.approx(getattr(flt, action), abs=TOL)


# ----- against the Fraction twin (exact equality) --------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_hands_equal_reference(seed):
    rng = random.Random(800 + seed)
    rules = random_rules(rng, decks=1)
    shoe = random_small_shoe(rng, 1, size=20, tens=7)
    game = ExactGame(rules, removed_for(shoe, 1))
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    for _ in range(3):
        up = rng.choice([r for r in range(N_RANKS) if shoe[r]])
        base = subtract(shoe, composition_of([up]))
        pairs = [r for r in range(N_RANKS) if base[r] >= 2]
        cards = [rng.choice(pairs)] * 2 if rng.random() < 0.5 else rng.sample(
            [r for r in range(N_RANKS) for _ in range(base[r])], 2)
        if sum(c + 1 for c in cards) > 21 or set(cards) == {ACE, TEN}:
            continue
        faces = [RANK_SYMBOLS[c] for c in cards]
        try:
            twin = ref.hand_values(composition_of(cards), up, rules, base, strategy)
        except ValueError:            # the twin's dealer ran out of cards
            continue
        mine = game.hand(faces, up, strategy)
        for action in ("stand", "hit", "double", "split", "surrender"):
            if action in twin:
                assert getattr(mine, action) == twin[action] / twin["mass"], (faces, up, action)
            else:
                assert getattr(mine, action) is None


@pytest.mark.parametrize("seed", [5, 7])
def test_round_ev_equals_reference(seed):
    """Same seeds as a twin check on 18-card shoes: the round EV is the same fraction."""
    rng = random.Random(seed)
    rules = random_rules(rng, decks=1)
    shoe = random_small_shoe(rng, 1)
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    assert ExactGame(rules, removed_for(shoe, 1)).round(strategy).ev == ref.round_ev(rules, strategy, shoe)


# ----- ties and output ------------------------------------------------------------
def test_insurance_and_even_money_ties_are_reported():
    # ace up, 5-6 in hand, one 2 gone: 16 tens in 48 unseen cards, insurance is worth exactly 0
    hand = ExactGame(removed=composition_of([1])).hand(["5", "6"], ACE)
    assert hand.insurance == 0 and hand.p_dealer_blackjack == Fraction(1, 3)
    assert {"up": "A", "hand": "6-5", "context": "initial deal",
            "actions": ["decline insurance", "insurance"]} in hand.ties
    # a blackjack against an ace with 15 tens in 45 cards: 3/2 * 2/3 = 1, even money ties; declined
    natural = ExactGame(removed=composition_of([1, 2, 3, 4])).hand(["A", "K"], ACE)
    assert natural.blackjack_declined == 1 and natural.best == "stand"
    assert any(t["actions"] == ["decline even money", "even_money"] for t in natural.ties)


def test_no_exact_ties_in_default_round(default_round):
    assert default_round.ties == []


def test_json_scheme():
    x = Fraction(-235870183469693743, 52989254180017155000)
    assert fraction_text(x) == "-235870183469693743/52989254180017155000"
    assert exact_json(x) == {"fraction": "-235870183469693743/52989254180017155000",
                             "decimal": "-0.0044512833237544046753"}
    assert decimal_text(Fraction(1, 3)) == "0.33333333333333333333"
    assert decimal_text(Fraction(0)) == "0" and exact_json(None) is None
    assert exact_json(Fraction(2)) == {"fraction": "2/1", "decimal": "2"}


def test_cli_exact(capsys):
    import json

    from ev.cli import main
    assert main(["hand", "T,6", "--up", "T", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    exact = ExactGame().hand(["T", "6"], TEN)
    assert data["hit"]["fraction"] == fraction_text(exact.hit)
    assert Fraction(data["stand"]["fraction"]) == exact.stand
    assert data["best"] == exact.best and data["exact"] is True
    assert main(["hand", "8,8", "--up", "6", "--exact"]) == 0
    text = capsys.readouterr().out
    assert fraction_text(ExactGame().hand(["8", "8"], 5).split) in text


# ----- exact wager accounting and outcome distribution -------------------------------
PUBLISHED = {-2: 0.030673154, -1: 0.448921481, 0: 0.084566098, 1: 0.342615808, Fraction(3, 2): 0.046492443,
             2: 0.046731016}


@pytest.fixture(scope="module")
def default_stats():
    return round_stats_exact(ExactGame(), "cdz")


def test_default_distribution_is_exact(default_stats, default_round):
    stats = default_stats
    assert sum(stats.distribution.values()) == 1
    assert stats.mean == default_round.ev == stats.ev
    assert all(isinstance(p, Fraction) for p in stats.distribution.values())
    assert set(stats.distribution) == set(PUBLISHED)
    for x, p in PUBLISHED.items():
        assert float(stats.distribution[x]) == pytest.approx(p, abs=1e-9), x
    assert float(stats.sd) == pytest.approx(1.09806290953, abs=1e-9)
    assert stats.p_win + stats.p_push + stats.p_loss == 1
    assert stats.p_player_blackjack == stats.p_dealer_blackjack == Fraction(2 * 4 * 16, 52 * 51)
    assert stats.rtp_initial == 1 + default_round.ev
    assert stats.rtp_total_wagered == (stats.expected_wager + stats.ev) / stats.expected_wager
    assert round(100 * float(stats.rtp_total_wagered), 2) == 99.59


def test_default_stats_match_float_accounting(default_stats):
    from ev.analysis.accounting import round_stats
    flt = round_stats(Game(), "cdz")
    for name in ("ev", "expected_wager", "rtp_total_wagered", "p_double", "p_split", "p_insurance",
                 "p_even_money", "p_player_blackjack", "p_dealer_blackjack", "p_win", "p_push", "p_loss",
                 "variance", "sd", "skewness", "hit_frequency"):
        assert float(getattr(default_stats, name)) == pytest.approx(getattr(flt, name), abs=1e-12), name
    for x, p in default_stats.distribution.items():
        assert float(p) == pytest.approx(flt.distribution[float(x)], abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_random_rules_distribution_is_exact(seed):
    """Mean exactly the round EV (one split), total exactly 1, and agreement with the float accounting."""
    from ev.analysis.accounting import round_stats
    rng = random.Random(900 + seed)
    decks = 2 if seed == 3 else 1
    rules = random_rules(rng, decks=decks, max_split_hands=rng.choice([1, 2]),
                         split_aces_one_card=True)      # hitting split aces makes thousands of finals: slow
    removed = _random_removed(rng, decks, rng.randrange(12, 24) if decks == 1 else rng.randrange(50, 60))
    game = ExactGame(rules, removed)
    strategy = "cdz" if seed % 2 == 0 else rng.choice(["cdp1", "cdp"])
    stats = round_stats_exact(game, strategy)
    assert sum(stats.distribution.values()) == 1
    assert stats.mean == game.round(strategy).ev
    if strategy == "cdz":       # the float accounting decides splits by CDZ- values for every strategy
        flt = round_stats(Game(rules, removed), strategy)
        assert float(stats.expected_wager) == pytest.approx(flt.expected_wager, abs=1e-12)
        assert set(stats.distribution) == {Fraction(x).limit_denominator(10) for x in flt.distribution}
        for x, p in stats.distribution.items():
            assert float(p) == pytest.approx(flt.distribution[float(x)], abs=1e-12), x


def test_ten_rank_split_share():
    """Tens split by rank, T-T split against a 5: the other-rank share plays the best non-split action."""
    from ev.analysis.accounting import round_stats
    rules = Rules(hit_soft_17=False, blackjack_payout="1:1", double="any", double_soft=False,
                  double_after_split=True, resplit_aces=True, split_tens="rank", peek="ten", late_surrender=True)
    game = ExactGame(rules, [1, 2, 1, 3, 0, 2, 1, 2, 3, 2])
    result = game.round("cdz")
    deal = next(d for d in result.deals if d.up == 4 and d.cards == (TEN, TEN))
    assert deal.best == "split" and deal.split_probability == Fraction(3, 15)
    stats = round_stats_exact(game, "cdz")
    assert stats.mean == result.ev and sum(stats.distribution.values()) == 1
    assert stats.ev_by_upcard["5"] == result.ev_by_upcard["5"]
    flt = round_stats(Game(rules, [1, 2, 1, 3, 0, 2, 1, 2, 3, 2]), "cdz")
    for x, p in stats.distribution.items():
        assert float(p) == pytest.approx(flt.distribution[float(x)], abs=1e-12), x


@pytest.mark.parametrize("hands, strategy", [(3, "cdz"), (4, "cdp")])
def test_resplit_distribution_matches_float(hands, strategy):
    """Resplits: the accounting's approximation, exactly; total exactly 1, the mean close to the EV."""
    from ev.analysis.accounting import round_stats
    rng = random.Random(1100 + hands)
    rules = Rules(max_split_hands=hands, double_after_split=True, resplit_aces=True, peek="ten")
    removed = _random_removed(rng, 1, 22)
    game = ExactGame(rules, removed)
    stats = round_stats_exact(game, strategy)
    flt = round_stats(Game(rules, removed), strategy)
    assert sum(stats.distribution.values()) == 1
    assert float(stats.mean) == pytest.approx(float(game.round(strategy).ev), abs=1e-4)
    assert float(stats.expected_wager) == pytest.approx(flt.expected_wager, abs=1e-12)
    assert set(stats.distribution) == {Fraction(x).limit_denominator(10) for x in flt.distribution}
    for x, p in stats.distribution.items():
        assert float(p) == pytest.approx(flt.distribution[float(x)], abs=1e-12), x


@pytest.mark.parametrize("seed", range(3))
def test_table_strategy_equals_reference_distribution(seed):
    """A strategy table followed exactly: the same fractions as the twin that deals every card in order."""
    from ev.analysis.strategy import ACTION_NAMES, optimal_table
    rng = random.Random(1000 + seed)
    rules = random_rules(rng, decks=1, max_split_hands=rng.choice([1, 2]), split_tens="value",
                         insurance=True, even_money=rng.random() < 0.5)
    shoe = random_small_shoe(rng, 1, size=16, tens=6)
    table = optimal_table(Game(rules, removed_for(shoe, 1)))
    if seed == 0:      # take insurance on some hands so that the insurance accounting is exercised
        table.insurance = bytes(1 if i % 3 == 0 else 0 for i in range(len(table.hands)))
    index = {h: i for i, h in enumerate(table.hands)}
    stats = round_stats_exact(ExactGame(rules, removed_for(shoe, 1)), table)
    dist, stake = ref.round_distribution(
        rules, shoe,
        action=lambda up, hand: ACTION_NAMES[table.play[up][index[hand]]],
        split_action=lambda up, hand: ACTION_NAMES[table.split_play[up][index[hand]]],
        insure=lambda up, hand: bool(table.insurance[index[hand]]),
        even_money=table.even_money)
    assert stats.distribution == {x: p for x, p in dist.items() if p}
    assert stats.expected_wager == stake


def test_cli_rtp_exact_json(capsys):
    import json

    from ev.cli import main
    assert main(["rtp", "--exact", "--json", "--set", "max_split_hands=1", "--set", "late_surrender=true"]) == 0
    data = json.loads(capsys.readouterr().out)
    rules = Rules(max_split_hands=1, late_surrender=True)
    ev = ExactGame(rules).round("cdz").ev
    assert data["exact"] is True and data["ev"] == exact_json(ev)
    assert Fraction(data["rtp_initial"]["fraction"]) == 1 + ev
    dist = {k: Fraction(v["fraction"]) for k, v in data["distribution"].items()}
    assert sum(dist.values()) == 1
    assert sum(Fraction(k) * p for k, p in dist.items()) == ev
    wager = Fraction(data["expected_total_wager"]["fraction"])
    assert Fraction(data["rtp_total_wagered"]["fraction"]) == (wager + ev) / wager
    assert set(data["sd"]) == {"expression", "decimal"} and data["ties"] == []
    for value in data["ev_by_upcard"].values():      # every decimal is the fraction to 20 significant digits
        assert value["decimal"] == decimal_text(Fraction(value["fraction"]))
    assert main(["rtp", "--exact", "--set", "max_split_hands=1", "--set", "late_surrender=true"]) == 0
    text = capsys.readouterr().out
    assert fraction_text(ev) in text and decimal_text(ev) in text
