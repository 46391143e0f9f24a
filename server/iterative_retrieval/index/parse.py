"""Reading one file: decode it, classify it, outline it, and make the rows the store writes.

Runs in the indexing process or in its workers (workers.py): everything here is a pure function
of a file's bytes and path. A file that cannot be read, is binary, undecodable, too large or a
credential file is recorded with the reason it was skipped, never read again until it changes.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from dataclasses import dataclass
from types import ModuleType

from ..config import SNIFF_BYTES
from ..credential_files import credential_format
from ..lines import count_lines
from ..tokenize import (
    MAX_NAME,
    capped_text,
    identifier_terms,
    path_terms,
    stem,
    stemmed_terms,
    term_counts_upto,
)
from .classify import classify
from .generated import is_api_docs, is_bundle, is_generated

log = logging.getLogger("iterative_retrieval.index")


SKIPPED_WHY = {
    "binary": "a binary file",
    "too_large": "larger than the largest file the index reads",
    "unreadable": "it could not be read (its permissions)",
    "undecodable": "not text (neither UTF-8 nor 8-bit text)",
    "generated": "a generated file: a bundler's output (browserify, webpack), a file whose "
                 "header says a tool wrote it (Bison, flex, protoc, `Code generated … DO NOT "
                 "EDIT`), or an API reference's HTML page (jazzy, javadoc, Doxygen, rustdoc, "
                 "Sphinx)",
    "secret": "a secret file",
}
"""Each reason a file is stored unread (`Parsed.skipped`), as an explanation words it."""


@dataclass(frozen=True)
class Parsed:
    """What reading one file yields, ready to store."""

    rel: str
    size: int
    mtime_ns: int
    digest: str
    lang: str | None
    lines: int
    skipped: str | None
    path_text: str = ""
    symbol_text: str = ""
    body_text: str = ""
    symbols: tuple[tuple[str, str, str, int, int, str], ...] = ()
    """The outline's definitions as stored: (name, lower-case name, kind, first line, last line,
    stemmed terms joined by spaces)."""
    imports: tuple[str, ...] = ()


def language_for(rel: str) -> str | None:
    """languages.language_for, imported on first use: a warm retrieval parses nothing, and the
    language tables are a fifth of its imports."""
    return _languages().language_for(rel)


@functools.cache
def _languages() -> ModuleType:
    """The languages module, imported once (an import statement per call cost 5 us, three
    calls per file indexed)."""
    from .. import languages

    return languages


def outline_rows(text: str, lang: str | None, rel: str = "",
                 ) -> tuple[list[tuple[str, str, int, int]], tuple[str, ...]]:
    """languages.outline_rows, imported on first use (see language_for)."""
    return _languages().outline_rows(text, lang, rel)


def parse_bytes(rel: str, data: bytes, size: int, mtime_ns: int) -> Parsed:
    """Decode and analyse one file's bytes; binary or undecodable content is marked skipped."""
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    lang = language_for(rel)
    if b"\0" in data[:SNIFF_BYTES]:
        return Parsed(rel, size, mtime_ns, digest, lang, 0, "binary")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        if not _mostly_text(data):
            return Parsed(rel, size, mtime_ns, digest, lang, 0, "undecodable")
        text = data.decode("latin-1")  # decodes any bytes
    return parse_text(rel, text, size, mtime_ns, digest)


def _mostly_text(data: bytes) -> bool:
    """Legacy 8-bit text is mostly ASCII with a few accented letters; anything else is not text."""
    sample = data[:SNIFF_BYTES]
    ascii_text = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 13))
    return ascii_text >= 0.9 * len(sample)


def parse_text(rel: str, text: str, size: int, mtime_ns: int, digest: str) -> Parsed:
    lang = language_for(rel)
    if credential_format(rel, text) is not None:  # a kubeconfig, Docker config... by content
        return Parsed(rel, size, mtime_ns, digest, lang, 0, "secret")
    if ((lang == "javascript" and is_bundle(text)) or is_generated(text)
            or (lang == "html" and is_api_docs(text))):
        return Parsed(rel, size, mtime_ns, digest, lang, 0, "generated")
    try:
        rows, imports = outline_rows(text, lang, rel)
    except Exception:  # one odd file must never stop indexing
        log.exception("outline failed for %s", rel)
        rows, imports = [], ()
    sym_terms: list[str] = []
    symbols = []
    for name, kind, start, end in rows:
        stems = stemmed_terms(name)  # () for a name over MAX_NAME characters
        symbols.append((name, name.lower(), kind, start, end, " ".join(stems)))
        sym_terms.extend(stems if stems or len(name) <= MAX_NAME else
                         (stem(t) for t in identifier_terms(name)))
    return Parsed(
        rel=rel, size=size, mtime_ns=mtime_ns, digest=digest, lang=lang,
        lines=count_lines(text), skipped=None,
        path_text=" ".join(stem(t) for t in path_terms(rel)),
        symbol_text=" ".join(sym_terms),
        body_text=_body_text(term_counts_upto(text, TF_CAP)),
        symbols=tuple(symbols),
        imports=imports,
    )


TF_CAP = 6
"""Repetitions of one term stored per file: BM25 saturates long before, and it keeps the index
small."""


def _body_text(counts: dict[str, int]) -> str:
    """Each term repeated min(count, TF_CAP) times, space-separated."""
    return capped_text(counts, TF_CAP)


def read_and_parse(item: tuple[str, str, int, int, int]) -> Parsed:
    """Worker entry: read one file (bounded) and parse it. Never raises."""
    rel, ab, size, mtime_ns, max_bytes = item
    if size > max_bytes:
        return Parsed(rel, size, mtime_ns, "", language_for(rel), 0, "too_large")
    try:
        with open(ab, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError:
        # mtime -1: tried again at every refresh (making a file readable does not change mtime)
        return Parsed(rel, size, -1, "", language_for(rel), 0, "unreadable")
    if len(data) > max_bytes:
        return Parsed(rel, size, mtime_ns, "", language_for(rel), 0, "too_large")
    return parse_bytes(rel, data, size, mtime_ns)


Row = tuple
"""A parsed file as plain values, ready for the INSERTs: (rel, size, mtime_ns, digest, lang, kind,
lines, skipped, path_text, symbol_text, body_text, symbols, imports), symbols as (name, lname,
kind, start, end, terms). Workers send rows, not dataclasses: they cross the process boundary
several times faster."""


BAD_NAME = "undecodable_name"
"""The skip reason of a file whose name is not UTF-8 (`touch $'caf\\xe9.txt'`): SQLite, JSON
and the LSP carry only Unicode names, so the file is counted, never read or returned."""


def name_key(rel: str) -> str | None:
    """None for a path that can be stored and shown; else the key its skipped row is stored
    under: its bytes escaped (\\xe9), after a NUL that no real path holds."""
    if rel.isascii():
        return None
    try:
        rel.encode("utf-8")
        return None
    except UnicodeEncodeError:  # os and git decode undecodable bytes as lone surrogates
        raw = rel.encode("utf-8", "surrogateescape")
        return "\0" + raw.decode("utf-8", "backslashreplace")


def bad_name_row(key: str, st: os.stat_result) -> Row:
    return (key, st.st_size, st.st_mtime_ns, "", None, "config", 0, BAD_NAME, "", "", "", [],
            ())


def to_row(p: Parsed) -> Row:
    return (p.rel, p.size, p.mtime_ns, p.digest, p.lang, classify(p.rel, p.lang), p.lines,
            p.skipped, p.path_text, p.symbol_text, p.body_text, list(p.symbols), p.imports)
