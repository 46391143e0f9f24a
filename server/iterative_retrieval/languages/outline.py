"""The entry point: a file's definitions (names, kinds, line spans) and imports.

Each language family has an outliner: Python and Makefiles their own (python.py, make.py),
every brace language (and Ruby) the brace scan over its Spec (braces.py); any other language
the generic one. An outliner that fails part-way (a bug, never the file's fault) keeps what it
found: the failure is logged with a traceback, the outline is partial, indexing goes on.
The same cleaners say which lines are prose (prose_lines): the regions' ranking weighs code more.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from ..lines import normalize
from ..models import Outline, Symbol
from . import c, csharp, generic, go, javascript, jvm, make, php, python, ruby, rust, shell, swift
from .braces import outline_structured
from .clean import braces, clean
from .definitions import FALLBACK_SPAN, MAX_IMPORTS, MAX_LINE, MAX_SYMBOLS, MAX_TEXT, Definition
from .detect import NO_OUTLINE
from .rules import Spec

log = logging.getLogger("iterative_retrieval.languages")

OutlineRow = tuple[str, str, int, int]
"""A definition as (name, kind, first line, last line), lines 1-based."""
Outliner = Callable[[str, list[str], list[Definition], list[str]], None]
"""(prepared text, its lines, definitions to fill, imports to fill)."""


def brace_outliner(spec: Spec) -> Outliner:
    """The brace scan over a family's Spec, then its import finder."""

    def outline(text: str, raw: list[str], defs: list[Definition], imports: list[str]) -> None:
        cleaned = clean(spec.cleaner, text)
        lines = cleaned.split("\n")
        outline_structured(spec, lines, [] if spec.keyword_blocks else braces(cleaned), defs)
        imports.extend(spec.imports(raw, lines))

    return outline


SPECS: dict[str, Spec] = {
    "javascript": javascript.SPEC, "typescript": javascript.SPEC, "vue": javascript.SPEC,
    "svelte": javascript.SPEC, "c": c.SPEC, "cpp": c.SPEC, "objective-c": c.SPEC,
    "go": go.SPEC, "java": jvm.JAVA, "kotlin": jvm.KOTLIN, "scala": jvm.SCALA,
    "swift": swift.SPEC, "rust": rust.SPEC, "csharp": csharp.SPEC, "php": php.SPEC,
    "ruby": ruby.SPEC, "shell": shell.SPEC,
}
"""The brace languages' Specs (detect.LANGUAGES's names)."""
OUTLINERS: dict[str, Outliner] = {
    "python": python.outline, "starlark": python.outline, "make": make.outline,
    **{lang: brace_outliner(spec) for lang, spec in SPECS.items()},
}
"""Each language's outliner; any other gets GENERIC."""
GENERIC = brace_outliner(generic.SPEC)
CLEANERS: dict[str, re.Pattern[str]] = {
    "python": python.CLEANER, "starlark": python.CLEANER, "make": make.CLEANER,
    **{lang: spec.cleaner for lang, spec in SPECS.items()},
}
"""Each language's strings-and-comments pattern (the one its outliner cleans with)."""
_BLANKED = str.maketrans("", "", '\x01" \t')


def code_text(text: str, language: str | None) -> str | None:
    """The text with its strings emptied and its comments blanked by the language's own
    cleaner, line for line (a line's number is the same; its columns are not); None for
    plain-text kinds, which have no code."""
    lang = language.lower() if isinstance(language, str) else None
    if lang in NO_OUTLINE:
        return None
    return clean(CLEANERS.get(lang, generic.SPEC.cleaner) if lang else generic.SPEC.cleaner,
                 text)


def prose_lines(text: str, language: str | None) -> frozenset[int]:
    """The 1-based numbers of the lines that hold only comments or strings (a docstring, a doc
    comment, a template's text): prose, not code. Unknown and plain-text languages: none."""
    lang = language.lower() if isinstance(language, str) else None
    if lang in NO_OUTLINE or not text:
        return frozenset()
    rx = CLEANERS.get(lang, generic.SPEC.cleaner) if lang else generic.SPEC.cleaner
    text, raw = _prepare(text)
    cleaned = clean(rx, text).split("\n")
    return frozenset(n for n, (line, bare) in enumerate(zip(raw, cleaned, strict=False), 1)
                     if not bare.translate(_BLANKED) and line.strip())


def extract_outline(text: str, language: str | None) -> Outline:
    """Definitions (names, kinds, 1-based spans) and imports of one file; never raises.

    `language` is a name from LANGUAGES (as `language_for` returns); unknown names and None get a
    generic keyword pattern set, plain-text kinds (markdown, yaml, json...) an empty outline.
    """
    rows, imports = outline_rows(text, language)
    return Outline(symbols=tuple(Symbol(*r) for r in rows), imports=imports)


def outline_rows(text: str | bytes, language: str | None,
                 path: str = "") -> tuple[list[OutlineRow], tuple[str, ...]]:
    """extract_outline's definitions as plain rows, for the index: no Symbol per definition
    (a frozen dataclass costs microseconds to make, and a tree has hundreds of thousands).
    `path` only names the file in the log when an outliner fails."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    if not isinstance(text, str) or not text:
        return [], ()
    lang = language.lower() if isinstance(language, str) else None
    if lang in NO_OUTLINE:
        return [], ()
    outliner = OUTLINERS.get(lang, GENERIC) if lang else GENERIC
    text, raw = _prepare(text)
    defs: list[Definition] = []
    imports: list[str] = []
    try:
        outliner(text, raw, defs, imports)
    except Exception:  # an outliner's bug must not stop indexing: keep what it found, say so
        log.warning("outlining %s (%s) failed after %d definitions; kept those",
                    path or "a file", lang or "unknown language", len(defs), exc_info=True)
    return _finish(defs, imports, raw)


def _prepare(text: str) -> tuple[str, list[str]]:
    """The text and its lines, breaks normalised (lines.normalize), capped in size, overlong
    lines blanked."""
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT]
    text = normalize(text)
    lines = text.split("\n")  # with the empty piece after a final break: cleaned texts split alike
    if len(text) > MAX_LINE and max(map(len, lines)) > MAX_LINE:
        lines = [ln if len(ln) <= MAX_LINE else "" for ln in lines]
        text = "\n".join(lines)
    return text, lines


def _finish(defs: list[Definition], imports: list[str],
            lines: list[str]) -> tuple[list[OutlineRow], tuple[str, ...]]:
    """Rows with every end resolved (bounded fallback), deduplicated, capped imports."""
    defs = defs[:MAX_SYMBOLS]
    n = len(lines)
    following = _next_outer(defs) if any(d.end is None for d in defs) else []
    out = []
    for k, d in enumerate(defs):
        end = d.end if d.end is not None else _fallback_end(defs, k, following[k], lines)
        start = max(0, min(d.start, n - 1))
        end = max(start, min(end, n - 1))
        out.append((d.name, d.kind, start + 1, end + 1))
    seen = dict.fromkeys(i.strip() for i in imports if isinstance(i, str) and i.strip())
    return out, tuple(list(seen)[:MAX_IMPORTS])


def _next_outer(defs: list[Definition]) -> list[int | None]:
    """For each definition, the index of the next one at the same or an outer depth."""
    following: list[int | None] = [None] * len(defs)
    waiting: list[int] = []
    for k in range(len(defs) - 1, -1, -1):
        depth = defs[k].depth
        while waiting and defs[waiting[-1]].depth > depth:
            waiting.pop()
        following[k] = waiting[-1] if waiting else None
        waiting.append(k)
    return following


def _fallback_end(defs: list[Definition], k: int, nxt: int | None, lines: list[str]) -> int:
    """End of an unterminated definition: before the next one at its depth, at most
    FALLBACK_SPAN lines, trailing blank lines dropped."""
    start = defs[k].start
    end = min(len(lines) - 1, start + FALLBACK_SPAN)
    if nxt is not None and defs[nxt].start > start:
        end = min(end, defs[nxt].start - 1)
    while end > start and not lines[end].strip():
        end -= 1
    return max(start, end)
