"""Random (blind) play: every legal option equally likely, evaluated exactly, in both arithmetics.

Checked against the reference twin (``ev.reference.random_play``), which deals every card in table order
and follows every option with its probability, on random rule sets and small shoes (resplits included);
against identities that hold for any play (insurance, even money and the blackjack payout are decided
apart from play); and on the default game against the other strategies.
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from conftest import game_in, random_rules, random_small_shoe, removed_for, same

from ev.analysis.game import Game
from ev.analysis.random_play import RANDOM_NAME, _UpcardPlay, after_values, random_play_figures
from ev.analysis.strategies import policy_figures, strategy_table, worst_policy
from ev.core._policy import random_after
from ev.core.arithmetic import EXACT, FLOAT
from ev.core.cards import ACE, N_RANKS, TEN, full_shoe
from ev.core.rules import Rules
from ev.errors import EngineError
from ev.reference.random_play import random_play_round


def _twin_case(rules: Rules, shoe: tuple, even_money_stake: Fraction = Fraction(1)) -> None:
    """The engine's EV and E[W] are the twin's: exactly in fractions, to 1e-12 in floats."""
    ev, wager = random_play_round(rules, shoe, even_money_stake)
    for arith in (EXACT, FLOAT):
        mine = random_play_figures(game_in(arith, rules, removed_for(shoe, rules.decks)), even_money_stake)
        assert same(arith, mine.ev, ev), (arith, rules, shoe)
        assert same(arith, mine.expected_wager, wager), (arith, rules, shoe)
        assert same(arith, mine.rtp_total_wagered, (wager + ev) / wager)


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) if s >= 3 else s for s in range(8)])
@pytest.mark.quick_cases(1)
def test_one_split_agrees_with_the_twin(seed):
    """Random rules (no split or one split; peek or not; DAS, surrender, insurance, even money, tens by rank
    or value) on random 14-card shoes."""
    rng = random.Random(f"random-play-{seed}")
    rules = random_rules(rng, decks=1, max_split_hands=rng.choice([1, 2, 2]))
    if seed == 0:
        rules = rules.replace(insurance=True, even_money=True, late_surrender=True, peek="ten")
    shoe = random_small_shoe(rng, 1, size=14, tens=7)
    _twin_case(rules, shoe, Fraction(3, 2) if seed == 1 else Fraction(1))


# shoes of high cards with three or four cards of a rank to resplit (aces in the last), each one that the
# seed's rules cannot run out of, whatever is played
RESPLIT_SHOES = [(0, 0, 0, 0, 0, 0, 1, 4, 1, 8), (1, 0, 0, 0, 0, 0, 0, 1, 4, 9), (0, 0, 0, 0, 0, 0, 0, 4, 2, 8),
                 (1, 0, 0, 0, 0, 0, 0, 4, 1, 9), (3, 0, 0, 0, 0, 0, 0, 1, 2, 9)]


@pytest.mark.parametrize("seed, shoe", [(0, 3), (1, 4), (2, 0), (3, 4), (4, 2), (5, 1), (6, 3), (7, 4)])
@pytest.mark.quick_cases(1)
def test_resplits_agree_with_the_twin(seed, shoe):
    """Resplits to three and four hands (aces resplit or not, hit or one card, DAS or not): each pair card
    that arrives resplits with probability 1/k, k the options of the pair; exact."""
    rng = random.Random(f"random-play-resplit-{seed}")
    rules = random_rules(rng, decks=1, max_split_hands=rng.choice([3, 4]), split_tens="value")
    _twin_case(rules, RESPLIT_SHOES[shoe])


@pytest.mark.parametrize("seed", range(4))
def test_after_values_in_c_are_the_reference_to_the_bit(seed):
    """The C loop of random play's hit-or-stand values (``random_after``) does the reference's operations in
    its order: the same doubles, NaN where the reference has NaN, on random rules, removed cards and deck
    contexts (a settled dealer blackjack or not)."""
    rng = random.Random(f"random-after-{seed}")
    rules = random_rules(rng)
    shoe = list(full_shoe(rules.decks))
    removed = [0] * N_RANKS
    for _ in range(rng.randrange(6)):
        r = rng.randrange(N_RANKS)
        if shoe[r] - removed[r] > 1:
            removed[r] += 1
    game = Game(rules, removed)
    compared = 0
    for up in game.upcards():
        play = _UpcardPlay(game, up)
        for pair, extra in [(-1, 0)] + [(p, rng.randrange(1, 4)) for p in rng.sample(range(N_RANKS), 3)]:
            stand, base = play.context_inputs(pair, extra)
            mine = random_after(game.graph["arrays"], stand, base, play.settled)
            ref = after_values(stand, base, play.settled, game.graph, FLOAT)
            assert len(mine) == len(ref) == len(stand)
            assert all((a == b) or (a != a and b != b) for a, b in zip(mine, ref)), (rules, up, pair, extra)
            compared += sum(a == a for a in ref)
    assert compared > 0


def test_a_shoe_that_can_run_out_is_refused():
    """Random play takes every legal continuation: where one of them needs a card the shoe lacks, the twin
    runs out and the engine refuses (EngineError), rather than give a value."""
    rules = Rules(max_split_hands=3)
    shoe = (1, 1, 1, 1, 1, 0, 0, 1, 1, 6)
    with pytest.raises(ValueError, match="ran out"):
        random_play_round(rules, shoe)
    with pytest.raises(EngineError, match="run out"):
        random_play_figures(Game(rules, removed_for(shoe, 1)))


# ----- identities ------------------------------------------------------------------------------------------
def _natural_and_ace_terms(rules: Rules, shoe: tuple) -> dict:
    """By plain counting: P(player natural, no dealer blackjack) (even money weighted 1/2 under an ace), and
    under an ace up: sum of P(deal) x P(dealer blackjack) for non-naturals and naturals, and their P."""
    n = sum(shoe)
    out = {"natural_wins": Fraction(0), "ace_plain": Fraction(0), "ace_plain_bj": Fraction(0),
           "ace_natural": Fraction(0), "ace_natural_bj": Fraction(0)}
    for up in range(10):
        for c1 in range(10):
            for c2 in range(10):
                d = list(shoe)
                p = Fraction(1)
                for c in (up, c1, c2):
                    if d[c] == 0:
                        p = Fraction(0)
                        break
                    p *= Fraction(d[c], sum(d))
                    d[c] -= 1
                if not p:
                    continue
                bj_card = TEN if up == ACE else ACE if up == TEN else None
                p_bj = Fraction(d[bj_card], n - 3) if bj_card is not None else Fraction(0)
                natural = {c1, c2} == {ACE, TEN}
                if natural:
                    offered = up == ACE and rules.even_money
                    out["natural_wins"] += p * (1 - p_bj) * (Fraction(1, 2) if offered else 1)
                if up == ACE:
                    key = "ace_natural" if natural else "ace_plain"
                    out[key] += p
                    out[key + "_bj"] += p * p_bj
    return out


@pytest.mark.parametrize("arith", [FLOAT, EXACT], ids=["float", "exact"])
@pytest.mark.quick_cases(1)
def test_insurance_even_money_and_payout_identities(arith):
    """Insurance, even money and the blackjack payout are decided apart from play, so switching them changes
    EV and E[W] by amounts counted directly: insurance (taken half the time) adds 1/2 x (3 P(bj) - 1)/2 and a
    stake of 1/4 per non-natural under an ace; even money (half the time) 1/2 x (1 - payout P(no bj)) and
    1/2 x (stake - 1); the payout, its change on the naturals paid."""
    rng = random.Random("random-play-identities")
    shoe = random_small_shoe(rng, 1, size=20, tens=8) if arith.exact else tuple(full_shoe(1))
    removed = removed_for(shoe, 1)
    base = Rules(insurance=False, even_money=False, late_surrender=True, double="any", max_split_hands=2)

    def figures(rules: Rules, stake: Fraction = Fraction(1)):
        return random_play_figures(game_in(arith, rules, removed), stake)

    plain = figures(base)
    insured = figures(base.replace(insurance=True))
    terms = _natural_and_ace_terms(base, shoe)
    half = Fraction(1, 2)
    assert same(arith, insured.ev - plain.ev, half * (3 * terms["ace_plain_bj"] - terms["ace_plain"]) / 2)
    assert same(arith, insured.expected_wager - plain.expected_wager, terms["ace_plain"] / 4)

    even = base.replace(even_money=True)
    offered, offered_15 = figures(even), figures(even, Fraction(3, 2))
    gain = half * (terms["ace_natural"] - base.payout * (terms["ace_natural"] - terms["ace_natural_bj"]))
    assert same(arith, offered.ev - plain.ev, gain)
    assert same(arith, offered.expected_wager, plain.expected_wager)           # taken without placing chips
    assert same(arith, offered_15.ev, offered.ev)
    assert same(arith, offered_15.expected_wager - offered.expected_wager, terms["ace_natural"] / 4)

    even_terms = _natural_and_ace_terms(even, shoe)
    one_to_one = figures(even.replace(blackjack_payout="1:1"))
    assert same(arith, offered.ev - one_to_one.ev, half * even_terms["natural_wins"])
    assert same(arith, offered.expected_wager, one_to_one.expected_wager)


# ----- the default game ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_default_game_float_and_exact_agree_and_lie_between_the_worst_and_the_best():
    game = Game(Rules())
    rand = random_play_figures(game)
    exact = random_play_figures(Game(Rules(), exact=True))
    assert isinstance(exact.ev, Fraction) and isinstance(exact.expected_wager, Fraction)
    assert rand.ev == pytest.approx(float(exact.ev), abs=1e-12)
    assert rand.expected_wager == pytest.approx(float(exact.expected_wager), abs=1e-12)
    worst = policy_figures(game, worst_policy(game))
    assert worst.ev < rand.ev < game.round("cdz").ev
    # a blind player doubles, splits and insures far more often than an optimal one (E[W] about 1.088)
    assert 1.05 < rand.expected_wager < 1.2
    assert rand.rtp_initial == pytest.approx(1 + rand.ev, abs=1e-15)


@pytest.mark.slow
def test_strategy_table_has_the_random_row_before_the_minimum():
    rows = strategy_table(Game(Rules()), split_strategies=("cdz",))
    assert [r.key for r in rows] == ["optimal-cdz", "mimic", "never-bust", "random", "minimum"]
    row = rows[3]
    assert row.name == RANDOM_NAME
    assert rows[4].figures.ev < row.figures.ev < min(r.figures.ev for r in rows[:3])
