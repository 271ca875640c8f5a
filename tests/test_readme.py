"""Every command shown in README.md and docs/*.md runs, from the repository root, within its time limit.

The commands are read from the README and the pages of docs/ themselves: the indented lines that start
with ``bjev`` or ``python`` and the fenced ``python`` blocks.  Each runs as written, in a working
directory that looks like the repository root (its files and folders linked in; ``tables/`` copied, as
``bjev regenerate`` writes there), so that what a command writes (``--out chart.html``, ``report/``,
``sweep/``) lands in a temporary directory and never in the repository; the files a command reads are
the repository's own (``examples/``, ``benchmarks/``).  ``bjev`` runs as ``python -m ev`` with the source
tree on the path (the package, as after the README's ``pip install -e .``).  The set-up lines (``pip
install``, ``pytest``) are what runs this test and are left out.  The benchmarks run with ``--quick`` (the
smallest work, once), as docs/benchmarks.md says, and the placeholder scheduler host as the loopback.
Commands that take more than a few seconds are marked slow.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ev

ROOT = Path(ev.__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: the README, then every page of docs/: each is documentation a user copies commands from
PAGES = [README] + [page.read_text(encoding="utf-8") for page in sorted((ROOT / "docs").glob("*.md"))]
SET_UP = ("pip ", "pytest")

#: seconds allowed per command, by prefix (first match); quick commands take the default
TIME_LIMITS = [("bjev report", 900), ("bjev rules-effect", 300), ("python benchmarks/bench_exact", 300),
               ("bjev rtp --exact", 300), ("bjev simulate", 300), ("bjev chart", 300), ("bjev regenerate", 300),
               ("bjev rtp --strategy basic", 300), ("python benchmarks", 300), ("python -c", 300), ("bjev sweep", 300)]
DEFAULT_LIMIT = 60
#: two commands stay in the quick loop (-m "not slow"); the others take seconds to minutes each
QUICK = re.compile(r"^(bjev hand T,6 --up T|python -m ev --help)$")


def readme_commands() -> list[str]:
    """The command lines of the indented blocks of the README and docs/, and each fenced python block as
    ``python -c``."""
    commands, fence, block = [], None, []
    for line in "\n".join(PAGES).splitlines():
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


def workdir(tmp: Path) -> Path:
    """A directory that reads as the repository root: every top-level entry linked, ``tables/`` copied."""
    root = tmp / "repo"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name == "tables":
            shutil.copytree(entry, root / entry.name)
        elif not entry.name.startswith("."):
            (root / entry.name).symlink_to(entry)
    return root


def prepared(command: str) -> list[str]:
    """The argv to run: bjev as python -m ev; the placeholder host as the loopback; benchmarks quick."""
    argv = shlex.split(command)
    if argv[0] == "bjev":
        argv = [sys.executable, "-m", "ev", *argv[1:]]
    elif argv[0] == "python":
        argv = [sys.executable, *argv[1:]]
        if argv[1].startswith("benchmarks/"):     # the smallest work, once (docs/benchmarks.md)
            argv.append("--quick")
    for i, arg in enumerate(argv):
        if arg.startswith("tcp://SCHEDULER_HOST:"):     # the placeholder: the loopback here, never another host
            argv[i] = arg.replace("SCHEDULER_HOST", "127.0.0.1")
    return argv


def limit(command: str) -> int:
    return next((seconds for prefix, seconds in TIME_LIMITS if command.startswith(prefix)), DEFAULT_LIMIT)


def test_the_readme_is_a_front_door():
    """The README: under 250 lines, a table of contents, the two set-up commands, a tour, a glossary that
    defines every abbreviation of the rule summaries bjev prints, and links to every page of docs/."""
    lines = README.splitlines()
    assert len(lines) <= 250
    assert "**Contents:**" in README and "## A five-minute tour" in README and "## Glossary" in README
    glossary = README[README.index("## Glossary"):README.index("## Documentation")]
    from ev.core.rules import make_rules
    variants = [[], ["decks=6", "hit_soft_17=false", "double=any", "double_after_split=true", "max_split_hands=4",
                     "resplit_aces=true", "late_surrender=true", "peek=none", "unchecked_blackjack_takes=all",
                     "blackjack_payout=6:5", "split_aces_one_card=false", "double_soft=false", "split_tens=rank"],
                ["peek=ace_ten", "double=9-11"]]
    for assignments in variants:
        for term in make_rules(None, assignments).summary().split(", "):
            words = re.sub(r"\b(\d+|\d+:\d+|\d+-\d+)\b", "", term).split()
            assert all(word in glossary for word in words), (term, [w for w in words if w not in glossary])
    for term in ("EV", "E[W]", "RTP per initial bet", "RTP per total wagered", "CDZ-", "CDP1", "SD",
                 "conditioned on no dealer blackjack"):
        assert term in glossary, term
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{page.name})" in README or page.name == "README.md", page.name


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
    argv = prepared(command)
    cwd = workdir(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=limit(command))
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
            out = cwd / arg
            assert out.exists() and (not out.is_dir() or any(out.iterdir())), arg
    for name in ("report", "regenerate", "sweep"):        # their default --out
        if argv[3:4] == [name] and "--out" not in argv and proc.returncode == 0:
            assert (cwd / ("tables" if name == "regenerate" else name)).is_dir()


def test_the_example_files_are_the_ones_the_readme_shows():
    """Every file a README command reads exists, and the README's grid for examples/ is the file's."""
    named = set(re.findall(r"(?<![\w/])((?:examples|benchmarks)/[\w./-]+\.(?:toml|json))", "\n".join(COMMANDS)))
    assert {"examples/my-table.toml", "examples/grid.toml", "examples/game-meta.toml"} <= named
    for path in named:
        assert (ROOT / path).is_file(), path


def test_examples_contact_the_loopback_only():
    """A command the README or docs/ shows (tests/test_readme.py runs them) names no host but a placeholder
    (SCHEDULER_HOST, run here as 127.0.0.1; HOST in prose) or 127.0.0.1."""
    text = "\n".join(PAGES)
    hosts = set(re.findall(r"tcp://([^:/\s`]+)", text))
    assert hosts <= {"127.0.0.1", "HOST", "SCHEDULER_HOST"}, hosts


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_every_link_between_the_pages_resolves():
    """Each relative link of the README and docs/ names a file that exists, and an anchor a heading there."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    checked = 0
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue                        # an outside address: not followed here
            path, _, fragment = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.exists(), (page.name, target)
            if fragment:
                headings = {anchor(line.lstrip("#")) for line in file.read_text(encoding="utf-8").splitlines()
                            if line.startswith("#")}
                assert fragment in headings, (page.name, target)
            checked += 1
    assert checked >= 20
