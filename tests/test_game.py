"""The game's mathematics, once per arithmetic: published figures, the Fraction twin, sums and ranges.

Every test here takes ``arith`` (tests/conftest.py) and runs in floats (the Cython core) and in exact
fractions; "agrees" means equal as fractions in the exact arithmetic and within 1e-12 in floats.
"""
from __future__ import annotations

import functools
import math
import random
from fractions import Fraction

import published
import pytest
from conftest import exact_is_slow, game_in, random_removed, random_rules, random_small_shoe, removed_for, same

from ev import reference as ref
from ev.analysis.game import Game
from ev.core.actions import DEALER_OUTCOMES
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, composition_of, hand_total, subtract
from ev.core.rules import Rules

_ROUNDS: dict = {}


def default_round(arith, strategy: str = "cdz"):
    """The seed game's round (cached: the exact one takes about a second)."""
    key = (arith.exact, strategy)
    if key not in _ROUNDS:
        _ROUNDS[key] = game_in(arith).round(strategy)
    return _ROUNDS[key]


# ----- published figures ----------------------------------------------------------------------
@exact_is_slow
@pytest.mark.parametrize("changes, strategy, ev", published.ROUND_EVS)
def test_round_ev_matches_published(arith, changes, strategy, ev):
    result = default_round(arith, strategy) if not changes else game_in(arith, Rules(**changes)).round(strategy)
    assert isinstance(result.ev, Fraction) == arith.exact
    assert result.ev == pytest.approx(ev, abs=published.EV_TOLERANCE)


@exact_is_slow
def test_cdp_is_cdp1_with_one_split(arith):
    assert default_round(arith, "cdp").ev == default_round(arith, "cdp1").ev


@pytest.mark.quick_cases(1)
def test_round_is_the_weighted_sum_of_its_parts(arith):
    result = default_round(arith)
    assert same(arith, result.rtp_initial, 1 + result.ev, 0)
    assert same(arith, sum(result.p_upcard.values()), 1, 1e-15)
    assert same(arith, sum(result.p_upcard[k] * v for k, v in result.ev_by_upcard.items()), result.ev, 1e-15)
    for up in range(N_RANKS):          # one distribution of initial deals per up card
        assert same(arith, sum(d.probability for d in result.deals if d.up == up), 1, 1e-14)


@pytest.mark.quick_cases(1)
def test_no_exact_ties_in_the_default_round(arith):
    assert default_round(arith).ties == []


# ----- the dealer -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_dealer_probabilities_agree_with_twin(arith, seed):
    """Random rules and shoes: the outcomes sum to 1, a settled blackjack has probability 0, and each
    probability is the twin's (card-by-card enumeration), conditioned or not."""
    rng = random.Random(seed)
    rules = Rules() if seed == 0 else random_rules(rng, decks=rng.choice([1, 2]))
    removed = [0] * N_RANKS if seed < 2 else random_removed(rng, rules.decks, rng.randrange(1, 15))
    game = game_in(arith, rules, removed)
    for up in game.upcards():
        deck = subtract(game.shoe, composition_of([up]))
        settled = rules.settled_blackjack_rank(up)
        if settled >= 0 and deck[settled] == sum(deck):
            continue
        for conditioned in (True, False):
            probs = game.dealer_probabilities(up, conditioned=conditioned)
            assert same(arith, sum(probs.values()), 1, 1e-14)
            assert all(p >= 0 for p in probs.values())
            if conditioned and settled >= 0:
                assert probs["blackjack"] == 0
        joint = ref.dealer_distribution(deck, up, rules)
        probs = game.dealer_probabilities(up)
        for k, name in enumerate(DEALER_OUTCOMES):
            assert same(arith, probs[name], joint[k] / sum(joint)), (up, name)


def test_dealer_probabilities_with_known_cards(arith):
    game = game_in(arith)
    known = composition_of([TEN, TEN, 5])
    probs = game.dealer_probabilities(TEN, known)
    deck = subtract(subtract(game.shoe, composition_of([TEN])), known)
    joint = ref.dealer_distribution(deck, TEN, game.rules)
    for k, name in enumerate(DEALER_OUTCOMES):
        assert same(arith, probs[name], joint[k] / sum(joint))


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_dealer_batch_is_the_one_by_one_walk_to_the_bit(decks):
    """The analysis sums the dealer's terminal hands for sixteen decks side by side
    (``DealerTable.probabilities_batch``): every deck gets the values of the one-deck walk bit for bit,
    whatever its size (short decks that may run out among them) and wherever it falls in a batch, and
    they are the twin's."""
    from ev.core._dealer import DealerTable
    rng = random.Random(decks)
    caps = (4 * decks,) * 9 + (16 * decks,)
    for up in range(N_RANKS):
        for hit_soft_17 in (True, False):
            for excluded in {-1, TEN if up == ACE else ACE if up == TEN else -1}:
                table = DealerTable(up, hit_soft_17, excluded, caps)
                batch = [[rng.randint(0, c) for c in caps] for _ in range(rng.randrange(1, 40))]
                batch += [[rng.randint(0, 2) for _ in caps] for _ in range(3)]      # short decks
                rng.shuffle(batch)
                values = table.probabilities_batch(batch)
                assert len(values) == len(batch)
                for deck, got in zip(batch, values):
                    assert got == table.probabilities(deck), (up, deck)
    rules = Rules(decks=decks)
    deck = subtract(Game(rules).shoe, composition_of([5, 5, TEN, 2]))
    table = DealerTable(5, rules.hit_soft_17, -1, caps)
    twin = ref.dealer_distribution(tuple(deck), 5, rules)
    for got in table.probabilities_batch([deck] * 17):
        assert got == pytest.approx([float(x) for x in twin], abs=1e-15)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.quick_cases(1)
def test_split_contexts_batched_are_the_one_by_one_values_to_the_bit(seed):
    """A split hand's recursion has its dealer decks evaluated side by side before it runs (walked ahead,
    deciding where it decides): every split hand value, in every deck context and under every decision source
    (CDZ-, CDP1, its own), and every context's stand values, are the floats of a solver that evaluated the same
    decks one by one."""
    from ev.core._player import EXTRA_LIMIT
    rng = random.Random(7 + seed)
    rules = Rules(decks=(1, 2, 6)[seed], max_split_hands=4, resplit_aces=rng.random() < 0.5,
                  double_after_split=rng.random() < 0.5, hit_soft_17=rng.random() < 0.5, double="any")
    batched, one_by_one = Game(rules), Game(rules)
    graph = one_by_one.graph
    for up in rng.sample(range(N_RANKS), 4):
        a, b = batched.solver(up), one_by_one.solver(up)
        base = subtract(one_by_one.shoe, composition_of([up]))
        for pair in rng.sample(range(N_RANKS), 4):
            for extra in range(1, EXTRA_LIMIT + 1):
                ctx = 1 + pair * EXTRA_LIMIT + extra - 1
                for s, hand in enumerate(graph["hands"]):      # every deck of the context, one by one
                    deck = [base[r] - hand[r] - (extra if r == pair else 0) for r in range(N_RANKS)]
                    if min(deck) >= 0 and sum(deck) > 0 and hand[pair] > 0 and sum(hand) >= 2:
                        b.dealer_probabilities(s, ctx)
                for decide in sorted({0, 1, extra}):
                    for one_card in (False, True):
                        got = a.split_hand_values(pair, extra, decide, one_card)
                        want = b.split_hand_values(pair, extra, decide, one_card)
                        assert [x if x == x else "nan" for x in got] == [x if x == x else "nan" for x in want], (
                            up, pair, extra, decide, one_card)
                got, want = a.context_stand_values(pair, extra), b.context_stand_values(pair, extra)
                assert [x if x == x else "nan" for x in got] == [x if x == x else "nan" for x in want]
    assert batched.solver(up).work()["dealer_evaluations"] > 0


# ----- hands and rounds against the Fraction twin ---------------------------------------------------
def _random_hand(rng: random.Random, base: tuple, pair: bool) -> list[int]:
    """A random pair, or two or three random cards, that is neither bust nor a natural."""
    while True:
        if pair:
            r = rng.choice([r for r in range(N_RANKS) if base[r] >= 2])
            cards = [r, r]
        else:
            cards = rng.sample([r for r in range(N_RANKS) for _ in range(base[r])], rng.choice([2, 3]))
        total, _ = hand_total(composition_of(cards))
        if total <= 21 and not (len(cards) == 2 and total == 21):
            return cards


@pytest.mark.parametrize("seed", range(8))
def test_hands_agree_with_twin(arith, seed):
    """Every decision of random hands, on random rule sets and random depleted shoes."""
    rng = random.Random(100 + seed)
    rules = random_rules(rng, decks=rng.choice([1, 2]))
    shoe = random_small_shoe(rng, rules.decks, size=rng.choice([18, 20, 22]), tens=7)
    game = game_in(arith, rules, removed_for(shoe, rules.decks))
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    for k in range(3):
        up = rng.choice(game.upcards())
        base = subtract(shoe, composition_of([up]))
        cards = _random_hand(rng, base, pair=k == 0)
        try:
            twin = ref.hand_values(composition_of(cards), up, rules, base, strategy)
        except ValueError:            # the twin's dealer ran out of cards: the engine refuses such a shoe
            continue
        mine = game.hand([RANK_SYMBOLS[c] for c in cards], up, strategy)
        for action in ("stand", "hit", "double", "split", "surrender"):
            if action in twin:
                assert same(arith, getattr(mine, action), twin[action] / twin["mass"]), (cards, up, action)
            else:
                assert getattr(mine, action) is None, action


@functools.cache
def _twin_round(seed: int) -> tuple:
    """A random rule set, 18-card shoe and split strategy, and the twin's round EV (shared by both arithmetics).

    A shoe so small that some line of play runs out of cards is drawn again (the twin refuses it)."""
    rng = random.Random(200 + seed)
    while True:
        rules = random_rules(rng, decks=1)
        shoe = random_small_shoe(rng, 1)
        strategy = rng.choice(["cdz", "cdp1", "cdp"])
        try:
            return rules, shoe, strategy, ref.round_ev(rules, strategy, shoe)
        except ValueError:
            continue


@pytest.mark.slow
@pytest.mark.xdist_group("twin-round")     # one worker: the twin's round EV is made once per seed
@pytest.mark.parametrize("seed", range(3))
def test_round_ev_agrees_with_twin(arith, seed):
    rules, shoe, strategy, twin = _twin_round(seed)
    assert same(arith, game_in(arith, rules, removed_for(shoe, 1)).round(strategy).ev, twin)


# ----- ranges and ties -----------------------------------------------------------------------------
@pytest.mark.parametrize("exact, seed", [(False, None), (False, 1), (False, 2), (False, 3), (True, None)],
                         ids=["float-seed-game", "float-1", "float-2", "float-3", "exact-seed-game"])
@pytest.mark.quick_cases(2)
def test_values_in_range(exact, seed):
    """Every value of every state in its possible range (random rule sets in floats; exact: the seed game)."""
    rules = Rules() if seed is None else random_rules(random.Random(seed))
    analysis = Game(rules, exact=exact).analyse(("cdz",))
    most = max(rules.max_split_hands, 2)
    for up in analysis.stand:
        for s in range(len(analysis.hands)):
            st, ht, db = analysis.stand[up][s], analysis.hit[up][s], analysis.double[up][s]
            if st is None or st != st:
                continue
            assert -1 - 1e-12 <= st <= 1 + 1e-12
            assert ht is None or math.isnan(ht) or -1 - 1e-12 <= ht <= 1 + 1e-12
            assert -2 - 1e-12 <= db <= 2 + 1e-12
    for v in analysis.split.values():
        assert -2 * most <= v <= 2 * most
    result = analysis.rounds["cdz"]
    assert -1 < result.ev < 1.5
    for k, v in result.ev_by_upcard.items():
        assert -1 - 1e-12 <= v <= 1.5 + 1e-12, k


def test_standing_on_21_against_a_6_wins_often(arith):
    """Standing on a three-card 21 against a 6 wins unless the dealer also makes 21."""
    assert game_in(arith).hand(["T", "5", "6"], 5).stand > 0.8


def test_insurance_and_even_money_ties_are_reported():
    exact = Game(exact=True, removed=composition_of([1]))
    # ace up, 5-6 in hand, one 2 gone: 16 tens in 48 unseen cards, insurance is worth exactly 0
    hand = exact.hand(["5", "6"], ACE)
    assert hand.insurance == 0 and hand.p_dealer_blackjack == Fraction(1, 3)
    assert {"up": "A", "hand": "6-5", "context": "initial deal",
            "actions": ["decline insurance", "insurance"]} in hand.ties
    # a blackjack against an ace with 15 tens in 45 cards: 3/2 * 2/3 = 1, even money ties; declined
    natural = Game(exact=True, removed=composition_of([1, 2, 3, 4])).hand(["A", "K"], ACE)
    assert natural.blackjack_declined == 1 and natural.best == "stand"
    assert any(t["actions"] == ["decline even money", "even_money"] for t in natural.ties)
