"""Section 7 of the report: the basic-strategy chart (``ev.analysis.basic_strategy``) as report data.

The section holds the chart's JSON (:func:`ev.present.chart_render.chart_data`),
its player's figures and the EV table.  If deriving the chart fails, the
section is ``{"available": False, "reason": ...}`` and every renderer prints
one line saying so.  Keys starting with ``_`` hold objects for the renderers
and are left out of ``report.json``.
"""
from __future__ import annotations

from ev.analysis.accounting import RoundStats
from ev.analysis.basic_strategy import basic_chart
from ev.analysis.game import Game
from ev.core.cards import RANK_SYMBOLS
from ev.present.chart_render import chart_data, ev_row


def strategy_section(game: Game, optimal: RoundStats) -> dict:
    """The chart's cells, exceptions, EV table and its player's figures (``_stats``: its RoundStats)."""
    chart = basic_chart(game)
    stats = chart.stats
    data = chart_data(chart)
    data.pop("rules", None)
    ev_table = []
    for row in chart.ev_rows:
        values, best = ev_row(row.result)
        ev_table.append({"up": RANK_SYMBOLS[row.up], "hand": row.hand, "best": best,
                         "conditioned": row.result.conditioned, **values})
    return {
        "available": True,
        "name": chart.table.name,
        "ev": stats.ev, "rtp_initial": stats.rtp_initial, "rtp_total_wagered": stats.rtp_total_wagered,
        "expected_total_wager": stats.expected_wager,
        "cost_vs_optimal": optimal.ev - stats.ev,
        "chart": data,
        "ev_table": ev_table,
        "_stats": stats,
        "_chart": chart,
    }
