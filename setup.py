"""Build the Cython core (ext/ev/core/*.pyx) as extension modules of the ev.core package."""
from Cython.Build import cythonize
from setuptools import Extension, setup

# _shapes: hand graph and dealer terminal hands; _dealer, _player, _policy: the float solver, used
# through ev.core.arithmetic; _optimal_split, _exact_sums: truly optimal one-split play (floats, exact sums);
# simulator: the Monte Carlo engine
extensions = [
    Extension(f"ev.core.{name}", [f"ext/ev/core/{name}.pyx"], extra_compile_args=["-O3"])
    for name in ("_shapes", "_dealer", "_player", "_policy", "_exact_sums", "_optimal_split", "simulator")
]

setup(ext_modules=cythonize(extensions, include_path=["ext"], language_level=3))
