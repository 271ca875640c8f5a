"""Build the Cython core (ext/ev/*.pyx) as extension modules of the ev package."""
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(f"ev._{name}", [f"ext/ev/_{name}.pyx"], extra_compile_args=["-O3"])
    for name in ("dealer", "player", "policy", "simulate")
]

setup(ext_modules=cythonize(extensions, include_path=["ext"], language_level=3))
