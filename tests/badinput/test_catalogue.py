"""Run the bad-input catalogue (badinput_cases.py): each case exits 2 with one short line and writes nothing.

For every case: exit code 2; nothing on stdout; exactly one line on stderr, of at most 300 characters, with
no traceback (and the expected words); nothing created, changed or removed in the case's directory (the
working directory and every output target of the case); an answer within TIME_LIMIT seconds.  Most cases
run in-process (``ev.cli.main``); those that need a real process (FIFOs, devices, non-UTF-8 argv) run
``python -m ev``.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from badinput_cases import CASES, DIR, FIFO, ISSUE, ISSUE_26, LOCKED_REPORT, NEW_SURFACES, TIME_LIMIT, Case

import ev
from ev.cli import MAX_ERROR_LINE, main
from ev.present.files import DirectoryTarget
from ev.present.report import FILES

ROOT = Path(ev.__file__).resolve().parent.parent


def _make(tmp: Path, files: dict) -> list:
    """Create the case's files; returns what must stay open (a held lock)."""
    held = []
    for name, contents in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if contents == DIR:
            path.mkdir()
        elif contents == FIFO:
            os.mkfifo(path)
        elif contents == LOCKED_REPORT:
            path.mkdir()
            for i, file in enumerate(FILES):
                (path / file).write_bytes(f"an earlier report, file {i}".encode())
            held.append(DirectoryTarget(path, FILES, "the report"))
        else:
            path.write_bytes(contents.encode() if isinstance(contents, str) else contents)
    return held


def snapshot(tmp: Path) -> dict:
    """Every entry under ``tmp``: its kind and, for a file, its size and contents' hash."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(tmp):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            info = os.lstat(path)
            kind = oct(info.st_mode >> 12)
            digest = ""
            if os.path.isfile(path) and not os.path.islink(path):
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            out[os.path.relpath(path, tmp)] = (kind, info.st_size if digest else 0, digest)
    return out


def run(c: Case, tmp: Path, capsys) -> tuple[int, str, str, float]:
    argv = [a.replace("{tmp}", str(tmp)) for a in c.argv]
    start = time.monotonic()
    if c.process:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        try:
            proc = subprocess.run([sys.executable, "-m", "ev", *argv], capture_output=True, cwd=tmp, env=env,
                                  timeout=TIME_LIMIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"no answer within {TIME_LIMIT} s")
        return (proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"),
                time.monotonic() - start)
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        code = main(argv)
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - start


# the cases that need a real process (a third of a second or more each) run in the whole suite only
@pytest.mark.parametrize("c", [pytest.param(c, marks=pytest.mark.slow) if c.process else c for c in CASES],
                         ids=[c.id for c in CASES])
def test_bad_input(c: Case, tmp_path: Path, capsys) -> None:
    held = _make(tmp_path, c.files)
    before = snapshot(tmp_path)
    try:
        code, out, err, seconds = run(c, tmp_path, capsys)
    finally:
        for target in held:
            target.close()
    assert "Traceback" not in err, err[-2000:]
    assert code == 2, (code, err[-500:])
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err[:1000]
    assert len(err) - 1 <= MAX_ERROR_LINE, err
    assert err.startswith("bjev: error: "), err
    assert c.words in err, err
    assert snapshot(tmp_path) == before, "something was written"
    assert seconds <= TIME_LIMIT


def test_catalogue_size_and_issue_cases() -> None:
    """At least 300 cases, every case the issue lists among them, and no case twice."""
    argvs = [c.argv for c in CASES]
    assert len(CASES) >= 300
    keys = [(c.argv, tuple(c.files), c.process) for c in CASES]
    assert len(set(keys)) == len(keys)
    for issue_case in ISSUE + ISSUE_26:
        assert tuple(issue_case) in argvs, issue_case
    # the surfaces of sweeps, executors and report metadata: at least 300 cases of their own
    sweep_rules = [c for c in CASES if c.argv[:1] == ("sweep",) and c not in NEW_SURFACES]
    assert len(NEW_SURFACES) + len(sweep_rules) >= 300
