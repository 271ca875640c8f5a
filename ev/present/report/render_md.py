"""The report as Markdown (GitHub-flavoured tables; images linked as PNG files written beside it).

Every text is escaped (:func:`md`): what the report prints, a metadata field included, is shown as written and
never read as Markdown or HTML (no tag, link, image or emphasis can come from the text)."""
from __future__ import annotations

import re

from ev.present.report.blocks import Contents, Document, Heading, Image, PageBreak, Paragraph, Quote, Table


def md(text: str, line_start: bool = True) -> str:
    """``text`` as literal Markdown: HTML's & < > as entities, Markdown's punctuation behind a backslash where it
    could start something (a link or image's brackets, emphasis, code; with ``line_start``, a list or heading at
    the start of the line: not needed in a table's cell)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = re.sub(r"([\\`*\[\]|~])", r"\\\1", text)
    text = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", text)       # inside a word, _ is only a letter
    if line_start:
        text = re.sub(r"^(\s*)([#+-])", r"\1\\\2", text)
        text = re.sub(r"^(\s*\d+)([.)])", r"\1\\\2", text)
    return text


def _cell(text: str) -> str:
    return md(text.replace("\n", " "), line_start=False)


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


def images(doc: Document) -> dict[str, bytes]:
    """The PNG files the Markdown links to, by file name."""
    return {block.name: block.png for block in doc.blocks if isinstance(block, Image)}


def render_markdown(doc: Document) -> str:
    out = [f"# {md(doc.title)}", "", f"*{md(doc.subtitle)}*", ""]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out += ["#" * (block.level + 1) + " " + md(block.text, line_start=False), ""]
        elif isinstance(block, Paragraph):
            out += [f"*{md(block.text)}*" if block.note else md(block.text), ""]
        elif isinstance(block, Quote):
            # two trailing spaces: a hard line break, so the quoted rules keep their lines
            out += ["> " + md(line.rstrip()) + "  " if line.strip() else ">" for line in block.text.split("\n")]
            out.append("")
        elif isinstance(block, Table):
            out += [_table(block), ""]
        elif isinstance(block, Image):
            out += [f"![{md(block.caption)}]({block.name})", ""]
        elif isinstance(block, Contents):
            out += [f"## {md(block.title)}", ""]
            out += [("  " if h.level > 1 else "") + f"- {md(h.text)}" for h in block.entries]
            out.append("")
        elif isinstance(block, PageBreak):
            continue
    out += ["---", md(doc.footer), ""]
    return "\n".join(out)
