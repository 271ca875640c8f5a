"""The math report for the tables a studio ships: every rule set of a matrix gets a report in English, German and
Polish, every sentence that states a rule agrees with the rules in force, no comparison with a published RTP
appears unless one was given, and every self-check passes.

Each rule set is built once (a small simulation; the rule-effect table for a few of them) and its Markdown made
in all three languages; every file, PDF and HTML included, in one language per table, each language in turn.
"""
from __future__ import annotations

import re

import pytest

from ev.analysis.sensitivity import effects_for
from ev.core.cards import ACE, TEN
from ev.core.rules import Rules
from ev.present.i18n import rules_summary, t
from ev.present.numbers import NBSP, number
from ev.present.report import build_report, render_all
from ev.present.report.document import build_document
from ev.present.report.meta import check_meta
from ev.present.report.model import SEARCH_DECKS
from ev.present.report.render_md import render_markdown

pytestmark = pytest.mark.slow

#: 13 tables: deck counts 1-8, H17/S17, every doubling rule, DAS, resplits to 3 and 4 with and without aces, hit
#: split aces, tens split by rank, surrender, peek under A and T, under T only, none (ENHC and OBO), 6:5 and 1:1,
#: no split, no insurance; (rule changes, the rule-effect table too)
MATRIX = {
    "default": ({}, True),
    "6d-s17-das-any": (dict(decks=6, hit_soft_17=False, double_after_split=True, double="any"), True),
    "8d-h17-rsa-ls": (dict(decks=8, double="any", double_after_split=True, max_split_hands=4, resplit_aces=True,
                           late_surrender=True, peek="ace_ten"), False),
    "2d-any-3hands": (dict(decks=2, double="any", max_split_hands=3), False),
    "1d-65-s17": (dict(blackjack_payout="6:5", hit_soft_17=False), False),
    "6d-enhc-4hands": (dict(decks=6, hit_soft_17=False, peek="none", unchecked_blackjack_takes="all",
                            double_after_split=True, max_split_hands=4), True),
    "6d-obo": (dict(decks=6, peek="none", unchecked_blackjack_takes="original", even_money=False), False),
    "1d-peek-9-11-ls": (dict(peek="ace_ten", double="9-11", late_surrender=True), False),
    "4d-nosplit-noins": (dict(decks=4, max_split_hands=1, insurance=False, even_money=False), False),
    "1d-tens-rank-4": (dict(split_tens="rank", max_split_hands=4, split_aces_one_card=False), False),
    "8d-1to1-hard": (dict(decks=8, blackjack_payout="1:1", double="any", double_soft=False), False),
    "2d-das-rsa-ls": (dict(decks=2, double_after_split=True, max_split_hands=4, resplit_aces=True,
                           late_surrender=True, peek="ace_ten", double="any"), False),
    "3d-ten-obo-rank": (dict(decks=3, split_tens="rank", hit_soft_17=False), False),
}
LANGS = ("en", "de", "pl")

#: sentences that say under which up cards the dealer checks: (pattern, group of the cards), per language
CHECK_PATTERNS = {
    "en": [r"dealer checks for blackjack under ([AT](?: and [AT])?)", r"Under ([AT](?: and [AT])?) the dealer "
           r"checks the hole card", r"The dealer checks for blackjack under ([AT](?: and [AT])?) before you play"],
    "de": [r"der Dealer prüft unter ([AT](?: und [AT])?) auf Blackjack", r"Unter ([AT](?: und [AT])?) prüft der "
           r"Dealer die verdeckte Karte"],
    "pl": [r"krupier sprawdza blackjacka przy ([AT](?: i [AT])?)", r"Przy ([AT](?: i [AT])?) krupier sprawdza "
           r"zakrytą kartę"],
}
MIMIC = {"en": ("hit below 17 and on soft 17", "stand on every 17"),
         "de": ("Ziehen unter 17 und bei weicher 17", "Stehen bei jeder 17"),
         "pl": ("dobieraj poniżej 17 i przy miękkiej 17", "stój przy każdej 17")}
PUBLISHED_WORDS = {"en": ("the published RTP of", "Rounds to", "confirming the published"),
                   "de": ("veröffentlichte Auszahlungsquote von", "Ergibt gerundet 99",
                          "die Bestätigung der veröffentlichten"),
                   "pl": ("opublikowany zwrot", "Daje po zaokrągleniu 99", "potwierdzenie opublikowanej")}
NO_PUBLISHED = {"en": "No published RTP was given", "de": "keine veröffentlichte Auszahlungsquote angegeben",
                "pl": "nie podano opublikowanego zwrotu"}


def _checked(rules: Rules) -> set[str]:
    return {sym for up, sym in ((ACE, "A"), (TEN, "T")) if rules.peeks_under(up)}


@pytest.mark.parametrize("name", list(MATRIX))
def test_a_report_for_every_table(name):
    """One table, built once: its self-checks; its rule sentences and published-figure comparisons in every
    language; every file (PDF and HTML too) in one language, each language in turn down the matrix (so every
    language's PDF is set for four or five of the tables); its rule-effect rows."""
    changes, sensitivity = MATRIX[name]
    rules = Rules().replace(**changes)
    report = build_report(rules, simulate_rounds=20_000, workers=1, sensitivity=sensitivity)
    failed = [c for c in report.self_checks["checks"] if not c["passed"]]
    assert report.passed and not failed, failed
    keys = {c["key"] for c in report.self_checks["checks"]}
    assert {"distribution", "exact-equals-float", "removal-average", "strategy-chain", "minimum-below"} <= keys
    every_file = LANGS[list(MATRIX).index(name) % len(LANGS)]
    for lang in LANGS:
        if lang == every_file:
            files = render_all(report, lang)
            assert files["report.pdf"].startswith(b"%PDF") and files["report.html"].startswith(b"<!DOCTYPE html>")
            text = files["report.md"].decode("utf-8").replace(NBSP, " ")
        else:
            text = render_markdown(build_document(report, lang)).replace(NBSP, " ")
        check_rule_sentences(rules, text, lang)
        check_published(rules, report, text, lang)
        # a distribution that scores resplits independently says so, and names the option that makes it exact;
        # it does only where splits make four hands on more than one deck (elsewhere: exact)
        independent = report.volatility["distribution_method"] == "independent"
        assert independent == (rules.max_split_hands == 4 and rules.decks > 1), name
        assert ("--resplit-distribution exact" in text) == independent, (lang, independent)
        # ... beside every figure it makes approximate: the key figures, P(double) where split hands double,
        # and the monitoring limits, with the distribution's own distance from the EV
        plain = text.replace("\\", "")       # Markdown escapes E[W]'s brackets
        assert (t("key_independent", lang) in plain) == independent, lang
        assert (t("sim_rule_independent", lang) in plain) == independent, lang
        assert (t("decisions_independent", lang) in plain) == (independent and rules.double_after_split), lang
        # late surrender where the dealer does not check under some up card: what a blackjack found later takes
        surrender = t("cond.method_surrender", lang, cards="X").split(";")[0]
        unchecked = [up for up in (ACE, TEN) if not rules.peeks_under(up)]
        assert (surrender in plain) == (rules.late_surrender and bool(unchecked)), lang
        # aces that may not be resplit are said to split once; a blackjack without even money is said to get
        # neither insurance nor even money
        resplit = rules.max_split_hands > 2
        noaces = t("splits.resplit_noaces", lang, n=rules.max_split_hands)
        assert (noaces in plain) == (resplit and rules.split_hands(ACE) < rules.max_split_hands), lang
        no_even = t("insurance_left_out_no_even", lang, p="X", total="Y").split(": ", 1)[1][:40]
        assert (no_even in plain) == (rules.insurance and not rules.even_money), lang
        # where an unchecked blackjack hands doubles and splits back, P(Double) and P(Split) say they leave them out
        returned = t("decisions_returned", lang, cards="X").split(":")[0]
        assert (returned in plain) == report.assumptions["returned_wagers_possible"], lang
        # the table's optimal rows say what their split strategies mean
        assert t("split.cdp1", lang) in plain or not rules.may_split, lang
        for key in ("dist_title", "check.distribution"):     # not titled exact, nor checked as equal to the EV
            assert (t(key, lang) in plain, t(key + ("_approx" if key == "dist_title" else "_independent"), lang)
                    in plain) == (not independent, independent), (lang, key)
        gap = number(report.volatility["mean_minus_ev"], 10, lang, sign=True).replace(NBSP, " ")
        assert text.count(f" {gap} ") >= 2 * independent, (lang, gap)
    if sensitivity:
        labels = [e["label"] for e in report.sensitivity["effects"]]
        assert labels == [label for label, _ in effects_for(rules)]
        for effect in report.sensitivity["effects"]:
            assert rules.replace(**effect["changes"]) != rules
        assert bool(report.sensitivity["readings"]) == (rules == Rules())


def check_rule_sentences(rules: Rules, text: str, lang: str) -> None:
    """Every sentence of ``text`` that states a rule agrees with ``rules``."""
    assert rules_summary(rules, lang).replace(NBSP, " ") in text
    checked = _checked(rules)
    said = [set(re.split(r" and | und | i ", m)) for p in CHECK_PATTERNS[lang] for m in re.findall(p, text)]
    assert all(cards == checked for cards in said), (lang, checked, said)
    if not checked:
        assert not said
    hit, stand = MIMIC[lang]
    assert (hit in text, stand in text) == (rules.hit_soft_17, not rules.hit_soft_17)
    if lang == "en":
        decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}, {52 * rules.decks:,} cards"
        assert f"complete shoe ({decks})" in text
        if rules.max_split_hands > 2:
            assert f"split again up to {rules.max_split_hands} hands" in text
        if not rules.even_money:
            assert "Even money is not offered." in text
        # a row says why it is missing, and no claim that no legal play returns less
        if rules.may_split and (rules.max_split_hands > 2 or rules.decks > SEARCH_DECKS):
            assert "not computed for these rules" in text and "No legal play returns less" not in text
            assert "Lowest RTP any legal play reaches" not in text and "split hands played as CDZ-" in text
        else:
            assert "No legal play returns less" in text and "Lowest RTP any legal play reaches" in text


def check_published(rules: Rules, report, text: str, lang: str) -> None:
    """A comparison with a published RTP appears only where one was given (here: the seed rules)."""
    seed = rules == Rules()
    assert (report.rtp["published"] is not None) == seed
    for words in PUBLISHED_WORDS[lang]:
        assert (words in text) == seed, (lang, words)
    if not seed:
        assert not re.search(r"99[.,]59(?!\d)", text)     # the seed game's published figure
        assert NO_PUBLISHED[lang] in text


def test_a_published_figure_from_the_metadata_is_compared_in_its_convention():
    rules = Rules(decks=6, hit_soft_17=False)
    meta = check_meta({"published_rtp": "99.50", "published_rtp_convention": "initial_bet"})
    report = build_report(rules, simulate_rounds=10_000, workers=1, sensitivity=False, meta=meta)
    pub = report.rtp["published"]
    assert pub == {"percent": "99.50", "decimals": 2, "value": 0.995, "convention": "initial_bet",
                   "source": "metadata"}
    assert report.rtp["matches_published"] == (round(100 * report.rtp["rtp_initial"], 2) == 99.50)
    text = render_all(report, "en")["report.md"].decode("utf-8").replace(NBSP, " ").replace("\\_", "_")
    assert "99.50 %" in text and "(metadata field published_rtp, per initial bet)" in text
    d = report.verification["distinguishing"]
    assert d["published_interval"] == pytest.approx([0.99495, 0.99505])


@pytest.mark.slow
def test_a_report_asked_for_the_exact_resplit_distribution_has_it():
    """``resplits="exact"`` (``bjev report --resplit-distribution exact``): section 6 and the monitoring limits
    come from the exact distribution (its mean is the EV), and no note calls them approximate."""
    report = build_report(Rules(max_split_hands=3), simulate_rounds=0, sensitivity=False, resplits="exact")
    assert report.passed
    v = report.volatility
    assert v["distribution_method"] == "exact" and v["monitoring"]["distribution_method"] == "exact"
    assert abs(v["mean_minus_ev"]) < 1e-15
    assert v["mean"] == pytest.approx(report.rtp["ev"], abs=1e-15)
    for lang in LANGS:
        text = render_markdown(build_document(report, lang))
        assert "--resplit-distribution" not in text
