"""The building blocks of a report document (what the three renderers draw) and small formatting helpers.

``ev.present.report.document`` assembles them per language; ``strategy_blocks`` and
``lab_blocks`` add their sections' blocks.  A block holds text only: every number is
already formatted for the document's language.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ev.present.numbers import NBSP, percent
from ev.present.report.texts import t


@dataclass
class Heading:
    text: str
    level: int = 1          # 1 section, 2 subsection
    anchor: str = ""        # the id the table of contents links to (set by ``Document.number_headings``)


@dataclass
class Contents:
    """The table of contents: every heading of the document, in order (the PDF adds page numbers)."""

    title: str
    entries: list[Heading] = field(default_factory=list)


#: a space after a number (and before what follows it: a unit, "%", a word such as "rounds" or "decks")
_AFTER_NUMBER = re.compile(r"(?<=\d) (?=[^\s–—=×(])")


def bind_units(text: str) -> str:
    """``text`` with a no-break space after every number, so that no line break parts a number from its unit
    ("99.59 %", "52 cards", "±0.68 percentage points" stay whole on a line)."""
    return _AFTER_NUMBER.sub(NBSP, text)


@dataclass
class Paragraph:
    text: str
    note: bool = False      # small print under a table (kept with the table above it)
    caption: bool = False   # the title of the table or image that follows (kept with it, on its page)

    def __post_init__(self) -> None:
        self.text = bind_units(self.text)


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
    """A figure, drawn when a renderer first asks for its PNG bytes (``png``): a document read for its text alone
    (the Markdown of other languages, a test of the wording) draws none."""
    draw: Callable[[], bytes]
    caption: str
    width: float = 0.75     # share of the text width
    name: str = "figure.png"  # the file the Markdown report links to
    _png: bytes | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def png(self) -> bytes:
        if self._png is None:
            self._png = self.draw()
        return self._png


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

    def add_contents(self, title: str) -> None:
        """Give every heading an anchor and put the table of contents before the first page break (after the
        key figures on the first page)."""
        at = next((i for i, b in enumerate(self.blocks) if isinstance(b, PageBreak)), len(self.blocks))
        headings = [b for b in self.blocks[at:] if isinstance(b, Heading)]
        for k, h in enumerate(headings, 1):
            h.anchor = f"sec-{k}"
        self.blocks.insert(at, Contents(title, headings))


def kv_table(rows: list[tuple[str, str]], lang: str, text: bool = False) -> Table:
    """A two-column table of figures (values right-aligned) or of text (``text``: left-aligned, wider)."""
    return Table([t("figure", lang), t("value", lang)], [list(r) for r in rows], align="ll" if text else "lr",
                 widths=[2, 3] if text else [3, 2])


def pct(x: float | None, lang: str, digits: int = 6, sign: bool = False) -> str:
    """A fraction as a percentage with its unit ('–' for None)."""
    return "–" if x is None else percent(x, digits, lang, sign)


__all__ = ["Contents", "Document", "Heading", "Image", "PageBreak", "Paragraph", "Quote", "Table", "kv_table", "pct"]
