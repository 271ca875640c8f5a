"""The basic-strategy chart as documents: a language-specific view, six formats, exceptions, EV tables, JSON.

:func:`chart_view` translates a :class:`~ev.analysis.basic_strategy.Chart`
into a :class:`ChartView` (titles, row labels, cell texts and colours, legend,
notes); the renderers (:func:`render_text`, ``_md``, ``_csv``, ``_html``,
``_svg``, ``_png``) only lay that view out.  :func:`render_exceptions_md` /
``_csv`` and :func:`render_ev_md` / ``_csv`` write the composition-dependent
exceptions and the EV tables; :func:`chart_data` is the chart's JSON
(``bjev chart --json`` and the report's strategy section).  Every word comes
from :mod:`ev.present.i18n`, every number through :mod:`ev.present.numbers`.
"""
from __future__ import annotations

import csv
import html
import io
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ev.analysis.basic_strategy import (
    CODES,
    LETTER_ACTION,
    Chart,
    ChartException,
    Row,
    display_hand,
    resolve,
    up_symbol,
)
from ev.analysis.strategy import ACTION_NAMES, SPLIT
from ev.core.cards import ACE, RANK_SYMBOLS, TEN, UP_ORDER, composition_of
from ev.errors import BJEVError
from ev.present import CHART_FORMATS, i18n, rule_text
from ev.present.i18n import t
from ev.present.numbers import number, percent

FORMATS = CHART_FORMATS
EXTENSIONS = {"text": "txt", "md": "md", "csv": "csv", "html": "html", "svg": "svg", "png": "png"}


# ===== the chart as data ===========================================================================
def chart_data(chart: Chart) -> dict[str, Any]:
    """The chart's cells, codes, figures and exceptions as JSON-ready data (``bjev chart --json``)."""
    return {
        "cells": {row.key: {RANK_SYMBOLS[u]: chart.cells[row][u] for u in UP_ORDER} for row in chart.rows},
        "insurance": chart.insurance, "even_money": chart.even_money,
        "codes": {c: _describe_code(c, "en") for c in CODES},
        "ev": chart.stats.ev, "rtp_initial": chart.stats.rtp_initial,
        "rtp_total_wagered": chart.stats.rtp_total_wagered,
        "expected_total_wager": chart.stats.expected_wager,
        "optimal_ev": chart.optimal.ev, "optimal_rtp_initial": chart.optimal.rtp_initial,
        "optimal_rtp_total_wagered": chart.optimal.rtp_total_wagered,
        "ev_gap": chart.ev_gap, "split_strategy": chart.split_strategy,
        "exceptions": [{"up": RANK_SYMBOLS[e.up], "row": e.row.key, "hand": e.hand, "chart": e.chart_action,
                        "best": e.best_action, "gain": e.gain, "round_gain": e.round_gain}
                       for e in chart.exceptions],
        "two_card_exceptions": len(chart.exceptions_with(2)),
        "three_card_exceptions": len(chart.exceptions_with(3)),
        "evaluations": chart.derivation.evaluations, "sweeps": chart.derivation.sweeps,
        "units": "initial bets; exception gains per hand conditioned on no dealer blackjack where peeked",
        "rules": chart.rules.as_dict(),
    }


def row_label(row: Row, lang: str = "en") -> str:
    """'Hard 16', 'Soft 18', 'A-A' (or as ``lang`` writes them)."""
    if row.kind == "pair":
        return t("row.pair", lang, cards=row.cards)
    return t(f"row.{row.kind}", lang, total=row.value)


def pairs_without_total_row(chart: Chart) -> list[tuple[int, str, int]]:
    """The pairs that have no total row, 2-2 (hard 4) and A-A (soft 12), that a chart player may hold where they
    cannot be split although the chart splits them somewhere, as (pair rank, row kind, total); the player hits
    them (``ev.analysis.basic_strategy.ChartLayout.action``).  Such a hand is a split hand that draws a card of
    its pair once the round has its most hands (an unsplit pair may always be split where the chart says so): it
    needs one card of the rank more than those hands hold, and for A-A split aces played on (a split ace that
    takes one card makes no decision)."""
    rules, out = chart.rules, []
    for pair, kind, total in ((1, "hard", 4), (ACE, "soft", 12)):
        if pair == ACE and rules.one_card_after_split(ACE):
            continue
        if 4 * rules.decks < rules.split_hands(pair) + 1:
            continue
        hand = composition_of([pair, pair])
        if any(code is not None and resolve(rules, code, hand, "play") == SPLIT
               for code in chart.cells[Row("pair", pair)].values()):
            out.append((pair, kind, total))
    return out


# ===== rendering: a language-specific view of the chart ===========================================
COLOURS = {"stand": "#f28e8c", "hit": "#9fd59a", "double": "#8ccbe8", "split": "#ffd36b", "surrender": "#c7c7c7",
           "yes": "#9fd59a", "no": "#ececec", "none": "#ffffff"}


def _code_text(code: str, lang: str) -> str:
    """A cell code in ``lang``: the first letter's abbreviation, then the fallback's in lower case."""
    first = t(f"abbr.{ACTION_NAMES[LETTER_ACTION[code[0]]]}", lang)
    if len(code) == 1:
        return first
    return first + t(f"abbr.{ACTION_NAMES[LETTER_ACTION[code[1].upper()]]}", lang).lower()


def _describe_code(code: str, lang: str) -> str:
    first = t(f"action.{ACTION_NAMES[LETTER_ACTION[code[0]]]}", lang)
    if len(code) == 1:
        return first
    return t("legend.fallback", lang, first=first, second=t(f"verb.{ACTION_NAMES[LETTER_ACTION[code[1].upper()]]}",
                                                            lang))


def _colour_key(code: str | None) -> str:
    return "none" if code is None else ACTION_NAMES[LETTER_ACTION[code[0]]]


@dataclass
class ChartView:
    """Everything a rendering prints, already translated: renderers only lay it out."""

    lang: str
    title: str
    rules: str
    up_header: str
    hand_header: str
    ups: list[str]
    sections: list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]]  # (title, [(label, [(text, colour)])])
    legend: list[tuple[str, str, str]]                                  # (code text, meaning, colour)
    notes: list[str]
    summary: list[str]


def chart_view(chart: Chart, lang: str = "en") -> ChartView:
    i18n.check_language(lang)
    sections = []
    used: set[str] = set()
    for kind, key in (("hard", "section.hard"), ("soft", "section.soft"), ("pair", "section.pairs")):
        rows = []
        for row in chart.rows:
            if row.kind != kind:
                continue
            cells = []
            for up in UP_ORDER:
                code = chart.cells[row][up]
                if code is not None:
                    used.add(code)
                cells.append(("-" if code is None else _code_text(code, lang), _colour_key(code)))
            rows.append((row_label(row, lang), cells))
        sections.append((t(key, lang), rows))
    side = []
    yes, no = t("answer.yes", lang), t("answer.no", lang)
    for decision, key in ((chart.insurance, "action.insurance"), (chart.even_money, "action.even_money")):
        if decision is None:
            continue
        cells = [("", "none")] * (len(UP_ORDER) - 1) + [(yes if decision else no, "yes" if decision else "no")]
        side.append((t(key, lang), cells))
    if side:
        sections.append((t("section.side", lang), side))
    legend = [(_code_text(c, lang), _describe_code(c, lang), _colour_key(c)) for c in CODES if c in used]
    if side:
        legend.append((f"{yes} / {no}", t("legend.side", lang, yes=yes, no=no), "no"))
    # with doubling after splits a split hand's two cards read the first letter too; with resplits a pair
    # after a split may split again
    notes = [t("note.ten", lang), t("note.cards_das" if chart.rules.double_after_split else "note.cards", lang)]
    if chart.rules.max_split_hands > 2:
        notes.append(t("note.pairs_resplit", lang, hands=chart.rules.max_split_hands))
    elif chart.rules.max_split_hands == 2:
        notes.append(t("note.pairs", lang))
    unsplit = [f"{row_label(Row('pair', pair), lang)} ({row_label(Row(kind, total), lang)})"
               for pair, kind, total in pairs_without_total_row(chart)]
    if unsplit:
        notes.append(t("note.pairs_no_row", lang, hands=i18n.join_and(unsplit, lang)))
    peeked = [up_symbol(u) for u in (ACE, TEN) if chart.rules.peeks_under(u)]
    if peeked:
        notes.append(t("note.peek", lang, cards=i18n.join_and(peeked, lang)))
    notes.append(t("note.exact", lang))
    s, o = chart.stats, chart.optimal
    summary = [
        t("summary.chart", lang, ev=percent(s.ev, 4, lang, sign=True),
          rtp_initial=percent(s.rtp_initial, 4, lang), rtp_wagered=percent(s.rtp_total_wagered, 4, lang)),
        t("summary.optimal", lang, ev=percent(o.ev, 4, lang, sign=True),
          rtp_initial=percent(o.rtp_initial, 4, lang), rtp_wagered=percent(o.rtp_total_wagered, 4, lang)),
        t("summary.gap", lang, gap=percent(chart.ev_gap, 4, lang), count=len(chart.exceptions_with(2))),
    ]
    summary.append(t("summary.split", lang, name=t(f"split.{chart.split_strategy}", lang)))   # what "optimal" is
    return ChartView(lang, f"{t('chart.title', lang)} ({t('chart.kind', lang)})",
                     f"{t('rules.label', lang)}: {i18n.rules_summary(chart.rules, lang)}",
                     t("chart.up_card", lang), t("chart.hand", lang), [up_symbol(u) for u in UP_ORDER],
                     sections, legend, notes, summary)


def render_text(view: ChartView) -> str:
    label_width = max(len(label) for _, rows in view.sections for label, _ in rows) + 2
    label_width = max(label_width, len(view.hand_header) + 1)
    lines = [view.title, *textwrap.wrap(view.rules, 100), ""]
    lines.append(" " * label_width + view.up_header)
    lines.append(view.hand_header.ljust(label_width) + "".join(u.rjust(4) for u in view.ups))
    for title, rows in view.sections:
        lines.append(title)
        for label, cells in rows:
            lines.append(("  " + label).ljust(label_width) + "".join(text.rjust(4) for text, _ in cells).rstrip())
    lines.append("")
    lines.append(t("legend.title", view.lang) + ":")
    width = max(len(code) for code, _, _ in view.legend)
    lines += [f"  {code.ljust(width)}  {meaning}" for code, meaning, _ in view.legend]
    lines.append("")
    for note in view.notes + [""] + view.summary:
        lines += textwrap.wrap(note, 100) or [""]
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def render_md(view: ChartView) -> str:
    lines = [f"# {view.title}", "", view.rules, ""]
    for title, rows in view.sections:
        lines += [f"## {title}", "", f"| {view.hand_header} \\ {view.up_header} | " + " | ".join(view.ups) + " |",
                  "|---|" + "---|" * len(view.ups)]
        for label, cells in rows:
            lines.append(f"| {label} | " + " | ".join(_md_escape(text) or " " for text, _ in cells) + " |")
        lines.append("")
    lines += [f"## {t('legend.title', view.lang)}", ""]
    lines += [f"* **{_md_escape(code)}**: {meaning}" for code, meaning, _ in view.legend]
    lines.append("")
    lines += [f"* {note}" for note in view.notes]
    lines.append("")
    lines += [f"* {line}" for line in view.summary]
    return "\n".join(lines) + "\n"


def render_csv(view: ChartView) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([f"{view.hand_header} / {view.up_header}", *view.ups])
    for _, rows in view.sections:
        for label, cells in rows:
            writer.writerow([label, *(text for text, _ in cells)])
    return out.getvalue()


_HTML_STYLE = """
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; margin: 24px; color: #111; }
h1 { font-size: 20px; margin: 0 0 4px 0; }
p.rules { font-size: 12px; margin: 0 0 14px 0; max-width: 620px; }
table.chart { border-collapse: collapse; font-size: 13px; }
table.chart th, table.chart td { border: 1px solid #555; padding: 3px 0; text-align: center; }
table.chart td.cell { width: 38px; font-weight: bold; }
table.chart th.up { background: #263238; color: #fff; width: 38px; }
table.chart th.label { text-align: left; padding: 3px 8px; background: #f5f5f5; font-weight: normal;
  white-space: nowrap; }
table.chart th.corner { background: #263238; color: #fff; text-align: left; padding: 3px 8px; }
table.chart tr.section th { background: #455a64; color: #fff; text-align: left; padding: 4px 8px; }
table.chart td.blank { background: #fff; border-color: #ddd; }
div.legend { margin-top: 14px; font-size: 12px; }
div.legend span.swatch { display: inline-block; min-width: 30px; padding: 2px 4px; margin-right: 6px;
  border: 1px solid #555; text-align: center; font-weight: bold; }
div.legend div { margin: 3px 0; }
ul.notes { font-size: 12px; max-width: 640px; padding-left: 18px; }
"""


def render_html(view: ChartView) -> str:
    e = html.escape
    out = [f'<!DOCTYPE html>\n<html lang="{view.lang}">\n<head>\n<meta charset="utf-8">',
           f"<title>{e(view.title)}</title>", f"<style>{_HTML_STYLE}</style>", "</head>", "<body>",
           f"<h1>{e(view.title)}</h1>", f'<p class="rules">{e(view.rules)}</p>',
           '<table class="chart">',
           f'<tr><th class="corner">{e(view.hand_header)}</th><th class="up" colspan="{len(view.ups)}">'
           f"{e(view.up_header)}</th></tr>",
           '<tr><th class="corner"></th>' + "".join(f'<th class="up">{e(u)}</th>' for u in view.ups) + "</tr>"]
    for title, rows in view.sections:
        out.append(f'<tr class="section"><th colspan="{len(view.ups) + 1}">{e(title)}</th></tr>')
        for label, cells in rows:
            tds = "".join(f'<td class="cell" style="background:{COLOURS[c]}">{e(text)}</td>' if text
                          else '<td class="blank"></td>' for text, c in cells)
            out.append(f'<tr><th class="label">{e(label)}</th>{tds}</tr>')
    out.append("</table>")
    out.append(f'<div class="legend"><strong>{e(t("legend.title", view.lang))}</strong>')
    for code, meaning, colour in view.legend:
        out.append(f'<div><span class="swatch" style="background:{COLOURS[colour]}">{e(code)}</span>'
                   f"{e(meaning)}</div>")
    out.append("</div>")
    out.append('<ul class="notes">' + "".join(f"<li>{e(n)}</li>" for n in view.notes + view.summary) + "</ul>")
    out.append("</body>\n</html>")
    return "\n".join(out) + "\n"


def _figure(view: ChartView):
    """The chart as a matplotlib Figure (no pyplot: no global state)."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    cell_w, cell_h, label_w, margin = 0.55, 0.25, 1.45, 0.35
    grid_w = label_w + cell_w * len(view.ups)
    width = grid_w + 2 * margin
    rules_lines = textwrap.wrap(view.rules, 108)
    n_rows = 2 + sum(1 + len(rows) for _, rows in view.sections)
    legend_lines = len(view.legend)
    foot = [line for note in view.notes + view.summary for line in textwrap.wrap(note, 128)]
    top = margin + 0.32 + 0.17 * len(rules_lines) + 0.15
    height = top + n_rows * cell_h + 0.25 + 0.21 * legend_lines + 0.25 + 0.16 * len(foot) + margin
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    ax.text(margin, margin, view.title, fontsize=13, fontweight="bold", va="top")
    y = margin + 0.32
    for line in rules_lines:
        ax.text(margin, y, line, fontsize=7.5, va="top")
        y += 0.17
    y = top

    def box(x: float, y: float, w: float, h: float, face: str, text: str = "", colour: str = "black",
            bold: bool = False, align: str = "center", size: float = 8.5) -> None:
        # add_artist, not add_patch: the limits are fixed above, and updating them for each of the chart's
        # thousands of cells took a third of the drawing time (the same picture)
        ax.add_artist(Rectangle((x, y), w, h, facecolor=face, edgecolor="#555555", linewidth=0.6))
        if text:
            tx = x + w / 2 if align == "center" else x + 0.06
            ax.text(tx, y + h / 2, text, ha=align, va="center", fontsize=size, color=colour,
                    fontweight="bold" if bold else "normal")

    x0 = margin
    box(x0, y, label_w, cell_h, "#263238", view.hand_header, "white", align="left", size=7.5)
    box(x0 + label_w, y, cell_w * len(view.ups), cell_h, "#263238", view.up_header, "white", size=8)
    y += cell_h
    box(x0, y, label_w, cell_h, "#263238")
    for i, u in enumerate(view.ups):
        box(x0 + label_w + i * cell_w, y, cell_w, cell_h, "#263238", u, "white", bold=True)
    y += cell_h
    for title, rows in view.sections:
        box(x0, y, grid_w, cell_h, "#455a64", title, "white", bold=True, align="left", size=8)
        y += cell_h
        for label, cells in rows:
            box(x0, y, label_w, cell_h, "#f5f5f5", label, align="left", size=8)
            for i, (text, colour) in enumerate(cells):
                if text:
                    box(x0 + label_w + i * cell_w, y, cell_w, cell_h, COLOURS[colour], text, bold=True)
            y += cell_h
    y += 0.25
    ax.text(margin, y, t("legend.title", view.lang), fontsize=9, fontweight="bold", va="top")
    y += 0.21
    for code, meaning, colour in view.legend:
        box(margin, y, 0.62, 0.17, COLOURS[colour], code, bold=True, size=7.5)
        ax.text(margin + 0.72, y + 0.085, meaning, fontsize=7.5, va="center")
        y += 0.21
    y += 0.1
    for line in foot:
        ax.text(margin, y, line, fontsize=6.5, va="top")
        y += 0.16
    return fig


#: the last view drawn and its figure: the SVG and the PNG of one view (bjev regenerate writes both for each
#: language) share one figure, built once (saving does not change a figure)
_LAST_FIGURE: list = [None, None]


def _shared_figure(view: ChartView):
    if _LAST_FIGURE[0] is not view:
        _LAST_FIGURE[:] = [view, _figure(view)]
    return _LAST_FIGURE[1]


def render_svg(view: ChartView) -> bytes:
    """The chart as SVG, deterministic for one matplotlib version (fixed hash salt, no date, text as text)."""
    import matplotlib
    fig = _shared_figure(view)
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "bjev-chart", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "bjev"})
    return buf.getvalue()


def render_png(view: ChartView, dpi: int = 150) -> bytes:
    fig = _shared_figure(view)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


RENDERERS: dict[str, Callable[[ChartView], str | bytes]] = {
    "text": render_text, "md": render_md, "csv": render_csv, "html": render_html, "svg": render_svg,
    "png": render_png,
}


def render(chart: Chart, fmt: str = "text", lang: str = "en") -> str | bytes:
    """The chart in one format ('text', 'md', 'csv', 'html': str; 'svg', 'png': bytes) and language."""
    if fmt not in RENDERERS:
        raise BJEVError(f"unknown chart format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return RENDERERS[fmt](chart_view(chart, lang))


# ===== exceptions and EV tables as documents =======================================================
_VERB = {"stand": "verb.stand", "hit": "verb.hit", "double": "verb.double", "split": "verb.split",
         "surrender": "verb.surrender", "even_money": "verb.even_money"}


def render_exceptions_md(chart: Chart, lang: str = "en") -> str:
    """The exceptions grouped per row and up card: 'Hard 16 vs T: hit, except stand 7-4-5 (+0.0012)'."""
    lines = [f"# {t('exceptions.title', lang)}", "", f"{t('rules.label', lang)}: "
             f"{i18n.rules_summary(chart.rules, lang)}", "", t("exceptions.intro", lang), "",
             t("exceptions.count", lang, two=len(chart.exceptions_with(2)), three=len(chart.exceptions_with(3))),
             t("summary.gap", lang, gap=percent(chart.ev_gap, 4, lang), count=len(chart.exceptions_with(2))),
             ""]
    row_order = {row: i for i, row in enumerate(chart.rows)}
    for n_cards, key in ((2, "exceptions.two_cards"), (3, "exceptions.three_cards")):
        lines += [f"## {t(key, lang)}", ""]
        groups: dict[tuple, list[ChartException]] = {}
        for e in chart.exceptions_with(n_cards):
            groups.setdefault((row_order[e.row], UP_ORDER.index(e.up), e.chart_action), []).append(e)
        if not groups:
            lines += [t("exceptions.none", lang), ""]
            continue
        for (r, u, action), items in sorted(groups.items()):
            by_best: dict[str, list[ChartException]] = {}
            for e in sorted(items, key=lambda e: -e.gain):
                by_best.setdefault(e.best_action, []).append(e)
            parts = [t(_VERB[best], lang) + " " + ", ".join(
                f"{display_hand(e.cards)} ({number(e.gain, 4, lang, sign=True)})" for e in es)
                for best, es in by_best.items()]
            lines.append("* " + t("exceptions.line", lang, row=row_label(chart.rows[r], lang),
                                  up=up_symbol(UP_ORDER[u]), action=t(_VERB[action], lang),
                                  items="; ".join(parts)))
        lines.append("")
    return "\n".join(lines)


def render_exceptions_csv(chart: Chart) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["up", "row", "hand", "cards", "chart_action", "best_action", "gain_per_hand",
                     "gain_per_round"])
    row_order = {row: i for i, row in enumerate(chart.rows)}
    for e in sorted(chart.exceptions, key=lambda e: (len(e.cards), row_order[e.row], UP_ORDER.index(e.up),
                                                    -e.gain, e.cards)):
        writer.writerow([RANK_SYMBOLS[e.up], e.row.key, e.hand, len(e.cards), e.chart_action, e.best_action,
                         f"{e.gain:.9f}", f"{e.round_gain:.12f}"])
    return out.getvalue()


#: the fixed split strategies by their analysts' names (the same in every language)
SPLIT_SHORT = {"cdz": "CDZ-", "cdp1": "CDP1", "cdp": "CDP"}
#: the actions of an EV-table row, in column order; blackjack_declined: a natural's unconditioned EV when it
#: declines even money, the value even money is compared with (shown where even money is offered)
EV_ACTIONS = ("stand", "hit", "double", "split", "surrender", "blackjack_declined", "insurance", "even_money")


def ev_row(result: Any) -> tuple[dict[str, Any], str]:
    """A hand's EV-table cells (action -> value or None) and the column marked best.

    A natural offered even money compares it with declining (unconditioned), not with the conditioned stand:
    that pair is shown, and the best of the two marked."""
    values = {a: getattr(result, a) for a in EV_ACTIONS}
    best = result.best
    if result.even_money is None:
        values["blackjack_declined"] = None
    elif best == "stand":
        best = "blackjack_declined"
    return values, best


def render_ev_csv(chart: Chart) -> str:
    """Every two-card hand against every up card: the EV of each allowed action (machine-readable)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["up", "hand", *EV_ACTIONS, "best", "conditioned_on_no_dealer_blackjack"])
    for row in chart.ev_rows:
        values, best = ev_row(row.result)
        writer.writerow([RANK_SYMBOLS[row.up], row.hand,
                         *("" if values[a] is None else f"{values[a]:.9f}" for a in EV_ACTIONS),
                         best, str(row.result.conditioned).lower()])
    return out.getvalue()


def render_ev_md(chart: Chart, lang: str = "en") -> str:
    split = SPLIT_SHORT.get(chart.split_strategy) or t(f"split_short.{chart.split_strategy}", lang)
    intro = t("evtable.intro_split", lang, conditioning=rule_text.conditioning(chart.rules, lang), split=split)
    lines = [f"# {t('evtable.title', lang)}", "", f"{t('rules.label', lang)}: "
             f"{i18n.rules_summary(chart.rules, lang)}", "", intro, "", t("evtable.natural", lang), ""]
    for up in UP_ORDER:
        rows = [r for r in chart.ev_rows if r.up == up]
        if not rows:
            continue
        cells_of = {id(r): ev_row(r.result) for r in rows}
        actions = [a for a in EV_ACTIONS if any(cells_of[id(r)][0][a] is not None for r in rows)]
        heads = [t(f"action.{a}", lang) for a in actions]
        cond = f" ({t('evtable.conditioned', lang)})" if rows[0].result.conditioned else ""
        lines += [f"## {t('vs', lang)} {up_symbol(up)}{cond}", "",
                  f"| {t('evtable.hand', lang)} | " + " | ".join(heads) + f" | {t('evtable.best', lang)} |",
                  "|---|" + "---:|" * len(actions) + "---|"]
        for r in rows:
            values, best = cells_of[id(r)]
            cells = []
            for a in actions:
                v = values[a]
                text = "" if v is None else number(v, 4, lang, sign=True)
                cells.append(f"**{text}**\\*" if a == best and v is not None else text)
            lines.append(f"| {display_hand(r.cards)} | " + " | ".join(cells) + f" | {t(f'action.{best}', lang)} |")
        lines.append("")
    return "\n".join(lines)


