"""bjev sweep: the grid, rows per variant, invalid variants, the journal and resuming, the tables, the payout.

Cheap variants throughout (one deck, no split, floats) so the sweeps take seconds.
The Dask runs of a sweep are in tests/test_cluster.py.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from ev.analysis.executors import LocalExecutor
from ev.analysis.payout import B
from ev.analysis.sweep import (
    Grid,
    SweepOptions,
    chart_sha256,
    grid_from_mapping,
    make_grid,
    run_sweep,
    variants,
)
from ev.cli import main
from ev.core.rules import FIELD_NAMES
from ev.errors import RulesError
from ev.present.sweep_output import Journal

ROOT = Path(__file__).resolve().parents[1]
CHEAP = ["--set", "max_split_hands=1"]       # one deck (the default), no split: about 0.5 s a variant


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ----- the grid -------------------------------------------------------------------------------
def test_grid_from_a_file_and_the_command_line(tmp_path):
    path = tmp_path / "grid.toml"
    path.write_text('decks = [1, 2]\npeek = "ten"\n[grid]\ndouble = ["10-11", "any"]\nhit_soft_17 = false\n')
    grid = make_grid(path, ["blackjack_payout=3:2,6:5"], {"peek": "ace_ten", "late_surrender": True})
    assert grid.axes == {"decks": [1, 2], "double": ["10-11", "any"], "blackjack_payout": ["3:2", "6:5"]}
    assert grid.base == {"peek": "ace_ten", "hit_soft_17": False, "late_surrender": True}
    assert grid.size == 8
    # a fixed value (--set) removes the file's axis; a --grid axis replaces a fixed value
    assert make_grid(path, [], {"decks": 6}).axes == {"double": ["10-11", "any"]}
    assert make_grid(path, ["peek=ten,none"]).axes["peek"] == ["ten", "none"]
    vs = variants(grid, SweepOptions())
    assert [v.index for v in vs] == list(range(8))
    assert [(v.values["decks"], v.values["double"], v.values["blackjack_payout"]) for v in vs[:3]] == [
        (1, "10-11", "3:2"), (1, "10-11", "6:5"), (1, "any", "3:2")]          # the last axis varies fastest
    assert len({v.key for v in vs}) == 8


def test_a_variant_key_is_its_full_rule_set_and_the_options():
    a = variants(Grid({}, {"decks": [1, "1"]}), SweepOptions())
    assert a[0].key == a[1].key                                  # 1 and "1" are the same rule set
    explicit = variants(Grid({"hit_soft_17": True}, {"decks": [1]}), SweepOptions())
    assert explicit[0].key == a[0].key                           # the default written out is the same rule set
    assert variants(Grid({}, {"decks": [1]}), SweepOptions(exact=True))[0].key != a[0].key
    assert variants(Grid({}, {"decks": [1]}), SweepOptions(split_strategy="cdp1"))[0].key != a[0].key
    assert variants(Grid({}, {"decks": [1]}), SweepOptions(distribution=False))[0].key != a[0].key
    # the default's options as before --no-distribution existed: the rows of earlier sweeps keep their keys
    assert "distribution" not in SweepOptions().as_dict()


def test_grid_errors_are_usage_errors(tmp_path, capsys):
    with pytest.raises(RulesError, match="unknown rule 'deck'"):
        grid_from_mapping({"deck": [1, 2]})
    with pytest.raises(RulesError, match="lists no values"):
        grid_from_mapping({"decks": []})
    with pytest.raises(RulesError, match="unknown table"):
        grid_from_mapping({"axes": {"decks": [1]}})
    code, _, err = run_cli(capsys, "sweep", "--grid", "decks", "--out", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "key=value1,value2" in err
    code, _, err = run_cli(capsys, "sweep", "--grid", "colour=red,black", "--out", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "unknown rule 'colour'" in err
    code, _, err = run_cli(capsys, "sweep", "--grid", "decks=1", "--solve", "blackjack_payout",
                           "--out", str(tmp_path))
    assert code == 2 and "--target-rtp" in err
    code, _, err = run_cli(capsys, "sweep", "--grid", "decks=1", "--target-rtp", "high", "--out", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "--target-rtp" in err


# ----- rows ---------------------------------------------------------------------------------------
def test_invalid_combinations_are_reported_per_row(tmp_path, capsys):
    code, out, err = run_cli(capsys, "sweep", "--grid", "decks=1,9", "--grid", "blackjack_payout=3:2,7:5",
                             *CHEAP, "--workers", "1", "--out", str(tmp_path), "--json")
    assert code == 0, err
    data = json.loads(out)
    status = [(r["decks"], r["blackjack_payout"], r["status"]) for r in data["rows"]]
    assert status == [(1, "3:2", "ok"), (1, "7:5", "invalid"), (9, "3:2", "invalid"), (9, "7:5", "invalid")]
    assert data["invalid"] == 3 and data["computed"] == 4
    bad = data["rows"][2]
    assert bad["error"] == "rule decks: expected an integer from 1 to 8, got 9" and bad["ev"] is None
    assert "'7:5' is not allowed" in data["rows"][1]["error"]
    ok = data["rows"][0]
    assert ok["error"] is None and -0.0081 < ok["ev"] < -0.0080                  # 1 deck, no split: -0.802 %


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    """``bjev sweep`` of H17/S17 x 3:2/6:5 (one deck, no split) on two local workers: (out dir, text, --json)."""
    out = tmp_path_factory.mktemp("four")
    args = ["sweep", "--grid", "hit_soft_17=true,false", "--grid", "blackjack_payout=3:2,6:5", *CHEAP,
            "--workers", "2", "--out", str(out)]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(args) == 0
    text = buffer.getvalue()
    with contextlib.redirect_stdout(buffer := io.StringIO()):
        assert main([*args, "--json"]) == 0          # everything is done: read back from the journal
    return out, text, json.loads(buffer.getvalue())


@pytest.mark.xdist_group("sweep-four")
def test_the_chart_hash_names_the_chart(four):
    _, _, data = four
    hashes = [r["chart_sha256"] for r in data["rows"]]          # H17 3:2, H17 6:5, S17 3:2, S17 6:5
    assert all(len(h) == 64 for h in hashes) and len(set(hashes)) == 4
    # (3:2 and 6:5 charts differ in their even-money line at least: at 6:5 even money is worth taking)
    # the hash is of the cells: one changed cell, or the insurance line, changes it
    from ev.analysis.basic_strategy import chart_rows
    cells = {row: {up: "S" for up in range(10)} for row in chart_rows()}
    changed = {row: dict(c) for row, c in cells.items()}
    changed[chart_rows()[0]][5] = "H"
    assert chart_sha256(cells, False, False) != chart_sha256(changed, False, False)
    assert chart_sha256(cells, False, False) != chart_sha256(cells, True, False)
    assert chart_sha256(cells, False, False) == chart_sha256({r: dict(c) for r, c in cells.items()}, False, False)


@pytest.mark.xdist_group("sweep-four")
def test_tables_csv_json_and_parquet_hold_the_same_rows(four):
    tmp_path, out, printed = four
    assert "4 computed now, 0 from earlier runs, 0 invalid" in out and "local, 2 processes" in out
    assert f"wrote {tmp_path / 'sweep.csv'}" in out and f"wrote {tmp_path / 'sweep.parquet'}" in out
    assert printed["computed"] == 0 and printed["from_earlier_runs"] == 4
    data = json.loads((tmp_path / "sweep.json").read_text())
    assert data["rows"] == printed["rows"] and data["meta"]["grid"]["axes"]["blackjack_payout"] == ["3:2", "6:5"]
    with open(tmp_path / "sweep.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert data["columns"][:1 + len(FIELD_NAMES)] == ["variant", *FIELD_NAMES]
    assert list(table[0]) == data["columns"] and len(table) == len(data["rows"]) == 4
    for line, row in zip(table, data["rows"]):
        assert float(line["ev"]) == row["ev"] and line["hit_soft_17"] == str(row["hit_soft_17"]).lower()
        assert line["chart_sha256"] == row["chart_sha256"] and line["max_split_hands"] == "1"
    import pyarrow.parquet as pq  # in the test extra
    parquet = pq.read_table(tmp_path / "sweep.parquet").to_pylist()
    assert [r["ev"] for r in parquet] == [r["ev"] for r in data["rows"]]
    assert [r["hit_soft_17"] for r in parquet] == [True, True, False, False]


# ----- the journal and resuming ------------------------------------------------------------------
def test_a_damaged_journal_line_is_skipped_and_never_truncated(tmp_path):
    """A line cut short by a crash stays where it is (the journal is only appended to) and is not trusted; the next
    row starts on a line of its own.  An edited row (its digest no longer matches) and a row of another bjev version
    are not trusted either: their variants are computed again."""
    journal = Journal(str(tmp_path))
    journal.append({"key": "a", "status": "ok", "ev": -0.5})
    with open(journal.path, "ab") as f:
        f.write(b'{"key": "b", "sta')                   # a crash in the middle of a line
    before = Path(journal.path).read_bytes()
    journal = Journal(str(tmp_path))
    assert list(journal.load()) == ["a"] and journal.damaged == 1
    assert Path(journal.path).read_bytes() == before     # loading writes nothing
    journal.append({"key": "c", "status": "ok", "ev": 0.25})
    lines = Path(journal.path).read_bytes().splitlines()
    assert lines[0] == before.splitlines()[0] and lines[1] == b'{"key": "b", "sta' and len(lines) == 3
    assert list(Journal(str(tmp_path)).load()) == ["a", "c"]
    # an edited figure, and a row of another version
    text = Path(journal.path).read_text().replace('"ev": 0.25', '"ev": 0.26')
    other = json.loads(lines[0])
    other.pop("digest")
    other.update(key="d", bjev="0.0.1")
    from ev.present.sweep_output import _digest
    text += json.dumps({**other, "digest": _digest(other)}) + "\n"
    Path(journal.path).write_text(text)
    journal = Journal(str(tmp_path))
    assert list(journal.load()) == ["a"] and (journal.damaged, journal.outdated) == (2, 1)
    assert len(journal.notes()) == 2


def test_a_refused_run_leaves_the_journal_and_the_directory_alone(tmp_path, capsys):
    """Options are checked before the journal is read or the directory made: a refused run changes nothing."""
    out = tmp_path / "s"
    code, _, err = run_cli(capsys, "sweep", "--grid", "decks=1", "--workers", "9999", "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and not out.exists()
    out.mkdir()
    (out / "sweep.jsonl").write_bytes(b'{"key": "x"' * 1000)      # no final newline
    code, _, err = run_cli(capsys, "sweep", "--grid", "decks=1,2", "--grid", "decks=6", "--out", str(out))
    assert code == 2 and "twice" in err and (out / "sweep.jsonl").read_bytes() == b'{"key": "x"' * 1000
    code, _, err = run_cli(capsys, "sweep", "--grid", "decks=1", "--target-rtp", "0", "--out", str(out))
    assert code == 2 and (out / "sweep.jsonl").read_bytes() == b'{"key": "x"' * 1000


@pytest.mark.slow
def test_grid_files_with_grid_and_rules_tables(tmp_path, capsys):
    """[rules] fixes values and [grid] lists them (the README's layout); the axes are kept."""
    path = tmp_path / "g.toml"
    path.write_text('[rules]\nmax_split_hands = 1\n[grid]\nhit_soft_17 = [true, false]\ndecks = 1\n')
    grid = make_grid(path)
    assert grid.axes == {"hit_soft_17": [True, False]} and grid.base == {"max_split_hands": 1, "decks": 1}
    code, out, err = run_cli(capsys, "sweep", str(path), "--workers", "1", "--out", str(tmp_path / "s"), "--json")
    assert code == 0, err
    assert [r["hit_soft_17"] for r in json.loads(out)["rows"]] == [True, False]
    for text, words in [('decks = 1979-05-27\n', "date or time"), ('decks = 07:32:00\n', "date or time"),
                        ('decks = [[1, 2]]\n', "list inside a list"), ('[grid]\ndecks = {a = 1}\n', "a table"),
                        ('decks = [1]\n[grid]\ndecks = [2]\n', "given twice"),
                        ('[rules]\ndecks = [1, 2]\n', "[rules] holds fixed values"),
                        ('decks = [1, 2, 1]\n', "lists '1' twice"), ('[axes]\ndecks = [1]\n', "unknown table")]:
        path.write_text(text)
        code, _, err = run_cli(capsys, "sweep", str(path), "--out", str(tmp_path / "t"))
        assert code == 2 and err.count("\n") == 1 and words in err, (text, err)
        assert not (tmp_path / "t").exists()


def test_a_grid_over_the_limit_is_refused_before_any_work(tmp_path, capsys):
    axes = []
    for axis in ("decks=1,2,3,4,5,6,7,8", "hit_soft_17=true,false", "double=10-11,9-11,any",
                 "double_after_split=true,false", "max_split_hands=1,2,3,4", "late_surrender=true,false",
                 "blackjack_payout=3:2,6:5,7:5,2:1", "peek=ten,ace_ten,none", "insurance=true,false"):
        axes += ["--grid", axis]
    start = time.monotonic()
    code, _, err = run_cli(capsys, "sweep", *axes, "--out", str(tmp_path / "s"))
    assert code == 2 and "18,432 variants" in err and "--max-variants 18432" in err
    assert time.monotonic() - start < 5 and not (tmp_path / "s").exists()


@pytest.mark.slow
def test_a_payout_no_target_reaches_is_said_in_the_row(tmp_path, capsys):
    """--target-rtp below what a blackjack paying nothing returns: no payout, and the note says why."""
    code, out, err = run_cli(capsys, "sweep", "--grid", "decks=1", *CHEAP, "--workers", "1", "--target-rtp", "0.9",
                             "--out", str(tmp_path), "--json")
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    assert row["payout_for_target"] is None and row["payout_note"].startswith("no blackjack payout reaches")
    floor = float(row["payout_note"].split("returns ")[1].split(" %")[0]) / 100
    assert 0.9 < floor < 0.99


@pytest.mark.slow
def test_an_interrupted_sweep_computes_only_the_missing_variants_when_rerun(tmp_path, capsys):
    """SIGINT to a running `bjev sweep`: exit 130, no worker left, finished rows kept; the rerun does the rest."""
    axes = ["--grid", "hit_soft_17=true,false", "--grid", "double=10-11,any", "--grid", "late_surrender=false,true"]
    argv = [sys.executable, "-m", "ev", "sweep", *axes, *CHEAP, "--workers", "2", "--out", str(tmp_path)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    journal = tmp_path / "sweep.jsonl"
    children: list[int] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        children = [int(p) for p in _children(proc.pid)] or children
        if journal.exists() and journal.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"interrupted" in err
    assert children and all(not Path(f"/proc/{pid}").exists() for pid in children)
    finished = journal.read_text().count("\n")
    assert 2 <= finished < 8
    code, out, _ = run_cli(capsys, "sweep", *axes, *CHEAP, "--workers", "2", "--out", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and data["computed"] == 8 - finished and data["from_earlier_runs"] == finished
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert len(lines) == 8 and len({r["key"] for r in lines}) == 8
    assert [r["variant"] for r in data["rows"]] == list(range(8)) and all(r["status"] == "ok" for r in data["rows"])
    # a third run finds everything done
    code, out, _ = run_cli(capsys, "sweep", *axes, *CHEAP, "--workers", "2", "--out", str(tmp_path), "--json")
    assert json.loads(out)["computed"] == 0 and journal.read_text().count("\n") == 8


def _figures(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")} for r in rows]


@pytest.mark.slow
def test_a_worker_killed_mid_sweep_changes_no_row(tmp_path, capsys):
    """kill -9 of a local worker while the sweep runs (what the OOM killer does): the sweep finishes, exit 0, and
    its rows are those of an uninterrupted run."""
    axes = ["--grid", "hit_soft_17=true,false", "--grid", "double=10-11,any", "--grid", "late_surrender=false,true"]
    argv = [sys.executable, "-m", "ev", "sweep", *axes, *CHEAP, "--workers", "2", "--out", str(tmp_path / "a"),
            "--json"]
    proc = subprocess.Popen(argv, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and time.monotonic() < deadline and proc.poll() is None:
        workers = _children(proc.pid)
        if len(workers) >= 2 and (tmp_path / "a" / "sweep.jsonl").exists():
            killed = int(workers[0])
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.02)
    out, err = proc.communicate(timeout=180)
    assert killed is not None and proc.returncode == 0, err
    code, again, _ = run_cli(capsys, "sweep", *axes, *CHEAP, "--workers", "1", "--out", str(tmp_path / "b"), "--json")
    assert code == 0 and _figures(json.loads(out)["rows"]) == _figures(json.loads(again)["rows"])
    assert json.loads(out)["computed"] == 8


@pytest.mark.slow
def test_a_signal_during_the_table_commit_keeps_the_previous_tables(tmp_path, capsys, monkeypatch):
    """SIGTERM while the tables are replaced: exit 143, and the previous run's tables are there, whole and
    together (the new rows are in the journal for the next run)."""
    import ev.present.files as files_module
    from ev.cli import Interrupted
    code, _, _ = run_cli(capsys, "sweep", "--grid", "hit_soft_17=true,false", *CHEAP, "--workers", "1",
                         "--out", str(tmp_path))
    assert code == 0
    before = {name: (tmp_path / name).read_bytes() for name in ("sweep.csv", "sweep.json", "sweep.parquet")}
    real = os.replace
    calls = []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise Interrupted(signal.SIGTERM)
        return real(src, dst)

    monkeypatch.setattr(files_module.os, "replace", replace)
    code, _, err = run_cli(capsys, "sweep", "--grid", "hit_soft_17=true,false", "--grid", "double=10-11,any",
                           *CHEAP, "--workers", "1", "--out", str(tmp_path))
    monkeypatch.undo()
    assert code == 143 and "terminated" in err
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    assert len((tmp_path / "sweep.jsonl").read_text().splitlines()) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, "sweep.jsonl"])


@pytest.mark.slow
def test_a_full_disk_during_the_journal_append_is_one_line(tmp_path, capsys, monkeypatch):
    import errno

    import ev.present.sweep_output as output_module
    code, _, _ = run_cli(capsys, "sweep", "--grid", "hit_soft_17=true,false", *CHEAP, "--workers", "1",
                         "--out", str(tmp_path))
    journal = (tmp_path / "sweep.jsonl").read_bytes()
    tables = (tmp_path / "sweep.csv").read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output_module.os, "write", full)
    code, out, err = run_cli(capsys, "sweep", "--grid", "hit_soft_17=true,false", "--grid", "double=10-11,any",
                             *CHEAP, "--workers", "1", "--out", str(tmp_path))
    monkeypatch.undo()
    assert code == 2 and err.count("\n") == 1 and "No space left on device" in err and not out
    assert (tmp_path / "sweep.jsonl").read_bytes() == journal and (tmp_path / "sweep.csv").read_bytes() == tables


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def test_rows_reach_the_caller_as_each_variant_finishes():
    """Two rule sets that play the same game (with a peek under ace and ten, what an unchecked blackjack
    would take never matters): two variants, two keys, the same figures and chart."""
    grid = Grid({"max_split_hands": 1, "peek": "ace_ten"}, {"unchecked_blackjack_takes": ["all", "original"]})
    options = SweepOptions()
    rows: list[dict] = []
    steps: list[str] = []
    with LocalExecutor(1) as ex:
        run = run_sweep(variants(grid, options), options, ex, rows.append,
                        progress=lambda k, note: steps.append(note))
    assert [r["variant"] for r in rows] == [0, 1] and steps == ["variant 0", "variant 1"]
    assert run.computed == 2 and run.invalid == 0 and run.variants_per_second > 0
    assert rows[0]["key"] != rows[1]["key"]
    assert rows[0]["ev"] == rows[1]["ev"] and rows[0]["chart_sha256"] == rows[1]["chart_sha256"]


# ----- the payout ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_target_rtp_gives_the_payout_and_the_range_where_it_holds(tmp_path, capsys):
    """One deck, no split: with A-T against an ace the dealer has blackjack with 15/49, so even money is
    declined for payouts above 1 / (1 - 15/49) = 49/34; 3:2 is above, 6:5 below."""
    code, out, err = run_cli(capsys, "sweep", "--grid", "blackjack_payout=3:2,6:5", *CHEAP, "--workers", "2",
                             "--target-rtp", "0.995", "--solve", "blackjack_payout", "--out", str(tmp_path), "--json")
    assert code == 0, err
    three_two, six_five = json.loads(out)["rows"]
    assert three_two["payout_range_low"] == "49/34" and three_two["payout_range_high"] is None
    assert three_two["even_money_taken"] is False
    assert six_five["payout_range_low"] == "0/1" and six_five["payout_range_high"] == "49/34"
    assert six_five["even_money_taken"] is True
    # 3:2: the payout that gives 99.5 % per total wagered, exactly, and above 3:2 (the game gives 99.25 %)
    b = Fraction(three_two["payout_for_target"])
    formula = sympy.sympify(three_two["rtp_total_wagered_of_payout"], locals={"b": B})
    assert formula.subs(B, sympy.Rational(b.numerator, b.denominator)) == sympy.Rational(995, 1000)
    assert Fraction(49, 34) <= b and 1.5 < three_two["payout_for_target_decimal"] < 1.6
    # at the rule set's own payout the formula is the exact RTP
    assert formula.subs(B, sympy.Rational(3, 2)) == sympy.Rational(*map(int, three_two["exact_rtp_total_wagered"]
                                                                        .split("/")))
    assert abs(float(Fraction(three_two["exact_rtp_total_wagered"])) - three_two["rtp_total_wagered"]) < 1e-12
    # 6:5: the formula's root lies above 49/34, where even money would be declined: no answer from this row
    assert six_five["payout_for_target"] is None and "49/34" in six_five["payout_note"]
    assert "would change" in six_five["payout_note"]


def test_a_twenty_digit_value_is_an_invalid_row_and_the_tables_are_written(tmp_path, capsys):
    """A rule value beyond 64 bits (an invalid variant) is written to Parquet as text; the rerun works too."""
    for _ in range(2):
        code, out, err = run_cli(capsys, "sweep", "--grid", "decks=1,99999999999999999999", *CHEAP, "--workers", "1",
                                 "--out", str(tmp_path), "--json")
        assert code == 0, err
        rows = json.loads(out)["rows"]
        assert [r["status"] for r in rows] == ["ok", "invalid"] and rows[1]["decks"] == 99999999999999999999
    import pyarrow.parquet as pq  # in the test extra
    assert pq.read_table(tmp_path / "sweep.parquet").to_pylist()[1]["decks"] == "99999999999999999999"
    assert "NaN" not in (tmp_path / "sweep.json").read_text()


def test_an_estimate_comes_before_a_long_sweep(tmp_path, capsys, monkeypatch):
    import ev.cli
    monkeypatch.setattr(ev.cli, "ESTIMATE_SHOWN", 0.0)
    code, _, err = run_cli(capsys, "sweep", "--grid", "decks=1,2", *CHEAP, "--workers", "1", "--out", str(tmp_path))
    assert code == 0 and "2 variants to compute on local, 1 process (in process): about " in err


def test_api_misuse_is_one_clear_error():
    """The Python API answers a wrong type with bjev's own one-line error, not a bare TypeError."""
    from ev.analysis.executors import DaskExecutor
    from ev.errors import BJEVError, MetadataError
    from ev.present.report.meta import check_meta
    with pytest.raises(RulesError, match="list of texts"):
        make_grid(axes="decks=1,2")
    with pytest.raises(RulesError, match="mapping"):
        make_grid(axes=["decks=1"], fixed=["decks=1"])
    with pytest.raises(RulesError, match="table of rule"):
        grid_from_mapping(["decks"])
    with pytest.raises(BJEVError, match="SweepOptions"), LocalExecutor(1) as ex:
        run_sweep([], "cdz", ex, lambda row: None)
    with pytest.raises(BJEVError, match="address"):
        DaskExecutor(scheduler=8786)
    with pytest.raises(MetadataError, match="table of field"):
        check_meta(["supplier"])


@pytest.mark.slow
def test_a_row_says_how_its_distribution_scored_resplits():
    """``distribution_method``: one split is scored exactly, and so are resplits to three hands on one deck (the
    SD that of the exact method to the bit); two decks resplitting to four hands are scored as independent given
    the dealer's outcome."""
    from ev.analysis.accounting import round_stats
    from ev.analysis.game import Game
    from ev.analysis.sweep import evaluate_variant
    from ev.core.rules import Rules
    options = SweepOptions()
    rows = [evaluate_variant(options, v) for grid in (Grid({}, {"max_split_hands": [2, 3]}),
                                                       Grid({"decks": 2, "max_split_hands": 4}, {}))
            for v in variants(grid, options)]
    assert [r["distribution_method"] for r in rows] == ["exact", "exact", "independent"]
    assert rows[1]["sd"] == round_stats(Game(Rules(max_split_hands=3)), "cdz", "exact").sd


# ----- without the outcome distribution (--no-distribution) --------------------------------------------------
#: rule sets of every kind a row meets: one split and resplits (where the full row's distribution is approximate),
#: DAS, surrender, no hole card, 6:5, eight decks, CDP1
NO_DISTRIBUTION_CASES = [
    ({}, "cdz"),
    ({"decks": 8, "double": "any", "double_after_split": True, "late_surrender": True}, "cdz"),
    ({"decks": 2, "max_split_hands": 4, "resplit_aces": True, "hit_soft_17": False}, "cdz"),
    ({"decks": 6, "peek": "none", "unchecked_blackjack_takes": "all", "blackjack_payout": "6:5"}, "cdp1"),
]


@pytest.mark.parametrize("changes,split", NO_DISTRIBUTION_CASES)
def test_a_row_without_the_distribution_has_the_same_figures_and_no_sd(changes, split):
    """``SweepOptions(distribution=False)``: E[W] and the RTP per total wagered from the play's exact stakes agree
    with the accounting's to 1e-13 (with resplits too, where the full row's distribution may be approximate but its
    E[W] is exact); the EV, the RTP per initial bet and the chart's figures are the full row's; SD, P(double) and
    P(split) are left empty, and the row says so."""
    from ev.analysis.sweep import _figures
    from ev.core.rules import Rules
    rules = Rules().replace(**changes)
    full = _figures(rules, SweepOptions(split))
    light = _figures(rules, SweepOptions(split, distribution=False))
    assert full["sd"] > 1 and 0 < full["p_double"] < 1 and 0 < full["p_split"] < 1
    assert light["sd"] is light["p_double"] is light["p_split"] is None
    assert light["distribution_method"] == "none" != full["distribution_method"]
    for key in ("rtp_total_wagered", "expected_total_wager", "chart_cost"):
        assert light[key] == pytest.approx(full[key], rel=0, abs=1e-13), key
    same = ("ev", "rtp_initial", "chart_ev", "chart_rtp_initial", "chart_rtp_total_wagered", "chart_sha256")
    assert {k: light[k] for k in same} == {k: full[k] for k in same}
    assert 1 < light["expected_total_wager"] < 1.2 and 0.95 < light["rtp_total_wagered"] < 1.01


def test_exact_figures_without_the_distribution_are_the_same_fractions():
    """With --exact, E[W] from the exact stakes is the accounting's fraction itself, and so is the payout formula."""
    from ev.analysis.sweep import _exact_figures
    from ev.core.rules import Rules
    rules = Rules(max_split_hands=1)
    assert (_exact_figures(rules, SweepOptions(exact=True, distribution=False))
            == _exact_figures(rules, SweepOptions(exact=True)))


def test_the_command_leaves_the_distribution_out_when_asked(tmp_path, capsys):
    code, out, err = run_cli(capsys, "sweep", "--grid", "hit_soft_17=true,false", "--no-distribution",
                             "--workers", "1", "--out", str(tmp_path / "light"), "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert all(r["sd"] is None and r["p_double"] is None and r["distribution_method"] == "none" for r in rows)
    assert abs(rows[0]["rtp_total_wagered"] - 0.995909138602730) < 1e-14       # the seed game's, as bjev rtp
    with open(tmp_path / "light" / "sweep.csv", newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert [(r["sd"], r["distribution_method"]) for r in table] == [("", "none")] * 2


# ----- shared dealer tables ----------------------------------------------------------------------------------
@pytest.mark.slow
def test_variants_sharing_the_dealers_tables_give_every_figure_to_the_bit():
    """A sweep worker's variants share the dealer's decks (ev.core.arithmetic.shared_dealers): each variant's
    figures, the outcome distribution's included, are those of the variant computed alone, to the bit, whatever
    the variants computed before it in the thread."""
    from ev.analysis.sweep import _figures
    from ev.core.arithmetic import shared_dealers
    from ev.core.rules import Rules
    options = SweepOptions()
    rules = [Rules(), Rules().replace(double="any", double_after_split=True, late_surrender=True)]
    alone = [_figures(r, options) for r in rules]
    with shared_dealers():
        after_each_other = [_figures(r, options) for r in rules]      # the second meets the first's decks
        again = _figures(rules[0], options)                             # every deck already kept
    assert after_each_other == alone and again == alone[0]
    assert alone[0]["ev"] != alone[1]["ev"]       # two games, not one computed twice


def test_dealer_tables_are_shared_within_one_thread_only_and_kept_bounded():
    import threading

    from ev.analysis.game import Game
    from ev.core.arithmetic import SHARED_TABLES, FloatArithmetic, dealer_store, shared_dealers
    A = FloatArithmetic()
    caps = (4, 4, 4, 4, 4, 4, 4, 4, 4, 15)
    assert dealer_store() is None and Game()._dealers is None          # outside the block: nothing shared
    assert A.dealer(9, True, 0, caps) is not A.dealer(9, True, 0, caps)
    outside = Game()
    with shared_dealers():
        store = dealer_store()
        assert store is not None and Game()._dealers is store
        table = A.dealer(9, True, 0, caps, store)
        assert A.dealer(9, True, 0, caps, store) is table
        assert A.dealer(9, False, 0, caps, store) is not table     # another dealer rule, another table
        assert outside._dealers is None     # a game made outside keeps its own tables, asked for here or not
        other: list = []
        thread = threading.Thread(target=lambda: other.append(_store_in_a_block()))
        thread.start()
        thread.join()
        assert other[0] is not None and other[0] is not store      # another thread, its own store
        for up in range(10):                                      # more tables than are kept
            for n in range(5):
                A.dealer(up, True, -1, tuple(c + n for c in caps), store)
        assert len(store.tables) == SHARED_TABLES
        assert A.dealer(9, True, 0, caps, store) is not table      # the oldest were let go
    assert dealer_store() is None
    made_inside = _game_in_a_block()
    assert made_inside._dealers is not None       # a game made inside shares, wherever its solvers are made


def _store_in_a_block():
    from ev.core.arithmetic import dealer_store, shared_dealers
    with shared_dealers():
        return dealer_store()


def _game_in_a_block():
    from ev.analysis.game import Game
    from ev.core.arithmetic import shared_dealers
    with shared_dealers():
        return Game()
