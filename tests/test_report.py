"""The math report: four files, the PDF's text against `bjev rtp --json`, HTML structure, JSON keys, pages not blank.

One report model (every section, a short simulation) is built once and rendered
in all three languages; the command line is run once more (no rule-effects
section, to keep the suite quick).
"""
from __future__ import annotations

import json
import math
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ev.cli import main
from ev.present.numbers import percent
from ev.present.report import FILES, build_report, write_report
from ev.present.report.texts import TEXTS

pypdf = pytest.importorskip("pypdf", reason="pypdf (the test extra) extracts the PDF's text")

SECTIONS = ("identification", "method", "rtp", "upcards", "decisions", "volatility", "strategy", "sensitivity",
            "verification")
SIM_ROUNDS = 200_000

# the report computes every figure of a game (half a minute): slow, and built once, on one worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("report")]


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(str(path)).pages)


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
    return build_report(simulate_rounds=SIM_ROUNDS, seed=20240607, workers=2)


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
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "temporary directory left behind"
    text = pdf_text(out / "report.pdf")
    for key in ("rtp_total_wagered", "rtp_initial"):
        assert percent(rtp_json[key], 6, "en") in text, key
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


# ----- the model and report.json -------------------------------------------------------------
def test_model_figures(model, rtp_json):
    rtp, vol = model.rtp, model.volatility
    assert rtp["rtp_total_wagered"] == pytest.approx(rtp_json["rtp_total_wagered"], abs=1e-15)
    assert rtp["matches_published"] and rtp["rtp_total_wagered_2dp"] == 99.59
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


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_json_keys(written, lang):
    data = json.loads((written[lang] / "report.json").read_text(encoding="utf-8"))
    assert data["language"] == lang
    for key in SECTIONS:
        assert key in data, key
    for key in ("ev", "house_edge", "rtp_initial", "rtp_total_wagered", "expected_total_wager", "exact", "by_strategy"):
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


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_pdf_text(written, model, lang):
    text = pdf_text(written[lang] / "report.pdf")
    for key in ("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"):
        assert TEXTS[key][lang] in text, key
    assert percent(model.rtp["rtp_total_wagered"], 6, lang) in text
    assert percent(model.rtp["rtp_initial"], 6, lang) in text
    assert percent(model.rtp["rtp_total_wagered"], 2, lang) == ("99.59 %" if lang == "en" else "99,59 %")
    assert percent(model.rtp["rtp_total_wagered"], 2, lang) in text
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
            if value and not value.startswith("data:"):
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
    html = (written[lang] / "report.html").read_text(encoding="utf-8")
    parser = _Structure()
    parser.feed(html)
    assert parser.lang == lang
    assert parser.tags.get("h1") == 1 and parser.tags.get("table", 0) >= 20
    assert [TEXTS[f"s{i}"][lang] for i in range(1, 10)] == [h for h in parser.headings if h[0].isdigit()]
    assert len(parser.images) == 2 and all(src.startswith("data:image/png;base64,") for src in parser.images)
    assert parser.external == []                        # self-contained
    assert "background:#" in html                       # the coloured chart
    assert percent(model.rtp["rtp_total_wagered"], 6, lang) in html
    md = (written[lang] / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# ") and TEXTS["s9"][lang] in md and percent(model.rtp["rtp_total_wagered"], 6, lang) in md


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
