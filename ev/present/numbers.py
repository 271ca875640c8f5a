"""Number formatting, in one place: decimals and percentages per language, net results, exact values.

* :func:`number`, :func:`integer`, :func:`percent`: a float with a fixed number
  of decimals and grouped thousands, in the language's CLDR convention by Babel
  (``babel.numbers``): English writes ``1,234.5``, German ``1.234,5`` and Polish
  ``1 234,5`` (a decimal comma in both, a no-break space as the Polish group).
  The strategy charts, their plots' axes and the math report all print through
  these.  English takes a fast path that writes the same characters as Babel
  (``tests/test_numbers.py`` holds them to it).  Percentages keep a no-break space
  before the sign in every language (ISO 80000-1: ``99.59 %``), where CLDR writes
  ``99.59%`` in English and Polish.
* :func:`net_text`: the net result of a round in initial bets, written short:
  ``-2``, ``1.5``, ``0`` (``+1``, ``+0`` with ``sign``).  Results are whole
  numbers of tenths of a bet (payouts 3:2, 6:5, 1:1; insurance half a bet),
  so a float and an exact ``Fraction`` of the same result print alike.
* :func:`fraction_text`, :func:`decimal_text`, :func:`exact_json`,
  :func:`exact_text`: exact rational values as ``p/q`` and as a decimal
  expansion of 20 significant digits.
"""
from __future__ import annotations

import math
import sys
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from functools import cache
from typing import Any

__all__ = ["decimal_text", "exact_json", "exact_text", "fraction_text", "integer", "json_ready", "localized",
           "net_text", "number", "percent"]

#: a no-break space: keeps a number with its unit ("99.59 %") and a Polish thousands group on one line
NBSP = "\u00a0"


@cache
def _pattern(digits: int, sign: bool, lang: str) -> tuple[Any, Any]:
    """Babel's number pattern for ``digits`` decimals (with an explicit sign) and the locale of ``lang``."""
    from babel import Locale
    from babel.numbers import parse_pattern
    body = "#,##0" + ("." + "0" * digits if digits else "")
    return parse_pattern(f"+{body};-{body}" if sign else body), Locale.parse(lang)


# ----- floats, per language ---------------------------------------------------------------
def number(x: float, digits: int, lang: str = "en", sign: bool = False) -> str:
    """``x`` with ``digits`` decimals and grouped thousands, in the language's convention (Babel's CLDR data).

    German and Polish use a decimal comma; they group thousands with a dot and a
    no-break space respectively.  The value is rounded half to even from its exact
    binary value, as Python's format does.
    """
    if round(x, digits) == 0:      # a value that rounds to zero shows no sign: 0.0000, not -0.0000 (float noise)
        x, sign = 0.0, False
    if lang == "en":
        return f"{x:+,.{digits}f}" if sign else f"{x:,.{digits}f}"
    pattern, locale = _pattern(digits, sign, lang)
    return str(pattern.apply(Decimal(x), locale))


def localized(text: str, lang: str = "en") -> str:
    """A number written the English way without grouping ("-1.5", "99.5", "1e-05") with the decimal symbol of
    ``lang`` (Babel's CLDR data: a comma in German and Polish): the plots' axis and bar labels."""
    if lang == "en":
        return text
    from babel.numbers import get_decimal_symbol
    return text.replace(".", get_decimal_symbol(lang))


def integer(n: int, lang: str = "en") -> str:
    """A whole number with grouped thousands: 10,000,000 (10.000.000 in German, 10 000 000 in Polish)."""
    return number(n, 0, lang)


def percent(x: float, digits: int, lang: str = "en", sign: bool = False) -> str:
    """A fraction as a percentage: 0.995909 -> '99.5909 %' ('99,5909 %' in German and Polish)."""
    return f"{number(100 * x, digits, lang, sign)}{NBSP}%"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scientific(x: float, lang: str = "en", digits: int = 2) -> str:
    """A small or large magnitude without e-notation: 4.9e-17 -> '4.9 × 10⁻¹⁷' ('4,9 × 10⁻¹⁷'); 0 -> '0'."""
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    mantissa = number(float(mantissa), digits - 1, lang)
    power = f"10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return power if mantissa in ("1", "1,0", "1.0") and digits <= 2 else f"{mantissa}{NBSP}×{NBSP}{power}"


# ----- net results ---------------------------------------------------------------------------
def net_text(x: float | Fraction, sign: bool = False) -> str:
    """A round's net result in initial bets: '-2', '-0.5', '0', '1.5', '2' ('+1.5', '+0' with ``sign``).

    ``x`` (float or Fraction) is a whole number of tenths of a bet; it is
    written with one decimal when it has one and none otherwise.
    """
    tenths = round(x * 10)
    whole, tenth = divmod(abs(tenths), 10)
    text = f"{whole}.{tenth}" if tenth else str(whole)
    if tenths < 0:
        return "-" + text
    return "+" + text if sign else text


# ----- exact values --------------------------------------------------------------------------
# exact values can have numerators and denominators of thousands of digits (resplit games)
sys.set_int_max_str_digits(0)
_DEC20 = Context(prec=20, rounding=ROUND_HALF_EVEN)


def fraction_text(x: Fraction) -> str:
    """``"p/q"`` in lowest terms (``"1/1"`` for one, ``"0/1"`` for zero)."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def decimal_text(x: Fraction, digits: int = 20) -> str:
    """The decimal expansion of ``x`` rounded (half-even) to ``digits`` significant digits, never in E notation."""
    x = Fraction(x)
    ctx = _DEC20 if digits == 20 else Context(prec=digits, rounding=ROUND_HALF_EVEN)
    d = ctx.divide(Decimal(x.numerator), Decimal(x.denominator))
    text = format(d, "f")
    return "0" if d == 0 else text


def exact_json(x: Any) -> Any:
    """JSON form of an exact value: ``{"fraction": "p/q", "decimal": "<20 significant digits>"}``.

    ``None`` stays ``None``; dicts and lists are converted item by item.
    """
    if x is None:
        return None
    if isinstance(x, dict):
        return {k: exact_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [exact_json(v) for v in x]
    if isinstance(x, bool):
        return x
    return {"fraction": fraction_text(x), "decimal": decimal_text(x)}


def exact_text(x: Fraction | None, scale: int = 1, unit: str = "") -> str:
    """``'-123/456 = -0.26973684210526315789'`` (``scale`` 100 and unit ' %' for percentages)."""
    if x is None:
        return "-"
    x = Fraction(x) * scale
    return f"{fraction_text(x)} = {decimal_text(x)}{unit}"


# ----- strict JSON ------------------------------------------------------------------------------
def json_ready(value: Any) -> Any:
    """``value`` for strict JSON (``json.dumps(..., allow_nan=False)``): NaN and the infinities become null
    (a missing number), at any depth; keys become text."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value
