"""The math report: four files, the PDF's text against `bjev rtp --json`, HTML structure, JSON keys, pages not blank.

One report model (every section, a short simulation) is built once and rendered
in all three languages; the command line is run once more (no rule-effects
section, to keep the suite quick).
"""
from __future__ import annotations

import functools
import io
import json
import math
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import SEED_GAME_GROUP

from ev.cli import main
from ev.present.numbers import NBSP, percent
from ev.present.report import FILES, build_report, write_report
from ev.present.report.texts import t as text_of

pypdf = pytest.importorskip("pypdf", reason="pypdf (the test extra) extracts the PDF's text")

SECTIONS = ("identification", "method", "assumptions", "peek_reading", "rtp", "strategies", "upcards", "decisions",
            "exposure", "volatility", "strategy", "disclosure", "sensitivity", "verification", "reproducibility")
SIM_ROUNDS = 200_000

# the report computes every figure of a game: slow, and built once, on one worker (the one of the seed game's
# truly optimal split tests, which its strategy table shares)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group(SEED_GAME_GROUP)]


def pdf_text(path: Path) -> str:
    return _pdf_text(path.read_bytes())


@functools.cache
def _pdf_text(data: bytes) -> str:
    """The text of a PDF (pypdf takes seconds a document: each document is read once, by its bytes)."""
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)
    return text.replace(NBSP, " ")     # a no-break space holds a number to its unit; the tests read it as a space


def _pc(x, digits, lang="en", sign=False) -> str:
    """A percentage as the tests read it: with a plain space before the unit."""
    return percent(x, digits, lang, sign).replace(NBSP, " ")


def flat(text: str) -> str:
    """The text with every run of white space (line breaks too) as one space: for phrases that wrap."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def rtp_json():
    from contextlib import redirect_stdout
    from io import StringIO
    buf = StringIO()
    with redirect_stdout(buf):
        assert main(["rtp", "--json"]) == 0
    return json.loads(buf.getvalue())


@pytest.fixture(scope="module")
def model():
    # the default seed (fixed), as `bjev report` without --seed
    return build_report(simulate_rounds=SIM_ROUNDS, workers=2, command=["bjev", "report"])


@pytest.fixture(scope="module")
def written(model, tmp_path_factory):
    out = {}
    for lang in ("en", "de", "pl"):
        out[lang] = write_report(model, tmp_path_factory.mktemp(f"report-{lang}") / "r", lang)
    return out


# ----- the command line ---------------------------------------------------------------------
def test_cli_writes_four_files_matching_rtp(model, tmp_path, capsys, rtp_json, monkeypatch):
    """`bjev report` wiring and files; the figures are the module's model (built once, same default rules)."""
    import ev.present.report as report_pkg
    calls = []

    def build(rules, **kwargs):
        calls.append((rules, kwargs))
        return model

    monkeypatch.setattr(report_pkg, "build_report", build)
    out = tmp_path / "r"
    code = main(["report", "--out", str(out), "--simulate-rounds", "2e5", "--seed", "7", "--skip-rules-effect"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    (rules, kwargs), = calls
    assert rules.sha256() == model.identification["rules_sha256"]
    assert (kwargs["simulate_rounds"], kwargs["seed"], kwargs["sensitivity"]) == (SIM_ROUNDS, 7, False)
    assert kwargs["command"] == ["bjev", "report", "--out", str(out), "--simulate-rounds", "2e5", "--seed", "7",
                                 "--skip-rules-effect"]
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "temporary directory left behind"
    text = pdf_text(out / "report.pdf")
    for key in ("rtp_total_wagered", "rtp_initial"):
        assert _pc(rtp_json[key], 6, "en") in text, key
    assert f"{100 * rtp_json['house_edge']:.6f} %" in text
    assert "99.59 %" in text and round(100 * rtp_json["rtp_total_wagered"], 2) == 99.59
    data = json.loads((out / "report.json").read_text())
    assert data["rtp"]["rtp_total_wagered"] == pytest.approx(rtp_json["rtp_total_wagered"], abs=1e-15)
    assert data["rtp"]["ev"] == pytest.approx(rtp_json["ev"], abs=1e-15)


def test_cli_unwritable_out_is_one_line_exit_2(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code = main(["report", "--out", str(blocker), "--simulate-rounds", "0", "--skip-rules-effect"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("bjev: error: cannot write the report")
    code = main(["report", "--out", str(blocker / "sub"), "--simulate-rounds", "0", "--skip-rules-effect"])
    assert code == 2 and capsys.readouterr().err.count("\n") == 1


def test_failed_render_leaves_nothing(model, tmp_path, monkeypatch):
    import ev.present.report as report_pkg

    def broken(*args, **kwargs):
        raise RuntimeError("renderer failed")

    monkeypatch.setattr(report_pkg, "render_all", broken)
    with pytest.raises(RuntimeError):
        write_report(model, tmp_path / "r", "en")
    assert list(tmp_path.iterdir()) == []


def test_existing_directory_keeps_other_files(model, tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    write_report(model, out, "en")
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES + ("notes.txt",))


def test_a_failed_self_check_writes_the_report_and_exits_1(model, tmp_path, capsys, monkeypatch):
    """A self-check that fails: the report is still written (its appendix says FAIL), the exit code is 1 and
    one line on stderr names the check."""
    import copy

    import ev.present.report as report_pkg
    broken = copy.deepcopy(model)
    check = broken.self_checks["checks"][0]
    check.update(passed=False, figure=0.25)
    broken.self_checks["passed"] = False
    assert model.passed and not broken.passed
    monkeypatch.setattr(report_pkg, "build_report", lambda rules, **kwargs: broken)
    out = tmp_path / "r"
    code = main(["report", "--out", str(out), "--simulate-rounds", "0"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and check["key"] in err and "self-check" in err, err
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    text = (out / "report.md").read_text(encoding="utf-8").replace(NBSP, " ")
    assert "| FAIL |" in text and "1 self-check(s) FAILED" in text


# ----- the model and report.json -------------------------------------------------------------
def test_model_figures(model, rtp_json):
    rtp, vol = model.rtp, model.volatility
    assert rtp["rtp_total_wagered"] == pytest.approx(rtp_json["rtp_total_wagered"], abs=1e-15)
    assert rtp["matches_published"] and round(100 * rtp["rtp_total_wagered"], 2) == 99.59
    assert rtp["published"] == {"percent": "99.59", "decimals": 2, "value": 0.9959, "convention": "total_wagered",
                                "source": "seed"}
    assert rtp["exact"]["available"] and rtp["exact"]["ev_decimal"].startswith("-0.0044512833237")
    assert rtp["exact"]["rtp_total_wagered_decimal"].startswith("0.995909138602")
    assert rtp["exact"]["accounting_mean_equals_ev"] is True
    assert vol["rounds_for_ci"] == math.ceil((1.96 * vol["sd"] / 0.001) ** 2)
    assert (vol["largest_win"], vol["largest_loss"]) == (2.0, -2.0)
    assert sum(vol["distribution"].values()) == pytest.approx(1.0, abs=1e-12)
    up = model.upcards
    assert sum(up["p_upcard"][u] * up["ev_by_upcard"][u] for u in up["p_upcard"]) == pytest.approx(rtp["ev"])
    assert sum(up["deal_class_totals"].values()) == pytest.approx(1.0, abs=1e-12)
    assert up["deal_class_totals"]["blackjack"] == pytest.approx(rtp_json["p_player_blackjack"], abs=1e-12)
    assert set(up["dealer_conditioned"]) == {"A", "T"}
    assert up["dealer_conditioned"]["T"]["blackjack"] == 0.0
    dec = model.decisions
    assert dec["insurance_never_worth_taking"] and dec["insurance_best_ev"] == pytest.approx(-0.5 / 49)
    assert dec["even_money"]["ev_declined"] > 1.0 and not dec["even_money"]["take"]
    sens = model.sensitivity
    assert [r["matches_published"] for r in sens["readings"]] == [True, False, True]
    sim = model.verification
    assert sim["rounds"] == SIM_ROUNDS and sim["rtp_total_wagered"]["exact"] == rtp["rtp_total_wagered"]
    assert sim["rtp_initial"]["exact_in_ci99"] and sim["rtp_total_wagered"]["exact_in_ci99"]
    assert sim["chi_square_p_value"] > 1e-4
    assert sim["acceptance"]["passed"] is True and sim["acceptance"]["checks_made"] == 4


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_json_keys(written, lang):
    data = json.loads((written[lang] / "report.json").read_text(encoding="utf-8").replace(NBSP, " "))
    assert data["language"] == lang
    for key in SECTIONS:
        assert key in data, key
    for key in ("ev", "house_edge", "rtp_initial", "rtp_total_wagered", "expected_total_wager", "exact"):
        assert key in data["rtp"], key
    for key in ("distribution", "sd", "skewness", "hit_frequency", "largest_win", "largest_loss", "rounds_for_ci"):
        assert key in data["volatility"], key
    for key in ("p_double", "p_split", "p_insurance", "p_even_money", "insurance", "even_money"):
        assert key in data["decisions"], key
    for key in ("rules_sha256", "version", "date", "git_commit"):
        assert key in data["method"], key
    for key in ("rounds", "seed", "generator", "rtp_initial", "rtp_total_wagered", "chi_square"):
        assert key in data["verification"], key
    assert "_chart" not in data["strategy"] and "_stats" not in data["strategy"]


# ----- the PDF, HTML and Markdown in each language -----------------------------------------------
WORDS = {"en": ("Double", "Split", "Insurance"), "de": ("Verdoppeln", "Teilen", "Versicherung"),
         "pl": ("Podwojenie stawki", "Dzielenie", "Ubezpieczenie")}


# counted nouns in the PDF, one to each plural class the default game's report holds (written out here, not
# taken from the catalogues): 1 deck, 52 cards, 484 hands, 803 lines, and the disclosure's hands of 2 to 9 cards
PLURALS = {
    "de": ["1 Deck", "52 Karten", "484 Hände", "803 Spielweisen", "2 Karten: 3", "5 Karten: 112"],
    "pl": ["1 talia", "52 karty", "484 układy", "803 przebiegi", "2 karty: 3", "4 karty: 76", "5 kart: 112",
           "9 kart: 8"],
}


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_pdf_counts_nouns_in_their_plural_forms(written, model, lang):
    text = " ".join(pdf_text(written[lang] / "report.pdf").split())
    by_cards = {str(k): v for k, v in model.disclosure["by_cards"].items()}
    assert by_cards == {"2": 3, "3": 33, "4": 76, "5": 112, "6": 129, "7": 83, "8": 40, "9": 8}
    for phrase in PLURALS[lang]:
        assert phrase in text, phrase
    assert "52 kart " not in text and "803 przebiegów" not in text and "484 układów" not in text


def test_first_page_gives_the_verdicts_at_a_glance(written, model):
    """Page 1 of the PDF: the key figures and a summary of the rules, the play, the lowest RTP and the verdicts."""
    first = " ".join(pypdf.PdfReader(written["en"] / "report.pdf").pages[0].extract_text().split())
    checks = model.self_checks["checks"]
    assert "At a glance" in first and "Key figures" in first
    assert f"{sum(c['passed'] for c in checks)} of {len(checks)} pass" in first and len(checks) >= 5
    assert model.verification["acceptance"]["passed"] is True
    assert f"PASS: {SIM_ROUNDS:,} rounds, 4 checks (section 9)" in first
    assert "none given (--meta)" in first            # no [[requirement]] in this report's metadata
    assert "Lowest RTP any legal play reaches" in first          # the seed game: the search over all play
    assert _pc(model.strategies["minimum"]["rtp_initial"], 6, "en") in first     # a floor in both conventions
    assert "optimal composition-dependent play; split hands: CDZ-" in first


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_pdf_text(written, model, lang):
    text = pdf_text(written[lang] / "report.pdf")
    for key in ("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"):
        assert text_of(key, lang) in text, key
    assert _pc(model.rtp["rtp_total_wagered"], 6, lang) in text
    assert _pc(model.rtp["rtp_initial"], 6, lang) in text
    assert _pc(model.rtp["rtp_total_wagered"], 2, lang) == ("99.59 %" if lang == "en" else "99,59 %")
    assert _pc(model.rtp["rtp_total_wagered"], 2, lang) in text
    assert "99.59%" in text            # the published figure, quoted from the game's own rule text
    for word in WORDS[lang]:
        assert word in text, word
    if lang == "pl":
        assert "Ubezpieczenie" in text and "ł" in text and "ż" in text
    if lang == "de":
        assert "ü" in text and "ß" in text


class _Structure(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, int] = {}
        self.lang = None
        self.images: list[str] = []
        self.external: list[str] = []
        self.headings: list[str] = []
        self._in_h2 = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag == "img":
            self.images.append(attrs.get("src", ""))
        for name in ("src", "href"):
            value = attrs.get(name) or ""
            if value and not value.startswith(("data:", "#")):       # in-page links (contents) are not external
                self.external.append(value)
        self._in_h2 = tag == "h2"

    def handle_endtag(self, tag):
        if tag == "h2":
            self._in_h2 = False

    def handle_data(self, data):
        if self._in_h2 and data.strip():
            self.headings.append(data.strip())


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_html_structure(written, model, lang):
    html = (written[lang] / "report.html").read_text(encoding="utf-8").replace(NBSP, " ")
    parser = _Structure()
    parser.feed(html)
    assert parser.lang == lang
    assert parser.tags.get("h1") == 1 and parser.tags.get("table", 0) >= 20
    assert [text_of(f"s{i}", lang) for i in range(1, 11)] == [h for h in parser.headings if h[0].isdigit()]
    assert len(parser.images) == 3 and all(src.startswith("data:image/png;base64,") for src in parser.images)
    assert parser.external == []                        # self-contained
    assert "background:#" in html                       # the coloured chart
    assert "white-space: nowrap" in html and '<table class="small fixed"><colgroup>' in html   # chart columns line up
    assert _pc(model.rtp["rtp_total_wagered"], 6, lang) in html
    md = (written[lang] / "report.md").read_text(encoding="utf-8").replace(NBSP, " ")
    assert md.startswith("# ") and text_of("s9", lang) in md and _pc(model.rtp["rtp_total_wagered"], 6, lang) in md
    assert "base64" not in md                           # images are files beside it, linked
    links = re.findall(r"!\[[^]]*\]\(([^)]+)\)", md)
    assert links == ["ev-by-upcard.png", "distribution.png", "monitoring.png"]
    for name in links:
        assert (written[lang] / name).read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_pages_not_blank(written, tmp_path, lang):
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed here; CI installs it")
    from PIL import Image
    subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "3", str(written[lang] / "report.pdf"),
                    str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == 3
    for page in pages:
        image = Image.open(page).convert("L")
        inked = sum(image.histogram()[:200])          # pixels clearly darker than the white page
        assert inked > 0.005 * image.width * image.height, page.name


# ===== the eight items a test lab asks for =======================================================
def _total(cards):
    t, aces = sum(min(c, 10) for c in cards), cards.count(1)
    soft = aces and t + 10 <= 21
    return (t + 10 if soft else t), bool(soft)


#: the dealer's finals, in the order of :func:`_direct_dealer`'s probabilities
_DEALER_FINALS = ("bj", 17, 18, 19, 20, 21, 22)


def _dealer_final(hard, ace, ncards, hit_soft_17):
    """The dealer's final (an entry of _DEALER_FINALS) if a hand of ``ncards`` cards worth ``hard`` (aces as
    1) stops here, else None."""
    soft = ace and hard + 10 <= 21
    t = hard + 10 if soft else hard
    if ncards == 2 and t == 21:
        return "bj"
    if ncards >= 2 and (t > 17 or (t == 17 and not (soft and hit_soft_17))):
        return min(t, 22)
    return None


@functools.cache
def _direct_dealer(deck, hard=0, ace=False, ncards=0, hit_soft_17=True):
    """P(final) in the order of _DEALER_FINALS for a dealer holding ``ncards`` cards worth ``hard`` (aces as
    1) and drawing from ``deck`` (for :func:`_direct_rtp`; kept across its calls)."""
    n = sum(deck)
    out = [0.0] * len(_DEALER_FINALS)
    for v in range(1, 11):
        if deck[v - 1]:
            p = deck[v - 1] / n
            final = _dealer_final(hard + v, ace or v == 1, ncards + 1, hit_soft_17)
            if final is not None:
                out[_DEALER_FINALS.index(final)] += p
                continue
            d = list(deck)
            d[v - 1] -= 1
            for i, q in enumerate(_direct_dealer(tuple(d), hard + v, ace or v == 1, ncards + 1, hit_soft_17)):
                out[i] += p * q
    return tuple(out)


def _direct_rtp(rules, hits):
    """EV of a player who stands or hits by total only (``hits(total, soft)``), never doubling, splitting,
    insuring or surrendering: an independent evaluation, card by card, of the full deck.

    Such a player never looks at the dealer's cards, and a dealer blackjack can only take the initial bet,
    so the cards can be dealt in any order: the player's two cards and draws first, then the dealer's up
    card, hole card and draws from what is left.  Natural against natural pushes; a natural wins the
    payout; a dealer natural beats any other hand.
    """

    total = _total

    def dealer(deck):
        return zip(_DEALER_FINALS, _direct_dealer(deck, hit_soft_17=rules.hit_soft_17))

    def settle(player_cards, deck):
        t, _ = total(player_cards)
        natural = len(player_cards) == 2 and t == 21
        if t > 21:
            return -1.0
        ev = 0.0
        for k, p in dealer(deck):
            if k == "bj":
                ev += p * (0.0 if natural else -1.0)
            elif natural:
                ev += p * float(rules.payout)
            else:
                ev += p * (1.0 if k == 22 or t > k else (0.0 if t == k else -1.0))
        return ev

    @functools.cache
    def player(deck, cards):
        t, soft = total(list(cards))
        if len(cards) >= 2 and (t >= 21 or not hits(t, soft)):
            return settle(list(cards), deck)
        n = sum(deck)
        ev = 0.0
        for v in range(1, 11):
            if deck[v - 1]:
                d = list(deck)
                d[v - 1] -= 1
                ev += deck[v - 1] / n * player(tuple(d), tuple(sorted(cards + (v,))))
        return ev

    return player((4, 4, 4, 4, 4, 4, 4, 4, 4, 16), ())


def test_item1_strategy_table(model, written):
    rows = {r["key"]: r for r in model.strategies["rows"]}
    from ev.core.actions import SPLIT_STRATEGIES
    assert [r["key"] for r in model.strategies["rows"]] == [f"optimal-{s}" for s in SPLIT_STRATEGIES] + [
        "basic", "basic-insure", "mimic", "never-bust", "random", "minimum"]
    assert model.strategies["published_refers_to"] == "optimal-cdz"
    assert round(rows["optimal-cdz"]["rtp_total_wagered"], 4) == 0.9959
    rules = model.identification["rules"]
    from ev.core.rules import Rules
    r = Rules(**rules)
    mimic = _direct_rtp(r, lambda t, soft: t < 17 or (t == 17 and soft and r.hit_soft_17))
    never = _direct_rtp(r, lambda t, soft: t <= 17 if soft else t <= 11)
    assert rows["mimic"]["ev"] == pytest.approx(mimic, abs=1e-12)
    assert rows["never-bust"]["ev"] == pytest.approx(never, abs=1e-12)
    for key in ("mimic", "never-bust"):
        assert rows[key]["expected_total_wager"] == pytest.approx(1.0, abs=1e-15)
        assert rows[key]["rtp_total_wagered"] == pytest.approx(rows[key]["rtp_initial"], abs=1e-15)
    evs = [row["ev"] for row in model.strategies["rows"]]
    assert min(evs) == rows["minimum"]["ev"] < -0.5            # the worst legal play loses most of the bet
    assert rows["basic-insure"]["ev"] < rows["basic"]["ev"] < rows["optimal-cdz"]["ev"]
    assert rows["basic-insure"]["expected_total_wager"] > rows["basic"]["expected_total_wager"]
    text = pdf_text(written["en"] / "report.pdf")
    for key in rows:
        assert f"{100 * rows[key]['rtp_total_wagered']:.4f}" in text, key


def test_minimum_is_below_every_fixed_strategy_on_a_small_shoe():
    """The worst-action recursion: below every other strategy, legal, and its figures equal round_stats'."""
    from ev.analysis.accounting import round_stats
    from ev.analysis.basic_strategy import basic_policy
    from ev.analysis.game import Game
    from ev.analysis.strategies import (
        mimic_dealer_policy,
        never_bust_policy,
        policy_figures,
        with_insurance,
        worst_policy,
    )
    from ev.core.rules import Rules
    game = Game(Rules(late_surrender=True, double="any", double_after_split=True), removed=(2, 1, 1, 2, 1, 1, 2, 2,
                                                                                             2, 6))
    worst = worst_policy(game)
    figures = policy_figures(game, worst)
    full = round_stats(game, worst)
    assert figures.ev == pytest.approx(full.ev, abs=1e-12)
    assert figures.expected_wager == pytest.approx(full.expected_wager, abs=1e-12)
    basic = basic_policy(game)
    for policy in (mimic_dealer_policy(game), never_bust_policy(game), basic, with_insurance(basic)):
        assert figures.ev < round_stats(game, policy).ev
    assert figures.ev < round_stats(game, "cdz").ev


def test_item2_exposure(model, written):
    e = model.exposure
    # default game: double (or split to two hands) and insure: 2 + 0.5 at stake and lost; win 2 (double or split)
    assert (e["max_stake"], e["max_loss"], e["max_win"]) == (2.5, 2.5, 2.0)
    assert "double, insured" in e["max_stake_lines"]
    assert (e["optimal_largest_loss"], e["optimal_largest_win"]) == (-2.0, 2.0)   # insurance never taken
    assert e["table_max_bet"] is None and e["lines_enumerated"] > 500
    from ev.analysis.exposure import max_exposure
    from ev.core.rules import Rules
    four = max_exposure(Rules(max_split_hands=4, double_after_split=True))
    assert (four["max_stake"], four["max_loss"], four["max_win"]) == (8.5, 8.5, 8)   # 4 doubled hands + insurance
    assert max_exposure(Rules(max_split_hands=1, insurance=False))["max_stake"] == 2
    assert "MIN ________" in pdf_text(written["en"] / "report.pdf")


def test_item3_identification_and_reproducibility(model, written):
    import hashlib

    from ev.present.report.model import seed_rule_text
    data = json.loads((written["en"] / "report.json").read_text())
    ident, rep = data["identification"], data["reproducibility"]
    assert ident["game"] == "Blackjack Touch – Single Deck" and ident["meta"]["supplier"] is None
    assert set(ident["blank_fields"]) >= {"supplier", "game_id", "jurisdiction", "document_id", "approver"}
    for lang in ("en", "de", "pl"):
        assert ident["rule_text_sha256"][lang] == hashlib.sha256(seed_rule_text(lang).encode()).hexdigest()
    assert rep["rules_sha256"] == ident["rules_sha256"] and rep["command_line"] == "bjev report"
    assert rep["python"] and rep["platform"] and rep["version"] and rep["seed"] == data["verification"]["seed"]
    assert rep["git_commit"] is None or len(rep["git_commit"]) == 40
    for lang in ("en", "de", "pl"):
        text = pdf_text(written[lang] / "report.pdf")
        assert text_of("signoff_title", lang) in text and "________" in text
        assert ident["rule_text_sha256"]["en"] in text


def test_item3_meta_file_and_custom_name(model, tmp_path, capsys):
    import copy

    from ev.core.rules import Rules
    from ev.present.report import render_all
    from ev.present.report.meta import load_meta
    path = tmp_path / "meta.toml"
    path.write_text('supplier = "ACME Games"\ngame_id = "BJT-SD-1"\ndocument_id = "DOC-7"\nmax_bet = 500\n'
                    'min_bet = 1\ncurrency = "EUR"\n[[revision]]\nrevision = "1.0"\ndate = "2024-06-07"\n'
                    'author = "A. Author"\ndescription = "first issue"\n', encoding="utf-8")
    meta = load_meta(path)
    report = copy.deepcopy(model)
    report.identification["meta"] = meta
    report.identification["game"] = "custom rule set"
    from ev.present.report import lab
    report.exposure = lab.exposure(Rules(), meta, {-2.0: 0.5, 2.0: 0.5})
    files = render_all(report, "en")
    out = tmp_path / "r.pdf"
    out.write_bytes(files["report.pdf"])
    reader = pypdf.PdfReader(str(out))
    assert "custom rule set" in reader.pages[0].extract_text().split("\n")[0] + reader.pages[0].extract_text()
    for page in reader.pages:
        assert "custom rule set · DOC-7" in page.extract_text()
    text = pdf_text(out)
    assert "ACME Games" in text and "BJT-SD-1" in text and "first issue" in text
    assert "1,250.00 EUR" in text                      # 2.5 initial bets at the table maximum
    for bad, word in (('colour = "red"\n', "unknown field"), ('max_bet = "lots"\n', "positive number"),
                      ("supplier = \n", "not valid TOML")):
        path.write_text(bad, encoding="utf-8")
        code = main(["report", "--out", str(tmp_path / "x"), "--meta", str(path), "--simulate-rounds", "0",
                     "--skip-rules-effect"])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and word in err, err
    assert not (tmp_path / "x").exists()


def test_item4_assumptions(model, written):
    a = model.assumptions
    assert a["returned_wagers_possible"]               # the default: a blackjack under an ace found after play
    assert a["expected_total_wager_placed"] > a["expected_total_wager_at_risk"] == model.rtp["expected_total_wager"]
    assert round(a["rtp_total_wagered_placed"], 4) == 0.9959   # both conventions give the published figure
    text = flat(pdf_text(written["en"] / "report.pdf"))
    assert _pc(a["rtp_total_wagered_placed"], 6, "en") in text
    assert "separate certification" in text and "No side bet is included" in text


def test_item5_peek_reading(model, written):
    rules = model.identification["rules"]
    assert (rules["peek"], rules["unchecked_blackjack_takes"]) == ("ten", "original")
    pr = model.peek_reading
    assert len(pr["consistent"]) == 2 and not pr["unique"]
    (other,) = pr["inconsistent"]
    assert round(100 * other["rtp_total_wagered"], 4) == 99.5679
    en = flat(pdf_text(written["en"] / "report.pdf"))
    assert "99.5679 %" in en and "confirm in writing" in en
    assert "(no effect under these rules)" in en                 # double_soft with double on 10-11 only
    assert "The German and Polish rules do not mention the check at all" in en
    de, pl = (flat(pdf_text(written[lang] / "report.pdf")) for lang in ("de", "pl"))
    assert "erwähnen die Prüfung überhaupt nicht" in de
    assert "w ogóle nie wspominają o sprawdzaniu" in pl
    assert "stanowiący łączną wartość wygranych/zakładów" in pl and "nie mówią o strategii optymalnej" in pl


def test_item6_disclosure(model, written):
    d = model.disclosure
    assert d["count"] == len(d["rows"]) > 100
    assert max(int(k) for k in d["by_cards"]) >= 6                 # hands of many cards, not only 2 and 3
    assert 0 < d["round_gain_total"] <= d["optimal_minus_chart"]
    csv = (written["en"] / "exceptions.csv").read_text().splitlines()
    assert len(csv) == d["count"] + 1 and csv[0].startswith("up,hand,cards")
    first = d["rows"][0]
    assert csv[1].startswith(f"{first['up']},{first['hand']},{first['cards']},")
    text = pdf_text(written["en"] / "report.pdf")
    assert text_of("disclosure_title", "en") in text and d["rows"][-1]["hand"] in text


def test_item7_volatility(model, written):
    v = model.volatility
    assert v["volatility_index"]["95"] == pytest.approx(1.959963984540054 * v["sd"])
    assert [row["rounds"] for row in v["ci_rounds"]] == [10 ** k for k in range(3, 10)]
    ten_million = next(row for row in v["ci_rounds"] if row["rounds"] == 10 ** 7)
    assert round(100 * ten_million["half_width"]["95"], 3) == 0.068          # ±0.068 percentage points
    assert "±0.1 percentage points" in flat(pdf_text(written["en"] / "report.pdf"))


def test_item8_simulation_reproducible(model, written):
    from ev.present.report.lab import DEFAULT_SEED
    v = model.verification
    assert v["seed"] == DEFAULT_SEED                   # fixed default, printed
    d = v["distinguishing"]
    assert d["rounds"] == SIM_ROUNDS and not d["distinguishes_conventions"]
    assert round(100 * d["conventions_apart"], 3) == 0.036
    assert 2e9 < d["rounds_to_confirm_published"] < 3e9
    for lang in ("en", "de", "pl"):
        assert str(DEFAULT_SEED) in pdf_text(written[lang] / "report.pdf")
    from ev.cli import build_parser
    assert "--workers" in build_parser()._subparsers._group_actions[0].choices["report"].format_help()


# ===== rendered pages ========================================================================================
E_NOTATION = re.compile(r"(?<![0-9A-Za-z])\d+(?:[.,]\d+)?[eE][+-]?\d+(?![0-9A-Za-z])")
HEX = re.compile(r"\b[0-9a-f]{12,}\b")


def _figures_as_printed(model, lang: str) -> list[str]:
    """Numbers of report.json as the report prints them; each must appear whole on one line."""
    from ev.present.numbers import number
    exact = model.rtp["exact"]
    out = []
    for key in ("ev", "rtp_initial", "expected_total_wager", "rtp_total_wagered"):
        numerator, _, denominator = exact[key].partition("/")
        decimal = exact[f"{key}_decimal"]
        out += [numerator, denominator, decimal if lang == "en" else decimal.replace(".", ",")]
    for row in model.strategies["rows"]:
        out += [number(100 * row["rtp_initial"], 4, lang), number(100 * row["rtp_total_wagered"], 4, lang)]
    out += [_pc(model.rtp["rtp_total_wagered"], 6, lang), number(model.volatility["sd"], 9, lang)]
    out += [number(1e9 * r["round_gain"], 6, lang) for r in model.disclosure["rows"][:40]]
    assert min(1e9 * r["round_gain"] for r in model.disclosure["rows"]) >= 5e-7    # no row prints as zero
    return [figure.replace(NBSP, " ") for figure in out]


@pytest.fixture(scope="module")
def pages(written, tmp_path_factory):
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed here; CI installs it")
    out = {}
    for lang in ("en", "de", "pl"):
        folder = tmp_path_factory.mktemp(f"pages-{lang}")
        subprocess.run(["pdftoppm", "-png", "-r", "30", str(written[lang] / "report.pdf"), str(folder / "page")],
                       check=True)
        out[lang] = sorted(folder.glob("page-*.png"))
    return out


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_rendered_pages(written, model, pages, lang):
    """Every page: no number broken across lines, no e-notation, no header split in a word, none near-empty."""
    from PIL import Image

    from ev.present.report.blocks import Table
    from ev.present.report.document import build_document
    reader = pypdf.PdfReader(str(written[lang] / "report.pdf"))
    assert len(pages[lang]) == len(reader.pages)
    text = "\n".join(page.extract_text() for page in reader.pages).replace(NBSP, " ")
    lines = set(text.split("\n"))
    for figure in _figures_as_printed(model, lang):
        assert any(figure in line for line in lines), f"{figure} broken across lines or missing"
    plain = HEX.sub("", text)
    assert not E_NOTATION.findall(plain)
    doc = build_document(model, lang)
    words = {w.strip("()[],.:;") for b in doc.blocks if isinstance(b, Table) for h in b.headers for w in h.split()}
    for word in (w for w in words if len(w) >= 4):
        for i in range(2, len(word) - 1):
            assert f"{word[:i]}\n{word[i:]}" not in text, f"header word {word!r} split"
    for k, path in enumerate(pages[lang][:-1], 1):
        image = Image.open(path).convert("L")
        w, h = image.size
        body = image.crop((0, int(0.06 * h), w, int(0.93 * h)))          # without margins and footer
        box = body.point(lambda v: 255 if v < 200 else 0).getbbox()       # what is clearly inked
        filled = (box[3] - box[1]) / body.height if box else 0.0
        assert filled >= 0.2, f"page {k} of {len(pages[lang])} is {filled:.0%} full"


@pytest.mark.parametrize("lang, word", [("de", "ausgelassen (--simulate-rounds 0)"),
                                        ("pl", "pominięte (--simulate-rounds 0)")])
def test_skipped_parts_are_translated(model, tmp_path, lang, word):
    import copy

    from ev.present.report import render_all
    report = copy.deepcopy(model)
    report.verification = {"available": False, "reason": "skipped (--simulate-rounds 0)"}
    (tmp_path / "r.pdf").write_bytes(render_all(report, lang)["report.pdf"])
    text = flat(pdf_text(tmp_path / "r.pdf"))
    assert word in text and "skipped" not in text
    assert "optimal composition-dependent" not in text and "Hard 5" not in text


def test_the_report_is_the_same_with_or_without_analysis_workers():
    """The parts the report computes in a forked worker (ev.analysis.jobs: the exact fractions, the strategy
    rows, the rule variants, the removal check) give the same report as computing everything in this process;
    and the progress steps add up to total_steps."""
    import datetime

    from ev.core.rules import Rules
    from ev.present.report import report_json, total_steps
    rules = Rules(max_split_hands=3, hit_soft_17=False)     # one deck: resplits scored exactly, half the work of two
    today = datetime.datetime(2026, 12, 2, tzinfo=datetime.timezone.utc)
    reports, steps = [], []
    for workers in (0, 1):
        told: list[tuple[float, str]] = []
        report = build_report(rules, simulate_rounds=0, today=today, analysis_workers=workers,
                              progress=lambda k, note, told=told: told.append((k, note)))
        reports.append(json.loads(report_json(report, "en")))
        steps.append(told)
    assert reports[0] == reports[1]
    assert sum(k for k, _ in steps[0]) == sum(k for k, _ in steps[1]) == total_steps(True, rules)
    assert all(k == 1 for k, _ in steps[0])         # no truly optimal search: whole steps
    assert sorted(steps[0]) == sorted(steps[1])


def test_the_files_are_the_same_with_the_pdf_set_in_a_worker(model, tmp_path):
    """render_all sets the PDF in a forked worker while it makes the other files: the same files as all here
    (the PDF's text; its bytes differ by the creation time only)."""
    from ev.present.report import render_all
    here, there = render_all(model, "en", workers=0), render_all(model, "en", workers=1)
    assert list(here) == list(there)
    assert all(here[name] == there[name] for name in here if name != "report.pdf")
    texts = []
    for name, files in (("here", here), ("there", there)):
        (tmp_path / f"{name}.pdf").write_bytes(files["report.pdf"])
        texts.append(pdf_text(tmp_path / f"{name}.pdf"))
    assert texts[0] == texts[1] and "Self-checks" in texts[0]


def test_sensitivity_leaves_out_what_truly_optimal_play_cannot_compute():
    """Under truly optimal split play (one split only) the rule effects that allow resplits are left out and
    named, instead of failing the whole report; every other split strategy keeps them."""
    from ev.analysis.sensitivity import effects_for, effects_left_out
    from ev.core.rules import Rules
    seed = Rules()
    left = effects_left_out(seed, "optimal")
    assert left == ["resplit to 4 hands", "resplit aces (to 4 hands)"]
    assert [label for label, _ in effects_for(seed, "optimal")] == [
        label for label, _ in effects_for(seed) if label not in left]
    assert effects_left_out(seed, "cdp") == [] and effects_for(seed, "cdp") == effects_for(seed)


@pytest.mark.slow
def test_report_under_truly_optimal_split_play(tmp_path, capsys):
    """`bjev report --split-strategy optimal` end to end (the rule effects, each a truly optimal search of its own
    table, left out for time: their rows are the same code as every other strategy's)."""
    assert main(["report", "--out", str(tmp_path / "r"), "--split-strategy", "optimal", "--simulate-rounds", "1e4",
                 "--skip-rules-effect", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"]["split_strategy"] == "optimal" and data["self_checks"]["passed"]
    optimal = next(row for row in data["strategies"]["rows"] if row["key"] == "optimal-optimal")
    assert data["rtp"]["ev"] == pytest.approx(optimal["ev"], abs=1e-15)


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_the_effects_left_out_are_named_in_every_language(model, lang):
    """What the rule-effect table leaves out under truly optimal split play (the resplit rows) is named below it."""
    import copy

    from ev.analysis.sensitivity import effects_left_out
    from ev.core.rules import Rules
    from ev.present.report.document import build_document
    from ev.present.report.render_md import render_markdown
    report = copy.copy(model)
    report.sensitivity = {**model.sensitivity, "left_out": effects_left_out(Rules(), "optimal")}
    md = flat(render_markdown(build_document(report, lang)).replace(NBSP, " "))
    opening = {"en": "Left out: resplit to 4 hands and resplit aces (to 4 hands).", "de": "Nicht aufgeführt:",
               "pl": "Pominięto:"}[lang]
    assert opening in md
    assert opening not in flat(render_markdown(build_document(model, lang)).replace(NBSP, " "))


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_monitoring_limits_in_the_report(written, lang):
    """The limits of the observed RTP after 10^2 .. 10^9 rounds, both conventions, as bjev monitor gives them:
    in the JSON, and as tables and a plot in every language."""
    from ev.analysis import monitoring
    from ev.analysis.accounting import round_stats
    from ev.analysis.game import Game
    data = json.loads((written[lang] / "report.json").read_text(encoding="utf-8"))
    m = data["volatility"]["monitoring"]
    assert len(m["limits"]) == 2 * len(monitoring.ROUNDS) * len(monitoring.CONFIDENCES)
    stats = round_stats(Game(), "cdz")
    expected = monitoring.initial_limits(monitoring.RoundLaw.of(stats), 10_000, 0.99)
    row = next(r for r in m["limits"] if r["convention"] == "initial" and r["rounds"] == 10_000
               and r["confidence"] == 0.99)
    assert row == expected.as_dict() and row["method"] == "exact"
    assert (written[lang] / "monitoring.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    title = {"en": "Monitoring limits of the observed RTP", "de": "Überwachungsgrenzen der beobachteten RTP",
             "pl": "Granice monitorowania obserwowanego RTP"}[lang]
    md = (written[lang] / "report.md").read_text(encoding="utf-8")
    assert f"### {title}" in md and "](monitoring.png)" in md


def test_the_split_searches_move_the_progress_bar_within_a_step():
    """A truly optimal split search with resplits takes minutes within one progress step of the report: each up
    card whose searches end moves the step along (up to nine tenths), the step's end adds the rest, and a
    second search in the same step waits until it passes the first; the shares of a step add up to one."""
    from ev.analysis import optimal_split
    from ev.present.report.model import _moving
    told: list[tuple[float, str]] = []
    with _moving(lambda k, note: told.append((k, note)), "exact round"):
        for done in range(1, 11):
            for watcher in list(optimal_split._WATCHERS):
                watcher(done, 10, f"up card {done}")
        for done in range(1, 11):           # a second search: nothing moves until it passes the first
            for watcher in list(optimal_split._WATCHERS):
                watcher(done, 20, "again")
    assert [note for _, note in told[:10]] == [f"split search, up card {done}" for done in range(1, 11)]
    assert all(k == pytest.approx(0.09) for k, _ in told[:10])
    assert told[-1] == (pytest.approx(0.1), "exact round") and len(told) == 11
    assert sum(k for k, _ in told) == pytest.approx(1)
    assert not optimal_split._WATCHERS
    told.clear()
    with _moving(lambda k, note: told.append((k, note)), "strategies"):      # no search: one whole step
        pass
    assert told == [(1, "strategies")]
