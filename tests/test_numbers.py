"""Number formatting (ev.present.numbers): languages, net results, exact values."""
from __future__ import annotations

from fractions import Fraction

import pytest

from ev.present.numbers import decimal_text, exact_json, exact_text, fraction_text, integer, net_text, number, percent


@pytest.mark.parametrize("lang, grouped, whole, small", [
    ("en", "1,234,567.125", "10,000,000", "-0.5000"),
    ("de", "1.234.567,125", "10.000.000", "-0,5000"),
    ("pl", "1\u00a0234\u00a0567,125", "10\u00a0000\u00a0000", "-0,5000"),   # no-break spaces
])
def test_number_groups_thousands_and_uses_the_decimal_mark_of_the_language(lang, grouped, whole, small):
    assert number(1234567.125, 3, lang) == grouped
    assert integer(10_000_000, lang) == whole
    assert number(-0.5, 4, lang) == small
    assert number(0.25, 2, lang, sign=True) == ("+0.25" if lang == "en" else "+0,25")
    assert percent(0.995909, 4, lang) == ("99.5909\u00a0%" if lang == "en" else "99,5909\u00a0%")   # held together


def test_net_text_for_floats_and_fractions():
    for tenths in range(-80, 81):
        expected = f"{tenths / 10:g}"
        assert net_text(tenths / 10) == net_text(Fraction(tenths, 10)) == expected
        assert net_text(tenths / 10, sign=True) == (expected if tenths < 0 else "+" + expected)
    assert net_text(0.1 + 0.2) == "0.3" and net_text(-1.5) == "-1.5" and net_text(0.0, sign=True) == "+0"


def test_exact_values():
    x = Fraction(-1, 3)
    assert fraction_text(x) == "-1/3" and fraction_text(Fraction(2)) == "2/1"
    assert decimal_text(x) == "-0.33333333333333333333" and decimal_text(Fraction(0)) == "0"
    assert decimal_text(Fraction(2, 3), 5) == "0.66667" and decimal_text(Fraction(12345), 3) == "12300"
    assert exact_json({"a": [x, None], "b": True}) == {
        "a": [{"fraction": "-1/3", "decimal": "-0.33333333333333333333"}, None], "b": True}
    assert exact_text(Fraction(1, 8), 100, " %") == "25/2 = 12.5 %" and exact_text(None) == "-"
