"""The rules of a blackjack table: an immutable, validated value object.

``Rules()`` is the seed game, *Blackjack Touch - Single Deck*: one deck
reshuffled every round, dealer hits soft 17, blackjack pays 3:2, double on
10-11 only, one split only, split aces get one card, insurance and even money.
The dealer checks the hole card under a ten, as the English rule text says, and
not under an ace (``peek="ten"``).  The text is silent on what an unchecked
dealer blackjack under an ace takes; the default reads it as the original bet only
(``unchecked_blackjack_takes="original"``), the reading consistent with the
published RTP of 99.59 % (taking every wager gives 99.57 %; see docs/rtp.md, "Rule
readings").  In expected value this game is the same as a peek under the ace.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from operator import truediv
from pathlib import Path
from typing import Any

from ev.core.cards import ACE, TEN, TEN_FACES, blackjack_rank
from ev.errors import BJEVError, RulesError, excerpt

#: allowed values of the enumerated fields
CHOICES: dict[str, tuple[str, ...]] = {
    "blackjack_payout": ("3:2", "6:5", "1:1"),
    "double": ("any", "9-11", "10-11"),
    "split_tens": ("value", "rank"),
    "peek": ("ace_ten", "ten", "none"),
    "unchecked_blackjack_takes": ("all", "original"),
}
RANGES: dict[str, tuple[int, int]] = {"decks": (1, 8), "max_split_hands": (1, 4)}
#: a rules file is a few hundred bytes; anything larger than this is refused unread
MAX_RULES_FILE_BYTES = 64 * 1024
#: an integer rule value as text: ASCII digits only (Python's int() would also take '٤' or '1_0')
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)

DESCRIPTIONS: dict[str, str] = {
    "decks": "number of 52-card decks, reshuffled every round (1-8)",
    "hit_soft_17": "dealer hits soft 17 (H17); false means stand on all 17s (S17)",
    "blackjack_payout": "what a player blackjack pays",
    "double": "which first two cards may double: any two, hard 9-11, or hard 10-11",
    "double_soft": "soft hands may double (only matters with double=any)",
    "double_after_split": "a split hand may double on its first two cards (DAS)",
    "max_split_hands": "the most hands splitting can make: 1 no split, 2 split once, up to 4",
    "split_aces_one_card": "each split ace receives exactly one card",
    "resplit_aces": "aces may be resplit (needs max_split_hands > 2)",
    "split_tens": "ten-valued pairs split by value (K-Q) or only by rank (K-K)",
    "peek": "when the dealer checks the hole card for blackjack: under ace or ten, ten only, or never",
    "unchecked_blackjack_takes": "what an unchecked dealer blackjack takes: all wagers or the original bet",
    "insurance": "insurance is offered under a dealer ace",
    "even_money": "even money is offered to a blackjack under a dealer ace",
    "late_surrender": "late surrender of the first two cards (not after a split)",
}


@dataclass(frozen=True)
class Rules:
    """Rules of one table.  All fields are validated on construction."""

    decks: int = 1
    hit_soft_17: bool = True
    blackjack_payout: str = "3:2"
    double: str = "10-11"
    double_soft: bool = True
    double_after_split: bool = False
    max_split_hands: int = 2
    split_aces_one_card: bool = True
    resplit_aces: bool = False
    split_tens: str = "value"
    peek: str = "ten"
    unchecked_blackjack_takes: str = "original"
    insurance: bool = True
    even_money: bool = True
    late_surrender: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise RulesError(f"rule {f.name}: expected true or false, got {excerpt(value)}")
            elif f.name in RANGES:
                lo, hi = RANGES[f.name]
                if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                    raise RulesError(f"rule {f.name}: expected an integer from {lo} to {hi}, got {excerpt(value)}")
            elif f.name in CHOICES and value not in CHOICES[f.name]:
                allowed = ", ".join(CHOICES[f.name])
                raise RulesError(f"rule {f.name}: {excerpt(value)} is not allowed; choose one of {allowed}")

    # ----- derived views -------------------------------------------------
    @property
    def payout(self) -> Fraction:
        """Blackjack payout as a fraction of the initial bet (3:2 -> 3/2)."""
        a, b = self.blackjack_payout.split(":")
        return Fraction(int(a), int(b))

    # ----- rule questions ---------------------------------------------------
    @property
    def double_totals(self) -> tuple[int, int]:
        """The lowest and highest two-card total that may double."""
        return {"any": (0, 21), "9-11": (9, 11), "10-11": (10, 11)}[self.double]

    def may_double(self, total: int, soft: bool, after_split: bool = False) -> bool:
        """May a two-card hand of this total double (``after_split``: a hand made by a split)?"""
        if after_split and not self.double_after_split:
            return False
        if soft and not self.double_soft:
            return False
        lo, hi = self.double_totals
        return lo <= total <= hi

    @property
    def may_split(self) -> bool:
        return self.max_split_hands >= 2

    def may_resplit(self, pair: int) -> bool:
        """May a pair of this rank (a rank index) be split again when a split hand draws a third?"""
        return self.max_split_hands > 2 and (pair != ACE or self.resplit_aces)

    def split_hands(self, pair: int) -> int:
        """The most hands splitting a pair of this rank can make (1: no split)."""
        if not self.may_split:
            return 1
        return self.max_split_hands if self.may_resplit(pair) else 2

    def one_card_after_split(self, pair: int) -> bool:
        """Does each hand split from this pair receive exactly one card and stand?"""
        return pair == ACE and self.split_aces_one_card

    def resplit_rank_cards(self, pair: int) -> int | None:
        """For ten-valued pairs split by rank only: the cards of one ten rank in the full shoe; else None."""
        return 4 * self.decks if (pair == TEN and self.split_tens == "rank") else None

    def splittable(self, faces: Sequence[str]) -> bool:
        """May this two-card hand (faces such as 'K', 'Q', '8') be split?"""
        if faces[0] in TEN_FACES and faces[1] in TEN_FACES:
            return self.split_tens == "value" or faces[0] == faces[1]
        return faces[0] == faces[1]

    def same_ten_rank_probability(self, ratio: Callable[[int, int], Any] = truediv) -> Any:
        """P(two ten-valued cards share a rank) when tens split only by rank; 1 when by value.

        ``ratio(a, b)`` makes a/b: float division or ``Fraction``."""
        if self.split_tens == "value":
            return ratio(1, 1)
        return ratio(4 * self.decks - 1, 16 * self.decks - 1)

    @staticmethod
    def insurance_ev(p_dealer_blackjack: Any) -> Any:
        """EV of the insurance bet (half the initial bet, pays 2:1), in initial bets."""
        return (3 * p_dealer_blackjack - 1) / 2

    def surrender_value(self, up: int, p_dealer_blackjack: Any) -> Any:
        """Late surrender in joint units: half the bet back; an unsettled dealer blackjack takes the whole bet."""
        kept = -(1 - p_dealer_blackjack) / 2
        return kept if self.blackjack_settled_as_peek(up) else kept - p_dealer_blackjack

    def settled_blackjack_rank(self, up: int) -> int:
        """The hole card whose blackjack is settled before play under ``up`` (a rank index), or -1."""
        return blackjack_rank(up) if self.blackjack_settled_as_peek(up) else -1

    def peeks_under(self, up: int) -> bool:
        """Does the dealer check the hole card under this up card (rank index)?"""
        if up == TEN:
            return self.peek in ("ace_ten", "ten")
        if up == ACE:
            return self.peek == "ace_ten"
        return False

    def blackjack_settled_as_peek(self, up: int) -> bool:
        """True when a dealer blackjack under this up card costs exactly the initial bet.

        That holds when the dealer peeks, and also when an unchecked blackjack
        takes only the original bet (OBO): in expected value the two are the
        same, so the engine conditions play on no dealer blackjack in both.
        """
        return self.peeks_under(up) or self.unchecked_blackjack_takes == "original"

    def has_effect(self, name: str) -> bool:
        """Can rule field ``name`` change anything under the other fields' values?

        For example ``double_soft`` is moot when only hard 9-11 or 10-11 may double,
        ``resplit_aces`` with one split, ``unchecked_blackjack_takes`` when the dealer
        checks under both an ace and a ten.
        """
        if name == "double_soft":
            return self.double == "any"
        if name == "resplit_aces":
            return self.max_split_hands > 2
        if name in ("double_after_split", "split_aces_one_card", "split_tens"):
            return self.may_split
        if name == "unchecked_blackjack_takes":
            return not (self.peeks_under(ACE) and self.peeks_under(TEN))
        return True

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def sha256(self) -> str:
        """SHA-256 of the canonical JSON of every field: identifies a rule set in reports."""
        import hashlib  # here: the commands that name no rule set by its hash start without it
        return hashlib.sha256(json.dumps(self.as_dict(), sort_keys=True).encode()).hexdigest()

    def as_toml(self) -> str:
        """The rule set as a TOML file that ``--rules`` reads back (every field, under ``[rules]``)."""
        return "[rules]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in self.as_dict().items())

    def replace(self, **changes: Any) -> Rules:
        return from_mapping({**self.as_dict(), **changes})

    def summary(self) -> str:
        """One line such as '1 deck, H17, 3:2, double 10-11, no DAS, split to 2, peek A/T'."""
        parts = [f"{self.decks} deck{'s' if self.decks > 1 else ''}",
                 "H17" if self.hit_soft_17 else "S17",
                 f"BJ {self.blackjack_payout}",
                 f"double {self.double}" + ("" if self.double_soft or self.double != "any" else " (hard)"),
                 "DAS" if self.double_after_split else "no DAS",
                 "no split" if self.max_split_hands == 1 else f"split to {self.max_split_hands}"]
        if self.resplit_aces and self.max_split_hands > 2:
            parts.append("RSA")
        if not self.split_aces_one_card:
            parts.append("hit split aces")
        if self.split_tens == "rank":
            parts.append("split tens by rank")
        parts.append({"ace_ten": "peek A/T", "ten": "peek T only", "none": "no hole card"}[self.peek])
        if self.peek != "ace_ten":
            parts.append("unchecked BJ takes " + ("all" if self.unchecked_blackjack_takes == "all" else "original bet"))
        if self.late_surrender:
            parts.append("late surrender")
        if not self.insurance:
            parts.append("no insurance")
        if not self.even_money:
            parts.append("no even money")
        return ", ".join(parts)


FIELD_NAMES = tuple(f.name for f in fields(Rules))
_FIELD_TYPES = {f.name: f.type for f in fields(Rules)}


def _coerce(name: str, raw: Any) -> Any:
    """Turn a string from --set (or a loosely typed file value) into the field's type."""
    kind = _FIELD_TYPES[name]
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    if kind in ("bool", bool):
        low = text.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"rule {name}: expected true or false, got {excerpt(raw)}")
    if kind in ("int", int):
        lo, hi = RANGES[name]
        if not _INTEGER.fullmatch(text) or len(text) > 20:
            raise RulesError(f"rule {name}: expected an integer from {lo} to {hi} in ASCII digits, got {excerpt(raw)}")
        return int(text)
    return text


def from_mapping(values: Mapping[str, Any]) -> Rules:
    """Build Rules from a mapping; unknown keys are an error that lists the known ones."""
    unknown = [k for k in values if k not in _FIELD_TYPES]
    if unknown:
        raise RulesError(f"unknown rule {excerpt(unknown[0])}; known rules: {', '.join(FIELD_NAMES)}")
    return Rules(**{k: _coerce(k, v) for k, v in values.items()})


def parse_assignments(items: Iterable[str]) -> dict[str, Any]:
    """Parse ['decks=2', 'hit_soft_17=false'] from --set into a dict of typed values."""
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise RulesError(f"--set expects key=value, got {excerpt(item)}")
        key, value = item.split("=", 1)
        key = key.strip().replace("-", "_")
        if key not in _FIELD_TYPES:
            raise RulesError(f"unknown rule {excerpt(key)}; known rules: {', '.join(FIELD_NAMES)}")
        if key in out:
            raise RulesError(f"rule {key} is set twice by --set; set it once")
        out[key] = _coerce(key, value)
    return out


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def read_rules_text(path: str | Path, what: str = "rules file", limit: int = MAX_RULES_FILE_BYTES,
                    error: type[BJEVError] = RulesError) -> str:
    """The text of a rules file (``what``: the kind of file named in errors): a regular file of at most ``limit``
    bytes, in UTF-8.

    Anything else (a directory, a FIFO, a device such as /dev/zero, a larger file, other encodings)
    is an ``error`` (RulesError), raised before more than the allowed bytes are read and without waiting for a
    writer.
    """
    name = excerpt(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise error(f"cannot read {what} {name}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{what} {name} is {_file_kind(info.st_mode)}: give a regular TOML or JSON file")
        if info.st_size > limit:
            raise error(f"{what} {name} has {info.st_size:,} bytes; a {what} may have at most {limit:,}")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise error(f"{what} {name} has more than {limit:,} bytes")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {name} is not UTF-8 text (byte {exc.start}): save it as UTF-8") from None


def read_data_file(path: str | Path, what: str = "rules file", limit: int = MAX_RULES_FILE_BYTES,
                   error: type[BJEVError] = RulesError, toml_only: bool = False, entry: str = "rule") -> dict[str, Any]:
    """The table of a TOML or JSON file (chosen by extension; ``toml_only``: TOML whatever the name), read by
    :func:`read_rules_text`: a mapping, or one ``error`` line (not valid, nested too deeply, not a table)."""
    name = excerpt(str(path))
    text = read_rules_text(path, what, limit, error)
    toml = toml_only or Path(path).suffix.lower() == ".toml"
    try:
        if toml:
            import tomllib
            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except (ValueError, RecursionError) as exc:     # decode errors; integers of over 4,300 digits; deep nesting
        reason = "it is nested too deeply" if isinstance(exc, RecursionError) else excerpt(str(exc), 80)[1:-1]
        raise error(f"{what} {name} is not valid {'TOML' if toml else 'JSON'}: {reason}") from None
    if not isinstance(data, dict):
        raise error(f"{what} {name} must hold a table of {entry} = value")
    return data


def load_rules_file(path: str | Path) -> dict[str, Any]:
    """Read rule values from a TOML or JSON file (chosen by extension; JSON is tried first otherwise); the values
    may sit in a ``[rules]`` table."""
    data = read_data_file(path)
    if isinstance(data.get("rules"), dict):
        data = data["rules"]  # allow a [rules] table / {"rules": {...}} wrapper
    return data


def make_rules(rules_file: str | Path | None = None, assignments: Iterable[str] = ()) -> Rules:
    """Default rules, overridden by a file, then by --set key=value items."""
    values: dict[str, Any] = {}
    if rules_file is not None:
        values.update(load_rules_file(rules_file))
    values.update(parse_assignments(assignments))
    return from_mapping(values)
