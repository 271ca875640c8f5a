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
    "sweep": ("sweep", "--out", "{tmp}/s", "--grid", "hit_soft_17=true,false"),
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

# ===== the surfaces of sweeps, executors and report metadata (issue 26) ======================================
SWEEP = ("sweep", "--out", "{tmp}/s")
_HUGE_GRID = "".join(f"a{i} = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" for i in range(5))

# ----- grid files: the rules files' bad files, as the grid ------------------------------------------------
def _grid_file_cases() -> list[Case]:
    out = []
    for filename, contents, words in BAD_FILES:
        if filename == "list-value.json":          # {"decks": [1]}: an axis of one value, a valid grid
            continue
        files = {} if contents is None else {filename: contents}
        out.append(case(*SWEEP, f"{{tmp}}/{filename}", words=words, files=files, process=contents == FIFO,
                        note="sweep GRID"))
    out.append(case(*SWEEP, "/dev/zero", words="character device", process=True, note="sweep GRID /dev/zero"))
    return out


#: grid file contents -> words
GRID_TEXTS = [
    ("decks = 1979-05-27\n", "date or time"), ("decks = 07:32:00\n", "date or time"),
    ("decks = 1979-05-27T07:32:00Z\n", "date or time"), ("decks = 1979-05-27T07:32:00\n", "date or time"),
    ("decks = [1979-05-27]\n", "date or time"), ("[grid]\nhit_soft_17 = 1979-05-27T00:32:00.999999-07:00\n",
                                                  "date or time"),
    ("[rules]\ndecks = 07:32:00\n", "date or time"),
    ("[grid]\ndecks = {a = 1}\n", "a table"), ("[grid]\n[grid.decks]\nx = 1\n", "a table"),
    ("decks = [[1]]\n", "list inside a list"), ("decks = [1, [2]]\n", "list inside a list"),
    ("decks = [{a = 1}]\n", "a table"), ("decks = []\n", "lists no values"), ("[grid]\ndecks = []\n", "no values"),
    ("decks = [1, 1]\n", "twice"), ('double = ["any", "ANY"]\n', "twice"), ("hit_soft_17 = [true, true]\n", "twice"),
    ("decks = [1]\n[grid]\ndecks = [2]\n", "given twice"), ("[rules]\ndecks = 1\n[grid]\ndecks = [2]\n", "given twice"),
    ("decks = 2\n[rules]\ndecks = 1\n", "given twice"), ("[rules]\ndecks = [1, 2]\n", "fixed values"),
    ("[axes]\ndecks = [1]\n", "unknown table"), ("[Grid]\ndecks = [1]\n", "unknown table"),
    ("[[grid]]\ndecks = 1\n", "unknown rule"), ("colour = [1, 2]\n", "unknown rule"),
    ("DECKS = [1]\n", "unknown rule"), ("[grid]\nnonsense = 1\n", "unknown rule"),
    ("decks = [0, 9]\n", "no variant"), ("decks = 9\n", "no variant"), ('blackjack_payout = ["7:5"]\n', "no variant"),
    ('double = ["sometimes", "never"]\n', "no variant"), ("decks = inf\n", "no variant"),
    ("decks = nan\n", "no variant"), ("decks = [-1, 0]\n", "no variant"), ('decks = "x"\n', "no variant"),
    ("max_split_hands = [5, 6]\n", "no variant"), (_HUGE_GRID, "unknown rule"),
]
#: JSON grid files -> words
GRID_JSON = [
    ('{"grid": {"decks": [1, 1]}}', "twice"), ('{"decks": [1, null]}', "null"), ('{"decks": [1e400]}', "no variant"),
    ('{"decks": {"$ref": 1}}', "unknown table"), ('{"grid": [1, 2]}', "unknown rule"),
    ('{"rules": {"decks": [1, 2]}}', "fixed values"), ('{"decks": null}', "null"),
]
BIG_AXES = [a for i, values in enumerate(("1,2,3,4,5,6,7,8", "true,false", "10-11,9-11,any", "true,false", "1,2,3,4",
                                          "true,false", "3:2,6:5,7:5,2:1", "ten,ace_ten,none", "true,false"))
            for a in ("--grid", ("decks", "hit_soft_17", "double", "double_after_split", "max_split_hands",
                                 "late_surrender", "blackjack_payout", "peek", "insurance")[i] + "=" + values)]


MILLION_AXES = [a for axis in ("decks=1,2,3,4,5,6,7,8", "hit_soft_17=true,false", "double=10-11,9-11,any",
                               "double_after_split=true,false", "max_split_hands=1,2,3,4", "late_surrender=true,false",
                               "blackjack_payout=3:2,6:5,1:1,7:5,2:1,5:4,8:5,9:5,4:3,5:3", "peek=ten,ace_ten,none",
                               "insurance=true,false", "even_money=true,false", "split_tens=value,rank",
                               "double_soft=true,false", "resplit_aces=true,false", "split_aces_one_card=true,false")
                for a in ("--grid", axis)]


def _grid_text_cases() -> list[Case]:
    out = [case(*SWEEP, f"{{tmp}}/g{i}.toml", words=words, files={f"g{i}.toml": text}, note="sweep grid")
           for i, (text, words) in enumerate(GRID_TEXTS)]
    out += [case(*SWEEP, f"{{tmp}}/g{i}.json", words=words, files={f"g{i}.json": text}, note="sweep JSON grid")
            for i, (text, words) in enumerate(GRID_JSON)]
    out.append(case(*SWEEP, *BIG_AXES, words="--max-variants 18432", note="18,432 variants"))
    out.append(case(*SWEEP, *BIG_AXES, "--max-variants", "1000", words="limit of 1,000"))
    out.append(case(*SWEEP, *MILLION_AXES, words="1,474,560 variants", note="a grid of over 10^6 variants"))
    out.append(case(*SWEEP, "--grid", "decks=1,2", "--max-variants", "1", words="limit of 1"))
    return out


#: --grid arguments -> words
BAD_AXES = [
    ("decks", "key=value1"), ("=1", "unknown rule"), ("decks=", "no values"), ("decks=,", "no values"),
    ("decks=1,,2", "empty value"), ("decks=1,", "empty value"), ("colour=1,2", "unknown rule"), ("decks=1,1", "twice"),
    ("DECKS=1", "unknown rule"), ("decks=9", "no variant"), ("decks=0,9", "no variant"), ("decks=x", "no variant"),
    ("decks=٤", "no variant"), ("hit_soft_17=maybe", "no variant"), ("double=sometimes", "no variant"),
    ("peek=always,never", "no variant"), ("decks=" + "9" * 5000, "no variant"), ("x" * 10000 + "=1", "unknown rule"),
    ("max_split_hands=5", "no variant"), ("decks=1.5", "no variant"), ("decks=1e1", "no variant"),
    ("decks= ", "no values"), ("late_surrender=early", "no variant"), ("double=any,ANY", "twice"),
]


def _axis_cases() -> list[Case]:
    out = [case(*SWEEP, "--grid", axis, words=words, note="sweep --grid") for axis, words in BAD_AXES]
    out += [case(*SWEEP, "--grid", "decks=1,2", "--grid", "decks=3", words="given twice"),
            case(*SWEEP, "--grid", "decks=1", "--grid", "hit_soft_17=true", "--grid", "decks=2", words="given twice"),
            case(*SWEEP, "--set", "decks=9", words="no variant", note="no axis: one variant"),
            case(*SWEEP, "--grid", "decks=1", "--grid", "bogus", words="key=value1")]
    return out


BAD_TARGETS = ["0", "-1", "2", "2.5", "99.5", "nan", "inf", "-inf", "", "x", "1e999999999", "1e-999999999",
               "0.995x", "٠.٩", "1/2", "0x1", " ", "1" * 50, "0.0000001", "+-0.9", "\udcff"]


def _target_cases() -> list[Case]:
    out = [case(*SWEEP, "--grid", "decks=1", "--target-rtp", value, words="--target-rtp", note="sweep --target-rtp",
                process="\udcff" in value) for value in BAD_TARGETS]
    out += [case(*SWEEP, "--grid", "decks=1", "--solve", "blackjack_payout", words="needs --target-rtp"),
            case(*SWEEP, "--grid", "decks=1", "--target-rtp", "0.99", "--solve", "decks", words="invalid choice"),
            case(*SWEEP, "--grid", "decks=1", "--target-rtp", "0.99", "--convention", "x", words="invalid choice"),
            case(*SWEEP, "--grid", "decks=1", "--target-rtp", "0.99", "--target-rtp", "0.98", words="twice"),
            case(*SWEEP, "--grid", "decks=1", "--split-strategy", "best", words="invalid choice"),
            case(*SWEEP, "--grid", "decks=1", "--exact=1", words="--exact")]
    return out


def _executor_cases() -> list[Case]:
    out = []
    for value in BAD_COUNTS:
        out.append(case(*SWEEP, "--grid", "decks=1", "--workers", value, note="sweep --workers"))
        out.append(case(*SWEEP, "--grid", "decks=1", "--dask-local", value, note="sweep --dask-local"))
        out.append(case(*SWEEP, "--grid", "decks=1", "--max-variants", value, note="sweep --max-variants"))
    out += [
        case(*SWEEP, "--grid", "decks=1", "--workers", "9999", words="at most"),
        case(*SWEEP, "--grid", "decks=1", "--dask-local", "9999", words="at most"),
        case(*SWEEP, "--grid", "decks=1", "--workers", "1", "--workers", "2", words="twice"),
        case(*SWEEP, "--grid", "decks=1", "--workers", "2", "--dask-local", "2", words="not allowed with"),
        case(*SWEEP, "--grid", "decks=1", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1",
             words="not allowed with"),
        case("simulate", "--rounds", "1000", "--dask-local", "9999", words="at most"),
        case("simulate", "--rounds", "1000", "--workers", "1", "--workers", "2", words="twice"),
    ]
    for address, words in [("", "tcp://HOST:PORT"), ("x", "tcp://HOST:PORT"), ("tcp://", "tcp://HOST:PORT"),
                           ("tcp://127.0.0.1", "tcp://HOST:PORT"), ("tcp://127.0.0.1:notaport", "tcp://HOST:PORT"),
                           ("tcp://127.0.0.1:99999", "tcp://HOST:PORT"), ("http://127.0.0.1:1", "tcp://HOST:PORT"),
                           ("tcp://[::1", "tcp://HOST:PORT"), ("inproc://x", "tcp://HOST:PORT"),
                           ("tls://127.0.0.1:1", "tcp://HOST:PORT"), ("tcp://127.0.0.1:1", "refused"),
                           ("tcp://localhost:1", "refused"), ("tcp://[::1]:1", "cannot reach"),
                           ("tcp://127.0.0.1:0", "tcp://HOST:PORT"), ("tcp://127.0.0.1:1/path", "refused"),
                           ("tcp://" + "1" * 300 + ":1", "tcp://HOST:PORT"), ("tcp://127.0.0.1:１", "tcp://HOST:PORT")]:
        out.append(case(*SWEEP, "--grid", "decks=1", "--scheduler", address, words=words, note="sweep --scheduler"))
    out.append(case("simulate", "--rounds", "1000", "--scheduler", "tcp://127.0.0.1:1", words="refused"))
    out.append(case(*SWEEP, "--grid", "decks=1", "--scheduler", "\udcff", words="tcp://HOST:PORT", process=True))
    return out


def _sweep_out_cases() -> list[Case]:
    return [
        case("sweep", "--grid", "decks=1", "--out", "/dev/null", words="not a directory"),
        case("sweep", "--grid", "decks=1", "--out", "{tmp}/a-file", words="not a directory", files={"a-file": b"x"}),
        case("sweep", "--grid", "decks=1", "--out", f"{{tmp}}/{LONG}", words="longer than"),
        case("sweep", "--grid", "decks=1", "--out", "{tmp}/a-file/sub", words="a-file", files={"a-file": b"x"}),
        case("sweep", "--grid", "decks=1", "--out", "{tmp}/nul\x00byte", words="null"),
        case("sweep", "--grid", "decks=1", "--out", "{tmp}/s", words="directory", files={"s/sweep.csv": DIR}),
        case("sweep", "--grid", "decks=1", "--out", "{tmp}/s", words="not a regular file",
             files={"s/sweep.jsonl": DIR}),
        case("sweep", "--grid", "decks=1", "--out", "{tmp}/s", words="not a regular file",
             files={"s/sweep.jsonl": FIFO}, process=True),
        case("sweep", "--grid", "decks=1", "--out", "{tmp}/s", "--out", "{tmp}/t", words="twice"),
        case("sweep", "--grid", "decks=1", "--out", "", words="name of a directory"),
    ]


# ----- --meta: the metadata file -----------------------------------------------------------------------------
META_FILES = [
    ("missing.toml", None, "cannot read"), ("folder.toml", DIR, "directory"), ("pipe.toml", FIFO, "FIFO"),
    ("big.toml", b"#" * (70 * 1024), "at most"), ("utf16.toml", 'supplier = "x"'.encode("utf-16"), "UTF-8"),
    ("binary.toml", bytes(range(256)) * 4, "UTF-8"), ("latin1.toml", 'supplier = "café"\n'.encode("latin-1"), "UTF-8"),
    ("deep.toml", b"a = " + b"[" * 20000 + b"]" * 20000, "nested too deeply"),
    ("invalid.toml", b"supplier = = 2", "not valid TOML"), ("m.json", b'{"supplier": "x"}', "not valid TOML"),
    ("huge-int.toml", f"max_bet = {_BIG_INT}\n".encode(), "max_bet"),
]
#: metadata file contents -> words
META_TEXTS = [
    ('colour = "red"\n', "unknown field"), ("supplier = 3\n", "one line of text"),
    ('author = """a\nb"""\n', "one line"), ("max_bet = -1\n", "positive number"), ("max_bet = true\n", "positive"),
    ("max_bet = inf\n", "positive number"), ("max_bet = nan\n", "positive number"), ("min_bet = -inf\n", "positive"),
    ("max_bet = 1e300\n", "at most 1,000,000,000"), ("min_bet = 0.001\n", "decimals"), ("min_bet = 0\n", "positive"),
    ("min_bet = 10\nmax_bet = 5\n", "above max_bet"), ('max_bet = "500"\n', "positive number"),
    ('supplier = "' + "x" * 201 + '"\n', "at most 200"), ("[[revision]]\ndescription = \"" + "d" * 2001 + "\"\n",
                                                         "at most 2,000"),
    ("[[revision]]\n" * 101, "at most 100"), ('author = "a\\tb"\n', "control characters"),
    ('author = "a\\u200bb"\n', "control characters"), ('author = "a\\u0000b"\n', "control characters"),
    ('game_name = "黑杰克"\n', "cannot draw"), ('game_name = "\U0001F3B2"\n', "cannot draw"),
    ('game_name = "بلاك جاك"\n', "right-to-left"), ('game_name = "בלאק ג׳ק"\n', "right-to-left"),
    ('revision = "1.0"\n', "list of tables"), ("[[revision]]\nwho = \"me\"\n", "unknown field"),
    ("[[revision]]\ndate = 2024-06-07\n", "one line of text"), ('published_rtp = "abc"\n', "published_rtp"),
    ('published_rtp = "250"\n', "published_rtp"), ('published_rtp = "99.59e0"\n', "published_rtp"),
    ('published_rtp_convention = "initial_bet"\n', "needs 'published_rtp'"),
    ('published_rtp = "99"\npublished_rtp_convention = "gross"\n', "published_rtp_convention"),
    ("even_money_stake = 2\n", "1 or 1.5"), ('even_money_stake = "1"\n', "1 or 1.5"),
    ("even_money_stake = true\n", "1 or 1.5"), ('currency = "' + "E" * 300 + '"\n', "at most 200"),
    ("[supplier]\nname = \"x\"\n", "one line of text"), ("revision = [1, 2]\n", "list of tables"),
    ('game_name = "\\u202eevil"\n', "control characters"),
]


def _meta_cases() -> list[Case]:
    report = ("report", "--out", "{tmp}/r", "--simulate-rounds", "0")
    out = []
    for filename, contents, words in META_FILES:
        files = {} if contents is None else {filename: contents}
        out.append(case(*report, "--meta", f"{{tmp}}/{filename}", words=words, files=files, process=contents == FIFO,
                        note="report --meta"))
    out.append(case(*report, "--meta", "/dev/zero", words="character device", process=True, note="--meta /dev/zero"))
    out += [case(*report, "--meta", f"{{tmp}}/m{i}.toml", words=words, files={f"m{i}.toml": text},
                 note="report --meta field") for i, (text, words) in enumerate(META_TEXTS)]
    out.append(case(*report, "--meta", "{tmp}/m.toml", "--meta", "{tmp}/m.toml", words="twice",
                    files={"m.toml": 'supplier = "x"\n'}))
    return out


#: the cases of the surfaces of sweeps, executors and metadata (at least 300; the sweep's rule cases are in
#: _rule_cases, through RULE_COMMANDS)
NEW_SURFACES = (_grid_file_cases() + _grid_text_cases() + _axis_cases() + _target_cases() + _executor_cases()
                + _sweep_out_cases() + _meta_cases())

#: the issue's own cases (issue 26), each found among the cases (checked by the runner)
ISSUE_26 = [
    (*SWEEP, "--grid", "decks=1", "--target-rtp", "0"), (*SWEEP, "--grid", "decks=1,2", "--grid", "decks=3"),
    (*SWEEP, "{tmp}/g0.toml"), (*SWEEP, *BIG_AXES), (*SWEEP, *MILLION_AXES),
    ("report", "--out", "{tmp}/r", "--simulate-rounds", "0", "--meta", "{tmp}/pipe.toml"),
    ("report", "--out", "{tmp}/r", "--simulate-rounds", "0", "--meta", "/dev/zero"),
    ("report", "--out", "{tmp}/r", "--simulate-rounds", "0", "--meta", "{tmp}/deep.toml"),
    (*SWEEP, "--grid", "decks=1", "--scheduler", "tcp://127.0.0.1:1"),
    (*SWEEP, "--grid", "decks=1", "--dask-local", "9999"),
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

CASES: list[Case] = (_rule_cases() + _count_cases() + LIMITS + OPTIONS + CARDS + RUN_OUT + TARGETS + NOT_UTF8
                     + NEW_SURFACES)
