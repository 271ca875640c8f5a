"""The basic-strategy chart: allowed actions, optimality, exceptions, EV bounds, renderings, tables/ freshness."""
from __future__ import annotations

import html.parser
import os
import struct
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from ev.analysis import basic_strategy as ch
from ev.analysis.game import Game
from ev.analysis.strategy import ACTION_NAMES, DOUBLE, HIT, SPLIT, STAND, SURRENDER
from ev.cli import main
from ev.core._policy import PolicyEvaluator
from ev.core.cards import ACE, N_RANKS, RANK_SYMBOLS, TEN, blackjack_rank, composition_of, hand_total, subtract
from ev.core.rules import Rules
from ev.errors import BJEVError
from ev.present import chart_render
from ev.present.files import write_file

TABLES = Path(__file__).resolve().parent.parent / "tables"
TEXT_SUFFIXES = (".txt", ".md", ".csv", ".html")
ROW = {row.key: row for row in ch.chart_rows()}


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(Rules())


@pytest.fixture(scope="module")
def chart(game) -> ch.Chart:
    return ch.basic_chart(game)


def cell(chart, key: str, up: str) -> str:
    return chart.cells[ROW[key]][RANK_SYMBOLS.index(up)]


# ----- the cells are allowed, and read as the legend says -------------------------------------------
def allowed_letters(rules: Rules, row: ch.Row) -> set[str]:
    """First letters the rules allow in a row (worked out here from the rules, not from the chart module)."""
    if row.kind != "pair" and row.value == 21:
        return {"S"}
    letters = {"S", "H"}
    if row.kind == "pair":
        hands = [composition_of([row.value, row.value])]
    else:
        hands = [composition_of([a, b]) for a in range(N_RANKS) for b in range(a, N_RANKS)
                 if a != b and hand_total(composition_of([a, b])) == (row.value, row.kind == "soft")]
    if any(rules.may_double(*hand_total(h), after) for h in hands for after in (False, True)):
        letters.add("D")
    if row.kind == "pair" and rules.max_split_hands >= 2:
        letters.add("P")
    if rules.late_surrender and hands:
        letters.add("R")
    return letters


def check_cells(rules: Rules, cells) -> None:
    for row, by_up in cells.items():
        for up, code in by_up.items():
            assert code in ch.CODES, (row, up, code)
            assert code[0] in allowed_letters(rules, row), (row.key, up, code)
            if code[0] == "P":
                assert row.kind == "pair"


def test_every_cell_is_allowed_by_the_rules(game, chart):
    check_cells(game.rules, chart.cells)
    chart.table.validate()
    # double 10-11 only: doubling can appear on hard 10, hard 11 and 5-5 only; no surrender in this game
    doubled = {row.key for row, by_up in chart.cells.items() if any(c.startswith("D") for c in by_up.values())}
    assert doubled <= {"hard10", "hard11", "pair5"}
    assert not any(c.startswith("R") for by_up in chart.cells.values() for c in by_up.values())


def test_textbook_cells(chart):
    """Plays every published single-deck chart agrees on (Thorp, Griffin, Wong) for these rules."""
    for up in "23456789TA":
        for total in range(17, 22):
            assert cell(chart, f"hard{total}", up) == "S"
        for total in range(5, 9):
            assert cell(chart, f"hard{total}", up) == "H"
        for total in range(13, 18):          # no soft doubling under double 10-11; never stand on soft 17
            assert cell(chart, f"soft{total}", up) == "H"
        for total in (19, 20, 21):
            assert cell(chart, f"soft{total}", up) == "S"
        assert cell(chart, "pairA", up) == "P"
        assert cell(chart, "pairT", up) == "S"
        assert cell(chart, "pair5", up) != "P" and cell(chart, "pair4", up) != "P"
    for up in "23456789T":
        assert cell(chart, "hard11", up) == "Dh"
    for up in "23456789":
        assert cell(chart, "pair8", up) == "P"
        assert cell(chart, "hard10", up) == "Dh"
    for up in "456":
        assert cell(chart, "hard12", up) == "S"
    for up in "23456":
        for total in range(13, 17):
            assert cell(chart, f"hard{total}", up) == "S"
    for up in "78":
        for total in range(12, 17):
            assert cell(chart, f"hard{total}", up) == "H"


def test_insurance_and_even_money_never_pay_from_a_full_deck(chart):
    # P(ten in the hole | ace up, two cards gone) <= 16/49 < 1/3; even money 1 < 1.5 x (1 - 15/49)
    assert 16 / 49 < 1 / 3 and 1 < 1.5 * (1 - 15 / 49)
    assert chart.insurance is False and chart.even_money is False
    assert not any(chart.table.insurance) and not chart.table.even_money and chart.stats.p_even_money == 0


def expected_action(rules: Rules, cells, up: int, hand: tuple, after_split: bool = False) -> int:
    """The chart read by hand, as its legend says (independent of ev.analysis.basic_strategy's resolver)."""
    total, soft = hand_total(hand)
    n = sum(hand)
    if total == 21:
        return STAND

    def read(code: str):
        for letter in code:
            letter = letter.upper()
            if letter == "S":
                return STAND
            if letter == "H":
                return HIT
            if letter == "D" and n == 2 and rules.may_double(total, soft, after_split):
                return DOUBLE
            if letter == "P" and n == 2 and not after_split:
                return SPLIT
            if letter == "R" and n == 2 and not after_split and rules.late_surrender:
                return SURRENDER
        return None

    if n == 2 and max(hand) == 2:
        action = read(cells[ch.Row("pair", hand.index(2))][up])
        if action is not None:
            return action
    if (soft and total < 13) or (not soft and total < 5):
        return HIT
    return read(cells[ch.Row("soft" if soft else "hard", total)][up])


def test_strategy_table_follows_the_cells(game, chart):
    hands = game.graph["hands"]
    for up in range(N_RANKS):
        for s, hand in enumerate(hands):
            if 2 <= sum(hand) <= 4:
                assert chart.table.play[up][s] == expected_action(game.rules, chart.cells, up, hand), (up, hand)
                assert chart.table.split_play[up][s] == expected_action(game.rules, chart.cells, up, hand, True)


# ----- optimality: no single change helps ------------------------------------------------------------
def column_ev(game: Game, up: int, play: bytes, split: bytes) -> float:
    """EV of the round given the up card for a player who follows ``play``/``split`` (one split, no surrender)."""
    r = game.rules
    evaluator = PolicyEvaluator(game.solver(up), blackjack_rank(up), play, split * N_RANKS)
    base = subtract(game.shoe, composition_of([up]))
    n = sum(base)
    settled = game.rules.settled_blackjack_rank(up) >= 0
    ev = 0.0
    for c1 in range(N_RANKS):
        for c2 in range(c1, N_RANKS):
            p = base[c1] * (base[c2] - (c1 == c2)) / (n * (n - 1)) * (1 if c1 == c2 else 2)
            hand = composition_of([c1, c2])
            deck = subtract(base, hand)
            p_bj = deck[blackjack_rank(up)] / sum(deck) if blackjack_rank(up) >= 0 else 0.0
            if {c1, c2} == {ACE, TEN}:
                ev += p * float(r.payout) * (1 - p_bj)
                continue
            s = game.state(hand)
            assert play[s] != SURRENDER
            if play[s] == SPLIT:
                v = evaluator.split_value(c1, c1 == ACE and r.split_aces_one_card)
            else:
                v = evaluator.hand_value(s)
            ev += p * (v - (p_bj if settled else 0.0))
    return ev


def test_chart_ev_is_the_exact_ev_of_following_it(game, chart):
    n = sum(game.shoe)
    total = sum(game.shoe[up] / n * column_ev(game, up, chart.table.play[up], chart.table.split_play[up])
                for up in range(N_RANKS))
    assert total == pytest.approx(chart.stats.ev, abs=1e-12)
    assert chart.derivation.ev == pytest.approx(chart.stats.ev, abs=1e-12)


@pytest.mark.slow
def test_no_single_cell_change_raises_the_ev(game, chart):
    layout = ch.ChartLayout(game)
    checked = 0
    for up in range(N_RANKS):
        column = {row: chart.cells[row][up] for row in layout.rows}
        play, _, split = layout.column_tables(column)
        base_ev = column_ev(game, up, bytes(play), bytes(split))
        for row in layout.rows:
            letters = allowed_letters(game.rules, row)
            for code in ch.CODES:
                if code == column[row] or code[0] not in letters:
                    continue
                changed = dict(column)
                changed[row] = code
                p, _, s = layout.column_tables(changed)
                if p == play and s == split:
                    continue
                assert column_ev(game, up, bytes(p), bytes(s)) <= base_ev + 1e-12, (RANK_SYMBOLS[up], row.key, code)
                checked += 1
    assert checked > 400


def _same(x: float, y: float) -> bool:
    return x == y or (x != x and y != y)      # the same float, NaN (a hand the deck cannot deal) included


@pytest.mark.parametrize("changes, seed", [(dict(decks=1), 0),
                                           (dict(decks=6, max_split_hands=4, double_after_split=True,
                                                 double="any"), 1),
                                           (dict(decks=2, max_split_hands=3, hit_soft_17=False), 2)])
@pytest.mark.quick_cases(1)
def test_a_changed_strategy_is_valued_as_a_fresh_evaluator_values_it(changes, seed):
    """``PolicyEvaluator.set_policy`` forgets only the deck contexts whose table changed (the chart's ascent
    changes a few rows at a time): after each of several random changes, to the unsplit play, to every pair's
    split play, or to one pair's, every hand's value, a sample of distributions, every split hand's context
    values and ``context_means`` are those of a new evaluator of the same strategy, to the bit."""
    import random
    rng = random.Random(seed)
    game = Game(Rules().replace(**changes))
    hands = game.graph["hands"]
    nxt = game.graph["next"]
    n = len(hands)
    up = rng.choice(game.upcards())
    solver = game.solver(up)
    table = ch.basic_policy(game)
    play, split = bytearray(table.play[up]), bytearray(table.split_play[up])
    playable = [s for s in range(n) if sum(hands[s]) >= 2 and hand_total(hands[s])[0] < 21]
    splits = bytearray(split) * N_RANKS           # one split table per pair rank
    evaluator = PolicyEvaluator(solver, blackjack_rank(up), bytes(play), bytes(splits))
    contexts = [(pair, extra, nxt[nxt[pair] * N_RANKS + c]) for pair in range(N_RANKS)
                for extra in range(1, game.rules.split_hands(pair)) for c in range(N_RANKS)
                if nxt[pair] >= 0 and nxt[nxt[pair] * N_RANKS + c] >= 0]
    for step in range(9):
        # by turns: the unsplit play only; every pair's split play alike (as the chart's search changes it);
        # one pair's split play only
        pair_changed = rng.choice([c[0] for c in contexts])
        for s in rng.sample(playable, 3 + step * 3):
            options = [STAND, HIT] + ([DOUBLE] if sum(hands[s]) == 2 else [])
            code = rng.choice(options)
            if step % 3 == 0:
                play[s] = code
            elif step % 3 == 1:
                for p in range(N_RANKS):
                    splits[p * n + s] = code
            else:
                splits[pair_changed * n + s] = code
        evaluator.set_policy(bytes(play), bytes(splits))
        fresh = PolicyEvaluator(solver, blackjack_rank(up), bytes(play), bytes(splits))
        order = list(range(n))
        rng.shuffle(order)          # the kept evaluator is asked in another order than before
        for s in order:
            assert _same(evaluator.hand_value(s), fresh.hand_value(s)), (step, s)
        for s in rng.sample(playable, 40):
            assert evaluator.hand_distribution(s) == fresh.hand_distribution(s), (step, s)
        for pair, extra, s in contexts:
            one_card = game.rules.one_card_after_split(pair)
            kept = evaluator.context_values(s, pair, extra, one_card)
            assert all(_same(a, b) for a, b in zip(kept, fresh.context_values(s, pair, extra, one_card)))
            assert (evaluator.context_distribution(s, pair, extra, one_card)
                    == fresh.context_distribution(s, pair, extra, one_card)), (step, pair, extra, s)
        for pair in {c[0] for c in contexts}:
            one_card = game.rules.one_card_after_split(pair)
            for extra in range(1, game.rules.split_hands(pair)):
                means = evaluator.context_means(pair, extra, one_card, bytes(N_RANKS))
                for c in range(N_RANKS):
                    s = nxt[nxt[pair] * N_RANKS + c]
                    if s >= 0:
                        assert _same(means[c], fresh.context_values(s, pair, extra, one_card)[0]), (pair, extra, c)


@pytest.mark.parametrize("changes", [{}, dict(late_surrender=True, double="any", decks=2)])
def test_the_deal_sum_is_the_loop_of_hand_values(changes):
    """``PolicyEvaluator.deal_sum`` (the chart ascent's sum over the deals) is the plain loop: P(deal) x the split
    value handed in where the strategy splits, the surrender value where it surrenders, else the hand's value,
    summed in deal order, to the bit; deals outside the hand graph are refused."""
    from array import array
    game = Game(Rules().replace(**changes))
    layout = ch.chart_layout(game)
    for up in (0, 5, 9):
        column = ch._Column(game, layout, up)
        play = ch.basic_policy(game).play[up]
        evaluator = PolicyEvaluator(game.solver(up), blackjack_rank(up), play, play * N_RANKS)
        split_values = array("d", [0.25 + 0.01 * r for r in range(N_RANKS)])
        total, actions = 0.0, set()
        for i, s in enumerate(column.deal_states):
            actions.add(play[s])
            v = (split_values[column.deal_pairs[i]] if play[s] == SPLIT else
                 column.surrender_values[i] if play[s] == SURRENDER else evaluator.hand_value(s))
            total += column.deal_probs[i] * v
        assert evaluator.deal_sum(column.deal_states, column.deal_probs, column.deal_pairs, split_values,
                                  column.surrender_values) == total
        assert {STAND, HIT, DOUBLE, SPLIT} <= actions or up != 5
        if changes:
            assert any(v != 0 for v in column.surrender_values)
            assert SURRENDER in actions or up != 9       # 16 against a ten surrenders
    with pytest.raises(ValueError, match="not a hand-graph state"):
        evaluator.deal_sum(array("i", [len(play)]), array("d", [1.0]), array("i", [-1]), split_values,
                           array("d", [0.0]))


# ----- exceptions and EV ---------------------------------------------------------------------------
def test_exceptions_agree_with_the_engine(game, chart):
    listed = {(e.up, e.cards): e for e in chart.exceptions_with(2)}
    found = 0
    for up in range(N_RANKS):
        for c1 in range(N_RANKS):
            for c2 in range(c1, N_RANKS):
                if {c1, c2} == {ACE, TEN}:
                    continue
                res = game.hand([RANK_SYMBOLS[c1], RANK_SYMBOLS[c2]], up)
                action = ACTION_NAMES[chart.table.play[up][game.state(composition_of([c1, c2]))]]
                gain = getattr(res, res.best) - getattr(res, action)
                if gain > 1e-9:
                    e = listed[up, (c1, c2)]
                    assert (e.chart_action, e.best_action) == (action, res.best)
                    assert e.gain == pytest.approx(gain, abs=1e-12)
                    found += 1
                else:
                    assert (up, (c1, c2)) not in listed
    assert found == len(listed)
    # single deck, H17: 8-4 and 7-5 stand against a 3 while 10-2 hits against a 4 (classic CD exceptions)
    assert {(RANK_SYMBOLS[e.up], e.hand, e.best_action) for e in chart.exceptions_with(2)} >= {
        ("3", "8-4", "stand"), ("3", "7-5", "stand"), ("4", "T-2", "hit")}


def test_chart_ev_is_below_optimal(chart):
    assert chart.optimal.ev == pytest.approx(-0.00445128332, abs=1e-11)     # the reference analyser's CDZ- EV
    assert chart.stats.ev < chart.optimal.ev
    assert 0 < chart.ev_gap < 0.001
    assert chart.stats.rtp_total_wagered < chart.optimal.rtp_total_wagered
    assert chart.stats.rtp_initial == pytest.approx(1 + chart.stats.ev, abs=1e-15)
    # every exception's round gain is part of the gap between the chart and optimal play
    assert 0 < sum(e.round_gain for e in chart.exceptions) < chart.ev_gap


@pytest.mark.slow
def test_other_rules_surrender_and_doubling():
    """Two decks, S17, double any, DAS, late surrender, resplits: the published chart's surrender cells."""
    rules = Rules(decks=2, hit_soft_17=False, double="any", double_after_split=True, late_surrender=True,
                  max_split_hands=4)
    game = Game(rules)
    d = ch.derive(game)
    check_cells(rules, d.cells)
    ch.chart_policy(game, d.cells, d.insurance, d.even_money).validate()
    assert d.ev < game.round("cdz").ev
    assert cell(d, "hard16", "T").startswith("R") and cell(d, "hard15", "T").startswith("R")
    assert cell(d, "hard11", "6") == "Dh" and cell(d, "soft18", "4") == "Ds" and cell(d, "pair4", "5") == "P"
    # its notes say what these rules allow: split hands double, and a pair after a split splits again up to 4 hands
    from ev.present.i18n import t
    for lang in ("en", "de", "pl"):
        notes = chart_render.chart_view(ch.basic_chart(game), lang).notes
        assert t("note.cards_das", lang) in notes and t("note.cards", lang) not in notes, lang
        assert t("note.pairs_resplit", lang, hands=4) in notes and t("note.pairs", lang) not in notes, lang
    seed = chart_render.chart_view(ch.basic_chart(Game(Rules())), "en").notes    # no DAS, one split
    assert "where the rules do not allow it (e.g. after a split)" in " ".join(seed)
    assert "cannot be split (after a split, or by the rules)" in " ".join(seed)


@pytest.mark.slow
def test_pairs_with_no_total_row_are_said_to_be_hit_as_the_chart_player_hits_them(game, chart):
    """2-2 and A-A marked for splitting but held where they cannot be split (after a split) have no total row
    (hard 4, soft 12): the notes say they are hit, which is what the chart's player does; A-A only where a
    split ace is played on."""
    from ev.present.i18n import t
    layout = ch.chart_layout(game)
    twos = game.state(composition_of([1, 1]))
    for up in range(N_RANKS):
        column = {row: chart.cells[row][up] for row in layout.rows}
        assert layout.action(column, twos, "split") == HIT      # after the split: no second split, no row: hit
    assert any(code == "P" for code in chart.cells[ch.Row("pair", 1)].values())
    for lang, hands in (("en", "Pair 2-2 (Hard 4)"), ("de", "Paar 2-2 (Hart 4)"), ("pl", "Para 2-2 (Twarda 4)")):
        notes = chart_render.chart_view(chart, lang).notes
        assert t("note.pairs_no_row", lang, hands=hands) in notes, lang     # split aces take one card: no A-A
    played_on = Game(Rules(split_aces_one_card=False))
    chart2 = ch.basic_chart(played_on)
    aces = played_on.state(composition_of([ACE, ACE]))
    layout2 = ch.chart_layout(played_on)
    assert all(layout2.action({row: chart2.cells[row][up] for row in layout2.rows}, aces, "split") == HIT
               for up in range(N_RANKS))
    assert any(note.endswith("is hit: Pair 2-2 (Hard 4) and Pair A-A (Soft 12).")
               for note in chart_render.chart_view(chart2, "en").notes)
    for rules in (Rules(max_split_hands=1),      # no split; and one deck of four hands: a fifth 2 would be needed
                  Rules(max_split_hands=4), Rules(max_split_hands=4, resplit_aces=True, split_aces_one_card=False)):
        notes = chart_render.chart_view(ch.basic_chart(Game(rules)), "en").notes
        assert not any("no total row" in note for note in notes), rules
    assert chart_render.pairs_without_total_row(ch.basic_chart(Game(Rules(max_split_hands=4, decks=2)))) == [
        (1, "hard", 4)]


def test_ascent_converges_from_any_start(game, chart):
    d = ch.derive(game, start_code="S")
    assert d.changes > 0
    assert d.cells == chart.cells


# ----- renderings and tables/ -------------------------------------------------------------------------
def svg_structure(data: bytes) -> tuple:
    """What an SVG shows, independent of matplotlib's number formatting: texts in order and fill colours."""
    root = ET.fromstring(data)
    texts = [el.text or "" for el in root.iter() if el.tag.endswith("}text")]
    fills = Counter(style.split("fill:")[1].split(";")[0].strip()
                    for el in root.iter() for style in [el.get("style", "")] if "fill:" in style)
    return texts, fills


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def stale_files(directory: Path, reference: Path) -> list[str]:
    """Files of ``reference`` that ``directory`` lacks or holds differently (texts byte for byte)."""
    stale = sorted(set(os.listdir(reference)) ^ set(os.listdir(directory)))
    for name in sorted(set(os.listdir(reference)) & set(os.listdir(directory))):
        new, old = (directory / name).read_bytes(), (reference / name).read_bytes()
        if name.endswith(TEXT_SUFFIXES):
            same = new == old
        elif name.endswith(".svg"):
            same = svg_structure(new) == svg_structure(old)
        elif name.endswith(".png"):
            same = png_size(new) == png_size(old)
        else:
            same = new == old
        if not same:
            stale.append(name)
    return stale


@pytest.mark.slow
def test_tables_are_fresh(chart, tmp_path, capsys, monkeypatch):
    """`bjev regenerate` into a temporary directory reproduces tables/ (regenerate it with `bjev regenerate`)."""
    monkeypatch.setattr(ch, "basic_chart", lambda game=None: chart)   # the default game's chart, derived once
    assert main(["regenerate", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    stale = stale_files(tmp_path, TABLES)
    assert not stale, f"tables/ is stale, run `bjev regenerate`: {stale}"
    # and the check notices a change
    md = tmp_path / "chart-en.md"
    md.write_text(md.read_text().replace("| Hard 16 | S |", "| Hard 16 | H |"))
    (tmp_path / "chart-de.svg").write_bytes((tmp_path / "chart-de.svg").read_bytes().replace(b"#f28e8c", b"#000000"))
    assert stale_files(tmp_path, TABLES) == ["chart-de.svg", "chart-en.md"]


@pytest.mark.slow
def test_html_svg_png_parse(chart):
    class Cells(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.cells: list[str] = []
            self.inside = False

        def handle_starttag(self, tag, attrs):
            self.inside = tag == "td" and ("class", "cell") in attrs

        def handle_data(self, data):
            if self.inside:
                self.cells.append(data)
                self.inside = False

    parser = Cells()
    parser.feed(chart_render.render(chart, "html", "de"))
    parser.close()
    assert len(parser.cells) == 36 * 10 + 2      # 36 rows, insurance and even money under the ace
    assert parser.cells[:10] == ["Z"] * 10       # hard 5: Ziehen
    assert parser.cells[-2:] == ["Nein", "Nein"]
    texts, fills = svg_structure(chart_render.render(chart, "svg", "pl"))
    assert "Strategia podstawowa (tabela według sumy punktów)" in texts and texts.count("Pk") >= 17
    assert fills[chart_render.COLOURS["split"]] >= 25
    width, height = png_size(chart_render.render(chart, "png", "en"))
    assert width > 800 and height > 1500


def test_text_chart_and_cli(capsys, tmp_path):
    assert main(["chart", "--format", "png"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(BJEVError, match="cannot write"):
        write_file(str(tmp_path / "missing" / "chart.txt"), "x")
    assert not list(tmp_path.iterdir())
    text = (TABLES / "chart-en.txt").read_text()
    assert "  Hard 16      S   S   S   S   S   H   H   H   H   H" in text
    assert "  Insurance" in text and "No" in text.split("Insurance")[-1]


@pytest.mark.slow
def test_rtp_basic(capsys):
    assert main(["rtp", "--strategy", "basic", "--json"]) == 0
    import json
    data = json.loads(capsys.readouterr().out)
    assert data["optimal_ev"] == pytest.approx(-0.00445128332, abs=1e-11)
    assert data["ev"] < data["optimal_ev"] and data["rtp_total_wagered"] < data["optimal_rtp_total_wagered"]
    assert data["rtp_total_wagered"] == pytest.approx((data["expected_total_wager"] + data["ev"])
                                                      / data["expected_total_wager"], abs=1e-15)
