"""The report as a PDF (fpdf2, pure Python).

Set in DejaVu Sans from matplotlib, so that ä ö ü ß ą ć ę ł ń ó ś ź ż render."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import matplotlib
from fpdf import FPDF

from ev.present.report.blocks import Contents, Document, Heading, Image, PageBreak, Paragraph, Quote, Table
from ev.present.report.texts import t

FONT = "DejaVu"
BLUE = (47, 93, 138)
HEAD_FILL = (227, 234, 242)
QUOTE_FILL = (246, 246, 243)


def font_path(name: str) -> Path:
    """A DejaVu font file shipped with matplotlib."""
    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


#: widths of table words and lines by (text, style, size): the same fonts in every document
_WIDTHS: dict[tuple[str, str, float], float] = {}


class _PDF(FPDF):
    def __init__(self, doc: Document, fonts: dict | None = None) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.doc = doc
        self.measurer: _PDF | None = None          # where _measure draws
        if fonts is not None:       # the measurer: the fonts of the document it measures for (read once)
            self.fonts.update(fonts)
        else:
            self.add_font(FONT, "", str(font_path("DejaVuSans.ttf")))
            self.add_font(FONT, "B", str(font_path("DejaVuSans-Bold.ttf")))
            self.add_font(FONT, "I", str(font_path("DejaVuSans-Oblique.ttf")))
            self.add_font(f"{FONT}Mono", "", str(font_path("DejaVuSansMono.ttf")))
        self.set_margins(18, 16, 18)
        self.set_auto_page_break(True, margin=18)
        self.set_title(doc.title)
        self.set_lang(doc.lang)
        self.set_creator("bjev")

    def width_of(self, text: str, style: str, size: float) -> float:
        """The width (mm) of ``text`` in the body font at ``style`` and ``size`` (cached: tables ask often)."""
        key = (text, style, size)
        width = _WIDTHS.get(key)
        if width is None:
            self.set_font(FONT, style, size)
            width = _WIDTHS[key] = self.get_string_width(text)
        return width

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FONT, "", 7)
        self.set_text_color(110, 110, 110)
        self.cell(0, 5, self.doc.footer, align="L")
        self.set_x(self.l_margin)
        self.cell(0, 5, t("page", self.doc.lang, n=self.page_no(), total="{nb}"), align="R")
        self.set_text_color(0, 0, 0)


#: rows of a long table kept together at its end (and at its start, with the heading)
KEEP_ROWS = 3


def render_pdf(doc: Document) -> bytes:
    pdf = _PDF(doc)
    pdf.add_page()
    pdf.set_font(FONT, "B", 20)
    pdf.set_text_color(*BLUE)
    pdf.multi_cell(0, 9, doc.title, new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.set_text_color(0, 0, 0)
    pdf.set_font(FONT, "I", 11)
    pdf.multi_cell(0, 6, doc.subtitle, new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.ln(4)
    for group in _groups(doc.blocks):
        _place(pdf, group)
    return bytes(pdf.output())


def _groups(blocks: list) -> list[list]:
    """Blocks that must share a page.

    A heading stays with what follows it: up to two paragraphs and the table or image
    after them.  Notes (small print) stay with the table, image or text above them.
    """
    groups: list[list] = []
    current: list = []

    def open_heading() -> bool:
        """Is ``current`` a heading (or a caption) still waiting for its table or image?"""
        if len(current) == 1 and isinstance(current[0], Paragraph) and current[0].caption:
            return True
        return (bool(current) and isinstance(current[0], Heading)
                and all(isinstance(b, (Heading, Paragraph)) for b in current)
                and sum(isinstance(b, Paragraph) for b in current) <= 2)

    for block in blocks:
        if isinstance(block, Paragraph) and block.note and current:
            current.append(block)
            continue
        if not (open_heading() and not isinstance(block, PageBreak)):
            if current:
                groups.append(current)
            current = []
        current.append(block)
    if current:
        groups.append(current)
    return groups


def _room(pdf: FPDF) -> float:
    return pdf.page_break_trigger - pdf.get_y()


def _page_height(pdf: FPDF) -> float:
    return pdf.page_break_trigger - pdf.t_margin


def _measure(pdf: _PDF, blocks: list) -> float:
    """Height (mm) the blocks take, drawn from the same place on a fresh page of a second document.

    (fpdf's ``offset_rendering`` copies the whole document for each measurement: quadratic in its length.)
    """
    if pdf.measurer is None:
        pdf.measurer = _PDF(pdf.doc, pdf.fonts)
    dummy = pdf.measurer
    dummy.add_page()
    dummy.set_font(pdf.font_family, pdf.font_style, pdf.font_size_pt)
    dummy.set_xy(pdf.get_x(), pdf.get_y())
    y0, page0 = dummy.get_y(), dummy.page
    for block in blocks:
        _draw(dummy, block)
    return dummy.get_y() - y0 + (dummy.page - page0) * _page_height(pdf)


#: lines of the table of contents on one page
TOC_LINES = 52


def _contents(pdf: _PDF, block: Contents) -> None:
    """The table of contents on pages of its own, filled in by fpdf when the document is done (page numbers of
    the sections registered by ``_heading``), each line a link; the PDF's outline (bookmarks) comes with it."""
    def render(pdf: FPDF, outline: list) -> None:
        pdf.set_font(FONT, "B", 14)
        pdf.set_text_color(*BLUE)
        pdf.set_x(pdf.l_margin)
        pdf.cell(0, 9, block.title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0, 0, 0)
        for section in outline:
            indent = 6 * section.level
            pdf.set_font(FONT, "B" if section.level == 0 else "", 9.5 if section.level == 0 else 8.5)
            pdf.set_x(pdf.l_margin + indent)
            link = pdf.add_link(page=section.page_number)
            pdf.cell(pdf.epw - indent - 12, 4.6, section.name, link=link)
            pdf.cell(12, 4.6, str(section.page_number), align="R", link=link, new_x="LMARGIN", new_y="NEXT")

    pages = max(1, -(-(len(block.entries) + 2) // TOC_LINES))
    if pdf.get_y() > pdf.t_margin + 1:
        pdf.add_page()
    pdf.insert_toc_placeholder(render, pages=pages, allow_extra_pages=True)


def _place(pdf: _PDF, group: list) -> None:
    """Draw a group on the current page if it fits, else on the next; split a long table between pages."""
    if isinstance(group[0], Contents):
        _contents(pdf, group[0])
        return
    if isinstance(group[0], PageBreak):
        if pdf.get_y() > pdf.t_margin + 1:
            pdf.add_page()
        return
    table = next((b for b in group if isinstance(b, Table)), None)
    if table is not None and len(table.rows) * _least_row_height(table) > _page_height(pdf):
        whole = float("inf")        # surely longer than a page: no need to draw it once to measure it
    else:
        whole = _measure(pdf, group)
    if whole <= _room(pdf):
        for block in group:
            _draw(pdf, block)
        return
    if table is None or whole <= _page_height(pdf) * 0.9:
        if whole <= _page_height(pdf) * 0.9 and pdf.get_y() > pdf.t_margin + 1:
            pdf.add_page()            # it fits on a page of its own; longer text flows on from here
        for block in group:
            _draw(pdf, block)
        return
    # a table longer than what is left: heading and the first rows here if they fit, then page by page
    i = group.index(table)
    before, after = group[:i], group[i + 1:]
    head = _measure(pdf, before + [_part(table, table.rows[:KEEP_ROWS])])
    if head > _room(pdf):
        pdf.add_page()
    for block in before:
        _draw(pdf, block)
    row_height = max(_measure(pdf, [_part(table, [row])]) - _measure(pdf, [_part(table, [])])
                     for row in table.rows[:: max(1, len(table.rows) // 12)])
    header = _measure(pdf, [_part(table, [])])
    tail = _measure(pdf, after) if after else 0.0
    rows = table.rows
    start = 0
    while start < len(rows):
        fit = max(1, int((_room(pdf) - header) // row_height))
        left = len(rows) - start
        if fit >= left and left * row_height + header + tail <= _room(pdf):
            fit = left
        elif fit >= left - KEEP_ROWS:
            fit = max(1, left - KEEP_ROWS)   # the last rows go to the next page together, with the notes
        _draw(pdf, _part(table, rows[start:start + fit], first=start == 0, last=start + fit >= len(rows)))
        start += fit
        if start < len(rows):
            pdf.add_page()
    for block in after:
        _draw(pdf, block)


def _part(table: Table, rows: list, first: bool = True, last: bool = True) -> Table:
    """``table`` with only ``rows`` (fills follow their rows; a total row is bold only in the last part)."""
    fills = None
    if table.fills:
        index = {id(r): k for k, r in enumerate(table.rows)}
        fills = [table.fills[index[id(r)]] for r in rows]
    return Table(table.headers, rows, table.align, table.widths, table.small, fills, table.bold_last and last,
                 table.tall)


def _draw(pdf: Any, block) -> None:
    if isinstance(block, Heading):
        _heading(pdf, block)
    elif isinstance(block, Paragraph):
        _paragraph(pdf, block.text, "I" if block.note else "", 7.5 if block.note else 9.5, 3.6 if block.note else 4.8)
        pdf.ln(2)
    elif isinstance(block, Quote):
        pdf.set_font(FONT, "", 7.5)
        pdf.set_fill_color(*QUOTE_FILL)
        pdf.multi_cell(0, 3.5, block.text.replace("\t", "    "), fill=True, padding=2,
                       new_x="LMARGIN", new_y="NEXT", align="L")
        pdf.ln(3)
    elif isinstance(block, Table):
        _table(pdf, block)
    elif isinstance(block, Image):
        width = pdf.epw * block.width
        pdf.image(io.BytesIO(block.png), x=pdf.l_margin + (pdf.epw - width) / 2, w=width)
        pdf.ln(3)
    elif isinstance(block, PageBreak):
        pdf.add_page()


def _paragraph(pdf: _PDF, text: str, style: str, size: float, line_h: float) -> None:
    """Text across the page, broken at spaces (as ``multi_cell(0, ...)`` sets it, 1 mm in from each margin), a
    new page wherever the next line does not fit."""
    margin = pdf.c_margin
    for line in wrap(pdf, text, pdf.epw - 2 * margin, style, size):
        if pdf.get_y() + line_h > pdf.page_break_trigger:
            pdf.add_page()
        pdf.set_font(FONT, style, size)
        y = pdf.get_y()
        if line:
            pdf.text(pdf.l_margin + margin, y + 0.5 * line_h + 0.3 * pdf.font_size, line)
        pdf.set_xy(pdf.l_margin, y + line_h)


def _heading(pdf: FPDF, block: Heading) -> None:
    if block.anchor:             # an entry of the table of contents and of the PDF's outline
        pdf.start_section(block.text, block.level - 1, strict=False)
    if block.level == 1:
        pdf.ln(3)
        pdf.set_font(FONT, "B", 14)
        pdf.set_text_color(*BLUE)
        pdf.multi_cell(0, 7, block.text, new_x="LMARGIN", new_y="NEXT", align="L")
        pdf.set_draw_color(*BLUE)
        pdf.line(pdf.l_margin, pdf.get_y(), pdf.l_margin + pdf.epw, pdf.get_y())
        pdf.ln(3)
    else:
        pdf.ln(1.5)
        pdf.set_font(FONT, "B", 11)
        pdf.set_text_color(*BLUE)
        pdf.multi_cell(0, 6, block.text, new_x="LMARGIN", new_y="NEXT", align="L")
        pdf.ln(1)
    pdf.set_text_color(0, 0, 0)


#: the widest a column grows to hold its longest word, as a share of the page's text width
WIDEST_COLUMN = 0.7


def column_widths(pdf: _PDF, table: Table, total: float, size: float) -> list[float]:
    """Column widths (mm) near ``table.widths`` in which no word of a header and no number of a cell breaks.

    Each column is at least as wide as its longest header word (bold) and its longest
    cell word, plus padding, up to WIDEST_COLUMN of the page (a longer word, as a
    metadata field may hold, is broken); the other columns share what is left in
    proportion.
    """
    n = len(table.headers)
    rel = list(table.widths) if table.widths else [1.0] * n
    pad = 2 * CELL_SIDE + 1.0
    need = []
    for j in range(n):
        widest = [pdf.width_of(w, "B", size) for w in words(table.headers[j])] or [0.0]
        for row in table.rows:
            if j < len(row):
                widest += [pdf.width_of(w, "", size) for w in words(row[j])]
        need.append(min(max(widest) + pad, WIDEST_COLUMN * pdf.epw))
    fixed: dict[int, float] = {}
    while True:
        free = total - sum(fixed.values())
        share = sum(rel[j] for j in range(n) if j not in fixed)
        widths = [fixed[j] if j in fixed else free * rel[j] / share for j in range(n)]
        short = [j for j in range(n) if j not in fixed and widths[j] < need[j]]
        if not short or len(fixed) + len(short) == n:
            break
        for j in short:
            fixed[j] = need[j]
    return widths


def _font_size(table: Table) -> float:
    return 7.5 if table.small else 8.5


def _line_height(table: Table) -> float:
    return _font_size(table) * (1.2 if table.tall else 0.55)


#: a table cell's padding above and below its text, and left and right of it (mm)
CELL_PADDING = 0.6
CELL_SIDE = 1.2
BORDER = (185, 196, 207)


def _least_row_height(table: Table) -> float:
    """The height (mm) of a table row of one line: every row is at least this tall."""
    return _line_height(table) + 2 * CELL_PADDING


def words(text: str) -> list[str]:
    """The words of ``text``, split at spaces, tabs and line breaks only: a no-break space (between a number
    and its unit, in a Polish thousands group) holds its word together."""
    return [w for w in text.replace("\t", " ").replace("\n", " ").split(" ") if w]


def wrap(pdf: _PDF, text: str, width: float, style: str, size: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (mm): at spaces, and inside a word only where the
    word alone is wider than the line; a line break in the text is kept."""
    lines: list[str] = []
    space = pdf.width_of(" ", style, size)
    for paragraph in text.split("\n"):
        line, used = "", 0.0
        for word in words(paragraph):
            w = pdf.width_of(word, style, size)
            if line and used + space + w <= width:
                line, used = f"{line} {word}", used + space + w
                continue
            if line:
                lines.append(line)
            while w > width and len(word) > 1:          # a word wider than the column: break it
                k = len(word) - 1
                while k > 1 and pdf.width_of(word[:k], style, size) > width:
                    k -= 1
                lines.append(word[:k])
                word = word[k:]
                w = pdf.width_of(word, style, size)
            line, used = word, w
        lines.append(line)
    return lines


def _table(pdf: _PDF, table: Table) -> None:
    """Draw a table: a bold header row on a tint, every cell bordered, text wrapped within its column.

    Laid out here rather than by fpdf's ``table()`` (which breaks every cell's lines four times when a table is
    measured and drawn): lines are broken once, with the words' widths cached, and set with ``text()``.  A row
    that does not fit on the page starts a new one, under the header again.
    """
    size = _font_size(table)
    line_h = _line_height(table)
    total_width = pdf.epw if (table.widths or len(table.headers) > 3) else pdf.epw * 0.7
    widths = column_widths(pdf, table, total_width, size)
    aligns = table.alignment()
    last = len(table.rows) - 1
    header = _layout_row(pdf, table.headers, widths, "B", size, line_h)
    rows = [_layout_row(pdf, row, widths, "B" if table.bold_last and i == last else "", size, line_h)
            for i, row in enumerate(table.rows)]
    pdf.set_draw_color(*BORDER)
    _draw_row(pdf, header, widths, aligns, [HEAD_FILL] * len(widths), "B", size, line_h)
    for i, row in enumerate(rows):
        if pdf.get_y() + row[0] > pdf.page_break_trigger and pdf.get_y() > pdf.t_margin + header[0] + 1:
            pdf.add_page()
            _draw_row(pdf, header, widths, aligns, [HEAD_FILL] * len(widths), "B", size, line_h)
        fills = [_rgb(f) if f else None for f in table.fills[i]] if table.fills else [None] * len(widths)
        _draw_row(pdf, row, widths, aligns, fills, "B" if table.bold_last and i == last else "", size, line_h)
    pdf.set_font(FONT, "", size)
    pdf.set_x(pdf.l_margin)
    pdf.ln(2.5)


def _layout_row(pdf: _PDF, cells: list[str], widths: list[float], style: str, size: float,
                line_h: float) -> tuple[float, list[list[str]]]:
    """(height, the lines of every cell) of one row."""
    lines = [wrap(pdf, cells[j] if j < len(cells) else "", widths[j] - 2 * CELL_SIDE, style, size)
             for j in range(len(widths))]
    return max(len(cell) for cell in lines) * line_h + 2 * CELL_PADDING, lines


def _draw_row(pdf: _PDF, row: tuple[float, list[list[str]]], widths: list[float], aligns: str,
              fills: list, style: str, size: float, line_h: float) -> None:
    height, lines = row
    x, y = pdf.l_margin, pdf.get_y()
    pdf.set_font(FONT, style, size)
    for j, width in enumerate(widths):
        if fills[j]:
            pdf.set_fill_color(*fills[j])
        pdf.rect(x, y, width, height, style="DF" if fills[j] else "D")
        top = y + (height - len(lines[j]) * line_h) / 2       # the text centred in its row, as fpdf's tables
        for k, line in enumerate(lines[j]):
            if not line:
                continue
            w = pdf.width_of(line, style, size)
            left = {"l": x + CELL_SIDE, "r": x + width - CELL_SIDE - w, "c": x + (width - w) / 2}[aligns[j]]
            pdf.text(left, top + k * line_h + 0.5 * line_h + 0.3 * pdf.font_size, line)
        x += width
    pdf.set_xy(pdf.l_margin, y + height)
