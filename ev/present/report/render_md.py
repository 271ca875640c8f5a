"""The report as Markdown (GitHub-flavoured tables; images linked as PNG files written beside it)."""
from __future__ import annotations

from ev.present.report.blocks import Contents, Document, Heading, Image, PageBreak, Paragraph, Quote, Table


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


def images(doc: Document) -> dict[str, bytes]:
    """The PNG files the Markdown links to, by file name."""
    return {block.name: block.png for block in doc.blocks if isinstance(block, Image)}


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
            out += [f"![{block.caption}]({block.name})", ""]
        elif isinstance(block, Contents):
            out += [f"## {block.title}", ""] + [("  " if h.level > 1 else "") + f"- {h.text}" for h in block.entries]
            out.append("")
        elif isinstance(block, PageBreak):
            continue
    out += ["---", doc.footer, ""]
    return "\n".join(out)
