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

import contextlib
import csv
import hashlib
import io
import json
import math
import os
import stat
from collections.abc import Sequence
from typing import Any

from tabulate import tabulate

import ev
from ev.analysis.sweep import Grid, SweepOptions, SweepRun, Variant, figure_columns
from ev.core.rules import FIELD_NAMES
from ev.errors import OutputError, excerpt
from ev.present.files import DirectoryTarget
from ev.present.numbers import json_ready, number

JOURNAL = "sweep.jsonl"
TABLES = ("sweep.csv", "sweep.json", "sweep.parquet")
TEXT_ROWS = 40          # the text answer lists every variant up to this many


class Journal:
    """The append-only record of finished variants (``sweep.jsonl`` in the output directory).

    Each line is one row with its ``key``, the ``bjev`` version that computed it and a ``digest`` (SHA-256 of
    the rest of the line).  :meth:`load` trusts a row only when all three hold: a line that is not JSON, was
    edited, or comes from another bjev version is counted in ``damaged`` / ``outdated`` and its variant is
    computed again.  The journal is never truncated or rewritten: a line cut short by a crash stays where it
    is, and the next row starts on a new line."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = os.fspath(directory)
        self.path = os.path.join(self.directory, JOURNAL)
        self.damaged = 0            # lines that are not a whole row as bjev wrote it
        self.outdated = 0           # rows of another bjev version
        self._newline_first = False

    def load(self) -> dict[str, dict[str, Any]]:
        """The trusted rows recorded so far by key (the last one of a key wins); reads, never writes."""
        rows: dict[str, dict[str, Any]] = {}
        name = excerpt(self.path)
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            return rows
        except OSError as exc:
            raise OutputError(f"cannot read the journal {name}: {exc.strerror or exc}") from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise OutputError(f"the journal {name} is not a regular file (a device, FIFO or directory); "
                                  f"move it away or choose another --out")
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read()
        except OSError as exc:
            raise OutputError(f"cannot read the journal {name}: {exc.strerror or exc}") from None
        finally:
            os.close(fd)
        self._newline_first = bool(data) and not data.endswith(b"\n")
        for line in data.splitlines():
            if not line.strip():
                continue
            row = _trusted(line)
            if row is None:
                self.damaged += 1
            elif row.get("bjev") != ev.__version__ or "digest" in row:
                self.outdated += 1
            else:
                rows[row["key"]] = row
        return rows

    def append(self, row: dict[str, Any]) -> None:
        """Add one finished variant: one line (its digest and the bjev version added), written with O_APPEND and
        flushed to disk before returning."""
        line = _journal_line(row)
        if self._newline_first:         # the last line was cut short: start on a line of our own
            line = b"\n" + line
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise OutputError(f"cannot append to {excerpt(self.path)}: {exc.strerror or exc}") from None
        self._newline_first = False

    def notes(self) -> list[str]:
        """What :meth:`load` did not trust, in words (empty when it trusted every line)."""
        out = []
        if self.damaged:
            out.append(f"{self.damaged} damaged journal line{'s' if self.damaged != 1 else ''} skipped (not a row "
                       f"as bjev wrote it: cut short or edited); their variants are computed again")
        if self.outdated:
            out.append(f"{self.outdated} journal row{'s' if self.outdated != 1 else ''} of another bjev version "
                       f"not used; their variants are computed again")
        return out


def _digest(row: dict[str, Any]) -> str:
    body = json.dumps(row, sort_keys=True, allow_nan=False, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _journal_line(row: dict[str, Any]) -> bytes:
    body = {k: _json_safe(v) for k, v in row.items() if k != "digest"}
    body["bjev"] = ev.__version__
    return (json.dumps({**body, "digest": _digest(body)}, allow_nan=False) + "\n").encode()


def _trusted(line: bytes) -> dict[str, Any] | None:
    """The row of a journal line, or None when it is not one bjev wrote (not JSON, no key, a wrong digest); a row
    of a bjev before journal digests comes back with ``digest`` None (a row of another version)."""
    try:
        row = json.loads(line)
    except ValueError:
        return None
    if not isinstance(row, dict) or not isinstance(row.get("key"), str):
        return None
    if "digest" not in row and "bjev" not in row:
        return {**row, "digest": None}     # a row of a bjev before journal digests: of another version
    digest = row.pop("digest", None)
    return row if isinstance(digest, str) and digest == _digest(row) else None


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
    for c, values in data.items():
        # a column of rule values given as text in invalid rows, or an integer beyond 64 bits: all text
        kinds = {type(v) for v in values if v is not None}
        wide = any(type(v) is int and not -2**63 <= v < 2**63 for v in values)
        if (len(kinds) > 1 and kinds != {int, float}) or wide:
            data[c] = [None if v is None else _cell(v) for v in values]
    sink = io.BytesIO()
    pq.write_table(pa.table(data), sink)
    return sink.getvalue()


def table_files(rows: Sequence[dict[str, Any]], options: SweepOptions, meta: dict[str, Any]) -> dict[str, bytes]:
    """The tables by name: sweep.csv, sweep.json (strict JSON: ``null`` for a missing or non-finite number) and,
    with pyarrow, sweep.parquet."""
    names = columns(options)
    document = {"meta": json_ready(meta), "columns": names, "rows": [_row_json(r) for r in rows]}
    files = {"sweep.csv": render_csv(rows, names).encode("utf-8"),
             "sweep.json": (json.dumps(document, indent=1, allow_nan=False) + "\n").encode("utf-8")}
    parquet = parquet_bytes(rows, names)
    if parquet is not None:
        files["sweep.parquet"] = parquet
    return files


def write_tables(directory: str, rows: Sequence[dict[str, Any]], options: SweepOptions,
                 meta: dict[str, Any]) -> list[str]:
    """Write the tables (:func:`table_files`) into ``directory`` as one set (``ev.present.files.DirectoryTarget``:
    all of them or, on any failure, the previous set); the paths written."""
    with DirectoryTarget(directory, TABLES, "the sweep's tables") as target:
        return commit_tables(target, rows, options, meta)


def commit_tables(target: DirectoryTarget, rows: Sequence[dict[str, Any]], options: SweepOptions,
                  meta: dict[str, Any]) -> list[str]:
    """Commit the tables into a held ``target``; a sweep.parquet of an earlier run is removed with the same
    commit when this one writes none (no pyarrow), so that no table of another run is left beside these."""
    files = table_files(rows, options, meta)
    stale = "sweep.parquet" not in files and os.path.lexists(target.out / "sweep.parquet")
    target.commit(files)
    if stale:
        with contextlib.suppress(OSError):
            os.unlink(target.out / "sweep.parquet")
    return [os.path.join(target.out, name) for name in files]


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
            unreachable = (r.get("payout_note") or "").startswith("no blackjack payout")
            none = "none reaches it" if unreachable else "outside range"
            cells.append("" if r["status"] != "ok" else (f"{b:.6f}" if b is not None else none))
        table.append(cells)
    return tabulate(table, headers=head, disable_numparse=True)
