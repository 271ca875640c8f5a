"""The two arithmetics against each other: floats (the Cython core) equal exact fractions to 1e-12."""
from __future__ import annotations

import os
import random
from collections import defaultdict
from fractions import Fraction
from math import perm, prod

import pytest
from conftest import by_net, random_removed, random_rules

from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.core.cards import N_RANKS, RANK_SYMBOLS, composition_of, hand_total, subtract
from ev.core.rules import Rules

TOL = 1e-12
HAND_FIELDS = ("stand", "hit", "double", "split", "surrender", "insurance", "even_money", "blackjack_declined",
               "p_dealer_blackjack")
STATS_FIELDS = ("ev", "expected_wager", "rtp_total_wagered", "p_double", "p_split", "p_insurance", "p_even_money",
                "p_player_blackjack", "p_dealer_blackjack", "p_win", "p_push", "p_loss", "variance", "sd",
                "skewness", "hit_frequency")


def games(rules=None, removed=(0,) * N_RANKS) -> tuple[Game, Game]:
    return Game(rules, removed, exact=True), Game(rules, removed)


@pytest.mark.parametrize("seed", range(8))
def test_hands_agree(seed):
    """Every decision of random hands on random rule sets (1-2 decks) and depleted shoes."""
    rng = random.Random(600 + seed)
    rules = random_rules(rng, decks=rng.choice([1, 2]))
    exact, flt = games(rules, random_removed(rng, rules.decks, rng.randrange(0, 20)))
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    for _ in range(6):
        up = rng.choice(exact.upcards())
        base = subtract(exact.shoe, composition_of([up]))
        if rng.random() < 0.4:
            pair = rng.choice([r for r in range(N_RANKS) if base[r] >= 2])
            cards = [pair, pair]
        else:
            cards = rng.sample([r for r in range(N_RANKS) for _ in range(base[r])], rng.choice([2, 2, 3, 4]))
        if hand_total(composition_of(cards))[0] > 21:
            continue
        faces = [RANK_SYMBOLS[c] for c in cards]
        mine, theirs = exact.hand(faces, up, strategy), flt.hand(faces, up, strategy)
        for field in HAND_FIELDS:
            a, b = getattr(mine, field), getattr(theirs, field)
            assert (a is None) == (b is None), field
            if a is not None:
                assert isinstance(a, Fraction) and float(a) == pytest.approx(b, abs=TOL), (faces, up, field)
        assert mine.best == theirs.best and mine.conditioned == theirs.conditioned


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_rounds_agree(seed):
    rng = random.Random(700 + seed)
    rules = random_rules(rng, decks=rng.choice([1, 2]))
    removed = random_removed(rng, rules.decks, rng.randrange(0, 12)) if seed % 2 else [0] * N_RANKS
    strategy = ["cdz", "cdp1", "cdp", "cdz"][seed]
    exact, flt = (g.round(strategy) for g in games(rules, removed))
    assert float(exact.ev) == pytest.approx(flt.ev, abs=TOL)
    for k, v in exact.ev_by_upcard.items():
        assert float(v) == pytest.approx(flt.ev_by_upcard[k], abs=TOL), k
    assert [d.best for d in exact.deals] == [d.best for d in flt.deals]


def test_six_decks_hand():
    rules = Rules(decks=6, double_after_split=True, max_split_hands=4)
    exact, flt = (g.hand(["8", "8"], 9, "cdp") for g in games(rules))
    for field in ("stand", "hit", "split"):
        assert float(getattr(exact, field)) == pytest.approx(getattr(flt, field), abs=TOL)


def _assert_stats_agree(exact, flt) -> None:
    for field in STATS_FIELDS:
        assert float(getattr(exact, field)) == pytest.approx(getattr(flt, field), abs=TOL), field
    flt_dist = by_net(flt.distribution)
    assert set(exact.distribution) == set(flt_dist)
    for x, p in exact.distribution.items():
        assert float(p) == pytest.approx(flt_dist[x], abs=TOL), x


@pytest.mark.slow
def test_default_stats_agree():
    _assert_stats_agree(*(round_stats(g, "cdz") for g in games()))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_random_rules_stats_agree(seed):
    rng = random.Random(900 + seed)
    rules = random_rules(rng, decks=1, max_split_hands=rng.choice([1, 2, 3]), split_aces_one_card=True)
    removed = random_removed(rng, 1, rng.randrange(12, 24))
    strategy = rng.choice(["cdz", "cdp1", "cdp"])
    # resplits exact in both (under "auto" floats score a one-deck game's resplits exactly, fractions where the
    # work is small: test_auto_scores_resplits_exactly_in_floats_where_the_table_allows)
    _assert_stats_agree(*(round_stats(g, strategy, "exact") for g in games(rules, removed)))


@pytest.mark.slow
@pytest.mark.parametrize("hands, strategy", [(3, "cdz"), (4, "cdp")])
def test_resplit_stats_agree(hands, strategy):
    rng = random.Random(1100 + hands)
    rules = Rules(max_split_hands=hands, double_after_split=True, resplit_aces=True, peek="ten",
                  unchecked_blackjack_takes="all")
    _assert_stats_agree(*(round_stats(g, strategy, resplits="independent")       # the exact method: test_splits
                          for g in games(rules, random_removed(rng, 1, 22))))


@pytest.mark.parametrize("decks", [1, 2, 8])
@pytest.mark.slow
def test_dealer_numerators_in_c_equal_the_compiled_sum(decks):
    """The exact dealer's outcome numerators, summed in C (128-bit integers over the float core's trie), equal
    the compiled Python sum over the same terminal hands, on full, depleted and nearly empty decks; a deck
    the dealer may run out of is left to the Python sum (None from C)."""
    from ev.core._exact_sums import numerators
    from ev.core.cards import full_shoe
    from ev.core.exact_solver import dealer_poly
    rng = random.Random(decks)
    shoe = full_shoe(decks)
    checked = short = 0
    for up in range(N_RANKS):
        caps = tuple(c - (r == up) for r, c in enumerate(shoe))
        for hit_soft_17, excluded in ((True, -1), (True, 9 if up == 0 else 0), (False, -1)):
            poly = dealer_poly(up, hit_soft_17, excluded, caps)
            table = poly.table()
            decks_met = [list(caps)] + [[max(0, c - rng.randrange(0, 4 * decks)) for c in caps] for _ in range(8)]
            decks_met += [[min(c, rng.randrange(0, 3)) for c in caps] for _ in range(6)]
            for _ in range(12):             # a few cards: the dealer may run out
                deck = [0] * N_RANKS
                for r in rng.choices(range(N_RANKS), k=rng.randrange(1, 12)):
                    deck[r] = min(deck[r] + 1, caps[r])
                decks_met.append(deck)
            for deck in decks_met:
                n = sum(deck)
                if n == 0:
                    continue
                in_c = numerators(table, deck, n)
                if in_c is None:
                    short += 1
                    continue
                checked += 1
                assert in_c == tuple(poly.compiled_numerators(tuple(deck), n))
                assert poly.numerators(deck, n) == in_c
                assert sum(in_c) == poly.denominator(n) - (deck[excluded] * poly.denominator(n) // n
                                                           if excluded >= 0 else 0)
    assert checked > 400 and short > 0


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_dealer_numerators_side_by_side_equal_one_by_one(decks):
    """The exact split sums walk the dealer's trie for eight decks side by side (in 128-bit integers, the
    falling factorials in 64 bits where they fit); each deck's numerators are the one-by-one walk's, with
    either width, on full and depleted decks of every up card, whole batches and a partial one."""
    from ev.core._exact_sums import numerators, numerators_batch
    from ev.core.cards import full_shoe
    from ev.core.exact_solver import dealer_poly
    rng = random.Random(f"side-by-side-{decks}")
    shoe = full_shoe(decks)
    narrow_met = set()
    for up in range(N_RANKS):
        caps = tuple(c - (r == up) for r, c in enumerate(shoe))
        for hit_soft_17, excluded in ((True, -1), (False, 9 if up == 0 else 0)):
            table = dealer_poly(up, hit_soft_17, excluded, caps).table()
            assert numerators(table, [0] * N_RANKS, 0) is None      # no card left (was a division by zero)
            met = [list(caps)] + [[max(0, c - rng.randrange(0, 4 * decks)) for c in caps] for _ in range(18)]
            met = [deck for deck in met if sum(deck) >= table.max_len]
            one_by_one = [numerators(table, deck, sum(deck)) for deck in met]
            for wide in (False, True):
                side_by_side, narrow = numerators_batch(table, met, wide)
                if not wide:
                    narrow_met.add(narrow)
                assert side_by_side == one_by_one
    assert narrow_met == {True}         # every shoe of up to eight decks takes the 64-bit kernel


def test_a_heavy_shoe_takes_the_128_bit_kernel_and_agrees():
    """Where a rank's falling factorials outgrow 64 bits (63 aces under an ace), the side-by-side walk keeps them
    in 128 bits, and its numerators are the compiled Python sum's (Python integers: no overflow can hide)."""
    from ev.core._exact_sums import numerators_batch
    from ev.core.exact_solver import dealer_poly
    rng = random.Random("heavy")
    caps = (63, 20, 20, 20, 8, 8, 8, 8, 8, 32)
    poly = dealer_poly(0, True, -1, caps)
    table = poly.table()
    met = [list(caps)] + [[max(0, c - rng.randrange(0, 3)) for c in caps] for _ in range(9)]
    side_by_side, narrow = numerators_batch(table, met)
    assert not narrow
    assert side_by_side == [tuple(poly.compiled_numerators(tuple(d), sum(d))) for d in met]


def _plain_round(table, deck, lists, count):
    """A split round of the given hands' finals summed the plain way: every tuple of finals merged into (type
    set, union) states in Python, each union's dealer numerators by the one-by-one walk, in Fractions."""
    from ev.analysis.splits import type_sets
    from ev.core._exact_sums import numerators
    sets = type_sets(4)
    n0, top_len = sum(deck), table.max_len
    states = {(0, (0,) * N_RANKS): count}
    for finals in lists:
        grown = defaultdict(int)
        for (a, union), w in states.items():
            for cards, orders, kind in finals:
                u = tuple(x + y for x, y in zip(union, cards))
                if all(x <= y for x, y in zip(u, deck)):
                    grown[sets[a][2][kind], u] += w * orders
        states = grown
    cells = defaultdict(Fraction)
    for (a, u), w in states.items():
        size = sum(u)
        dealer = numerators(table, [d - x for d, x in zip(deck, u)], n0 - size)
        if dealer is None:
            return None
        weight = w * prod(perm(deck[r], u[r]) for r in range(N_RANKS))
        for o in range(7):          # the dealer's outcomes: 17 .. 21, bust, blackjack
            if dealer[o]:
                cells[sets[a][0], int(o == 6), sets[a][1][o]] += Fraction(
                    weight * dealer[o], perm(n0, size + min(top_len, n0 - size)))
    return {k: v for k, v in cells.items() if v}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.slow
def test_split_sums_in_c_equal_the_plain_sum_on_random_finals(seed):
    """pair_round_cells and round_cells (the unions' dealer numerators eight at a time, a deck that may run out
    walked alone in the same batch) give the plain sum's fractions on random finals of two to four hands, on
    small decks and large; two hands of one list (merged as unordered pairs) give what a copy of it gives."""
    from ev.analysis.splits import type_sets
    from ev.core._exact_sums import pair_round_cells, round_cells
    from ev.core.exact_solver import dealer_poly
    rng = random.Random(f"plain-sum-{seed}")
    checked = 0
    for _ in range(40):
        small = rng.random() < 0.5
        deck = ([rng.randint(0, 3) for _ in range(9)] + [rng.randint(3, 12)] if small
                else [rng.randint(2, 32) for _ in range(9)] + [rng.randint(20, 128)])
        up = rng.randrange(N_RANKS)
        table = dealer_poly(up, rng.random() < 0.5, rng.choice([-1, 9 if up == 0 else 0]), tuple(deck)).table()

        def finals(n, most=5 if small else 4):
            out = []
            for _ in range(n):
                cards = [0] * N_RANKS
                for r in rng.choices(range(N_RANKS), k=rng.randint(1, most)):
                    cards[r] += 1
                out.append((tuple(cards), rng.randint(1, 2), rng.randrange(14)))
            return out
        hands = rng.choice([2, 2, 3, 4])
        common = finals(rng.randint(3, 20))
        lists = [common if rng.random() < 0.6 else finals(rng.randint(3, 15)) for _ in range(hands)]
        plain = _plain_round(table, deck, lists, 1)
        if plain is None or max(plain.values(), default=0) >= 1:
            continue        # the deck ran out, or the made-up orders are no probability: not a split round
        if hands == 2:
            in_c = pair_round_cells(table, deck, lists[0], lists[1], 1)[0]
            assert pair_round_cells(table, deck, lists[0], list(lists[1]), 1)[0] == in_c
        else:
            in_c = round_cells(table, deck, lists, 1, 0, 0, type_sets(4))[0]
        assert in_c == plain
        checked += 1
    assert checked >= 15


@pytest.mark.slow
def test_malformed_finals_are_refused_without_leaking_the_merge_maps():
    """round_cells and pair_round_cells refuse a final whose count of a rank is above 62 (its 6 bits, less the
    1 the merges add to a key; more would spill into the next rank's) or that is not a (cards, orders, type)
    triple; round_cells reads the hands' finals after making its maps, and frees them on the error: 1,000
    refusals leave the resident memory within 8 MiB (the maps are 32 KiB a call when they leak: 91 MiB for
    3,000 measured on the build before the fix)."""
    from ev.analysis.splits import type_sets
    from ev.core._exact_sums import pair_round_cells, round_cells
    from ev.core.exact_solver import dealer_poly
    if not os.path.exists("/proc/self/statm"):
        pytest.skip("resident memory read from /proc")
    deck = [4] * 9 + [16]
    table = dealer_poly(5, True, -1, tuple(deck)).table()
    good = [((0, 1, 0, 0, 0, 0, 0, 1, 0, 0), 2, 3)]
    spill = [((63, 0, 0, 0, 0, 0, 0, 0, 0, 0), 1, 3)]
    sets = type_sets(3)
    with pytest.raises(ValueError, match="0 to 62"):
        pair_round_cells(table, deck, good, spill, 1)
    with pytest.raises(ValueError, match="0 to 62"):
        round_cells(table, deck, [good, good, spill], 1, 0, 0, sets)

    def resident() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    round_cells(table, deck, [good, good, good], 1, 0, 0, sets)    # the good call works, and warms up
    before = resident()
    for _ in range(1000):
        with pytest.raises(ValueError):
            round_cells(table, deck, [good, [(1, 2)]], 1, 0, 0, sets)
    assert resident() - before < 8 * 2**20
