"""The optional C accelerator; everything else is in pyproject.toml.

`optional=True`: without a C compiler the build goes on and tokenize.py uses its pure-Python
path, which gives the same results (tests/test_speedups.py), only slower. `IR_PURE_PYTHON=1` at
build time leaves the accelerator out altogether, so the wheel is pure (`py3-none-any`) and
installs on any Python 3.11+ on any platform.
"""

import os

from setuptools import Extension, setup

ext_modules = [] if os.environ.get("IR_PURE_PYTHON") else [
    Extension(
        "iterative_retrieval._speedups",
        ["server/iterative_retrieval/_speedups.c"],
        optional=True,
    )
]

setup(ext_modules=ext_modules)
