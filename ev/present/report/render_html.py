"""The report as one self-contained HTML page (inline CSS, images as base64 data URIs)."""
from __future__ import annotations

import base64
from html import escape

from ev.present.report.blocks import Contents, Document, Heading, Image, PageBreak, Paragraph, Quote, Table

CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em;
       color: #1b1b1b; line-height: 1.45; font-size: 15px; }
ul.toc { list-style: none; padding-left: 0; } li.toc2 { padding-left: 1.5em; font-size: .92em; }
h1 { font-size: 1.7em; border-bottom: 3px solid #2f5d8a; padding-bottom: .2em; }
h2 { font-size: 1.35em; margin-top: 1.8em; color: #2f5d8a; border-bottom: 1px solid #c8d3df; }
h3 { font-size: 1.1em; margin-top: 1.3em; }
p.subtitle { font-style: italic; color: #444; }
p.note { font-size: .85em; color: #444; }
table { border-collapse: collapse; margin: .6em 0 1em; font-size: .92em; }
table.small { font-size: .82em; }
th, td { border: 1px solid #b9c4cf; padding: .25em .55em; }
th { background: #e3eaf2; }
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.fixed { table-layout: fixed; width: 100%; } td.c { text-align: center; } td.l { text-align: left; }
tr.total td { font-weight: bold; }
blockquote { white-space: pre-wrap; background: #f6f6f3; border-left: 4px solid #999; margin: .5em 0;
             padding: .6em 1em; font-size: .88em; }
figure { margin: 1em 0; } figure img { max-width: 100%; } figcaption { font-size: .85em; color: #444; }
footer { margin-top: 3em; font-size: .8em; color: #666; border-top: 1px solid #ccc; padding-top: .5em; }
"""


def _table(table: Table) -> str:
    align = table.alignment()
    classes = (["small"] if table.small else []) + (["fixed"] if table.fills else [])
    cls = f' class="{" ".join(classes)}"' if classes else ""
    cols = ""
    if table.widths:
        total = sum(table.widths)
        cols = "".join(f'<col style="width:{100 * w / total:.1f}%">' for w in table.widths)
        cols = f"<colgroup>{cols}</colgroup>"
    head = "".join(f"<th>{escape(h)}</th>" for h in table.headers)
    rows = []
    last = len(table.rows) - 1
    for i, row in enumerate(table.rows):
        cells = []
        for j, cell in enumerate(row):
            fill = table.fills[i][j] if table.fills else None
            style = f' style="background:{fill}"' if fill else ""
            cells.append(f'<td class="{align[j]}"{style}>{escape(cell)}</td>')
        tr = ' class="total"' if table.bold_last and i == last else ""
        rows.append(f"<tr{tr}>{''.join(cells)}</tr>")
    return f"<table{cls}>{cols}<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def render_html(doc: Document) -> str:
    body = [f"<h1>{escape(doc.title)}</h1>", f'<p class="subtitle">{escape(doc.subtitle)}</p>']
    for block in doc.blocks:
        if isinstance(block, Heading):
            level = block.level + 1
            anchor = f' id="{block.anchor}"' if block.anchor else ""
            body.append(f"<h{level}{anchor}>{escape(block.text)}</h{level}>")
        elif isinstance(block, Contents):
            items = "".join(f'<li class="toc{h.level}"><a href="#{h.anchor}">{escape(h.text)}</a></li>'
                            for h in block.entries)
            body.append(f'<nav><h2>{escape(block.title)}</h2><ul class="toc">{items}</ul></nav>')
        elif isinstance(block, Paragraph):
            cls = ' class="note"' if block.note else ""
            body.append(f"<p{cls}>{escape(block.text)}</p>")
        elif isinstance(block, Quote):
            body.append(f"<blockquote>{escape(block.text)}</blockquote>")
        elif isinstance(block, Table):
            body.append(_table(block))
        elif isinstance(block, Image):
            data = base64.b64encode(block.png).decode("ascii")
            body.append(f'<figure><img src="data:image/png;base64,{data}" alt="{escape(block.caption)}" '
                        f'style="width:{round(100 * block.width)}%"><figcaption>{escape(block.caption)}'
                        f"</figcaption></figure>")
        elif isinstance(block, PageBreak):
            continue
    body.append(f"<footer>{escape(doc.footer)}</footer>")
    return (f'<!DOCTYPE html>\n<html lang="{doc.lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(doc.title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")
