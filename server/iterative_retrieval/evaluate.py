"""EVALUATE: score every candidate 0–1 on the pattern's bands, say why, and say what is missing.

Relevance is a logistic combination of a few features a reviewer can check: how much of the task
the file covers (IDF-weighted), whether it *defines* what the task names rather than only using
it, whether its path or name matches, explicit paths and stack frames, a commit scope naming it
(`fix(http):`), its BM25F standing, and its
place in the import graph relative to the strongest candidates. The weights are named constants,
calibrated on the development benchmark (docs/benchmarks.md) so that the bands mean what they say.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, count
from operator import add, itemgetter

from .config import ablated_signals
from .dispatch import SCOPE_HIT, SearchCache, concept_hits
from .index import FileRow, Index
from .models import Candidate, Concept, Evaluation, Query, Symbol, SymbolRows, symbol_names
from .textmemo import TextMemo
from .tokenize import path_terms, stem, stemmed_terms

# Logistic weights (see the module docstring). z = BIAS + Σ weight × feature.
BIAS = -5.5
W_COVERAGE = 1.8
W_COVERAGE_LONG = 1.0
COVERAGE_CONCEPTS = 6
"""Coverage weighs W_COVERAGE for a request of up to this many task concepts, sliding towards
W_COVERAGE_LONG for long issue texts, where covering many incidental words says little."""
W_BM25 = 3.6
W_DEFINES = 2.0
W_SYMBOL_TERMS = 2.4
W_PATH_TERMS = 2.1
W_EXPLICIT = 3.0
W_GRAPH = 0.8
W_LEARNED = 0.9
W_SCOPE = 1.5
"""The file is what the task's commit scope names (`fix(http):` → http.js), or lies in it."""
KIND_PENALTY = {"source": 0.0, "config": -0.8, "example": -1.6, "test": -2.0, "doc": -1.1}
VENDORED_PENALTY = -1.6
"""A vendored copy of another project is rarely what a task changes (its fixes go upstream)."""
_VENDORED_RE = re.compile(
    r"(^|/)(_vendor|_vendored|vendored|third[_-]?party|3rdparty|_?externals?|extern)/"
    r"|^(?!packages/)(?:[^/]+/)+packages/[^/]+/.+\.py$"  # requests/packages/urllib3/…, not a monorepo's packages/
)
SUBSTITUTE_SHARE = 0.8
"""A synonym or variant covers the task word it stands in for at this share."""
STAGE2 = 40
USED_NAMES_TOP = 10
"""Missing context is looked for in the best few files only."""
"""How many of the best candidates get the costly text and graph pass."""
ANCHORS = 5


@dataclass
class ConceptStats:
    """Per-concept evidence shared by all candidates of a cycle."""

    concept: Concept
    hits: dict[int, float]
    idf: float
    task: bool
    """True for the task's own concepts; learned terms count apart."""


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def concept_stats(
    index: Index, concepts: list[Concept], task_texts: set[str], cache: SearchCache
) -> list[ConceptStats]:
    n = max(len(cache.all_files(index)), 2)
    out = []
    for c in concepts:
        hits = concept_hits(index, c, cache)
        df = len(hits)
        idf = math.log((n + 1) / (df + 0.5)) / math.log(n + 1)
        out.append(ConceptStats(c, hits, max(idf, 0.02), c.text in task_texts))
    return out


def evaluate(
    index: Index,
    query: Query,
    candidates: list[Candidate],
    cache: SearchCache,
    task_concepts: list[Concept],
    cycle: int,
    read_text: Callable[[str], str | None],
    kept_paths: set[str] | None = None,
    limit: int = 150,
) -> list[Evaluation]:
    """Relevance, reason and missing context for the best `limit` candidates, best first."""
    if not candidates:
        return []
    files = cache.all_files(index)
    task_texts = {c.text for c in task_concepts}
    all_concepts = list({c.text: c for c in [*task_concepts, *query.keywords]}.values())
    stats = concept_stats(index, all_concepts, task_texts, cache)
    subs: dict[str, list[ConceptStats]] = {}
    for st in stats:
        for o in st.concept.origin:
            subs.setdefault(o, []).append(st)
    # a task word nothing in the code says, and nothing stands in for, cannot tell files apart
    task_stats = [st for st in stats if st.task and (st.hits or subs.get(st.concept.text))]
    task_mass = sum(st.concept.weight * st.idf for st in task_stats) or 1.0
    other_stats = [st for st in stats if not st.task]
    learned_mass = sum(st.concept.weight * st.idf for st in other_stats) or 1.0
    cands = sorted(candidates, key=lambda c: c.bm25, reverse=True)[: max(limit, 1)]
    # dispatch hands out one candidate per file: the file id says whether it is in already
    taken = {c.file_id for c in cands}
    cands += [c for c in candidates if c.sources & {"path", "frame", "focus", "definition", "scope"}
              and c.file_id not in taken][:50]
    # half of the BM25 feature is the task's own concepts (stand-ins at their share): learned
    # terms come from the best files themselves, so they may lift a file, not crown it
    task_bm25 = {c.file_id: _task_bm25(c.file_id, task_stats, subs) for c in cands}
    max_task_bm25 = max(task_bm25.values(), default=1.0) or 1.0
    max_bm25 = max((c.bm25 for c in cands), default=1.0) or 1.0
    max_named = max((st.concept.weight for st in stats if st.concept.kind in ("path", "frame")),
                    default=1.0)
    ident_mass = {
        st.concept.text.split(".")[-1].lower(): st.concept.weight * st.idf
        for st in stats if st.concept.kind == "identifier" and st.task and st.hits
    }
    ident_names = set(ident_mass)
    ident_total = sum(sorted(ident_mass.values(), reverse=True)[:3]) or 1.0

    w_cov = coverage_weight(len(task_stats))
    off = ablated_signals()
    # what each concept brings, whatever the candidate: worked out once, not per candidate
    per_concept = [
        (st, st.concept.weight * st.idf, st.concept.text, set(st.concept.terms),
         st.concept.kind in ("path", "frame", "scope"), subs.get(st.concept.text, ()))
        for st in task_stats + other_stats
    ]
    path_stats = [st for st in stats if st.concept.kind in ("path", "frame")]
    scope_stats = [st for st in stats if st.concept.kind == "scope"]
    evals: list[Evaluation] = []
    symbols = index.symbols_of_many([c.file_id for c in cands])
    for c in cands:
        fid = c.file_id
        row = files.get(fid)
        if row is None:
            continue
        syms = symbols.get(fid, ())
        sym_stems, lower_names, names, lowered = _symbol_facts(syms)
        p_stems, name_stems = _path_stems(row.path)
        covered_task = covered_learned = sym_mass = path_mass = 0.0
        matched_words: list[str] = []
        covers: list[str] = []
        path_words: list[str] = []
        matched = c.matched
        for st, m, text, terms, is_path, alternatives in per_concept:
            via = None
            if fid not in st.hits and text not in matched:
                if not st.task:
                    continue
                if not alternatives:
                    continue
                via = next((x for x in alternatives if fid in x.hits), None)
                if via is None:
                    continue
                m *= SUBSTITUTE_SHARE
                terms = terms | set(via.concept.terms)
            if st.task:
                covered_task += m
                if via is None:
                    covers.append(text)
                if not is_path:  # said apart in the reason ("named in the task", "the task's scope")
                    matched_words.append(text if via is None else f"{via.concept.text} (for {text})")
            else:
                covered_learned += m
            share = 1.0 if st.task else 0.5
            if not terms.isdisjoint(sym_stems):
                sym_mass += m * share
            shown = "" if is_path else text if via is None else via.concept.text
            if not terms.isdisjoint(name_stems):
                path_mass += m * share
                path_words.append(shown)
            elif not terms.isdisjoint(p_stems):
                path_mass += 0.5 * m * share
                path_words.append(shown)
        # most files define none of the task's identifiers: one set test says so
        defines = (list(compress(names, map(ident_names.__contains__, lowered)))
                   if not ident_names.isdisjoint(lower_names) else [])
        named = [st.concept.weight for st in path_stats if fid in st.hits]
        explicit = max(named) / max_named if named else 0.0
        scoped = [(st.hits[fid] / SCOPE_HIT, st.concept.text) for st in scope_stats if fid in st.hits]
        f = {
            "coverage": covered_task / task_mass,
            "learned": covered_learned / learned_mass if covered_learned else 0.0,
            "bm25": (0.5 * task_bm25[c.file_id] / max_task_bm25 + 0.5 * c.bm25 / max_bm25),
            # share of the task's strongest identifiers that this file defines
            "defines": min(1.0, sum(ident_mass[n] for n in {d.lower() for d in defines}) / ident_total),
            "symbol_terms": min(sym_mass / task_mass, 1.0),
            "path_terms": min(path_mass / task_mass, 1.0),
            "explicit": explicit,
            "scope": max(scoped)[0] if scoped else 0.0,
            "focus": 1.0 if "focus" in c.sources else 0.0,
            "graph": 0.0,
        }
        ev = Evaluation(
            path=row.path, relevance=0.0, reason="", cycle=cycle, features=f,
            defines=list(dict.fromkeys(defines)), file_id=fid, matched_words=matched_words, covers=covers,
            path_words=path_words, symbols=syms, scopes=[t.strip("()") for _, t in sorted(scoped, reverse=True)],
        )
        _score(ev, row, w_cov, off)
        evals.append(ev)

    evals.sort(key=lambda e: e.score, reverse=True)
    _graph_pass(index, evals[:STAGE2], files)
    for ev in evals[:STAGE2]:
        _score(ev, files[ev.file_id], w_cov, off)
    evals.sort(key=lambda e: e.score, reverse=True)
    all_terms = {t for st in stats for t in st.concept.terms}
    search = terms_search(all_terms)
    for rank, ev in enumerate(evals):
        if rank < STAGE2:
            ev.named = _named_symbols(ev, all_terms, search)
        if rank < USED_NAMES_TOP:
            if ev.path not in cache.used:
                cache.used[ev.path] = used_names(ev, read_text)
            ev.used_names = cache.used[ev.path]
        ev.reason = _reason(ev)
    return evals


STEMS_MEMO_MAX = 50_000
"""Paths whose stems, and import targets whose keys, are kept between retrievals."""
_SymbolFacts = tuple[set[str], set[str], tuple[str, ...], tuple[str, ...]]
_path_stems_memo: dict[str, tuple[set[str], set[str]]] = {}


def _symbol_facts(syms: Sequence[Symbol]) -> _SymbolFacts:
    """The stems of a file's definitions, the set of their lower-case names, and their names
    and lower-case names in order; kept with the index's rows (one object per file version), so
    between cycles and retrievals, and never for a rewritten file."""
    if isinstance(syms, SymbolRows):
        hit = syms.derived.get("facts")
        if hit is not None:
            return hit  # from the stored rows, without a Symbol per definition
        rows = syms.rows
        stored = list(map(itemgetter(5), rows))
        stems = set(" ".join(stored).split())
        if "" in stored or any(map(str.isspace, stored)):  # (checked in C: mostly none)
            for _, name, _, _, _, terms in rows:
                if not terms or terms.isspace():  # no stored terms: split the name, as below
                    stems.update(stemmed_terms(name))
        names = tuple(map(itemgetter(1), rows))
    else:
        stems = {t for s in syms for t in (s.terms or stemmed_terms(s.name))}
        names = tuple(s.name for s in syms)
    lowered = tuple(map(str.lower, names))
    facts = (stems, set(lowered), names, lowered)
    if isinstance(syms, SymbolRows):
        syms.derived["facts"] = facts
    return facts


def _path_stems(path: str) -> tuple[set[str], set[str]]:
    """Stems of a path and of its file name, remembered between cycles and retrievals."""
    hit = _path_stems_memo.get(path)
    if hit is None:
        if len(_path_stems_memo) >= STEMS_MEMO_MAX:
            _path_stems_memo.clear()
        hit = _path_stems_memo[path] = (
            {stem(t) for t in path_terms(path)},
            {stem(t) for t in path_terms(path.rsplit("/", 1)[-1])},
        )
    return hit


def _named_symbols(
    ev: Evaluation, terms: set[str], search: Callable[[str], Iterable[re.Match]] | None = None
) -> list[str]:
    """Definitions whose names carry the task's words, most words first (for the reason).

    `search` is terms_search(terms), made once per cycle: it finds, in C, the stored rows whose
    stems say one of the words, so that a generated file's thousands of names cost one scan.
    """
    syms = ev.symbols
    if terms.isdisjoint(_symbol_facts(syms)[0]):
        return []  # no definition's name carries any of them
    lines = _symbol_lines(syms) if isinstance(syms, SymbolRows) else None
    if lines is None or search is None:
        named = (
            ((name, start, t.split()) for _, name, _, start, _, t in syms.rows)
            if isinstance(syms, SymbolRows) else
            ((s.name, s.start_line, s.terms) for s in syms)
        )
        scored = []
        for name, start, stored in named:
            words = stored or stemmed_terms(name)
            if terms.isdisjoint(words):
                continue
            scored.append((-len(terms.intersection(words)), start, name))
    elif (by_stem := _stem_rows(syms)) is not None:
        counts: dict[int, int] = {}  # row → how many of the terms its stems say
        for t in terms:
            for i in by_stem.get(t, ()):
                counts[i] = counts.get(i, 0) + 1
        scored = [(-n, syms.rows[i][3], syms.rows[i][1]) for i, n in counts.items()]
    else:
        joined, starts, unstored = lines
        hit = {bisect.bisect_right(starts, m.start()) - 1 for m in search(joined)}
        hit.update(i for i, words in unstored if not terms.isdisjoint(words))
        scored = []
        for i in hit:
            _, name, _, start, _, t = syms.rows[i]
            n = len(terms.intersection(t.split() or stemmed_terms(name)))
            if n:
                scored.append((-n, start, name))
    scored.sort()
    return list(dict.fromkeys(name for _, _, name in scored))[:6]


def terms_search(terms: set[str]) -> Callable[[str], Iterable[re.Match]] | None:
    """finditer for the whole whitespace-separated tokens equal to one of the terms (a term
    with whitespace in it can equal no token); None when no term can."""
    usable = [t for t in terms if t and not any(c.isspace() for c in t)]
    if not usable:
        return None
    if all(t == t.lower() for t in usable):  # trie_regex lower-cases: only then is it exact
        body = trie_regex(sorted(usable, key=len, reverse=True))
    else:
        body = "|".join(map(re.escape, sorted(usable, key=len, reverse=True)))
    return re.compile(r"(?<!\S)(?:" + body + r")(?!\S)").finditer


STEM_MAP_AFTER = 3
"""Scans of one file's stems before it gets a stem → rows map (a server's next retrievals
come back to the same files; a one-off CLI run would spend more building it than it saves)."""


def _stem_rows(syms: SymbolRows) -> dict[str, list[int]] | None:
    """stem → the rows whose stems say it, each row once per stem; None until the file has
    been scanned STEM_MAP_AFTER times. Kept with the rows."""
    by_stem = syms.derived.get("by_stem")
    if by_stem is None:
        calls = syms.derived["scans"] = syms.derived.get("scans", 0) + 1
        if calls <= STEM_MAP_AFTER:
            return None
        by_stem = {}
        for i, (_, name, _, _, _, t) in enumerate(syms.rows):
            for w in set(t.split() or stemmed_terms(name)):
                by_stem.setdefault(w, []).append(i)
        syms.derived["by_stem"] = by_stem
    return by_stem


def _symbol_lines(
    syms: SymbolRows,
) -> tuple[str, list[int], list[tuple[int, tuple[str, ...]]]] | None:
    """A file's stored stems, one definition a line, with the lines' offsets, and the
    definitions without stored stems (split from the name instead); None if a row's stems
    hold a line break (then the rows are read one by one). Kept with the rows."""
    if "lines" in syms.derived:
        return syms.derived["lines"]
    stored = list(map(itemgetter(5), syms.rows))
    joined = "\n".join(stored)
    lines: tuple[str, list[int], list[tuple[int, tuple[str, ...]]]] | None = None
    if joined.count("\n") == max(len(stored) - 1, 0):
        starts = [0, *map(add, accumulate(map(len, stored)), count(1))]
        unstored = []
        if "" in stored or any(map(str.isspace, stored)):
            unstored = [(i, stemmed_terms(row[1])) for i, row in enumerate(syms.rows)
                        if not row[5] or row[5].isspace()]
        lines = (joined, starts, unstored)
    syms.derived["lines"] = lines
    return lines


USED_NAMES_MAX = 400


def used_names(ev: Evaluation, read_text: Callable[[str], str | None]) -> list[str]:
    """Names a file calls or mentions as types, minus its own: candidates for missing context."""
    text = read_text(ev.path)
    if not text:
        return []
    own = set(symbol_names(ev.symbols))
    out: list[str] = []
    for name in _names_in(text):
        if name not in own:
            out.append(name)
            if len(out) == USED_NAMES_MAX:
                break
    return out


def _names_used_by(text: str) -> tuple[str, ...]:
    """Every name over three characters a text calls or mentions as a type, sorted."""
    used = set(_CALL_RE.findall(text)) | set(_TYPE_RE.findall(text))
    return tuple(sorted(u for u in used if len(u) > 3))


_names_in = TextMemo(_names_used_by)
_hit_lines = TextMemo[list[tuple[int, tuple[str, ...]]]](max_chars=4_000_000)
"""hit_lines by (stems pattern, text): the server's next retrieval of a task reads the same."""


def _task_bm25(fid: int, task_stats: list[ConceptStats], subs: dict[str, list[ConceptStats]]) -> float:
    total = 0.0
    for st in task_stats:
        score = st.hits.get(fid, 0.0)
        if not score:
            alternatives = subs.get(st.concept.text)
            score = max((SUBSTITUTE_SHARE * x.hits.get(fid, 0.0) for x in alternatives),
                        default=0.0) if alternatives else 0.0
        total += st.concept.weight * score
    return total


def coverage_weight(n_concepts: int) -> float:
    share = min(1.0, COVERAGE_CONCEPTS / max(n_concepts, 1))
    return W_COVERAGE_LONG + (W_COVERAGE - W_COVERAGE_LONG) * share


def _score(
    ev: Evaluation, row: FileRow, w_coverage: float = W_COVERAGE, off: frozenset[str] | None = None
) -> None:
    if off is None:
        off = ablated_signals()
    f = ev.features
    if off:  # the benchmark's ablations score a copy with some features at zero
        f = dict(f)
        for name in ("graph", "coverage", "explicit", "defines", "scope"):
            if name in off:
                f[name] = 0.0
        if "path" in off:
            f["path_terms"] = 0.0
        if "definitions" in off:
            f["defines"] = f["symbol_terms"] = 0.0
    z = (
        BIAS
        + w_coverage * f["coverage"]
        + W_LEARNED * f["learned"]
        + W_BM25 * f["bm25"]
        + W_DEFINES * f["defines"]
        + W_SYMBOL_TERMS * f["symbol_terms"]
        + W_PATH_TERMS * f["path_terms"]
        + W_EXPLICIT * f["explicit"]
        + W_SCOPE * f.get("scope", 0.0)
        + 0.3 * f["focus"]
        + W_GRAPH * f["graph"]
        + KIND_PENALTY.get(row.kind, 0.0)
        + (VENDORED_PENALTY if _VENDORED_RE.search(row.path) else 0.0)
    )
    ev.score = ev.relevance = round(sigmoid(z), 3)


_NAME_RE = re.compile(r"[\\/.:]+")


def _module_keys(row: FileRow) -> set[str]:
    """Names an import could use for this file: its stem, and its folder for index files."""
    parts = row.path.rsplit(".", 1)[0].split("/")
    keys = {parts[-1].lower()}
    if parts[-1] in ("index", "__init__", "mod", "main") and len(parts) > 1:
        keys.add(parts[-2].lower())
    return keys


_import_keys_memo: dict[str, set[str]] = {}


def _import_keys(target: str) -> set[str]:
    """Names an import statement's target could mean a file by; remembered per target (the
    same imports come back every cycle). The set is shared: callers only read it."""
    keys = _import_keys_memo.get(target)
    if keys is None:
        if len(_import_keys_memo) >= STEMS_MEMO_MAX:
            _import_keys_memo.clear()
        keys = _import_keys_memo[target] = _import_keys_of(target)
    return keys


def _import_keys_of(target: str) -> set[str]:
    segs = [s for s in _NAME_RE.split(target.strip("'\"<>")) if s]
    if not segs:
        return set()
    out = {segs[-1].lower()}
    if len(segs) > 1:
        out.add(segs[-2].lower())
    return out - {"index", "js", "ts", "py", "h", "hpp"}


def _graph_pass(index: Index, evals: list[Evaluation], files: dict[int, FileRow]) -> None:
    """Files that import the strongest candidates, or are imported by them, gain relevance."""
    if len(evals) < 2:
        return
    anchors = [e for e in evals[:ANCHORS] if e.score >= 0.35]
    anchor_keys = {k: e for e in anchors for k in _module_keys(files[e.file_id])}
    imports = index.imports_of_many([e.file_id for e in evals])
    anchor_imports = {
        e.path: {k for t in imports[e.file_id] for k in _import_keys(t)}
        for e in anchors
    }
    for ev in evals:
        fid = ev.file_id
        my_keys = _module_keys(files[fid])
        links: list[str] = []
        for a in anchors:
            if a is ev:
                continue
            if my_keys & anchor_imports.get(a.path, set()):
                links.append(f"imported by {a.path.rsplit('/', 1)[-1]}")
        mine = {k for t in imports[fid] for k in _import_keys(t)}
        linked = {id(anchor_keys[k]) for k in mine if k in anchor_keys}
        for a in anchors:  # in rank order, so that the reason reads the same on every run
            if a is not ev and id(a) in linked:
                links.append(f"imports {a.path.rsplit('/', 1)[-1]}")
        links = list(dict.fromkeys(links))
        ev.features["graph"] = min(len(links), 3) / 3
        ev.graph_links = links


# Possessive runs: a shorter run would end before a word character, where neither pattern can
# go on, so the matches are the same without the backtracking over every identifier.
_CALL_RE = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]{2,}+)\s*\(")
_TYPE_RE = re.compile(r"\b([A-Z][a-z0-9]++[A-Z][A-Za-z0-9]*+)\b")


def concept_stems(concepts: list[Concept]) -> list[str]:
    """The stems a line must contain to count as a hit, longest first (for the regex)."""
    return sorted({t for c in concepts for t in c.terms if len(t) >= 3 and " " not in t},
                  key=len, reverse=True)


MAX_STEMS = 300
TASK_STEM_FACTOR = 2.0
"""A word of the task itself tells more about a line than a term the loop learned."""


def stem_weights(index: Index, concepts: list[Concept], task_concepts: list[Concept]) -> dict[str, float]:
    """What a line that says each stem is worth: rarer in the repository, and the task's own, more."""
    stems = concept_stems(concepts)[:MAX_STEMS]
    if not stems:
        return {}
    n = max(index.file_count(), 2)
    dfs = index.doc_freqs(stems)
    task = {t for c in task_concepts for t in c.terms}
    return {
        s: math.log((n + 1) / (dfs.get(s, 0) + 0.5)) * (TASK_STEM_FACTOR if s in task else 1.0)
        for s in stems
    }


def text_pass(
    evals: list[Evaluation], weights: dict[str, float], read_text: Callable[[str], str | None]
) -> None:
    """Hit lines with the stems each says, and what a stem is worth, for the chosen files' regions."""
    if not weights:
        return
    pattern = trie_regex(sorted(weights, key=len, reverse=True))
    search = re.compile(pattern).search
    for ev in evals:
        text = read_text(ev.path)
        if text is None:
            continue
        hits = _hit_lines.get((pattern, text), text, lambda t: hit_lines(t, search))
        ev.hit_lines = [ln for ln, _ in hits]
        ev.hit_terms = [terms for _, terms in hits]
        ev.term_weights = weights


def hit_lines(text: str, search: Callable, limit: int = 400) -> list[tuple[int, tuple[str, ...]]]:
    """(1-based line, distinct stems) of the lines with a match: one C-speed scan per hit."""
    low = text.lower()
    starts = [0]
    find = low.find
    i = find("\n")
    while i != -1:
        starts.append(i + 1)
        i = find("\n", i + 1)
    out: list[tuple[int, tuple[str, ...]]] = []
    pos = 0
    while len(out) < limit:
        m = search(low, pos)
        if m is None:
            break
        line = bisect.bisect_right(starts, m.start())
        end = starts[line] if line < len(starts) else len(low)
        seen = {m.group(0)}
        j = m.end()
        while True:
            m2 = search(low, j, end)
            if m2 is None:
                break
            seen.add(m2.group(0))
            j = max(m2.end(), j + 1)
        out.append((line, tuple(sorted(seen))))
        if line >= len(starts):
            break
        pos = starts[line]
    return out


def trie_regex(words: list[str]) -> str:
    """One alternation as a prefix trie: Python's re tries a flat alternation word by word."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w.lower():
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_pattern(trie)


def _trie_pattern(node: dict) -> str:
    if "" in node and len(node) == 1:
        return ""
    alts = []
    optional = False
    for ch, child in sorted(node.items()):
        if ch == "":
            optional = True
            continue
        alts.append(re.escape(ch) + _trie_pattern(child))
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    if optional:
        return "(?:" + body + ")?"
    return body


def _reason(ev: Evaluation) -> str:
    bits: list[str] = []
    f = ev.features
    if f.get("explicit"):
        bits.append("named in the task")
    if ev.scopes:
        bits.append(("is" if f.get("scope", 0) >= 0.7 else "in") + " the task's scope " + ", ".join(ev.scopes[:2]))
    if ev.defines:
        bits.append("defines " + ", ".join(f"`{d}`" for d in ev.defines[:3]))
    elif ev.named:
        bits.append("has " + ", ".join(f"`{n}`" for n in ev.named[:3]))
    words = ev.matched_words
    if words:
        where = f" ({len(ev.hit_lines)} lines)" if ev.hit_lines else ""
        bits.append("matches " + ", ".join(words[:5]) + where)
    shown = [w for w in dict.fromkeys(ev.path_words) if w]
    if shown:
        bits.append("path matches " + ", ".join(shown[:3]))
    links = ev.graph_links
    if links:
        bits.append("; ".join(links[:2]))
    if f.get("focus"):
        bits.append("defines a symbol the top files use")
    if f.get("learned") and not words:
        bits.append("matches learned terms")
    return "; ".join(bits) or "weak textual match"
