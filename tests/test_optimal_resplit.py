"""Truly optimal split play with resplits in the engine (``OptimalSplitter.resplit_value``, floats).

The engine's search over the round's states is checked against the pure-Python reference
(``ev.reference.optimal_resplit``, exact fractions, itself checked against a brute-force search whose dealer draws
after every hand) on the reference's small shoes, best and worst play; with two hands at most it is the one-split
engine, values and stakes; on a full deck no fixed split strategy beats it (nor falls below the worst play); and the
commands that give its EV work while the commands that need more refuse in one line.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from conftest import random_rules, random_small_shoe
from test_optimal_resplit_reference import CASES, setup

from ev.analysis import optimal_split
from ev.analysis.accounting import round_stats
from ev.analysis.basic_strategy import basic_chart
from ev.analysis.game import Game
from ev.analysis.optimal_split import BEST, WORST
from ev.analysis.splits import type_sets
from ev.cli import main
from ev.core._optimal_split import follow_bound, state_bound
from ev.core.actions import split_mode
from ev.core.cards import N_RANKS, full_shoe
from ev.core.rules import Rules
from ev.errors import EngineError
from ev.present.chart_render import render
from ev.present.command_text import rtp_of
from ev.reference.optimal_resplit import ExchangeableResplit


def small_game(shoe: tuple, rules: Rules) -> Game:
    """A float game dealt from ``shoe`` (rank counts, the up card included): one deck less the rest."""
    return Game(rules, [f - s for f, s in zip(full_shoe(1), shoe)])


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.quick_cases(1)
def test_engine_equals_the_reference(name):
    """The engine's float value of every case is the reference's exact fraction to 1e-13, best and worst; the
    stake holds every hand's bet at least (two hands, each staked where no settled blackjack takes it)."""
    shoe, up, pair, _ = CASES[name]
    base, _, rules, _ = setup(name)
    game = small_game(shoe, rules)
    for sense in (BEST, WORST):
        exact = ExchangeableResplit(base, up, rules, pair, worst=sense == WORST).value()
        value = optimal_split.split_value(game, up, pair, sense)
        assert abs(value - float(exact)) < 1e-13, (sense, value, float(exact))
        stake = optimal_split.split_stake(game, up, pair, sense)
        deck = [c - 2 * (r == pair) for r, c in enumerate(base)]
        bj = {0: 9, 9: 0}.get(up) if rules.blackjack_settled_as_peek(up) else None
        mass = 1 - (deck[bj] / sum(deck) if bj is not None else 0)
        assert 2 * mass - 1e-12 <= stake <= 2 * rules.split_hands(pair) * mass + 1e-12


def two_hand_searches(rng, one_split, resplit):
    """On random small shoes and rules with two hands at most, every (up card, pair, one_card, sense) as (case,
    splitter, the one-split engine's answer, the resplit search's answer): ``one_split(splitter, pair,
    one_card, sense)`` and ``resplit(...)`` ask each.  A deck that runs out must be refused by both (and is not
    yielded)."""
    rules = random_rules(rng, decks=1, max_split_hands=2)
    game = small_game(random_small_shoe(rng, 1, size=20, tens=6), rules)
    for up in game.upcards():
        engine = optimal_split._upcard(game, up)
        for pair in engine.pairs():
            one_card = engine._check(pair)
            for sense in (BEST, WORST):
                try:
                    answer = one_split(engine.splitter, pair, one_card, sense)
                except ValueError:          # a deck that runs out: both refuse it
                    with pytest.raises(ValueError):
                        resplit(engine.splitter, pair, one_card, sense)
                    continue
                yield ((up, pair, one_card, sense), engine.splitter, answer,
                       resplit(engine.splitter, pair, one_card, sense))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.quick_cases(1)
def test_two_hands_are_the_one_split_engine(seed, rng):
    """With two hands at most the search over states is the one-split search: the same values and stakes, best
    and worst, on random small shoes and rules."""
    checked = 0
    for (_, pair, one_card, sense), splitter, value, (searched, stake, work) in two_hand_searches(
            rng, lambda splitter, *asked: splitter.split_value(*asked),
            lambda splitter, pair, one_card, sense: splitter.resplit_value(pair, one_card, 2, sense)):
        assert searched == pytest.approx(value, abs=1e-15)
        assert stake == pytest.approx(splitter.split_stake(pair, one_card, sense), abs=1e-15)
        assert work["states"] > 0
        checked += 1
    assert checked > 10


@pytest.mark.slow
def test_no_fixed_strategy_beats_it_on_a_full_deck():
    """One deck, three hands at most, against a 6: per pair (8-8 to T-T: the low pairs take seconds each), worst
    <= CDZ-, CDP1, CDP <= truly optimal (each a legal play that resplits whenever it may), and a third hand never
    lowers the best play nor raises the worst (resplitting is a choice); the split's EV is joint, every hand
    summed."""
    game, one_split = Game(Rules(max_split_hands=3)), Game(Rules())
    solver = game.solver(5)
    for pair in range(7, N_RANKS):
        best = optimal_split.split_value(game, 5, pair, BEST)
        worst = optimal_split.split_value(game, 5, pair, WORST)
        fixed = [game.split_value(solver, pair, split_mode(s)) for s in ("cdz", "cdp1", "cdp")]
        assert all(worst - 1e-12 <= v <= best + 1e-12 for v in fixed), (pair, worst, fixed, best)
        if game.rules.split_hands(pair) > 2:
            assert best >= optimal_split.split_value(one_split, 5, pair, BEST) - 1e-12
            assert worst <= optimal_split.split_value(one_split, 5, pair, WORST) + 1e-12


@pytest.mark.slow
def test_hand_gives_the_split_under_truly_optimal_resplits(capsys):
    """``bjev hand 8,8 --up T`` with three hands: the truly optimal split is worth more than CDP's (conditioned
    on no dealer blackjack, as the command states)."""
    argv = ["hand", "8,8", "--up", "T", "--set", "max_split_hands=3", "--json", "--split-strategy"]
    assert main([*argv, "optimal"]) == 0
    optimal = json.loads(capsys.readouterr().out)
    assert main([*argv, "cdp"]) == 0
    cdp = json.loads(capsys.readouterr().out)
    assert optimal["split_strategy"] == "optimal" and optimal["best"] == "split"
    assert cdp["split"] < optimal["split"] < cdp["split"] + 0.01
    assert optimal["stand"] == cdp["stand"] and optimal["conditioned_on_no_dealer_blackjack"]


def test_rtp_figures_under_truly_optimal_resplits():
    """``bjev rtp --split-strategy optimal`` with resplits (here on a small shoe): EV, E[W], both RTPs and the
    outcome distribution (its mean the EV, SD and skewness given), the split strategies beside each other (none
    above truly optimal), and that the figures are floats said."""
    shoe, _, _, changes = CASES["88-T DAS, H17, 4 hands, peek T"]
    game = small_game(shoe, Rules(**changes))
    text, data = rtp_of(game, "optimal")
    table = data["split_strategies"]
    assert data["ev"] == game.round("optimal").ev == pytest.approx(table["optimal"]["ev"], abs=1e-15)
    assert all(row["ev"] <= data["ev"] + 1e-15 for row in table.values())
    assert data["rtp_total_wagered"] == pytest.approx((data["expected_total_wager"] + data["ev"])
                                                      / data["expected_total_wager"], abs=1e-15)
    mean = sum(float(net) * p for net, p in round_stats(game, "optimal").distribution.items())
    assert mean == pytest.approx(data["ev"], abs=1e-13) and data["sd"] > 0
    assert "in floats" in data["note"] and "RTP per total wagered" in text and "skewness" in text


@pytest.mark.parametrize("argv", [
    ["sweep", "--split-strategy", "optimal", "--grid", "max_split_hands=2,3", "--out", "{tmp}/sweep"],
])
def test_what_needs_more_is_refused_in_one_line(argv, capsys, tmp_path):
    """Sweeps under truly optimal play with resplits are refused before any work, in one line, writing nothing."""
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "resplits" in err
    assert list(tmp_path.iterdir()) == []


def test_what_the_search_does_not_play_is_refused():
    """The Python API: the value of a resplit and its float distribution are computed, and its exact value where
    its play is certified, refused in one line where a near tie comes before the last hand (8-8 against an ace
    in S17); ten-valued pairs split by rank with resplits are refused (the faces would matter); aces that may not
    be resplit make two hands and keep the one-split search."""
    shoe, up, pair, changes = CASES["55-6 DAS, 3 hands"]
    game = small_game(shoe, Rules(**changes))
    assert optimal_split.split_value(game, up, pair) > optimal_split.split_value(game, up, pair, WORST)
    cells = optimal_split.split_distribution(game, up, pair)
    assert {hands for _, _, _, hands in cells} == {2, 3}
    with pytest.raises(ValueError, match="type_sets"):       # the type multisets of too few hands
        optimal_split._upcard(game, up).splitter.resplit_distribution(pair, False, 3, type_sets(2))
    exact = Game(Rules(**changes), [f - s for f, s in zip(full_shoe(1), shoe)], exact=True)
    assert optimal_split.split_value(exact, up, pair, WORST) == pytest.approx(
        optimal_split.split_value(game, up, pair, WORST), abs=1e-13)
    shoe, up, pair, changes = CASES["88-A S17, 3 hands, unchecked blackjack takes the original bet"]
    exact = Game(Rules(**changes), [f - s for f, s in zip(full_shoe(1), shoe)], exact=True)
    with pytest.raises(EngineError, match=r"^exact truly optimal play with resplits of 8-8 vs A is not certified: "
                                          r"\d+ decisions before the last hand [^\n]*$"):
        optimal_split.split_value(exact, up, pair)
    with pytest.raises(EngineError, match="by value only"):
        optimal_split.split_value(Game(Rules(max_split_hands=3, split_tens="rank")), 5, 9)
    aces = Game(Rules(max_split_hands=3)).hand(["A", "A"], 5, "optimal").split
    assert aces == pytest.approx(Game(Rules()).hand(["A", "A"], 5, "optimal").split, abs=1e-15)


@pytest.mark.parametrize("name", list(CASES))
def test_the_distribution_follows_the_searched_play(name):
    """The outcome distribution of the searched play (every hand against the same dealer hand) on the reference's
    shoes, best and worst: its mean is the search's EV and its mean stake (hands + doubles) the search's stake,
    to 1e-13; its masses sum to P(no settled dealer blackjack); every cell has 2 to ``most`` hands, at most one
    double each, a net within the stakes, and no mass below 0 but float noise."""
    shoe, up, pair, _ = CASES[name]
    base, _, rules, _ = setup(name)
    game = small_game(shoe, rules)
    most = rules.split_hands(pair)
    deck = [c - 2 * (r == pair) for r, c in enumerate(base)]
    bj = {0: 9, 9: 0}.get(up) if rules.blackjack_settled_as_peek(up) else None
    no_settled = 1 - (deck[bj] / sum(deck) if bj is not None else 0)
    for sense in (BEST, WORST):
        cells = optimal_split.split_distribution(game, up, pair, sense)
        assert sum(cells.values()) == pytest.approx(no_settled, abs=1e-14)
        assert all(2 <= hands <= most and doubles <= hands and abs(net) <= hands + doubles and p > -1e-18
                   for (doubles, _, net, hands), p in cells.items())
        mean = sum(net * p for (_, _, net, _), p in cells.items())
        stake = sum((hands + doubles) * p for (doubles, _, _, hands), p in cells.items())
        assert mean == pytest.approx(optimal_split.split_value(game, up, pair, sense), abs=1e-13)
        assert stake == pytest.approx(optimal_split.split_stake(game, up, pair, sense), abs=1e-13)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.quick_cases(1)
def test_two_hands_followed_forward_are_the_one_split_distribution(seed, rng):
    """With two hands at most, following the searched play forward card by card gives the one-split
    distribution, which merges both hands' finals by the union of their cards (another method): cell by cell
    to 1e-13 (the sums' orders differ), best and worst, on random small shoes and rules."""
    checked = 0
    for case, _, merged, followed in two_hand_searches(
            rng, lambda splitter, *asked: splitter.split_distribution(*asked),
            lambda splitter, pair, one_card, sense: splitter.resplit_distribution(pair, one_card, 2, type_sets(2),
                                                                                  sense)):
        assert {hands for *_, hands in followed} == {2}
        keys = set(merged) | {cell[:3] for cell in followed}
        assert all(abs(merged.get(k, 0.0) - followed.get((*k, 2), 0.0)) < 1e-13 for k in keys), case
        checked += 1
    assert checked > 10


@pytest.mark.slow
def test_a_search_too_large_is_refused_in_one_message():
    """The state table has a bound (1.5 GiB): a search that would outgrow it stops with one message saying so,
    and the next search runs (here the bound is made tiny)."""
    rules = Rules(max_split_hands=3, hit_soft_17=False)     # rules no other test searches (values are kept)
    before = state_bound(1 << 12)
    try:
        with pytest.raises(EngineError, match="resplits of 9-9 against 4 needs more than 4,096 state slots"):
            optimal_split.split_value(Game(rules), 3, 8)
    finally:
        state_bound(before)
    assert optimal_split.split_value(Game(rules), 3, 8) > 0


def test_a_distribution_too_large_to_follow_is_refused_in_one_message():
    """The play followed forward has a bound too (2^24 states at once): beyond it the distribution stops with one
    message saying so, the search's value is kept, and the next distribution runs (here the bound is tiny)."""
    shoe, up, pair, changes = CASES["88-T DAS, H17, 4 hands, peek T"]
    optimal_split._FOUND.clear()        # what other tests found on this shoe would answer without following
    game = small_game(shoe, Rules(**changes))
    before = follow_bound(8)
    try:
        with pytest.raises(EngineError, match=f"resplits of {'A23456789T'[pair]}-{'A23456789T'[pair]} against "
                                               f"{'A23456789T'[up]} forward needs more than 8 states at once"):
            optimal_split.split_distribution(game, up, pair)
    finally:
        follow_bound(before)
    cells = optimal_split.split_distribution(game, up, pair)
    assert sum(net * p for (_, _, net, _), p in cells.items()) == pytest.approx(
        optimal_split.split_value(game, up, pair), abs=1e-13)


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.slow
def test_an_interrupt_stops_the_search_at_once(signum, code):
    """Ctrl-C or SIGTERM during a search of minutes (one deck, four hands) ends the command within seconds, with
    one line and the signal's exit code (the core's searches return at their next state)."""
    proc = subprocess.Popen([sys.executable, "-m", "ev", "rtp", "--split-strategy", "optimal", "--set",
                             "max_split_hands=4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    assert proc.poll() is None
    start = time.perf_counter()
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert time.perf_counter() - start < 10
    assert proc.returncode == code and out == "" and len(err.strip().splitlines()) == 1


#: one deck less every 2, 3 and 4 and six tens, resplits to four hands: a whole chart's searches in seconds
CHART_REMOVED = (0, 4, 4, 4, 0, 0, 0, 0, 0, 6)


@pytest.mark.slow
def test_the_chart_measured_against_truly_optimal_resplits():
    """The basic-strategy chart with truly optimal resplits (floats): its optimal player's EV and E[W] are the
    round's (``round_stats``), no lower than CDP's; its EV tables split every pair at the search's value; the
    chart's own play (split hands by the chart) does not depend on how the optimal player splits; and the
    renderings say what truly optimal play is in every language, without "one split"."""
    rules = Rules(max_split_hands=4, double_after_split=True)
    game = Game(rules, list(CHART_REMOVED))
    chart = basic_chart(game, "optimal")
    stats = round_stats(game, "optimal")
    assert chart.optimal.ev == pytest.approx(stats.ev, abs=1e-15)
    assert chart.optimal.expected_wager == pytest.approx(stats.expected_wager, abs=1e-13)
    cdp = basic_chart(Game(rules, list(CHART_REMOVED)), "cdp")
    assert cdp.optimal.ev < chart.optimal.ev and chart.stats.ev == cdp.stats.ev and chart.cells == cdp.cells
    pairs = [row for row in chart.ev_rows if row.cards[0] == row.cards[1] and row.result.split is not None]
    assert len(pairs) == 7 * 7             # up cards and pairs A, 5 ... T (2, 3 and 4 are out of the deck)
    for row in pairs:                               # joint units, conditioned where a peek settles blackjacks
        r = row.result
        joint = r.split * (1 - r.p_dealer_blackjack) if r.conditioned else r.split
        assert joint == pytest.approx(optimal_split.split_value(game, row.up, row.cards[0]), abs=1e-14)
    for lang, phrase in (("en", "how many hands may still follow"), ("de", "wie viele Hände noch folgen können"),
                         ("pl", "liczby układów, które mogą jeszcze nastąpić")):
        text = render(chart, "text", lang)
        assert phrase in " ".join(text.split()) and "one split" not in text


@pytest.mark.slow
def test_the_chart_command_under_truly_optimal_resplits(monkeypatch, capsys):
    """``bjev chart --split-strategy optimal`` with resplits runs (here on a smaller deck: the full deck takes
    minutes), its progress heard one up card at a time (``optimal_split.watch``, which the bar listens to)."""
    import ev.cli
    monkeypatch.setattr(ev.cli, "Game", lambda rules: Game(rules, list(CHART_REMOVED)))
    heard = []
    with optimal_split.watch(lambda done, total, note: heard.append((done, total, note))):
        assert main(["chart", "--split-strategy", "optimal", "--set", "max_split_hands=3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["split_strategy"] == "optimal" and data["optimal_ev"] > data["ev"]
    assert [(done, total) for done, total, _ in heard] == [(k, 7) for k in range(1, 8)]    # A, 5 ... T
    assert sorted(note for _, _, note in heard) == sorted(f"up card {c}" for c in "A56789T")


@pytest.mark.slow
def test_exact_resplits_are_the_reference_fractions():
    """Exact mode with resplits (``OptimalSplitter.resplit_exact``: the searched play followed forward counting
    drawing orders, summed in fractions against the exact dealer; near ties in the last hand decided exactly as
    it goes): on the reference's shoes, wherever the play is certified, the value is the reference's exact
    fraction to the last digit, best and worst; the masses sum to P(no settled dealer blackjack) exactly; the
    stake is the float search's and each cell the float distribution's to 1e-13.  Elsewhere (near ties before
    the last hand, on these tiny shoes) it is refused in one message.  Both happen, and near ties are decided."""
    certified = refused = 0
    for name, (shoe, up, pair, _) in CASES.items():
        base, _, rules, _ = setup(name)
        game = small_game(shoe, rules)
        exact_game = Game(rules, [f - s for f, s in zip(full_shoe(1), shoe)], exact=True)
        deck = [c - 2 * (r == pair) for r, c in enumerate(base)]
        bj = {0: 9, 9: 0}.get(up) if rules.blackjack_settled_as_peek(up) else None
        no_settled = 1 - (Fraction(deck[bj], sum(deck)) if bj is not None else 0)
        for sense in (BEST, WORST):
            try:
                cells = optimal_split.split_distribution(exact_game, up, pair, sense)
            except EngineError as exc:
                assert "is not certified" in str(exc) and "\n" not in str(exc)
                refused += 1
                continue
            certified += 1
            reference = ExchangeableResplit(base, up, rules, pair, worst=sense == WORST).value()
            assert sum(net * p for (_, _, net, _), p in cells.items()) == reference, (name, sense)
            assert optimal_split.split_value(exact_game, up, pair, sense) == reference
            assert sum(cells.values()) == no_settled and all(isinstance(p, Fraction) for p in cells.values())
            stake = sum((hands + doubles) * p for (doubles, _, _, hands), p in cells.items())
            assert float(stake) == pytest.approx(optimal_split.split_stake(game, up, pair, sense), abs=1e-13)
            assert optimal_split.split_stake(exact_game, up, pair, sense) == stake
            floats = optimal_split.split_distribution(game, up, pair, sense)
            assert set(floats) >= set(cells)
            assert all(abs(float(cells.get(k, 0)) - v) < 1e-13 for k, v in floats.items())
    decided = sum(optimal_split.work(g)["second_hand_near_ties"] for g in list(optimal_split._ENGINES) if g.exact)
    assert certified >= 12 and refused >= 1 and decided > 0, (certified, refused, decided)


@pytest.mark.slow
def test_hand_gives_the_exact_split_under_truly_optimal_resplits(capsys):
    """``bjev hand 8,8 --up 6 --split-strategy optimal --exact`` with resplits to three hands on the full deck: the
    split's EV as a fraction in lowest terms, the float search's value to 1e-13, the best play, the fraction the
    Python API gives."""
    argv = ["hand", "8,8", "--up", "6", "--split-strategy", "optimal", "--set", "max_split_hands=3", "--json"]
    assert main([*argv, "--exact"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    floats = json.loads(capsys.readouterr().out)
    split = Fraction(exact["split"]["fraction"])
    assert exact["best"] == floats["best"] == "split" and float(split) == pytest.approx(floats["split"], abs=1e-13)
    assert split == optimal_split.split_value(Game(Rules(max_split_hands=3), exact=True), 5, 7)
