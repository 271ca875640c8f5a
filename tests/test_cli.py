"""The command line: answers, JSON, and one-line errors with exit code 2."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ev.cli import main
from ev.present.command_text import APPROX


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rtp_json(capsys):
    code, out, err = run(capsys, "rtp", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["ev"] == pytest.approx(-0.00445128332, abs=1e-11)
    assert data["rtp_initial"] == pytest.approx(1 + data["ev"], abs=1e-15)
    assert set(data["ev_by_upcard"]) == set("A23456789T")
    assert sum(data["p_upcard"][k] * v for k, v in data["ev_by_upcard"].items()) == pytest.approx(data["ev"])
    assert data["rules"]["decks"] == 1 and data["rules"]["hit_soft_17"] is True
    for key in ("rtp_total_wagered", "expected_total_wager", "p_double", "p_split", "p_insurance",
                "p_player_blackjack", "p_dealer_blackjack", "p_win", "p_push", "p_loss", "distribution", "sd",
                "skewness", "hit_frequency", "split_strategy"):
        assert key in data, key
    assert round(100 * data["rtp_total_wagered"], 2) == 99.59
    assert data["distribution"]["1.5"] == pytest.approx(0.046492443, abs=1e-9)
    assert data["rtp_total_wagered"] == pytest.approx(
        (data["expected_total_wager"] + data["ev"]) / data["expected_total_wager"], abs=1e-15)


def test_rtp_text_and_rules(capsys, tmp_path):
    rules = tmp_path / "s17.toml"
    rules.write_text('[rules]\nhit_soft_17 = false\ndouble = "any"\n')
    code, out, _ = run(capsys, "rtp", "--rules", str(rules))
    assert code == 0 and "+0.024273905 %" in out and "S17" in out


def test_set_overrides(capsys):
    code, out, _ = run(capsys, "rtp", "--json", "--set", "hit_soft_17=false", "--set", "double=any")
    assert code == 0 and json.loads(out)["ev"] == pytest.approx(0.00024273905, abs=1e-11)


def test_hand_json(capsys):
    code, out, _ = run(capsys, "hand", "t6", "--up", "10", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["best"] == "hit" and data["conditioned_on_no_dealer_blackjack"] is True
    assert data["double"] is None and data["split"] is None and data["surrender"] is None
    assert data["insurance"] is None and data["even_money"] is None
    assert -1 <= data["stand"] <= 1 and -1 <= data["hit"] <= 1


def test_hand_insurance_and_removed(capsys):
    code, out, _ = run(capsys, "hand", "8,8", "--up", "A", "--removed", "K,Q", "--json")
    data = json.loads(out)
    assert code == 0 and data["split"] is not None and data["insurance"] is not None
    # two tens out of 47 unseen cards: P(dealer blackjack) = 14/47
    assert data["p_dealer_blackjack"] == pytest.approx(14 / 47)
    assert data["insurance"] == pytest.approx(0.5 * (3 * 14 / 47 - 1))


@pytest.mark.parametrize("argv, words", [
    (["hand", "X,5", "--up", "5"], "unknown card"),
    (["hand", "A,A,A,A,A", "--up", "5"], "impossible"),
    (["hand", "T,6", "--up", "5", "--removed", "6,6,6,6"], "impossible"),
    (["rtp", "--set", "decks=9"], "decks"),
    (["rtp", "--set", "double=sometimes"], "double"),
    (["rtp", "--set", "nonsense=1"], "nonsense"),
    (["rtp", "--rules", "/no/such/file.toml"], "file"),
    (["rtp", "--bogus"], "--bogus"),
    (["hand", "T,6"], "--up"),
])
def test_errors_are_one_line_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


def test_python_dash_m(tmp_path):
    """``python -m ev`` runs the same package as the tests (from outside the source tree)."""
    import os

    import ev
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(ev.__file__)))}
    proc = subprocess.run([sys.executable, "-m", "ev", "hand", "9,9", "--up", "7", "--json"],
                          capture_output=True, text=True, check=True, cwd=tmp_path, env=env)
    assert json.loads(proc.stdout)["best"] == "stand"
    proc = subprocess.run([sys.executable, "-m", "ev", "rtp", "--set", "decks=0"], capture_output=True, text=True,
                          cwd=tmp_path, env=env)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_count_and_seed_arguments():
    import argparse

    from ev.cli import parse_count, parse_seed
    assert parse_count("1e6") == parse_count("1_000_000") == parse_count("1000000") == 10 ** 6
    assert parse_seed("0x10") == 16 and parse_seed("18446744073709551615") == 2 ** 64 - 1
    for bad in ("1.5", "ten", "0", "-3", "inf"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_count(bad)
    for bad in ("-1", "2**64", "18446744073709551616", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_seed(bad)


def test_regenerate_is_the_command_for_tables(capsys):
    with pytest.raises(SystemExit):
        main(["regenerate", "--help"])
    assert "tables/" in capsys.readouterr().out
    code, out, err = run(capsys, "tables")
    assert code == 2 and out == "" and "invalid choice" in err


# ----- hardening (issue 11): the API's cards, the natural against even money, options honoured ----------------
def test_api_takes_card_symbols_everywhere():
    from ev.analysis.game import Game
    from ev.errors import CardError
    game = Game()
    by_symbol, by_index = game.hand(["T", "6"], up="9"), game.hand(["T", "6"], up=8)
    assert by_symbol.up == by_index.up == "9" and by_symbol.hit == by_index.hit
    assert game.hand(["10", "6"], up="K").hit == game.hand(["t", "6"], up="T").hit == game.hand([9, 5], up=9).hit
    assert game.dealer_probabilities(up="6") == game.dealer_probabilities(up=5)
    assert game.dealer_probabilities(up="A")["blackjack"] == 0     # conditioned: the dealer peeked
    for bad in ("1", "11", "X", "", 10, -1, 9.0, None, True, ["T"]):
        with pytest.raises(CardError):
            game.hand(["T", "6"], up=bad)
        with pytest.raises(CardError):
            game.dealer_probabilities(up=bad)
    with pytest.raises(CardError):
        game.hand(["T", "Z"], up="5")


def test_natural_against_an_ace_is_compared_with_declining(capsys):
    code, out, _ = run(capsys, "hand", "A,K", "--up", "A")
    assert code == 0
    rows = {line.split()[0] if not line.startswith("decline") else "decline": line for line in out.splitlines()[2:5]}
    assert "+1.040816327" in rows["decline"] and rows["decline"].endswith("yes")   # 1.5 x 34/49 against 1
    assert not rows["stand"].endswith("yes") and not rows["even_money"].endswith("yes")
    code, out, _ = run(capsys, "hand", "A,K", "--up", "A", "--json")
    data = json.loads(out)
    assert data["best"] == "stand" and data["blackjack_declined"] == pytest.approx(1.5 * 34 / 49)
    # with 14 of 32 unseen cards tens, declining is worth 1.5 x 18/32 < 1: even money is best
    code, out, _ = run(capsys, "hand", "A,K", "--up", "A", "--removed", "2,3,4,5,6,7,8,9,9,9,9,8,8,8,7,7,7")
    assert next(line for line in out.splitlines() if line.endswith(" yes")).startswith("even_money")


def test_hand_refuses_a_position_that_can_run_out(capsys):
    eights = "A,A,A,A,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,7,7,7,7,9,9,9,9," + "T," * 14 + "T"
    for extra in ([], ["--exact"], ["--json"], ["--split-strategy", "cdp"]):
        code, out, err = run(capsys, "hand", "8,8", "--up", "6", "--removed", eights, *extra)
        assert code == 2 and out == "" and "run out" in err, extra
    # without the split every continuation can be dealt: stand wins (the dealer, 6 and an 8 or a ten, draws
    # one of the other two cards and busts), a hit busts
    code, out, err = run(capsys, "hand", "8,8", "--up", "6", "--removed", eights, "--set", "max_split_hands=1",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["stand"], data["hit"], data["split"], data["best"]) == (1, -1, None, "stand")


@pytest.mark.slow
def test_chart_json_goes_to_out(capsys, tmp_path):
    out = tmp_path / "chart.json"
    code, stdout, _err = run(capsys, "chart", "--json", "--out", str(out))
    assert code == 0 and stdout.strip() == f"wrote {out}"
    data = json.loads(out.read_text())
    assert data["cells"]["hard16"]["T"] == "H" and data["cells"]["hard16"]["6"] == "S" and data["rules"]["decks"] == 1


def test_no_command_is_a_usage_error_on_stderr(capsys):
    code, out, err = run(capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "a command is required" in err


def test_signals_are_restored_after_a_command(capsys):
    import signal
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    run(capsys, "rtp", "--set", "decks=0")
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


@pytest.mark.parametrize("where", ["full", "closed", "pipe closed early"])
def test_standard_output_that_cannot_take_the_answer(where):
    """A full standard output (> /dev/full) is one line and exit 2; a closed one (>&-) and a reader that goes
    away (| head -c 1) end quietly with exit 0; never a traceback."""
    import os
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    argv = [sys.executable, "-m", "ev", "rtp", "--set", "max_split_hands=1", "--json"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    if where == "full":
        with open("/dev/full", "w") as full:
            proc = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, env=env, timeout=60)
        assert proc.returncode == 2 and proc.stderr.decode().count("\n") == 1
        assert "cannot write to standard output: No space left on device" in proc.stderr.decode()
    elif where == "closed":
        proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, timeout=60,
                              preexec_fn=lambda: os.close(1))
        assert proc.returncode == 0 and proc.stderr == b""
    else:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert proc.stdout.read(1) == b"{"
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0 and proc.stderr.read() == b""


def _dist_mean(data: dict) -> float:
    return sum(float(net) * p for net, p in data["distribution"].items())


#: a table whose resplits the default distribution scores independently given the dealer ("auto" in floats scores
#: those of three hands, and of one deck, exactly)
INDEPENDENT_SETS = ("--set", "decks=2", "--set", "max_split_hands=4")


@pytest.mark.slow
def test_rtp_says_when_its_distribution_scores_resplits_independently(capsys):
    """Where the default distribution scores three- and four-hand splits as independent given the dealer's
    outcome (two decks to four hands), the output says which figures that makes approximate, by how much, and
    how to have them exact; the figures that stay exact are the EV and both RTPs."""
    code, out, _ = run(capsys, "rtp", *INDEPENDENT_SETS, "--json")
    data = json.loads(out)
    assert code == 0 and data["distribution_method"] == "independent"
    gap = _dist_mean(data) - data["ev"]
    assert 1e-9 < abs(gap) < 1e-5          # the approximation: the mean is not the EV
    note = data["distribution_note"]
    assert f"{gap:+.2e}" in note and "--resplit-distribution exact" in note
    for word in ("P(win)", "the SD", "approximate", "EV, both RTPs, E[W] and P(split) are exact"):
        assert word in note, word
    assert "P(double)" not in note          # no doubling after splits: P(double) needs no split's hands jointly
    code, out, _ = run(capsys, "rtp", *INDEPENDENT_SETS, "--set", "double_after_split=true", "--json")
    assert code == 0 and "P(double), P(win)" in json.loads(out)["distribution_note"]
    code, out, _ = run(capsys, "rtp", *INDEPENDENT_SETS)
    assert "its exact probability" not in out and "its probability (approximate: see the note below)" in out
    assert " ".join(note.split()) in " ".join(out.split())
    code, out, _ = run(capsys, "rtp", "--json")        # one split: exact, no note
    data = json.loads(out)
    assert data["distribution_method"] == "exact" and "distribution_note" not in data


def _lines(out: str, *starts: str) -> list[str]:
    return [next(line for line in out.splitlines() if line.startswith(start)) for start in starts]


@pytest.mark.slow
@pytest.mark.parametrize("das", [False, True])
def test_rtp_marks_each_approximate_figure_where_it_stands(capsys, das):
    """Beside each figure that the independent scoring of resplits makes approximate (the SD and skewness,
    P(win), P(push), P(loss); P(double) only where split hands may double) the line says so and points to
    the note; the exact figures' lines (the EV, both RTPs, E[W], P(split)) carry no mark, and with one split
    no line does.  The basic chart's output the same way."""
    das_set = ["--set", f"double_after_split={str(das).lower()}"]
    sets = [*INDEPENDENT_SETS, *das_set]
    for strategy in ([], ["--strategy", "basic"]):
        code, out, _ = run(capsys, "rtp", *sets, *strategy)
        assert code == 0 and "the note on resplits below" in out and "Resplits:" in out
        for line in out.splitlines():
            if line.startswith(("EV per", "RTP per", "Expected total stake", "P(player blackjack)")):
                assert APPROX not in line, line
        if not strategy:
            p_double, p_win, sd = _lines(out, "P(double)", "P(win)", "SD ")
            assert APPROX in p_win and APPROX in sd
            assert (APPROX in p_double) == das, p_double
            assert not das or p_double.index(APPROX) < p_double.index("P(split)"), p_double
        else:
            (sd,) = _lines(out, "SD ")
            assert sd.endswith(f"({'SD and P(double)' if das else 'SD'} {APPROX})"), sd
    # --exact: the mark after each such figure's decimal (the variance's too), none after the exact figures' (in
    # fractions "auto" scores one deck's resplits to three hands independently: their joint law costs far more)
    one_deck = ["--set", "max_split_hands=3", *das_set]
    code, out, _ = run(capsys, "rtp", "--exact", *one_deck)
    lines = out.splitlines()
    marked = {lines[i - 1].split("  ")[0] for i, line in enumerate(lines) if line.endswith(f"({APPROX})")
              and line.lstrip().startswith("=")}
    marked |= {line.split("  ")[0] for line in lines if line.startswith(("SD", "Skewness")) and APPROX in line}
    assert code == 0 and marked == {"P(win) = hit frequency", "P(push)", "P(loss)", "Variance", "SD = sqrt(variance)",
                                    "Skewness"} | ({"P(double)"} if das else set()), marked
    # the marks follow the distribution's method, not the rules: with the exact method, none (in floats "auto"
    # scores one deck's resplits exactly)
    for argv in (["rtp"], ["rtp", *one_deck], ["rtp", *one_deck, "--resplit-distribution", "exact"],
                 ["rtp", "--strategy", "basic"], ["rtp", *one_deck, "--strategy", "basic"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and APPROX not in out and "note on resplits" not in out, argv


@pytest.mark.slow
def test_rtp_resplit_distribution_exact(capsys):
    """--resplit-distribution exact: every hand against the same dealer hand, so the distribution's mean is the
    EV; on one deck resplitting to three hands "auto" does the same in floats, to the bit.  Where "auto" scores
    resplits independently (two decks to four hands), the monitoring limits say so, and not otherwise."""
    _, out, _ = run(capsys, "rtp", "--set", "max_split_hands=3", "--json")
    auto = json.loads(out)
    code, out, _ = run(capsys, "rtp", "--set", "max_split_hands=3", "--resplit-distribution", "exact", "--json")
    exact = json.loads(out)
    assert code == 0 and exact["distribution_method"] == "exact" and "distribution_note" not in exact
    assert _dist_mean(exact) == pytest.approx(exact["ev"], abs=1e-15)
    assert sum(exact["distribution"].values()) == pytest.approx(1.0, abs=1e-14)
    assert auto == exact
    for argv in ([], ["--resplit-distribution", "exact"]):
        code, out, _ = run(capsys, "monitor", "--set", "max_split_hands=3", "--rounds", "1000", *argv)
        assert code == 0 and "independent" not in out and " exact" in out
    _, out, _ = run(capsys, "rtp", *INDEPENDENT_SETS, "--json")
    rough = json.loads(out)
    code, out, _ = run(capsys, "monitor", *INDEPENDENT_SETS, "--rounds", "1000")
    assert "independent given the dealer's outcome" in out and "--resplit-distribution exact" in out
    assert f"its mean lies {_dist_mean(rough) - rough['ev']:+.2e} bets from the exact EV" in " ".join(out.split())


def test_hand_says_why_its_values_are_conditioned_or_not(capsys):
    """The note under `bjev hand` names the reason that applies to its up card: none is needed under a 6; under
    a ten the seed dealer has checked; under an ace he has not, and a blackjack found later takes the original
    bet only; with no hole card a blackjack takes every wager and the values are unconditioned."""
    cases = [(["8,8", "--up", "6"], "no conditioning needed (the dealer cannot have blackjack under a 6)"),
             (["8,8", "--up", "T"], "conditioned on no dealer blackjack (the dealer has checked)"),
             (["T,6", "--up", "A"], "a blackjack found after play takes the original bet only"),
             (["T,6", "--up", "T", "--set", "peek=none", "--set", "unchecked_blackjack_takes=all"],
              "unconditioned (the dealer does not check")]
    for argv, words in cases:
        code, out, _ = run(capsys, "hand", *argv)
        assert code == 0 and words in out, (argv, out)


@pytest.mark.parametrize("split", ["cdz", "cdp", "optimal"])
def test_the_report_bar_counts_the_steps_of_its_split_strategy(split, tmp_path, monkeypatch, capsys):
    """bjev report's progress bar is sized by the steps of the report it makes (``total_steps``), whose number
    depends on the split strategy (its rows and rule variants: 25, 26 and 24 on the default game), so the bar
    ends at its total, neither short of it nor past it.  The report here takes its steps as build_report would
    (``test_report.py`` checks that build_report takes total_steps), then stops."""
    import ev.cli
    import ev.present.report as report
    from ev.core.rules import Rules
    from ev.errors import BJEVError
    bars = []

    class Bar:
        def __init__(self, total, label, **kw):
            self.total, self.done = total, 0.0
            bars.append(self)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def advance(self, amount=1, note=""):
            self.done += amount

    def steps_then_stop(rules, *, split_strategy, sensitivity, progress, **kw):
        for _ in range(report.total_steps(sensitivity, rules, split_strategy)):
            progress(1, "a step")
        raise BJEVError("stopped here")

    monkeypatch.setattr(ev.cli, "Progress", Bar)
    monkeypatch.setattr(report, "build_report", steps_then_stop)
    assert main(["report", "--simulate-rounds", "0", "--split-strategy", split, "--out", str(tmp_path / "r")]) == 2
    assert "stopped here" in capsys.readouterr().err
    assert len(bars) == 1 and bars[0].done == bars[0].total == report.total_steps(True, Rules(), split)
    assert {report.total_steps(True, Rules(), s) for s in ("cdz", "cdp", "optimal")} == {24, 25, 26}
