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
    assert all(v is None for k, v in empty_meta().items() if k != "revision") and empty_meta()["revision"] == []


@pytest.mark.parametrize("data, words", [
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"supplier": 3}, "one line of text"),
    ({"author": "a\nb"}, "one line of text"),
    ({"max_bet": -1}, "positive number"),
    ({"max_bet": True}, "positive number"),
    ({"min_bet": 10, "max_bet": 5}, "above max_bet"),
    ({"revision": "1.0"}, "list of tables"),
    ({"revision": [{"who": "me"}]}, "unknown field 'who'"),
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
