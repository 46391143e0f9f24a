"""Index look-ups shared by every phase: a concept's BM25 hits, the file list, path matches.

A retrieval asks the index the same questions in every cycle and phase (a task word's hits, the
files a mentioned path names); SearchCache remembers the answers for one retrieval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .index import FileRow, Index
from .models import Concept
from .scope import PathKeys, folder_path, path_keys, scope_matches, under_path

PART_WEIGHT = 0.5
PATH_HIT = 8.0
"""BM25-scale evidence of a file named by a path or frame in the task."""
SCOPE_HIT = 4.0
"""BM25-scale evidence of a file whose name is a commit scope (a folder of that name: less)."""
AMBIGUOUS_NAME = 3
"""A file name mentioned without its folder names a file only if at most this many share it."""


@dataclass
class SearchCache:
    """Per-retrieval memo of index look-ups, shared by every cycle."""

    terms: dict[str, dict[int, float]] = field(default_factory=dict)
    files: dict[int, FileRow] | None = None
    by_path: dict[str, int] | None = None
    paths: dict[str, list[int]] = field(default_factory=dict)
    """mentioned path → the files it names (path_matches over the whole file list)."""
    lower_paths: list[tuple[str, str, int]] | None = None
    """(path, its lower case, file id) of every file, for path_matches."""

    def search(self, index: Index, term: str) -> dict[int, float]:
        hits = self.terms.get(term)
        if hits is None:
            hits = index.search_term(term)
            self.terms[term] = hits
        return hits

    def search_all(self, index: Index, terms: tuple[str, ...]) -> dict[int, float]:
        """Files containing every term, scored by the sum of the terms' BM25."""
        hits = [self.search(index, t) for t in terms]
        if not hits:
            return {}
        common = set(hits[0]).intersection(*hits[1:])
        return {fid: sum(h[fid] for h in hits) / len(hits) for fid in common}

    def all_files(self, index: Index) -> dict[int, FileRow]:
        """id → row of every indexed file (the index's memo: read-only)."""
        if self.files is None:
            self.files, self.by_path, self.lower_paths = index.file_maps()
        return self.files

    def path_matches(self, index: Index, path: str) -> list[int]:
        """path_matches over the index's files, once per mentioned path and retrieval."""
        hits = self.paths.get(path)
        if hits is None:
            self.all_files(index)
            hits = self.paths[path] = path_matches(path, self.by_path or {}, self.lower_paths)
        return hits


def _path_keys(index: Index) -> PathKeys:
    memo = index.derived("scope")
    keys = memo.get("path_keys")
    if keys is None:
        keys = memo["path_keys"] = path_keys([(f.id, f.path) for f in index.all_files()])
    return keys


def _scope_hits(index: Index, scope: str, cache: SearchCache) -> dict[int, float]:
    """file id → evidence for a scope of the task (its text without the parentheses)."""
    folder = folder_path(scope)
    if folder is not None:
        # a commit's scope written as a path (`fix(router/trie-router)`): the file at that
        # path, or every file under the folder it names (once per file list: each cycle asks)
        memo = index.derived("scope")
        under = memo.get(("under_path", folder))
        if under is None:
            under = memo[("under_path", folder)] = under_path(folder, _path_keys(index))
        hits = {fid: SCOPE_HIT * m for fid, m in under.items()}
        hits.update(dict.fromkeys(cache.path_matches(index, folder), SCOPE_HIT))
        return hits
    if "/" in scope:
        # a module's path (query._module_paths; `fix(socket.io)` is matched below): its file,
        # or its package's entry
        entries = cache.path_matches(index, scope) or package_entries(scope, cache.lower_paths)
        return dict.fromkeys(entries, SCOPE_HIT)
    return {fid: SCOPE_HIT * m for fid, m in scope_matches(scope, _path_keys(index)).items()}


def concept_hits(index: Index, concept: Concept, cache: SearchCache) -> dict[int, float]:
    """file id → BM25 evidence for one concept (the whole identifier beats its parts)."""
    terms = concept.terms
    if concept.kind in ("path", "frame"):
        # a path names files, not words: its parts ("test", "utils") would match everywhere
        return {fid: PATH_HIT for fid in cache.path_matches(index, concept.text)}
    if concept.kind == "scope":
        return _scope_hits(index, concept.text.strip("()"), cache)
    if not terms:
        return {}
    if concept.kind == "quoted":
        # the body keeps term counts, not order: a message matches where all its words occur
        return cache.search_all(index, terms)
    if len(terms) == 1:
        return cache.search(index, terms[0])
    whole, parts = terms[-1], terms[:-1]
    out = dict(cache.search(index, whole))
    part_hits = [cache.search(index, p) for p in parts]
    n = len(part_hits)
    if n:
        ids: set[int] = set()
        for h in part_hits:
            ids.update(h)
        for fid in ids:
            present = [h[fid] for h in part_hits if fid in h]
            # all parts present beats some; never more than the whole identifier would give
            score = PART_WEIGHT * sum(present) / n * (len(present) / n)
            if score > out.get(fid, 0.0):
                out[fid] = score
    return out


def modules_named(index: Index, word: str) -> int:
    """How many source files are named `word` or its plural (`traceback.py`, `errors.go`)."""
    names, rows = _path_keys(index).names, index.file_maps()[0]
    return sum(rows[fid].kind == "source" for fid in (*names.get(word, ()),
                                                      *names.get(word + "s", ())) if fid in rows)


def folder_names(index: Index) -> frozenset[str]:
    """Every folder's name in the workspace, lower-case; memoised until the index changes."""
    memo = index.derived("folders")
    names = memo.get("names")
    if names is None:
        names = memo["names"] = frozenset(
            seg.lower() for f in index.all_files() for seg in f.path.split("/")[:-1])
    return names


def lowered_paths(files: dict[str, int]) -> list[tuple[str, str, int]]:
    """(path, lower-case path, id) of each file, in order: lower() once per file, not per query."""
    return [(rel, rel.lower(), fid) for rel, fid in files.items()]


_INSTALLED_RE = re.compile(
    r"^.*?(?:(?:site-packages|dist-packages|node_modules)/"  # pip, npm: from the package's folder
    r"|(?:^|/)pkg/mod/[^@\s]+@[^/\s]+/"  # Go's module cache: module@version/
    r"|(?:^|/)\.cargo/registry/src/[^/\s]+/[^/\s]+/"  # Cargo's registry: index/crate-version/
    r"|(?:^|/)gems/[\w.-]+-\d[\w.]*/)")  # a gem: name-version/
"""Where a copy installed by a package manager lies, up to the package's own files."""


def installed_tail(path: str) -> str | None:
    """The path inside the package when `path` (a frame's, from a reporter's machine) lies in a
    copy installed by pip, npm, Go, Cargo or gem: it may be this very project, and that part is
    what can match. None for any other path."""
    m = _INSTALLED_RE.match(path)
    return path[m.end():] if m else None


def _stem_is(low: str, p: str) -> bool:
    """Whether a file's path without its extension ends with the folder-separated path p."""
    stem = low.rsplit(".", 1)[0]
    return stem.endswith(p) and (len(stem) == len(p) or stem[-len(p) - 1] == "/")


def package_entries(path: str, lowered: list[tuple[str, str, int]] | None) -> list[int]:
    """A package's files that stand for it (`sympy/printing/pretty`): its `__init__` or
    `index`, and its module named after it (`pretty/pretty.py`)."""
    p = path.strip("/").lower()
    last = p.rsplit("/", 1)[-1]
    entries = (f"{p}/__init__", f"{p}/index", f"{p}/{last}")
    return [fid for _, low, fid in lowered or ()
            if "." in low.rsplit("/", 1)[-1] and any(_stem_is(low, e) for e in entries)]


def path_matches(
    path: str, files: dict[str, int], lowered: list[tuple[str, str, int]] | None = None
) -> list[int]:
    """Files whose relative path ends with the mentioned path (or equals its file name).

    `lowered` is lowered_paths(files), when the caller keeps it.
    """
    if lowered is None:
        lowered = lowered_paths(files)
    p = path.strip("/").lower()
    inside = installed_tail(p)
    if inside is not None:  # an installed copy: its path inside the package is what can match
        p = inside
    hits = [fid for rel, low, fid in lowered if low.endswith(p) and
            (len(rel) == len(p) or rel[-len(p) - 1] == "/")]
    if hits:
        # a bare name that many files share (`__init__.py`, `test_foo.py`) names none of them
        return hits if "/" in p or len(hits) <= AMBIGUOUS_NAME else []
    if "/" in p and "." not in p.rsplit("/", 1)[-1]:
        # a module's path without its extension (`jinja2/debug`, `src/utils/format`)
        hits = [fid for rel, low, fid in lowered
                if "." in low.rsplit("/", 1)[-1] and _stem_is(low, p)]
        if hits:
            return hits
        # …or named as its code names it: `Style/PercentLiteralDelimiters` (RuboCop's cops),
        # `RuboCop::ConfigLoader`, in rubocop/cop/style/percent_literal_delimiters.rb
        bare = p.replace("_", "")
        hits = [fid for rel, low, fid in lowered
                if "." in low.rsplit("/", 1)[-1] and _stem_is(low.replace("_", ""), bare)]
        if hits:
            return hits
    # a frame from another machine: /home/me/proj/src/a.py → try shorter suffixes
    segs = p.split("/")
    for k in range(len(segs) - 1, 0, -1):
        tail = "/".join(segs[-k:])
        slash_tail = "/" + tail
        if k == 1:
            # the frame's folders are nowhere here: only a file at the top may be it (the
            # frame's root was this project's), not one of the same name in another folder
            return [fid for _, low, fid in lowered if low == tail]
        hits = [fid for _, low, fid in lowered if low.endswith(slash_tail) or low == tail]
        if hits:
            return hits
    return []
