"""The HTML pages as a browser shows them: the strategy chart and the math report opened in headless Chromium.

Chromium (Debian's ``chromium``) draws the chart's HTML to a PNG and prints the report's HTML to PDF; the
tests read what it drew.  CI installs Chromium (``.ci/run``); on a machine without one they are skipped with
that reason (``apt-get install chromium`` and they run)."""
from __future__ import annotations

import io
import shutil
import subprocess
import unicodedata

import pypdf
import pytest
from PIL import Image

from ev.analysis.basic_strategy import basic_chart
from ev.analysis.game import Game
from ev.core.rules import make_rules
from ev.present.chart_render import COLOURS, render

BROWSER = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(name)), None)
pytestmark = [pytest.mark.skipif(BROWSER is None, reason="no Chromium on this machine"), pytest.mark.slow]


def headless(*args: str) -> None:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]
    subprocess.run([BROWSER, *flags, *args], check=True, capture_output=True, timeout=120)


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_the_html_chart_shows_every_action_colour_in_a_browser(lang, tmp_path):
    game = Game(make_rules(None, ["decks=6", "hit_soft_17=false", "late_surrender=true", "double_after_split=true"]))
    chart = basic_chart(game)
    page = tmp_path / "chart.html"
    page.write_text(render(chart, "html", lang), encoding="utf-8")
    shot = tmp_path / "chart.png"
    headless("--window-size=1200,1700", f"--screenshot={shot}", page.as_uri())
    image = Image.open(shot).convert("RGB")
    counts: dict = {}
    for count, colour in image.getcolors(maxcolors=1 << 20):
        counts[colour] = count
    cells = {action: sum(c for colour, c in counts.items() if max(abs(a - b) for a, b in zip(colour, rgb(hex_)))
                         <= 6) for action, hex_ in COLOURS.items() if action in ("stand", "hit", "double", "split",
                                                                                   "surrender")}
    # a cell is about 38 x 20 px: every action of this game's chart covers at least one cell's worth of pixels
    assert all(pixels > 600 for pixels in cells.values()), cells
    assert cells["hit"] > cells["surrender"] and cells["stand"] > cells["surrender"]


@pytest.fixture(scope="module")
def report_html(tmp_path_factory):
    from ev.present.report import build_report
    from ev.present.report.document import build_document
    from ev.present.report.render_html import render_html
    report = build_report(make_rules(None, ["decks=6", "hit_soft_17=false", "max_split_hands=4"]),
                          simulate_rounds=100_000, workers=1, sensitivity=False)
    out = tmp_path_factory.mktemp("browser")
    pages = {}
    for lang in ("en", "pl"):
        page = out / f"report-{lang}.html"
        page.write_text(render_html(build_document(report, lang)), encoding="utf-8")
        pages[lang] = page
    return pages


@pytest.mark.xdist_group("browser-report")     # one worker builds the report for both languages
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_html_report_prints_from_a_browser_with_every_section_and_plot(report_html, lang, tmp_path):
    from ev.present.report.texts import t
    pages = report_html
    pdf = tmp_path / "printed.pdf"
    headless("--no-pdf-header-footer", f"--print-to-pdf={pdf}", pages[lang].as_uri())
    reader = pypdf.PdfReader(io.BytesIO(pdf.read_bytes()))
    # NFKC: the browser's fonts set "fi" as a ligature
    text = " ".join(unicodedata.normalize("NFKC", " ".join(page.extract_text() for page in reader.pages)).split())
    assert len(reader.pages) > 10
    for key in ("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s9", "s10", "glance.title"):
        assert t(key, lang) in text, key
    images = sum(len(page.images) for page in reader.pages)
    assert images >= 3        # the plots (data: URIs) decoded and drawn: EV by up card, distribution, limits
