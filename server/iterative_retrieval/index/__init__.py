"""The persistent index of one root, one job per module.

- `classify`: what kind of file a path is (source, test, doc, example, config, tool);
- `parse`: reading one file into the rows the store writes (decode, outline, terms);
- `generated`: whether a file's content says a tool wrote it (a bundle, a generator's banner);
- `workers`: parsing many files in a pool of worker processes;
- `store`: the SQLite database: opening, schema, refresh, writes (`Index`);
- `reads`: the file list, the fielded search, definitions and outlines, memoised.
"""

from __future__ import annotations

from ..models import IndexStats
from .classify import CLASSIFIER_VERSION, classify
from .parse import Parsed, language_for, parse_bytes, parse_text, read_and_parse, to_row
from .reads import FileRow
from .store import SCHEMA_VERSION, Index, Progress, index_path_for

__all__ = [
    "CLASSIFIER_VERSION", "SCHEMA_VERSION", "FileRow", "Index", "IndexStats", "Parsed",
    "Progress", "classify", "index_path_for", "language_for", "parse_bytes", "parse_text",
    "read_and_parse", "to_row",
]
