"""The bad-input catalogue: every bad or edge input bjev must answer with one line on stderr and exit code 2.

Each :class:`Case` is one command line.  ``{tmp}`` in an argument is the case's own temporary directory
(also the working directory, so that default outputs such as ``report/`` and ``tables/`` would land there);
``files`` are created in it first: bytes or text are written as files, and the markers ``DIR``
(a directory), ``FIFO`` (a named pipe without a writer) and ``LOCKED_REPORT`` (a complete report another
bjev holds locked) make those things.  ``process``: run as a real ``python -m ev`` subprocess (FIFOs,
devices, argv bytes that are not UTF-8); the others run in-process through ``ev.cli.main``.
``words``: a piece of the error line.  The runner is ``test_catalogue.py``.

The table is built from a few lists so that every command with rule options gets every bad rule value and
every bad rules file; the issue's own cases are listed under ``ISSUE``.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

#: every case must be answered within this many seconds (a subprocess: including Python's start-up)
TIME_LIMIT = 10.0
MAX_WORKERS = 4 * (os.cpu_count() or 1)

DIR, FIFO, LOCKED_REPORT = "<directory>", "<fifo>", "<locked report>"


@dataclass(frozen=True)
class Case:
    argv: tuple
    words: str = ""
    files: dict = field(default_factory=dict)
    process: bool = False
    note: str = ""

    @property
    def id(self) -> str:
        text = " ".join(a if len(a) <= 24 else a[:10] + "…" + a[-6:] for a in self.argv)
        return (self.note + ": " if self.note else "") + (text or "<no arguments>")


def case(*argv: str, words: str = "", files: dict | None = None, process: bool = False, note: str = "") -> Case:
    return Case(tuple(argv), words, files or {}, process, note)


# ----- the commands that take rule options, each with the arguments it needs to get that far -------------
RULE_COMMANDS = {
    "rtp": ("rtp",),
    "hand": ("hand", "T,6", "--up", "9"),
    "rules-effect": ("rules-effect",),
    "simulate": ("simulate", "--rounds", "1000"),
    "chart": ("chart", "--out", "{tmp}/chart.txt"),
    "report": ("report", "--out", "{tmp}/r", "--simulate-rounds", "0"),
}

# ----- bad --set values --------------------------------------------------------------------------------
BAD_SETS = [
    ("decks=0", "decks"), ("decks=9", "decks"), ("decks=-1", "decks"), ("decks=٤", "ASCII"),
    ("decks=1_0", "ASCII"), ("decks=2.0", "decks"), ("decks=", "decks"), ("decks=x", "decks"),
    ("decks=1e1", "decks"), ("decks=99999999999999999999999", "decks"), ("decks=" + "9" * 5000, "decks"),
    ("decks=true", "decks"), ("hit_soft_17=maybe", "hit_soft_17"), ("hit_soft_17=2", "hit_soft_17"),
    ("blackjack_payout=2:1", "blackjack_payout"), ("blackjack_payout=3/2", "blackjack_payout"),
    ("double=sometimes", "double"), ("double=9-10", "double"), ("double_soft=x", "double_soft"),
    ("max_split_hands=5", "max_split_hands"), ("max_split_hands=0", "max_split_hands"),
    ("split_tens=suit", "split_tens"), ("peek=always", "peek"), ("unchecked_blackjack_takes=some", "unchecked"),
    ("insurance=perhaps", "insurance"), ("late_surrender=early", "late_surrender"),
    ("nonsense=1", "unknown rule"), ("=5", "unknown rule"), ("decks", "key=value"), ("", "key=value"),
    ("x" * 10000 + "=1", "unknown rule"), ("decks=" + "x" * 100000, "decks"), ("DECKS=2", "unknown rule"),
    ("max_split_hands=３", "ASCII"),
]

# ----- bad rules files (name -> contents) -----------------------------------------------------------------
_BIG_INT = "1" + "0" * 5000
BAD_FILES = [
    ("missing.toml", None, "cannot read"),
    ("folder.json", DIR, "directory"),
    ("pipe.toml", FIFO, "FIFO"),
    ("big.json", b"{" + b" " * (70 * 1024) + b"}", "at most"),
    ("utf16.json", '{"decks": 2}'.encode("utf-16"), "UTF-8"),
    ("binary.json", bytes(range(256)) * 4, "UTF-8"),
    ("binary.toml", b"\x00\x01\xfe\xff" * 100, "UTF-8"),
    ("latin1.toml", 'name = "café"\n'.encode("latin-1"), "UTF-8"),
    ("deep.json", b"[" * 30000 + b"]" * 30000, "nested too deeply"),
    ("deep.toml", b"a = " + b"[" * 20000 + b"]" * 20000, "nested too deeply"),
    ("invalid.json", b'{"decks": 2', "not valid JSON"),
    ("invalid.toml", b"decks = = 2", "not valid TOML"),
    ("empty.json", b"", "not valid JSON"),
    ("list.json", b"[1, 2]", "table of rule"),
    ("string.json", b'"decks"', "table of rule"),
    ("null.json", b"null", "table of rule"),
    ("unknown.json", b'{"colour": "red"}', "unknown rule"),
    ("rules5.json", b'{"rules": 5}', "unknown rule"),
    ("str.json", b'{"decks": "x"}', "decks"),
    ("float.json", b'{"decks": 2.5}', "decks"),
    ("bool.json", b'{"decks": true}', "decks"),
    ("list-value.json", b'{"decks": [1]}', "decks"),
    ("dict-value.json", b'{"double": {"a": 1}}', "double"),
    ("inf.json", b'{"decks": 1e400}', "decks"),
    ("nan.json", b'{"decks": NaN}', "decks"),
    ("huge-int.json", f'{{"decks": {_BIG_INT}}}'.encode(), "decks"),
    ("huge-int.toml", f"decks = {_BIG_INT}\n".encode(), "decks"),
    ("toml-as.json", b"decks = 2\n", "not valid JSON"),
    ("digits.toml", 'decks = "٤"\n'.encode(), "ASCII"),
    ("long-key.json", json.dumps({"k" * 20000: 1}).encode(), "unknown rule"),
    ("long-value.json", json.dumps({"double": "x" * 60000}).encode(), "double"),
]


def _rule_cases() -> list[Case]:
    out = []
    for name, base in RULE_COMMANDS.items():
        for value, words in BAD_SETS:
            out.append(case(*base, "--set", value, words=words, note=f"{name} --set"))
        out.append(case(*base, "--set", "decks=2", "--set", "decks=3", words="twice", note=f"{name} --set twice"))
        for filename, contents, words in BAD_FILES:
            files = {} if contents is None else {filename: contents}
            out.append(case(*base, "--rules", f"{{tmp}}/{filename}", words=words, files=files,
                            process=contents == FIFO, note=f"{name} --rules"))
        out.append(case(*base, "--rules", "/dev/zero", words="character device", process=True,
                        note=f"{name} --rules /dev/zero"))
        out.append(case(*base, "--rules", "{tmp}/a.toml", "--rules", "{tmp}/a.toml", words="twice",
                        files={"a.toml": b"decks = 2\n"}, note=f"{name} --rules twice"))
        out.append(case(*base, "--bogus", words="--bogus", note=f"{name} unknown option"))
    return out


# ----- counts: one parser for every count option --------------------------------------------------------
BAD_COUNTS = ["0", "1.5", "inf", "nan", "-3", "1e20", "1e16", "x", "", "1e", "e6", "1,000", "0x10", "١٠",
              "1" * 100, "2.5e-1", "1e999", "+5", "1__0"]


def _count_cases() -> list[Case]:
    out = []
    for value in BAD_COUNTS:
        out.append(case("simulate", "--rounds", value, note="simulate --rounds"))
        if value != "0":
            out.append(case("report", "--out", "{tmp}/r", "--simulate-rounds", value, note="report --simulate-rounds"))
        out.append(case("simulate", "--rounds", "1000", "--workers", value, note="simulate --workers"))
        out.append(case("simulate", "--rounds", "1000", "--max-rounds", value, note="simulate --max-rounds"))
    for value in ("0", "1.5", str(MAX_WORKERS + 1), "1000"):
        out.append(case("report", "--out", "{tmp}/r", "--simulate-rounds", "1000", "--workers", value,
                        note="report --workers"))
    for value in ("-1", "2**64", "18446744073709551616", "x", "٤", "1.5", "", "0x", "1" * 100):
        out.append(case("simulate", "--rounds", "1000", "--seed", value, words="seed", note="simulate --seed"))
        out.append(case("report", "--out", "{tmp}/r", "--seed", value, words="seed", note="report --seed"))
    return out


# ----- limits -------------------------------------------------------------------------------------------
LIMITS = [
    case("simulate", "--rounds", "2e10", words="--max-rounds", note="over the default limit"),
    case("simulate", "--rounds", "10000000001", words="--max-rounds", note="one over the limit"),
    case("simulate", "--rounds", "1e12", "--max-rounds", "1e11", words="--max-rounds", note="over a lifted limit"),
    case("simulate", "--rounds", "1e15", "--max-rounds", "1e14", words="--max-rounds"),
    case("simulate", "--rounds", "1e6", "--max-rounds", "1e16", words="at most"),
    case("simulate", "--rounds", "1e6", "--workers", "1000", words="at most"),
    case("report", "--out", "{tmp}/r", "--simulate-rounds", "2e10", words="--max-rounds"),
    case("report", "--out", "{tmp}/r", "--simulate-rounds", "1e11", "--max-rounds", "5e10", words="--max-rounds"),
]

# ----- options given but not applicable, or given twice --------------------------------------------------
OPTIONS = [
    case("rtp", "--strategy", "basic", "--split-strategy", "cdp", words="--split-strategy"),
    case("rtp", "--strategy", "basic", "--split-strategy", "cdz", words="--split-strategy"),
    case("rtp", "--strategy", "worst", words="invalid choice"),
    case("rtp", "--split-strategy", "cdx", words="invalid choice"),
    case("rtp", "--strategy", "optimal", "--strategy", "basic", words="twice"),
    case("rtp", "extra", words="unrecognized"),
    case("rtp", "--json=yes", words="--json"),
    case("rtp", "--exact=1", words="--exact"),
    case("chart", "--json", "--format", "svg", words="--format"),
    case("chart", "--json", "--lang", "de", words="--lang"),
    case("chart", "--json", "--format", "text", "--lang", "en", words="--format and --lang"),
    case("chart", "--format", "png", words="--out"),
    case("chart", "--format", "pdf", words="invalid choice"),
    case("chart", "--lang", "fr", words="invalid choice"),
    case("chart", "--format", "svg", "--format", "md", words="twice"),
    case("chart", "--out", "{tmp}/a.txt", "--out", "{tmp}/b.txt", words="twice"),
    case("report", "--out", "{tmp}/r", "--simulate-rounds", "0", "--seed", "3", words="--simulate-rounds 0"),
    case("report", "--out", "{tmp}/r", "--simulate-rounds", "0", "--workers", "2", words="--simulate-rounds 0"),
    case("report", "--out", "{tmp}/r", "--lang", "fr", words="invalid choice"),
    case("report", "--out", "{tmp}/r", "--split-strategy", "best", words="invalid choice"),
    case("report", "--out", "{tmp}/r", "--out", "{tmp}/s", words="twice"),
    case("report", "--out", "{tmp}/r", "--lang", "de", "--lang", "pl", words="twice"),
    case("simulate", words="--rounds"),
    case("simulate", "--rounds", "1000", "--strategy", "random", words="invalid choice"),
    case("simulate", "--rounds", "1000", "--rounds", "2000", words="twice"),
    case("simulate", "--rounds", "1000", "--split-strategy", "cdp", words="unrecognized"),
    case("rules-effect", "--split-strategy", "x", words="invalid choice"),
    case("rules-effect", "extra", words="unrecognized"),
    case("regenerate", "extra", words="unrecognized"),
    case("regenerate", "--out", "{tmp}/a", "--out", "{tmp}/b", words="twice"),
    case("regenerate", "--json", words="unrecognized"),
    case(words="a command is required", note="no command"),
    case(words="a command is required", process=True, note="no command, a real process"),
    case("tables", words="invalid choice"),
    case("foo", words="invalid choice"),
    case("--bogus", words="--bogus"),
    case("-x", words="-x"),
    case("--version=1", words="--version"),
    case("hand", "T,6", "--up", "5", "--up", "6", words="twice"),
    case("hand", "T,6", "--up", "5", "--removed", "2", "--removed", "3", words="twice"),
    case("hand", "T,6", "--up", "5", "--split-strategy", "x", words="invalid choice"),
    case("hand", "T,6", "--up", "5", "--strategy", "basic", words="unrecognized"),
    case("hand", "T,6", "7", "--up", "5", words="unrecognized"),
]

# ----- cards -----------------------------------------------------------------------------------------------
CARDS = [
    case("hand", "X,5", "--up", "5", words="unknown card"),
    case("hand", "", "--up", "5", words="at least two"),
    case("hand", "T", "--up", "5", words="at least two"),
    case("hand", "A,A,A,A,A", "--up", "5", words="impossible"),
    case("hand", "2,3,4,5,6,7", "--up", "5", words="bust"),
    case("hand", "K,Q,J", "--up", "5", words="bust"),
    case("hand", "X" * 100000, "--up", "5", words="unknown card", note="100,000-character hand"),
    case("hand", "2," * 50000 + "2", "--up", "5", words="bust", note="50,001 twos"),
    case("hand", "2,2,2,2,2", "--up", "5", words="impossible", note="five twos from one deck"),
    case("hand", "Y," * 1000, "--up", "5", words="unknown card"),
    case("hand", "1,2", "--up", "5", words="unknown card"),
    case("hand", "11", "--up", "5", words="unknown card"),
    case("hand", ",,,", "--up", "5", words="at least two"),
    case("hand", "T6X", "--up", "5", words="unknown card"),
    case("hand", "٤,٥", "--up", "5", words="unknown card"),
    case("hand", "Ａ,Ｋ", "--up", "5", words="unknown card"),
    case("hand", "T,6", "--up", "", words="exactly one card"),
    case("hand", "T,6", "--up", "X", words="unknown card"),
    case("hand", "T,6", "--up", "T,6", words="exactly one card"),
    case("hand", "T,6", "--up", "11", words="unknown card"),
    case("hand", "T,6", "--up", "٤", words="unknown card"),
    case("hand", "T,6", "--up", "0", words="unknown card"),
    case("hand", "T,6", "--up", "Z" * 5000, words="unknown card"),
    case("hand", "T,6", words="--up"),
    case("hand", "--up", "5", words="cards"),
    case("hand", "T,6", "--up", "5", "--removed", "6,6,6,6", words="impossible"),
    case("hand", "T,6", "--up", "5", "--removed", "X", words="unknown card"),
    case("hand", "T,6", "--up", "5", "--removed", "5,5,5,5", words="impossible"),
    case("hand", "T,6", "--up", "5", "--removed", "A," * 60, words="impossible"),
    case("hand", "T,6", "--up", "A", "--set", "decks=1", "--removed", "2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,7,7,7,7,"
         "8,8,8,8,9,9,9,9,A,A,A", words="blackjack", note="only tens left under an ace"),
    case("hand", "T,6", "--up", "5", "--removed", "A,A,A,A,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,6,6,6,7,7,7,7,8,8,8,8,"
         "9,9,9,9," + "T," * 14 + "T", words="no cards", note="nothing unseen"),
    case("hand", "2,3,4,5,6,7", "--up", "5", "--exact", words="bust"),
]

# ----- positions whose continuation can run out of cards (every action, both arithmetics) ------------------
_EIGHTS = ("A,A,A,A,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,7,7,7,7,9,9,9,9," + "T," * 14 + "T")
_NINES = ("A,A,A,A,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,8,8,8,8,9," + "T," * 13 + "T")
RUN_OUT = [
    case("hand", "8,8", "--up", "6", "--removed", _EIGHTS, words="run out", note="8-8 v 6, only 8 8 T unseen"),
    case("hand", "8,8", "--up", "6", "--removed", _EIGHTS, "--exact", words="run out"),
    case("hand", "8,8", "--up", "6", "--removed", _EIGHTS, "--json", words="run out"),
    case("hand", "8,8", "--up", "6", "--removed", _EIGHTS, "--exact", "--json", words="run out"),
    case("hand", "8,8", "--up", "6", "--removed", _EIGHTS, "--split-strategy", "cdp", words="run out"),
    case("hand", "9,9", "--up", "7", "--removed", _NINES, words="run out", note="9-9 v 7, only 9 T T unseen"),
    case("hand", "9,9", "--up", "7", "--removed", _NINES, "--exact", words="run out"),
]

# ----- output targets --------------------------------------------------------------------------------------
LONG = "n" * 300
TARGETS = [
    case("chart", "--out", "/dev/null", words="character device"),
    case("chart", "--out", "/dev/full", words="character device"),
    case("chart", "--out", "{tmp}/folder", words="directory", files={"folder": DIR}),
    case("chart", "--out", "{tmp}/pipe", words="FIFO", files={"pipe": FIFO}, process=True),
    case("chart", "--out", "{tmp}/missing/chart.txt", words="does not exist"),
    case("chart", "--out", f"{{tmp}}/{LONG}", words="longer than"),
    case("chart", "--out", f"{{tmp}}/{LONG}/chart.txt", words="chart.txt"),
    case("chart", "--out", "", words="file name"),
    case("chart", "--out", "{tmp}/", words="file name"),
    case("chart", "--out", "{tmp}/a-file/chart.txt", words="a-file", files={"a-file": b"x"}),
    case("chart", "--out", "{tmp}/nul\x00byte", words="null"),
    case("chart", "--json", "--out", "/dev/null", words="character device"),
    case("chart", "--format", "png", "--out", "/dev/zero", words="character device"),
    case("regenerate", "--out", "/dev/null", words="not a directory"),
    case("regenerate", "--out", "{tmp}/a-file", words="not a directory", files={"a-file": b"x"}),
    case("regenerate", "--out", f"{{tmp}}/{LONG}", words="longer than"),
    case("regenerate", "--out", f"{{tmp}}/deep/{LONG}", words="longer than"),
    case("regenerate", "--out", "{tmp}/a-file/sub", words="a-file", files={"a-file": b"x"}),
    case("regenerate", "--out", "{tmp}/t", words="directory", files={"t/chart-en.txt": DIR}),
    case("regenerate", "--out", "{tmp}/t", words="FIFO", files={"t/README.md": FIFO}, process=True),
    case("report", "--out", "/dev/null", words="not a directory"),
    case("report", "--out", "{tmp}/a-file", words="not a directory", files={"a-file": b"x"}),
    case("report", "--out", f"{{tmp}}/{LONG}", words="longer than", note="a 300-character name"),
    case("report", "--out", f"{{tmp}}/x/{LONG}", words="longer than"),
    case("report", "--out", "{tmp}/a-file/sub", words="a-file", files={"a-file": b"x"}),
    case("report", "--out", "{tmp}/r", words="directory", files={"r/report.pdf": DIR}),
    case("report", "--out", "{tmp}/r", words="another bjev", files={"r": LOCKED_REPORT}, note="busy"),
    case("report", "--out", "{tmp}/r", "--simulate-rounds", "0", words="another bjev", files={"r": LOCKED_REPORT}),
    case("report", "--out", "{tmp}/nul\x00byte", words="null"),
]

# ----- argv that is not UTF-8 (a real process: Python decodes it with surrogate escapes) ---------------------
NOT_UTF8 = [
    case("hand", "\udcff\udcfe", "--up", "5", words="unknown card", process=True),
    case("hand", "T,6", "--up", "\udcff", words="unknown card", process=True),
    case("rtp", "--set", "decks=\udcff", words="decks", process=True),
    case("rtp", "--rules", "{tmp}/\udcff.toml", words="cannot read", process=True),
    case("simulate", "--rounds", "\udcff", words="--rounds", process=True),
    case("chart", "--format", "\udcff", words="invalid choice", process=True),
]

#: the issue's own cases, each found in the lists above (checked by the runner)
ISSUE = [
    ("rtp", "--rules", "{tmp}/utf16.json"), ("chart", "--out", "{tmp}/chart.txt", "--rules", "{tmp}/binary.json"),
    ("simulate", "--rounds", "1000", "--rules", "{tmp}/binary.toml"),
    ("report", "--out", "{tmp}/r", "--simulate-rounds", "0", "--rules", "{tmp}/deep.json"),
    ("rtp", "--rules", "{tmp}/deep.toml"), ("rtp", "--rules", "/dev/zero"), ("rtp", "--rules", "{tmp}/pipe.toml"),
    ("report", "--out", f"{{tmp}}/{LONG}"), ("report", "--out", "{tmp}/r", "--simulate-rounds", "inf"),
    ("hand", "8,8", "--up", "6", "--removed", _EIGHTS), ("hand", "9,9", "--up", "7", "--removed", _NINES),
    ("rtp", "--strategy", "basic", "--split-strategy", "cdp"), ("chart", "--out", "/dev/full"),
    ("report", "--out", "{tmp}/r", "--simulate-rounds", "1.5"), ("rtp", "--set", "decks=٤"),
    ("simulate", "--rounds", "1e20"), ("report", "--out", "{tmp}/r", "--simulate-rounds", "1e20"),
    ("simulate", "--rounds", "1e6", "--workers", "1000"), ("hand", "X" * 100000, "--up", "5"), (),
]

CASES: list[Case] = _rule_cases() + _count_cases() + LIMITS + OPTIONS + CARDS + RUN_OUT + TARGETS + NOT_UTF8
