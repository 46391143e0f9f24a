"""The optional C accelerator; everything else is in pyproject.toml.

`optional=True`: without a C compiler the build goes on and tokenize.py uses its pure-Python
path, which gives the same results (tests/test_speedups.py), only slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "iterative_retrieval._speedups",
            ["server/iterative_retrieval/_speedups.c"],
            optional=True,
        )
    ]
)
