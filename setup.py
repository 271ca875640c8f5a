"""Build the Cython core (ext/ev/core/*.pyx) as extension modules of the ev.core package."""
import subprocess
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup


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
    if out.returncode == 0 and len(commit) == 40 and (here / ".git").exists() and not dirty.stdout.strip():
        (here / "ev" / "build_commit.txt").write_text(commit + "\n", encoding="ascii")


record_commit()

# _shapes: hand graph and dealer terminal hands; _dealer, _player, _policy: the float solver, used
# through ev.core.arithmetic; _optimal_split, _exact_sums: truly optimal one-split play (floats, exact sums);
# simulator: the Monte Carlo engine
extensions = [
    Extension(f"ev.core.{name}", [f"ext/ev/core/{name}.pyx"], extra_compile_args=["-O3"])
    for name in ("_shapes", "_dealer", "_player", "_split_round", "_policy", "_exact_sums", "_optimal_split",
                 "simulator")
]

setup(ext_modules=cythonize(extensions, include_path=["ext"], language_level=3))
