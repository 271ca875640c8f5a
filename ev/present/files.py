"""Files bjev writes, one mechanism for all of them: checked before the computation, committed atomically.

* :class:`FileTarget` (``bjev chart --out``): one file.  Made before the
  computation, it refuses at once what cannot be written: a missing or
  unwritable directory, a name too long for the file system, an existing
  path that is not a regular file (a directory, a device such as /dev/full, a
  FIFO).  :meth:`FileTarget.write` writes a temporary file in the target's own
  directory (so on the target's file system) and renames it into place.
* :class:`DirectoryTarget` (``bjev report --out``, ``bjev regenerate --out``):
  a set of files in one directory, written all or nothing.  Made before the
  computation, it creates the directory if need be and takes an exclusive
  lock on it (a second bjev writing there is refused with one line).
  :meth:`DirectoryTarget.commit` writes the new set into a fresh directory
  inside the target (so a mount point works), then replaces the files one by
  one while hard links keep the previous set aside; any failure puts the
  previous set back, SIGINT and SIGTERM wait until the commit is over, and
  a commit cut short by a crash (the previous set still aside) is undone by
  the next run.  Other files in the directory are left alone.

:func:`write_tables` regenerates ``tables/`` (``bjev regenerate``): the default
game's chart in every format and language, its exceptions and EV tables, and
a README listing them.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ev.analysis.basic_strategy import Chart, basic_chart
from ev.errors import OutputError, excerpt
from ev.interrupts import signals_deferred
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

#: prefixes of bjev's own temporary names: a new set, the previous set kept aside, a single file's temporary
STAGING, BACKUP, TEMPORARY = ".bjev-new-", ".bjev-old-", ".bjev-tmp-"


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _check_name(directory: str, name: str, label: str) -> None:
    """Refuse a file name longer than the file system allows (before anything is computed)."""
    try:
        limit = os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(os.fsencode(name)) > limit:
        raise OutputError(f"cannot write {label}: the name {excerpt(name)} is longer than the {limit} bytes "
                          f"the file system allows")


def _fsync_directory(path: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_new(path: str, data: bytes) -> None:
    """Create ``path`` (which must not exist) with ``data``, flushed to disk, mode 0666 less the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


class FileTarget:
    """One output file, checked now and written atomically by :meth:`write`."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)
        self.label = excerpt(self.path)
        try:
            if self.path.endswith(("/", os.sep)) or not self.path:
                raise OutputError(f"cannot write {self.label}: give a file name, not a directory")
            real = os.path.realpath(self.path)          # a symbolic link: write the file it names
            self.directory, name = os.path.split(real)
            if not name:
                raise OutputError(f"cannot write {self.label}: it names a directory, not a file")
            self.real = real
            _check_name(self.directory, name, self.label)
            if os.path.lexists(real):
                mode = os.stat(real).st_mode
                if not stat.S_ISREG(mode):
                    raise OutputError(f"cannot write {self.label}: it is {_kind(mode)}; bjev only replaces "
                                      f"regular files")
            if not os.path.isdir(self.directory):
                state = "is not a directory" if os.path.exists(self.directory) else "does not exist"
                raise OutputError(f"cannot write {self.label}: {excerpt(self.directory)} {state}")
            fd, probe = tempfile.mkstemp(dir=self.directory, prefix=TEMPORARY)
            os.close(fd)
            os.unlink(probe)
        except (OSError, ValueError) as exc:
            if isinstance(exc, OutputError):
                raise
            raise OutputError(f"cannot write {self.label}: {_reason(exc)}") from None

    def write(self, data: str | bytes) -> None:
        """Write ``data`` to a temporary file beside the target and rename it into place."""
        payload = data.encode("utf-8") if isinstance(data, str) else data
        tmp = os.path.join(self.directory, f"{TEMPORARY}{os.getpid()}-{os.urandom(4).hex()}")
        try:
            _write_new(tmp, payload)
            with signals_deferred():
                os.replace(tmp, self.real)
            _fsync_directory(self.directory)
        except OSError as exc:
            raise OutputError(f"cannot write {self.label}: {_reason(exc)}") from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def write_file(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` to ``path`` atomically; any failure is one OutputError line naming the path."""
    FileTarget(path).write(data)


class DirectoryTarget:
    """A set of files in directory ``out``, written all or nothing under an exclusive lock.

    Use as a context manager around the computation::

        with DirectoryTarget("report", FILES, "the report") as target:
            files = compute()            # an unwritable or busy --out has already failed here
            target.commit(files)

    Leaving the block without a commit (an error, SIGINT, SIGTERM) removes
    everything the target made: its temporary directory, and ``out`` itself if
    it made it and it is still empty.
    """

    def __init__(self, out: str | os.PathLike, names: Iterable[str] = (), what: str = "the files") -> None:
        self.out = Path(out)
        self.label = f"{what} to {excerpt(str(out))}"
        if not str(out).strip():
            raise OutputError(f"cannot write {what}: give the name of a directory, not an empty one")
        self.made: list[Path] = []            # directories this target created (outermost first)
        self.fd: int | None = None
        try:
            self._open()
            self._check_names(names)
            probe = tempfile.mkdtemp(prefix=STAGING, dir=self.out)
            os.rmdir(probe)
        except BaseException as exc:
            self.close(remove=True)
            if isinstance(exc, (OSError, ValueError)) and not isinstance(exc, OutputError):
                raise OutputError(f"cannot write {self.label}: {_reason(exc)}") from None
            raise

    # ----- making and locking the directory ------------------------------------------------------
    def _open(self) -> None:
        missing = []
        for p in [self.out, *self.out.parents]:
            _check_name(str(p.parent), p.name, self.label)
            if os.path.lexists(p):
                break
            missing.append(p)
        if self.out.exists() and not self.out.is_dir():
            raise OutputError(f"cannot write {self.label}: it is {_kind(self.out.stat().st_mode)}, not a directory")
        for p in reversed(missing):
            self.made.append(p)             # first: a signal right after mkdir must still find it to remove
            os.mkdir(p)
        self.fd = os.open(self.out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise OutputError(f"cannot write {self.label}: another bjev is writing there now; try again when "
                                  f"it has finished") from None
            # a file system without locks: go on without one (the commit is still all or nothing)
        self._recover()

    def _check_names(self, names: Iterable[str]) -> None:
        for name in names:
            _check_name(str(self.out), name, self.label)
            path = self.out / name
            if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
                raise OutputError(f"cannot write {self.label}: {excerpt(name)} there is "
                                  f"{_kind(os.lstat(path).st_mode)}; bjev only replaces regular files")

    def _recover(self) -> None:
        """Undo what a killed run left (we hold the lock): put its saved set back, drop its new one."""
        for entry in sorted(os.listdir(self.out)):
            path = self.out / entry
            if entry.startswith(BACKUP) and path.is_dir():
                for name in os.listdir(path):
                    os.replace(path / name, self.out / name)
                shutil.rmtree(path)
            elif entry.startswith(STAGING) and path.is_dir():
                shutil.rmtree(path)

    # ----- the commit ---------------------------------------------------------------------------------
    def commit(self, files: Mapping[str, bytes | str]) -> Path:
        """Write ``files`` (name -> contents) into ``out``: the whole new set, or on any failure the old one."""
        try:
            self._check_names(files)
            staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=self.out))
            try:
                for name, data in files.items():
                    _write_new(str(staging / name), data.encode("utf-8") if isinstance(data, str) else data)
                _fsync_directory(str(staging))
                with signals_deferred():
                    self._swap(staging, list(files))
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        except OSError as exc:
            if isinstance(exc, OutputError):
                raise
            raise OutputError(f"cannot write {self.label}: {_reason(exc)}") from None
        self.made = []                          # the directory now holds the result: keep it
        _fsync_directory(str(self.out))
        return self.out

    def _swap(self, staging: Path, names: Sequence[str]) -> None:
        backup = Path(tempfile.mkdtemp(prefix=BACKUP, dir=self.out))
        replaced: list[str] = []
        try:
            for name in names:
                if os.path.lexists(self.out / name):
                    try:
                        os.link(self.out / name, backup / name)
                    except OSError:             # no hard links here: a copy keeps the old file as well
                        shutil.copy2(self.out / name, backup / name)
            _fsync_directory(str(backup))
            for name in names:
                os.replace(staging / name, self.out / name)
                replaced.append(name)
        except BaseException:
            for name in replaced:               # put the previous set back as it was
                if os.path.lexists(backup / name):
                    os.replace(backup / name, self.out / name)
                else:
                    os.unlink(self.out / name)
            raise
        finally:
            shutil.rmtree(backup, ignore_errors=True)

    # ----- leaving --------------------------------------------------------------------------------------
    def close(self, remove: bool = False) -> None:
        """Release the lock; with ``remove``, also remove the directories this target made (if empty)."""
        if remove:
            for p in reversed(self.made):
                with contextlib.suppress(OSError, ValueError):
                    os.rmdir(p)
            self.made = []
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> DirectoryTarget:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close(remove=True)


def table_names(formats: Sequence[str] = FORMATS) -> list[str]:
    """The names :func:`table_files` makes, known before the chart is derived (to check ``--out`` first)."""
    names = [f"{kind}-{lang}.{ext}" for lang in i18n.LANGUAGES
             for kind, ext in [("chart", EXTENSIONS[f]) for f in formats] + [("exceptions", "md"), ("ev-tables", "md")]]
    return names + ["exceptions.csv", "ev-tables.csv", "README.md"]


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


def write_tables(out: str = "tables", chart: Chart | None = None) -> tuple[list[str], Chart]:
    """Regenerate every file of ``tables/`` in directory ``out``, all or nothing (``out`` is checked and locked
    before the chart is derived); returns the paths written and the chart."""
    with DirectoryTarget(out, table_names(), what="the tables") as target:
        chart = chart or basic_chart()
        files = table_files(chart)
        target.commit(files)
    return [os.path.join(out, name) for name in files], chart
