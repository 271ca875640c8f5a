"""The report's inputs and records that need no report built: the metadata file, the build commit, the game name."""
from __future__ import annotations

import pytest

from ev.core.rules import Rules
from ev.errors import MetadataError
from ev.present.report import meta as meta_module
from ev.present.report.meta import check_meta, empty_meta, load_meta
from ev.present.report.model import CUSTOM_NAME, GAME_NAME, game_name


def test_meta_fields_and_blanks(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('supplier = "ACME"\nmax_bet = 200\n[[revision]]\nrevision = "2"\ndescription = "x"\n',
                    encoding="utf-8")
    data = load_meta(path)
    assert data["supplier"] == "ACME" and data["max_bet"] == 200 and data["game_id"] is None
    assert data["revision"] == [{"revision": "2", "date": None, "author": None, "description": "x"}]
    blank = empty_meta()
    assert all(v is None for k, v in blank.items() if k not in ("revision", "published_rtp_convention",
                                                                   "even_money_stake", "requirement"))
    assert blank["revision"] == [] and blank["requirement"] == [] and blank["even_money_stake"] == 1
    assert blank["published_rtp_convention"] == "total_wagered"


@pytest.mark.parametrize("data, words", [
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"supplier": 3}, "one line of text"),
    ({"author": "a\nb"}, "one line of text"),
    ({"max_bet": -1}, "positive number"),
    ({"max_bet": True}, "positive number"),
    ({"min_bet": 10, "max_bet": 5}, "above max_bet"),
    ({"revision": "1.0"}, "list of tables"),
    ({"revision": [{"who": "me"}]}, "unknown field 'who'"),
    ({"max_bet": float("inf")}, "positive number"),
    ({"max_bet": float("nan")}, "positive number"),
    ({"max_bet": 1e300}, "at most 1,000,000,000"),
    ({"min_bet": 0.001}, "at most 2 decimals"),
    ({"min_bet": 2.5, "max_bet": 2.25}, "above max_bet"),
    ({"supplier": "x" * 201}, "at most 200"),
    ({"revision": [{"description": "x" * 2001}]}, "at most 2,000"),
    ({"revision": [{}] * 101}, "at most 100"),
    ({"author": "a\tb"}, "control characters"),
    ({"author": "a\u200bb"}, "control characters"),
    ({"game_name": "黑杰克"}, "cannot draw"),
    ({"game_name": "\U0001F3B2 dice"}, "cannot draw"),
    ({"game_name": "بلاك جاك"}, "right-to-left"),
    ({"game_name": "בלאק"}, "right-to-left"),
    ({"published_rtp_convention": ["total_wagered"], "published_rtp": "99"}, "one of"),
    ({"even_money_stake": "1"}, "1 or 1.5"),
])
def test_meta_errors_name_the_field(data, words):
    with pytest.raises(MetadataError, match=words):
        check_meta(data)


def test_meta_file_errors(tmp_path):
    with pytest.raises(MetadataError, match="cannot read"):
        load_meta(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("supplier = ", encoding="utf-8")
    with pytest.raises(MetadataError, match="not valid TOML"):
        load_meta(bad)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(MetadataError, match="not UTF-8"):
        load_meta(binary)


def test_meta_text_in_every_script_the_font_draws():
    """Latin with diacritics (Polish, German), Greek, Cyrillic, signs and playing cards are kept as written."""
    data = check_meta({"game_name": "Żółć Größe Ωμέγα Жук €£ ≤ 🂡", "min_bet": 0.5, "max_bet": 1_000_000_000})
    assert data["game_name"] == "Żółć Größe Ωμέγα Жук €£ ≤ 🂡" and data["max_bet"] == 1_000_000_000


@pytest.mark.slow
def test_meta_text_is_never_markup_in_the_markdown(tmp_path):
    """Tags, links, images and emphasis in a metadata field are printed as text in report.md (and report.html),
    never passed on as Markdown or HTML."""
    import copy

    from ev.present.report import build_report, render_all
    hostile = ('<script>alert(1)</script> [x](javascript:alert(1)) ![i](http://example.invalid/a.png) '
               '<iframe src=x onerror=y> *b* `c` & | d')
    report = build_report(Rules(max_split_hands=1), simulate_rounds=0, sensitivity=False,
                          meta=check_meta({"supplier": hostile, "game_name": "G_1 [v2]"}))
    files = render_all(copy.deepcopy(report), "en", workers=0)
    text = files["report.md"].decode()
    for raw in ("<script", "<iframe", "[x](javascript:", "![i]", "*b*", "`c`"):
        assert raw not in text, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt; \\[x\\](javascript:alert(1))" in text
    html = files["report.html"].decode()
    assert "<script>" not in html and "<iframe" not in html and "&lt;script&gt;" in html


def test_build_commit_recorded_at_build_time(tmp_path, monkeypatch):
    """Installed (no checkout): the commit setup.py wrote; neither: None, printed as 'not recorded'."""
    recorded = tmp_path / "build_commit.txt"
    recorded.write_text("0123456789abcdef0123456789abcdef01234567\n", encoding="ascii")
    monkeypatch.setattr(meta_module, "checkout_commit", lambda: None)
    monkeypatch.setattr(meta_module, "BUILD_COMMIT_FILE", recorded)
    assert meta_module.build_commit() == "0123456789abcdef0123456789abcdef01234567"
    monkeypatch.setattr(meta_module, "BUILD_COMMIT_FILE", tmp_path / "absent.txt")
    assert meta_module.build_commit() is None
    monkeypatch.setattr(meta_module, "checkout_commit", lambda: "f" * 40)
    monkeypatch.setattr(meta_module, "BUILD_COMMIT_FILE", recorded)
    assert meta_module.build_commit() == "f" * 40          # a checkout reports its own commit


def test_game_name():
    assert game_name(Rules(), empty_meta()) == GAME_NAME == "Blackjack Touch – Single Deck"
    assert game_name(Rules(decks=2), empty_meta()) == CUSTOM_NAME == "custom rule set"
    assert game_name(Rules(decks=2), {**empty_meta(), "game_name": "Table 7"}) == "Table 7"


def test_rules_say_which_fields_have_no_effect():
    default = Rules()
    assert not default.has_effect("double_soft") and not default.has_effect("resplit_aces")
    assert default.has_effect("unchecked_blackjack_takes")          # no check under the ace
    assert not Rules(peek="ace_ten").has_effect("unchecked_blackjack_takes")
    assert Rules(double="any").has_effect("double_soft") and not Rules(max_split_hands=1).has_effect("split_tens")


@pytest.mark.parametrize("value, percent, decimals", [("99.59", "99.59", 2), ("99.50 %", "99.50", 2), (97, "97", 0),
                                                      (96.5, "96.5", 1)])
def test_published_rtp_keeps_the_printed_precision(value, percent, decimals):
    pub = check_meta({"published_rtp": value, "published_rtp_convention": "initial_bet"})
    assert pub["published_rtp"] == {"percent": percent, "decimals": decimals, "value": float(percent) / 100}
    assert pub["published_rtp_convention"] == "initial_bet"


@pytest.mark.parametrize("data, words", [
    ({"published_rtp": "ninety"}, "percentage"),
    ({"published_rtp": 0}, "percentage"),
    ({"published_rtp": "1e2"}, "percentage"),
    ({"published_rtp": True}, "percentage"),
    ({"published_rtp": "99", "published_rtp_convention": "per hand"}, "total_wagered, initial_bet"),
    ({"published_rtp_convention": "initial_bet"}, "needs 'published_rtp'"),
    ({"even_money_stake": 2}, "1 or 1.5"),
    ({"even_money_stake": True}, "1 or 1.5"),
])
def test_published_and_stake_errors_name_the_field(data, words):
    with pytest.raises(MetadataError, match=words):
        check_meta(data)


REQUIREMENTS = [{"name": "Regulator A, card games", "minimum_rtp": "92", "basis": "optimal"},
                {"name": "Regulator B, blind play", "minimum_rtp": "85", "basis": "random",
                 "convention": "initial_bet"},
                {"minimum_rtp": 99.6, "basis": "disclosed"}]


@pytest.mark.slow
def test_compliance_block_states_each_requirement_and_its_verdict():
    """Each [[requirement]] against the game's figure on its basis and in its convention (the strategy table's
    row), met or not, in every language; and the largest win at the table's maximum bet."""
    import copy

    from ev.present.report import build_report, render_all
    meta = check_meta({"requirement": REQUIREMENTS, "max_bet": 500, "currency": "EUR"})
    report = build_report(Rules(), simulate_rounds=0, sensitivity=False, meta=meta)
    rows = {row["key"]: row for row in report.strategies["rows"]}
    got = report.strategies["compliance"]["requirements"]
    assert [(q["row"], q["figure"], q["passed"]) for q in got] == [
        ("optimal-cdz", rows["optimal-cdz"]["rtp_total_wagered"], True),
        ("random", rows["random"]["rtp_initial"], False),
        ("basic", rows["basic"]["rtp_total_wagered"], False)]
    assert 0.70 < got[1]["figure"] < 0.72 and 0.9955 < got[2]["figure"] < 0.996
    assert report.strategies["compliance"]["all_passed"] is False
    assert report.exposure["max_win_at_table_max"] == 500 * report.exposure["max_win"]
    for lang, (met, not_met) in {"en": ("met", "NOT MET"), "de": ("erfüllt", "NICHT ERFÜLLT"),
                                 "pl": ("spełnione", "NIESPEŁNIONE")}.items():
        text = render_all(copy.deepcopy(report), lang, workers=0)["report.md"].decode()
        lines = [x for x in text.splitlines() if x.startswith("| Regulator")]
        assert len(lines) == 2 and lines[0].endswith(f"| {met} |") and lines[1].endswith(f"| {not_met} |"), lang
        assert "| 92 % |" in lines[0].replace("\u00a0", " ")


def test_compliance_without_requirements_is_blanks():
    from ev.present.report.lab import compliance
    assert compliance({"rows": [], "published_refers_to": "optimal-cdz"}, []) == {"requirements": [],
                                                                                 "all_passed": None}


@pytest.mark.parametrize("req, words", [
    ({"minimum_rtp": "85"}, "needs minimum_rtp"),
    ({"basis": "optimal"}, "needs minimum_rtp"),
    ({"minimum_rtp": "150", "basis": "optimal"}, "from 0 to 100"),
    ({"minimum_rtp": "85", "basis": "best"}, "optimal, disclosed, random"),
    ({"minimum_rtp": "85", "basis": "optimal", "convention": "per hand"}, "total_wagered, initial_bet"),
    ({"minimum_rtp": "85", "basis": "optimal", "year": 2020}, "unknown field"),
    ({"minimum_rtp": "85", "basis": "optimal", "name": 7}, "one line of text"),
])
def test_requirement_errors_name_the_field(req, words):
    with pytest.raises(MetadataError, match=words):
        check_meta({"requirement": [req]})
    with pytest.raises(MetadataError, match="at most 20"):
        check_meta({"requirement": [{"minimum_rtp": "85", "basis": "optimal"}] * 21})


def test_the_readme_metadata_example_is_valid():
    """The report page's TOML example (docs/report.md) reads as a metadata file."""
    import re
    from pathlib import Path

    import tomllib
    readme = (Path(__file__).resolve().parent.parent / "docs" / "report.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```toml\n(.*?)```", readme, re.S) if "supplier" in b]   # not rules files
    assert blocks
    example = (Path(__file__).resolve().parent.parent / "examples" / "game-meta.toml").read_text(encoding="utf-8")
    for block in blocks:
        meta = check_meta(tomllib.loads(block))
        assert meta["supplier"] and meta["requirement"][0]["basis"] == "optimal"
        assert block in example          # the page shows the file its command reads
