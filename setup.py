"""Build the Cython core (ext/ev/core/*.pyx) as extension modules of the ev.core package."""
import os
import subprocess
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def record_commit() -> None:
    """Write the git commit being built to ev/build_commit.txt (git-ignored), for the report to cite."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return
    commit = out.stdout.strip()
    recorded = here / "ev" / "build_commit.txt"
    if not (here / ".git").exists():
        return            # a source distribution: it carries the commit it was made from, if it was made clean
    if out.returncode == 0 and len(commit) == 40 and not dirty.stdout.strip():
        recorded.write_text(commit + "\n", encoding="ascii")
    else:                 # uncommitted changes: no commit describes this build, and an older record would mislead
        recorded.unlink(missing_ok=True)


record_commit()

# _shapes: hand graph and dealer terminal hands; _dealer, _player, _policy: the float solver, used
# through ev.core.arithmetic; _optimal_split, _exact_sums: truly optimal one-split play (floats, exact sums);
# simulator: the Monte Carlo engine
# BJEV_OPTIMIZE: the compiler's optimisation flag, -O3 unless set (CI's packaging check builds with -O0: it
# checks that the package builds and runs: 45 s for python -m build against 69 s at -O3 on the 2-core machine)
OPTIMIZE = os.environ.get("BJEV_OPTIMIZE", "-O3")
if OPTIMIZE not in ("-O0", "-O1", "-O2", "-O3"):
    raise SystemExit(f"BJEV_OPTIMIZE must be one of -O0 -O1 -O2 -O3, not {OPTIMIZE!r}")
extensions = [
    Extension(f"ev.core.{name}", [f"ext/ev/core/{name}.pyx"], extra_compile_args=[OPTIMIZE])
    for name in ("_shapes", "_dealer", "_player", "_split_round", "_policy", "_exact_sums", "_optimal_split",
                 "simulator")
]



class ParallelBuildExt(build_ext):
    """Compile the extension modules on every core unless -j says otherwise (pip install, python -m build)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(ext_modules=cythonize(extensions, include_path=["ext"], language_level=3),
      cmdclass={"build_ext": ParallelBuildExt})
