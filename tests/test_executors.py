"""The local executor: every unit once, results as they finish, no worker left behind; the Dask options' checks.

The Dask executor itself runs against a real LocalCluster in tests/test_cluster.py.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time

import pytest

from ev.analysis.executors import DependencyError, LocalExecutor, executor_for, max_workers
from ev.cli import main
from ev.errors import BJEVError


def square_plus(shared: int, unit: int) -> tuple[int, int]:
    """A work unit: (unit^2 + shared, the worker's pid)."""
    return unit * unit + shared, os.getpid()


def fail_on_three(shared: None, unit: int) -> int:
    if unit == 3:
        raise ValueError("unit 3 fails")
    time.sleep(0.05)
    return os.getpid()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("workers", [1, 2])
def test_every_unit_once_with_the_shared_value(workers):
    seen: dict[int, int] = {}
    pids = set()

    def on_result(index: int, result: tuple[int, int]) -> None:
        assert index not in seen
        seen[index] = result[0]
        pids.add(result[1])

    with LocalExecutor(workers) as ex:
        ex.run(square_plus, list(range(10)), on_result, shared=100)
    assert seen == {i: i * i + 100 for i in range(10)}
    if workers == 1:
        assert pids == {os.getpid()}                 # one worker runs in this process
    else:
        assert os.getpid() not in pids and len(pids) <= 2
        assert all(_gone(pid) for pid in pids)
    assert multiprocessing.active_children() == []


def test_an_exception_in_a_unit_stops_every_worker():
    pids: list[int] = []
    with pytest.raises(ValueError, match="unit 3 fails"), LocalExecutor(2) as ex:
        ex.run(fail_on_three, list(range(40)), lambda i, pid: pids.append(pid))
    assert multiprocessing.active_children() == []
    assert len(pids) < 39 and all(_gone(pid) for pid in set(pids))


def test_an_interrupt_while_collecting_stops_every_worker():
    pids: list[int] = []

    def on_result(index: int, pid: int) -> None:
        pids.append(pid)
        if len(pids) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), LocalExecutor(2) as ex:
        ex.run(fail_on_three, [0, 1, 2, 4, 5, 6, 7, 8, 9, 10], on_result)
    assert len(pids) == 2 and all(_gone(pid) for pid in set(pids))
    assert multiprocessing.active_children() == []


def killed_once(marker_dir: str, unit: int) -> int:
    """Unit 3 kills its worker (SIGKILL, as the OOM killer does) the first time it runs; every unit returns 2 unit."""
    marker = os.path.join(marker_dir, f"killed-{unit}")
    if unit == 3 and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.02)
    return 2 * unit


def killed_always(shared: None, unit: int) -> int:
    if unit == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return unit


def test_a_worker_killed_from_outside_has_its_units_run_again(tmp_path):
    """A worker that dies without answering is noticed at once (no hang): the units it had not finished run in a
    fresh pool, each result comes back once."""
    got: dict[int, int] = {}

    def on_result(index: int, value: int) -> None:
        assert index not in got
        got[index] = value

    with LocalExecutor(2) as ex:
        ex.run(killed_once, list(range(12)), on_result, shared=str(tmp_path))
    assert got == {i: 2 * i for i in range(12)} and (tmp_path / "killed-3").exists()
    assert multiprocessing.active_children() == []


def test_a_worker_that_keeps_dying_stops_the_run_with_one_line():
    got: list[int] = []
    start = time.monotonic()
    with pytest.raises(BJEVError, match="died without answering 3 times") as info, LocalExecutor(2) as ex:
        ex.run(killed_always, list(range(6)), lambda i, v: got.append(v))
    assert "\n" not in str(info.value) and 1 not in got and time.monotonic() - start < 30
    assert multiprocessing.active_children() == []


def test_worker_counts_are_checked():
    assert LocalExecutor(2).workers == 2
    assert LocalExecutor().workers >= 1
    with pytest.raises(BJEVError, match="too many"):
        LocalExecutor(max_workers() + 1)
    with pytest.raises(BJEVError, match="positive"):
        LocalExecutor(0)
    with pytest.raises(BJEVError, match="choose one"):
        executor_for(workers=2, dask_local=2)


def test_without_dask_the_cluster_options_say_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)          # import distributed -> ImportError
    with pytest.raises(DependencyError, match="pip install"):
        executor_for(scheduler="tcp://127.0.0.1:1")
    for option in (["--scheduler", "tcp://127.0.0.1:1"], ["--dask-local", "2"]):
        code = main(["simulate", "--rounds", "1000", "--seed", "1", *option])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and err.count("\n") == 1
        assert 'pip install -e ".[cluster]"' in err and option[0] in err
    # the local executor needs nothing more
    assert main(["simulate", "--rounds", "1000", "--seed", "1", "--workers", "1", "--json"]) == 0


def test_the_executor_options_exclude_each_other(capsys):
    code = main(["simulate", "--rounds", "1000", "--workers", "2", "--dask-local", "2"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "not allowed with" in err


# ----- --scheduler: addresses that are not a Dask scheduler (loopback only) ---------------------------------
class _Server:
    """A TCP server on the loopback that accepts and then stays silent, or answers with an HTTP reply."""

    def __init__(self, reply: bytes | None) -> None:
        import socket
        import threading
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.reply, self.conns = reply, []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            if self.reply:
                conn.sendall(self.reply)

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
        self.sock.close()


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("kind", ["silent", "http", "closed", "not tcp"])
@pytest.mark.slow
def test_a_scheduler_address_without_a_scheduler_is_one_line_within_seconds(kind, tmp_path, capsys):
    pytest.importorskip("distributed")
    server = _Server(None if kind == "silent" else b"HTTP/1.1 200 OK\r\n\r\nhello\n") \
        if kind in ("silent", "http") else None
    port = server.port if server else _free_port()
    address = f"tcp://127.0.0.1:{port}" if kind != "not tcp" else f"http://127.0.0.1:{port}"
    start = time.monotonic()
    try:
        code = main(["sweep", "--grid", "decks=1", "--set", "max_split_hands=1", "--scheduler", address,
                     "--out", str(tmp_path / "s")])
    finally:
        if server:
            server.close()
    _, err = capsys.readouterr()
    words = {"silent": "not as a Dask scheduler", "http": "not as a Dask scheduler", "closed": "refused",
             "not tcp": "tcp://HOST:PORT"}[kind]
    assert code == 2 and err.count("\n") == 1 and words in err and len(err) <= 301, err
    assert time.monotonic() - start < 9 and not (tmp_path / "s").exists()
