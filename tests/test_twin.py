"""The Cython core against the pure-Python reference twin (ev.reference), on random rules and shoes."""
from __future__ import annotations

import random

import pytest

from conftest import random_rules, random_small_shoe, removed_for
from ev import reference as ref
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, composition_of, full_shoe, subtract
from ev.analysis.game import DEALER_OUTCOMES, Game

TOL = 1e-12


def _random_removed(rng: random.Random, decks: int, count: int) -> list[int]:
    shoe = full_shoe(decks)
    pool = [r for r in range(N_RANKS) for _ in range(shoe[r])]
    return list(composition_of(rng.sample(pool, count)))


@pytest.mark.parametrize("seed", range(6))
def test_dealer_probabilities_agree(seed):
    rng = random.Random(seed)
    rules = random_rules(rng)
    game = Game(rules, _random_removed(rng, rules.decks, rng.randrange(0, 15)))
    for up in range(N_RANKS):
        if not game.shoe[up]:
            continue
        deck = subtract(game.shoe, composition_of([up]))
        if game.rules.settled_blackjack_rank(up) >= 0 and deck[game.rules.settled_blackjack_rank(up)] == sum(deck):
            continue
        core = game.dealer_probabilities(up)
        joint = ref.dealer_distribution(deck, up, rules)
        mass = sum(joint)
        assert sum(core.values()) == pytest.approx(1.0, abs=1e-13)
        for k, name in enumerate(DEALER_OUTCOMES):
            assert core[name] == pytest.approx(float(joint[k] / mass), abs=TOL), (up, name)
        assert sum(joint) + (0 if game.rules.settled_blackjack_rank(up) < 0 else
                             ref.Fraction(deck[game.rules.settled_blackjack_rank(up)], sum(deck))) == 1


@pytest.mark.parametrize("seed", range(8))
def test_hand_values_agree(seed):
    """Every decision of a random hand, on a random rule set and a random depleted shoe."""
    rng = random.Random(100 + seed)
    rules = random_rules(rng, decks=rng.choice([1, 2]))
    removed = _random_removed(rng, rules.decks, rng.randrange(12, 24))
    game = Game(rules, removed)
    up = rng.choice([r for r in range(N_RANKS) if game.shoe[r]])
    base = subtract(game.shoe, composition_of([up]))
    avail = [r for r in range(N_RANKS) for _ in range(base[r])]
    if seed % 2 == 0:   # a pair, to exercise splits and resplits
        pair = rng.choice([r for r in range(N_RANKS) if base[r] >= 2])
        cards = [pair, pair]
    else:
        cards = rng.sample(avail, rng.choice([2, 3]))
    hand = composition_of(cards)
    total = sum((c + 1) for c in cards)
    if total > 21 or (len(cards) == 2 and set(cards) == {ACE, TEN}):
        pytest.skip("bust or natural")
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    faces = [RANK_SYMBOLS[c] for c in cards]
    core = game.hand(faces, up, strategy)
    twin = ref.hand_values(hand, up, rules, base, strategy)
    mass = twin["mass"]
    for action in ("stand", "hit", "double", "split", "surrender"):
        mine = getattr(core, action)
        if action in twin:
            assert mine is not None, action
            assert mine == pytest.approx(float(twin[action] / mass), abs=TOL), action
        else:
            assert mine is None, action


@pytest.mark.parametrize("seed", range(3))
def test_round_ev_agrees_on_small_shoes(seed):
    rng = random.Random(200 + seed)
    rules = random_rules(rng, decks=1)
    shoe = random_small_shoe(rng, 1)
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    core = Game(rules, removed_for(shoe, 1)).round(strategy).ev
    twin = ref.round_ev(rules, strategy, shoe)
    assert core == pytest.approx(float(twin), abs=TOL)
