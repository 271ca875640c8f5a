"""Every user-facing phrase of the charts and the math report in English, German and Polish: gettext catalogues.

The phrases live in ``ev/present/locale``: ``bjev.pot`` (the template: every message with its English
text) and ``de/LC_MESSAGES/bjev.po``, ``pl/LC_MESSAGES/bjev.po`` (the translations), read with Babel
and served by the standard library's :mod:`gettext` (``pgettext``, ``npgettext``), which evaluates each
catalogue's ``Plural-Forms``: German has two forms, Polish three (1 karta, 2 karty, 5 kart, 22 karty,
25 kart).  Edit a ``.po`` file with any gettext tool (Poedit, Lokalize, ``msgfmt --check``).

A message is named by its context (``msgctxt``), the key the code uses; its ``msgid`` is the English text.
Keys are grouped by prefix:

* ``action.*``  the player's decisions (``action.stand`` ...), ``abbr.*`` their
  one-letter chart codes (English S H D P R; German S Z V P A, P for "Paar teilen" as T is the ten; Polish S K P D R);
* ``chart.*``, ``row.*``, ``legend.*``, ``note.*``, ``summary.*``: the strategy chart;
* ``exceptions.*``, ``evtable.*``: the composition-dependent exceptions and the EV tables;
* ``rules.*``: the pieces of a rule summary (see :func:`rules_summary`, used by the
  charts and the report alike); ``rules.decks`` and ``noun.*`` are plural messages (:func:`tn`, :func:`counted`);
* the math report (:mod:`ev.present.report`): section headings ``s1`` ... ``s10`` and the phrases of each
  section, ``rule.*`` (rule parameter meanings), ``reading.*``, ``effect.*``, ``freq.*``, ``class.*``, ...
  (keys as the report code names them).

A phrase is written once.  Where a second key names the same phrase (the report's
``freq.double`` is the charts' ``action.double``), :data:`ALIASES` maps it to the
key that holds the text, so :func:`t` answers for both.

The German and Polish casino terms follow the game's own rule texts (the seed
files): Verdoppeln, Teilen, Versicherung, Even Money; Podwojenie stawki,
Dzielenie, Ubezpieczenie.  Placeholders are ``str.format`` fields.
"""
from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import Any

from ev.errors import BJEVError

LANGUAGES = ("en", "de", "pl")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "bjev"


def _read_po(path: Path) -> Any:
    from babel.messages.pofile import read_po  # Babel is imported only where a phrase is needed
    with open(path, "rb") as handle:
        return read_po(handle, domain=DOMAIN)


@cache
def _english() -> dict[str, str | tuple[str, str]]:
    """Every message key and its English text (a (singular, plural) pair for a plural message), from the
    template."""
    return {m.context: m.id for m in _read_po(LOCALE_DIR / f"{DOMAIN}.pot") if m.id and m.context}


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The gettext translations of ``lang`` (English: the messages' own text)."""
    if check_language(lang) == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    compiled = io.BytesIO()
    write_mo(compiled, _read_po(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


#: Keys that name a phrase kept under another key (each phrase is written once):
#: ``alias -> (key, fields)``; ``fields`` are filled in before the caller's own.
ALIASES: dict[str, tuple[str, dict[str, Any]]] = {
    "evtable.best": ("exceptions.best_action", {}),
    "evtable.intro": ("evtable.intro_split", {"split": "CDZ-"}),
    # the report's words for decisions and hands are the charts'
    "freq.double": ("action.double", {}),
    "freq.split": ("action.split", {}),
    "freq.insurance": ("action.insurance", {}),
    "freq.even_money": ("action.even_money", {}),
    "insurance_title": ("action.insurance", {}),
    "even_title": ("action.even_money", {}),
    "class.blackjack": ("action.blackjack", {}),
    # rule parameter meanings and rule effects that are pieces of the rule summary
    "rule.hit_soft_17": ("rules.h17", {}),
    "rule.double_after_split": ("rules.das", {}),
    "rule.split_aces_one_card": ("rules.split_aces_one", {}),
    "rule.resplit_aces": ("rules.resplit_aces", {}),
    "rule.late_surrender": ("rules.late_surrender", {}),
    "effect.double on any two cards": ("rules.double.any", {}),
    "effect.double after split": ("rules.das", {}),
    "effect.late surrender": ("rules.late_surrender", {}),
    "effect.blackjack pays 6:5": ("rules.payout", {"payout": "6:5"}),
    "effect.2 decks": ("rules.decks", {"n": 2}),
    "effect.6 decks": ("rules.decks", {"n": 6}),
    "effect.8 decks": ("rules.decks", {"n": 8}),
    "effect.1 deck": ("rules.decks", {"n": 1}),
    "effect.dealer hits soft 17": ("rules.h17", {}),
    "effect.double on 10-11 only": ("rules.double.range", {"lo": 10, "hi": 11}),
    "effect.no double after split": ("rules.no_das", {}),
    "effect.one split only": ("rules.one_split", {}),
    "effect.blackjack pays 3:2": ("rules.payout", {"payout": "3:2"}),
    "effect.dealer checks under an ace and a ten": ("rules.peek.ace_ten", {}),
}


def check_language(lang: str) -> str:
    """``lang`` if it is supported, else a BJEVError naming the choices."""
    if lang not in LANGUAGES:
        raise BJEVError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def counted(n: int, noun: str, lang: str, shown: str | None = None) -> str:
    """A count with its noun in the right plural form ("52 karty", "25 kart"); ``noun``: cards, hands or lines;
    ``shown``: the number as printed (with the language's digit grouping), default ``str(n)``."""
    return f"{shown if shown is not None else n}\u00a0{tn('noun.' + noun, n, lang)}"


def tn(key: str, n: int, lang: str = "en", **fields: Any) -> str:
    """The plural message ``key`` in the form for the count ``n`` (``{n}`` in the text is filled with it)."""
    english = _english()[key]
    if not isinstance(english, tuple):
        raise KeyError(f"{key!r} is not a plural message")
    text = translations(lang).npgettext(key, english[0], english[1], n)
    return text.format(n=n, **fields) if "{" in text else text


def t(key: str, lang: str = "en", **fields: Any) -> str:
    """The message ``key`` in ``lang``, with ``fields`` filled in (a plural message takes its count from ``n``)."""
    key, preset = ALIASES.get(key, (key, {}))
    fields = {**preset, **fields}
    english = _english()[key]
    if isinstance(english, tuple):
        return tn(key, fields.pop("n"), lang, **fields)
    text = translations(lang).pgettext(key, english)
    return text.format(**fields) if fields else text


def has(key: str) -> bool:
    """Whether ``key`` names a message (directly or through :data:`ALIASES`)."""
    return key in _english() or key in ALIASES


def join_and(items: list[str], lang: str = "en") -> str:
    """'A', 'A and 10', 'A, 2 and 10' in ``lang``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {t('and', lang)} {items[-1]}"


def rules_summary(rules: Any, lang: str = "en") -> str:
    """One line describing a :class:`ev.rules.Rules` in ``lang``."""
    parts = [tn("rules.decks", rules.decks, lang),
             t("rules.h17" if rules.hit_soft_17 else "rules.s17", lang),
             t("rules.payout", lang, payout=rules.blackjack_payout)]
    if rules.double == "any":
        double = t("rules.double.any", lang)
        if not rules.double_soft:
            double += " " + t("rules.double.hard", lang)
    else:
        lo, hi = rules.double.split("-")
        double = t("rules.double.range", lang, lo=lo, hi=hi)
    parts.append(double)
    parts.append(t("rules.das" if rules.double_after_split else "rules.no_das", lang))
    if rules.max_split_hands == 1:
        parts.append(t("rules.no_split", lang))
    else:
        parts.append(t("rules.one_split", lang) if rules.max_split_hands == 2
                     else t("rules.split_to", lang, n=rules.max_split_hands))
        parts.append(t("rules.split_aces_one" if rules.split_aces_one_card else "rules.hit_split_aces", lang))
        if rules.resplit_aces and rules.max_split_hands > 2:
            parts.append(t("rules.resplit_aces", lang))
        if rules.split_tens == "rank":
            parts.append(t("rules.split_tens_rank", lang))
    parts.append(t(f"rules.peek.{rules.peek}", lang))
    if rules.peek != "ace_ten":
        parts.append(t(f"rules.unchecked.{rules.unchecked_blackjack_takes}", lang))
    if rules.late_surrender:
        parts.append(t("rules.late_surrender", lang))
    if not rules.insurance:
        parts.append(t("rules.no_insurance", lang))
    if not rules.even_money:
        parts.append(t("rules.no_even_money", lang))
    return ", ".join(parts)
