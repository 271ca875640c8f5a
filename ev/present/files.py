"""Files bjev writes: one file atomically (``bjev chart --out``), and the committed folder ``tables/``.

:func:`write_file` writes to a temporary file in the target's directory and
renames it into place, so a reader never sees half a file.  :func:`write_tables`
regenerates ``tables/`` (``bjev regenerate``): the default game's chart in every
format and language, its exceptions and EV tables, and a README listing them.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence

from ev.analysis.basic_strategy import Chart, basic_chart
from ev.errors import OutputError
from ev.present import i18n
from ev.present.chart_render import (
    EXTENSIONS,
    FORMATS,
    RENDERERS,
    chart_view,
    render_ev_csv,
    render_ev_md,
    render_exceptions_csv,
    render_exceptions_md,
)


def write_file(path: str, data: str | bytes) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file in the same directory, then os.replace).

    Any failure is one OutputError line naming the path.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".bjev-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def table_files(chart: Chart, formats: Sequence[str] = FORMATS) -> dict[str, str | bytes]:
    """Every generated file of ``tables/`` by name: the chart in each format and language, the
    exceptions (Markdown per language, CSV) and the EV tables (CSV, Markdown per language)."""
    files: dict[str, str | bytes] = {}
    for lang in i18n.LANGUAGES:
        view = chart_view(chart, lang)
        for fmt in formats:
            files[f"chart-{lang}.{EXTENSIONS[fmt]}"] = RENDERERS[fmt](view)
        files[f"exceptions-{lang}.md"] = render_exceptions_md(chart, lang)
        files[f"ev-tables-{lang}.md"] = render_ev_md(chart, lang)
    files["exceptions.csv"] = render_exceptions_csv(chart)
    files["ev-tables.csv"] = render_ev_csv(chart)
    files["README.md"] = _tables_readme(chart, sorted(files))
    return files


def _tables_readme(chart: Chart, names: list[str]) -> str:
    return "\n".join([
        "# Generated strategy charts", "",
        "This folder holds the generated strategy charts for the default game, written by `bjev regenerate`",
        "(also `python -m ev regenerate`); do not edit by hand.",
        "A test fails when these files are stale.", "",
        f"Rules: {i18n.rules_summary(chart.rules, 'en')}", "",
        "* `chart-LANG.FORMAT`: the basic-strategy chart (en, de, pl; txt, md, csv, html, svg, png)",
        "* `exceptions-LANG.md`, `exceptions.csv`: hands whose best composition-dependent play differs from "
        "the chart, with the EV gained",
        "* `ev-tables-LANG.md`, `ev-tables.csv`: the EV of every action for every two-card hand against every "
        "up card", "",
        *[f"    {name}" for name in names], ""])


def write_tables(out: str = "tables", chart: Chart | None = None) -> list[str]:
    """Regenerate every file of ``tables/`` in directory ``out``; returns the paths written."""
    chart = chart or basic_chart()
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create directory {out}: {exc.strerror or exc}") from None
    paths = []
    for name, data in table_files(chart).items():
        path = os.path.join(out, name)
        write_file(path, data)
        paths.append(path)
    return paths

