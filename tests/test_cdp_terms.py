"""The second CDP: each term of the resplit formula played best for its own deck ("cdp-terms").

Eric Farmer's analyser defines CDP with resplits this way; bjev's ``cdp`` is a
strategy (a split hand plays best for the pair cards it has seen).  Both are
exact for their own definitions (docs/how-it-works.md, "Two CDPs").
"""
from __future__ import annotations

import json
import random

import pytest
from conftest import random_rules
from test_splits import RESPLIT_CASES, resplit_setup

from ev import reference as ref
from ev.analysis.accounting import round_stats
from ev.analysis.game import Game
from ev.analysis.strategy import optimal_policy
from ev.cli import main
from ev.core.cards import N_RANKS, RANK_SYMBOLS
from ev.core.rules import Rules
from ev.errors import EngineError

#: the other analyser's figures for 2 decks, H17, double any, DAS, resplits to 4 (not aces), peek A/T, EV in %
FARMER_GAME = Rules(decks=2, hit_soft_17=True, double="any", double_after_split=True, max_split_hands=4,
                    peek="ace_ten")
FARMER_CDP_PERCENT = "-0.380233879517"
BJEV_CDP_PERCENT = "-0.380230834132"


def test_the_other_analysers_cdp_is_reproduced():
    """The round EV under each definition, to the 12 decimals both analysers print."""
    game = Game(FARMER_GAME)
    assert f"{100 * game.round('cdp-terms').ev:.12f}" == FARMER_CDP_PERCENT
    assert f"{100 * game.round('cdp').ev:.12f}" == BJEV_CDP_PERCENT


@pytest.mark.parametrize("case, hands", [(case, hands) for case in range(len(RESPLIT_CASES)) for hands in (3, 4)
                                         if (case, hands) != (4, 4)])
@pytest.mark.quick_cases(2)
def test_engine_equals_the_twin_in_fractions(case, hands):
    """The engine's per-term split value equals the pure-Python twin's, as fractions (and floats to 1e-12)."""
    deck, up, pair, rules, unsplit, removed = resplit_setup(case, hands)
    twin = ref.split_value(deck, up, rules, pair, "cdp-terms", unsplit)
    faces = [RANK_SYMBOLS[pair]] * 2
    exact = Game(rules, removed, exact=True).hand(faces, up, "cdp-terms")
    mass = 1 if not exact.conditioned else 1 - exact.p_dealer_blackjack
    assert exact.split * mass == twin
    assert Game(rules, removed).hand(faces, up, "cdp-terms").split * float(mass) == pytest.approx(float(twin),
                                                                                                abs=1e-12)


def test_the_definitions_differ_where_a_term_decides_otherwise():
    """T-T vs 6 on the two-deck game: 12 (T-2) stands with up to three other tens gone and hits with four or
    five; the formula's terms with four and five tens gone exist only by inclusion-exclusion, so bjev's CDP
    (a hand sees at most three other tens) stands and the per-term CDP hits there: the values differ."""
    game = Game(FARMER_GAME)
    solver = game.solver(5)
    t2 = game.graph["index"][tuple(1 if r in (1, 9) else 0 for r in range(N_RANKS))]
    assert [solver.context_choices(9, extra, extra)[t2] for extra in range(1, 6)] == [0, 0, 0, 1, 1]
    cdp, terms = (game.hand(["T", "T"], "6", s).split for s in ("cdp", "cdp-terms"))
    assert cdp - terms == pytest.approx(1.4766432e-4, abs=1e-10)


@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.slow
def test_with_one_split_it_is_cdp(seed):
    """With one split the formula has one term per hand: the two definitions are the same, pair by pair."""
    game = Game(random_rules(random.Random(seed), max_split_hands=2))
    assert game.round("cdp-terms").ev == pytest.approx(game.round("cdp").ev, abs=1e-15)
    exact = Game(Rules(decks=1, double_after_split=True), exact=True)
    assert exact.round("cdp-terms").ev == exact.round("cdp").ev


def test_it_is_no_strategy():
    """No strategy table, distribution, chart or simulation: one line, bjev's own error."""
    game = Game(FARMER_GAME)
    for call in (lambda: optimal_policy(game, "cdp-terms"), lambda: round_stats(game, "cdp-terms")):
        with pytest.raises(EngineError, match="not a strategy"):
            call()


@pytest.mark.slow
def test_rtp_command(capsys):
    """bjev rtp --split-strategy cdp-terms: the EV beside bjev's CDP, the note, JSON with both."""
    argv = ["rtp", "--split-strategy", "cdp-terms", "--set", "decks=2", "--set", "double=any", "--set",
            "double_after_split=true", "--set", "max_split_hands=4", "--set", "peek=ace_ten"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"EV per initial bet          {FARMER_CDP_PERCENT} %" in out
    assert f"EV under cdp (a strategy)   {BJEV_CDP_PERCENT} %" in out and "not a strategy" in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert f"{100 * data['ev']:.12f}" == FARMER_CDP_PERCENT and data["split_strategy"] == "cdp-terms"
    assert data["ev_minus_cdp_ev"] == pytest.approx(data["ev"] - data["cdp_ev"], abs=1e-18)
    assert sum(data["p_upcard"][u] * data["ev_by_upcard"][u] for u in data["p_upcard"]) == pytest.approx(
        data["ev"], abs=1e-15)
    assert main(["rtp", "--split-strategy", "cdp-terms", "--exact", "--json", "--set", "max_split_hands=3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and "/" in data["ev"]["fraction"]


@pytest.mark.parametrize("command", [["chart"], ["report"], ["simulate", "--rounds", "10"], ["rules-effect"]])
def test_commands_that_play_refuse_it(capsys, command):
    assert main([*command, "--split-strategy", "cdp-terms"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cdp-terms" in err
