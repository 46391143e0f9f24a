"""DISPATCH: turn a query into a few hundred candidate files.

Candidates are the union of fielded-BM25 hits per concept (weighted by the concept), files that
define a named identifier, files whose path matches a mentioned path, frame or commit scope
(scope.py), and the files that define the focus areas from the last cycle's gaps. Excludes and
the test/doc rule apply here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from itertools import filterfalse, repeat
from operator import add, mul

from .gitignore import path_matcher
from .index import FileRow, Index
from .models import Candidate, Concept, Query
from .scope import path_keys, scope_matches

PART_WEIGHT = 0.5
PATH_HIT = 8.0
"""BM25-scale evidence of a file named by a path or frame in the task."""
SCOPE_HIT = 4.0
"""BM25-scale evidence of a file whose name is a commit scope (a folder of that name: less)."""
AMBIGUOUS_NAME = 3
"""A file name mentioned without its folder names a file only if at most this many share it."""
COMMON_SHARE = 0.35
"""A term in more than this share of files is too common to bring in candidates on its own."""


@dataclass
class SearchCache:
    """Per-retrieval memo of index look-ups, shared by every cycle."""

    terms: dict[str, dict[int, float]] = field(default_factory=dict)
    files: dict[int, FileRow] | None = None
    by_path: dict[str, int] | None = None
    used: dict[str, list[str]] = field(default_factory=dict)
    """path → names the file uses (missing context)."""
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    """path → stemmed term counts of the file's text (pseudo-relevance feedback)."""
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


def concept_hits(index: Index, concept: Concept, cache: SearchCache) -> dict[int, float]:
    """file id → BM25 evidence for one concept (the whole identifier beats its parts)."""
    terms = concept.terms
    if concept.kind in ("path", "frame"):
        # a path names files, not words: its parts ("test", "utils") would match everywhere
        return {fid: PATH_HIT for fid in cache.path_matches(index, concept.text)}
    if concept.kind == "scope":
        memo = index.derived("scope")
        keys = memo.get("path_keys")
        if keys is None:
            keys = memo["path_keys"] = path_keys([(f.id, f.path) for f in index.all_files()])
        return {fid: SCOPE_HIT * m for fid, m in scope_matches(concept.text, keys).items()}
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


def lowered_paths(files: dict[str, int]) -> list[tuple[str, str, int]]:
    """(path, lower-case path, id) of each file, in order: lower() once per file, not per query."""
    return [(rel, rel.lower(), fid) for rel, fid in files.items()]


def path_matches(
    path: str, files: dict[str, int], lowered: list[tuple[str, str, int]] | None = None
) -> list[int]:
    """Files whose relative path ends with the mentioned path (or equals its file name).

    `lowered` is lowered_paths(files), when the caller keeps it.
    """
    if lowered is None:
        lowered = lowered_paths(files)
    p = path.strip("/").lower()
    for marker in ("site-packages/", "dist-packages/", "node_modules/"):
        if marker in p:  # an installed copy: its path inside the package is what can match
            p = p.split(marker, 1)[1]
    hits = [fid for rel, low, fid in lowered if low.endswith(p) and
            (len(rel) == len(p) or rel[-len(p) - 1] == "/")]
    if hits:
        # a bare name that many files share (`__init__.py`, `test_foo.py`) names none of them
        return hits if "/" in p or len(hits) <= AMBIGUOUS_NAME else []
    # a frame from another machine: /home/me/proj/src/a.py → try shorter suffixes
    segs = p.split("/")
    for k in range(len(segs) - 1, 0, -1):
        tail = "/".join(segs[-k:])
        slash_tail = "/" + tail
        hits = [fid for _, low, fid in lowered if low.endswith(slash_tail) or low == tail]
        if hits and (k >= 2 or len(hits) <= AMBIGUOUS_NAME):
            return hits
    return []


def dispatch(
    index: Index,
    query: Query,
    cache: SearchCache,
    excluded: set[str],
    limit: int = 300,
    should_stop: Callable[[], bool] | None = None,
) -> list[Candidate]:
    """Rank the index against the query and return the top candidates with their evidence."""
    files = cache.all_files(index)
    assert cache.by_path is not None
    n_files = max(len(files), 1)
    admit = _admitter(query, excluded, index.derived("admitted"))
    # The evidence is kept in plain maps, in the order files first came in, and a Candidate is
    # made only for the few hundred returned: a common word hits thousands of files.
    bm25: dict[int, float] = {}
    """file id → BM25 evidence; its keys are the candidates, in the order they came in."""
    textual: list[tuple[str, dict[int, float]]] = []
    """(text, hits) of each concept matched in the text, in order: the "text" source of the
    few hundred candidates returned is read from them, not kept for every file hit."""
    extra: dict[int, list[str]] = {}
    """file id → its other sources in the order they were added."""
    path_hits: dict[int, list[str]] = {}
    """file id → the path and frame concepts that name it."""
    refused: set[int] = set()  # a file many concepts hit is judged once

    def enter(fid: int) -> bool:
        if fid in bm25:
            return True
        if fid in refused:
            return False
        row = files.get(fid)
        if row is None or not admit(row):
            refused.add(fid)
            return False
        bm25[fid] = 0.0
        return True

    known = bm25.__contains__
    for concept in query.keywords:
        if should_stop and should_stop():
            break
        hits = concept_hits(index, concept, cache)
        if len(hits) > COMMON_SHARE * n_files and concept.kind == "word":
            weight = concept.weight * 0.5
        else:
            weight = concept.weight
        # A common word hits thousands of files: the files new to this dispatch are judged
        # one by one, in the order they come in, and the evidence is added up in C.
        for fid in filterfalse(known, hits):
            if fid not in refused:
                enter(fid)
        admitted = list(filter(known, hits))
        bm25.update(zip(admitted, map(add, map(bm25.__getitem__, admitted),
                                      map(mul, map(hits.__getitem__, admitted), repeat(weight)))))
        if concept.kind == "scope":  # a path match, not a text one
            for fid in admitted:
                extra.setdefault(fid, []).append("scope")
                path_hits.setdefault(fid, []).append(concept.text)
        else:
            textual.append((concept.text, hits))

    ident_names = [c.text.split(".")[-1].lower() for c in query.keywords if c.kind == "identifier"]
    focus_names = {f.lower() for f in query.focus_areas}
    for lname, fids in index.definers(ident_names + [f.lower() for f in query.focus_areas]).items():
        source = "focus" if lname in focus_names else "definition"
        for fid in fids:
            if enter(fid):
                extra.setdefault(fid, []).append(source)

    for concept in query.keywords:
        if concept.kind in ("path", "frame"):
            for fid in cache.path_matches(index, concept.text):
                if enter(fid):
                    extra.setdefault(fid, []).append(concept.kind)
                    path_hits.setdefault(fid, []).append(concept.text)

    if query.patterns:
        matches = path_matcher(query.patterns)
        for fid in bm25:
            if matches(files[fid].path):
                extra.setdefault(fid, []).append("pattern")

    # a file with no other source keeps its BM25 as its key (_key's bonus is 1): only the few
    # with one are worked out, and the sort and the filter below run in C
    keys = dict(bm25)
    for fid, sources in extra.items():
        keys[fid] = _key(bm25[fid], sources)
    ranked = sorted(bm25, key=keys.__getitem__, reverse=True)
    strong_ids = {fid for fid, sources in extra.items() if not _STRONG.isdisjoint(sources)}
    strong = list(filter(strong_ids.__contains__, ranked))
    top = ranked[:limit]
    seen = set(top)
    top.extend(fid for fid in strong[:limit] if fid not in seen)
    return [_candidate(files[fid].path, fid, bm25[fid], [t for t, hits in textual if fid in hits],
                       extra.get(fid, ()), path_hits.get(fid, ())) for fid in top]


_STRONG = frozenset({"definition", "path", "frame", "focus"})


def _candidate(
    path: str, fid: int, bm25: float, texts: Iterable[str], extra: Iterable[str],
    path_hits: Iterable[str],
) -> Candidate:
    """The Candidate the evidence describes, its maps filled in the order dispatch found it."""
    # a repeated concept keeps its first place, as setdefault would
    matched: dict[str, set[str]] = {text: {"text"} for text in texts}
    sources: set[str] = {"text"} if matched else set()
    sources.update(extra)
    for text in path_hits:
        matched.setdefault(text, set()).add("path")
    return Candidate(path, fid, bm25, matched, sources)


def _key(bm25: float, sources: Collection[str]) -> float:
    """Dispatch's ranking: BM25, raised for files a path names, that define a named symbol,
    or that lie where the best files of the last cycle lie."""
    bonus = 1.0
    path = "path" in sources or "frame" in sources
    if path:
        bonus += 2.0
    if "definition" in sources or "focus" in sources:
        bonus += 0.5
    if "pattern" in sources:
        bonus += 0.2
    return bm25 * bonus + (5.0 if path else 0.0)


def _admitter(
    query: Query, excluded: set[str], memo: dict | None = None
) -> Callable[[FileRow], bool]:
    """Whether a file may be a candidate: not excluded, in the required patterns, and no test or
    doc unless the task is about those (or names the file). All but the excluded paths is the
    same in every cycle and mostly in every retrieval: with a memo (the index's, emptied by a
    write), each file is judged once per set of patterns."""
    # no spec at all when there is no pattern: an empty one still normalises every path
    lines = [e for e in query.excludes if e not in excluded]
    excl = path_matcher(lines) if lines else None
    req = path_matcher(query.required_patterns) if query.required_patterns else None
    named = {fr.path.lower() for fr in query.frames}
    key = (tuple(lines), query.required_patterns, query.frames, query.include_tests)
    if memo is not None and key not in memo and len(memo) >= 64:
        memo.clear()  # tasks with stack frames each make their own: keep a few
    verdicts: dict[int, bool] = memo.setdefault(key, {}) if memo is not None else {}

    def judge(row: FileRow) -> bool:
        if excl is not None and excl(row.path):
            return False
        if req is not None and not req(row.path):
            return False
        if row.kind in ("test", "doc") and not query.include_tests:
            return bool(named) and any(row.path.lower().endswith(n) for n in named)
        return True

    def admit(row: FileRow) -> bool:
        if row.path in excluded:
            return False
        verdict = verdicts.get(row.id)
        if verdict is None:
            verdict = verdicts[row.id] = judge(row)
        return verdict

    return admit
