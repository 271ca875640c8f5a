"""The exact arithmetic's output: fractions in lowest terms, 20-digit decimals, the JSON scheme and the CLI."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from ev.analysis.game import Game
from ev.cli import main
from ev.core.cards import TEN
from ev.core.rules import Rules
from ev.present.numbers import decimal_text, exact_json, fraction_text


def test_json_scheme():
    x = Fraction(-235870183469693743, 52989254180017155000)
    assert fraction_text(x) == "-235870183469693743/52989254180017155000"
    assert exact_json(x) == {"fraction": "-235870183469693743/52989254180017155000",
                             "decimal": "-0.0044512833237544046753"}
    assert decimal_text(Fraction(1, 3)) == "0.33333333333333333333"
    assert decimal_text(Fraction(0)) == "0" and exact_json(None) is None
    assert exact_json(Fraction(2)) == {"fraction": "2/1", "decimal": "2"}


def test_cli_exact(capsys):
    assert main(["hand", "T,6", "--up", "T", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    exact = Game(exact=True).hand(["T", "6"], TEN)
    assert data["hit"]["fraction"] == fraction_text(exact.hit)
    assert Fraction(data["stand"]["fraction"]) == exact.stand
    assert data["best"] == exact.best and data["exact"] is True
    assert main(["hand", "8,8", "--up", "6", "--exact"]) == 0
    text = capsys.readouterr().out
    assert fraction_text(Game(exact=True).hand(["8", "8"], 5).split) in text


@pytest.mark.slow
def test_cli_rtp_exact_json(capsys):
    assert main(["rtp", "--exact", "--json", "--set", "max_split_hands=1", "--set", "late_surrender=true"]) == 0
    data = json.loads(capsys.readouterr().out)
    rules = Rules(max_split_hands=1, late_surrender=True)
    ev = Game(rules, exact=True).round("cdz").ev
    assert data["exact"] is True and data["ev"] == exact_json(ev)
    assert Fraction(data["rtp_initial"]["fraction"]) == 1 + ev
    dist = {k: Fraction(v["fraction"]) for k, v in data["distribution"].items()}
    assert sum(dist.values()) == 1
    assert sum(Fraction(k) * p for k, p in dist.items()) == ev
    wager = Fraction(data["expected_total_wager"]["fraction"])
    assert Fraction(data["rtp_total_wagered"]["fraction"]) == (wager + ev) / wager
    assert set(data["sd"]) == {"expression", "decimal"} and data["ties"] == []
    for value in data["ev_by_upcard"].values():      # every decimal is the fraction to 20 significant digits
        assert value["decimal"] == decimal_text(Fraction(value["fraction"]))
    assert main(["rtp", "--exact", "--set", "max_split_hands=1", "--set", "late_surrender=true"]) == 0
    text = capsys.readouterr().out
    assert fraction_text(ev) in text and decimal_text(ev) in text


def test_cli_exact_natural_json(capsys):
    """A natural in exact JSON: every value an exact object (the declined blackjack included)."""
    assert main(["hand", "A,K", "--up", "A", "--removed", "2,3,4,5", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["blackjack_declined"]["fraction"]) == 1 and data["even_money"]["fraction"] == "1/1"
    assert data["best"] == "stand" and data["ties"][0]["actions"] == ["decline even money", "even_money"]
