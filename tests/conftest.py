"""Shared helpers: the two arithmetics, random rule sets and random small shoes for twin comparisons.

The mathematics tests take the ``arith`` fixture and run once per arithmetic (floats through the
Cython core, exact fractions), as msgpack runs one suite on both of its implementations.
"""
from __future__ import annotations

import collections
import compileall
import os
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from ev.analysis.game import Game
from ev.core.arithmetic import EXACT, FLOAT, Arithmetic
from ev.core.cards import N_RANKS, composition_of, full_shoe
from ev.core.rules import CHOICES, Rules

# the property tests (tests/test_properties.py): at least 200 examples per property, the same examples on every
# run (derandomised, no example database), no deadline (a full-deck round takes up to a second)
settings.register_profile("ci", max_examples=200, derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                 HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


#: the xdist group of the tests that compute the seed game's truly optimal splits (the report's and the
#: optimal-split tests): one worker, so that the search is made once
SEED_GAME_GROUP = "seed-game"


# pytest keeps the test modules it rewrites for assertions in tests/__pycache__ only where bytecode may be written;
# where PYTHONDONTWRITEBYTECODE is set every run (and every xdist worker) rewrote all of them again (2-3 s a
# process): kept, as bjev's own modules are (pytest_configure)
sys.dont_write_bytecode = False


def pytest_configure(config) -> None:
    """Compile bjev's modules to bytecode once, in the controlling process: the suite starts a few hundred
    Python processes (the README's commands, the fault and bad-input tests, pool and Dask workers), and where
    PYTHONDONTWRITEBYTECODE is set none of them would keep its compilation for the next."""
    if not hasattr(config, "workerinput"):
        import ev
        compileall.compile_dir(str(Path(ev.__file__).resolve().parent), quiet=1)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """``@pytest.mark.quick_cases(n)``: the quick loop (``-m "not slow"``) runs the first ``n`` cases of the test
    not already marked slow, and the whole suite every case; the others are marked slow here, before ``-m``
    deselects (so every test function of the quick loop still runs, on its first cases)."""
    quick = collections.Counter()
    for item in items:
        mark = item.get_closest_marker("quick_cases")
        if mark is None or item.get_closest_marker("slow") is not None:
            continue
        function = item.nodeid.split("[", 1)[0]
        quick[function] += 1
        if quick[function] > mark.args[0]:
            item.add_marker(pytest.mark.slow)


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


def random_removed(rng: random.Random, decks: int, count: int) -> list[int]:
    """``count`` random cards of a full shoe, as rank counts (cards known to be gone)."""
    shoe = full_shoe(decks)
    pool = [r for r in range(N_RANKS) for _ in range(shoe[r])]
    return list(composition_of(rng.sample(pool, count)))


@pytest.fixture(params=[FLOAT, EXACT], ids=["float", "exact"])
def arith(request) -> Arithmetic:
    """Each arithmetic in turn: a test using it runs twice."""
    return request.param


#: for tests whose exact variant takes seconds: the float one stays in the inner loop (-m "not slow")
exact_is_slow = pytest.mark.parametrize("arith", [FLOAT, pytest.param(EXACT, marks=pytest.mark.slow)],
                                        ids=["float", "exact"])


def game_in(arith: Arithmetic, rules: Rules | None = None, removed=(0,) * N_RANKS) -> Game:
    return Game(rules, removed, exact=arith.exact)


def same(arith: Arithmetic, mine, expected, tol: float = 1e-12) -> bool:
    """Exactly equal in the exact arithmetic; within ``tol`` in floats (``expected`` may be a Fraction)."""
    if arith.exact:
        return mine == expected
    return abs(mine - float(expected)) <= tol


def by_net(distribution: dict) -> dict:
    """A distribution keyed by exact net results (Fractions; net results are tenths of a bet)."""
    return {Fraction(x).limit_denominator(10): p for x, p in distribution.items()}
