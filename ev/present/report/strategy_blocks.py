"""Section 7 and the appendix as document blocks: the coloured chart, its exceptions and the EV table.

The chart's cells, legend and notes come translated from ``ev.present.chart_render.chart_view``
(the charts' own view, so the report and ``bjev chart`` print the same chart);
the exceptions and EV table are formatted from the report's strategy section.
"""
from __future__ import annotations

from ev.core.rules import Rules
from ev.present import rule_text
from ev.present.chart_render import COLOURS, EV_ACTIONS, chart_view
from ev.present.numbers import number
from ev.present.report.blocks import Heading, PageBreak, Paragraph, Table
from ev.present.report.model import UP_SYMBOLS
from ev.present.report.texts import t


def strategy_blocks(section: dict, lang: str) -> list:
    """Section 7's blocks after its opening line: the chart, legend, notes and exceptions."""
    view = chart_view(section["_chart"], lang)
    blocks: list = [Heading(view.title, 2), Paragraph(view.rules, note=True)]
    for title, rows in view.sections:
        blocks.append(Table([title] + list(view.ups),
                            [[label] + [text for text, _ in cells] for label, cells in rows],
                            align="l" + "c" * len(view.ups), widths=[2.6] + [1] * len(view.ups), small=True,
                            fills=[[None, *(COLOURS.get(colour) for _, colour in cells)] for _, cells in rows]))
    blocks.append(Table([t("legend.title", lang), ""], [[code, meaning] for code, meaning, _ in view.legend],
                        align="cl", widths=[1.2, 8], small=True,
                        fills=[[COLOURS.get(colour), None] for _, _, colour in view.legend]))
    blocks += [Paragraph(note, note=True) for note in view.notes]
    blocks += _exceptions(section, lang)
    return blocks


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _action(name: str, lang: str) -> str:
    return t(f"action.{name}", lang)


def _exceptions(section: dict, lang: str) -> list:
    chart = section["chart"]
    items = sorted(chart["exceptions"], key=lambda e: (UP_SYMBOLS.index(e["up"]), len(e["hand"]), e["hand"]))
    blocks: list = [Heading(t("exceptions.title", lang), 2), Paragraph(t("exceptions.intro", lang)),
                    Paragraph(t("exceptions.count", lang, two=chart["two_card_exceptions"],
                                three=chart["three_card_exceptions"]))]
    if items:
        blocks.append(Table(
            [t("up", lang), t("col.hand", lang), t("col.chart", lang), t("col.best", lang), t("col.gain_hand", lang),
             t("col.gain_round", lang)],
            [[e["up"], e["hand"], _action(e["chart"], lang), _action(e["best"], lang),
              number(e["gain"], 6, lang, sign=True), number(1e6 * e["round_gain"], 4, lang)] for e in items],
            align="llllrr", widths=[1.3, 1.6, 1.8, 1.8, 2.2, 2.6], small=True))
    return blocks


def appendix_blocks(section: dict, lang: str, rules: Rules) -> list:
    """The appendix: EV of every decision for every two-card hand against every up card."""
    rows = section["ev_table"]
    actions = [a for a in EV_ACTIONS if any(r[a] is not None for r in rows)]
    body = []
    naturals = False
    for r in rows:
        cells = [r["up"], r["hand"]]
        for a in actions:
            v = r[a]
            if a == "stand" and r["even_money"] is not None and r.get("blackjack_declined") is not None:
                v, naturals = r["blackjack_declined"], True   # like even money: unconditioned
            cells.append("" if v is None else number(v, 6, lang, sign=True) + ("*" if r["best"] == a else ""))
        body.append(cells)
    return [PageBreak(), Heading(t("appendix", lang)), Heading(t("evtable.title", lang), 2),
            Paragraph(t("evtable.intro", lang, conditioning=rule_text.conditioning(rules, lang))),
            Table([t("up", lang), _cap(t("evtable.hand", lang))] + [_action(a, lang) for a in actions], body,
                  align="ll" + "r" * len(actions), widths=[1, 1.3] + [1.6] * len(actions), small=True)] + (
        [Paragraph(t("evtable.natural_note", lang), note=True)] if naturals else [])
