"""Every command shown in README.md runs, from the repository root, within its time limit.

The commands are read from the README itself: the indented lines that start with ``bjev`` or ``python``
and the fenced ``python`` blocks.  ``bjev`` runs as ``python -m ev`` from the root (the source tree is the
package there, as after the README's ``pip install -e .``).  Commands that write files write them to a
temporary directory instead (``--out`` rewritten; ``bjev report`` and ``bjev regenerate`` given one), and
``my-table.toml`` is a rule file made for the test.  The set-up lines (``pip install``, ``pytest``) are
what runs this test and are left out.  The benchmarks run with ``--quick`` (the smallest work, once), as
the README says.  Commands that take more than a few seconds are marked slow.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import ev

ROOT = Path(ev.__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SET_UP = ("pip ", "pytest")

#: seconds allowed per command, by prefix (first match); quick commands take the default
TIME_LIMITS = [("bjev report", 900), ("bjev rules-effect", 300), ("python benchmarks/bench_exact", 300),
               ("bjev rtp --exact", 300), ("bjev simulate", 300), ("bjev chart", 300), ("bjev regenerate", 300),
               ("bjev rtp --strategy basic", 300), ("python benchmarks", 300), ("python -c", 300)]
DEFAULT_LIMIT = 60
#: two commands stay in the quick loop (-m "not slow"); the others take seconds to minutes each
QUICK = re.compile(r"^(bjev hand T,6 --up T|python -m ev --help)$")


def readme_commands() -> list[str]:
    """The command lines of the README's indented blocks, and each fenced python block as ``python -c``."""
    commands, fence, block = [], None, []
    for line in README.splitlines():
        if line.startswith("```"):
            if fence == "python":
                commands.append("python -c " + shlex.quote("\n".join(block)))
            fence, block = (line[3:].strip() or "text", []) if fence is None else (None, [])
            continue
        if fence is not None:
            block.append(line)
        elif line.startswith("    ") and line.strip().startswith(("bjev ", "python ")):
            command = re.split(r"\s{2,}#", line.strip())[0].strip()
            if command not in commands:
                commands.append(command)
    return commands


COMMANDS = readme_commands()


def prepared(command: str, tmp: Path) -> list[str]:
    """The argv to run from the root: bjev as python -m ev, outputs and the rules file in ``tmp``."""
    argv = shlex.split(command)
    if argv[0] == "bjev":
        argv = [sys.executable, "-m", "ev", *argv[1:]]
    elif argv[0] == "python":
        argv = [sys.executable, *argv[1:]]
        if argv[1].startswith("benchmarks/"):     # the smallest work, once (README, "Benchmarks")
            argv.append("--quick")
    for i, arg in enumerate(argv):
        if arg.startswith("tcp://SCHEDULER_HOST:"):     # the placeholder: the loopback here, never another host
            argv[i] = arg.replace("SCHEDULER_HOST", "127.0.0.1")
        if argv[i - 1] == "--out":
            argv[i] = str(tmp / arg)
        if arg == "grid.toml":          # the README's example grid, kept small here
            (tmp / arg).write_text('blackjack_payout = ["3:2", "6:5"]\n')
            argv[i] = str(tmp / arg)
        if arg == "game.toml":          # the README's example metadata file
            (tmp / arg).write_text('supplier = "Example Games Ltd"\ngame_id = "BJ-1"\nmin_bet = 1\nmax_bet = 500\n')
            argv[i] = str(tmp / arg)
        if arg == "my-table.toml":
            (tmp / arg).write_text('[rules]\ndecks = 2\nhit_soft_17 = false\nlate_surrender = true\n')
            argv[i] = str(tmp / arg)
    if argv[3:4] in (["report"], ["regenerate"], ["sweep"]) and "--out" not in argv:
        argv += ["--out", str(tmp / argv[3])]
    return argv


def limit(command: str) -> int:
    return next((seconds for prefix, seconds in TIME_LIMITS if command.startswith(prefix)), DEFAULT_LIMIT)


def test_the_readme_shows_commands():
    assert len(COMMANDS) >= 30
    assert any(c.startswith("python -c") for c in COMMANDS)
    assert "bjev hand A,K --up A --removed 2,3,4,5 --exact --json" in COMMANDS
    setup = [line.strip() for line in README.splitlines() if line.startswith("    pip ")]
    assert setup == ["pip install -e . && bjev rtp", 'pip install -e ".[test]" && pytest -q']
    assert 'pip install -e ".[test]" && pytest -q' in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("command", [c if QUICK.match(c) else pytest.param(c, marks=pytest.mark.slow)
                                     for c in COMMANDS], ids=lambda c: c.splitlines()[0][:70])
def test_readme_command(command, tmp_path):
    argv = prepared(command, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=limit(command))
    if "--scheduler" in argv:       # the example scheduler is not there: one line, exit 2
        assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0, proc.stderr[-3000:]
        assert "cannot reach the Dask scheduler" in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    if "--json" in argv:
        json.loads(proc.stdout)
    elif not command.startswith("python -c"):     # the API snippets print nothing
        assert proc.stdout.strip()
    for i, arg in enumerate(argv):
        if i and argv[i - 1] == "--out":
            assert Path(arg).exists() and (not Path(arg).is_dir() or any(Path(arg).iterdir())), arg


def test_examples_contact_the_loopback_only():
    """A command the README runs (tests/test_readme.py runs them) names no host but a placeholder
    (SCHEDULER_HOST, run here as 127.0.0.1; HOST in prose) or 127.0.0.1."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    hosts = set(re.findall(r"tcp://([^:/\s`]+)", text))
    assert hosts <= {"127.0.0.1", "HOST", "SCHEDULER_HOST"}, hosts
