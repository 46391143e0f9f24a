"""iterative-retrieval: find the files and code regions a coding task needs, offline."""

__version__ = "0.1.0"
