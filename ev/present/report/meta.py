"""What bjev cannot know about a game: the report's metadata file (``bjev report --meta FILE``, TOML).

Fields (all optional; a missing one is printed as a blank to fill in, never invented)::

    supplier = "..."            game_name = "..."         game_id = "..."
    game_version = "..."        jurisdiction = "..."      document_id = "..."
    author = "..."              reviewer = "..."          approver = "..."
    min_bet = 1.0               max_bet = 500.0           currency = "EUR"
    published_rtp = "99.59"     # the RTP the game publishes, in percent (a string keeps trailing zeros)
    published_rtp_convention = "total_wagered"   # or "initial_bet": what the published figure divides by
    even_money_stake = 1        # or 1.5: the stake counted for even money (1: no chips are placed for it)
    [[revision]]                # the revision history, oldest first
    revision = "1.0"  date = "2024-06-07"  author = "..."  description = "..."
    [[requirement]]             # a regulator's minimum RTP (repeatable): the report states it and pass/fail
    name = "..."                # the jurisdiction and the rule, as the lab cites it
    minimum_rtp = "85"          # percent (a string keeps trailing zeros)
    basis = "optimal"           # "optimal" play, the "disclosed" strategy (the basic-strategy chart), or
                                # "random" play (every legal option equally likely)
    convention = "total_wagered"   # or "initial_bet": what the minimum divides by

A bad file (unreadable, not TOML, an unknown field, a value of the wrong type) is a
:class:`ev.errors.MetadataError`: one line naming the field, exit code 2 at the CLI.

Also here: the git commit bjev was built from (:func:`build_commit`).
"""
from __future__ import annotations

import functools
import math
import subprocess
import unicodedata
from pathlib import Path
from typing import Any

from ev.errors import MetadataError, excerpt

TEXT_FIELDS = ("supplier", "game_name", "game_id", "game_version", "jurisdiction", "document_id", "author",
               "reviewer", "approver", "currency")
NUMBER_FIELDS = ("min_bet", "max_bet")
#: what a published RTP may divide by
CONVENTIONS = ("total_wagered", "initial_bet")
#: the stakes the report may count for even money, in initial bets
EVEN_MONEY_STAKES = (1, 1.5)
REVISION_FIELDS = ("revision", "date", "author", "description")
REQUIREMENT_FIELDS = ("name", "minimum_rtp", "basis", "convention")
#: what a minimum RTP is computed on: optimal play, the disclosed strategy (the chart), or random play
BASES = ("optimal", "disclosed", "random")
#: the most requirements a metadata file may list
MAX_REQUIREMENTS = 20
#: the fields a lab expects filled in (printed as blanks when missing)
BLANK_FIELDS = ("supplier", "game_name", "game_id", "game_version", "jurisdiction", "document_id", "author",
                "reviewer", "approver")
#: written by setup.py at build time (git-ignored); read by build_commit()
BUILD_COMMIT_FILE = Path(__file__).resolve().parents[2] / "build_commit.txt"


#: the longest text of a field, and of a revision's description (characters)
MAX_TEXT, MAX_DESCRIPTION = 200, 2000
#: the largest table limit, and the decimals a limit may have (an amount of money)
MAX_BET, BET_DECIMALS = 1_000_000_000, 2
#: the largest metadata file (bytes)
MAX_META_BYTES = 64 * 1024


def load_meta(path: str | Path) -> dict[str, Any]:
    """Read and validate a metadata file (TOML; a regular file of at most 64 KiB, UTF-8: read as rules files
    are, so a FIFO, a device or a deeply nested file is one line); every field present, None where not given."""
    from ev.core.rules import read_data_file
    data = read_data_file(path, "metadata file", MAX_META_BYTES, MetadataError, toml_only=True, entry="field")
    name = str(path)        # not quoted: the messages quote the value (two quotations would read as one)
    return check_meta(data, name if len(name) <= 60 else f"{name[:28]}…{name[-28:]}")


def check_meta(data: dict, source: str = "metadata") -> dict[str, Any]:
    """Validate a metadata mapping (see the module docstring); unknown keys and wrong types are errors."""
    known = TEXT_FIELDS + NUMBER_FIELDS + ("revision", "published_rtp", "published_rtp_convention", "even_money_stake",
                                           "requirement")
    if not isinstance(data, dict):
        raise MetadataError(f"{source}: the metadata is a table of field = value, not a {type(data).__name__}")
    for key in data:
        if key not in known:
            raise MetadataError(f"{source}: unknown field {excerpt(key)}; known fields: {', '.join(known)}")
    out: dict[str, Any] = {k: None for k in TEXT_FIELDS + NUMBER_FIELDS}
    for key in TEXT_FIELDS:
        if key in data:
            out[key] = _text(data[key], f"{source}: field {key}", MAX_TEXT)
    for key in NUMBER_FIELDS:
        if key in data:
            out[key] = _amount(data[key], f"{source}: field {key}")
    if out["min_bet"] is not None and out["max_bet"] is not None and out["min_bet"] > out["max_bet"]:
        raise MetadataError(f"{source}: min_bet {out['min_bet']} is above max_bet {out['max_bet']}")
    out["published_rtp"] = _published_rtp(data.get("published_rtp"), source)
    convention = data.get("published_rtp_convention", "total_wagered")
    if not isinstance(convention, str) or convention not in CONVENTIONS:
        raise MetadataError(f"{source}: field 'published_rtp_convention' must be one of {', '.join(CONVENTIONS)}, "
                            f"got {excerpt(str(convention))}")
    if "published_rtp_convention" in data and out["published_rtp"] is None:
        raise MetadataError(f"{source}: field 'published_rtp_convention' needs 'published_rtp'")
    out["published_rtp_convention"] = convention
    stake = data.get("even_money_stake", 1)
    if isinstance(stake, bool) or not isinstance(stake, (int, float)) or stake not in EVEN_MONEY_STAKES:
        raise MetadataError(f"{source}: field 'even_money_stake' must be 1 or 1.5 (initial bets), got "
                            f"{excerpt(str(stake))}")
    out["even_money_stake"] = stake
    revisions = data.get("revision", [])
    if not isinstance(revisions, list) or not all(isinstance(r, dict) for r in revisions):
        raise MetadataError(f"{source}: 'revision' must be a list of tables ([[revision]])")
    if len(revisions) > 100:
        raise MetadataError(f"{source}: {len(revisions)} revisions; the report lists at most 100")
    out["revision"] = []
    for i, rev in enumerate(revisions, 1):
        for key in rev:
            if key not in REVISION_FIELDS:
                raise MetadataError(f"{source}: revision {i}: unknown field {excerpt(key)}; known fields: "
                                    f"{', '.join(REVISION_FIELDS)}")
        out["revision"].append({k: None if rev.get(k) is None else
                                _text(rev[k], f"{source}: revision {i}: field {k}",
                                      MAX_DESCRIPTION if k == "description" else MAX_TEXT)
                                for k in REVISION_FIELDS})
    out["requirement"] = _requirements(data.get("requirement", []), source)
    return out


def _requirements(value: Any, source: str) -> list[dict[str, Any]]:
    """The [[requirement]] tables: each a minimum RTP (percent), its basis and convention, and a name."""
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise MetadataError(f"{source}: 'requirement' must be a list of tables ([[requirement]])")
    if len(value) > MAX_REQUIREMENTS:
        raise MetadataError(f"{source}: {len(value)} requirements; the report lists at most {MAX_REQUIREMENTS}")
    out = []
    for i, req in enumerate(value, 1):
        where = f"{source}: requirement {i}"
        for key in req:
            if key not in REQUIREMENT_FIELDS:
                raise MetadataError(f"{where}: unknown field {excerpt(key)}; known fields: "
                                    f"{', '.join(REQUIREMENT_FIELDS)}")
        if "minimum_rtp" not in req or "basis" not in req:
            raise MetadataError(f"{where} needs minimum_rtp (percent) and basis ({', '.join(BASES)})")
        minimum = _percent(req["minimum_rtp"], f"{where}: field minimum_rtp", 100)
        basis, convention = req["basis"], req.get("convention", "total_wagered")
        if not isinstance(basis, str) or basis not in BASES:
            raise MetadataError(f"{where}: field basis must be one of {', '.join(BASES)}, got {excerpt(str(basis))}")
        if not isinstance(convention, str) or convention not in CONVENTIONS:
            raise MetadataError(f"{where}: field convention must be one of {', '.join(CONVENTIONS)}, got "
                                f"{excerpt(str(convention))}")
        name = _text(req["name"], f"{where}: field name", MAX_TEXT) if "name" in req else None
        out.append({"name": name, "minimum_rtp": minimum, "basis": basis, "convention": convention})
    return out


def _text(value: Any, where: str, longest: int) -> str | None:
    """A text field: one line of at most ``longest`` characters, without control characters, every character one
    the report's PDF font can draw; None when blank."""
    if not isinstance(value, str):
        raise MetadataError(f"{where} must be one line of text, got {type(value).__name__} "
                            f"{excerpt(str(value))}")
    if len(value) > longest:
        raise MetadataError(f"{where} has {len(value):,} characters; at most {longest:,}")
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise MetadataError(f"{where} must be one line of text without control characters, got U+{ord(ch):04X}")
    backwards = [ch for ch in value if unicodedata.bidirectional(ch) in ("R", "AL")]
    if backwards:
        ch = backwards[0]
        raise MetadataError(f"{where}: U+{ord(ch):04X} is right-to-left text, which the PDF of the report cannot set "
                            f"(it would print the letters in the wrong order); write it in Latin letters")
    missing = [ch for ch in value if ord(ch) not in drawable()]
    if missing:
        ch = missing[0]
        raise MetadataError(f"{where}: the font of the report (DejaVu Sans) cannot draw U+{ord(ch):04X} "
                            f"({unicodedata.name(ch, 'unnamed')}); write it in Latin, Greek or Cyrillic letters")
    return value.strip() or None


@functools.cache
def drawable() -> frozenset[int]:
    """The code points every face of the report's PDF font (DejaVu Sans: regular, bold, oblique) can draw."""
    from fontTools.ttLib import TTFont

    from ev.present.report.render_pdf import font_path
    faces = []
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"):
        font = TTFont(str(font_path(name)), lazy=True)
        faces.append(set(font.getBestCmap()))
        font.close()
    return frozenset(set.intersection(*faces) | {0x20})


def _amount(value: Any, where: str) -> float | int:
    """A table limit: a positive amount of at most MAX_BET with at most BET_DECIMALS decimals."""
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (isinstance(value, float) and not math.isfinite(value)) or not value > 0):
        raise MetadataError(f"{where} must be a positive number, got {excerpt(str(value))}")
    if value > MAX_BET:
        raise MetadataError(f"{where} is {excerpt(str(value))}; a table limit may be at most {MAX_BET:,}")
    if round(value, BET_DECIMALS) != value:
        raise MetadataError(f"{where} is {value!r}; an amount has at most {BET_DECIMALS} decimals")
    return value


def _published_rtp(value: Any, source: str) -> dict | None:
    """The published RTP as {"percent": "99.59", "decimals": 2, "value": 0.9959}, or None."""
    if value is None:
        return None
    return _percent(value, f"{source}: field 'published_rtp'", 200)


def _percent(value: Any, where: str, largest: int) -> dict:
    """A percentage above 0 and at most ``largest`` (a string such as "99.59" keeps its decimals), as
    {"percent": "99.59", "decimals": 2, "value": 0.9959}."""
    from decimal import Decimal, InvalidOperation
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise MetadataError(f"{where} must be a percentage such as \"99.59\", got {value!r}")
    text = value.strip().removesuffix("%").strip() if isinstance(value, str) else repr(value)
    try:
        number = Decimal(text)
    except InvalidOperation:
        number = Decimal("NaN")
    if not number.is_finite() or not 0 < number <= largest or "e" in text.lower():
        raise MetadataError(f"{where} must be a percentage from 0 to {largest} such as \"99.59\", got {value!r}")
    decimals = max(0, -number.as_tuple().exponent)  # type: ignore[operator]
    return {"percent": text, "decimals": decimals, "value": float(number) / 100}


def empty_meta() -> dict[str, Any]:
    """The metadata of a report run without ``--meta``: every field blank."""
    return check_meta({})


def build_commit() -> str | None:
    """The git commit of the code that runs, or None ("not recorded").

    Run from a git checkout (in place, editable install): the checkout's commit, which a
    build file left by an older build could misstate.  Installed (``pip install .``):
    the commit setup.py recorded at build time in ``ev/build_commit.txt`` (a clean tree only).
    """
    commit = checkout_commit()
    if commit is None and BUILD_COMMIT_FILE.is_file():
        text = BUILD_COMMIT_FILE.read_text(encoding="ascii", errors="replace").strip()
        commit = text if len(text) == 40 else None
    return commit


def checkout_commit() -> str | None:
    """The commit of the source tree this package runs from, or None (not a git checkout, no git)."""
    package = Path(__file__).resolve().parents[2]
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=package, capture_output=True, text=True,
                             timeout=10)
        # an installed copy inside some other repository must not report that repository's commit
        if top.returncode != 0 or Path(top.stdout.strip()).resolve() / "ev" != package:
            return None
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=package, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and len(commit) == 40 else None


__all__ = ["BLANK_FIELDS", "BUILD_COMMIT_FILE", "build_commit", "check_meta", "checkout_commit", "empty_meta",
           "load_meta"]
