"""The files and the answer of ``bjev sweep``: the journal, the CSV, JSON and Parquet tables, the summary.

Files in the output directory:

* ``sweep.jsonl``, the *journal*: one JSON line per finished variant, appended
  and flushed to disk (fsync) as each variant finishes, so an interrupted sweep
  loses at most the variants in flight.  A rerun into the same directory reads
  it and skips every variant whose key (rule set, options, bjev version) is
  there.  A line cut short by a crash is dropped when the journal is opened.
* ``sweep.csv``, ``sweep.json`` and, when pyarrow is installed,
  ``sweep.parquet``: the grid's rows in grid order, rendered from the journal
  at the end of each run (each written atomically).  One row per variant:
  ``variant``, every rule field, then the figures
  (:func:`ev.analysis.sweep.figure_columns`).

Only formatting and files here; the figures come from :mod:`ev.analysis.sweep`.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Sequence
from typing import Any

from tabulate import tabulate

from ev.analysis.sweep import Grid, SweepOptions, SweepRun, Variant, figure_columns
from ev.core.rules import FIELD_NAMES
from ev.errors import OutputError
from ev.present.files import write_file
from ev.present.numbers import number

JOURNAL = "sweep.jsonl"
TABLES = ("sweep.csv", "sweep.json", "sweep.parquet")
TEXT_ROWS = 40          # the text answer lists every variant up to this many


class Journal:
    """The append-only record of finished variants (``sweep.jsonl`` in the output directory)."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.path = os.path.join(directory, JOURNAL)
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create directory {directory}: {exc.strerror or exc}") from None

    def load(self) -> dict[str, dict[str, Any]]:
        """The rows recorded so far by key (the last one of a key wins); cuts off a partial last line."""
        rows: dict[str, dict[str, Any]] = {}
        try:
            with open(self.path, "rb+") as f:
                data = f.read()
                end = data.rfind(b"\n") + 1
                if end < len(data):          # a line cut short by a crash: drop it, so appends start clean
                    f.truncate(end)
        except FileNotFoundError:
            return rows
        except OSError as exc:
            raise OutputError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        for line in data[:end].splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and "key" in row:
                rows[row["key"]] = row
        return rows

    def append(self, row: dict[str, Any]) -> None:
        """Add one finished variant: one line, written with O_APPEND and flushed to disk before returning."""
        line = (json.dumps(_json_safe(row), sort_keys=False) + "\n").encode()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise OutputError(f"cannot append to {self.path}: {exc.strerror or exc}") from None


def _json_safe(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def columns(options: SweepOptions) -> list[str]:
    """The columns of every table: variant, each rule field, then the figures."""
    return ["variant", *FIELD_NAMES, *figure_columns(options)]


def grid_rows(variants: Sequence[Variant], recorded: dict[str, dict[str, Any]],
              options: SweepOptions) -> list[dict[str, Any]]:
    """The grid's finished rows in grid order, each with the table's columns (``variant``: its grid index)."""
    names = columns(options)
    out = []
    for v in variants:
        row = recorded.get(v.key)
        if row is not None:
            out.append({**{c: row.get(c) for c in names}, "variant": v.index})
    return out


def _cell(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


def render_csv(rows: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in names])
    return out.getvalue()


def parquet_bytes(rows: Sequence[dict[str, Any]], names: Sequence[str]) -> bytes | None:
    """The rows as a Parquet file, or None when pyarrow is not installed."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return None
    data = {c: [row.get(c) for row in rows] for c in names}
    for c, values in data.items():            # a column of rule values given as text in invalid rows: all text
        kinds = {type(v) for v in values if v is not None}
        if len(kinds) > 1 and kinds != {int, float}:
            data[c] = [None if v is None else _cell(v) for v in values]
    sink = io.BytesIO()
    pq.write_table(pa.table(data), sink)
    return sink.getvalue()


def write_tables(directory: str, rows: Sequence[dict[str, Any]], options: SweepOptions,
                 meta: dict[str, Any]) -> list[str]:
    """Write sweep.csv, sweep.json and (with pyarrow) sweep.parquet atomically; the paths written."""
    names = columns(options)
    files: dict[str, str | bytes] = {
        "sweep.csv": render_csv(rows, names),
        "sweep.json": json.dumps({"meta": meta, "columns": names, "rows": [_row_json(r) for r in rows]},
                                 indent=1) + "\n",
    }
    parquet = parquet_bytes(rows, names)
    if parquet is not None:
        files["sweep.parquet"] = parquet
    paths = []
    for name, data in files.items():
        path = os.path.join(directory, name)
        write_file(path, data)
        paths.append(path)
    return paths


def _row_json(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _json_safe(v) for k, v in row.items()}


# ----- the answer ---------------------------------------------------------------------------------
def sweep_meta(grid: Grid, options: SweepOptions, run: SweepRun, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What ``--json`` prints besides the rows, and the ``meta`` of sweep.json."""
    return {
        "grid": {"fixed": grid.base, "axes": grid.axes}, "options": options.as_dict(),
        "variants": run.variants, "computed": run.computed, "from_earlier_runs": run.skipped,
        "invalid": sum(r["status"] != "ok" for r in rows), "seconds": run.seconds,
        "variants_per_second": _json_safe(run.variants_per_second), "executor": run.executor,
        "units": "EVs in initial bets; RTPs and probabilities as fractions (0.9959 is 99.59 %); exact values p/q",
    }


def _pct(x: Any, digits: int = 4, sign: bool = False) -> str:
    return "" if x is None else f"{number(100 * x, digits, sign=sign)} %"


def sweep_text(grid: Grid, options: SweepOptions, run: SweepRun, rows: Sequence[dict[str, Any]],
               paths: Sequence[str]) -> str:
    """The plain-text answer of ``bjev sweep``: what was done, the files, and the rows (up to TEXT_ROWS)."""
    meta = sweep_meta(grid, options, run, rows)
    lines = [
        f"Sweep of {run.variants} variant{'s' if run.variants != 1 else ''} "
        f"({'; '.join(f'{k} ' + ', '.join(map(_cell, v)) for k, v in grid.axes.items()) or 'no axes'}): "
        f"{run.computed} computed now, {run.skipped} from earlier runs, {meta['invalid']} invalid",
        f"Time {run.seconds:.1f} s ({run.variants_per_second:.2f} variants/s), {run.executor}",
        *(f"wrote {p}" for p in paths),
    ]
    if not any(p.endswith(".parquet") for p in paths):
        lines.append("(no sweep.parquet: pip install pyarrow to write one)")
    ok = [r for r in rows if r["status"] == "ok"]
    if ok:
        lo = min(ok, key=lambda r: r["rtp_total_wagered"])
        hi = max(ok, key=lambda r: r["rtp_total_wagered"])
        lines.append(f"RTP per total wagered from {_pct(lo['rtp_total_wagered'])} (variant {lo['variant']}) "
                     f"to {_pct(hi['rtp_total_wagered'])} (variant {hi['variant']})")
    if rows and len(rows) <= TEXT_ROWS:
        lines += ["", _rows_table(grid, options, rows)]
    elif rows:
        lines.append(f"(the {len(rows)} rows are in the files)")
    return "\n".join(lines)


def _rows_table(grid: Grid, options: SweepOptions, rows: Sequence[dict[str, Any]]) -> str:
    axes = list(grid.axes)
    head = ["#", *axes, "EV", "RTP initial", "RTP wagered", "chart cost", "chart"]
    if options.target_rtp is not None:
        head.append(f"payout for {_pct(float(options.target_rtp), 2)} ({options.convention.replace('_', ' ')})")
    table = []
    for r in rows:
        cells = [str(r["variant"]), *(_cell(r.get(a)) for a in axes)]
        if r["status"] != "ok":
            cells += [f"invalid: {r['error']}", "", "", "", ""]
        else:
            cells += [_pct(r["ev"], sign=True), _pct(r["rtp_initial"]), _pct(r["rtp_total_wagered"]),
                      _pct(r["chart_cost"]), (r["chart_sha256"] or "")[:8]]
        if options.target_rtp is not None:
            b = r.get("payout_for_target_decimal")
            cells.append("" if r["status"] != "ok" else (f"{b:.6f}" if b is not None else "outside range"))
        table.append(cells)
    return tabulate(table, headers=head, disable_numparse=True)
