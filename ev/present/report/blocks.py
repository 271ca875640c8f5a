"""The building blocks of a report document (what the three renderers draw) and small formatting helpers.

``ev.present.report.document`` assembles them per language; ``strategy_blocks`` and
``lab_blocks`` add their sections' blocks.  A block holds text only: every number is
already formatted for the document's language.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ev.present.numbers import percent
from ev.present.report.texts import t


@dataclass
class Heading:
    text: str
    level: int = 1          # 1 section, 2 subsection


@dataclass
class Paragraph:
    text: str
    note: bool = False      # small print under a table (kept with the table above it)


@dataclass
class Quote:
    text: str               # verbatim, line breaks kept


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    align: str = ""         # one of "l"/"r"/"c" per column (default: first left, rest right)
    widths: list[float] | None = None   # relative column widths (PDF and HTML)
    small: bool = False
    fills: list[list[str | None]] | None = None   # background colour per cell ("#rrggbb") or None
    bold_last: bool = False  # a total row
    tall: bool = False       # rows with room to write in (the sign-off block)

    def alignment(self) -> str:
        return self.align or "l" + "r" * (len(self.headers) - 1)


@dataclass
class Image:
    png: bytes
    caption: str
    width: float = 0.75     # share of the text width
    name: str = "figure.png"  # the file the Markdown report links to


@dataclass
class PageBreak:
    pass


@dataclass
class Document:
    lang: str
    title: str
    subtitle: str
    footer: str
    blocks: list = field(default_factory=list)

    def add(self, *blocks) -> None:
        self.blocks.extend(blocks)


def kv_table(rows: list[tuple[str, str]], lang: str, text: bool = False) -> Table:
    """A two-column table of figures (values right-aligned) or of text (``text``: left-aligned, wider)."""
    return Table([t("figure", lang), t("value", lang)], [list(r) for r in rows], align="ll" if text else "lr",
                 widths=[2, 3] if text else [3, 2])


def pct(x: float | None, lang: str, digits: int = 6, sign: bool = False) -> str:
    """A fraction as a percentage with its unit ('–' for None)."""
    return "–" if x is None else percent(x, digits, lang, sign)


__all__ = ["Document", "Heading", "Image", "PageBreak", "Paragraph", "Quote", "Table", "kv_table", "pct"]
