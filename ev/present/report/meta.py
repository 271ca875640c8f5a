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

A bad file (unreadable, not TOML, an unknown field, a value of the wrong type) is a
:class:`ev.errors.MetadataError`: one line naming the field, exit code 2 at the CLI.

Also here: the git commit bjev was built from (:func:`build_commit`).
"""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from ev.errors import MetadataError

TEXT_FIELDS = ("supplier", "game_name", "game_id", "game_version", "jurisdiction", "document_id", "author",
               "reviewer", "approver", "currency")
NUMBER_FIELDS = ("min_bet", "max_bet")
#: what a published RTP may divide by
CONVENTIONS = ("total_wagered", "initial_bet")
#: the stakes the report may count for even money, in initial bets
EVEN_MONEY_STAKES = (1, 1.5)
REVISION_FIELDS = ("revision", "date", "author", "description")
#: the fields a lab expects filled in (printed as blanks when missing)
BLANK_FIELDS = ("supplier", "game_name", "game_id", "game_version", "jurisdiction", "document_id", "author",
                "reviewer", "approver")
#: written by setup.py at build time (git-ignored); read by build_commit()
BUILD_COMMIT_FILE = Path(__file__).resolve().parents[2] / "build_commit.txt"


def load_meta(path: str | Path) -> dict[str, Any]:
    """Read and validate a metadata file; every field present, None where not given."""
    import tomllib
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MetadataError(f"cannot read metadata file {str(p)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise MetadataError(f"metadata file {str(p)!r} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise MetadataError(f"metadata file {str(p)!r} is not valid TOML: {exc}") from None
    return check_meta(data, str(p))


def check_meta(data: dict, source: str = "metadata") -> dict[str, Any]:
    """Validate a metadata mapping (see the module docstring); unknown keys and wrong types are errors."""
    known = TEXT_FIELDS + NUMBER_FIELDS + ("revision", "published_rtp", "published_rtp_convention", "even_money_stake")
    for key in data:
        if key not in known:
            raise MetadataError(f"{source}: unknown field {key!r}; known fields: {', '.join(known)}")
    out: dict[str, Any] = {k: None for k in TEXT_FIELDS + NUMBER_FIELDS}
    for key in TEXT_FIELDS:
        if key in data:
            value = data[key]
            if not isinstance(value, str) or "\n" in value:
                raise MetadataError(f"{source}: field {key!r} must be one line of text, got {value!r}")
            out[key] = value.strip() or None
    for key in NUMBER_FIELDS:
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise MetadataError(f"{source}: field {key!r} must be a positive number, got {value!r}")
            out[key] = value
    if out["min_bet"] is not None and out["max_bet"] is not None and out["min_bet"] > out["max_bet"]:
        raise MetadataError(f"{source}: min_bet {out['min_bet']} is above max_bet {out['max_bet']}")
    out["published_rtp"] = _published_rtp(data.get("published_rtp"), source)
    convention = data.get("published_rtp_convention", "total_wagered")
    if convention not in CONVENTIONS:
        raise MetadataError(f"{source}: field 'published_rtp_convention' must be one of {', '.join(CONVENTIONS)}, "
                            f"got {convention!r}")
    if "published_rtp_convention" in data and out["published_rtp"] is None:
        raise MetadataError(f"{source}: field 'published_rtp_convention' needs 'published_rtp'")
    out["published_rtp_convention"] = convention
    stake = data.get("even_money_stake", 1)
    if isinstance(stake, bool) or stake not in EVEN_MONEY_STAKES:
        raise MetadataError(f"{source}: field 'even_money_stake' must be 1 or 1.5 (initial bets), got {stake!r}")
    out["even_money_stake"] = stake
    revisions = data.get("revision", [])
    if not isinstance(revisions, list) or not all(isinstance(r, dict) for r in revisions):
        raise MetadataError(f"{source}: 'revision' must be a list of tables ([[revision]])")
    out["revision"] = []
    for i, rev in enumerate(revisions, 1):
        for key, value in rev.items():
            if key not in REVISION_FIELDS:
                raise MetadataError(f"{source}: revision {i}: unknown field {key!r}; known fields: "
                                    f"{', '.join(REVISION_FIELDS)}")
            if not isinstance(value, str) or "\n" in value:
                raise MetadataError(f"{source}: revision {i}: field {key!r} must be one line of text")
        out["revision"].append({k: rev.get(k) for k in REVISION_FIELDS})
    return out


def _published_rtp(value: Any, source: str) -> dict | None:
    """The published RTP as {"percent": "99.59", "decimals": 2, "value": 0.9959}, or None."""
    from decimal import Decimal, InvalidOperation
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise MetadataError(f"{source}: field 'published_rtp' must be a percentage such as \"99.59\", got {value!r}")
    text = value.strip().removesuffix("%").strip() if isinstance(value, str) else repr(value)
    try:
        number = Decimal(text)
    except InvalidOperation:
        number = Decimal("NaN")
    if not number.is_finite() or not 0 < number <= 200 or "e" in text.lower():
        raise MetadataError(f"{source}: field 'published_rtp' must be a percentage from 0 to 200 such as "
                            f"\"99.59\", got {value!r}")
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
