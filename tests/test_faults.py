"""Faults: signals at several points of `bjev report` and `bjev simulate`, failures injected into the commit,
a commit cut short by a crash, a full disk, a mount point, two reports into one directory.

The signal tests run the real command (``python -m ev``, through a small hook that marks the moment the
command line is parsed) and look only at what a user sees: the exit code, one line on stderr, the files in
the output directory and its parent, and the process table (every child process the command started must
be gone).  They keep working whatever executor runs the simulation.
"""
from __future__ import annotations

import contextlib
import faulthandler
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ev
import ev.present.files as files_module
from ev.cli import main
from ev.core.rules import Rules
from ev.errors import OutputError
from ev.interrupts import signals_deferred
from ev.present.files import BACKUP, STAGING, DirectoryTarget
from ev.present.report import FILES

ROOT = Path(ev.__file__).resolve().parent.parent
#: a game without splits: its report reaches the simulation in a second or two (the faults do not depend on it)
QUICK_GAME = ("--set", "max_split_hands=1")
OLD = {name: f"the earlier report's {name}\n".encode() * (i + 1) for i, name in enumerate(FILES)}
NEW = {name: f"the new report's {name}\n".encode() for name in FILES}

# parse the command line, then write the process id to a marker file: the command is now running
HOOK = """
import os, sys
import ev.cli
build = ev.cli.build_parser
def marked():
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    return build()
ev.cli.build_parser = marked
sys.exit(ev.cli.main(sys.argv[2:]))
"""


def write_set(directory: Path, files: dict) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)


def contents(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in directory.iterdir()}


def leftovers(*directories: Path) -> list[str]:
    """bjev's temporary names (and the old implementation's) in these directories."""
    return [p.name for d in directories if d.exists() for p in d.iterdir()
            if p.name.startswith((STAGING, BACKUP, ".bjev-")) or ".tmp-" in p.name]


# ----- the commit ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("failing_call", [1, 2, 3, 4])
def test_failed_replace_leaves_the_old_set_whole(tmp_path, monkeypatch, failing_call):
    out = tmp_path / "r"
    write_set(out, OLD)
    (out / "notes.txt").write_text("mine")
    calls = []
    real = os.replace

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == failing_call:
            raise OSError(5, "Input/output error (injected)")
        real(src, dst)

    monkeypatch.setattr(files_module.os, "replace", replace)
    with DirectoryTarget(out, FILES, "the report") as target, pytest.raises(OutputError, match="injected"):
        target.commit(NEW)
    monkeypatch.undo()
    assert contents(out) == {**OLD, "notes.txt": b"mine"}
    assert leftovers(out, tmp_path) == []


@pytest.mark.parametrize("failing_file", [0, 2, 3])
def test_full_disk_while_staging_leaves_the_old_set_whole(tmp_path, monkeypatch, failing_file):
    out = tmp_path / "r"
    write_set(out, OLD)
    written = []
    real = files_module._write_new

    def write_new(path, data):
        written.append(path)
        if len(written) == failing_file + 1:
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(files_module, "_write_new", write_new)
    with DirectoryTarget(out, FILES, "the report") as target, pytest.raises(OutputError, match="No space"):
        target.commit(NEW)
    assert contents(out) == OLD and leftovers(out, tmp_path) == []


def test_failed_commit_into_a_new_directory_leaves_nothing(tmp_path, monkeypatch):
    real = os.replace
    calls = []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(5, "injected")
        real(src, dst)

    monkeypatch.setattr(files_module.os, "replace", replace)
    with DirectoryTarget(tmp_path / "a" / "r", FILES, "the report") as target, pytest.raises(OutputError):
        target.commit(NEW)
    assert list(tmp_path.iterdir()) == []


def test_commit_replaces_the_set_and_keeps_other_files(tmp_path):
    out = tmp_path / "r"
    write_set(out, OLD)
    (out / "notes.txt").write_text("mine")
    with DirectoryTarget(out, FILES, "the report") as target:
        target.commit(NEW)
    assert contents(out) == {**NEW, "notes.txt": b"mine"} and leftovers(out, tmp_path) == []


def test_a_commit_cut_short_by_a_crash_is_undone_by_the_next_run(tmp_path):
    """The state a SIGKILL in the middle of the swap leaves: two files new, the old set aside, the rest staged."""
    out = tmp_path / "r"
    write_set(out, OLD)
    backup, staging = out / f"{BACKUP}crash", out / f"{STAGING}crash"
    backup.mkdir()
    staging.mkdir()
    for name in FILES:
        os.link(out / name, backup / name)
    for name in FILES[:2]:
        (out / name).unlink()
        (out / name).write_bytes(NEW[name])
    for name in FILES[2:]:
        (staging / name).write_bytes(NEW[name])
    DirectoryTarget(out, FILES, "the report").close()
    assert contents(out) == OLD


def test_signals_wait_for_the_commit(tmp_path, monkeypatch):
    """SIGTERM in the middle of the swap: the swap finishes (the new set whole), then the signal is delivered."""
    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop

    out = tmp_path / "r"
    write_set(out, OLD)
    real = os.replace
    calls = []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
        real(src, dst)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        monkeypatch.setattr(files_module.os, "replace", replace)
        with DirectoryTarget(out, FILES, "the report") as target, pytest.raises(Stop):
            target.commit(NEW)
        with pytest.raises(Stop), signals_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert contents(out) == NEW and leftovers(out, tmp_path) == []


def _square(shared, unit):
    return unit * unit


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_that_surfaces_as_another_error_still_ends_as_interrupted(monkeypatch, capsys, sig):
    """CPython can turn the KeyboardInterrupt a signal raises into another error (raised while an import formats
    its ImportError, "TypeError: expected a message argument": seen once in CI as a traceback and exit 1 after a
    SIGINT at the start of `bjev simulate`); the command still ends as interrupted, in one line.  Without a
    signal, the same error is not hidden."""
    import ev.cli

    def interrupted_import(argv):
        try:
            ev.cli._on_signal(sig, None)            # what the signal does
        except KeyboardInterrupt:
            raise TypeError("expected a message argument") from None

    monkeypatch.setattr(ev.cli, "_run", interrupted_import)
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    assert main(["rtp"]) == 128 + sig
    assert capsys.readouterr().err == ("bjev: interrupted\n" if sig == signal.SIGINT else "bjev: terminated\n")
    assert {s: signal.getsignal(s) for s in before} == before      # the handlers are given back

    def failing(argv):
        raise TypeError("a bug")

    monkeypatch.setattr(ev.cli, "_run", failing)
    with pytest.raises(TypeError, match="a bug"):
        main(["rtp"])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_whose_interrupt_is_swallowed_still_ends_the_command(monkeypatch, capsys, sig):
    """A library may swallow the error an interrupt surfaced as (seen once in CI: SIGINT at the start of `bjev
    simulate`, which then ran its 10^9 rounds and exited 0 with its report).  Long work's progress checkpoints
    raise the interrupt again, and a command that finishes all the same writes nothing: one line, 128 + signal."""
    import ev.cli
    from ev import interrupts
    from ev.present.progress import Progress

    def swallowed():
        with contextlib.suppress(KeyboardInterrupt):   # a library on the way swallows it
            ev.cli._on_signal(sig, None)                # what the signal does

    def finishing(args):
        swallowed()
        return "the figures", {"ev": 0.0}

    ticks = []

    def working(args):
        swallowed()
        with Progress(10, "work", enabled=False) as bar:
            for i in range(10):
                bar.update(i)
                ticks.append(i)
        return "the figures", {"ev": 0.0}

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    line = "bjev: interrupted\n" if sig == signal.SIGINT else "bjev: terminated\n"
    for command in (finishing, working):
        monkeypatch.setattr(ev.cli, "cmd_rtp", command)
        assert main(["rtp"]) == 128 + sig
        assert capsys.readouterr() == ("", line)
        assert {s: signal.getsignal(s) for s in before} == before      # the handlers are given back
        assert interrupts.signalled is None
    assert ticks == []                              # the first checkpoint stopped the work
    # the next command, with no signal, is not taken for interrupted
    monkeypatch.setattr(ev.cli, "cmd_rtp", lambda args: ("the figures", None))
    assert main(["rtp"]) == 0 and capsys.readouterr() == ("the figures\n", "")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_inside_a_callback_is_not_printed_as_ignored(monkeypatch, capsys, sig):
    """A signal that lands inside a callback CPython cannot raise from (seen once in CI: a weakref callback of the
    import system, SIGINT at the start of `bjev report`) is handed to sys.unraisablehook, which printed "Exception
    ignored in" and a traceback above the one line; the command now ends as interrupted in that one line only.
    Any other unraisable error is still reported, and the hook is given back afterwards."""
    import gc

    import ev.cli

    class Callback:
        def __init__(self, error):
            self.error = error

        def __del__(self):
            if self.error is None:
                ev.cli._on_signal(sig, None)        # what the signal does, where it cannot propagate
            raise self.error

    def interrupted_in_a_callback(args):
        Callback(None)
        gc.collect()
        return "the figures", {"ev": 0.0}

    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)     # the default: it prints (pytest's warns)
    hook = sys.unraisablehook
    monkeypatch.setattr(ev.cli, "cmd_rtp", interrupted_in_a_callback)
    assert main(["rtp"]) == 128 + sig
    assert capsys.readouterr() == ("", "bjev: interrupted\n" if sig == signal.SIGINT else "bjev: terminated\n")
    assert sys.unraisablehook is hook

    def broken_callback(args):
        Callback(ValueError("a bug in a callback"))
        gc.collect()
        return "the figures", None

    monkeypatch.setattr(ev.cli, "cmd_rtp", broken_callback)
    assert main(["rtp"]) == 0
    out, err = capsys.readouterr()
    assert out == "the figures\n" and "Exception ignored in" in err and "a bug in a callback" in err


def test_a_signal_while_the_workers_start_leaves_no_worker(monkeypatch):
    """SIGTERM while the local pool starts (its workers forked, the pool not yet made): the pool is made whole
    first, the signal then stops the run, and every worker is gone (a half-made pool had no one to stop it; a
    worker forked while the signals were held must not keep the holding handler, which would swallow the
    SIGTERM that stops it).  The signal raises a KeyboardInterrupt, as the command line's handler does
    (``ev.cli.Interrupted``)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from ev.analysis.executors import LocalExecutor

    class Stop(KeyboardInterrupt):
        pass

    def stop(signum, frame):
        raise Stop

    real = ProcessPoolExecutor._spawn_process
    sent = []

    def spawn(self):
        real(self)
        if not sent:                    # the first worker is forked: the signal comes now
            sent.append(True)
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(ProcessPoolExecutor, "_spawn_process", spawn)
    results = []
    previous = signal.signal(signal.SIGTERM, stop)
    faulthandler.dump_traceback_later(60, exit=True)    # a worker that survives the stop hangs the join: fail
    try:
        with pytest.raises(Stop):
            LocalExecutor(2).run(_square, [1, 2, 3, 4], lambda index, result: results.append(result))
    finally:
        faulthandler.cancel_dump_traceback_later()
        signal.signal(signal.SIGTERM, previous)
    assert sent and results == []
    assert multiprocessing.active_children() == []


# ----- signals to the real commands ----------------------------------------------------------------------
def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry))
    return out


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def interrupt(tmp: Path, argv: list[str], sig: int, point: str) -> tuple[int, str, str, set[int]]:
    """Run ``bjev argv`` in ``tmp``, send ``sig`` at ``point``; the exit code, stdout, stderr and every child seen.

    Points: "start" (the command line is parsed), "working" (a second later), "simulating" (two worker
    processes are running, half a second after they appeared).
    """
    marker = tmp / "started"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", HOOK, str(marker), *argv], cwd=tmp, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 180
        while not (marker.exists() and marker.read_text()):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.02)
        wait = {"start": 0.0, "working": 1.0}.get(point, 0.5)
        if point == "simulating":            # two workers at once (not a passing git or font-cache child)
            while len(children(proc.pid)) < 2:
                assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
                time.sleep(0.02)
        end = time.monotonic() + wait
        while time.monotonic() < end:
            seen |= children(proc.pid)
            time.sleep(0.02)
        seen |= children(proc.pid)
        assert proc.poll() is None, "the command finished before the signal"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out.decode(), err.decode(), seen


def assert_stopped_cleanly(code: int, out: str, err: str, sig: int, seen: set[int]) -> None:
    assert code == 128 + sig, (code, err)
    # a long simulation states its time estimate first (docs/simulation.md); then the one line of the signal
    err = re.sub(r"\Abjev: [0-9.e+]+ rounds on \d+ worker\(s\): about [^\n]*\n", "", err)
    assert err == ("bjev: interrupted\n" if sig == signal.SIGINT else "bjev: terminated\n"), err
    assert out == ""
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in seen if alive(pid)], "worker processes left behind"


SIGNALS = pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])


@pytest.mark.slow
@SIGNALS
@pytest.mark.parametrize("point", ["start", "working", "simulating"])
def test_signal_to_report_keeps_the_existing_report(tmp_path, sig, point):
    out = tmp_path / "r"
    write_set(out, OLD)
    argv = ["report", "--out", str(out), "--skip-rules-effect", "--simulate-rounds", "5e8", "--workers", "2",
            *QUICK_GAME]
    code, stdout, err, seen = interrupt(tmp_path, argv, sig, point)
    assert_stopped_cleanly(code, stdout, err, sig, seen)
    if point == "simulating":
        assert seen, "no worker process was seen"
    assert contents(out) == OLD, "the existing report was changed"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r", "started"]


@pytest.mark.slow
@SIGNALS
@pytest.mark.parametrize("point", ["start", "working"])
def test_signal_to_a_new_report_leaves_nothing(tmp_path, sig, point):
    argv = ["report", "--out", str(tmp_path / "new" / "r"), "--skip-rules-effect", "--simulate-rounds", "5e8",
            *QUICK_GAME]
    code, stdout, err, seen = interrupt(tmp_path, argv, sig, point)
    assert_stopped_cleanly(code, stdout, err, sig, seen)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["started"]


@pytest.mark.slow
@SIGNALS
@pytest.mark.parametrize("point", ["start", "simulating"])
def test_signal_to_simulate_stops_the_workers(tmp_path, sig, point):
    argv = ["simulate", "--rounds", "1e9", "--workers", "2", "--seed", "1"]
    code, stdout, err, seen = interrupt(tmp_path, argv, sig, point)
    assert_stopped_cleanly(code, stdout, err, sig, seen)
    if point == "simulating":
        assert len(seen) >= 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["started"]


@pytest.mark.slow
def test_second_report_into_the_same_directory_is_refused(tmp_path):
    """While one report runs into r/, a second one says so in one line and exits 2; the first is then stopped."""
    marker, out = tmp_path / "started", tmp_path / "r"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-c", HOOK, str(marker), "report", "--out", str(out),
                              "--skip-rules-effect", "--simulate-rounds", "5e8"], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() or not marker.exists():
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.5)
        second = subprocess.run([sys.executable, "-m", "ev", "report", "--out", str(out), "--simulate-rounds", "0"],
                                cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
        assert "another bjev is writing there" in second.stderr
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=60) == 143
    finally:
        if first.poll() is None:
            first.kill()
        first.communicate()
    assert not out.exists()


# ----- a full disk and a mount point (a small tmpfs; skipped where mounting is not allowed) ----------------
@pytest.fixture
def tmpfs(tmp_path):
    mount = tmp_path / "mnt"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root and mount rights): {proc.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(mount: Path, leave: int) -> None:
    """Fill the file system of ``mount`` but ``leave`` bytes."""
    stat = os.statvfs(mount)
    free = stat.f_bavail * stat.f_frsize
    with open(mount / "filler", "wb") as f:
        f.write(b"\0" * max(free - leave, 0))


@pytest.mark.slow
def test_report_on_a_mount_point_and_on_a_full_disk(tmpfs, monkeypatch, capsys):
    import ev.present.report as report_pkg
    model = report_pkg.build_report(Rules(max_split_hands=1), simulate_rounds=0, sensitivity=False)
    monkeypatch.setattr(report_pkg, "build_report", lambda rules, **kwargs: model)
    # --out is the mount point itself: everything happens inside it (no cross-device rename)
    assert main(["report", "--out", str(tmpfs), "--simulate-rounds", "0", "--skip-rules-effect"]) == 0, \
        capsys.readouterr().err
    capsys.readouterr()
    first = contents(tmpfs)
    assert sorted(first) == sorted(FILES)
    json.loads(first["report.json"])
    fill(tmpfs, 40_000)
    assert main(["report", "--out", str(tmpfs), "--simulate-rounds", "0", "--skip-rules-effect",
                 "--lang", "de"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err, err
    (tmpfs / "filler").unlink()
    assert contents(tmpfs) == first and leftovers(tmpfs) == []


@pytest.mark.slow
def test_regenerate_on_a_full_disk_leaves_the_tables_whole(tmpfs, capsys):
    tables = tmpfs / "tables"
    tables.mkdir()
    old = {p.name: p.read_bytes() for p in (ROOT / "tables").iterdir()}
    for name, data in old.items():
        (tables / name).write_bytes(b"old " + data[:100])
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in tables.iterdir()}
    fill(tmpfs, 100_000)
    assert main(["regenerate", "--out", str(tables)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err, err
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in tables.iterdir()} == before
    assert leftovers(tables, tmpfs) == []


@pytest.mark.slow
@pytest.mark.parametrize("argv, point", [
    # (rule sets that keep the command working for more than the second before the signal)
    (["rules-effect", "--set", "decks=8", "--set", "max_split_hands=4"], "working"),
    (["rtp", "--exact", "--set", "decks=8"], "working"),
    (["chart", "--format", "png", "--out", "chart.png"], "start"),
    (["regenerate", "--out", "tables"], "start"),
    (["hand", "8,8", "--up", "6", "--exact", "--set", "decks=8", "--set", "max_split_hands=4"], "start"),
], ids=lambda v: v if isinstance(v, str) else " ".join(v[:2]))
def test_sigterm_stops_every_command_cleanly(tmp_path, argv, point):
    code, stdout, err, seen = interrupt(tmp_path, argv, signal.SIGTERM, point)
    assert_stopped_cleanly(code, stdout, err, signal.SIGTERM, seen)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["started"]
