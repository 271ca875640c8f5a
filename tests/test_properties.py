"""Properties over random valid rule sets (every field, 1 to 8 decks) and random compositions (hypothesis).

The "ci" profile (tests/conftest.py) runs every property on at least 200 examples, derandomised, with no
deadline.  Full decks are used in floats only; the exact mode and the reference twin are compared on
small shoes, where they are quick.

* round: Σ P(up) × ev_by_upcard = ev, the up cards' and each up card's deals' probabilities sum to 1, and
  every deal's best action is the maximum of the actions offered;
* accounting: the outcome distribution sums to 1, its mean equals the EV (1e-12 by the exact method; with
  resplits scored independently, within RESPLIT_GAP), and RTP per total wagered = (E[W] + EV) / E[W];
* hand: ``best`` is the maximum of the offered actions; the float engine equals the exact mode and the
  reference twin (``ev.reference``) to 1e-12;
* parsers: the card parser and the rules parser (``--set`` values, TOML and JSON files) raise nothing
  but bjev's own errors on arbitrary text;
* rules round-trip through TOML and JSON.
"""
from __future__ import annotations

import contextlib
import json
import random
from fractions import Fraction

import pytest
from conftest import random_small_shoe, removed_for
from hypothesis import assume, given
from hypothesis import strategies as st

from ev import reference as ref
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.core.cards import (
    N_RANKS,
    RANK_SYMBOLS,
    TEN,
    card_rank,
    composition_of,
    full_shoe,
    hand_total,
    initial_deals,
    parse_card,
    parse_faces,
    subtract,
)
from ev.core.depletion import may_run_out, surely_lasts
from ev.core.rules import CHOICES, FIELD_NAMES, Rules, from_mapping, load_rules_file, make_rules
from ev.errors import BJEVError, EngineError

TOL = 1e-12
#: with resplits scored independently given the dealer's outcome (large work only), on the small shoes used
#: here: how far the distribution's mean may be from the EV
RESPLIT_GAP = 0.05

RULE_FIELDS = {
    "decks": st.integers(1, 8),
    "hit_soft_17": st.booleans(),
    "blackjack_payout": st.sampled_from(CHOICES["blackjack_payout"]),
    "double": st.sampled_from(CHOICES["double"]),
    "double_soft": st.booleans(),
    "double_after_split": st.booleans(),
    "max_split_hands": st.integers(1, 4),
    "split_aces_one_card": st.booleans(),
    "resplit_aces": st.booleans(),
    "split_tens": st.sampled_from(CHOICES["split_tens"]),
    "peek": st.sampled_from(CHOICES["peek"]),
    "unchecked_blackjack_takes": st.sampled_from(CHOICES["unchecked_blackjack_takes"]),
    "insurance": st.booleans(),
    "even_money": st.booleans(),
    "late_surrender": st.booleans(),
}
RULES = st.builds(Rules, **RULE_FIELDS)
STRATEGIES = st.sampled_from(["cdz", "cdp1", "cdp"])


def test_the_rules_strategy_covers_every_field():
    assert set(RULE_FIELDS) == set(FIELD_NAMES)


@st.composite
def small_shoe(draw, decks: int, low: int = 18, high: int = 28) -> tuple:
    """A shoe of ``low``..``high`` cards, a third to a half of them ten-valued (so that hands seldom run out)."""
    size = draw(st.integers(low, high))
    tens = draw(st.integers(size // 3, size // 2))
    return random_small_shoe(draw(st.randoms(use_true_random=False)), decks, size, tens)


def round_lasts(rules: Rules, shoe: tuple) -> bool:
    """No initial deal of ``shoe`` can run out of cards in any continuation (the cheap bound suffices)."""
    for up in range(N_RANKS):
        if shoe[up]:
            base = subtract(shoe, composition_of([up]))
            for c1, c2, _ in initial_deals(base):
                hand = composition_of([c1, c2])
                if not surely_lasts(subtract(base, hand), hand, up, rules, c1 == c2 and rules.may_split):
                    return False
    return True


@st.composite
def game_setups(draw, full_decks: bool, max_split_hands: tuple[int, int] = (1, 4)) -> tuple[Rules, tuple]:
    """A rule set and the cards removed from its shoe: none (a full shoe), or all but a small shoe whose
    rounds cannot run out of cards (such a shoe has no well-defined round)."""
    rules = draw(st.builds(Rules, **{**RULE_FIELDS, "max_split_hands": st.integers(*max_split_hands)}))
    if full_decks and draw(st.integers(0, 9)) == 0:
        return rules, (0,) * N_RANKS
    shoe = draw(small_shoe(rules.decks))
    assume(round_lasts(rules, shoe))
    return rules, tuple(removed_for(shoe, rules.decks))


# ----- a round -----------------------------------------------------------------------------------------------
@pytest.mark.slow
@given(setup=game_setups(full_decks=True), strategy=STRATEGIES)
def test_round_sums_and_best_actions(setup, strategy):
    rules, removed = setup
    result = Game(rules, removed).round(strategy)
    assert sum(result.p_upcard.values()) == pytest.approx(1, abs=TOL)
    assert sum(result.p_upcard[u] * ev for u, ev in result.ev_by_upcard.items()) == pytest.approx(result.ev, abs=TOL)
    for up in {d.up for d in result.deals}:
        assert sum(d.probability for d in result.deals if d.up == up) == pytest.approx(1, abs=TOL)
    for deal in result.deals:
        if deal.values:
            assert deal.values[deal.best] == max(deal.values.values())


@pytest.mark.slow
@given(setup=game_setups(full_decks=False, max_split_hands=(1, 2)), strategy=STRATEGIES)
def test_distribution_mean_and_rtp(setup, strategy):
    """One split at most: the distribution is exact, so its mean is the EV (to rounding)."""
    rules, removed = setup
    game = Game(rules, removed)
    stats = round_stats(game, strategy)
    assert sum(stats.distribution.values()) == pytest.approx(1, abs=TOL)
    mean = sum(x * p for x, p in stats.distribution.items())
    assert mean == pytest.approx(stats.ev, abs=TOL)
    assert mean == pytest.approx(game.round(strategy).ev, abs=TOL)
    w = stats.expected_wager
    assert w >= 1 - TOL and stats.rtp_total_wagered == pytest.approx((w + stats.ev) / w, abs=TOL)
    assert stats.rtp_initial == pytest.approx(1 + stats.ev, abs=TOL)


@pytest.mark.slow
@given(setup=game_setups(full_decks=False, max_split_hands=(3, 4)), strategy=STRATEGIES)
def test_resplit_distribution_mean_and_rtp(setup, strategy):
    """Resplits: the distribution sums to 1; by the exact method its mean is the EV, and where the work is
    large (hands of three- and four-hand splits independent given the dealer's outcome) the EV stays the
    exact round EV and the mean is within RESPLIT_GAP of it."""
    rules, removed = setup
    game = Game(rules, removed)
    stats = round_stats(game, strategy)
    assert sum(stats.distribution.values()) == pytest.approx(1, abs=TOL)
    mean = sum(x * p for x, p in stats.distribution.items())
    ev = game.round(strategy).ev
    assert stats.ev == pytest.approx(ev, abs=TOL)
    if stats.distribution_method == "exact":
        assert mean == pytest.approx(ev, abs=TOL)
    else:
        assert mean == pytest.approx(ev, abs=RESPLIT_GAP)
    w = stats.expected_wager
    assert w >= 1 - TOL and stats.rtp_total_wagered == pytest.approx((w + stats.ev) / w, abs=TOL)


# ----- one hand: best, floats against exact fractions and the twin -------------------------------------
@st.composite
def hand_setups(draw) -> tuple:
    """Rules, a small shoe, an up card and a two- or three-card hand from it that cannot run out."""
    rules = draw(RULES)
    shoe = draw(small_shoe(rules.decks, 16, 24))
    up = draw(st.sampled_from([r for r in range(N_RANKS) if shoe[r]]))
    base = subtract(shoe, composition_of([up]))
    pool = [r for r in range(N_RANKS) for _ in range(base[r])]
    rng = draw(st.randoms(use_true_random=False))
    if draw(st.booleans()):
        pair = rng.choice([r for r in range(N_RANKS) if base[r] >= 2])
        cards = [pair, pair]
    else:
        cards = rng.sample(pool, draw(st.sampled_from([2, 2, 3])))
    hand = composition_of(cards)
    assume(hand_total(hand)[0] <= 21)
    # tens split by rank with resplits assume 4 x decks cards of the pair's rank, less those seen; a shoe with
    # fewer tens left than that has no such model (engine and twin then differ): outside these properties
    assume(not (cards == [TEN, TEN] and rules.split_tens == "rank" and rules.max_split_hands > 2
                and shoe[TEN] < 4 * rules.decks))
    faces = [RANK_SYMBOLS[c] for c in cards]
    may_split = len(cards) == 2 and rules.splittable(faces) and rules.may_split
    assume(not may_run_out(subtract(base, hand), hand, up, rules, may_split))
    return rules, shoe, up, cards, draw(STRATEGIES)


ACTIONS = ("stand", "hit", "double", "split", "surrender")


@pytest.mark.slow
@given(setup=hand_setups())
def test_hand_float_exact_twin_and_best(setup):
    rules, shoe, up, cards, strategy = setup
    removed = removed_for(shoe, rules.decks)
    faces = [RANK_SYMBOLS[c] for c in cards]
    try:
        flt = Game(rules, removed).hand(faces, RANK_SYMBOLS[up], strategy)
    except EngineError:              # e.g. the dealer must have blackjack with these cards
        assume(False)
        return
    exact = Game(rules, removed, exact=True).hand(faces, up, strategy)
    offered = {a: getattr(flt, a) for a in ACTIONS if getattr(flt, a) is not None}
    natural = len(cards) == 2 and hand_total(composition_of(cards))[0] == 21
    if not natural:                  # the best is the maximum; where floats see a tie, the exact values are tied
        assert offered[flt.best] == max(offered.values())
        assert float(getattr(exact, flt.best)) == pytest.approx(float(getattr(exact, exact.best)), abs=TOL)
    for field in ACTIONS + ("insurance", "even_money", "blackjack_declined", "p_dealer_blackjack"):
        a, b = getattr(exact, field), getattr(flt, field)
        assert (a is None) == (b is None), field
        if a is not None:
            assert isinstance(a, Fraction) and float(a) == pytest.approx(b, abs=TOL), field
    if natural:
        return
    base = subtract(shoe, composition_of([up]))
    can_split = rules.splittable(faces)
    try:
        twin = ref.hand_values(composition_of(cards), up, rules, base, strategy, can_split=can_split)
    except ValueError as exc:
        # the twin's resplit formula values hands on decks its inclusion-exclusion removes pair cards from,
        # which on a tiny shoe may run out where no real deal does: then the split is checked against
        # dealing every card in table order (which raises if a real deal can run out)
        if "ran out" not in str(exc) or not can_split or rules.split_hands(cards[0]) < 3:
            raise
        twin = ref.hand_values(composition_of(cards), up, rules, base, strategy, can_split=False)
        twin["split"] = ref.split_value_exhaustive(tuple(base), up, rules, cards[0], strategy,
                                                   ref.Player(tuple(base), up, rules))
    for action in ACTIONS:
        assert (action in twin) == (action in offered), action
        if action in twin:
            assert getattr(exact, action) == twin[action] / twin["mass"], action
            assert offered[action] == pytest.approx(float(twin[action] / twin["mass"]), abs=TOL), action


# ----- parsers never raise anything but bjev's own errors -------------------------------------------------
TEXT = st.one_of(st.text(), st.text(alphabet="AaKkQqJjTt0123456789,; -_=.:e٤\u00a0\x00"), st.binary().map(
    lambda b: b.decode("utf-8", "surrogateescape")))


@given(text=TEXT)
def test_card_parser_raises_only_its_own_errors(text):
    for parse in (parse_faces, parse_card, card_rank):
        with contextlib.suppress(BJEVError):
            parse(text)


@given(key=st.one_of(st.sampled_from(FIELD_NAMES), st.text()), value=TEXT)
@pytest.mark.slow
def test_set_parser_raises_only_its_own_errors(key, value):
    with contextlib.suppress(BJEVError):
        make_rules(None, [f"{key}={value}"])


@given(text=st.one_of(TEXT, st.binary().map(lambda b: b.decode("latin-1"))), suffix=st.sampled_from([".toml", ".json"]))
@pytest.mark.slow
def test_rules_file_parser_raises_only_its_own_errors(text, suffix, tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / f"r{suffix}"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with contextlib.suppress(BJEVError):
        from_mapping(load_rules_file(path))


@given(values=st.dictionaries(st.text(max_size=20), st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20), st.lists(st.integers(), max_size=3)),
    max_size=4))
@pytest.mark.slow
def test_rules_from_any_json_document_raise_only_their_own_errors(values, tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "r.json"
    path.write_text(json.dumps(values))
    with contextlib.suppress(BJEVError):
        make_rules(path)


# ----- rules round-trip through TOML and JSON --------------------------------------------------------------
@given(rules=RULES)
@pytest.mark.slow
def test_rules_round_trip_through_toml_and_json(rules, tmp_path_factory):
    directory = tmp_path_factory.mktemp("rules")
    (directory / "r.toml").write_text(rules.as_toml())
    (directory / "r.json").write_text(json.dumps(rules.as_dict()))
    (directory / "wrapped.json").write_text(json.dumps({"rules": rules.as_dict()}))
    for name in ("r.toml", "r.json", "wrapped.json"):
        assert make_rules(directory / name) == rules
    assert make_rules(None, [f"{k}={json.dumps(v).strip(chr(34))}" for k, v in rules.as_dict().items()]) == rules


def test_the_profile_runs_200_examples():
    from hypothesis import settings
    assert settings().max_examples >= 200 and settings().deadline is None


def test_small_shoes_are_small_and_valid():
    rng = random.Random(1)
    for decks in range(1, 9):
        shoe = random_small_shoe(rng, decks, 20, 6)
        assert sum(shoe) == 20 and all(0 <= s <= f for s, f in zip(shoe, full_shoe(decks)))
