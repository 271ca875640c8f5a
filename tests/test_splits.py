"""Split values: exact with one split and with resplits, against dealing every card in table order."""
from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import cache

import pytest
from conftest import random_rules

from ev import reference as ref
from ev.analysis import splits
from ev.analysis.game import Game
from ev.analysis.strategy import optimal_policy
from ev.core.actions import split_mode
from ev.core.cards import N_RANKS, RANK_SYMBOLS, TEN, blackjack_rank, full_shoe
from ev.core.rules import Rules

# small decks (after the up card) so that exhaustive dealing stays quick
DECK = (1, 2, 2, 1, 2, 2, 2, 3, 1, 6)
ACES_DECK = (3, 2, 1, 1, 2, 1, 2, 2, 1, 6)


@pytest.mark.parametrize("deck, up, pair, strategy, das", [
    (DECK, 5, 7, "cdz", False), pytest.param(DECK, 9, 2, "cdp", True, marks=pytest.mark.slow),
    (ACES_DECK, 0, 0, "cdz", False), pytest.param(ACES_DECK, 9, 0, "cdp1", True, marks=pytest.mark.slow)])
def test_one_split_formula_is_exact(deck, up, pair, strategy, das):
    """2 V equals dealing every card in table order (hole card first), as exact fractions."""
    rules = Rules(double="any", double_after_split=das, split_aces_one_card=(up == 0))
    unsplit = ref.Player(deck, up, rules)
    formula = ref.split_value(deck, up, rules, pair, strategy, unsplit)
    exhaustive = ref.split_value_exhaustive(deck, up, rules, pair, strategy, unsplit)
    assert isinstance(formula, Fraction) and formula == exhaustive


# (deck after the up card, up, pair, rule changes): resplit cases where the split strategies differ
RESPLIT_CASES = [
    ((1, 2, 2, 1, 2, 2, 2, 3, 1, 6), 5, 7, {"double": "any", "double_after_split": True}),
    ((0, 1, 1, 0, 2, 1, 4, 2, 2, 4), 3, 6, {"double": "9-11", "double_after_split": True, "peek": "none",
                                            "unchecked_blackjack_takes": "original"}),
    ((1, 1, 2, 2, 0, 1, 1, 0, 4, 6), 3, 8, {"double": "any", "double_after_split": True, "peek": "none"}),
    ((4, 0, 1, 1, 1, 1, 1, 1, 1, 6), 3, 0, {"resplit_aces": True}),
    ((4, 0, 1, 1, 1, 1, 1, 1, 1, 6), 3, 0, {"resplit_aces": True, "split_aces_one_card": False,
                                            "double_after_split": True, "double": "any"}),
]
#: the cases whose split strategies decide differently (so their values differ)
DIFFERING = {1, 2}


def resplit_setup(case: int, hands: int) -> tuple:
    """(deck, up, pair, rules, the twin's unsplit player, the cards removed from one deck) of a resplit case."""
    deck, up, pair, changes = RESPLIT_CASES[case]
    rules = Rules(max_split_hands=hands, **changes)
    removed = [f - d - (r == up) for r, (f, d) in enumerate(zip(full_shoe(1), deck))]
    return deck, up, pair, rules, ref.Player(deck, up, rules), removed


@cache
def exhaustive_distribution(case: int, hands: int, strategy: str) -> dict:
    """The twin's split distribution of a resplit case by dealing every card in table order (made once: both
    tests below read it, on one worker)."""
    deck, up, pair, rules, unsplit, _ = resplit_setup(case, hands)
    return {k: p for k, p in ref.split_distribution_exhaustive(deck, up, rules, pair, strategy, unsplit).items()
            if p}


@pytest.mark.slow
@pytest.mark.xdist_group("resplit-exhaustive")
@pytest.mark.parametrize("case, hands", [(case, hands) for case in range(len(RESPLIT_CASES)) for hands in (3, 4)
                                         if (case, hands) != (4, 4)])   # four hands hitting aces: the deck runs out
def test_resplit_formula_is_exact(case, hands):
    """Resplits: the twin's formula equals exhaustive table-order dealing (the mean of its distribution), as
    fractions, under every split strategy; and the engine (both arithmetics) equals the twin."""
    deck, up, pair, rules, unsplit, removed = resplit_setup(case, hands)
    values = {}
    for strategy in ("cdz", "cdp1", "cdp"):
        formula = ref.split_value(deck, up, rules, pair, strategy, unsplit)
        exhaustive = sum((p * net for (_, _, net, _), p in exhaustive_distribution(case, hands, strategy).items()),
                         Fraction(0))
        assert formula == exhaustive, strategy
        faces = [RANK_SYMBOLS[pair]] * 2
        exact = Game(rules, removed, exact=True).hand(faces, up, strategy)
        mass = 1 if not exact.conditioned else 1 - exact.p_dealer_blackjack
        assert exact.split * mass == formula, strategy
        assert Game(rules, removed).hand(faces, up, strategy).split * float(mass) == pytest.approx(
            float(formula), abs=1e-12)
        values[strategy] = formula
    if case in DIFFERING:
        assert len(set(values.values())) > 1


@pytest.mark.slow
@pytest.mark.parametrize("hands, strategy", [(3, "cdz"), (4, "cdp"), (4, "cdp1")])
def test_tens_split_by_rank_resplit_exactly(hands, strategy):
    """Tens split by rank: only a ten of the pair's own face resplits.  With the faces known the formula
    equals dealing with that face as a card of its own; with them unknown the engine averages."""
    deck, up = (1, 1, 0, 1, 1, 0, 1, 1, 1, 8), 4
    rules = Rules(max_split_hands=hands, split_tens="rank", double="any")
    unsplit = ref.Player(deck, up, rules)
    for face in (2, 3, 4):      # the pair's face: 2, 3 or 4 of the deck's eight tens
        formula = ref.split_value(deck, up, rules, TEN, strategy, unsplit, pair_face=face)
        assert formula == ref.split_value_exhaustive(deck, up, rules, TEN, strategy, unsplit, pair_face=face)
    removed = [f - d - (r == up) for r, (f, d) in enumerate(zip(full_shoe(1), deck))]
    game = Game(rules, removed, exact=True)      # (Game.hand refuses the position: some other play runs out)
    engine = game.split_value(game.solver(up), TEN, split_mode(strategy))
    assert engine == ref.split_value(deck, up, rules, TEN, strategy, unsplit)


#: more cards than a dealer with a 5 up can draw (hard 5 + 12 cards of at least 1 is past 17)
_MOST_DRAWS = 12


def _dealer_under_5(deck: tuple) -> dict:
    """P(dealer's final total) with a 5 up, drawing from ``deck``: {17..21, 22 (bust): probability}."""
    scale = math.perm(sum(deck), _MOST_DRAWS)
    return {final: Fraction(ways, scale) for final, ways in _dealer_ways(deck, 5, False, _MOST_DRAWS).items()}


@cache
def _dealer_ways(deck: tuple, hard: int, ace: bool, budget: int) -> dict:
    """{final: P(final) x perm(n, budget)}, an integer (n: cards in ``deck``): every order of the dealer's
    draws counted, each padded to ``budget`` cards by the orders of the cards it leaves; equal decks shared."""
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    soft = ace and hard + 10 <= 21
    if total > 17 or (total == 17 and not soft):      # H17: a soft 17 hits
        return {min(total, 22): math.perm(sum(deck), budget)}
    out: dict[int, int] = {}
    for r in range(N_RANKS):
        if deck[r]:
            rest = deck[:r] + (deck[r] - 1,) + deck[r + 1:]
            for final, ways in _dealer_ways(rest, hard + r + 1, ace or r == 0, budget - 1).items():
                out[final] = out.get(final, 0) + deck[r] * ways
    return out


@pytest.mark.slow
def test_ten_pair_vs_5_resplit_to_four_by_direct_enumeration():
    """T-T against a 5 from one full deck, resplit to four hands, every split hand standing on its two cards
    (what CDZ- plays under the seed rules): deal the second cards one by one in table order (a ten while
    fewer than four hands exist makes another hand), then the dealer from what is left."""
    start = list(full_shoe(1))
    start[4] -= 1           # the up card
    start[TEN] -= 2         # the pair

    def settle(deck: tuple, totals: tuple) -> Fraction:
        value = Fraction(0)
        for dealer, p in _dealer_under_5(deck).items():
            value += p * sum(1 if dealer == 22 or t > dealer else -1 if t < dealer else 0 for t in totals)
        return value

    @cache
    def second_cards(deck: tuple, hands: int, waiting: int, totals: tuple) -> Fraction:
        if waiting == 0:
            return settle(deck, totals)
        n = sum(deck)
        value = Fraction(0)
        for r in range(N_RANKS):
            if not deck[r]:
                continue
            rest = deck[:r] + (deck[r] - 1,) + deck[r + 1:]
            if r == TEN and hands < 4:
                value += Fraction(deck[r], n) * second_cards(rest, hands + 1, waiting + 1, totals)
            else:
                total = 21 if r == 0 else 10 + r + 1
                value += Fraction(deck[r], n) * second_cards(rest, hands, waiting - 1,
                                                             tuple(sorted(totals + (total,))))
        return value

    direct = second_cards(tuple(start), 2, 2, ())
    engine = Game(Rules(max_split_hands=4), exact=True).hand(["T", "T"], 4, "cdz").split
    assert engine == direct == Fraction(1486974272019113, 4549489278711300)


def test_one_split_is_the_resplit_formula_with_two_hands():
    """max_split_hands 2 through the resplit formula gives 2 V of the one-hand value, to 1e-15."""
    game = Game(Rules())
    for up in range(N_RANKS):
        solver = game.solver(up)
        for pair in range(N_RANKS):
            deck = list(game.shoe)
            deck[up] -= 1
            deck[pair] -= 2
            n = sum(deck)
            values = solver.split_hand_values(pair, 1, 0, pair == 0)
            two_v = 2 * sum(deck[c] * values[c] for c in range(N_RANKS) if deck[c] > 0) / n
            assert game.split_value(solver, pair, 1) == pytest.approx(two_v, abs=1e-15), (up, pair)


def test_more_hands_never_hurt_a_good_split():
    """Allowing resplits adds options: the 8-8 split vs 6 is worth at least as much with 4 hands."""
    values = [Game(Rules(max_split_hands=h)).hand(["8", "8"], 5).split for h in (2, 3, 4)]
    assert values[0] <= values[1] <= values[2]


@pytest.mark.parametrize("seed", [None, 1, 2])
def test_split_strategies_are_ordered_with_one_split(seed):
    """One split: CDP = CDP1 >= CDZ- on every pair (CDP1 plays optimally for the split hand's own deck)."""
    rules = Rules(double_after_split=True) if seed is None else random_rules(random.Random(seed),
                                                                             max_split_hands=2)
    game = Game(rules)
    for up in range(N_RANKS):
        for pair in range(N_RANKS):
            faces = [RANK_SYMBOLS[pair]] * 2
            cdz, cdp1, cdp = (game.hand(faces, up, s).split for s in ("cdz", "cdp1", "cdp"))
            assert cdz <= cdp1 + 1e-12 and cdp1 == pytest.approx(cdp, abs=1e-15), (up, pair)


@pytest.mark.slow
@pytest.mark.xdist_group("resplit-exhaustive")
@pytest.mark.parametrize("case, hands, strategy", [(0, 4, "cdp"), (1, 3, "cdp1"), (2, 4, "cdz"), (3, 4, "cdp"),
                                                    (4, 3, "cdz")])
def test_resplit_distribution_is_exhaustive_dealing(case, hands, strategy):
    """The split round's outcome distribution (every hand against the same dealer hand, the hands
    dependent through the deck) equals dealing every card in table order, cell by cell: as fractions in
    exact mode, to 1e-13 in floating point; its mean is the split value."""
    from ev.analysis.accounting import split_distribution
    _deck, up, pair, rules, _unsplit, removed = resplit_setup(case, hands)
    expected = exhaustive_distribution(case, hands, strategy)
    assert max(k[3] for k in expected) > 2                  # the deck lets a resplit happen
    exact = Game(rules, removed, exact=True)
    got = {k: p for k, p in split_distribution(exact, up, pair, strategy).items() if p}
    assert got == expected
    assert sum(p * k[2] for k, p in got.items()) == exact.hand([RANK_SYMBOLS[pair]] * 2, up, strategy).split * (
        1 - (exact.hand([RANK_SYMBOLS[pair]] * 2, up, strategy).p_dealer_blackjack
             if exact.hand([RANK_SYMBOLS[pair]] * 2, up, strategy).conditioned else 0))
    floats = split_distribution(Game(rules, removed), up, pair, strategy)
    assert set(k for k, p in floats.items() if abs(p) > 1e-15) == set(expected)
    for k, p in expected.items():
        assert floats[k] == pytest.approx(float(p), abs=1e-13), k


@cache
def _expected_hands(resplit: int, other: int, hands: int, waiting: int, most: int) -> Fraction:
    """E[number of hands] of a split, its second cards dealt one at a time in table order from ``resplit``
    cards that resplit and ``other`` cards that do not (``hands`` made, ``waiting`` for a second card)."""
    if waiting == 0:
        return Fraction(hands)
    if hands >= most:                   # no more resplits: the hands waiting take any card
        return Fraction(hands)
    total = resplit + other
    out = Fraction(0)
    if resplit:
        out += Fraction(resplit, total) * _expected_hands(resplit - 1, other, hands + 1, waiting + 1, most)
    if other:
        out += Fraction(other, total) * _expected_hands(resplit, other - 1, hands, waiting - 1, most)
    return out


@pytest.mark.parametrize("n, p, most", [(49, 2, 2), (49, 2, 3), (49, 2, 4), (49, 0, 4), (15, 6, 4), (305, 22, 4),
                                        (8, 4, 4), (12, 1, 3)])
def test_resplit_terms_weigh_the_hands_made(n, p, most):
    """The resplit formula's coefficients (made once per deck size) in lowest terms and never 0; with every
    hand worth the same v, whatever its cards, each g is v and the formula gives v x E[hands made]: the
    coefficients sum to E[hands], here dealt card by card without the formula."""
    terms = splits.resplit_terms(n, p, most)
    assert terms and all(den > 0 and num != 0 and math.gcd(num, den) == 1 for *_, num, den in terms)
    assert sum(Fraction(num, den) for *_, num, den in terms) == _expected_hands(p, n - p, 2, 2, most)
    v = Fraction(3, 7)
    pair = 7                            # a deck of n cards after both eights, p of them eights, the rest tens
    deck = [0] * N_RANKS
    deck[pair], deck[TEN] = p + 2, n - p
    assert splits.resplit_value(deck, pair, most, p, lambda a, k: [v] * N_RANKS, Fraction) \
        == v * _expected_hands(p, n - p, 2, 2, most)


@pytest.mark.slow
def test_context_values_are_the_sums_of_the_context_distribution():
    """A split hand's (mean result, mean stake) without the dict: the same floats as summing
    ``context_distribution`` in Python, and the same fractions in the exact arithmetic."""
    for exact in (False, True):
        rules = Rules(decks=1, max_split_hands=3, double_after_split=True, double="any")
        game = Game(rules, exact=exact)
        zero = Fraction(0) if exact else 0.0
        for up in (0, 5, 9):
            table = optimal_policy(game, "cdz")
            evaluator = game.arithmetic.evaluator(game.solver(up), blackjack_rank(up), table.play[up],
                                                  table.split_play[up] * N_RANKS)
            nxt = game.graph["next"]
            for pair in (0, 7):
                one_card = rules.one_card_after_split(pair)
                for extra in (1, 2):
                    for c in range(N_RANKS):
                        s = nxt[nxt[pair] * N_RANKS + c]
                        cells = evaluator.context_distribution(s, pair, extra, one_card)
                        mean = sum((x * m for (_, _, x), m in cells.items()), zero)
                        stake = sum(((1 + d) * m for (d, _, _), m in cells.items()), zero)
                        assert evaluator.context_values(s, pair, extra, one_card) == (mean, stake)
                        assert mean != 0 and stake >= sum(cells.values()) > 0
