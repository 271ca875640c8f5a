"""The report's plots as PNG bytes (matplotlib, Agg backend).  They draw figures handed in; they compute nothing."""
from __future__ import annotations

import io

import matplotlib.ticker
from matplotlib.figure import Figure  # not pyplot: no global state, and a second less to import

from ev.present.numbers import localized, number

BLUE, RED, GREEN = "#2f5d8a", "#b03a2e", "#2e7d32"
DPI = 150


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


def _axis(lang: str) -> matplotlib.ticker.FuncFormatter:
    """Axis tick labels in the shortest form ("99.5", "-1"), with the language's decimal symbol."""
    return matplotlib.ticker.FuncFormatter(lambda y, _: localized(f"{y:g}", lang))


def distribution_png(distribution: dict[str, float], lang: str, title: str, xlabel: str, ylabel: str) -> bytes:
    """Bar chart of the net result of a round: keys '-2', '1.5', ...; values probabilities."""
    keys = sorted(distribution, key=float)
    probs = [distribution[k] for k in keys]
    fig = Figure(figsize=(6.4, 3.2))
    ax = fig.subplots()
    colours = [RED if float(k) < 0 else (GREEN if float(k) > 0 else "#777777") for k in keys]
    bars = ax.bar(range(len(keys)), probs, color=colours, width=0.7)
    upright = len(keys) > 9      # with resplits (up to 13 results) the labels stand upright, so that none overlap
    for bar, p in zip(bars, probs):
        ax.annotate(number(p, 4, lang), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center", va="bottom", fontsize=7 if upright else 8, rotation=90 if upright else 0,
                    xytext=(0, 2), textcoords="offset points")
    labels = [(k if k.startswith("-") or k == "0" else "+" + k) for k in keys]
    ax.set_xticks(range(len(keys)), [localized(k, lang) for k in labels])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.set_ylim(0, max(probs) * (1.3 if upright else 1.15))
    ax.yaxis.set_major_formatter(_axis(lang))
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)


def ev_by_upcard_png(ev_by_upcard: dict[str, float], lang: str, title: str, xlabel: str) -> bytes:
    """Bar chart of the EV (initial bets) given each up card, in percent."""
    ups = list(ev_by_upcard)
    values = [100 * ev_by_upcard[u] for u in ups]
    fig = Figure(figsize=(6.4, 3.0))
    ax = fig.subplots()
    ax.bar(range(len(ups)), values, color=[GREEN if v >= 0 else RED for v in values], width=0.7)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(ups)), ups)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("EV (%)")
    ax.set_title(title, fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    ax.yaxis.set_major_formatter(_axis(lang))
    return _png(fig)


def monitoring_png(limits: list[dict], lang: str, title: str, xlabel: str, ylabel: str, expected_label: str,
                   level_label: str) -> bytes:
    """The limits of the observed RTP per initial bet (percent) against the rounds played (log scale): one band
    per confidence level, the exact RTP as a line.  ``limits``: ``ev.analysis.monitoring.Limits.as_dict`` rows of
    one convention; ``level_label``: the legend of a band, with {level} for its confidence in percent."""
    fig = Figure(figsize=(6.4, 3.4))
    ax = fig.subplots()
    confidences = sorted({row["confidence"] for row in limits}, reverse=True)
    shades = ["#c9d8e8", "#93b1d1", BLUE]
    for shade, confidence in zip(shades, confidences):
        rows = sorted((r for r in limits if r["confidence"] == confidence), key=lambda r: r["rounds"])
        ax.fill_between([r["rounds"] for r in rows], [100 * r["low"] for r in rows], [100 * r["high"] for r in rows],
                        color=shade, label=level_label.format(level=localized(f"{100 * confidence:g}", lang)))
    ax.axhline(100 * limits[0]["expected"], color=RED, linewidth=1.0, label=expected_label)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.set_ylim(100 * limits[0]["expected"] - 12, 100 * limits[0]["expected"] + 12)
    ax.yaxis.set_major_formatter(_axis(lang))
    ax.legend(fontsize=8, loc="upper right")
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)
