"""Every EV stays in its possible range, on the default game and random rule sets."""
from __future__ import annotations

import math
import random

import pytest

from conftest import random_rules
from ev.core.cards import N_RANKS
from ev.analysis.game import Game
from ev.core.rules import Rules


@pytest.mark.parametrize("seed", [None, 1, 2, 3])
def test_values_in_range(seed):
    rules = Rules() if seed is None else random_rules(random.Random(seed))
    game = Game(rules)
    analysis = game.analyse(("cdz",))
    most = max(rules.max_split_hands, 2)
    for up in analysis.stand:
        for s, hand in enumerate(analysis.hands):
            st, ht, db = analysis.stand[up][s], analysis.hit[up][s], analysis.double[up][s]
            if math.isnan(st):
                continue
            assert -1 - 1e-12 <= st <= 1 + 1e-12
            assert math.isnan(ht) or -1 - 1e-12 <= ht <= 1 + 1e-12
            assert -2 - 1e-12 <= db <= 2 + 1e-12
    for (_, up, pair), v in analysis.split.items():
        assert -2 * most <= v <= 2 * most
    result = analysis.rounds["cdz"]
    assert -1 < result.ev < 1.5
    for k, v in result.ev_by_upcard.items():
        assert -1 - 1e-12 <= v <= 1.5 + 1e-12, k


@pytest.mark.parametrize("seed", range(4))
def test_dealer_probabilities_sum_to_one(seed):
    rng = random.Random(seed)
    game = Game(random_rules(rng))
    for up in range(N_RANKS):
        probs = game.dealer_probabilities(up)
        assert sum(probs.values()) == pytest.approx(1.0, abs=1e-14)
        assert all(p >= 0 for p in probs.values())
        if game.rules.settled_blackjack_rank(up) >= 0:
            assert probs["blackjack"] == 0.0
        unconditioned = game.dealer_probabilities(up, conditioned=False)
        assert sum(unconditioned.values()) == pytest.approx(1.0, abs=1e-14)


def test_standing_on_21_against_a_6_wins_often():
    """Standing on a three-card 21 against a 6 wins unless the dealer also makes 21."""
    game = Game()
    assert game.hand(["T", "5", "6"], 5).stand > 0.8
