"""The report as a PDF (fpdf2, pure Python).

Set in DejaVu Sans from matplotlib, so that ä ö ü ß ą ć ę ł ń ó ś ź ż render."""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib
from fpdf import FPDF, FontFace

from ev.present.report.document import Document, Heading, Image, PageBreak, Paragraph, Quote, Table
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


class _PDF(FPDF):
    def __init__(self, doc: Document) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.doc = doc
        self.add_font(FONT, "", str(font_path("DejaVuSans.ttf")))
        self.add_font(FONT, "B", str(font_path("DejaVuSans-Bold.ttf")))
        self.add_font(FONT, "I", str(font_path("DejaVuSans-Oblique.ttf")))
        self.add_font(f"{FONT}Mono", "", str(font_path("DejaVuSansMono.ttf")))
        self.set_margins(18, 16, 18)
        self.set_auto_page_break(True, margin=18)
        self.set_title(doc.title)
        self.set_lang(doc.lang)
        self.set_creator("bjev")

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FONT, "", 7)
        self.set_text_color(110, 110, 110)
        self.cell(0, 5, self.doc.footer, align="L")
        self.set_x(self.l_margin)
        self.cell(0, 5, t("page", self.doc.lang, n=self.page_no(), total="{nb}"), align="R")
        self.set_text_color(0, 0, 0)


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
    for block in doc.blocks:
        if isinstance(block, Heading):
            _heading(pdf, block)
        elif isinstance(block, Paragraph):
            pdf.set_font(FONT, "I" if block.note else "", 7.5 if block.note else 9.5)
            pdf.multi_cell(0, 3.6 if block.note else 4.8, block.text, new_x="LMARGIN", new_y="NEXT", align="L")
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
    return bytes(pdf.output())


def _heading(pdf: FPDF, block: Heading) -> None:
    # keep a heading with the start of what follows it
    if pdf.get_y() > pdf.page_break_trigger - (45 if block.level == 1 else 30):
        pdf.add_page()
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


def _table(pdf: FPDF, table: Table) -> None:
    size = 7.5 if table.small else 8.5
    pdf.set_font(FONT, "", size)
    align = {"l": "LEFT", "r": "RIGHT", "c": "CENTER"}
    aligns = tuple(align[a] for a in table.alignment())
    widths = tuple(table.widths) if table.widths else None
    total_width = pdf.epw if (widths or len(table.headers) > 3) else pdf.epw * 0.7
    pdf.set_draw_color(185, 196, 207)
    last = len(table.rows) - 1
    with pdf.table(col_widths=widths, text_align=aligns, width=total_width, align="LEFT",
                   line_height=size * 0.55, headings_style=FontFace(emphasis="BOLD", fill_color=HEAD_FILL),
                   padding=(0.6, 1.2)) as out:
        head = out.row()
        for h in table.headers:
            head.cell(h)
        for i, row in enumerate(table.rows):
            r = out.row()
            for j, cell in enumerate(row):
                fill = table.fills[i][j] if table.fills else None
                bold = table.bold_last and i == last
                style = None
                if fill or bold:
                    style = FontFace(emphasis="BOLD" if bold else None, fill_color=_rgb(fill) if fill else None)
                r.cell(cell, style=style)
    pdf.ln(2.5)
