"""The math report for regulators: ``bjev report`` (PDF, HTML, Markdown and JSON, in en, de or pl).

``build_report(rules, ...)`` (``ev.present.report.model``) computes every figure once
into a :class:`Report`; ``write_report(report, out_dir, lang)`` renders it and
writes ``report.pdf``, ``report.html``, ``report.md``, ``report.json``,
``exceptions.csv`` (every composition-dependent exception) and the Markdown's
two images (``FILES``).  The files are committed all or nothing by
``ev.present.files.DirectoryTarget`` (a fresh directory inside ``out_dir``, a
lock, the previous set kept until the new one is in place), so a failed or
interrupted run leaves no half-written report.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ev.present.files import DirectoryTarget
from ev.present.numbers import json_ready
from ev.present.report.model import Report, build_report, total_steps
from ev.present.report.texts import LANGUAGES, check_language

#: every file of a report: the four renderings, the exceptions as CSV, the Markdown's images
FILES = ("report.pdf", "report.html", "report.md", "report.json", "exceptions.csv", "ev-by-upcard.png",
         "distribution.png", "monitoring.png")


def report_json(report: Report, lang: str) -> str:
    data = json_ready(report.as_dict())
    data["language"] = lang
    ident = data.get("identification") or {}
    if ident.get("rule_text") is not None:      # the seed game's rule text in this report's language, and its hash
        from ev.present.report.model import seed_rule_text
        ident["rule_text"] = seed_rule_text(lang)
        ident["rule_text_language"] = lang
        ident["rule_text_sha256_this_language"] = ident["rule_text_sha256"][lang]
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render_all(report: Report, lang: str, workers: int | None = None) -> dict[str, bytes]:
    """Every file's contents for ``lang`` (see ``FILES``).  The PDF, the longest to set, is set in a forked worker
    (``ev.analysis.jobs``; ``workers`` 0: here) while this process makes the other files; the same bytes either
    way."""
    from ev.analysis.jobs import Jobs
    from ev.present.report.document import build_document
    from ev.present.report.lab_blocks import exceptions_csv
    from ev.present.report.render_html import render_html
    from ev.present.report.render_md import images, render_markdown
    doc = build_document(report, check_language(lang))
    figures = images(doc)       # drawn here, before the PDF's worker is forked: it inherits them, drawn once
    jobs = Jobs(min(1, workers) if workers is not None else None)
    jobs.add("pdf", _render_pdf, doc)
    with jobs:
        files = {"report.html": render_html(doc).encode("utf-8"), "report.md": render_markdown(doc).encode("utf-8"),
                 "report.json": report_json(report, lang).encode(), "exceptions.csv": exceptions_csv(report),
                 **figures}
        return {"report.pdf": jobs.result("pdf"), **files}


def _render_pdf(doc: Any) -> bytes:
    from ev.present.report.render_pdf import render_pdf
    return render_pdf(doc)


def output_target(out_dir: str | os.PathLike) -> DirectoryTarget:
    """The report's directory, checked and locked (``ev.present.files.DirectoryTarget``): use it before computing."""
    return DirectoryTarget(out_dir, FILES, "the report")


def write_report(report: Report, out_dir: str | os.PathLike, lang: str = "en") -> Path:
    """Render ``report`` in ``lang`` and write every file into ``out_dir`` (all or nothing)."""
    with output_target(out_dir) as target:
        return target.commit(render_all(report, lang))


__all__ = ["FILES", "LANGUAGES", "Report", "build_report", "output_target", "render_all", "report_json",
           "total_steps", "write_report"]
