"""The gettext catalogues (ev/present/locale): complete, placeholders intact, plural forms right; numbers in the
language's CLDR format (Babel), in the plots' axes too."""
from __future__ import annotations

import random
import string
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from ev.core.rules import make_rules
from ev.present import i18n
from ev.present.numbers import localized, number
from ev.present.report import figures

LOCALE = Path(i18n.__file__).parent / "locale"


def catalogue(lang: str):
    path = LOCALE / "bjev.pot" if lang == "en" else LOCALE / lang / "LC_MESSAGES" / "bjev.po"
    with open(path, "rb") as handle:
        return read_po(handle)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_no_message_is_flagged_python_format(lang):
    """The messages are str.format phrases (their placeholders are checked below), so no flag line of the files
    says python-format: ``msgfmt --check``, which ev/present/i18n.py suggests for editing a catalogue, reads such
    a flag as printf placeholders and failed on a literal "95 % interval" (five fatal errors until 2026-12-05).
    (Babel flags such messages itself when it reads them, so the files are read as text.)"""
    for path in (LOCALE / "bjev.pot", LOCALE / lang / "LC_MESSAGES" / "bjev.po"):
        flags = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#,")]
        assert flags and not [line for line in flags if "python-format" in line.replace("python-brace-format", "")]


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_every_message_is_translated_with_the_same_placeholders(lang):
    template = {m.context: m.id for m in catalogue("en") if m.id}
    translated = {m.context: m for m in catalogue(lang) if m.id}
    assert set(translated) == set(template) and len(template) > 500
    for key, english in template.items():
        m = translated[key]
        assert m.id == english, key                        # translated from the template's English
        assert not m.fuzzy, key
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(form.strip() for form in forms), f"{key}: untranslated"
        sources = english if isinstance(english, tuple) else (english,)
        for form in forms:
            assert fields(form) == fields(sources[-1]), f"{key}: {form!r}"


def test_plural_forms_header_gives_two_german_and_three_polish_forms():
    assert catalogue("de").num_plurals == 2
    assert catalogue("pl").num_plurals == 3


@pytest.mark.parametrize("n, de, pl", [
    (1, "1\u00a0Karte", "1\u00a0karta"),
    (2, "2\u00a0Karten", "2\u00a0karty"),
    (4, "4\u00a0Karten", "4\u00a0karty"),
    (5, "5\u00a0Karten", "5\u00a0kart"),
    (12, "12\u00a0Karten", "12\u00a0kart"),
    (14, "14\u00a0Karten", "14\u00a0kart"),
    (21, "21\u00a0Karten", "21\u00a0kart"),
    (22, "22\u00a0Karten", "22\u00a0karty"),
    (25, "25\u00a0Karten", "25\u00a0kart"),
    (52, "52\u00a0Karten", "52\u00a0karty"),
    (112, "112\u00a0Karten", "112\u00a0kart"),
    (312, "312\u00a0Karten", "312\u00a0kart"),
    (0, "0\u00a0Karten", "0\u00a0kart"),
])
def test_counted_nouns_take_the_plural_form_of_their_number(n, de, pl):
    assert i18n.counted(n, "cards", "de") == de
    assert i18n.counted(n, "cards", "pl") == pl
    assert i18n.counted(n, "cards", "en") == f"{n}\u00a0{'card' if n == 1 else 'cards'}"


def test_polish_hands_and_lines_and_decks():
    assert [i18n.counted(n, "hands", "pl") for n in (1, 3, 484, 5)] == [
        "1\u00a0układ", "3\u00a0układy", "484\u00a0układy", "5\u00a0układów"]
    assert [i18n.counted(n, "lines", "pl") for n in (1, 803, 11)] == [
        "1\u00a0przebieg", "803\u00a0przebiegi", "11\u00a0przebiegów"]
    decks = {n: i18n.rules_summary(make_rules(None, [f"decks={n}"]), "pl").split(",")[0] for n in (1, 2, 4, 5, 6, 8)}
    assert decks == {1: "1 talia", 2: "2 talie", 4: "4 talie", 5: "5 talii", 6: "6 talii", 8: "8 talii"}
    assert i18n.rules_summary(make_rules(None, ["decks=1"]), "de").startswith("1 Deck,")
    assert i18n.rules_summary(make_rules(None, ["decks=6"]), "de").startswith("6 Decks,")
    assert i18n.t("effect.2 decks", "pl") == "2 talie" and i18n.t("effect.8 decks", "pl") == "8 talii"


def test_a_message_in_each_language_and_an_unknown_language():
    assert i18n.t("action.split", "en") == "Split"
    assert i18n.t("action.split", "de") == "Teilen"
    assert i18n.t("action.split", "pl") == "Dzielenie"
    assert i18n.t("freq.double", "de") == "Verdoppeln"          # an alias
    with pytest.raises(i18n.BJEVError, match="unknown language"):
        i18n.t("action.split", "fr")


def test_english_numbers_write_what_babel_writes():
    """Every language writes what Babel writes, except that a value rounding to zero has no sign (Babel writes
    -0.00 for -4.7e-6: float noise in a difference would read as a negative change)."""
    rng = random.Random(20261203)
    zeros = 0
    for _ in range(2000):
        x = rng.choice([-1, 1]) * 10 ** rng.uniform(-6, 9)
        digits = rng.randrange(0, 9)
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        for lang in ("en", "de", "pl"):
            expected = format_decimal(Decimal(x), format=pattern, locale=lang)
            if set(expected) <= set("-0.,"):
                expected, zeros = expected.lstrip("-"), zeros + 1
            assert number(x, digits, lang) == expected, (x, digits, lang)
    assert zeros > 10
    assert number(-4.6e-17, 4, "en", sign=True) == "0.0000" and number(-6e-5, 4, "pl", sign=True) == "-0,0001"


def test_axis_labels_use_the_decimal_comma():
    assert figures._axis("de")(-0.5, 0) == "-0,5" and figures._axis("pl")(99.5, 0) == "99,5"
    assert figures._axis("en")(-0.5, 0) == "-0.5"
    assert localized("1.5", "pl") == "1,5" and localized("+2", "de") == "+2"


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_every_plot_label_uses_the_decimal_comma(lang, monkeypatch):
    """Each report plot, drawn: no tick, bar or legend label writes a decimal point."""
    import re

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    drawn: list = []
    monkeypatch.setattr(figures, "_png", lambda fig: drawn.append(fig) or b"")
    figures.distribution_png({"-2": 0.0307, "-1": 0.4489, "0": 0.0846, "1": 0.3426, "1.5": 0.0465, "2": 0.0467},
                             lang, "t", "x", "y")
    figures.ev_by_upcard_png({"2": 0.098, "9": -0.043, "A": -0.39}, lang, "t", "x")
    rows = [{"confidence": c, "rounds": n, "low": 0.9959 - w / n ** 0.5, "high": 0.9959 + w / n ** 0.5,
             "expected": 0.9959} for c, w in ((0.95, 2.2), (0.999, 3.6)) for n in (100, 10_000, 1_000_000)]
    figures.monitoring_png(rows, lang, "t", "x", "y", "RTP", "{level} %")
    assert len(drawn) == 3
    commas = 0
    for fig in drawn:
        FigureCanvasAgg(fig).draw()
        labels = [text.get_text() for ax in fig.axes for text in
                  ax.get_xticklabels() + ax.get_yticklabels() + ax.texts + (ax.get_legend().get_texts()
                                                                            if ax.get_legend() else [])]
        assert not [label for label in labels if re.search(r"\d\.\d", label)], labels
        commas += sum("," in label for label in labels)
    assert commas >= 10      # the bars' probabilities and the y axis of the distribution, +1,5 on its x axis


def test_a_german_or_polish_command_prints_in_its_language(tmp_path, capsys):
    """The chart's 'wrote' line, and the simulation's time estimate, in German and Polish."""
    from ev.analysis.executors import LocalExecutor
    from ev.analysis.game import Game
    from ev.analysis.strategy import optimal_policy
    from ev.cli import _duration, main, simulation_estimate
    assert main(["chart", "--lang", "pl", "--out", str(tmp_path / "c.txt")]) == 0
    assert capsys.readouterr().out.strip() == f"zapisano {tmp_path / 'c.txt'}"
    rules = make_rules(None, [])
    with LocalExecutor(1) as executor:
        simulation_estimate(20_000, executor, rules, optimal_policy(Game(rules)), always=True, lang="de")
    line = capsys.readouterr().err.strip()
    assert line.startswith("bjev: 20.000 Runden, Worker-Prozesse: 1: etwa ") and "Mio. Runden/s" in line, line
    assert not {"rounds", "about", "worker(s)"} & set(line.split()), line
    assert [_duration(s, "pl") for s in (0.2, 58, 150, 9000, 3e5, 1e8)] == [
        "1\u00a0s", "58\u00a0s", "2,5\u00a0min", "2,5\u00a0h", "3,47\u00a0d", "3,17\u00a0a"]
