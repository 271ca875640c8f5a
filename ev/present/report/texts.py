"""The math report's phrase lookup (the phrases live in ``ev.present.i18n``).

Every phrase of the report, in English, German and Polish, is in the gettext catalogues of
``ev.present.i18n``, shared with the strategy charts.  :func:`t` looks a key up there, aliases
included (``ev.present.i18n.ALIASES``), so the report and the charts use the same words.

Numbers are formatted by :mod:`ev.present.numbers` (shared with the charts).
"""
from __future__ import annotations

from typing import Any

from ev.present import i18n
from ev.present.i18n import LANGUAGES, check_language

__all__ = ["LANGUAGES", "check_language", "t", "t_or", "yes_no"]


def t(key: str, lang: str, **fields: Any) -> str:
    """The phrase ``key`` in ``lang`` (from ``ev.present.i18n``), fields filled in."""
    if not i18n.has(key):
        raise KeyError(f"no report text {key!r}")
    return i18n.t(key, lang, **fields)


def t_or(key: str, lang: str, fallback: str) -> str:
    """``t(key)`` when the key exists, else ``fallback`` (labels made elsewhere, e.g. new rule effects)."""
    try:
        return t(key, lang)
    except KeyError:
        return fallback


def yes_no(flag: bool, lang: str) -> str:
    """'yes' / 'no' in ``lang``, lower case (the charts' answer words)."""
    return t("answer.yes" if flag else "answer.no", lang).lower()
