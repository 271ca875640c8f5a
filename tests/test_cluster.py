"""The Dask path against a real dask.distributed LocalCluster (2 worker processes) started here.

* an 8-variant sweep through a Dask scheduler (``--scheduler``) equals the same
  sweep on local processes, and each variant's single ``bjev rtp``;
* killing a worker process in the middle of a Dask sweep still gives every
  variant once, with the same figures;
* 10^7 simulated rounds with a fixed seed give the same integer tallies on 1 and
  2 local workers, on the cluster, and through ``bjev simulate --dask-local 2``.

dask[distributed] is in the test extra.  The tests share one cluster (one xdist group).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import time

import pytest

from ev.analysis.executors import DaskExecutor
from ev.analysis.game import Game
from ev.analysis.simulation import SimulationResult, simulate
from ev.analysis.strategy import optimal_policy
from ev.analysis.sweep import TIMES, Grid, SweepOptions, run_sweep, variants
from ev.cli import main
from ev.core.rules import FIELD_NAMES, Rules

pytestmark = pytest.mark.xdist_group("dask-cluster")

AXES = {"hit_soft_17": ["true", "false"], "double": ["10-11", "any"], "late_surrender": ["false", "true"]}
GRID = [arg for name, values in AXES.items() for arg in ("--grid", f"{name}={','.join(values)}")]
CHEAP = ["--set", "max_split_hands=1"]           # one deck, no split: cheap variants


@pytest.fixture(scope="module")
def cluster():
    with DaskExecutor(local_workers=2) as executor:
        yield executor


def sweep_json(out, *executor_args) -> dict:
    """``bjev sweep --json`` of the 8-variant grid into ``out``."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(["sweep", *GRID, *CHEAP, "--out", str(out), "--json", *executor_args])
    assert code == 0
    return json.loads(buffer.getvalue())


@pytest.fixture(scope="module")
def local_rows(tmp_path_factory):
    data = sweep_json(tmp_path_factory.mktemp("local"), "--workers", "2")
    assert data["computed"] == 8 and data["executor"] == "local, 2 processes"
    return data["rows"]


def without_time(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in TIMES} for row in rows]


@pytest.mark.slow
def test_a_dask_sweep_equals_the_local_sweep_and_bjev_rtp(cluster, local_rows, tmp_path, capsys):
    data = sweep_json(tmp_path, "--scheduler", cluster.address)
    assert data["computed"] == 8 and data["executor"].startswith(f"dask, scheduler {cluster.address}")
    assert without_time(data["rows"]) == without_time(local_rows)
    assert len({row["chart_sha256"] for row in local_rows}) > 1
    for i, row in enumerate(local_rows):
        sets = [arg for name in AXES for arg in ("--set", f"{name}={str(row[name]).lower()}")]
        code = main(["rtp", *sets, *CHEAP, "--json"])
        rtp = json.loads(capsys.readouterr().out)
        assert code == 0 and rtp["rules"] == {k: row[k] for k in rtp["rules"]}
        for key, theirs in (("ev", "ev"), ("rtp_initial", "rtp_initial"), ("rtp_total_wagered", "rtp_total_wagered"),
                            ("expected_total_wager", "expected_total_wager"), ("sd", "sd"), ("p_double", "p_double"),
                            ("p_split", "p_split")):
            assert row[key] == rtp[theirs], (i, key)
        if i % 4 == 0:                           # the chart's figures: as bjev rtp --strategy basic gives them
            main(["rtp", *sets, *CHEAP, "--strategy", "basic", "--json"])
            basic = json.loads(capsys.readouterr().out)
            assert row["chart_ev"] == basic["ev"] and row["chart_cost"] == basic["ev_cost_of_chart"]
            assert row["chart_rtp_total_wagered"] == basic["rtp_total_wagered"]


@pytest.mark.slow
def test_killing_a_worker_in_the_middle_of_a_dask_sweep(cluster, local_rows):
    """SIGKILL one worker process while it holds a variant: Dask runs it again; every variant comes back once."""
    grid = Grid({"max_split_hands": 1}, {"hit_soft_17": [True, False], "double": ["10-11", "any"],
                                         "blackjack_payout": ["3:2"], "late_surrender": [False, True]})
    options = SweepOptions()
    client = cluster.client
    client.wait_for_workers(2)
    pids = client.run(os.getpid)
    rows: list[dict] = []
    killed: list[tuple[str, int, int]] = []

    def on_row(row: dict) -> None:
        rows.append(row)
        if not killed:
            busy = {addr: keys for addr, keys in client.processing().items() if keys}
            addr = next(iter(busy))
            os.kill(pids[addr], signal.SIGKILL)
            killed.append((addr, pids[addr], len(busy[addr])))

    run = run_sweep(variants(grid, options), options, cluster, on_row)
    assert killed and killed[0][2] >= 1                   # the killed worker was running a variant
    assert run.computed == 8 and sorted(r["variant"] for r in rows) == list(range(8))
    local = {tuple(r[name] for name in FIELD_NAMES): r for r in local_rows}   # the same variants, numbered apart
    for row in rows:
        theirs = local[tuple(row[name] for name in FIELD_NAMES)]
        assert {k: row[k] for k in theirs if k not in ("variant", *TIMES)} == {
            k: v for k, v in theirs.items() if k not in ("variant", *TIMES)}
    deadline = time.monotonic() + 60                      # the nanny starts a new worker process
    while time.monotonic() < deadline and killed[0][1] in client.run(os.getpid).values():
        time.sleep(0.2)
    assert killed[0][1] not in client.run(os.getpid).values()


def tallies(sim: SimulationResult) -> tuple:
    return (sim.rounds, sim.net_tenths, sim.net_sq, sim.wager_tenths, sim.wager_sq, sim.net_wager,
            sorted(sim.histogram.items()), sim.rounds_double, sim.rounds_split, sim.rounds_insurance,
            sim.rounds_even_money, sim.rounds_player_blackjack, sim.rounds_dealer_blackjack, sim.rounds_surrender)


@pytest.mark.slow
def test_ten_million_rounds_give_the_same_tallies_on_every_executor(cluster, capsys):
    rules = Rules()
    table = optimal_policy(Game(rules))
    seed = 20261201
    one = simulate(rules, 10 ** 7, seed=seed, workers=1, strategy=table)
    two = simulate(rules, 10 ** 7, seed=seed, workers=2, strategy=table)
    cluster.client.wait_for_workers(2)
    on_dask = simulate(rules, 10 ** 7, seed=seed, strategy=table, executor=cluster)
    assert tallies(one) == tallies(two) == tallies(on_dask)
    assert one.chunks == two.chunks == 10 and one.chunk_rounds == 1 << 20
    assert on_dask.executor.startswith("dask") and two.executor == "local, 2 processes"
    assert sum(one.histogram.values()) == 10 ** 7
    code = main(["simulate", "--rounds", "1e7", "--seed", str(seed), "--dask-local", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["executor"].startswith("dask, LocalCluster") and data["chunks"] == 10
    t = data["tallies"]
    assert (t["net_tenths"], t["net_sq_hundredths"], t["wager_tenths"], t["rounds_split"], t["rounds_double"]) == (
        one.net_tenths, one.net_sq, one.wager_tenths, one.rounds_split, one.rounds_double)
    assert {int(k): v for k, v in t["histogram_tenths"].items()} == one.histogram


@pytest.mark.slow
def test_a_local_cluster_leaves_no_scratch_space(tmp_path, monkeypatch):
    """Dask's scratch space goes into a temporary directory of bjev's own, removed when the executor closes."""
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with DaskExecutor(local_workers=1) as executor:
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("bjev-dask-")]
        executor.run(lambda shared, unit: unit + shared, [1, 2], lambda i, r: None, shared=1)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_local_cluster_logs_nothing_in_this_process_until_it_has_closed():
    """The scheduler and the nannies of --dask-local run in bjev's process: while the cluster lives and while it
    closes (a worker stopped by a signal makes them log closed connections with tracebacks at INFO), Dask's
    loggers here are quiet; afterwards they are as they were."""
    import logging
    log = logging.getLogger("distributed.batched")
    before = logging.getLogger("distributed").level
    with DaskExecutor(local_workers=1) as executor:
        assert not log.isEnabledFor(logging.INFO) and not log.isEnabledFor(logging.ERROR)
        executor.close()
        assert logging.getLogger("distributed").level == before
    assert logging.getLogger("distributed").level == before


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_to_the_process_group_of_a_dask_sweep_is_one_line(tmp_path, sig):
    """A Ctrl-C (or SIGTERM) at the terminal reaches bjev and every Dask process of --dask-local: bjev stops the
    cluster and says so in one line; no worker prints a traceback, none is left, no scratch space is left."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "TMPDIR": str(tmp_path)}
    argv = [sys.executable, "-m", "ev", "sweep", *GRID, "--grid", "decks=1,2,6,8", "--dask-local", "2",
            "--out", str(tmp_path / "s")]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not (tmp_path / "s" / "sweep.jsonl").exists():
        time.sleep(0.1)
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    text = err.decode()
    assert proc.returncode == 128 + sig and text.strip() in ("bjev: interrupted", "bjev: terminated"), text
    deadline = time.monotonic() + 10          # the workers' last moments after bjev has gone
    while time.monotonic() < deadline:
        left = subprocess.run(["pgrep", "-a", "-g", str(proc.pid)], capture_output=True, text=True).stdout
        if not left:
            break
        time.sleep(0.2)
    assert left == "" and not [p for p in tmp_path.iterdir() if "dask" in p.name]


def _slow(shared: float, unit: int) -> int:
    time.sleep(shared)
    return unit


@pytest.mark.slow
def test_units_longer_than_the_watch_interval(cluster, monkeypatch):
    """The run looks at the cluster every WATCH_SECONDS while no unit finishes: units that take longer are waited
    for, not an error."""
    import ev.analysis.executors as executors
    monkeypatch.setattr(executors, "WATCH_SECONDS", 0.2)
    got: list[int] = []
    cluster.run(_slow, [0, 1, 2], lambda i, r: got.append(r), shared=1.0)
    assert sorted(got) == [0, 1, 2]
