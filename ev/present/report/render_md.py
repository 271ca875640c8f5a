"""The report as Markdown (GitHub-flavoured tables; images inlined as base64 data URIs)."""
from __future__ import annotations

import base64

from ev.present.report.document import Document, Heading, Image, PageBreak, Paragraph, Quote, Table


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(table: Table) -> str:
    marks = {"l": ":---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(_cell(h) for h in table.headers) + " |",
             "|" + "|".join(marks[a] for a in table.alignment()) + "|"]
    last = len(table.rows) - 1
    for i, row in enumerate(table.rows):
        cells = [_cell(c) for c in row]
        if table.bold_last and i == last:
            cells = [f"**{c}**" if c else c for c in cells]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render_markdown(doc: Document) -> str:
    out = [f"# {doc.title}", "", f"*{doc.subtitle}*", ""]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out += ["#" * (block.level + 1) + " " + block.text, ""]
        elif isinstance(block, Paragraph):
            out += [f"*{block.text}*" if block.note else block.text, ""]
        elif isinstance(block, Quote):
            # two trailing spaces: a hard line break, so the quoted rules keep their lines
            out += ["> " + line.rstrip() + "  " if line.strip() else ">" for line in block.text.split("\n")]
            out.append("")
        elif isinstance(block, Table):
            out += [_table(block), ""]
        elif isinstance(block, Image):
            data = base64.b64encode(block.png).decode("ascii")
            out += [f"![{block.caption}](data:image/png;base64,{data})", ""]
        elif isinstance(block, PageBreak):
            continue
    out += ["---", doc.footer, ""]
    return "\n".join(out)
