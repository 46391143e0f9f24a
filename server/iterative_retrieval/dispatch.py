"""DISPATCH: turn a query into a few hundred candidate files.

Candidates are the union of fielded-BM25 hits per concept (weighted by the concept), files that
define a named identifier, files whose path matches a mentioned path, frame or commit scope
(scope.py), and the files that define the focus areas from the last cycle's gaps. Excludes and
the test/doc rule apply here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from itertools import filterfalse, repeat
from operator import add, mul

from .gitignore import path_matcher
from .index import FileRow
from .models import Candidate, Query
from .run import Run
from .search import concept_hits

COMMON_SHARE = 0.35
"""A term in more than this share of files is too common to bring in candidates on its own."""


# C901: each branch adds one source of candidates (text, definitions, paths, frames, scopes,
# focus areas), with what the ones before found at hand.
def dispatch(run: Run, query: Query, excluded: set[str],  # noqa: C901
             limit: int = 300) -> list[Candidate]:
    """Rank the index against the query and return the top candidates with their evidence."""
    index, cache, should_stop = run.index, run.search, run.should_stop
    files = run.files()
    assert cache.by_path is not None
    n_files = max(len(files), 1)
    admit = admitter(run, query, excluded)
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
        if should_stop():
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
        if concept.kind == "phrase":
            # a name the task says in words lets its files in; its rare whole term would
            # outweigh every word in the BM25 that orders and normalizes the candidates
            textual.append((concept.text, hits))
            continue
        bm25.update(zip(admitted, map(add, map(bm25.__getitem__, admitted),
                                      map(mul, map(hits.__getitem__, admitted), repeat(weight))),
                        strict=True))
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

    # a task that says it is about the work ("the failing test I just wrote") takes the
    # developer's own test and doc files too: they are the work, whatever the task's words
    work = run.work()
    own_work = admitter(run, replace(query, include_tests=True), excluded) if work else None
    for path, source in run.seeds():
        seed = (cache.by_path or {}).get(path)
        if seed is None:
            continue
        row = files.get(seed)
        if (own_work is not None and path in work and row is not None
                and row.kind in ("test", "doc") and seed not in bm25 and own_work(row)):
            refused.discard(seed)
            bm25[seed] = 0.0
            extra.setdefault(seed, []).append(source)
        elif enter(seed):
            extra.setdefault(seed, []).append(source)

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


_STRONG = frozenset({"definition", "path", "frame", "focus", "changed", "editor"})


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


def admitter(run: Run, query: Query, excluded: set[str]) -> Callable[[FileRow], bool]:
    """Whether a file may be a candidate (see _admitter), judged with the index's memo."""
    return _admitter(query, excluded, run.index.derived("admitted"))


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
