"""Shared helpers: random rule sets and random small shoes for twin comparisons."""
from __future__ import annotations

import random

import pytest

from ev.core.cards import N_RANKS, full_shoe
from ev.core.rules import CHOICES, Rules


def random_rules(rng: random.Random, **fixed) -> Rules:
    """A random valid rule set (any field may be pinned with ``fixed``)."""
    values = dict(
        decks=rng.choice([1, 1, 2, 6]),
        hit_soft_17=rng.random() < 0.5,
        blackjack_payout=rng.choice(CHOICES["blackjack_payout"]),
        double=rng.choice(CHOICES["double"]),
        double_soft=rng.random() < 0.7,
        double_after_split=rng.random() < 0.5,
        max_split_hands=rng.choice([1, 2, 2, 3, 4]),
        split_aces_one_card=rng.random() < 0.7,
        resplit_aces=rng.random() < 0.5,
        split_tens=rng.choice(CHOICES["split_tens"]),
        peek=rng.choice(CHOICES["peek"]),
        unchecked_blackjack_takes=rng.choice(CHOICES["unchecked_blackjack_takes"]),
        insurance=rng.random() < 0.8,
        even_money=rng.random() < 0.8,
        late_surrender=rng.random() < 0.5,
    )
    values.update(fixed)
    return Rules(**values)


def removed_for(shoe: tuple, decks: int) -> list[int]:
    """The cards to remove from a full shoe to leave ``shoe``."""
    return [f - s for f, s in zip(full_shoe(decks), shoe)]


def random_small_shoe(rng: random.Random, decks: int, size: int = 18, tens: int = 6) -> tuple:
    """A random shoe of ``size`` cards with ``tens`` ten-valued cards (enough that no one runs out)."""
    full = full_shoe(decks)
    shoe = [0] * N_RANKS
    shoe[9] = tens
    pool = [r for r in range(9) for _ in range(full[r])]
    for r in rng.sample(pool, size - tens):
        shoe[r] += 1
    return tuple(shoe)


@pytest.fixture
def rng(request) -> random.Random:
    return random.Random(request.node.name)
