"""Build the Cython core (ext/ev/core/*.pyx) as extension modules of the ev.core package."""
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(f"ev.core._{name}", [f"ext/ev/core/_{name}.pyx"], extra_compile_args=["-O3"])
    for name in ("dealer", "player", "policy", "simulate")
]

setup(ext_modules=cythonize(extensions, include_path=["ext"], language_level=3))
