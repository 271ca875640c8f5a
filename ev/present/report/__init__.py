"""The math report for regulators: ``bjev report`` (PDF, HTML, Markdown and JSON, in en, de or pl).

``build_report(rules, ...)`` (``ev.present.report.model``) computes every figure once
into a :class:`Report`; ``write_report(report, out_dir, lang)`` renders it and
writes ``report.pdf``, ``report.html``, ``report.md``, ``report.json``,
``exceptions.csv`` (every composition-dependent exception) and the Markdown's
two images (``FILES``).  The files are written into a temporary directory next
to ``out_dir`` and moved into place only when all are complete, so a failed run
leaves no half-written report.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ev.errors import OutputError
from ev.present.report.model import Report, build_report, total_steps
from ev.present.report.texts import LANGUAGES, check_language

#: every file of a report: the four renderings, the exceptions as CSV, the Markdown's images
FILES = ("report.pdf", "report.html", "report.md", "report.json", "exceptions.csv", "ev-by-upcard.png",
         "distribution.png")


def _json_ready(value: Any) -> Any:
    """JSON has no NaN or infinity: they become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    return value


def report_json(report: Report, lang: str) -> str:
    data = _json_ready(report.as_dict())
    data["language"] = lang
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render_all(report: Report, lang: str) -> dict[str, bytes]:
    """Every file's contents for ``lang`` (see ``FILES``)."""
    from ev.present.report.document import build_document
    from ev.present.report.lab_blocks import exceptions_csv
    from ev.present.report.render_html import render_html
    from ev.present.report.render_md import images, render_markdown
    from ev.present.report.render_pdf import render_pdf
    doc = build_document(report, check_language(lang))
    return {"report.pdf": render_pdf(doc), "report.html": render_html(doc).encode("utf-8"),
            "report.md": render_markdown(doc).encode("utf-8"), "report.json": report_json(report, lang).encode(),
            "exceptions.csv": exceptions_csv(report), **images(doc)}


class OutputTarget:
    """A temporary directory next to ``out_dir``; ``commit()`` moves the files into place.

    Created before the long computation so that an unwritable ``out_dir``
    fails at once.  If ``out_dir`` does not exist the temporary directory is
    renamed to it (one atomic step); if it exists, each report file is moved
    in with ``os.replace`` and nothing else in it is touched.
    """

    def __init__(self, out_dir: str | os.PathLike) -> None:
        self.out = Path(out_dir)
        if self.out.exists() and not self.out.is_dir():
            raise OutputError(f"cannot write the report to {str(self.out)!r}: it is a file, not a directory")
        parent = self.out.resolve().parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
            self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.out.name or 'report'}.tmp-", dir=parent))
            umask = os.umask(0)
            os.umask(umask)
            self.tmp.chmod(0o777 & ~umask)   # mkdtemp makes it private; the report is an ordinary directory
        except OSError as exc:
            raise OutputError(f"cannot write the report to {str(self.out)!r}: {exc.strerror or exc}") from None
        if self.out.exists() and not os.access(self.out, os.W_OK | os.X_OK):
            self.discard()
            raise OutputError(f"cannot write the report to {str(self.out)!r}: permission denied")

    def write(self, files: dict[str, bytes]) -> None:
        try:
            for name, data in files.items():
                (self.tmp / name).write_bytes(data)
        except OSError as exc:
            self.discard()
            raise OutputError(f"cannot write the report to {str(self.out)!r}: {exc.strerror or exc}") from None

    def commit(self) -> Path:
        try:
            if not self.out.exists():
                os.replace(self.tmp, self.out)
                return self.out
            for name in sorted(os.listdir(self.tmp)):
                os.replace(self.tmp / name, self.out / name)
        except OSError as exc:
            raise OutputError(f"cannot write the report to {str(self.out)!r}: {exc.strerror or exc}") from None
        finally:
            self.discard()
        return self.out

    def discard(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def write_report(report: Report, out_dir: str | os.PathLike, lang: str = "en") -> Path:
    """Render ``report`` in ``lang`` and write every file into ``out_dir`` (all or nothing)."""
    target = OutputTarget(out_dir)
    try:
        files = render_all(report, lang)
    except BaseException:
        target.discard()
        raise
    target.write(files)
    return target.commit()


__all__ = ["FILES", "LANGUAGES", "OutputTarget", "Report", "build_report", "render_all", "report_json",
           "total_steps", "write_report"]
